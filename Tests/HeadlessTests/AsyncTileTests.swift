import Dispatch
import Foundation
import Glibc
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayRaster
import ScrollwayReplay
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews
import Synchronization
import Testing

/// A source that notes which threads draw, and can hold its workers at a gate until the test
/// opens it (so a test knows exactly which tiles are queued and which are being drawn).
final class RecordingSource: TileSource {
    private let threads = Mutex<[ObjectIdentifier]>([])
    private let rects = Mutex<[Rect]>([])
    private let batch = Mutex<[Bool]>([])
    private let entered = DispatchSemaphore(value: 0)
    private let gate: DispatchSemaphore?
    let color: Color

    init(gated: Bool = false, color: Color = Color(rgb: 200, 120, 40)) {
        gate = gated ? DispatchSemaphore(value: 0) : nil
        self.color = color
    }

    var drawingThreads: [ObjectIdentifier] { threads.withLock { $0 } }
    /// Whether each draw ran on a thread that yields to the one it wakes beside
    /// (`BackgroundThread.yieldsOnWake`).
    var drawnOnBatchThreads: [Bool] { batch.withLock { $0 } }
    /// The rects asked for, in the order the draws began.
    var drawnRects: [Rect] { rects.withLock { $0 } }

    func draw(_ rect: Rect, in canvas: Canvas) {
        let me = ObjectIdentifier(Thread.current)
        threads.withLock { $0.append(me) }
        rects.withLock { $0.append(rect) }
        let yields = BackgroundThread.yieldsOnWake
        batch.withLock { $0.append(yields) }
        entered.signal()
        if let gate {
            gate.wait()
            gate.signal()  // once open, it stays open
        }
        canvas.fill(Rect(origin: .zero, size: rect.size), color: color)
    }

    /// Blocks until a worker has started drawing a tile.
    func waitUntilDrawing() { entered.wait() }

    func open() { gate?.signal() }
}

@MainActor
/// A window holding a tiled view inside a clipping viewport: moving the viewport's bounds
/// origin scrolls it.
struct TiledRig {
    let window: Window
    let viewport: View
    let tiled = TiledView(contentSize: Size(width: 8192, height: 8192))
    /// Held here: a tiled view holds its source weakly.
    let source: TileSource?

    init(
        source: TileSource?, workers: Int = 1, asynchronous: Bool = true,
        window size: Size = Size(width: 400, height: 300), viewport: Rect = Rect(x: 0, y: 0, width: 400, height: 300)
    ) {
        self.source = source
        window = Window(size: size)
        self.viewport = View(frame: viewport)
        self.viewport.clipsToBounds = true
        window.addSubview(self.viewport)
        self.viewport.addSubview(tiled)
        tiled.recordsRasterization = true
        tiled.source = source
        tiled.workerCount = workers
        tiled.rasterizesAsynchronously = asynchronous
    }

    func scroll(to origin: Point) {
        viewport.bounds.origin = origin
        tiled.updateTiles()
    }

    /// The tiles in the view tree (those in reach; cached ones wait outside it).
    var installed: [View] { tiled.subviews }
}

/// A gate a test can close and reopen, at which worker threads wait while it is closed.
final class WorkerGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var open = true

    func hold() {
        condition.lock()
        open = false
        condition.unlock()
    }

    func release() {
        condition.lock()
        open = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits while the gate is closed.
    func pass() {
        condition.lock()
        while !open { condition.wait() }
        condition.unlock()
    }
}

/// A source a test can hold at a gate, close again and reopen (for zoom steps whose finer
/// tiles must wait while frames go out).
final class HoldingSource: TileSource {
    let gate = WorkerGate()

    func hold() { gate.hold() }
    func release() { gate.release() }

    func draw(_ rect: Rect, in canvas: Canvas) {
        gate.pass()
        canvas.fill(Rect(origin: .zero, size: rect.size), color: Color(rgb: 90, 160, 90))
    }
}

/// A source that can hold its workers at a gate and notes every canvas that did not
/// come transparent; it fills only a tile's top-left quarter, so memory drawn in before and
/// not cleared would show. Made opaque, it fills the whole tile, as an opaque source must.
final class QuarterSource: TileSource {
    let gate = WorkerGate()
    let isOpaque: Bool
    private let state = Mutex<(drawn: Int, dirty: Int)>((0, 0))

    init(opaque: Bool = false) { isOpaque = opaque }

    var drawn: Int { state.withLock { $0.drawn } }
    var dirty: Int { state.withLock { $0.dirty } }

    func draw(_ rect: Rect, in canvas: Canvas) {
        gate.pass()
        let clean = canvas.withPixels { pixels in !pixels.contains { $0 != 0 } }
        state.withLock { s in
            s.drawn += 1
            if !clean { s.dirty += 1 }
        }
        let area = isOpaque ? rect.size : Size(width: rect.width / 2, height: rect.height / 2)
        canvas.fill(Rect(origin: .zero, size: area), color: Color(rgb: 30, 140, 200))
    }
}

/// Notes, at the moment it draws, whether the rect it is asked for meets the rect the test says
/// is visible plus margin then (published from the scroll view's geometry, not the tiled view's).
final class AllowedRectSource: TileSource {
    private let state = Mutex<(allowed: Rect?, drawn: Int, outside: [String])>((nil, 0, []))

