import Foundation
import Glibc
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayHeadless
import ScrollwayRaster
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews
import Synchronization

/// `scrollway bench`: what the main thread pays per frame while flinging, measured in one run
/// against a baseline measured in the same run (never against fixed numbers: machines differ,
/// and so does their load).
///
/// Each scene is driven offscreen at its preferred size, frames paced in real time at 60 Hz (so
/// worker threads get the time between frames that a display would give them), with scripted
/// touch flings delivered at their times. What is timed is one turn of a platform's loop: input,
/// timers, draining the inbox, and the frame (animations, layout, drawing, compositing of the
/// damage). The zoom scene runs the same flings and zooms twice: tiles drawn synchronously (the
/// baseline) and on worker threads.
@MainActor
public struct OffscreenBench {
    /// A short run (about 20 s): checks that everything runs, numbers are rough.
    public var quick: Bool
    /// Told each step as it starts (step number of 4, what it is).
    public var progress: (Double, String) -> Void
    /// Where the report's lines go.
    public var output: (String) -> Void

    public init(
        quick: Bool, progress: @escaping (Double, String) -> Void = { _, _ in },
        output: @escaping (String) -> Void = { print($0) }
    ) {
        self.quick = quick
        self.progress = progress
        self.output = output
    }

    /// The steps `run` reports through `progress`.
    public static let steps = 12

