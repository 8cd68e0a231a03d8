import Dispatch
import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWestonHarness
import Synchronization
import Testing

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
@MainActor
@Suite(.serialized) struct AsyncTilesInWestonTests {
    @Test func aFinishedTileWakesTheLoopAndNoTileIsDrawnOnTheAppsThread() throws {
        let rig = try WestonRig(width: 390, height: 600)
        let window = Scene.zoom.makeWindow(size: Size(width: 390, height: 600))
        let tiled = try #require(window.view(named: "tiles") as? TiledView)
        let main = try #require(window.view(named: "main") as? ScrollView)
        let app = try WaylandApp(content: window, title: "Scrollway tiles", socket: rig.socketPath)
        // Mapped; the first tiles arrived and faded in.
        try app.pump(until: { app.isAtRest && tiled.coversVisibleRect }, "the first tiles to show")
        #expect(tiled.coversVisibleRect)

        // Somewhere new, with the tiles held back: frames go out without them, then the loop
        // has nothing to do and sleeps in poll.
        let source = GatedMap()
        tiled.source = source
        main.contentOffset = Point(x: 4000, y: 4000)
        #expect(tiled.pendingTileCount > 0)
        try app.pump(until: { app.window.framesCommitted > 0 && !window.needsFrame && !app.window.isWaitingForFrame })
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
        try app.settle()  // the fades end
        #expect(tiled.coversVisibleRect)
        #expect(!source.drawingThreads.isEmpty)
        #expect(!source.drawingThreads.contains(ObjectIdentifier(Thread.current)))

        // What weston shows is what an offscreen render of the same tree shows.
        try rig.parkPointer()
        try app.settle()
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

    /// The demo's promise: flinging through the zoom scene in a real window never waits for a
    /// tile. Every tile is held back for the whole fling (a wait would never end), and still the
    /// fling runs its course frame after frame, to rest, with the coarser picture or the
    /// background where tiles are missing; once let go, the tiles arrive.
    @Test func aFlingAcrossTheMapRunsToRestWhileEveryTileIsHeldBack() throws {
        let (rig, app, window) = try startScene(.zoom)  // mapped and at rest: the first tiles are in
        let tiled = try #require(window.view(named: "tiles") as? TiledView)
        let main = try #require(window.view(named: "main") as? ScrollView)
        let source = GatedMap()
        defer { source.open() }  // never leave a worker blocked
        // Were a frame to wait for a tile, this would wait forever: a watchdog opens the gate
        // after 20 s, so that such a bug fails the test instead of hanging it.
        let rescued = Mutex(false)
        let done = Mutex(false)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 20)
            guard !done.withLock({ $0 }) else { return }
            rescued.withLock { $0 = true }
            source.open()
        }
        tiled.source = source
        let start = main.contentOffset
        let framesBefore = window.framesPrepared

        // A flick up and to the left with real wl_touch events, 16 ms apart.
        try flick(rig, app, from: Point(x: 300, y: 500), step: Point(x: -20, y: -60))
        try app.catchUp()
        #expect(main.isDecelerating)
        try app.pump(until: { !main.isDecelerating }, "the fling to end")
        // At rest, far from where it started, after many frames, not one tile drawn since the
        // source changed: no frame waited for one.
        #expect(!main.isDecelerating)
        #expect(main.contentOffset.y - start.y > 1000 && main.contentOffset.x - start.x > 300)
        #expect(window.framesPrepared - framesBefore > 60)
        #expect(tiled.missingVisibleTileCount > 0 && tiled.pendingTileCount > 0)
        #expect(!rescued.withLock { $0 }, "the fling only ended once the watchdog let the tiles through")
        done.withLock { $0 = true }

        source.open()
        let opened = Date()
        while !tiled.coversVisibleRect && Date().timeIntervalSince(opened) < 20 { try app.step(maxWait: 0.1) }
        #expect(tiled.coversVisibleRect)
        #expect(!source.drawingThreads.contains(ObjectIdentifier(Thread.current)))
    }
}