    func allow(_ rect: Rect?) { state.withLock { $0.allowed = rect } }
    var drawn: Int { state.withLock { $0.drawn } }
    var outside: [String] { state.withLock { $0.outside } }

    func draw(_ rect: Rect, in canvas: Canvas) {
        state.withLock { s in
            s.drawn += 1
            if !(s.allowed.map { rect.intersects($0) } ?? false) {
                s.outside.append("\(rect) outside \(String(describing: s.allowed))")
            }
        }
        canvas.fill(Rect(origin: .zero, size: rect.size), color: Color(rgb: 40, 90, 200))
    }
}

@MainActor
@Suite struct AsyncTileTests {
    let tileBytes = TileGeometry.tileBytes

    func tiles(_ d: SceneDriver) -> TiledView { d.window.view(named: "tiles") as! TiledView }

    func fling(_ d: SceneDriver, dx: Double, dy: Double) {
        d.flick(from: Point(x: 195, y: 422), by: Point(x: dx, y: dy))
        d.advance(to: d.time + 1)
    }

    /// Tiles of 256 content pixels that meet the main scroll view's visible rect now.
    func visibleKeys(_ d: SceneDriver) -> Set<[Int]> {
        TileGeometry.allowed(d.main, margin: 0, content: MapSource.size).map {
            TileGeometry.keys(meeting: $0, edge: 256)
        } ?? []
    }

    @Test func theSourceIsNeverCalledOnTheWindowsThread() {
        let d = SceneDriver(.zoom)
        let tiled = tiles(d)
        d.window.finishBackgroundWork()
        let before = tiled.rasterizedTileCount
        let source = RecordingSource()
        tiled.source = source  // redraws what is installed, with this source
        let me = ObjectIdentifier(Thread.current)
        d.window.finishBackgroundWork()
        var atRest = visibleKeys(d)
        for (dx, dy) in [(-300.0, 0.0), (0, -400)] {
            fling(d, dx: dx, dy: dy)
            d.settle()
            d.window.finishBackgroundWork()
            atRest.formUnion(visibleKeys(d))
        }
        let threads = source.drawingThreads
        // Every tile it drew arrived (none was dropped: nothing else changed the source), and it
        // drew at least every tile shown where the flings came to rest.
        #expect(threads.count == tiled.rasterizedTileCount - before)
        #expect(threads.count >= atRest.count && atRest.count > 10, "\(threads.count) \(atRest.count)")
        #expect(!threads.contains(me))
    }

    /// Workers are batch threads: woken while the main thread prepares a frame, they wait for it
    /// to sleep instead of taking its core (`BackgroundThread.yieldOnWake`). The test's own
    /// thread is not one, so the check is of the workers.
    @Test @MainActor func workersDoNotPreemptTheFrameThatWakesThem() {
        let source = RecordingSource()
        let rig = TiledRig(source: source, workers: 2)
        rig.tiled.updateTiles()
        _ = rig.window.finishBackgroundWork()
        let draws = source.drawnOnBatchThreads
        #expect(draws.count >= 4 && draws.allSatisfy { $0 }, "\(draws)")
        #expect(!BackgroundThread.yieldsOnWake)
    }

    /// A system that refuses worker threads (a limit on processes: a kiosk's service with a
    /// small `TasksMax`) gets its tiles drawn by the thread that asks for them, and the next
    /// update tries a worker again: started with Foundation's `Thread`, a refused worker was
    /// never known to be missing, and the view stayed blank (a rig's zoom timed out waiting for
    /// rest; docs/decisions.md, Hostile input 0.15.36).
    @Test @MainActor func tilesAreDrawnByTheCallerWhenNoWorkerCanStart() throws {
        let source = RecordingSource()
        let rig = TiledRig(source: nil, workers: 2)
        let refuses = Mutex(true)
        let asked = Mutex(0)
        rig.tiled.workerStarter = { name, body in
            asked.withLock { $0 += 1 }
            return refuses.withLock { $0 } ? EAGAIN : BackgroundThread.start(named: name, body)
        }
        let me = ObjectIdentifier(Thread.current)
        rig.tiled.source = source  // held here: the view holds it weakly
        // Drawn before the update returned, all of them on this thread (required: else no
        // thread would ever draw them, and waiting for them below would never end); one
        // refusal ends the attempts for that update.
        let first = source.drawingThreads
        try #require(first.count >= 4 && first.allSatisfy { $0 == me }, "\(first.count)")
        #expect(asked.withLock { $0 } == 1)
        _ = rig.window.finishBackgroundWork()
        #expect(rig.tiled.coversVisibleRect && rig.tiled.missingVisibleTileCount == 0)
        #expect(rig.tiled.pendingTileCount == 0)
        // Threads allowed again: the next update's tiles go to a worker.
        refuses.withLock { $0 = false }
        rig.scroll(to: Point(x: 0, y: 1200))
        _ = rig.window.finishBackgroundWork()
        let later = source.drawingThreads.dropFirst(first.count)
        #expect(!later.isEmpty && !later.contains(me), "\(later.count)")
        #expect(rig.tiled.coversVisibleRect && rig.tiled.missingVisibleTileCount == 0)
        withExtendedLifetime(source) {}
    }