    /// Runs every step and writes the report.
    public func run() throws {
        let source = CountingMapSource()
        source.warmUp()
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let workers = TiledView.defaultWorkerCount
        output(
            "scrollway bench: offscreen, 390×844 at scale 1, frames paced at 60 Hz; \(cores) cores, "
                + "\(workers) tile worker\(workers == 1 ? "" : "s")\(quick ? " (quick)" : "")")
        progress(0, "zoom fling, tiles on the main thread")
        let sync = try ZoomRun.measure(asynchronous: false, source: source, quick: quick)
        progress(1, "zoom fling, tiles on workers")
        let async = try ZoomRun.measure(asynchronous: true, source: source, quick: quick)
        progress(2, "list fling, 1,000 rows")
        let shortList = try ListRun.measure(quick: quick, rows: 1_000)
        progress(3, "list fling, 100,000 rows")
        let list = try ListRun.measure(quick: quick)
        progress(4, "list fling, 100,000 rows, with a screen reader (AT-SPI)")
        let unavailable = AccessibilityRun.unavailable()
        let reader = unavailable == nil ? try AccessibilityRun.measure(quick: quick) : nil
        progress(5, "grid fling, 1,000 photos")
        let shortGrid = try GridRun.measure(quick: quick, items: 1_000)
        progress(6, "grid fling, 100,000 photos")
        let grid = try GridRun.measure(quick: quick, items: PhotoGrid.count)
        progress(7, "form resize, constraints re-solved each frame")
        let form = try FormResizeRun.measure(quick: quick)
        progress(8, "list and grid flings beside the form's constraints")
        let beside = try BesideFormRun.measure(quick: quick)
        progress(9, "feed fling, self-sizing cards by constraints and by hand")
        let feed = try FeedRun.measure(quick: quick)
        progress(10, "list rows deleted and inserted, animated")
        let updates = try ListUpdateRun.measure(quick: quick)
        progress(11, "a 100,000-item snapshot applied to a list, and an outline's folder opened")
        let snapshots = try SnapshotApplyRun.measure(quick: quick)
        let outline = try OutlineToggleRun.measure(quick: quick)

        let budget = 1000.0 / 60
        func ms(_ v: Double) -> String { String(format: "%.2f", v) }
        func ratio(_ a: Double, _ b: Double) -> String { b > 0 ? String(format: "%.2f×", a / b) : "n/a" }
        func mib(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        output(
            "zoom fling, main-thread ms/frame: sync \(ms(sync.frames.mean)), async \(ms(async.frames.mean)) "
                + "→ \(ratio(async.frames.mean, sync.frames.mean)) of baseline")
        output(
            "zoom fling, worst frame ms: sync \(ms(sync.frames.worst)), async \(ms(async.frames.worst)) "
                + "→ \(ratio(async.frames.worst, sync.frames.worst)) of baseline")
        output(
            "zoom fling, frames over the \(ms(budget)) ms budget: sync \(sync.frames.over(budget)) of "
                + "\(sync.frames.count), async \(async.frames.over(budget)) of \(async.frames.count)")
        output(
            "zoom fling, tiles drawn on the main thread: sync \(sync.mainThreadTiles), async "
                + "\(async.mainThreadTiles) (workers drew \(async.workerTiles); \(async.cancelled) cancelled before "
                + "drawing, \(async.discarded) drawn too late and dropped)")
        output(
            "zoom fling, frames with a visible tile still on its way (a coarser level or nothing shows there): "
                + "sync \(sync.uncoveredFrames), async \(async.uncoveredFrames) of \(async.frames.count)")
        output(
            "zoom fling, tile memory peak: sync \(mib(sync.memoryPeak)), async \(mib(async.memoryPeak)) "
                + "(tiles workers hold included) of a \(mib(async.memoryCap)) cap → "
                + "\(ratio(Double(async.memoryPeak), Double(async.memoryCap))); frames over the cap: sync "
                + "\(sync.framesOverCap), async \(async.framesOverCap)")
        output(
            "list fling, main-thread ms/frame: 1,000 rows \(ms(shortList.mean)), 100,000 rows \(ms(list.mean)) "
                + "→ \(ratio(list.mean, shortList.mean)) of baseline; worst frame \(ms(shortList.worst)), "
                + "\(ms(list.worst)) → \(ratio(list.worst, shortList.worst))")
        output(
            "list fling, 100,000 rows against the \(ms(budget)) ms frame budget: mean \(ratio(list.mean, budget)), "
                + "worst \(ratio(list.worst, budget)); over budget \(list.over(budget)) of \(list.count)")
        output(
            "grid fling, main-thread ms/frame: 1,000 photos \(ms(shortGrid.mean)), 100,000 photos \(ms(grid.mean)) "
                + "→ \(ratio(grid.mean, shortGrid.mean)) of baseline; worst frame \(ms(shortGrid.worst)), "
                + "\(ms(grid.worst)) → \(ratio(grid.worst, shortGrid.worst))")
        output(
            "form resize (\(form.constraints) constraints), layout ms per resize frame: incremental "
                + "\(ms(form.incremental.mean)) (worst \(ms(form.incremental.worst))), solved from nothing "
                + "\(ms(form.fromScratch.mean)) → \(ratio(form.incremental.mean, form.fromScratch.mean)) of baseline; "
                + "against the 1 ms target: mean \(ratio(form.incremental.mean, 1)), worst "
                + "\(ratio(form.incremental.worst, 1)); fitted again with its kept solver "
                + "\(ms(form.refitted.mean)) → \(ratio(form.refitted.mean, form.fromScratch.mean)) of fitting from nothing"
        )
        let median = AccessibilityRun.Result.median
        let turns = "median of \(beside.listWith.count) run\(beside.listWith.count == 1 ? "" : "s") each, taken in turn"
        let (listWith, listWithout) = (median(beside.listWith), median(beside.listWithout))
        let (gridWith, gridWithout) = (median(beside.gridWith), median(beside.gridWithout))
        output(
            "list fling beside the form (hidden, its \(beside.constraints) constraints in the window's engine), main-thread "
                + "ms/frame, \(turns): \(ms(listWith)) against \(ms(listWithout)) without → "
                + "\(ratio(listWith, listWithout)) of baseline")
        output(
            "grid fling beside the form, main-thread ms/frame, \(turns): \(ms(gridWith)) against \(ms(gridWithout)) "
                + "without → \(ratio(gridWith, gridWithout)) of baseline")
        let (feedConstraints, feedHand) = (median(feed.byConstraints), median(feed.byHand))
        output(
            "feed fling, self-sizing cards (a title, a wrapping body), main-thread ms/frame, \(turns): laid out "
                + "by constraints \(ms(feedConstraints)) against by hand \(ms(feedHand)) → "
                + "\(ratio(feedConstraints, feedHand)) of baseline")
        output(
            "list rows deleted and inserted, animated (a fade, the rows below sliding; \(updates.updates) updates), "
                + "main-thread ms/frame while they move: \(ms(updates.frames.mean)) (worst \(ms(updates.frames.worst))) "
                + "against the 100,000-row fling's \(ms(list.mean)) → \(ratio(updates.frames.mean, list.mean)) of baseline"
        )
        output(
            "a snapshot of \(snapshots.items) items applied to a list (100 deleted, 100 inserted, "
                + "100 moved; \(snapshots.apply.count) times), main-thread ms per apply: \(ms(snapshots.apply.mean)) "
                + "(worst \(ms(snapshots.apply.worst))) against reloading the list with it \(ms(snapshots.reload.mean)) "
                + "→ \(ratio(snapshots.apply.mean, snapshots.reload.mean)) of baseline; built (100 sections of "
                + "1,000) in \(ms(snapshots.built)) ms")
        output(
            "an outline of \(outline.rows) rows (100 open folders of 1,000) on a list, a folder in view closed and "
                + "opened again (\(outline.toggle.count) times), main-thread ms per close or open: "
                + "\(ms(outline.toggle.mean)) (worst \(ms(outline.toggle.worst))) against reloading the list with its "
                + "rows \(ms(outline.reload.mean)) → \(ratio(outline.toggle.mean, outline.reload.mean)) of baseline")
        if let reader {
            let off = AccessibilityRun.Result.median(reader.off)
            let on = AccessibilityRun.Result.median(reader.on)
            output(
                "list fling, 100,000 rows, main-thread ms/frame, median of \(reader.on.count) run\(reader.on.count == 1 ? "" : "s") each, taken in turn: "
                    + "AT-SPI off \(ms(off)), on (a libatspi reader following \(reader.eventsHeard) events) "
                    + "\(ms(on)) → \(ratio(on, off)) of baseline; what the reader adds is "
                    + String(format: "%.1f%%", (on - off) / budget * 100) + " of the \(ms(budget)) ms frame budget")
        } else if let unavailable {
            output("list fling with a screen reader: not measured: \(unavailable)")
        }
    }
}

/// Main-thread milliseconds of each frame.
struct FrameTimes {
    var samples: [Double] = []
    var count: Int { samples.count }
    var mean: Double { samples.isEmpty ? 0 : samples.reduce(0, +) / Double(samples.count) }
    var worst: Double { samples.max() ?? 0 }
    func over(_ budget: Double) -> Int { samples.filter { $0 > budget }.count }
}

/// Drives a window through `FrameDriver` at 60 Hz, each frame paced to its time on the wall
/// clock, timing the main thread's work per drawn frame: one turn of a platform's loop.
@MainActor
final class BenchDriver {
    let window: Window
    let driver: FrameDriver
    private let clock = ContinuousClock()
    private var start: ContinuousClock.Instant
    private var frameStart: ContinuousClock.Instant
    var times = FrameTimes()
    /// What `duringTurn` threw, ending the run.
    private(set) var turnFailure: (any Error)?
    /// After every drawn frame (statistics).
    var afterFrame: (() -> Void)?
    /// In each turn, before its frame and inside its timing: what else a platform's loop does
    /// (a screen reader's calls answered).
    var duringTurn: (() throws -> Void)?
    static let refresh = 60.0

