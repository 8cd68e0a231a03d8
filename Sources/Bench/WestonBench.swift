import Foundation
import Glibc
import ScrollwayGeometry
import ScrollwayReplay
import ScrollwayRigs
import ScrollwayScripts
import ScrollwayWaylandCore
import ScrollwayWestonHarness

/// `scrollway bench --weston`: the list and zoom scenes flung with real touch events in a
/// headless weston at desktop and 4K sizes, the client's CPU per committed frame measured by
/// the client itself (`demo --frame-stats`), against baselines measured in the same run: one
/// full-frame memcpy (the limit), a client that only flips buffers (the compositor's floor),
/// the general present path, and GTK4's ListView when it is installed.
public struct WestonBench {
    public struct Size: CustomStringConvertible, Sendable {
        public var width: Int
        public var height: Int
        public var scale: Int
        public var description: String { "\(width)×\(height)" + (scale == 1 ? "" : " at scale \(scale)") }
        /// Device pixels of one frame.
        public var devicePixels: Int { width * height * scale * scale }

        public init(width: Int, height: Int, scale: Int) {
            self.width = width
            self.height = height
            self.scale = scale
        }
    }

    /// One committed frame's CPU time, ms; `recentred` nil when the client does not say.
    struct Frame {
        var main: Double
        var process: Double
        var recentred: Bool?
        /// When it was committed (painted, for GTK4), on the monotonic clock, s.
        var t: Double? = nil
        /// Scrollway clients: its steps by phase (`FrameStatsWriter.phaseNames`), ms.
        var phases: [String: Double]? = nil
        /// Scrollway clients with tiled views: the tiles it showed missing (not drawn yet).
        var holes: Int? = nil
    }

    /// One client flung in one compositor.
    struct Run: Codable {
        var client: String
        var frames: Int
        var seconds: Double
        var mainMedian: Double
        var mainP99: Double
        var mainWorst: Double
        var processMedian: Double
        var processP99: Double
        var westonPerFrame: Double
        /// From exec to the first commit (Scrollway clients), ms.
        var firstFrameMs: Double?
        /// Whether the client loaded the Swift runtime as a shared library (a plain `swift build`)
        /// rather than having it linked in (`--static-swift-stdlib`): the dynamic linker's
        /// symbol lookups are part of the time to the first frame.
        var sharedSwiftRuntime: Bool? = nil
        /// Resident memory after flinging to the end of the list, and its peak, MiB.
        var residentMB: Double?
        var peakResidentMB: Double?
        /// Scrollway clients: the share of frames whose buffer was recentred in its ring (one
        /// frame copy each), and the main thread's p99 over the other frames, ms.
        var recentredShare: Double?
        var mainP99NotRecentred: Double?
        /// Rounds pooled (`--rounds`), and each round's own main-thread median, ms (its spread
        /// says how much the machine moved between rounds).
        var rounds = 1
        var roundMainMedians: [Double] = []
        /// Frames that came more than 1.5 of the compositor's repaint intervals after the one before
        /// while the content moved (`lateFrames(_:interval:)`).
        var lateFrames = 0
        /// Scrollway clients with tiled views: the frames that showed tiles missing (not drawn
        /// yet), and the missing tiles over all frames.
        var holeFrames: Int? = nil
        var missingTiles: Int? = nil
        /// Scrollway clients: the median of each phase of a frame's main-thread time
        /// (`FramePhases`), and of what is left of each frame's (the event loop, the frame
        /// records: "rest"), ms, over the frames not held off the CPU during their phases
        /// (`PhaseMedians`).
        var phaseMedians: [String: Double]? = nil
        /// The frames those medians are taken over, and the frames that timed their phases.
        var phaseFrames: Int? = nil
        var timedFrames: Int? = nil
        var framesPerSecond: Double { seconds > 0 ? Double(frames) / seconds : 0 }
    }

    public let quick: Bool
    /// Each client held to this share of one core (`CPUQuota`), percent; nil: no limit.
    public var cpuQuota: Int?
    /// The clients to measure besides the floor (`clientNames`), nil: all of them (the list's
    /// only, in the quick mode). The floor always runs: every ratio is to it.
    public var clients: Set<String>?
    /// Where each client's frame records (`demo --frame-stats`, the GTK4 peer's `--stats`) are
    /// kept, one file a size, client and round; nil: in a directory removed after the run.
    public var recordsDirectory: URL?
    /// Told of the folders and cgroups a run makes, for a stop signal's handler to remove
    /// (`BenchLeftovers`); nil: none is told.
    public var leftovers: BenchLeftovers?

    /// The names `clients` may hold: the tables' names of the clients, a dash for the space.
    public static let clientNames = ["list-fast", "list-general", "list-gtk4", "zoom-fast", "zoom-general"]

