import Foundation
import Glibc
import ScrollwayGeometry
import ScrollwayScripts
import ScrollwayWaylandCore
import ScrollwayWestonHarness

/// `scrollway bench --soak`: does memory stay flat over a long run? The same flinging script
/// played for one minute and for `minutes` minutes, offscreen in the list and the feed scenes
/// (each run's peak resident memory, from the kernel's own count at exit) and in headless weston
/// in the list in real time (resident memory sampled every few seconds), with no trace asked
/// for. Printed as figures and ratios; the goals are each long offscreen run within 1.25× its
/// short one's peak and a weston run flat after its first minute.
public struct SoakBench {
    public let minutes: Int
    public let executable: String
    /// Where the report's lines go (standard output by default).
    public var output: (String) -> Void = { print($0) }

    public init(minutes: Int, executable: String) {
        self.minutes = minutes
        self.executable = executable
    }

    /// A script of flings every 1.5 s, alternately up and down, a wheel burst and Page Down now
    /// and then: what a person does with a list for `minutes` minutes.
    static func script(minutes: Int) -> GestureScript {
        var b = ScriptBuilder()
        var t = 500.0
        var k = 0
        let end = Double(minutes) * 60_000
        while t < end {
            let up = k % 2 == 0
            b.drag(
                from: Point(x: 195, y: up ? 700 : 250), to: Point(x: 195, y: up ? 250 : 700), at: t, ms: 64, hold: 6)
            if k % 7 == 3 { b.wheel(clicks: 5, over: Point(x: 195, y: 400), at: t + 800) }
            if k % 11 == 5 { b.key("Page_Down", at: t + 1100, hold: 50) }
            t += 1500
            k += 1
        }
        return b.script
    }

    /// The scenes played offscreen: the list (rows placed by hand) and the feed (cards laid out
    /// by constraints). The weston run plays the list.
    static let offscreenScenes = ["list", "feed"]

    public func run() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scrollway-soak-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func write(_ minutes: Int) throws -> String {
            let path = dir.appendingPathComponent("flings-\(minutes)min.jsonl").path
            try ScriptWriter.text(Self.script(minutes: minutes)).write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let short = try write(1)
        let long = try write(minutes)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: long)[.size] as? Int) ?? 0
        progress("soak: scripts of 1 and \(minutes) minutes of flings (the long one \(bytes / 1024) KiB)")

        // Offscreen, the list and the feed, whose recycled cards keep their constraints in the
        // window's solver (what a leak there would grow with).
        var offscreen: [(scene: String, short: Double, long: Double)] = []
        for scene in Self.offscreenScenes {
            let a = try peak(["play", short, "--scene", scene])
            progress("soak: offscreen \(scene), 1 minute: " + String(format: "peak %.1f MiB, %.1f s CPU", a.mib, a.cpu))
            let b = try peak(["play", long, "--scene", scene])
            progress(
                "soak: offscreen \(scene), \(minutes) minutes: "
                    + String(format: "peak %.1f MiB, %.1f s CPU", b.mib, b.cpu))
            offscreen.append((scene, a.mib, b.mib))
        }

        progress("soak: headless weston, \(minutes) minutes in real time…")
        let samples = try sampled(["play", long, "--scene", "list", "--platform", "weston"], every: 5)
        let first = samples.first { $0.t >= 60 } ?? samples.last ?? (t: 0, mib: 0)
        let last = samples.last ?? first
        let growth = last.t > first.t ? (last.mib - first.mib) * 1024 / (last.t - first.t) : 0

        output("scrollway bench --soak: resident memory over a long run (no trace asked for)")
        output("")
        output("| run | figure | value | goal |")
        output("|---|---|---|---|")
        for run in offscreen {
            output("| offscreen \(run.scene), 1 min | peak | " + String(format: "%.1f MiB | |", run.short))
            output(
                "| offscreen \(run.scene), \(minutes) min | peak | "
                    + String(format: "%.1f MiB (%.2f× the 1-min run) | ≤ 1.25× |", run.long, run.long / run.short))
        }
        output(String(format: "| weston, %d min | resident at 1 min | %.1f MiB | |", minutes, first.mib))
        output(
            String(
                format:
                    "| weston, %d min | resident at %.0f s | %.1f MiB (%+.2f KiB/s after the first minute) | flat |",
                minutes, last.t, last.mib, growth))
    }

    /// Runs `scrollway ARGS` to the end and returns its peak resident memory (the kernel's
    /// ru_maxrss) and CPU time.
    private func peak(_ args: [String]) throws -> (mib: Double, cpu: Double) {
        let pid = try spawn(args)
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &status, 0, &usage) == pid else { throw BenchError("bench --soak: wait4 failed") }
        guard status == 0 else {
            throw BenchError("bench --soak: scrollway \(args.joined(separator: " ")) failed (\(status))")
        }
        let cpu =
            Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        return (Double(usage.ru_maxrss) / 1024, cpu)
    }

    /// Runs `scrollway ARGS`, sampling its resident memory every `every` seconds until it ends.
    private func sampled(_ args: [String], every: Double) throws -> [(t: Double, mib: Double)] {
        let pid = try spawn(args)
        let start = Deadline.now
        var samples: [(t: Double, mib: Double)] = []
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if let kib = Self.residentKiB(pid) {
                let t = Deadline.now - start
                samples.append((t, Double(kib) / 1024))
                if samples.count % 12 == 0 {
                    progress(String(format: "soak: weston run at %.0f s: %.1f MiB", t, samples.last!.mib))
                }
            }
            RealTimePacer.sleep(every)
        }
        guard status == 0 else {
            throw BenchError("bench --soak: scrollway \(args.joined(separator: " ")) failed (\(status))")
        }
        return samples
    }

    private func spawn(_ args: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // No signal blocked in the child (this thread's mask may block them all: a
        // concurrency-pool thread's does), so the SIGTERM that ends a run is heard.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let argv = ([executable] + args).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard rc == 0 else {
            throw BenchError("bench --soak: cannot start \(executable): \(String(cString: strerror(rc)))")
        }
        return pid
    }

    static func residentKiB(_ pid: pid_t) -> Int? {
        guard let status = ProcFile.text("/proc/\(pid)/status"),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    private func progress(_ line: String) { StandardStream.error.say(line + "\n") }
}