    init(window: Window) throws {
        self.window = window
        let canvas = try Canvas(size: window.bounds.size, scale: window.scale)
        driver = FrameDriver(window: window, refresh: Self.refresh) { t in
            _ = try window.render(into: canvas, time: t)
        }
        if let failure = driver.failure { throw failure }
        start = clock.now
        frameStart = start
        driver.beforeFrame = { [unowned self] ft in
            let wait = clock.now.duration(to: start.advanced(by: .nanoseconds(Int64(clamping: ft * 1e9))))
            if wait > .zero { Thread.sleep(forTimeInterval: Self.seconds(wait)) }
            frameStart = clock.now
            // Tile workers' results, as a platform's loop takes them when they arrive.
            window.drainInbox()
            do { try duringTurn?() } catch { turnFailure = error }
        }
        driver.afterFrame = { [unowned self] drew in
            guard drew else { return }
            times.samples.append(Self.seconds(frameStart.duration(to: clock.now)) * 1000)
            afterFrame?()
        }
    }

    /// Virtual (and paced real) time of the last frame, in seconds.
    var time: Double { driver.time }

    /// A fast touch fling from the window's middle by (dx, dy), starting soon: its events go in
    /// with the frames that reach them, inside the frames' timing.
    func fling(dx: Double, dy: Double, from: Point? = nil) {
        let c = from ?? Point(x: window.bounds.width / 2, y: window.bounds.height / 2)
        var b = ScriptBuilder()
        b.flick(from: c, by: Point(x: dx, y: dy), at: 0, id: 1)
        driver.schedule(b.script, from: time + 0.02)
    }