    /// The clients a comma-separated list names (`--clients`), each one of `clientNames`;
    /// throws naming the first that is not, and the names there are.
    public static func clients(named list: String) throws(BenchError) -> Set<String> {
        let names = list.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        for name in names where !clientNames.contains(name) {
            throw BenchError(
                "--clients: '\(name)' is not one of " + clientNames.joined(separator: ", ") + " (the floor always runs)"
            )
        }
        return Set(names)
    }
    /// Progress and per-client results as they come (the command sends them to standard error).
    public var log: (String) -> Void
    /// Where the report's table (or JSON) goes.
    public var output: (String) -> Void

    public init(
        quick: Bool, output: @escaping (String) -> Void = { print($0) }, log: @escaping (String) -> Void
    ) {
        self.quick = quick
        self.output = output
        self.log = log
    }

    public static let defaultSizes = [
        Size(width: 390, height: 844, scale: 1), Size(width: 1920, height: 1080, scale: 1),
        Size(width: 3840, height: 2160, scale: 1), Size(width: 1920, height: 1080, scale: 2),
    ]

    /// The GTK4 peer's script, found beside the package (the executable lives in .build/…).
    static func gtkPeer() -> String? { checkoutFile("Benchmarks/gtk4-peer/gtk4-list.py") }

    /// A file of the checkout (`relative` to its root), looked for from the current directory
    /// and from the executable's directory up (it lives in .build/…).
    static func checkoutFile(_ relative: String) -> String? {
        var dir = URL(fileURLWithPath: WestonRig.runningExecutable).deletingLastPathComponent()
        var candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        for _ in 0..<5 {
            candidates.append(dir)
            dir = dir.deletingLastPathComponent()
        }
        for c in candidates {
            let p = c.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: p) { return p }
        }
        return nil
    }

    /// Why there is no GTK4 peer, nil when there is one. The script is looked for before GTK4:
    /// an executable run away from the checkout (copied, installed) cannot find it, and being
    /// told to install GTK4 then would send its user the wrong way.
    static func missingPeerMessage(scriptFound: Bool, gtkInstalled: Bool) -> String? {
        guard scriptFound else {
            return "the GTK4 peer's script (Benchmarks/gtk4-peer/gtk4-list.py) is neither in the current directory "
                + "nor beside this executable, so there is no peer to compare with: bench from the checkout"
        }
        guard gtkInstalled else {
            return "GTK4 is not installed, so there is no peer to compare with: run "
                + "`bash Benchmarks/gtk4-peer/install.sh` (Debian's python3-gi and gir1.2-gtk-4.0) and bench again"
        }
        return nil
    }

    /// The GTK4 peer's script when the peer can run (found, and GTK4 installed); else nil, and
    /// `log` is told why. Throws when the system refuses to start the check (a limit on
    /// processes): GTK4 is not then missing, and the bench could not go on anyway.
    static func runnableGtkPeer(log: (String) -> Void) throws -> String? {
        let peer = gtkPeer()
        let installed = try peer != nil && gtkInstalled()
        if let message = missingPeerMessage(scriptFound: peer != nil, gtkInstalled: installed) { log(message) }
        return installed ? peer : nil
    }

    /// Whether GTK4's Python bindings are installed for the system python (not when python
    /// cannot be found); throws the system's refusal to start it.
    static func gtkInstalled() throws -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", "import gi; gi.require_version('Gtk', '4.0'); from gi.repository import Gtk"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do {
            try p.runWithSignalsUnblocked()
        } catch let refused as ProcessStartFailure where refused.code == EAGAIN {
            throw refused
        } catch {
            return false
        }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }

    /// Milliseconds one full-frame memcpy of `bytes` takes here: the limit a frame that touches
    /// every pixel cannot beat. Copies rotate through buffers adding up to well past any cache
    /// (a frame's pixels come from and go to memory, as a buffer the compositor reads does);
    /// the median of many.
    static func memcpyMilliseconds(bytes: Int) -> Double {
        let count = max(4, min(64, (256 << 20) / max(bytes, 1)))
        let buffers = (0..<count).map { _ in UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64) }
        defer { for b in buffers { b.deallocate() } }
        for (i, b) in buffers.enumerated() { memset(b, Int32(i), bytes) }
        var samples: [Double] = []
        for i in 0..<max(31, count) {
            let src = buffers[i % count]
            let dst = buffers[(i + count / 2) % count]
            let t0 = FrameStatsWriter.monotonic()
            memcpy(dst, src, bytes)
            samples.append((FrameStatsWriter.monotonic() - t0) * 1000)
        }
        return percentile(samples, 0.5)
    }

    /// CPU seconds a process has used (utime + stime from /proc).
    static func cpuSeconds(pid: Int32) -> Double? {
        guard let stat = ProcFile.text("/proc/\(pid)/stat"),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let u = Double(fields[11]), let s = Double(fields[12]) else { return nil }
        return (u + s) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Waits until the process `pid` has been quiet, at least `minimum` seconds after the
    /// call: under `share` of a core over the last `window` seconds, by its CPU clock (every
    /// thread, in nanoseconds; /proc's clock ticks are too coarse for a share this small over a
    /// window this short). Returns false when `limit` seconds pass first, or when the clock
    /// cannot be read (a process already gone); the fling then finds the client as it is. Why
    /// not a fixed wait: a client still busy after its first frame (faulting its buffers in,
    /// slowly under a CPU quota) would share its first fling's frames with that work
    /// (docs/decisions.md, 0.15.8).
    @discardableResult
    static func waitUntilQuiet(
        pid: Int32, minimum: Double = 0.3, window: Double = 0.25, share: Double = 0.01, limit: Double = 20
    ) -> Bool {
        var clock = clockid_t()
        func cpu() -> Double? {
            var ts = timespec()
            return clock_gettime(clock, &ts) == 0 ? Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9 : nil
        }
        let start = FrameStatsWriter.monotonic()
        guard clock_getcpuclockid(pid, &clock) == 0 else { return false }
        var samples: [(t: Double, cpu: Double)] = []
        while let c = cpu() {
            let t = FrameStatsWriter.monotonic()
            samples.append((t, c))
            if t - start >= minimum, let before = samples.last(where: { t - $0.t >= window }),
                (c - before.cpu) / (t - before.t) < share
            {
                return true
            }
            if t - start >= limit { return false }
            usleep(25_000)
        }
        return false
    }

    /// What one round of one client measured: its frames while flung, and the rest of a `Run`.
    struct Sample {
        var frames: [Frame]
        var seconds: Double
        var westonSeconds: Double
        var firstFrameMs: Double?
        var sharedSwiftRuntime: Bool? = nil
        var memory: (resident: Double, peak: Double)?
    }

    /// Starts `command` fullscreen in a new headless weston of `size`, flings it, and reads the
    /// statistics it wrote to `stats`. `ownClient`: a Scrollway demo, which exits 0 when told to
    /// stop and has written its records whole, and says why not when it could not (a full
    /// disk): then the run fails with its words, where its records, cut short, had been read as
    /// they were and the next client's failure blamed.
    func run(
        _ name: String, size: Size, command: [String], environment: [String: String] = [:], stats: String,
        toEnd: Bool = false, ownClient: Bool = false, parse: (String, Double, Double) throws -> [Frame]
    ) throws -> Sample {
        // Headless weston takes the logical size and multiplies it by the scale for its mode.
        let rig = try WestonRig(width: size.width, height: size.height, scale: size.scale)
        defer { rig.stop() }
        let errors = rig.process.runtimeDirectory.appendingPathComponent("client-errors.txt")
        let client = try rig.process.launchClient(
            command[0], arguments: Array(command.dropFirst()), environment: environment, output: errors)
        let launched = Self.startTime(pid: client.processIdentifier) ?? FrameStatsWriter.monotonic()
        try waitForWindow(rig, client: client)
        let sharedRuntime = Self.loadsSharedSwiftRuntime(pid: client.processIdentifier)
        // Settle: the first frames (fonts, first rows) and the work a client does once shown
        // (faulting its buffers in, warming caches) are not what a fling costs.
        if !Self.waitUntilQuiet(pid: client.processIdentifier) {
            log("\(name) at \(size): the client did not go quiet within 20 s of its window; flung anyway")
        }
        let westonBefore = Self.cpuSeconds(pid: rig.process.pid) ?? 0
        let t0 = FrameStatsWriter.monotonic()
        var ms: UInt32 = 1000
        for _ in 0..<(quick ? 1 : 3) { try fling(rig, size, up: true, ms: &ms) }
        let t1 = FrameStatsWriter.monotonic()
        let westonAfter = Self.cpuSeconds(pid: rig.process.pid) ?? 0
        var memory: (resident: Double, peak: Double)?
        if toEnd {
            // To the end of the list (End), and a fling there: what a long session holds.
            guard let end = rig.keys.stroke(forKeysymNamed: "End") else { throw BenchError("bench: no End key") }
            rig.input.key(end.evdev, pressed: true, time: ms)
            rig.input.key(end.evdev, pressed: false, time: ms + 20)
            try rig.input.flush()
            usleep(1_500_000)
            ms += 1500
            try fling(rig, size, up: false, ms: &ms)
            memory = Self.memory(pid: client.processIdentifier)
        }
        Self.stopClient(client)
        // Read before the rig's folder goes with it.
        let said = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        Self.stop(client, rig: rig)
        if ownClient && client.terminationReason == .exit && client.terminationStatus != 0 {
            let last = said.split(separator: "\n").last.map(String.init) ?? "nothing on standard error"
            throw BenchError("bench: \(name) at \(size): the client \(RigProcesses.describeEnd(client)): \(last)")
        }
        let text = (try? String(contentsOfFile: stats, encoding: .utf8)) ?? ""
        let frames = try parse(text, t0, t1)
        guard !frames.isEmpty else { throw BenchError("bench: \(name) at \(size) committed no frame while flung") }
        return Sample(
            frames: frames, seconds: t1 - t0, westonSeconds: westonAfter - westonBefore,
            firstFrameMs: Self.firstCommit(text).map { ($0 - launched) * 1000 }, sharedSwiftRuntime: sharedRuntime,
            memory: memory)
    }

    /// Stops a client and then its rig. The client writes what it measured when told to stop;
    /// the rig's own stop gives a client one second before SIGKILL, which a loaded machine can
    /// miss (the GTK4 peer, a Python main loop, then wrote nothing): it is asked here and given
    /// until it has exited (30 s at most).
    static func stop(_ client: Process, rig: any CompositorRig) {
        stopClient(client)
        rig.stop()
        client.waitUntilExit()
    }

    /// Asks the client to stop (SIGTERM) and gives it until it has exited, 30 s at most.
    static func stopClient(_ client: Process) {
        // Not once it has gone: its pid may be another process's by now.
        guard client.isRunning else { return }
        kill(client.processIdentifier, SIGTERM)
        let deadline = Deadline(in: 30)
        while client.isRunning && !deadline.hasPassed { usleep(10_000) }
    }

    /// One client's `Run` from its rounds: the frames of every round pooled (a median and a
    /// p99 over all of them, steadier than any one round's), weston's time and the seconds
    /// added up, and the median round's first frame and memory.
    static func summarize(_ name: String, _ samples: [Sample], repaintInterval: Double = 1.0 / 60) -> Run {
        precondition(!samples.isEmpty, "a client measured in no round")
        func middle(_ v: [Double]) -> Double? { v.isEmpty ? nil : percentile(v, 0.5) }
        let frames = samples.flatMap(\.frames)
        let phases = phaseMedians(frames)
        // Sorted once for both of their quantiles.
        let main = frames.map(\.main).sorted()
        let process = frames.map(\.process).sorted()
        let flagged = frames.compactMap(\.recentred)
        let notRecentred = frames.filter { $0.recentred == false }.map(\.main)
        let holes = frames.compactMap(\.holes)
        let memory = samples.compactMap(\.memory)
        return Run(
            client: name, frames: frames.count, seconds: samples.map(\.seconds).reduce(0, +),
            mainMedian: percentile(main, 0.5, sorted: true), mainP99: percentile(main, 0.99, sorted: true),
            mainWorst: main.last ?? 0, processMedian: percentile(process, 0.5, sorted: true),
            processP99: percentile(process, 0.99, sorted: true),
            westonPerFrame: samples.map(\.westonSeconds).reduce(0, +) * 1000 / Double(frames.count),
            firstFrameMs: middle(samples.compactMap(\.firstFrameMs)),
            sharedSwiftRuntime: samples.compactMap(\.sharedSwiftRuntime).first,
            residentMB: middle(memory.map(\.resident)),
            peakResidentMB: middle(memory.map(\.peak)),
            recentredShare: flagged.isEmpty ? nil : Double(flagged.filter { $0 }.count) / Double(flagged.count),
            mainP99NotRecentred: notRecentred.isEmpty ? nil : percentile(notRecentred, 0.99),
            rounds: samples.count,
            roundMainMedians: samples.map { percentile($0.frames.map(\.main), 0.5) },
            lateFrames: samples.map { lateFrames($0.frames, interval: repaintInterval) }.reduce(0, +),
            holeFrames: holes.isEmpty ? nil : holes.filter { $0 > 0 }.count,
            missingTiles: holes.isEmpty ? nil : holes.reduce(0, +),
            phaseMedians: phases?.medians, phaseFrames: phases?.kept, timedFrames: phases?.timed)
    }

    /// The quota table's cell for the tiles a client's frames showed missing: "n of N (m.m)", or
    /// empty for a client that has no tiles (or does not say).
    static func holesCell(_ run: Run) -> String {
        guard let holeFrames = run.holeFrames, let missing = run.missingTiles, run.frames > 0 else { return "" }
        return String(
            format: "%d of %d (%.1f)", holeFrames, run.frames, Double(missing) / Double(run.frames))
    }

    /// The medians of frames' phases (`phaseMedians(_:)`).
    struct PhaseMedians: Equatable {
        /// Each phase's median, and "rest"'s, ms.
        var medians: [String: Double]
        /// The frames they are taken over.
        var kept: Int
        /// The frames that timed their phases.
        var timed: Int
    }

    /// Slack for the two clocks' readings when comparing a frame's phases with its main-thread
    /// time, ms.
    static let clockSlack = 0.01

    /// Each phase's median, and the median of each frame's main-thread time less its phases
    /// ("rest"), over the frames that timed their phases and were not held off the CPU during
    /// them; nil when there are none. The phases are stretches of the monotonic clock (a
    /// thread-CPU clock read costs a system call), and the main-thread time is the thread's CPU
    /// time: a frame whose phases add up to more than that spent part of them off the CPU,
    /// preempted or stopped by a CPU quota (under `--cpu-quota`, a quota that runs out while a
    /// frame paints makes the rest of the period look like painting). Its phases are not its
    /// work, and it is left out.
    static func phaseMedians(_ frames: [Frame]) -> PhaseMedians? {
        let timed = frames.compactMap { f in
            f.phases.map { (phases: $0, rest: f.main - $0.values.reduce(0, +)) }
        }
        let kept = timed.filter { $0.rest >= -clockSlack }
        guard !kept.isEmpty else { return nil }
        var medians: [String: Double] = [:]
        for name in FrameStatsWriter.phaseNames {
            medians[name] = percentile(kept.map { $0.phases[name] ?? 0 }, 0.5)
        }
        medians["rest"] = percentile(kept.map(\.rest), 0.5)
        return PhaseMedians(medians: medians, kept: kept.count, timed: timed.count)
    }

    /// The value at quantile `q` of `values` (not empty): the element a fraction `q` of the way
    /// up, as every figure of the bench takes it (the median of an even count is the upper one).
    static func percentile(_ values: [Double], _ q: Double, sorted: Bool = false) -> Double {
        let v = sorted ? values : values.sorted()
        return v[min(v.count - 1, Int(clamping: Double(v.count) * q))]
    }

    /// Frames more than 1.5 × `interval` after the frame before, and less than a quarter second
    /// (longer is rest between flings). `interval`: how often the compositor repaints, the
    /// floor client's median frame interval in the same run (a 4K output in headless weston
    /// repaints about 40 times a second whatever the client does), at least one 60 Hz refresh.
    static func lateFrames(_ frames: [Frame], interval: Double) -> Int {
        let times = frames.compactMap(\.t)
        return zip(times, times.dropFirst()).filter { a, b in b - a > 1.5 * interval && b - a < 0.25 }.count
    }

    /// The floor's median interval between frames (at least 1/60 s): how often the compositor
    /// repaints at this size.
    static func repaintInterval(_ floor: [Sample]?) -> Double {
        let intervals = (floor ?? []).flatMap { sample -> [Double] in
            let t = sample.frames.compactMap(\.t)
            return zip(t, t.dropFirst()).map { $1 - $0 }.filter { $0 < 0.25 }
        }
        return max(1.0 / 60, intervals.isEmpty ? 0 : percentile(intervals, 0.5))
    }

    /// One fast touch fling through the middle of the window, up or down (four moves 15 ms
    /// apart, lifted 10 ms after the last), injected in real time, then its glide.
    private func fling(_ rig: WestonRig, _ size: Size, up: Bool, ms: inout UInt32) throws {
        let x = Double(size.width) / 2
        let h = Double(size.height)
        let (y0, y1) = up ? (h * 0.85, h * 0.25) : (h * 0.25, h * 0.85)
        var b = ScriptBuilder()
        b.drag(from: Point(x: x, y: y0), to: Point(x: x, y: y1), at: Double(ms), ms: 60, hold: 10, step: 15)
        let injector = WestonSeatInjector(rig: rig)
        rig.pacer.begin(at: Double(ms))
        for e in b.script.events { try injector.play(e) }
        try rig.input.flush()
        usleep(quick ? 800_000 : 1_600_000)
        ms += 70 + 1600
    }

    /// Says how the client had the Swift runtime, after its first frame's time: a shared runtime
    /// costs the dynamic linker's lookups at every start, which the build can avoid.
    static func runtimeNote(_ shared: Bool?) -> String {
        switch shared {
        case true?: return " (Swift runtime shared: `swift build -c release --static-swift-stdlib` starts sooner)"
        case false?: return " (Swift runtime linked in)"
        case nil: return ""
        }
    }

    /// The time of the first frame a Scrollway client committed (its statistics' first line).
    static func firstCommit(_ text: String) -> Double? {
        guard let line = text.split(separator: "\n").first, let data = line.data(using: .utf8),
            let o = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return o["t"] as? Double
    }

    /// When a process started, on the monotonic clock (its start in clock ticks since boot, from
    /// /proc, moved by how long ago boot was: 10 ms resolution).
    static func startTime(pid: Int32) -> Double? {
        guard let stat = ProcFile.text("/proc/\(pid)/stat"),
            let close = stat.lastIndex(of: ")"),
            let uptime = ProcFile.text("/proc/uptime"),
            let up = Double(uptime.split(separator: " ").first ?? "")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        return FrameStatsWriter.monotonic() - (up - ticks / Double(sysconf(Int32(_SC_CLK_TCK))))
    }

    /// Whether a running process has the Swift runtime mapped from `libswiftCore.so` (nil: its
    /// maps could not be read).
    static func loadsSharedSwiftRuntime(pid: Int32) -> Bool? {
        ProcFile.text("/proc/\(pid)/maps").map { $0.contains("/libswiftCore.so") }
    }

    /// A process's resident memory now and at its peak, in MiB (VmRSS, VmHWM).
    static func memory(pid: Int32) -> (resident: Double, peak: Double)? {
        guard let status = ProcFile.text("/proc/\(pid)/status") else { return nil }
        func kib(_ key: String) -> Double? {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key + ":") }) else { return nil }
            return line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap {
                Double($0)
            }
        }
        guard let rss = kib("VmRSS"), let hwm = kib("VmHWM") else { return nil }
        return (rss / 1024, hwm / 1024)
    }

    /// Waits (up to 10 s) until something other than black shows, or the client dies.
    func waitForWindow(_ rig: WestonRig, client: Process) throws {
        let deadline = Deadline(in: 10)
        while !deadline.hasPassed {
            guard client.isRunning else {
                throw BenchError(
                    "bench: the client \(RigProcesses.describeEnd(client)) before showing a window")
            }
            let c = try rig.capture()
            if c.pixel(x: c.width / 2, y: c.height / 2) != 0xFF00_0000 { return }
            usleep(20_000)
        }
        throw BenchError("bench: no window after 10 s")
    }

    /// Frames a Scrollway client committed between t0 and t1.
    static func scrollwayFrames(_ text: String, t0: Double, t1: Double) throws -> [Frame] {
        text.split(separator: "\n").compactMap { line in
            guard let data = line.data(using: .utf8),
                let o = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let t = o["t"] as? Double, let main = o["main"] as? Double, let process = o["process"] as? Double,
                t >= t0, t <= t1
            else { return nil }
            return Frame(
                main: main, process: process, recentred: o["recentred"] as? Bool, t: t,
                phases: o["phases"] as? [String: Double], holes: o["holes"] as? Int)
        }
    }

    /// The GTK4 peer's frames while its list scrolled.
    static func gtkFrames(_ text: String, t0: Double, t1: Double) throws -> [Frame] {
        guard let data = text.data(using: .utf8),
            let o = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let main = o["mainCPUms"] as? [Double], let process = o["processCPUms"] as? [Double]
        else { throw BenchError("bench: the GTK4 peer wrote no statistics") }
        let times = o["frameTimes"] as? [Double] ?? []
        return zip(main, process).enumerated().map { i, cpu in
            Frame(main: cpu.0, process: cpu.1, recentred: nil, t: i < times.count ? times[i] : nil)
        }
    }
}

