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
        let r = try await CommandRunner.offThePool {
            let uid = Rig.idleUser()
            defer { Rig.killEverything(of: uid) }
            let p = Rig.command(args, uid: uid, processes: processes)
            let out = Pipe()
            let errors = Pipe()
            p.standardOutput = out
            p.standardError = errors
            try p.runWithSignalsUnblocked()
            let errorReader = PipeReader(errors.fileHandleForReading)
            let o = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            let e = errorReader.wait()
            // The time limit's KILL goes to `timeout`'s whole group, `timeout` too.
            let killed = p.terminationReason == .uncaughtSignal || p.terminationStatus == 124
            return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self), killed)
        }
        #expect(!r.3, "\(args) under \(processes) processes: a hang; \(r.2)")
        return (r.0, r.1, r.2)
    }

    /// Too few threads for libdispatch and a command: said before any other thread starts.
    @Test(arguments: [(["--version"], 4), (["scenes"], 8)])
    func tooFewThreadsAreNamedNotHungOn(args: [String], processes: Int) async throws {
        let r = try await run(args, processes: processes)
        #expect(r.status == 1, "\(r)")
        #expect(
            r.err
                == "scrollway: only \(processes - 1) of the 8 threads it needs beside its main one could start: "
                + "\(Rig.limitReached)\n")
        #expect(r.out.isEmpty)
    }

    /// A limit on processes reached during a run, by other processes of the user (a desktop
    /// session's are all counted): the command, past its first check, is held where it waits on
    /// the test until its idle threads have gone, the user is taken past its limit, and the
    /// command is let go. A play in weston then stops where it registers its stop-signal
    /// handling (whose wait for a thread of libdispatch's was a hang), before the compositor
    /// starts; its trace is given nothing, and it exits (the return from the command to
    /// ArgumentParser's `main`, off the main actor, had waited for a thread too).
    @Test func aLimitReachedBeforeStopSignalsAreHandledIsNamed() async throws {
        let script = try CommandRunner.tapScript("process-limit-tap.jsonl")
        chmod(script.path, 0o644)
        let trace = Rig.build.appendingPathComponent("held-trace")
        unlink(trace.path)
        try #require(mkfifo(trace.path, 0o666) == 0 && chmod(trace.path, 0o666) == 0)
        let args = ["play", script.path, "--platform", "weston", "--trace", trace.path]
        let r = try await CommandRunner.offThePool {
            // Opening the trace for writing waits for its reader (the test, once the user is full),
            // which opens it without waiting for a writer: one that went away gives an end.
            try Rig.runHeld(args, at: ["wait_for_partner", "fifo_open"]) { _ in
                let fd = open(trace.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
                guard fd >= 0, fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0 else {
                    throw RigError.system("cannot open \(trace.path): \(String(cString: strerror(errno)))")
                }
                return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            }
        }
        #expect(r.status == 1, "\(r)")
        #expect(r.err == "Error: cannot start a thread to handle SIGINT and SIGTERM: \(Rig.limitReached)\n")
        #expect(r.released == Data())
        #expect(r.left.isEmpty, "left running: \(r.left)")
    }

    /// The same for a play whose run made files: held saying the script's warning (a finger
    /// left down) into a standard error the test filled, after its partial trace and its
    /// screenshot folders were made. Refused the signals' thread, it takes them away as a
    /// failed run does.
    @Test func aRefusedSignalThreadLeavesNoPartialTraceNorFolders() async throws {
        let script = Rig.build.appendingPathComponent("held-down.jsonl")
        let events = [
            #"{"t": 0, "type": "touch.down", "id": 0, "x": 100, "y": 100}"#, #"{"t": 0, "type": "touch.frame"}"#,
            #"{"t": 60, "type": "screenshot", "name": "x"}"#,
        ]
        try (events.joined(separator: "\n") + "\n").write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o644)
        let trace = Rig.build.appendingPathComponent("held-partial.jsonl")
        let shots = Rig.build.appendingPathComponent("held-shots")
        try? FileManager.default.removeItem(at: shots)
        unlink(trace.path)
        let args = [
            "play", script.path, "--trace", trace.path, "--screenshots", shots.appendingPathComponent("in").path,
        ]
        let r = try await CommandRunner.offThePool {
            try Rig.runHeld(args, at: Rig.pipeWrites, filling: .errors) { $0.errors.fileHandleForReading }
        }
        #expect(r.status == 1, "\(r)")
        let lines = String(decoding: r.released, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines.first?.contains("still down") == true, "\(lines)")
        #expect(lines.last == "Error: cannot start a thread to handle SIGINT and SIGTERM: \(Rig.limitReached)")
        let leftFiles = try FileManager.default.contentsOfDirectory(atPath: Rig.build.path).filter {
            $0.hasPrefix("held-partial") || $0.hasPrefix(".held-partial") || $0 == "held-shots"
        }
        #expect(leftFiles.isEmpty, "left behind: \(leftFiles)")
        #expect(r.left.isEmpty, "left running: \(r.left)")
    }

    /// The same, with a rig held once weston runs (its output is a pipe the test filled, so
    /// printing the socket waits): its client cannot be started, which is said, and weston and
    /// the rig's folder go.
    @Test func aLimitReachedBeforeTheClientStartsIsNamed() async throws {
        let args = ["rig", "--settle", "0", "--map-timeout", "0", "--", "/bin/true"]
        let r = try await CommandRunner.offThePool {
            try Rig.runHeld(args, at: Rig.pipeWrites, filling: .output) { $0.output.fileHandleForReading }
        }
        #expect(r.status == 1, "\(r)")
        #expect(r.err == "Error: cannot start /bin/true: \(Rig.limitReached)\n")
        let lines = String(decoding: r.released, as: UTF8.self).split(separator: "\n").map(String.init)
        let folder = lines.last?.split(separator: "=", maxSplits: 1).last.map(String.init) ?? ""
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasPrefix("WAYLAND_DISPLAY=\(folder)/") == true, "\(lines)")
        #expect(lines.last == "XDG_RUNTIME_DIR=\(folder)" && !folder.isEmpty, "\(lines)")
        #expect(!FileManager.default.fileExists(atPath: folder), "the rig's folder \(folder) is left")
        #expect(r.left.isEmpty, "left running: \(r.left)")
    }

    /// The same, with the latency bench held once its stop signals are handled (its standard
    /// error is a pipe the test filled, and run away from the checkout it says first that it
    /// has no GTK4 peer): the first child it starts, weston, cannot be, which is said.
    /// Foundation's `Process` had waited for ever for the manager thread it starts on a first
    /// run and the system refused.
    @Test func aLimitReachedBeforeTheFirstChildStartsIsNamed() async throws {
        let r = try await CommandRunner.offThePool {
            try Rig.runHeld(["bench", "--latency"], at: Rig.pipeWrites, filling: .errors) {
                $0.errors.fileHandleForReading
            }
        }
        #expect(r.status == 1, "\(r)")
        let lines = String(decoding: r.released, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines.first?.hasPrefix("bench: the GTK4 peer's script") == true, "\(lines)")
        let refusal = lines.last ?? ""
        #expect(refusal.hasPrefix("Error: cannot start /"), "\(refusal)")
        #expect(refusal.hasSuffix("/weston: \(Rig.limitReached)"), "\(refusal)")
        #expect(r.left.isEmpty, "left running: \(r.left)")
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

    /// The system's words for a limit on processes reached, as commands give them.
    static let limitReached =
        "Resource temporarily unavailable (the limit on processes, ulimit -u, or the cgroup's pids.max, is reached)"

    /// The environment commands run with: the module found beside the copy, and the user's home
    /// the folder it can write.
    static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SCROLLWAY_WESTON_MODULE"] = nil
        environment["HOME"] = build.path
        environment["SCROLLWAY_LOG"] = "warning"
        return environment
    }

    /// `scrollway args…` as user `uid` allowed `processes` processes and threads, under a time
    /// limit that turns a hang into status 124 (or 137, killed); its output is left to set.
    static func command(_ args: [String], uid: uid_t, processes: Int) -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        p.arguments =
            [
                "-k", "5", "120", "setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "prlimit",
                "--nproc=\(processes)", "--", build.appendingPathComponent("scrollway").path,
            ] + args
        p.environment = environment
        p.currentDirectoryURL = build
        p.standardInput = FileHandle.nullDevice
        return p
    }

    /// The kernel's functions a write to a full pipe waits in (`/proc/PID/task/TID/wchan`;
    /// kernels name them differently: before 5.6 the wait was `pipe_wait`).
    static let pipeWrites = ["pipe_write", "anon_pipe_write", "pipe_wait"]

    /// A command's standard output and error.
    struct Pipes {
        let output = Pipe()
        let errors = Pipe()
    }

    /// What `runHeld` saw: the command's status, its standard error (when not the pipe read at
    /// the release), what was read at the release, and what of the user (besides the sleepers)
    /// still ran once it ended.
    struct Held {
        var status: Int32
        var err: String
        var released: Data
        var left: [String]
    }

    /// Which of a command's pipes `runHeld` fills before the command starts, so that its first
    /// write there waits.
    enum Filling { case output, errors }

    /// Runs `scrollway args…` as a user with no other process, allowed 16 processes; once it
    /// waits in the kernel in one of `wait`, starts 16 sleeping processes of that user (with
    /// no limit of their own: the user is then past the command's), lets it go by opening what
    /// it waits on (`release`, read to its end; past what was filled), and waits for it.
    static func runHeld(
        _ args: [String], at wait: [String], filling: Filling? = nil, release: (Pipes) throws -> FileHandle
    ) throws -> Held {
        let limit = 16
        let uid = idleUser()
        defer { killEverything(of: uid) }
        let pipes = Pipes()
        let filled = try filling.map { try fill($0 == .output ? pipes.output : pipes.errors) } ?? 0
        let p = command(args, uid: uid, processes: limit)
        p.standardOutput = pipes.output
        p.standardError = pipes.errors
        try p.runWithSignalsUnblocked()
        let errorReader = filling == .errors ? nil : PipeReader(pipes.errors.fileHandleForReading)
        let outputReader = filling == .output ? nil : PipeReader(pipes.output.fileHandleForReading)
        var held: pid_t?
        try eventually("scrollway \(args.first ?? "") to wait in \(wait.joined(separator: " or "))", timeout: 60) {
            held = processes(of: uid).first { $0.name == "scrollway" && waits($0.pid, at: wait) }?.pid
            return !p.isRunning || held != nil
        }
        // The worst case: libdispatch lets an idle thread go after a few seconds, and with none
        // left any work sent to a pool needs a new one. A thread running just then shows no
        // wait ("0"): not yet idle either.
        if let held {
            try eventually("scrollway \(args.first ?? "")'s idle threads to end", timeout: 60) {
                !p.isRunning || !threadWaits(of: held).contains { $0.contains("futex") || $0 == "0" }
            }
        }
        guard p.isRunning else {
            // Ended before it was let go: nothing to release (nothing may ever write to what
            // `release` opens); what it said is read from the pipe it said it in.
            p.waitUntilExit()
            let late = filling.map {
                PipeReader($0 == .output ? pipes.output.fileHandleForReading : pipes.errors.fileHandleForReading)
            }
            let said = late?.wait().dropFirst(filled) ?? Data()
            let err = String(decoding: errorReader?.wait() ?? said, as: UTF8.self)
            return Held(status: p.terminationStatus, err: err, released: said, left: [])
        }
        for _ in 0..<limit {
            let sleeper = Process()
            sleeper.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            sleeper.arguments = ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "sleep", "600"]
            sleeper.standardInput = FileHandle.nullDevice
            sleeper.standardOutput = FileHandle.nullDevice
            sleeper.standardError = FileHandle.nullDevice
            try sleeper.runWithSignalsUnblocked()
        }
        try eventually("\(limit) sleepers of user \(uid)", timeout: 60) {
            processes(of: uid).filter { $0.name == "sleep" }.count == limit
        }
        let releasedReader = PipeReader(try release(pipes))
        p.waitUntilExit()
        _ = outputReader?.wait()
        return Held(
            status: p.terminationStatus, err: String(decoding: errorReader?.wait() ?? Data(), as: UTF8.self),
            released: releasedReader.wait().dropFirst(filled),
            left: processes(of: uid).filter { $0.name != "sleep" }.map(\.name))
    }

    /// Fills `pipe` until a write would wait; returns how many bytes it holds. Its writing end
    /// is left blocking, as a command's output is.
    static func fill(_ pipe: Pipe) throws -> Int {
        let fd = pipe.fileHandleForWriting.fileDescriptor
        let flags = fcntl(fd, F_GETFL)
        guard fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { throw RigError.system("cannot fill a pipe") }
        let chunk = [UInt8](repeating: 0x2E, count: 4096)
        var filled = 0
        while true {
            let n = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            filled += n
        }
        guard errno == EAGAIN, filled > 0, fcntl(fd, F_SETFL, flags) == 0 else {
            throw RigError.system("cannot fill a pipe: \(String(cString: strerror(errno)))")
        }
        return filled
    }

    /// Every process now: its id, its real user id and its name.
    static func allProcesses() -> [(pid: pid_t, uid: uid_t, name: String)] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard let pid = pid_t(entry),
                let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Uid:") }),
                let real = line.split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().first,
                let uid = uid_t(real),
                let name = try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8)
            else { return nil }
            return (pid, uid, name.trimmingCharacters(in: .newlines))
        }
    }

    /// The processes of user `uid` now: their ids and names.
    static func processes(of uid: uid_t) -> [(pid: pid_t, name: String)] {
        allProcesses().filter { $0.uid == uid }.map { ($0.pid, $0.name) }
    }

    /// Whether a thread of process `pid` waits in the kernel in one of `functions`.
    static func waits(_ pid: pid_t, at functions: [String]) -> Bool {
        threadWaits(of: pid).contains(where: functions.contains)
    }

    /// Where in the kernel each thread of process `pid` waits (its `wchan`).
    static func threadWaits(of pid: pid_t) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/wchan", encoding: .utf8) }
    }

    /// The user ids that have a process now.
    static func busyUsers() -> Set<uid_t> { Set(allProcesses().map(\.uid)) }

    /// A user id above 54,320 with no process.
    static func idleUser() -> uid_t {
        let busy = busyUsers()
        return (54_321...).first { !busy.contains($0) }!
    }

    /// Kills every process user `uid` has left.
    static func killEverything(of uid: uid_t) {
        for process in processes(of: uid) { kill(process.pid, SIGKILL) }
    }
}
