import DemoScenes
import Dispatch
import Foundation
import Geometry
import Headless
import Raster
import Scripts
import Scrolling
import Synchronization
import Testing
import Views

/// A source that notes which threads draw, and can hold its workers at a gate until the test
/// opens it (so a test knows exactly which tiles are queued and which are being drawn).
final class RecordingSource: TileSource {
    private let threads = Mutex<[ObjectIdentifier]>([])
    private let entered = DispatchSemaphore(value: 0)
    private let gate: DispatchSemaphore?

    init(gated: Bool = false) { gate = gated ? DispatchSemaphore(value: 0) : nil }

    var drawingThreads: [ObjectIdentifier] { threads.withLock { $0 } }

    func draw(_ rect: Rect, in canvas: Canvas) {
        let me = ObjectIdentifier(Thread.current)
        threads.withLock { $0.append(me) }
        entered.signal()
        if let gate {
            gate.wait()
            gate.signal()  // once open, it stays open
        }
        canvas.fill(Rect(origin: .zero, size: rect.size), color: Color(rgb: 200, 120, 40))
    }

    /// Blocks until a worker has started drawing a tile.
    func waitUntilDrawing() { entered.wait() }

    func open() { gate?.signal() }
}

/// A window holding a tiled view inside a clipping viewport: moving the viewport's bounds
/// origin scrolls it.
struct TiledRig {
    let window = Window(size: Size(width: 400, height: 300))
    let viewport = View(frame: Rect(x: 0, y: 0, width: 400, height: 300))
    let tiled = TiledView(contentSize: Size(width: 8192, height: 8192))
    /// Held here: a tiled view holds its source weakly.
    let source: TileSource

    init(source: TileSource, workers: Int = 1) {
        self.source = source
        viewport.clipsToBounds = true
        window.addSubview(viewport)
        viewport.addSubview(tiled)
        tiled.source = source
        tiled.workerCount = workers
        tiled.rasterizesAsynchronously = true
    }

    func scroll(to origin: Point) {
        viewport.bounds.origin = origin
        tiled.updateTiles()
    }

    var installed: [View] { tiled.subviews }
}

@Suite struct AsyncTileTests {
    func tiles(_ d: SceneDriver) -> TiledView { d.window.view(named: "tiles") as! TiledView }

    func fling(_ d: SceneDriver, dx: Double, dy: Double) {
        let t0 = d.time + 0.1
        let c = Point(x: 195, y: 422)
        d.send(.touchDown(id: 1, position: c), at: t0)
        for i in 1...5 {
            d.send(
                .touchMotion(id: 1, position: Point(x: c.x + dx * Double(i) / 5, y: c.y + dy * Double(i) / 5)),
                at: t0 + Double(i) * 0.01)
        }
        d.send(.touchUp(id: 1), at: t0 + 0.06)
        d.run(until: d.time + 1)
    }

    @Test func theSourceIsNeverCalledOnTheWindowsThread() {
        let d = SceneDriver(.zoom)
        let tiled = tiles(d)
        let source = RecordingSource()
        tiled.source = source
        let me = ObjectIdentifier(Thread.current)
        for (dx, dy) in [(-300.0, 0.0), (0, -400)] { fling(d, dx: dx, dy: dy) }
        d.window.finishBackgroundWork()
        let threads = source.drawingThreads
        #expect(threads.count > 10)
        #expect(!threads.contains(me))
    }

    @Test func everyRequestedTileArrivesOrIsCancelled() {
        let d = SceneDriver(.zoom)
        let tiled = tiles(d)
        for (dx, dy) in [(-300.0, 0.0), (0, -400), (300, 400)] { fling(d, dx: dx, dy: dy) }
        d.settle()
        d.window.finishBackgroundWork()
        d.settle()  // fades end
        #expect(tiled.pendingTileCount == 0)
        // Every request was drawn (and logged) or cancelled before a worker started it.
        #expect(tiled.requestedTileCount == tiled.rasterized.count + tiled.cancelledTileCount)
        #expect(tiled.requestedTileCount > 40)
        // What the view wants now is all there: another update asks for nothing.
        let asked = tiled.requestedTileCount
        tiled.updateTiles()
        #expect(tiled.requestedTileCount == asked)
        #expect(tiled.coversVisibleRect && tiled.missingVisibleTileCount == 0)
        #expect(tiled.memoryInUse == tiled.subviews.count * 256 * 256 * 4)
    }