    /// Runs frames for `seconds`.
    func run(for seconds: Double) throws {
        driver.advance(
            to: driver.frameTime(
                driver.frame + Int(clamping: seconds * Self.refresh, rounding: .toNearestOrAwayFromZero)))
        if let failure = driver.failure ?? turnFailure { throw failure }
    }

    /// Runs frames until the window is still (at most 20 s of them).
    func runToRest() throws {
        driver.settle()
        if let failure = driver.failure ?? turnFailure { throw failure }
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

/// The zoom scene's flings and zooms, with tiles drawn one way or the other.
@MainActor
struct ZoomRun {
    var frames = FrameTimes()
    var mainThreadTiles = 0
    var workerTiles = 0
    var cancelled = 0
    var discarded = 0
    var uncoveredFrames = 0
    var memoryPeak = 0
    var memoryCap = 0
    var framesOverCap = 0

    static func measure(asynchronous: Bool, source: CountingMapSource, quick: Bool) throws -> ZoomRun {
        let window = Scene.zoom.makeWindow()
        guard let tiled = window.view(named: "tiles") as? TiledView,
            let main = window.view(named: "main") as? ScrollView
        else { throw BenchError("bench: the zoom scene has no \"tiles\" or \"main\" view") }
        // The same source (and so the same warm font) for both runs; start from a full screen.
        tiled.rasterizesAsynchronously = false
        tiled.source = source
        tiled.rasterizesAsynchronously = asynchronous
        tiled.updateTiles()
        window.finishBackgroundWork()
        let before = (counts: source.counts, cancelled: tiled.cancelledTileCount, discarded: tiled.discardedTileCount)
        let bench = try BenchDriver(window: window)
        var run = ZoomRun(memoryCap: tiled.memoryCap)
        bench.afterFrame = {
            run.memoryPeak = max(run.memoryPeak, tiled.memoryInUse)
            if tiled.memoryInUse > tiled.memoryCap { run.framesOverCap += 1 }
            if tiled.missingVisibleTileCount > 0 { run.uncoveredFrames += 1 }
        }
        let flings: [(Double, Double)] =
            quick ? [(-300, 0)] : [(-300, 0), (0, -400), (300, 0), (0, 400), (-300, -400), (300, 400)]
        let settle = quick ? 0.6 : 1.1
        for (dx, dy) in flings {
            bench.fling(dx: dx, dy: dy)
            try bench.run(for: settle)
        }
        for (zoom, fling) in quick ? [(0.35, (0.0, -400.0))] : [(0.35, (0.0, -400.0)), (2.5, (-300.0, 0.0))] {
            bench.driver.schedule(at: bench.time) { main.setZoomScale(zoom, animated: true) }
            try bench.run(for: 0.5)
            bench.fling(dx: fling.0, dy: fling.1)
            try bench.run(for: settle)
        }
        window.finishBackgroundWork()
        let after = source.counts
        run.frames = bench.times
        run.mainThreadTiles = after.main - before.counts.main
        run.workerTiles = after.workers - before.counts.workers
        run.cancelled = tiled.cancelledTileCount - before.cancelled
        run.discarded = tiled.discardedTileCount - before.discarded
        return run
    }
}

/// The list scene's flings (cell reuse, rows measured as they appear, no tiles), with the
/// scene's 100,000 rows or with fewer of the same rows: a list whose work per frame does not
/// grow with its length costs the same either way.
@MainActor
enum ListRun {
    /// `window` is the list scene's (a new one by default); `duringTurn` runs in each timed turn;
    /// `toRest` goes on after the flings until the list is still (what a screen reader hears of
    /// a list comes once it is).
    static func measure(
        quick: Bool, rows: Int = ListRows.count, window given: Window? = nil, toRest: Bool = false,
        duringTurn: (() throws -> Void)? = nil
    ) throws -> FrameTimes {
        let window = given ?? Scene.list.makeWindow()
        if rows != ListRows.count, let list = window.view(named: "main") as? ListView {
            let source = ListRows(count: rows)
            window.retainedObjects.append(source)
            list.dataSource = source
            list.reloadData()
        }
        let bench = try BenchDriver(window: window)
        bench.duringTurn = duringTurn
        let from = Point(x: window.bounds.width / 2, y: window.bounds.height - 100)
        for dy in quick ? [-600.0] : [-600, -600, 600, -600] {
            bench.fling(dx: 0, dy: dy, from: from)
            try bench.run(for: quick ? 0.6 : 1.0)
        }
        if toRest { try bench.runToRest() }
        return bench.times
    }
}

/// The list scene's rows deleted and put back in view, each a row animation (`.fade`): the
/// frames while rows move, against a fling's (the rows moving re-composite; nothing draws).
@MainActor
enum ListUpdateRun {
    static func measure(quick: Bool) throws -> (frames: FrameTimes, updates: Int) {
        let window = Scene.list.makeWindow()
        guard let list = window.view(named: "main") as? ListView, let rows = list.dataSource as? ListRows else {
            throw BenchError("bench: the list scene has no \"main\" list of ListRows")
        }
        let bench = try BenchDriver(window: window)
        var moving = FrameTimes()
        bench.afterFrame = {
            if list.hasRowAnimations, let last = bench.times.samples.last { moving.samples.append(last) }
        }
        try bench.run(for: 0.2)
        let updates = quick ? 4 : 12
        for i in 0..<updates {
            let row = 2 + i % 5
            bench.driver.schedule(at: bench.time) {
                if i % 2 == 0 {
                    rows.rowCount -= 1
                    list.deleteRows(at: [row], with: .fade)
                } else {
                    rows.rowCount += 1
                    list.insertRows(at: [row], with: .fade)
                }
            }
            try bench.run(for: ListView.rowAnimationDuration + 0.1)
        }
        return (moving, updates)
    }
}

/// The zoom scene's map, counting which threads draw its tiles.
final class CountingMapSource: TileSource {
    private let map = MapSource()
    private let tally = Mutex((main: 0, workers: 0))
    /// The thread the bench's frames run on, the one made on: the main actor's, which is not the
    /// process's main thread when the command runs async (`Thread.isMainThread` would count
    /// every tile as a worker's).
    private let frameThread = pthread_self()

    var counts: (main: Int, workers: Int) { tally.withLock { $0 } }

    func draw(_ rect: Rect, in canvas: Canvas) {
        let onMain = pthread_equal(pthread_self(), frameThread) != 0
        tally.withLock { t in
            if onMain { t.main += 1 } else { t.workers += 1 }
        }
        map.draw(rect, in: canvas)
    }

    /// Draws one tile at each level the bench visits, so neither run pays for loading fonts.
    func warmUp() {
        for level in [0.25, 0.5, 1, 2, 4] {
            guard let canvas = try? Canvas(width: 256, height: 256, scale: level) else { continue }
            map.draw(Rect(x: 0, y: 0, width: 256 / level, height: 256 / level), in: canvas)
        }
    }
}