    @Test func everyRequestedTileArrivesOrIsCancelled() {
        let d = SceneDriver(.zoom)
        let tiled = tiles(d)
        var seen = visibleKeys(d)
        d.afterFrame = { seen.formUnion(visibleKeys(d)) }
        for (dx, dy) in [(-300.0, 0.0), (0, -400), (300, 400)] { fling(d, dx: dx, dy: dy) }
        d.settle()
        d.window.finishBackgroundWork()
        d.settle()  // fades end
        #expect(tiled.pendingTileCount == 0)
        // Every request was drawn or cancelled before a worker started it.
        #expect(tiled.requestedTileCount == tiled.rasterizedTileCount + tiled.cancelledTileCount)
        #expect(tiled.requestedTileCount >= seen.count && seen.count > 40)
        // What the view wants now is all there: another update asks for nothing.
        let asked = tiled.requestedTileCount
        tiled.updateTiles()
        #expect(tiled.requestedTileCount == asked)
        #expect(tiled.coversVisibleRect && tiled.missingVisibleTileCount == 0)
        #expect(tiled.memoryInUse == tiled.installedTiles.count * tileBytes)
        #expect(TileGeometry.backingBytes(tiled) == tiled.memoryInUse)
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
        // The next frame would ask for the new level's tiles; ask now, to look before it.
        tiled.updateTiles()
        #expect(tiled.level == 2)
        check()
        d.advance(to: d.time + 0.1)
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

    /// Zoom steps in and out, each under a cap that fits exactly the new level's tiles meeting
    /// the visible rect plus margin, the old level's tiles meeting the visible rect and a tile
    /// per worker, with the new tiles held back while frames go out: nothing that showed goes
    /// blank, the two levels coexist while the new one fades in, and neither `memoryInUse` nor
    /// the bytes of the backing images really held ever exceed the cap. Starved (a 1-byte cap,
    /// which only the tiles in view may exceed), the old level's tiles on screen still stay.
    @Test(arguments: [false, true])
    func aZoomSweepUnderATightCapNeverBlanksTheScreen(starved: Bool) {
        let d = SceneDriver(.zoom)
        let tiled = tiles(d)
        let s = d.main
        d.window.finishBackgroundWork()
        d.settle()
        let source = HoldingSource()
        tiled.source = source
        d.window.finishBackgroundWork()
        d.settle()
        let zooms = [1.5, 2.5, 5, 2, 0.9, 0.6, 0.3, 0.6, 1.3]
        var overCap: [String] = []
        var holes: [String] = []
        var shownBefore: [Point] = []
        func opaque(_ p: Point) -> Bool { tiled.subviews.contains { $0.alpha >= 1 && $0.frame.contains(p) } }
        d.afterFrame = {
            let used = (tiled.memoryInUse, TileGeometry.backingBytes(tiled))
            if !starved && max(used.0, used.1) > tiled.memoryCap {
                overCap.append("zoom \(s.zoomScale): \(used) of \(tiled.memoryCap)")
            }
            for p in shownBefore where !opaque(p) { holes.append("zoom \(s.zoomScale) level \(tiled.level) at \(p)") }
        }
        var coexisted = 0
        for zoom in zooms {
            // The content points on screen (sampled) that show an opaque tile before the step.
            let z = s.zoomScale
            let o = s.contentOffset
            let samples = (0..<81).map { k in
                Point(x: (o.x + 390 * (Double(k % 9) + 0.5) / 9) / z, y: (o.y + 844 * (Double(k / 9) + 0.5) / 9) / z)
            }.filter(opaque)
            #expect(samples.count == 81)
            let oldEdge = 256 / tiled.level
            source.hold()
            tiled.memoryCap = 64 << 20
            s.setZoomScale(zoom, animated: false)
            tiled.updateTiles()  // what the next frame would do first: the new level
            let newEdge = 256 / tiled.level
            guard let visible = TileGeometry.allowed(s, margin: 0, content: MapSource.size),
                let allowed = TileGeometry.allowed(s, margin: tiled.margin, content: MapSource.size)
            else { return }
            let wanted = TileGeometry.keys(meeting: allowed, edge: newEdge).count
            let fallback = oldEdge == newEdge ? 0 : TileGeometry.keys(meeting: visible, edge: oldEdge).count
            tiled.memoryCap = starved ? 1 : (wanted + fallback + TiledView.defaultWorkerCount) * tileBytes
            tiled.updateTiles()  // evicts down to the new cap
            // Still on screen after the step: those points must keep showing something.
            shownBefore = samples.filter { visible.contains($0) }
            for p in shownBefore where !opaque(p) { holes.append("zoom \(zoom) at once, at \(p)") }
            d.advance(to: d.time + 0.1)
            source.release()
            d.window.finishBackgroundWork()
            d.advance(to: d.time + 1.0 / 60)
            // Arrived late: fading in over the old level, which stays until they cover.
            if Set(tiled.subviews.compactMap(\.contentsScale)).count > 1 { coexisted += 1 }
            d.settle()
            shownBefore = []
            #expect(tiled.coversVisibleRect && tiled.level == TiledView.level(forZoom: zoom), "zoom \(zoom)")
        }
        // 1.5 → 2.5 keeps level 2; every other step changes the level.
        #expect(coexisted == zooms.count - 1, "levels coexisted in \(coexisted) steps")
        #expect(holes.isEmpty, "\(holes.count) holes: \(holes.prefix(3))")
        #expect(overCap.isEmpty, "\(overCap.count): \(overCap.prefix(3))")
    }

    /// A rig whose first frame went out without its tiles (their source held at a gate), the
    /// tiles arrived after it: those the screen went without fade in over `fade` seconds.
    func lateTiles(fade: Double) throws -> TiledRig {
        let source = RecordingSource(gated: true)
        let rig = TiledRig(source: source)
        rig.tiled.fadeDuration = fade
        rig.tiled.updateTiles()
        try rig.window.prepareFrame(time: 0)  // goes out without the tiles
        #expect(rig.installed.isEmpty)
        source.open()
        rig.window.finishBackgroundWork()
        return rig
    }

    @Test func aLateTileFadesInOnTheWindowClockWhereTheScreenWentWithoutIt() throws {
        let rig = try lateTiles(fade: 0.2)
        // The window shows 400 × 300 of the content; the 128 px margin reaches the third column
        // of 256 px tiles, which the screen never went without: those show at once.
        let shown = Rect(x: 0, y: 0, width: 400, height: 300)
        let visible = rig.installed.filter { $0.frame.intersects(shown) }
        let margin = rig.installed.filter { !$0.frame.intersects(shown) }
        #expect(visible.count == 4 && margin.count == 2, "\(rig.installed.map(\.frame))")
        #expect(visible.allSatisfy { $0.alpha == 0 })
        #expect(margin.allSatisfy { $0.alpha == 1 })
        let tile = try #require(visible.first)
        for (t, alpha) in [(0.05, 0.25), (0.1, 0.5), (0.15, 0.75), (0.2, 1.0)] {
            try rig.window.prepareFrame(time: t)
            #expect(abs(tile.alpha - alpha) < 1e-9, "t \(t)")
        }
        #expect(!rig.window.hasActiveAnimations)
        #expect(rig.tiled.coversVisibleRect)
    }

    /// A late tile arriving while the view sweeps past faster than `fadeSpeedLimit` appears
    /// at once; slower, it fades in as before. The speed is the visible rect's move between
    /// the last two frames, on screen.
    @Test(arguments: [(step: 40.0, fades: false), (step: 10.0, fades: true)])
    func aLateTileArrivingWhileTheViewSweepsPastShowsAtOnce(step: Double, fades: Bool) throws {
        let source = RecordingSource(gated: true)
        let rig = TiledRig(source: source)
        rig.tiled.updateTiles()
        try rig.window.prepareFrame(time: 0)  // goes out without the tiles
        #expect(rig.installed.isEmpty)
        // Two frames a 64th of a second apart (exact in binary), `step` points further down each.
        for frame in 1...2 {
            rig.viewport.bounds.origin = Point(x: 0, y: step * Double(frame))
            try rig.window.prepareFrame(time: Double(frame) / 64)
        }
        #expect(rig.tiled.screenSpeed == step * 64)  // 2,560 or 640 points a second
        source.open()
        rig.window.finishBackgroundWork()
        let shown = Rect(x: 0, y: 2 * step, width: 400, height: 300)
        let visible = rig.installed.filter { $0.frame.intersects(shown) }
        #expect(visible.count == 4)
        #expect(visible.allSatisfy { $0.alpha == (fades ? 0 : 1) })
        #expect(rig.window.hasActiveAnimations == fades)
        // Still for a frame: no speed. A zoom between two frames is no sweep either, whatever
        // its visible rect did: a new level's tiles fade in over the old level's.
        try rig.window.prepareFrame(time: 3.0 / 64)
        #expect(rig.tiled.screenSpeed == 0)
        rig.viewport.bounds.origin = Point(x: 0, y: 6 * step)
        try rig.window.prepareFrame(time: 4.0 / 64)
        #expect(rig.tiled.screenSpeed == 4 * step * 64)
        rig.tiled.transform = AffineTransform(scaleX: 2, y: 2)
        rig.viewport.bounds.origin = Point(x: 0, y: 60 * step)
        try rig.window.prepareFrame(time: 5.0 / 64)
        #expect(rig.tiled.screenSpeed == 0)
    }

    @Test func aTileThatArrivesBeforeAnyFrameMissedItShowsAtOnce() throws {
        let rig = TiledRig(source: RecordingSource())
        rig.tiled.updateTiles()
        rig.window.finishBackgroundWork()
        try rig.window.prepareFrame(time: 0)
        #expect(!rig.installed.isEmpty && rig.installed.allSatisfy { $0.alpha == 1 })
        #expect(!rig.window.hasActiveAnimations)
    }

    /// The 400 × 300 viewport of `TiledRig` at `origin` plus the 128 px margin: the tiles in
    /// reach, as (column, row) of 256 px tiles.
    func reach(_ rig: TiledRig, _ origin: Point) throws -> Set<[Int]> {
        let rect = try #require(
            Rect(x: origin.x - 128, y: origin.y - 128, width: 656, height: 556).intersection(rig.tiled.bounds))
        return TileGeometry.keys(meeting: rect, edge: 256)
    }

