import Foundation
import Glibc
import ScrollwayGeometry
import ScrollwayWaylandCore

/// Where a rig client's standard output and error go.
public enum RigClientOutput {
    /// Dropped.
    case null
    /// Both into this file.
    case file(URL)
    /// Both to this process's standard error: the client is heard, but never holds our
    /// standard output open (a caller reading it would wait for the client too).
    case standardError
    /// This process's own standard output and error.
    case inherit
}

/// The clients a rig has started, each with the rig's client environment, all ended when the
/// rig stops: what every compositor's process keeps.
package struct RigClients {
    private var processes: [Process] = []

    package init() {}

    /// Starts `executable` with `environment` (the rig's client environment) and `extra` over it.
    package mutating func launch(
        _ executable: String, arguments: [String], environment: [String: String], extra: [String: String],
        to destination: RigClientOutput
    ) throws -> Process {
        let p = try RigProcesses.launch(
            executable, arguments: arguments, environment: environment.merging(extra) { $1 }, to: destination)
        processes.append(p)
        return p
    }

    /// Ends every client still running, each with whatever it started in its group: a client
    /// that is a wrapper (`perf stat`, a shell) leaves its own child behind otherwise, holding
    /// the pipe Foundation waits on, and the rig waited for that child as long as it lived.
    package mutating func stopAll() {
        for c in processes where c.isRunning { RigProcesses.endGroup(c) }
        processes.removeAll()
    }
}

