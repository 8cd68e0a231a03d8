import Foundation
import Glibc
import ScrollwayTestSupport
import ScrollwayWestonHarness
import Testing

/// Commands under a limit on processes (`ulimit -u`; a cgroup's `pids.max`, a systemd unit's
/// `TasksMax`, count the same threads): each runs, or exits 1 naming the limit; never a hang or
/// a signal. Every command had hung before its first line under a limit of 4 or fewer, inside
/// libdispatch's start, and a compositor that could not be started was "The operation could
/// not be completed. (NSCocoaErrorDomain error 256.)".
///
/// The limit counts every process and thread of a user, so each run is a user of its own that
/// runs nothing else (root can take any id; the limit does not hold root itself), with a copy
/// of the build that user can read.
@Suite(.serialized, .enabled(if: getuid() == 0, "needs root, to run the commands as a user of their own"))
struct ProcessLimitTests {
    /// A folder anyone can read and write, holding the command and the weston module beside it
    /// (where the command looks for it).
    static let build: URL = {
        let folder = CommandRunner.temp("process-limit")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(CommandRunner.temporaryRoot.path, 0o755)
        chmod(folder.path, 0o777)
        if let exe = try? CommandRunner.scrollway(), let module = try? WestonRig.modulePath() {
            for source in [exe, URL(fileURLWithPath: module)] {
                let copy = folder.appendingPathComponent(source.lastPathComponent)
                try? FileManager.default.removeItem(at: copy)
                try? FileManager.default.copyItem(at: source, to: copy)
                chmod(copy.path, 0o755)
            }
        }
        return folder
    }()

    /// Runs `scrollway args…` as user `uid`, allowed `processes` processes and threads, under a
    /// time limit that turns a hang into status 124.
    func run(_ args: [String], processes: Int, uid: Int) throws -> (status: Int32, out: String, err: String) {
        let exe = Self.build.appendingPathComponent("scrollway")
        try #require(FileManager.default.isExecutableFile(atPath: exe.path), "no copy of the build at \(exe.path)")
        // The module is found beside the copy, and the user's home is the folder it can write.
        var environment = ProcessInfo.processInfo.environment
        environment["SCROLLWAY_WESTON_MODULE"] = nil
        environment["HOME"] = Self.build.path
        environment["SCROLLWAY_LOG"] = "warning"
        let r = try CommandRunner.run(
            executable: URL(fileURLWithPath: "/usr/bin/timeout"),
            [
                "-k", "5", "120", "setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "prlimit",
                "--nproc=\(processes)", "--", exe.path,
            ] + args,
            environment: environment, in: Self.build)
        #expect(r.status != 124, "\(args) under \(processes) processes: still running after 120 s; \(r.err)")
        return (r.status, r.out, r.err)
    }

    /// Too few threads for libdispatch and a command: said before any other thread starts.
    @Test(arguments: [(["--version"], 4, 54_321), (["scenes"], 8, 54_322)])
    func tooFewThreadsAreNamedNotHungOn(args: [String], processes: Int, uid: Int) throws {
        let r = try run(args, processes: processes, uid: uid)
        #expect(r.status == 1, "\(r)")
        #expect(
            r.err
                == "scrollway: only \(processes - 1) of 8 threads could start (the limit on processes, ulimit -u, "
                + "or the cgroup's pids.max): Scrollway needs at least 8\n")
        #expect(r.out.isEmpty)
    }

    /// Room for the command's threads but not for a compositor: its start names the limit.
    @Test func aCompositorThatCannotStartNamesTheLimit() throws {
        let script = try CommandRunner.tapScript("process-limit-tap.jsonl")
        chmod(script.path, 0o644)
        let r = try run(["scenes"], processes: 9, uid: 54_323)
        #expect(r.status == 0 && r.out.contains("zoom"), "\(r)")
        let w = try run(["play", script.path, "--platform", "weston"], processes: 9, uid: 54_324)
        #expect(w.status == 1, "\(w)")
        let reason = "weston: Resource temporarily unavailable (the limit on processes is reached"
        #expect(w.err.contains(reason), "\(w.err)")
        #expect(!w.err.contains("NSCocoaErrorDomain"), "\(w.err)")
    }

    /// Limits that leave a compositor room, or part of it: the zoom scene (which draws on
    /// worker threads) runs or names the limit, in weston and offscreen, and what it shows when
    /// it runs is what it shows with room to spare (under 10 in weston, its tile worker is
    /// refused and the main thread draws the tiles).
    @Test func theZoomUnderSmallLimitsRunsOrNamesTheLimit() throws {
        let script = try CommandRunner.tapScript("process-limit-zoom.jsonl", screenshot: "limited")
        chmod(script.path, 0o644)
        for platform in ["offscreen", "weston"] {
            var pictures: [Int: Data] = [:]
            for (i, processes) in [16, 9, 10, 11, 12].enumerated() {
                let shots = Self.build.appendingPathComponent("zoom-\(platform)-\(processes)")
                let r = try run(
                    ["play", script.path, "--scene", "zoom", "--platform", platform, "--screenshots", shots.path],
                    processes: processes, uid: 54_330 + i)
                let named = r.err.contains("limit on processes")
                #expect(r.status == 0 || (r.status == 1 && named), "\(platform) under \(processes): \(r)")
                if r.status == 0 {
                    pictures[processes] = FileManager.default.contents(
                        atPath: shots.appendingPathComponent("limited.png").path)
                }
            }
            let roomy = try #require(pictures[16], "\(platform): no picture with room to spare")
            for (processes, picture) in pictures {
                #expect(picture == roomy, "\(platform) under \(processes): another picture than under 16")
            }
        }
    }
}
