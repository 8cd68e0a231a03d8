import ArgumentParser
import Foundation
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
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the main thread's time per frame while flinging the zoom and list scenes.",
        discussion: """
            Offscreen, frames paced at 60 Hz in real time. The zoom scene is flung and zoomed with \
            synchronous tiles (the baseline) and then with tiles drawn on worker threads; results are \
            printed as ratios against that baseline. The list scene (no tiles) is flung with 1,000 rows \
            (the baseline) and with its 100,000, and reported against that baseline and the 16.7 ms \
            frame budget. About 30 s; --quick takes a few seconds.
            """)

    @Flag(help: "A short run (a few seconds): checks that everything runs, numbers are rough.")
    var quick = false

    @Flag(
        help: """
            End to end in headless weston: the list and zoom scenes flung with real touches at each \
            size, the client's CPU per frame against one full-frame memcpy, a zero-work client (the \
            compositor's floor), the general present path and GTK4's ListView (when installed).
            """)
    var weston = false

    @Option(
        help: ArgumentHelp(
            "With --weston: sizes as WxH or WxH@SCALE (logical size at an output scale), comma-separated.",
            valueName: "sizes"))
    var sizes: String?

    @Flag(help: "With --weston: print the results as one JSON object instead of the table.")
    var json = false

    @Option(
        help: """
            With --weston: rounds of every client at each size (1–9), taken in turn (A B C A B C …), \
            their frames pooled: a shared machine's drift then falls on every client alike.
            """)
    var rounds: Int = 1

    @Flag(
        help: """
            Memory over a long run: the same flinging script for 1 and --minutes minutes, offscreen \
            (peak resident memory of each) and in headless weston in real time (resident memory \
            sampled; takes --minutes minutes).
            """)
    var soak = false

    @Option(parsing: .unconditional, help: "With --soak: the long run's length in minutes (2–120).")
    var minutes: Int = 10

    func validate() throws {
        guard (2...120).contains(minutes) else { throw ValidationError("--minutes: expected 2 to 120, got \(minutes)") }
        if soak, weston || quick { throw ValidationError("--soak runs on its own (without --weston or --quick)") }
        if sizes != nil || json || rounds != 1 {
            guard weston else { throw ValidationError("--sizes, --json and --rounds go with --weston") }
        }
        guard (1...9).contains(rounds) else { throw ValidationError("--rounds: expected 1 to 9, got \(rounds)") }
        _ = try parsedSizes()
    }

    /// The sizes to measure: --sizes, or the default set (only the smallest with --quick).
    func parsedSizes() throws -> [WestonBench.Size] {
        guard let sizes else { return quick ? [WestonBench.defaultSizes[0]] : WestonBench.defaultSizes }
        return try sizes.split(separator: ",").map { item in
            let parts = item.split(separator: "@")
            let dims = parts[0].split(separator: "x")
            guard parts.count <= 2, dims.count == 2, let w = Int(dims[0]), let h = Int(dims[1]),
                (16...8192).contains(w),
                (16...8192).contains(h)
            else { throw ValidationError("--sizes: '\(item)' is not WxH or WxH@SCALE with sides from 16 to 8192") }
            let scale = parts.count == 2 ? Int(parts[1]) : 1
            guard let scale, (1...4).contains(scale), w * scale <= 8192, h * scale <= 8192 else {
                throw ValidationError("--sizes: '\(item)': the scale must be 1 to 4 and the output at most 8192 wide")
            }
            return WestonBench.Size(width: w, height: h, scale: scale)
        }
    }

    @MainActor func run() async throws {
        try bootstrapLogging()
        if soak {
            let exe =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0]
            try SoakBench(minutes: minutes, executable: exe).run()
            return
        }
        if weston {
            try runWeston()
            return
        }
        let source = CountingMapSource()
        source.warmUp()
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let workers = TiledView.defaultWorkerCount
        print(
            "scrollway bench: offscreen, 390×844 at scale 1, frames paced at 60 Hz; \(cores) cores, "
                + "\(workers) tile worker\(workers == 1 ? "" : "s")\(quick ? " (quick)" : "")")
        let progress = Progress("bench", total: 4)
        progress.step(0, "zoom fling, tiles on the main thread")
        let sync = try ZoomRun.measure(asynchronous: false, source: source, quick: quick)
        progress.step(1, "zoom fling, tiles on workers")
        let async = try ZoomRun.measure(asynchronous: true, source: source, quick: quick)
        progress.step(2, "list fling, 1,000 rows")
        let shortList = try ListRun.measure(quick: quick, rows: 1_000)
        progress.step(3, "list fling, 100,000 rows")
        let list = try ListRun.measure(quick: quick)
        progress.finish()

        let budget = 1000.0 / 60
        func ms(_ v: Double) -> String { String(format: "%.2f", v) }
        func ratio(_ a: Double, _ b: Double) -> String { b > 0 ? String(format: "%.2f×", a / b) : "n/a" }
        func mib(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        print(
            "zoom fling, main-thread ms/frame: sync \(ms(sync.frames.mean)), async \(ms(async.frames.mean)) "
                + "→ \(ratio(async.frames.mean, sync.frames.mean)) of baseline")
        print(
            "zoom fling, worst frame ms: sync \(ms(sync.frames.worst)), async \(ms(async.frames.worst)) "
                + "→ \(ratio(async.frames.worst, sync.frames.worst)) of baseline")
        print(
            "zoom fling, frames over the \(ms(budget)) ms budget: sync \(sync.frames.over(budget)) of "
                + "\(sync.frames.count), async \(async.frames.over(budget)) of \(async.frames.count)")
        print(
            "zoom fling, tiles drawn on the main thread: sync \(sync.mainThreadTiles), async "
                + "\(async.mainThreadTiles) (workers drew \(async.workerTiles); \(async.cancelled) cancelled before "
                + "drawing, \(async.discarded) drawn too late and dropped)")
        print(
            "zoom fling, frames with a visible tile still on its way (a coarser level or nothing shows there): "
                + "sync \(sync.uncoveredFrames), async \(async.uncoveredFrames) of \(async.frames.count)")
        print(
            "zoom fling, tile memory peak: sync \(mib(sync.memoryPeak)), async \(mib(async.memoryPeak)) "
                + "(tiles workers hold included) of a \(mib(async.memoryCap)) cap → "
                + "\(ratio(Double(async.memoryPeak), Double(async.memoryCap))); frames over the cap: sync "
                + "\(sync.framesOverCap), async \(async.framesOverCap)")
        print(
            "list fling, main-thread ms/frame: 1,000 rows \(ms(shortList.mean)), 100,000 rows \(ms(list.mean)) "
                + "→ \(ratio(list.mean, shortList.mean)) of baseline; worst frame \(ms(shortList.worst)), "
                + "\(ms(list.worst)) → \(ratio(list.worst, shortList.worst))")
        print(
            "list fling, 100,000 rows against the \(ms(budget)) ms frame budget: mean \(ratio(list.mean, budget)), "
                + "worst \(ratio(list.worst, budget)); over budget \(list.over(budget)) of \(list.count)")
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
    /// After every drawn frame (statistics).
    var afterFrame: (() -> Void)?
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
            let wait = clock.now.duration(to: start.advanced(by: .nanoseconds(Int64(ft * 1e9))))
            if wait > .zero { Thread.sleep(forTimeInterval: Self.seconds(wait)) }
            frameStart = clock.now
            // Tile workers' results, as a platform's loop takes them when they arrive.
            window.drainInbox()
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
        driver.advance(to: driver.frameTime(driver.frame + Int((seconds * Self.refresh).rounded())))
        if let failure = driver.failure { throw failure }
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
        else { throw CommandError("bench: the zoom scene has no \"tiles\" or \"main\" view") }
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
    static func measure(quick: Bool, rows: Int = ListRows.count) throws -> FrameTimes {
        let window = Scene.list.makeWindow()
        if rows != ListRows.count, let list = window.view(named: "main") as? ListView {
            let source = ListRows(count: rows)
            window.retainedObjects.append(source)
            list.dataSource = source
            list.reloadData()
        }
        let bench = try BenchDriver(window: window)
        let from = Point(x: window.bounds.width / 2, y: window.bounds.height - 100)
        for dy in quick ? [-600.0] : [-600, -600, 600, -600] {
            bench.fling(dx: 0, dy: dy, from: from)
            try bench.run(for: quick ? 0.6 : 1.0)
        }
        return bench.times
    }
}