    func keys(_ views: [View]) -> Set<[Int]> {
        Set(
            views.map {
                [
                    Int(clamping: $0.frame.minX / 256, rounding: .down),
                    Int(clamping: $0.frame.minY / 256, rounding: .down),
                ]
            })
    }

    /// Places far from each other and from (400, 300): twelve tiles in reach at each.
    static let tour = [
        Point(x: 2048, y: 2048), Point(x: 4096, y: 2048), Point(x: 2048, y: 4096), Point(x: 4096, y: 4096),
    ]

    /// Tiles out of reach wait in the cache outside the view tree (every frame's walks visit a
    /// view's subviews one by one), leaving it in batches, and come back in place, undrawn,
    /// when scrolled back into reach: the frame built from them is the frame composited whole.
    @Test func cachedTilesWaitOutsideTheViewTreeAndComeBackWithoutADraw() throws {
        let rig = TiledRig(source: MapSource())
        let canvas = try Canvas(width: 400, height: 300, scale: 1)
        var time = 0.0
        func frame() throws {
            rig.window.finishBackgroundWork()
            time += 0.02
            try rig.window.render(into: canvas, time: time)
        }
        // Home shows four of the map's 512 px blocks.
        let home = Point(x: 400, y: 300)
        rig.scroll(to: home)
        try frame()
        #expect(try keys(rig.installed) == reach(rig, home) && rig.installed.count == 9)
        let homeTiles = Set(rig.installed.map(ObjectIdentifier.init))
        var largestTree = 0
        for place in Self.tour {
            rig.scroll(to: place)
            try frame()
            try frame()
            #expect(try keys(rig.installed).isSuperset(of: reach(rig, place)))
            largestTree = max(largestTree, rig.installed.count)
        }
        // Held: every tile asked for on the way (nine at home, twelve at each place, and the
        // six asked for at (0, 0) before the first move that were drawn by then). In the tree:
        // those in reach and at most a batch more, never the whole cache.
        let held = rig.tiled.tileCount
        #expect(held >= 9 + 12 * Self.tour.count && rig.tiled.installedTiles.count == held)
        #expect(largestTree <= 12 + 32 && rig.installed.count < held - 9)
        #expect(homeTiles.isDisjoint(with: rig.installed.map(ObjectIdentifier.init)))
        #expect(TileGeometry.backingBytes(rig.tiled) == rig.tiled.memoryInUse)
        let drawn = rig.tiled.rasterizedTileCount
        rig.scroll(to: home)
        try frame()
        #expect(rig.tiled.rasterizedTileCount == drawn)
        #expect(homeTiles.isSubset(of: rig.installed.map(ObjectIdentifier.init)))
        #expect(rig.installed.allSatisfy { $0.alpha == 1 && $0.backingImage != nil })
        let whole = try Canvas(width: 400, height: 300, scale: 1)
        rig.window.composite(into: whole)
        var differing = 0
        for y in 0..<300 {
            for x in 0..<400 where canvas.pixel(x: x, y: y) != whole.pixel(x: x, y: y) { differing += 1 }
        }
        #expect(differing == 0)
        #expect(canvas.pixel(x: 10, y: 10) != canvas.pixel(x: 390, y: 290))  // two blocks' colours
    }