    @Test func theCoarseLevelStaysUntilTheFineLevelCoversTheView() {
        let d = SceneDriver(.zoom)
        let tiled = tiles(d)
        d.window.finishBackgroundWork()
        d.settle()
        #expect(tiled.level == 1 && tiled.coversVisibleRect)
        // Every point of the visible rect must show an opaque tile in every frame of the zoom.
        var holes: [String] = []
        func check() {
            let z = d.main.zoomScale
            let o = d.main.contentOffset
            for i in 0..<9 {
                for j in 0..<9 {
                    let p = Point(
                        x: (o.x + 390 * (Double(i) + 0.5) / 9) / z, y: (o.y + 844 * (Double(j) + 0.5) / 9) / z)
                    if !tiled.subviews.contains(where: { $0.alpha >= 1 && $0.frame.contains(p) }) {
                        holes.append("t \(d.time) level \(tiled.level) at \(p)")
                    }
                }
            }
        }
        d.afterFrame = check
        // The fine tiles wait at a gate: frames go out without them.
        let gated = RecordingSource(gated: true)
        tiled.source = gated
        d.main.setZoomScale(2, animated: false)
        #expect(tiled.level == 2)
        check()
        d.run(until: d.time + 0.1)
        #expect(tiled.missingVisibleTileCount > 0)
        #expect(tiled.subviews.contains { $0.contentsScale == 1 })
        gated.open()
        d.window.finishBackgroundWork()
        // They arrived late, so they fade in, and the coarse tiles stay behind until they cover.
        #expect(tiled.missingVisibleTileCount == 0 && !tiled.coversVisibleRect)
        #expect(tiled.subviews.contains { $0.contentsScale == 1 })
        d.settle()
        #expect(holes.count == 0, "\(holes.prefix(3))")
        #expect(tiled.coversVisibleRect)
        #expect(tiled.subviews.allSatisfy { $0.contentsScale == 2 })
    }

    @Test func aLateTileFadesInOnTheWindowClock() throws {
        let source = RecordingSource(gated: true)
        let rig = TiledRig(source: source)
        rig.tiled.fadeDuration = 0.2
        rig.tiled.updateTiles()
        try rig.window.prepareFrame(time: 0)  // goes out without the tiles
        #expect(rig.installed.isEmpty)
        source.open()
        rig.window.finishBackgroundWork()
        let tile = try #require(rig.installed.first)
        #expect(tile.alpha == 0)
        for (t, alpha) in [(0.05, 0.25), (0.1, 0.5), (0.15, 0.75), (0.2, 1.0)] {
            try rig.window.prepareFrame(time: t)
            #expect(abs(tile.alpha - alpha) < 1e-9, "t \(t)")
        }
        #expect(!rig.window.hasActiveAnimations)
        #expect(rig.tiled.coversVisibleRect)
    }

    @Test func aTileThatArrivesBeforeAnyFrameMissedItShowsAtOnce() throws {
        let rig = TiledRig(source: RecordingSource())
        rig.tiled.updateTiles()
        rig.window.finishBackgroundWork()
        try rig.window.prepareFrame(time: 0)
        #expect(!rig.installed.isEmpty && rig.installed.allSatisfy { $0.alpha == 1 })
        #expect(!rig.window.hasActiveAnimations)
    }

