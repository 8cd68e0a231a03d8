import DemoScenes
import Dispatch
import Foundation
import Geometry
import Raster
import Scrolling
import Synchronization
import Testing
import Views
import Wayland
import WestonHarness

/// The map, held at a gate until the test opens it, noting which threads draw.
private final class GatedMap: TileSource {
    private let map = MapSource()
    private let gate = DispatchSemaphore(value: 0)
    private let threads = Mutex<Set<ObjectIdentifier>>([])

    var drawingThreads: Set<ObjectIdentifier> { threads.withLock { $0 } }

    func draw(_ rect: Rect, in canvas: Canvas) {
        let me = ObjectIdentifier(Thread.current)
        threads.withLock { _ = $0.insert(me) }
        gate.wait()
        gate.signal()  // once open, it stays open
        map.draw(rect, in: canvas)
    }

    func open() { gate.signal() }
}

/// The zoom scene's tiles in the real window: drawn off the app's thread, and a finished tile
/// wakes the event loop by itself.
@Suite(.serialized) struct AsyncTilesInWestonTests {
    @Test func aFinishedTileWakesTheLoopAndNoTileIsDrawnOnTheAppsThread() throws {
        let rig = try WestonRig(width: 390, height: 600)
        let window = Scene.zoom.makeWindow(size: Size(width: 390, height: 600))
        let tiled = try #require(window.view(named: "tiles") as? TiledView)
        let main = try #require(window.view(named: "main") as? ScrollView)
        let app = try WaylandApp(content: window, title: "Scrollway tiles", socket: rig.socketPath)
        try app.pump(for: 0.6)  // mapped; the first tiles arrived and faded in
        #expect(tiled.coversVisibleRect)

        // Somewhere new, with the tiles held back: frames go out without them, then the loop
        // has nothing to do and sleeps in poll.
        let source = GatedMap()
        tiled.source = source
        main.contentOffset = Point(x: 4000, y: 4000)
        #expect(tiled.pendingTileCount > 0)
        try app.pump(for: 0.3)
        #expect(tiled.missingVisibleTileCount > 0)
        #expect(window.nextTimerDeadline == nil && !window.hasActiveAnimations)

        // Only the worker's post can end this wait early (nothing else is due for 30 s).
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.1)
            source.open()
        }
        let start = Date()
        try app.step(maxWait: 30)
        #expect(Date().timeIntervalSince(start) < 20, "the loop slept through the finished tiles")
        while tiled.pendingTileCount > 0 && Date().timeIntervalSince(start) < 20 { try app.step(maxWait: 1) }
        try app.pump(for: 0.4)  // fades end
        #expect(tiled.coversVisibleRect)
        #expect(!source.drawingThreads.isEmpty)
        #expect(!source.drawingThreads.contains(ObjectIdentifier(Thread.current)))

        // What weston shows is what an offscreen render of the same tree shows.
        try rig.parkPointer()
        try app.pump(for: 0.05)
        let shown = try rig.capture()
        let expected = try Offscreen.render(app.window.content)
        var mismatches = 0
        for y in stride(from: 0, to: 600, by: 4) {
            for x in stride(from: 0, to: 390, by: 4) where shown.pixel(x: x, y: y) != expected.pixel(x: x, y: y) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0, "\(mismatches) sampled pixels differ from the offscreen render")
    }
}