@MainActor
extension WestonBench {
    /// One client the report runs: its name in the tables, its command and extra environment,
    /// and whether it is the GTK4 peer (which writes its own records).
    struct ClientRun {
        var name: String
        var command: [String]
        var environment: [String: String] = [:]
        var isGTK = false
    }

    /// The clients measured at `size`, in the order they run: the floor, then each scene's fast
    /// and general present paths (the list's only in the quick mode), then the GTK4 peer where
    /// it runs (`peer`, at scale 1); only those `clients` names, and the floor, when it names some.
    func clientRuns(for size: Size, executable exe: String, peer: String?) -> [ClientRun] {
        let scenes = quick && clients == nil ? ["list"] : ["list", "zoom"]
        var runs = [
            ClientRun(
                name: "floor", command: [exe, "demo", "--fullscreen", "--scene", "list", "--present", "flip-only"])
        ]
        for scene in scenes {
            for mode in ["fast", "general"] {
                runs.append(
                    ClientRun(
                        name: "\(scene) \(mode)",
                        command: [exe, "demo", "--fullscreen", "--scene", scene, "--present", mode]))
            }
        }
        if let peer, size.scale == 1 {
            runs.append(
                ClientRun(
                    name: "list gtk4", command: ["/usr/bin/python3", peer], environment: ["GSK_RENDERER": "cairo"],
                    isGTK: true))
        }
        if let clients {
            runs.removeAll { $0.name != "floor" && !clients.contains($0.name.replacingOccurrences(of: " ", with: "-")) }
        }
        return runs
    }