    @Test func tileMemoryStaysUnderTheCapWhileFlinging() {
        let d = SceneDriver(.zoom)
        let tiled = tiles(d)
        // One screenful plus margin (at most 24 tiles of 256²) and one tile per worker that may
        // still be finishing a cancelled one: eviction must keep everything else out.
        tiled.memoryCap = (24 + TiledView.defaultWorkerCount) * 256 * 256 * 4
        var peak = 0
        d.afterFrame = { peak = max(peak, tiled.memoryInUse) }
        for (dx, dy) in [(-300.0, 0.0), (0, -400), (300, 0), (0, 400), (-300, -400), (300, 400)] {
            fling(d, dx: dx, dy: dy)
            peak = max(peak, tiled.memoryInUse)
        }
        d.window.finishBackgroundWork()
        #expect(tiled.rasterized.count > 40)
        #expect(peak <= tiled.memoryCap, "peak \(peak) bytes")
        #expect(tiled.memoryInUse <= tiled.memoryCap)
        let outside = tiled.rasterized.filter { !$0.tile.intersects($0.allowed) }
        #expect(outside.isEmpty, "\(outside.prefix(3))")
    }

    @Test func tilesThatLeftTheViewAreCancelledOrDropped() throws {
        let source = RecordingSource(gated: true)
        let rig = TiledRig(source: source, workers: 1)
        rig.scroll(to: .zero)
        let asked = rig.tiled.requestedTileCount
        #expect(asked >= 4)
        source.waitUntilDrawing()  // the one worker holds one tile; the rest are queued
        rig.scroll(to: Point(x: 5000, y: 5000))
        #expect(rig.tiled.cancelledTileCount == asked - 1)
        source.open()
        rig.window.finishBackgroundWork()
        #expect(rig.tiled.discardedTileCount == 1)
        #expect(rig.tiled.pendingTileCount == 0)
        let allowed = Rect(x: 5000 - 128, y: 5000 - 128, width: 400 + 256, height: 300 + 256)
        #expect(!rig.installed.isEmpty)
        #expect(rig.installed.allSatisfy { $0.frame.intersects(allowed) })
        // Only the tiles still wanted are held: the cancelled ones' bytes were given back.
        #expect(rig.tiled.memoryInUse == rig.installed.count * 256 * 256 * 4)
        // The tile that was being drawn is logged with the rect allowed when it was asked for.
        let first = try #require(rig.tiled.rasterized.first)
        #expect(first.tile.intersects(first.allowed) && !first.tile.intersects(allowed))
    }

    @Test func headlessPlaysAreTheSameWithTilesOnWorkersOrNot() throws {
        let text = """
            {"t": 0, "type": "touch.down", "id": 0, "x": 200, "y": 500}
            {"t": 0, "type": "touch.frame"}
            {"t": 16, "type": "touch.motion", "id": 0, "x": 150, "y": 400}
            {"t": 16, "type": "touch.frame"}
            {"t": 32, "type": "touch.motion", "id": 0, "x": 100, "y": 250}
            {"t": 32, "type": "touch.frame"}
            {"t": 40, "type": "touch.up", "id": 0}
            {"t": 100, "type": "screenshot", "name": "moving"}
            {"t": 3000, "type": "screenshot", "name": "rest"}
            """
        let script = try ScriptParser(file: "fling", isKeysym: { _ in true }).parse(text)
        func play(asynchronous: Bool) throws -> (trace: String, shots: [String: [UInt8]]) {
            let window = Scene.zoom.makeWindow()
            let tiled = try #require(window.view(named: "tiles") as? TiledView)
            if !asynchronous {
                tiled.rasterizesAsynchronously = false
                tiled.updateTiles()
            }
            let player = try HeadlessPlayer(window: window)
            try player.play(script)
            return (player.recorder.text, try player.screenshots.mapValues { try PNG.encode($0) })
        }
        let sync = try play(asynchronous: false)
        let first = try play(asynchronous: true)
        let second = try play(asynchronous: true)
        #expect(first.trace == sync.trace)
        #expect(first.shots.keys.sorted() == ["moving", "rest"])
        #expect(first.shots == sync.shots)
        #expect(second.shots == first.shots && second.trace == first.trace)
    }
}
