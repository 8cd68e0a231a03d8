import Foundation
import Glibc
import ScrollwayTestSupport
import ScrollwayWestonHarness
import Testing

/// Commands under a limit on processes (`ulimit -u`; a cgroup's `pids.max`, a systemd unit's
/// `TasksMax`, count the same threads): each runs, or exits 1 naming the limit; never a hang or
/// a signal. Every command had hung before its first line under a small limit, inside
/// libdispatch's start, and a compositor that could not be started was "The operation could
/// not be completed. (NSCocoaErrorDomain error 256.)" (docs/decisions.md, Hostile input 0.15.36).
///
/// The limit counts every process and thread of a user, so each run is a user of its own that
/// has no process at all (root can take any id; the limit does not hold root itself), with a
/// copy of the build that user can read; whatever of that user is left after the run is killed.
@Suite(
    .serialized,
    .enabled(
        if: ProcessLimitRig.refusal == nil,
        "needs root, and a copy of the build another user can run (ProcessLimitRig.refusal says what is missing)"))
struct ProcessLimitTests {
    typealias Rig = ProcessLimitRig

    /// Runs `scrollway args…` as a user with no other process, allowed `processes` processes and
    /// threads, under a time limit that turns a hang into status 124 (or 137, killed).
    func run(_ args: [String], processes: Int) async throws -> (status: Int32, out: String, err: String) {
        let exe = Rig.build.appendingPathComponent("scrollway")
        // The module is found beside the copy, and the user's home is the folder it can write.
        var environment = ProcessInfo.processInfo.environment
        environment["SCROLLWAY_WESTON_MODULE"] = nil
        environment["HOME"] = Rig.build.path
        environment["SCROLLWAY_LOG"] = "warning"
        let uid = Rig.idleUser()
        defer { Rig.killEverything(of: uid) }
        let r = try await CommandRunner.run(
            executable: URL(fileURLWithPath: "/usr/bin/timeout"),
            [
                "-k", "5", "120", "setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "prlimit",
                "--nproc=\(processes)", "--", exe.path,
            ] + args,
            environment: environment, in: Rig.build)
        #expect(r.status != 124 && r.status != 137, "\(args) under \(processes) processes: a hang; \(r.err)")
        return (r.status, r.out, r.err)
    }

    /// Too few threads for libdispatch and a command: said before any other thread starts.
    @Test(arguments: [(["--version"], 4), (["scenes"], 8)])
    func tooFewThreadsAreNamedNotHungOn(args: [String], processes: Int) async throws {
        let r = try await run(args, processes: processes)
        #expect(r.status == 1, "\(r)")
        #expect(
            r.err
                == "scrollway: only \(processes - 1) of the 8 threads it needs beside its main one could start: "
                + "Resource temporarily unavailable (the limit on processes, ulimit -u, or the cgroup's pids.max, "
                + "is reached)\n")
        #expect(r.out.isEmpty)
    }

    /// Room for the command's threads but not for a compositor: its start names the limit. How
    /// many threads a command holds when it starts weston was measured on two cores (more
    /// cores, more of libdispatch's workers); elsewhere it may run.
    @Test func aCompositorThatCannotStartNamesTheLimit() async throws {
        let script = try CommandRunner.tapScript("process-limit-tap.jsonl")
        chmod(script.path, 0o644)
        let r = try await run(["scenes"], processes: 9)
        #expect(r.status == 0 && r.out.contains("zoom"), "\(r)")
        let w = try await run(["play", script.path, "--platform", "weston"], processes: 9)
        let measuredHere = ProcessInfo.processInfo.activeProcessorCount == 2
        #expect(w.status == 1 || (!measuredHere && w.status == 0), "\(w)")
        if w.status != 0 {
            let reason = "weston: Resource temporarily unavailable (the limit on processes, ulimit -u, or the cgroup's"
            #expect(w.err.contains(reason), "\(w.err)")
            #expect(!w.err.contains("NSCocoaErrorDomain"), "\(w.err)")
        }
    }

    /// Limits that leave a compositor room, or part of it: the zoom scene (which draws on
    /// worker threads) runs or names the limit, in weston and offscreen, and what it shows when
    /// it runs is what it shows with room to spare (at the smallest limits that run in weston,
    /// its tile worker is refused and the main thread draws the tiles).
    @Test func theZoomUnderSmallLimitsRunsOrNamesTheLimit() async throws {
        let script = try CommandRunner.tapScript("process-limit-zoom.jsonl", screenshot: "limited")
        chmod(script.path, 0o644)
        for platform in ["offscreen", "weston"] {
            var pictures: [Int: Data] = [:]
            for processes in [16, 9, 10, 11, 12] {
                let shots = Rig.build.appendingPathComponent("zoom-\(platform)-\(processes)")
                let r = try await run(
                    ["play", script.path, "--scene", "zoom", "--platform", platform, "--screenshots", shots.path],
                    processes: processes)
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

/// What `ProcessLimitTests` runs with: a copy of the build, and users with no process.
enum ProcessLimitRig {
    /// A folder anyone can read and write, holding the command and the weston module beside it
    /// (where the command looks for it).
    static let build = CommandRunner.temp("process-limit")

    /// Why these tests cannot run here, or nil: they need root, and a copy of the build another
    /// user can run (no folder above it closed to others).
    static let refusal: String? = {
        guard getuid() == 0 else { return "needs root, to run the commands as a user of their own" }
        let folder = build
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(CommandRunner.temporaryRoot.path, 0o755)
        chmod(folder.path, 0o777)
        guard let exe = try? CommandRunner.scrollway(), let module = try? WestonRig.modulePath() else {
            return "the command and the weston module are not built"
        }
        for source in [exe, URL(fileURLWithPath: module)] {
            let copy = folder.appendingPathComponent(source.lastPathComponent)
            try? FileManager.default.removeItem(at: copy)
            guard (try? FileManager.default.copyItem(at: source, to: copy)) != nil else {
                return "cannot copy \(source.path) to \(copy.path)"
            }
            chmod(copy.path, 0o755)
        }
        let copy = folder.appendingPathComponent("scrollway").path
        let uid = idleUser()
        let r = try? CommandRunner.run(
            executable: URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "test", "-x", copy])
        guard r?.status == 0 else { return "another user cannot run \(copy) here: \(r?.err ?? "no setpriv")" }
        return nil
    }()

    /// The user ids that have a process now.
    static func busyUsers() -> Set<uid_t> {
        var users: Set<uid_t> = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where pid_t(entry) != nil {
            guard let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Uid:") }),
                let real = line.split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().first,
                let uid = uid_t(real)
            else { continue }
            users.insert(uid)
        }
        return users
    }

    /// A user id above 54,320 with no process.
    static func idleUser() -> uid_t {
        let busy = busyUsers()
        return (54_321...).first { !busy.contains($0) }!
    }

    /// Kills every process user `uid` has left.
    static func killEverything(of uid: uid_t) {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry),
                let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8),
                status.contains("\nUid:\t\(uid)\t")
            else { continue }
            kill(pid, SIGKILL)
        }
    }
}