/// The zoom scene's map, counting which threads draw its tiles.
final class CountingMapSource: TileSource {
    private let map = MapSource()
    private let tally = Mutex((main: 0, workers: 0))

    var counts: (main: Int, workers: Int) { tally.withLock { $0 } }

    func draw(_ rect: Rect, in canvas: Canvas) {
        let onMain = Thread.isMainThread
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

@MainActor
extension Bench {
    /// The end-to-end bench: every size, every client, one table (or JSON).
    func runWeston() throws {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        let bench = WestonBench(quick: quick) { line in
            FileHandle.standardError.write(Data(("bench: " + line + "\n").utf8))
        }
        let peer = WestonBench.gtkPeer()
        let gtk = peer != nil && WestonBench.gtkInstalled()
        if let message = WestonBench.missingPeerMessage(scriptFound: peer != nil, gtkInstalled: gtk) {
            bench.log(message)
        }
        let scenes = quick ? ["list"] : ["list", "zoom"]
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scrollway-bench-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        struct SizeResult: Codable {
            var size: String
            var memcpyMs: Double
            var runs: [String: WestonBench.Run]
        }
        var results: [SizeResult] = []
        for size in try parsedSizes() {
            var clients: [(String, [String], [String: String], Bool)] = [
                ("floor", [exe, "demo", "--fullscreen", "--scene", "list", "--present", "flip-only"], [:], false)
            ]
            for scene in scenes {
                clients.append(
                    ("\(scene) fast", [exe, "demo", "--fullscreen", "--scene", scene, "--present", "fast"], [:], false))
                clients.append(
                    (
                        "\(scene) general", [exe, "demo", "--fullscreen", "--scene", scene, "--present", "general"],
                        [:], false
                    ))
            }
            if gtk, let peer, size.scale == 1 {
                clients.append(("list gtk4", ["/usr/bin/python3", peer], ["GSK_RENDERER": "cairo"], true))
            }
            var memcpys: [Double] = []
            var samples: [String: [WestonBench.Sample]] = [:]
            for round in 1...rounds {
                let memcpy = WestonBench.memcpyMilliseconds(bytes: size.devicePixels * 4)
                memcpys.append(memcpy)
                let of = rounds > 1 ? " (round \(round) of \(rounds))" : ""
                bench.log(String(format: "%@%@: one full-frame memcpy %.3f ms", size.description, of, memcpy))
                for (name, command, env, isGTK) in clients {
                    let stats = dir.appendingPathComponent("\(name.replacingOccurrences(of: " ", with: "-")).stats")
                        .path
                    let args = command + (isGTK ? ["--stats", stats] : ["--frame-stats", stats])
                    let sample = try bench.run(
                        name, size: size, command: args, environment: env, stats: stats, toEnd: name == "list fast",
                        parse: isGTK ? WestonBench.gtkFrames : WestonBench.scrollwayFrames)
                    samples[name, default: []].append(sample)
                    let run = WestonBench.summarize(name, [sample])
                    bench.log(
                        String(
                            format:
                                "%@, %@%@: %d frames, main %.2f ms median (%.2f× memcpy), p99 %.2f, process %.2f; weston %.2f ms/frame",
                            size.description, name, of, run.frames, run.mainMedian, run.mainMedian / memcpy,
                            run.mainP99,
                            run.processMedian, run.westonPerFrame))
                }
            }
            let memcpy = WestonBench.percentile(memcpys, 0.5)
            results.append(
                SizeResult(
                    size: size.description, memcpyMs: memcpy,
                    runs: Dictionary(
                        uniqueKeysWithValues: samples.map { ($0.key, WestonBench.summarize($0.key, $0.value)) })
                ))
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(results), as: UTF8.self))
            return
        }
        func x(_ a: Double, _ b: Double) -> String { b > 0 ? String(format: "%.2f×", a / b) : "n/a" }
        defer {
            for r in results {
                guard let list = r.runs["list fast"] else { continue }
                print(
                    String(
                        format: "%@, list: first frame %.0f ms after exec; resident memory after flinging to the end "
                            + "%.1f MiB (peak %.1f MiB)", r.size, list.firstFrameMs ?? -1, list.residentMB ?? -1,
                        list.peakResidentMB ?? -1))
                if rounds > 1 {
                    // How far the rounds fell apart: the pooled numbers above are steadier than this.
                    let spread = r.runs.sorted { $0.key < $1.key }.map { name, run in
                        let m = run.roundMainMedians
                        return String(format: "%@ %.2f–%.2f", name, m.min() ?? 0, m.max() ?? 0)
                    }
                    print("\(r.size), main median of each of \(rounds) rounds (ms): " + spread.joined(separator: "; "))
                }
                if let share = list.recentredShare, let p99 = list.mainP99NotRecentred {
                    print(
                        String(
                            format: "%@, list fast: %.0f%% of frames recentred a buffer ring "
                                + "(a frame copy or composite each); main p99 of the others %.2f ms (%@ memcpy)",
                            r.size, share * 100, p99,
                            x(p99, r.memcpyMs)))
                }
            }
        }
        print(
            "scrollway bench --weston: client CPU per committed frame while flung, as ratios to baselines of the same run"
        )
        print(
            "| size | memcpy | client | frames/s (÷ floor) | main median (÷ memcpy) | main p99 (÷ memcpy) | process median | "
                + "process p99 (÷ memcpy) | ÷ gtk4 | weston ms/frame (÷ gtk4) |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for r in results {
            let floor = r.runs["floor"]
            let gtk = r.runs["list gtk4"]
            for (name, run) in r.runs.sorted(by: { $0.key < $1.key }) where name != "floor" {
                let gtkRatio =
                    name.hasPrefix("list") && name != "list gtk4"
                    ? gtk.map { x(run.processMedian, $0.processMedian) } ?? "n/a" : ""
                let westonRatio =
                    name.hasPrefix("list") ? gtk.map { x(run.westonPerFrame, $0.westonPerFrame) } ?? "n/a" : ""
                print(
                    String(
                        format:
                            "| %@ | %.2f ms | %@ | %.1f (%@) | %.2f ms (%@) | %.2f ms (%@) | %.2f ms | %.2f ms (%@) | %@ | %.2f (%@) |",
                        r.size, r.memcpyMs, name, run.framesPerSecond,
                        floor.map { x(run.framesPerSecond, $0.framesPerSecond) } ?? "n/a", run.mainMedian,
                        x(run.mainMedian, r.memcpyMs), run.mainP99, x(run.mainP99, r.memcpyMs), run.processMedian,
                        run.processP99, x(run.processP99, r.memcpyMs),
                        gtkRatio,
                        run.westonPerFrame, westonRatio))
            }
        }
    }
}