/// What every rig does with processes, written once for each compositor's: finding an
/// executable, starting a client with its output routed, ending a process (SIGTERM, SIGKILL a
/// second later), knowing when a socket accepts connections, and sweeping the runtime
/// directories of rigs whose creator died.
package enum RigProcesses {
    /// The first executable called `name` on $PATH.
    /// `executable` as a path to run: itself when it names a path (and is executable there),
    /// else the first match on $PATH; nil when there is none.
    package static func executablePath(_ executable: String) -> String? {
        guard executable.contains("/") else { return findExecutable(executable) }
        return FileManager.default.isExecutableFile(atPath: executable) ? executable : nil
    }

    /// Why `executablePath` found nothing, in the words every command uses.
    package static func noSuchProgram(_ executable: String) -> String {
        "'\(executable)': no such program " + (executable.contains("/") ? "(not there, or not executable)" : "on $PATH")
    }

    package static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Makes sure this process may open `needed` descriptors, raising its soft limit toward the
    /// hard one if it must, else says so. Foundation's `Process` and run loop need descriptors of
    /// their own (a wakeup socket pair, pipes) and trap instead of failing when they get none
    /// (the decision log has what a small limit did).
    package static func requireDescriptors(_ needed: Int = 256) throws {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(needed) else { return }
        if limit.rlim_max >= rlim_t(needed) {
            var raised = limit
            // As far as the hard limit lets, up to 4096: a compositor and its clients share it.
            raised.rlim_cur = min(limit.rlim_max, 4096)
            if setrlimit(resource, &raised) == 0 { return }
        }
        throw RigError.system(
            "the open-file limit is \(limit.rlim_cur) (ulimit -n): a compositor rig needs at least \(needed)")
    }

    /// Starts `executable` (a path, or a name on $PATH) with exactly `environment`, its output
    /// going to `destination`, and no signal blocked; one that cannot be started throws
    /// `ProcessStartFailure`, which names it with the system's reason.
    package static func launch(
        _ executable: String, arguments: [String], environment: [String: String], to destination: RigClientOutput
    ) throws -> Process {
        try requireDescriptors()
        guard let path = executablePath(executable) else {
            throw RigError.system(noSuchProgram(executable))
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        p.environment = environment
        p.standardInput = FileHandle.nullDevice
        switch destination {
        case .file(let output):
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let h = FileHandle(forWritingAtPath: output.path)
            p.standardOutput = h
            p.standardError = h
        case .null:
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
        case .standardError:
            p.standardOutput = FileHandle.standardError
            p.standardError = FileHandle.standardError
        case .inherit:
            break
        }
        try p.runWithSignalsUnblocked()
        return p
    }

    /// SIGTERM, then SIGKILL if it is still running a second later; returns once it has exited.
    package static func terminate(_ p: Process) {
        guard p.isRunning else { return }
        kill(p.processIdentifier, SIGTERM)
        let deadline = Deadline(in: 1)
        while p.isRunning && !deadline.hasPassed { usleep(2000) }
        if p.isRunning {
            kill(p.processIdentifier, SIGKILL)
        }
        p.waitUntilExit()
    }

    /// A shell loop that returns once this process has ended, a zombie not yet reaped included
    /// (`tail --pid` and `kill -0` count a zombie as alive, and a killed test process may stay
    /// one): what the rigs' watchers run before they end their compositor. It checks every
    /// quarter second.
    package static var untilThisProcessEnds: String {
        let pid = getpid()
        return """
            while state=$(sed 's/.*) //; s/ .*//' /proc/\(pid)/stat 2>/dev/null) && [ -n "$state" ] \
            && [ "$state" != Z ]; do sleep 0.25; done
            """
    }

    /// Ends a process started as the leader of its own group (as Foundation starts them) and
    /// every other member of the group: SIGTERM to the group, and once the leader has gone (a
    /// second at most) SIGKILL to whatever is left. Every member holds the pipe Foundation waits
    /// on before it says the leader has exited, so the whole group must go.
    package static func endGroup(_ p: Process) {
        let group = p.processIdentifier
        guard group > 0 else { return }
        kill(-group, SIGTERM)
        let deadline = Deadline(in: 1)
        while p.isRunning && !deadline.hasPassed { usleep(2000) }
        kill(-group, SIGKILL)
        p.waitUntilExit()
    }

    /// Whether a Unix socket at `path` accepts a connection now (the probe is closed at once).
    package static func acceptsConnections(_ path: String) -> Bool {
        let fd = WaylandDisplay.connect(toSocket: path)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    /// A new private runtime directory (0700) in the temporary directory, named
    /// `prefix<our pid>-<random>`, after sweeping those whose creator died.
    package static func makeRuntimeDirectory(prefix: String) throws -> URL {
        let base = FileManager.default.temporaryDirectory
        sweepStaleRuntimeDirectories(prefix: prefix, in: base)
        let dir = base.appendingPathComponent("\(prefix)\(getpid())-\(UUID().uuidString.prefix(8))")
        // mkdir(2), for the system's own reason (Foundation's says "error 512" for a TMPDIR that
        // is a file).
        guard mkdir(dir.path, 0o700) == 0 else {
            throw RigError.system(
                "cannot create the runtime directory \(dir.path): \(String(cString: strerror(errno)))")
        }
        chmod(dir.path, 0o700)  // whatever the umask
        return dir
    }

    /// Writes `text` to the new file `path` (a rig's configuration in its runtime folder), or
    /// throws the system's reason (Foundation's `write(to:)` says "NSCocoaErrorDomain Code=640"
    /// for a full disk).
    package static func writeFile(_ text: String, to path: String) throws {
        func failure(_ error: Int32) -> RigError {
            .system("cannot write \(path): \(String(cString: strerror(error)))")
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(errno) }
        var error: Int32 = 0
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                error = errno
                break
            }
            bytes = bytes.dropFirst(n)
        }
        if close(fd) != 0 && error == 0 { error = errno }
        if error != 0 { throw failure(error) }
    }

    /// How a process ended, for a message: "exited with status 1", "was killed by signal 9
    /// (Killed)" (a signal's number is not an exit status: "exited with status 9" misled).
    package static func describeEnd(_ p: Process) -> String {
        if p.terminationReason == .uncaughtSignal {
            let n = p.terminationStatus
            let name = strsignal(n).map { String(cString: $0) } ?? "signal \(n)"
            return "was killed by signal \(n) (\(name))"
        }
        return "exited with status \(p.terminationStatus)"
    }

    /// Removes the runtime directories this process's rigs made under `prefix` (`prefix<pid>-…`),
    /// for a process stopped by a signal, whose rigs' own `stop()` will not run: their
    /// compositors end with the process, which they watch. The thread that runs the rigs may go
    /// on meanwhile, and a compositor starting writes into its folder while it is removed
    /// (which then fails, "not empty"), or a rig makes a folder after the list was read: listed
    /// and removed again until none is left, for a second at most (a CI run found one left).
    package static func removeRuntimeDirectoriesOfThisProcess(prefix: String) {
        let base = FileManager.default.temporaryDirectory
        let mine = "\(prefix)\(getpid())-"
        for _ in 0..<100 {
            let left = ((try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []).filter {
                $0.hasPrefix(mine)
            }
            if left.isEmpty { break }
            for name in left { try? FileManager.default.removeItem(at: base.appendingPathComponent(name)) }
            usleep(10_000)
        }
    }

    /// Removes runtime directories named `prefix<pid>-…` whose creator no longer exists (killed
    /// by a signal: its compositor went with it, but nobody removed the directory).
    package static func sweepStaleRuntimeDirectories(prefix: String, in base: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let pid = Int32(rest.prefix { $0 != "-" }), pid > 0 else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH {
                try? FileManager.default.removeItem(at: base.appendingPathComponent(name))
            }
        }
    }
}