    /// The file a client's frame records of one round at one size are written to, in the
    /// report's records directory: `1920x1080-list-fast-round-1.stats`,
    /// `1920x1080-at-scale-2-floor-round-2.stats`; without a round, the latency run's:
    /// `1920x1080-list-fast-latency.wayland.log`.
    static func recordsFileName(size: Size, client: String, round: Int?, suffix: String = ".stats") -> String {
        let name = [size.description, client] + (round.map { ["round \($0)"] } ?? ["latency"])
        return name.joined(separator: " ").replacingOccurrences(of: " ", with: "-")
            .replacingOccurrences(of: "×", with: "x") + suffix
    }

    /// The folder `--records` names, made if missing (and its parents), checked before anything
    /// is measured: a path that is a file, that cannot be made, or where a file cannot be
    /// written is said with its reason and the option. Without it, Foundation's own error came
    /// after the first measurements, or a client failed to start for no reason said.
    public static func recordsFolder(_ path: String) throws -> URL {
        guard !path.isEmpty else { throw BenchError("--records '': an empty path names no folder") }
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw BenchError("--records '\(path)': it is a file, not a folder")
        }
        do {
            _ = try OutputFile.makeFolders(path)
        } catch {
            throw BenchError("--records '\(path)': cannot make the folder (\(error.reason))")
        }
        let probe = url.appendingPathComponent(".scrollway-bench-\(getpid())").path
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw BenchError("--records '\(path)': cannot write there (\(String(cString: strerror(errno))))")
        }
        close(fd)
        unlink(probe)
        return url
    }

    /// The end-to-end bench: every size in `sizes`, every client, `rounds` rounds taken in turn,
    /// one table (or JSON) written to `output`. `executable` is the `scrollway` that runs the
    /// Scrollway clients (`demo --fullscreen`).
    public func report(sizes: [Size], rounds: Int, json: Bool, executable exe: String) throws {
        let bench = self
        let peer = try WestonBench.runnableGtkPeer(log: bench.log)
        let dir =
            recordsDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("scrollway-bench-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        if recordsDirectory == nil { leftovers?.folder(dir) }
        defer {
            if recordsDirectory == nil {
                leftovers?.forget(folder: dir)
                try? FileManager.default.removeItem(at: dir)
            }
        }
        struct SizeResult: Codable {
            var size: String
            var memcpyMs: Double
            var runs: [String: WestonBench.Run]
            var latency: [String: WestonBench.LatencyRun] = [:]
        }
        var results: [SizeResult] = []
        let quota = try cpuQuota.map { try CPUQuota(percent: $0, name: "scrollway-bench-\(getpid())") }
        if let quota { leftovers?.cgroup(quota.directory) }
        defer {
            if let quota { leftovers?.forget(cgroup: quota.directory) }
            quota?.remove()
        }
        if let quota {
            bench.log(
                "each client held to \(quota.percent)% of one core (cgroup v\(quota.version), \(quota.directory.path))")
        }
        for size in sizes {
            let clients = clientRuns(for: size, executable: exe, peer: peer)
            var memcpys: [Double] = []
            var samples: [String: [WestonBench.Sample]] = [:]
            for round in 1...rounds {
                let memcpy = WestonBench.memcpyMilliseconds(bytes: size.devicePixels * 4)
                memcpys.append(memcpy)
                let of = rounds > 1 ? " (round \(round) of \(rounds))" : ""
                bench.log(String(format: "%@%@: one full-frame memcpy %.3f ms", size.description, of, memcpy))
                for client in clients {
                    let (name, command, env, isGTK) = (client.name, client.command, client.environment, client.isGTK)
                    let stats = dir.appendingPathComponent(Self.recordsFileName(size: size, client: name, round: round))
                        .path
                    let own = command + (isGTK ? ["--stats", stats] : ["--frame-stats", stats])
                    let args = quota?.wrap(own) ?? own
                    let sample = try bench.run(
                        name, size: size, command: args, environment: env, stats: stats, toEnd: name == "list fast",
                        ownClient: !isGTK, parse: isGTK ? WestonBench.gtkFrames : WestonBench.scrollwayFrames)
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
            // Latency: the same input script into each client, its protocol traffic read (the
            // quick mode at the first size only).
            var latency: [String: WestonBench.LatencyRun] = [:]
            // (Not under a CPU quota: the log costs the client CPU time of its own.)
            if quota == nil, !quick || size.description == sizes.first?.description {
                for client in clients where ["floor", "list fast", "list gtk4"].contains(client.name) {
                    let (name, command, env, isGTK) = (client.name, client.command, client.environment, client.isGTK)
                    let stats = dir.appendingPathComponent(Self.recordsFileName(size: size, client: name, round: nil))
                        .path
                    let args = command + (isGTK ? ["--stats", stats] : [])
                    let log = dir.appendingPathComponent(
                        Self.recordsFileName(size: size, client: name, round: nil, suffix: ".wayland.log"))
                    let run = try bench.latency(name, size: size, command: args, environment: env, log: log)
                    latency[name] = run
                    for phase in WestonBench.LatencyPhase.allCases {
                        guard let p = run.phases[phase.rawValue] else { continue }
                        bench.log(
                            String(
                                format: "%@, %@, %@: input → repaint median %.1f ms, p99 %.1f ms (%d inputs)",
                                size.description, name, phase.rawValue, p.p50, p.p99, p.count))
                    }
                }
            }
            let interval = WestonBench.repaintInterval(samples["floor"])
            results.append(
                SizeResult(
                    size: size.description, memcpyMs: memcpy,
                    runs: Dictionary(
                        uniqueKeysWithValues: samples.map {
                            ($0.key, WestonBench.summarize($0.key, $0.value, repaintInterval: interval))
                        }),
                    latency: latency))
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            output(String(decoding: try encoder.encode(results), as: UTF8.self))
            return
        }
        func x(_ a: Double, _ b: Double) -> String { b > 0 ? String(format: "%.2f×", a / b) : "n/a" }
        defer {
            for r in results {
                guard let list = r.runs["list fast"] else { continue }
                output(
                    String(
                        format: "%@, list: first frame %.0f ms after exec%@; resident memory after flinging to the end "
                            + "%.1f MiB (peak %.1f MiB)", r.size, list.firstFrameMs ?? -1,
                        Self.runtimeNote(list.sharedSwiftRuntime), list.residentMB ?? -1, list.peakResidentMB ?? -1))
                if rounds > 1 {
                    // How far the rounds fell apart: the pooled numbers above are steadier than this.
                    let spread = r.runs.sorted { $0.key < $1.key }.map { name, run in
                        let m = run.roundMainMedians
                        return String(format: "%@ %.2f–%.2f", name, m.min() ?? 0, m.max() ?? 0)
                    }
                    output("\(r.size), main median of each of \(rounds) rounds (ms): " + spread.joined(separator: "; "))
                }
                for (name, run) in r.runs.sorted(by: { $0.key < $1.key }) {
                    guard let m = run.phaseMedians, let kept = run.phaseFrames, let timed = run.timedFrames
                    else { continue }
                    let phases = (FrameStatsWriter.phaseNames + ["rest"]).map {
                        String(format: "%@ %.3f", $0, m[$0] ?? 0)
                    }
                    output(
                        "\(r.size), \(name): the main thread's time in a frame by phase, medians (ms; rest: the "
                            + "event loop and the frame records) of the \(kept) of \(timed) frames not held off the CPU "
                            + "during their phases: " + phases.joined(separator: ", "))
                }
                if let share = list.recentredShare, let p99 = list.mainP99NotRecentred {
                    output(
                        String(
                            format: "%@, list fast: %.0f%% of frames recentred a buffer ring "
                                + "(a frame copy or composite each); main p99 of the others %.2f ms (%@ memcpy)",
                            r.size, share * 100, p99,
                            x(p99, r.memcpyMs)))
                }
            }
        }
        defer {
            if let quota {
                output(
                    "scrollway bench --weston --cpu-quota \(quota.percent): each client held to \(quota.percent)% of one "
                        + "core; frames committed while flung against the floor's, and frames that came more than 1.5 "
                        + "of the compositor's repaint intervals (the floor's median) after the one before; for tiled "
                        + "scenes, the frames that showed tiles not drawn yet, and how many such tiles a frame showed "
                        + "on average")
                output(
                    "| size | client | frames/s | ÷ floor | late frames | frames with tiles missing (tiles a frame) |")
                output("|---|---|---|---|---|---|")
                for r in results {
                    let floor = r.runs["floor"]
                    for (name, run) in r.runs.sorted(by: { $0.key < $1.key }) {
                        output(
                            String(
                                format: "| %@ | %@ | %.1f | %@ | %d of %d | %@ |", r.size, name, run.framesPerSecond,
                                floor.map { x(run.framesPerSecond, $0.framesPerSecond) } ?? "n/a", run.lateFrames,
                                run.frames, Self.holesCell(run)))
                    }
                }
            }
            if quota == nil {
                output(
                    "scrollway bench --weston: input → the repaint that shows it, from each client's own protocol "
                        + "traffic (WAYLAND_DEBUG=client: the input event, the first commit after it, that commit's "
                        + "frame callback)")
                output(WestonBench.latencyTable(results.map { ($0.size, $0.latency) }))
                output(
                    "scrollway bench --weston: input → presentation (wp_presentation feedback on that commit, which "
                        + "headless weston stamps a refresh after the repaint; only inputs whose commit asked for it)")
                output(WestonBench.latencyTable(results.map { ($0.size, $0.latency) }, presented: true))
                output(WestonBench.feedbackCounts(results.map { ($0.size, $0.latency) }))
            }
        }
        output(
            "scrollway bench --weston: client CPU per committed frame while flung, as ratios to baselines of the same run"
        )
        output(
            "| size | memcpy | client | frames/s (÷ floor) | main median (÷ memcpy) | main median ÷ floor's | "
                + "main p99 (÷ memcpy) | process median | process p99 (÷ memcpy) | ÷ gtk4 | weston ms/frame (÷ gtk4) |")
        output("|---|---|---|---|---|---|---|---|---|---|---|")
        for r in results {
            let floor = r.runs["floor"]
            let gtk = r.runs["list gtk4"]
            for (name, run) in r.runs.sorted(by: { $0.key < $1.key }) {
                let gtkRatio =
                    name.hasPrefix("list") && name != "list gtk4"
                    ? gtk.map { x(run.processMedian, $0.processMedian) } ?? "n/a" : ""
                let westonRatio =
                    name.hasPrefix("list") ? gtk.map { x(run.westonPerFrame, $0.westonPerFrame) } ?? "n/a" : ""
                output(
                    String(
                        format:
                            "| %@ | %.2f ms | %@ | %.1f (%@) | %.2f ms (%@) | %@ | %.2f ms (%@) | %.2f ms | %.2f ms (%@) | %@ | %.2f (%@) |",
                        r.size, r.memcpyMs, name, run.framesPerSecond,
                        floor.map { x(run.framesPerSecond, $0.framesPerSecond) } ?? "n/a", run.mainMedian,
                        x(run.mainMedian, r.memcpyMs), floor.map { x(run.mainMedian, $0.mainMedian) } ?? "n/a",
                        run.mainP99, x(run.mainP99, r.memcpyMs), run.processMedian,
                        run.processP99, x(run.processP99, r.memcpyMs),
                        gtkRatio,
                        run.westonPerFrame, westonRatio))
            }
        }
    }
}