    /// A tile fading in when it leaves the view tree ends its fade there: back in reach, it is
    /// opaque.
    @Test func aFadingTileThatLeavesTheTreeComesBackOpaque() throws {
        let rig = try lateTiles(fade: 10)
        var time = 0.05
        try rig.window.prepareFrame(time: time)
        let fading = rig.installed.filter { $0.alpha < 1 }
        #expect(fading.count == 4 && fading.allSatisfy { abs($0.alpha - 0.005) < 1e-9 })
        for place in Self.tour {
            rig.scroll(to: place)
            rig.window.finishBackgroundWork()
            time += 0.05
            try rig.window.prepareFrame(time: time)
        }
        #expect(fading.allSatisfy { $0.superview == nil && $0.alpha == 1 })
        rig.scroll(to: .zero)
        time += 0.05
        try rig.window.prepareFrame(time: time)
        #expect(fading.allSatisfy { $0.superview != nil && $0.alpha == 1 })
        #expect(!rig.window.hasActiveAnimations && rig.tiled.coversVisibleRect)
    }

    /// A tile evicted to make room for queued tiles gives them its memory: drawn in again,
    /// cleared first, instead of freed on the main thread and allocated anew. The memory kept
    /// for queued tiles counts against the cap, and none is kept once nothing is queued. An
    /// opaque source, which paints every pixel, is given the memory as it was: clearing it would
    /// write each tile twice.
    @Test(arguments: [false, true]) func evictedTilesMemoryIsDrawnInAgain(opaque: Bool) throws {
        let source = QuarterSource(opaque: opaque)
        let rig = TiledRig(source: source)
        rig.window.finishBackgroundWork()
        // At (0, 0): 0 … 528 × 0 … 428 in reach, three columns and two rows.
        #expect(rig.tiled.tileCount == 6 && source.drawn == 6 && rig.tiled.reusedTileImageCount == 0)
        rig.tiled.memoryCap = 12 * tileBytes  // one place of the tour
        var peak = 0
        var reused: [Int] = []
        for place in Self.tour + Self.tour {
            // Held, the worker takes at most one of the twelve new tiles before the update
            // evicts the last place's: the others are drawn in the evicted tiles' memory.
            source.gate.hold()
            let before = rig.tiled.reusedTileImageCount
            rig.scroll(to: place)
            peak = max(peak, rig.tiled.memoryInUse)
            source.gate.release()
            rig.window.finishBackgroundWork()
            #expect(rig.tiled.missingVisibleTileCount == 0 && rig.tiled.tileCount == 12)
            // At rest nothing is kept beyond the tiles.
            #expect(rig.tiled.memoryInUse == 12 * tileBytes)
            reused.append(rig.tiled.reusedTileImageCount - before)
        }
        #expect(source.drawn == 6 + 8 * 12)
        // The first place had only the six tiles at (0, 0) to give; every later one had twelve,
        // less the one a worker may have taken first.
        #expect(reused.first == 6)
        #expect(reused.dropFirst().allSatisfy { (11...12).contains($0) }, "\(reused)")
        // Every reused tile came with the pixels of the tile evicted for it, or none did.
        #expect(source.dirty == (opaque ? reused.reduce(0, +) : 0))
        #expect(peak <= rig.tiled.memoryCap, "peak \(peak) bytes")
        // What the window shows is the source's alone either way.
        let canvas = try Canvas(width: 400, height: 300, scale: 1)
        rig.window.composite(into: canvas)
        let blue = Color(rgb: 30, 140, 200).premultipliedARGB
        #expect(canvas.pixel(x: 10, y: 10) == blue)
        if opaque {
            #expect(canvas.withPixels { pixels in pixels.allSatisfy { $0 == blue } })
        }
    }

