import ArgumentParser
import Foundation
import ScrollwayBench
import ScrollwayGeometry
import ScrollwayRigs
import ScrollwayScripts
import ScrollwayWaylandCore
import ScrollwayWestonHarness

/// `scrollway bench`: parses its options and runs the benchmarks of `ScrollwayBench`
/// (`OffscreenBench`, `WestonBench`, `SoakBench`), which anyone can run from code as well.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the main thread's time per frame while flinging the zoom and list scenes.",
        discussion: """
            Offscreen, frames paced at 60 Hz in real time. The zoom scene is flung and zoomed with \
            synchronous tiles (the baseline) and then with tiles drawn on worker threads; results are \
            printed as ratios against that baseline. The list scene (no tiles) is flung with 1,000 rows \
            (the baseline) and with its 100,000, and reported against that baseline and the 16.7 ms \
            frame budget. About two minutes; --quick about 20 s. With --weston the list and zoom \
            scenes in headless weston at several sizes (10–15 minutes; --quick: the list's clients at \
            390x844, about a minute).
            """)

    @Flag(
        help: """
            A short run: checks that everything runs, numbers are rough (offscreen about 20 s; \
            with --weston only the list's clients at 390x844, about a minute).
            """)
    var quick = false

    @Flag(
        help: """
            End to end in headless weston: the list and zoom scenes flung with real touches at each \
            size, the client's CPU per frame against one full-frame memcpy, a zero-work client (the \
            compositor's floor), the general present path and GTK4's ListView (when installed).
            """)
    var weston = false

    @Flag(
        help: """
            Input-to-screen latency only, in --compositor's headless session: a slow touch drag, a \
            flick, wheel clicks, keys, and a key and a touch after rest (touch where the compositor's \
            rig has it) into a zero-work client, our list and GTK4's, each input timed to the repaint \
            that shows it and to its presentation, from each client's own protocol traffic.
            """)
    var latency = false

    @Option(help: "With --latency: the compositor (weston, sway, mutter, phoc, kwin).")
    var compositor: Compositor = .weston

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With --weston or --latency: sizes as WxH or WxH@SCALE (logical size at an output scale), comma-separated, "
                + "sides 16 to 8192 and the output (a side times the scale) at most 8192 (default: 390x844, "
                + "1920x1080, 3840x2160 and 1920x1080@2; with --quick 390x844; with --latency 1920x1080).",
            valueName: "sizes"))
    var sizes: String?

    @Flag(help: "With --weston or --latency: print the results as one JSON object instead of the tables.")
    var json = false

    @Option(
        parsing: .unconditional,
        help: """
            With --weston: rounds of every client at each size (1–9), taken in turn (A B C A B C …), \
            their frames pooled: a shared machine's drift then falls on every client alike.
            """)
    var rounds: Int = 1

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            """
            With --weston: hold each client to PERCENT of one core (1–100) in a cgroup of its own \
            (cgroup v2 cpu.max or v1 cpu.cfs_quota_us; needs root or a delegated cgroup), a stand-in \
            for a small kiosk board: frames per second against the floor's and late frames.
            """, valueName: "percent"))
    var cpuQuota: Int?

    @Option(
        help: ArgumentHelp(
            """
            With --weston: only these clients besides the floor (which every ratio is to), \
            comma-separated: list-fast, list-general, list-gtk4, zoom-fast, zoom-general.
            """, valueName: "names"))
    var clients: String?

    @Option(
        help: ArgumentHelp(
            """
            With --weston: keep each client's frame records (one JSON line a committed frame: \
            its CPU times, plan, phases and, for tiled scenes, the tiles it showed missing) in DIR, one file a size, client and round, and the \
            latency runs' protocol logs.
            """, valueName: "dir"))
    var records: String?

    @Flag(
        help: """
            Memory over a long run: the same flinging script for 1 and --minutes minutes, offscreen \
            in the list and the feed (peak resident memory of each) and in headless weston in real \
            time (resident memory sampled; takes --minutes minutes).
            """)
    var soak = false

    @Option(parsing: .unconditional, help: "With --soak: the long run's length in minutes (2–120).")
    var minutes: Int = 10

    func validate() throws {
        guard (2...120).contains(minutes) else { throw ValidationError("--minutes: expected 2 to 120, got \(minutes)") }
        if soak, weston || quick || latency {
            throw ValidationError("--soak runs on its own (without --weston, --latency or --quick)")
        }
        if minutes != 10, !soak { throw ValidationError("--minutes goes with --soak") }
        if latency, weston {
            throw ValidationError("--latency runs on its own (--weston measures latency in weston too)")
        }
        if compositor != .weston, !latency { throw ValidationError("--compositor goes with --latency") }
        if latency, rounds != 1 || cpuQuota != nil || clients != nil || records != nil {
            throw ValidationError("--rounds, --cpu-quota, --clients and --records go with --weston, not --latency")
        }
        if sizes != nil || json {
            guard weston || latency else { throw ValidationError("--sizes and --json go with --weston or --latency") }
        }
        if rounds != 1 || cpuQuota != nil || clients != nil || records != nil {
            guard weston else {
                throw ValidationError("--rounds, --cpu-quota, --clients and --records go with --weston")
            }
        }
        _ = try parsedClients()
        if let cpuQuota, !(1...100).contains(cpuQuota) {
            throw ValidationError("--cpu-quota: expected 1 to 100 (percent of one core), got \(cpuQuota)")
        }
        guard (1...9).contains(rounds) else { throw ValidationError("--rounds: expected 1 to 9, got \(rounds)") }
        _ = try parsedSizes()
    }

    /// The clients --clients names (nil: all), each one the bench knows.
    func parsedClients() throws -> Set<String>? {
        guard let clients else { return nil }
        do {
            return try WestonBench.clients(named: clients)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The sizes to measure: --sizes, or the default set (only the smallest with --quick; with
    /// --latency, 1920×1080, the size its goals are set at).
    func parsedSizes() throws -> [WestonBench.Size] {
        guard let sizes else {
            if latency { return [WestonBench.Size(width: 1920, height: 1080, scale: 1)] }
            return quick ? [WestonBench.defaultSizes[0]] : WestonBench.defaultSizes
        }
        var seen: Set<String> = []
        return try sizes.split(separator: ",", omittingEmptySubsequences: false).map { item in
            guard !item.isEmpty else {
                throw ValidationError("--sizes '\(sizes)': an empty size (between two commas, or at an end)")
            }
            let parts = item.split(separator: "@", omittingEmptySubsequences: false)
            let dims = parts[0].split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count <= 2, dims.count == 2, let w = Int(dims[0]), let h = Int(dims[1]),
                (16...8192).contains(w),
                (16...8192).contains(h)
            else { throw ValidationError("--sizes: '\(item)' is not WxH or WxH@SCALE with sides from 16 to 8192") }
            let scale = parts.count == 2 ? Int(parts[1]) : 1
            guard let scale, (1...4).contains(scale) else {
                throw ValidationError("--sizes: '\(item)': the scale must be a whole number from 1 to 4")
            }
            guard w * scale <= 8192, h * scale <= 8192 else {
                throw ValidationError(
                    "--sizes: '\(item)': the output is \(w * scale)×\(h * scale) pixels; at most 8192 a side")
            }
            let size = WestonBench.Size(width: w, height: h, scale: scale)
            guard seen.insert(size.description).inserted else {
                throw ValidationError("--sizes: '\(item)' is named twice (its runs would share their records)")
            }
            return size
        }
    }

    @MainActor func run() async throws {
        try bootstrapLogging()
        if soak {
            try SoakBench(minutes: minutes, executable: WestonRig.runningExecutable).run()
            return
        }
        // Stopped by SIGINT or SIGTERM, a run takes away what it made (its folders, its cgroup)
        // before it ends by the signal (only with descriptors to spare: the sources take some).
        let leftovers = BenchLeftovers()
        let stopping = Signalled()
        let signals =
            (weston || latency) && ProcessResources.hasDescriptorsToSpare
            ? try onStopSignals(stopping) { signo in
                leftovers.removeAll()
                endBySignal(signo)
            } : []
        defer { for source in signals { source.cancel() } }
        do { try runMeasuring(leftovers) } catch {
            // What the handler took away (the rig's folder) can fail the run before it ends it.
            stopping.holdIfStopping()
            throw error
        }
    }

    @MainActor private func runMeasuring(_ leftovers: BenchLeftovers) throws {
        if latency {
            let exe = WestonRig.runningExecutable
            var bench = WestonBench(quick: quick) { line in StandardStream.error.say("bench: " + line + "\n") }
            bench.leftovers = leftovers
            try bench.latencyReport(compositor: compositor, sizes: try parsedSizes(), json: json, executable: exe)
            return
        }
        if weston {
            let exe = WestonRig.runningExecutable
            var bench = WestonBench(quick: quick) { line in
                StandardStream.error.say("bench: " + line + "\n")
            }
            bench.cpuQuota = cpuQuota
            bench.leftovers = leftovers
            bench.clients = try parsedClients()
            bench.recordsDirectory = try records.map { try WestonBench.recordsFolder($0) }
            try bench.report(sizes: try parsedSizes(), rounds: rounds, json: json, executable: exe)
            return
        }
        let progress = Progress("bench", total: Double(OffscreenBench.steps))
        try OffscreenBench(quick: quick, progress: { progress.step($0, $1) }).run()
        progress.finish()
    }
}