    @Test func tileMemoryStaysUnderTheCapWhileFlinging() {
        let d = SceneDriver(.zoom)
        let tiled = tiles(d)
        // One screenful plus margin (at most 24 tiles of 256²) and one tile per worker that may
        // still be finishing a cancelled one: eviction must keep everything else out.
        let wanted = TileGeometry.maxTiles(width: 390 + 256, height: 844 + 256, edge: 256)
        #expect(wanted == 24)
        tiled.memoryCap = (wanted + TiledView.defaultWorkerCount) * tileBytes
        var peak = 0
        var peakBacking = 0
        d.afterFrame = {
            peak = max(peak, tiled.memoryInUse)
            peakBacking = max(peakBacking, TileGeometry.backingBytes(tiled))
        }
        // Tiles shown where each fling comes to rest: they must all have been drawn (tiles only
        // flown over may be cancelled before a worker gets to them).
        var atRest: Set<[Int]> = []
        let before = tiled.rasterizedTileCount
        for (dx, dy) in [(-300.0, 0.0), (0, -400), (300, 0), (0, 400), (-300, -400), (300, 400)] {
            fling(d, dx: dx, dy: dy)
            peak = max(peak, tiled.memoryInUse)
            d.settle()
            d.window.finishBackgroundWork()
            #expect(tiled.missingVisibleTileCount == 0)
            atRest.formUnion(visibleKeys(d))
        }
        // More tiles were shown than the cap holds: eviction had to make room.
        #expect(tiled.rasterizedTileCount - before >= atRest.count && atRest.count > wanted)
        #expect(peak <= tiled.memoryCap, "peak \(peak) bytes")
        #expect(peakBacking <= tiled.memoryCap, "backing peak \(peakBacking) bytes")
        #expect(tiled.memoryInUse <= tiled.memoryCap)
    }

    /// Each tile is checked when the source draws it against the visible rect plus margin of
    /// that moment, from the scroll view's geometry. Synchronously, two updates come before each
    /// frame (a 1 kHz touchpad): only the second one's tiles may be drawn. On workers, each step
    /// waits for the tiles already asked for, so the rect published is the one they were asked
    /// for (a tile a worker already holds cannot be stopped, so it is not tested here).
    @Test(arguments: [false, true])
    func everyTileDrawnMeetsTheVisibleRectPlusMarginOfThatMoment(asynchronous: Bool) {
        let d = SceneDriver(.zoom)
        let tiled = tiles(d)
        let s = d.main
        d.window.waitsForBackgroundWork = true
        tiled.rasterizesAsynchronously = asynchronous
        d.window.finishBackgroundWork()
        let source = AllowedRectSource()
        func allowed(at offset: Point? = nil) -> Rect? {
            TileGeometry.allowed(s, offset: offset, margin: tiled.margin, content: MapSource.size)
        }
        source.allow(allowed())
        tiled.source = source
        d.advance(to: d.time + 0.05)
        let start = s.contentOffset
        for step in 1...60 {
            d.window.finishBackgroundWork()
            // A fling's path: fast, then slower, down and to the left.
            let v = Point(x: -90, y: 140) * (1 - Double(step) / 80)
            let target = s.contentOffset + v
            if asynchronous {
                source.allow(allowed(at: target))
                s.contentOffset = target
            } else {
                s.contentOffset = s.contentOffset + v * 0.5
                s.contentOffset = target
                source.allow(allowed(at: target))
            }
            d.advance(to: d.time + 1.0 / 60)
        }
        d.window.finishBackgroundWork()
        #expect(s.contentOffset.y - start.y > 5000)
        #expect(source.drawn >= 60)  // new tiles came in all along
        #expect(source.outside.isEmpty, "\(source.outside.count): \(source.outside.prefix(3))")
    }

    @Test func tilesThatLeftTheViewAreCancelledOrDropped() throws {
        let source = RecordingSource(gated: true)
        let rig = TiledRig(source: source, workers: 1)
        rig.scroll(to: .zero)
        let asked = rig.tiled.requestedTileCount
        // (400 + 128) × (300 + 128) from the top-left corner: 3 × 2 tiles.
        #expect(asked == 6)
        source.waitUntilDrawing()  // the one worker holds one tile; the rest are queued
        // Only the tile in hand holds memory: the queued ones have no image yet.
        #expect(rig.tiled.memoryInUse == tileBytes)
        rig.scroll(to: Point(x: 5000, y: 5000))
        #expect(rig.tiled.cancelledTileCount == asked - 1)
        // The cancelled tile in hand still counts; the new requests wait in the queue.
        #expect(rig.tiled.memoryInUse == tileBytes)
        source.open()
        rig.window.finishBackgroundWork()
        #expect(rig.tiled.discardedTileCount == 1)
        #expect(rig.tiled.pendingTileCount == 0)
        let allowed = Rect(x: 5000 - 128, y: 5000 - 128, width: 400 + 256, height: 300 + 256)
        #expect(rig.installed.count == TileGeometry.keys(meeting: allowed, edge: 256).count)
        #expect(rig.installed.allSatisfy { $0.frame.intersects(allowed) })
        // Only the tiles still wanted are held: the cancelled ones' bytes were given back.
        #expect(rig.tiled.memoryInUse == rig.installed.count * tileBytes)
        // The tile that was being drawn was asked for at the top-left corner, the rest here.
        let drawn = source.drawnRects
        let first = try #require(drawn.first)
        #expect(first == Rect(x: 0, y: 0, width: 256, height: 256))
        #expect(drawn.dropFirst().allSatisfy { $0.intersects(allowed) })
        #expect(drawn.count == 1 + rig.installed.count)
    }

    @Test(arguments: ["hidden", "transparent", "removed", "scrolledAway"])
    func aViewThatShowsNothingCancelsItsRequests(how: String) throws {
        let source = RecordingSource(gated: true)
        let rig = TiledRig(source: source, workers: 1)
        rig.scroll(to: .zero)
        #expect(rig.tiled.requestedTileCount == 6)
        source.waitUntilDrawing()
        switch how {
        case "hidden": rig.viewport.isHidden = true
        case "transparent": rig.tiled.alpha = 0
        case "removed": rig.tiled.removeFromSuperview()
        default: rig.tiled.frame.origin = Point(x: 10_000, y: 0)  // out of the viewport and its margin
        }
        // Removal cancels by itself (View's willLeaveWindow); the others on the next update.
        if how != "removed" { rig.tiled.updateTiles() }
        #expect(rig.tiled.cancelledTileCount == 5)
        #expect(rig.tiled.pendingTileCount == 0)
        source.open()
        rig.window.finishBackgroundWork()
        #expect(rig.tiled.discardedTileCount == 1)
        #expect(source.drawnRects.count == 1)
        #expect(rig.tiled.tileCount == 0 && rig.tiled.memoryInUse == 0)
    }

    /// A 300 × 300 viewport in a 1200 × 900 window: only the viewport's rect plus margin gets
    /// tiles, not the window's.
    @Test(arguments: [false, true])
    func aClippingAncestorLimitsTheTiles(asynchronous: Bool) throws {
        let source = RecordingSource()
        let rig = TiledRig(
            source: source, asynchronous: asynchronous, window: Size(width: 1200, height: 900),
            viewport: Rect(x: 100, y: 100, width: 300, height: 300))
        // Setting the source already asked for the tiles at (0, 0): let those finish first, so
        // what follows counts only the draws of the moves below, whatever the workers' timing.
        rig.window.finishBackgroundWork()
        let before = source.drawnRects.count
        rig.scroll(to: Point(x: 1000, y: 1000))
        rig.window.finishBackgroundWork()
        try rig.window.prepareFrame(time: 0)
        // (1000 − 128 … 1300 + 128)²: columns and rows 3 … 5.
        let expected = TileGeometry.keys(
            meeting: Rect(x: 872, y: 872, width: 556, height: 556), edge: 256)
        #expect(expected.count == 9)
        let drawn = Set(
            source.drawnRects.dropFirst(before).map { [Int(clamping: $0.minX / 256), Int(clamping: $0.minY / 256)] })
        #expect(drawn == expected && source.drawnRects.count == before + 9)
        // Asynchronous: the four tiles drawn for (0, 0) stay cached under the cap; synchronous:
        // they were removed undrawn once no longer wanted.
        let cached = asynchronous ? 4 : 0
        #expect(before == cached)
        #expect(rig.tiled.tileCount == 9 + cached && rig.tiled.memoryInUse == (9 + cached) * tileBytes)
        // A clipping view further up cuts it again: only its part of the viewport shows.
        let outer = View(frame: Rect(x: 0, y: 0, width: 1200, height: 900))
        outer.clipsToBounds = true
        rig.window.addSubview(outer)
        outer.addSubview(rig.viewport)
        outer.frame = Rect(x: 0, y: 0, width: 250, height: 250)  // shows viewport x, y 100 … 250
        rig.scroll(to: Point(x: 3000, y: 3000))
        rig.window.finishBackgroundWork()
        try rig.window.prepareFrame(time: 1)
        // Visible: 3000 … 3150, plus margin: 2872 … 3278: columns and rows 11 … 12.
        let nested = TileGeometry.keys(meeting: Rect(x: 2872, y: 2872, width: 406, height: 406), edge: 256)
        #expect(nested.count == 4)
        #expect(source.drawnRects.count == before + 9 + 4)
        #expect(
            Set(
                source.drawnRects.dropFirst(before + 9).map {
                    [Int(clamping: $0.minX / 256), Int(clamping: $0.minY / 256)]
                }) == nested)
    }

    /// Synchronous tiles: a nil source draws nothing, setting one draws, `setNeedsDisplay(in:)`
    /// draws again exactly the wanted tiles meeting the rect.
    @Test func synchronousTilesNeedASourceAndRedrawWhenInvalidated() throws {
        let rig = TiledRig(source: nil, asynchronous: false)
        rig.scroll(to: .zero)
        try rig.window.prepareFrame(time: 0)
        #expect(rig.tiled.tileCount == 0 && rig.tiled.rasterizedTileCount == 0)
        let first = RecordingSource(color: Color(rgb: 10, 20, 30))
        rig.tiled.source = first
        try rig.window.prepareFrame(time: 0.1)
        #expect(first.drawnRects.count == 6 && rig.tiled.tileCount == 6)
        rig.tiled.setNeedsDisplay(in: Rect(x: 300, y: 10, width: 10, height: 10))  // column 1, row 0
        try rig.window.prepareFrame(time: 0.2)
        #expect(first.drawnRects.count == 7)
        #expect(first.drawnRects.last == Rect(x: 256, y: 0, width: 256, height: 256))
        let second = RecordingSource(color: Color(rgb: 200, 20, 30))
        rig.tiled.source = second  // a new source redraws everything
        try rig.window.prepareFrame(time: 0.3)
        #expect(second.drawnRects.count == 6 && first.drawnRects.count == 7)
        #expect(rig.installed.allSatisfy { $0.backingImage?.color(x: 5, y: 5) == Color(rgb: 200, 20, 30) })
    }

    @Test func asynchronousTilesRedrawWhenInvalidatedKeepingTheOldImageMeanwhile() throws {
        let first = RecordingSource(color: Color(rgb: 10, 20, 30))
        let rig = TiledRig(source: first)
        rig.scroll(to: .zero)
        rig.window.finishBackgroundWork()
        try rig.window.prepareFrame(time: 0)
        #expect(first.drawnRects.count == 6)
        let second = RecordingSource(gated: true, color: Color(rgb: 200, 20, 30))
        rig.tiled.source = second
        // Asked for again; meanwhile the old images stay on screen.
        #expect(rig.tiled.pendingTileCount == 6 && rig.tiled.tileCount == 6)
        try rig.window.prepareFrame(time: 0.1)
        #expect(rig.installed.allSatisfy { $0.backingImage?.color(x: 5, y: 5) == Color(rgb: 10, 20, 30) })
        second.open()
        rig.window.finishBackgroundWork()
        try rig.window.prepareFrame(time: 0.2)
        #expect(second.drawnRects.count == 6)
        #expect(rig.installed.allSatisfy { $0.backingImage?.color(x: 5, y: 5) == Color(rgb: 200, 20, 30) })
        #expect(rig.tiled.tileCount == 6 && rig.installed.allSatisfy { $0.alpha == 1 })
        #expect(rig.tiled.memoryInUse == 6 * tileBytes)
    }

    /// Several updates before one frame: the tiles only the first wanted are never drawn.
    @Test func synchronousTilesNoLongerWantedAtTheFrameAreNotDrawn() throws {
        let source = RecordingSource()
        let rig = TiledRig(source: source, asynchronous: false)
        rig.scroll(to: .zero)
        rig.scroll(to: Point(x: 3000, y: 3000))
        rig.scroll(to: Point(x: 6000, y: 3000))
        try rig.window.prepareFrame(time: 0)
        let allowed = Rect(x: 6000 - 128, y: 3000 - 128, width: 400 + 256, height: 300 + 256)
        #expect(source.drawnRects.allSatisfy { $0.intersects(allowed) })
        #expect(source.drawnRects.count == TileGeometry.keys(meeting: allowed, edge: 256).count)
        #expect(rig.tiled.tileCount == source.drawnRects.count)
    }

    /// Taking the source away takes its tiles off the screen too (none stays from the old
    /// content), and a new one draws the wanted tiles again.
    @Test(arguments: [false, true])
    func settingNoSourceRemovesEveryTile(asynchronous: Bool) throws {
        let source = RecordingSource()
        let rig = TiledRig(source: source, asynchronous: asynchronous)
        rig.scroll(to: Point(x: 1000, y: 1000))
        rig.window.finishBackgroundWork()
        try rig.window.prepareFrame(time: 0)
        #expect(rig.tiled.tileCount >= 6)
        rig.tiled.source = nil
        #expect(rig.tiled.tileCount == 0 && rig.tiled.memoryInUse == 0 && rig.installed.isEmpty)
        try rig.window.prepareFrame(time: 0.1)
        #expect(rig.tiled.tileCount == 0)
        let second = RecordingSource(color: Color(rgb: 10, 200, 30))
        rig.tiled.source = second
        rig.window.finishBackgroundWork()
        try rig.window.prepareFrame(time: 0.2)
        // (1000 − 128 … 1400 + 128) × (1000 − 128 … 1300 + 128): columns 3 … 5, rows 3 … 5.
        #expect(second.drawnRects.count == 9 && rig.tiled.tileCount == 9)
        #expect(rig.installed.allSatisfy { $0.backingImage?.color(x: 5, y: 5) == Color(rgb: 10, 200, 30) })
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
