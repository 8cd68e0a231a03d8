import Foundation
import Glibc
import ScrollwayDBus
import ScrollwayWaylandCore
import ScrollwayWestonHarness

/// A compositor started in a D-Bus session of its own (`dbus-run-session`), in a private runtime
/// directory, as a process group of its own: what mutter's and phoc's rigs share, and the AT-SPI
/// bus launcher's session (`AccessibilityBus`). Foundation
/// starts every process as the leader of a new group, so stopping the group ends the session
/// bus, the compositor and its session's programs together; a watcher in the group ends it when
/// this process dies.
public final class SessionCompositor {
    public let name: String
    public let runtimeDirectory: URL
    public let logPath: String
    public let socketPath: String
    private let process: Process
    private var clients = RigClients()

    /// Runs `command` (a shell command line without single quotes: the compositor and its
    /// options, given the runtime directory) in the session, with `environment` (given the directory too; PATH,
    /// XDG_RUNTIME_DIR and HOME are set), and waits until a socket whose name
    /// starts with `socketPrefix` in the runtime directory accepts connections. `prepare` writes
    /// the compositor's files into the directory first. `socketPrefix` may name a folder of the
    /// runtime directory first (`at-spi/bus`).
    package init(
        name: String, directoryPrefix: String, command: (URL) -> String,
        environment: (URL) -> [String: String] = { _ in [:] },
        socketPrefix: String, startupTimeout: Double, prepare: (URL) throws -> Void = { _ in }
    ) throws {
        self.name = name
        let dir = try RigProcesses.makeRuntimeDirectory(prefix: directoryPrefix)
        runtimeDirectory = dir
        logPath = dir.appendingPathComponent("\(name).log").path
        do {
            try prepare(dir)
        } catch {
            try? FileManager.default.removeItem(at: dir)
            throw RigError.system("cannot set up \(name) in \(dir.path): \(error)")
        }
        // The watcher ends the whole group when this process is gone; `stop()` ends it itself.
        // The session's bus address is written where the rig reads it (its D-Bus APIs) before
        // the compositor starts: once the socket answers, the address is there.
        let script = """
            ( \(RigProcesses.untilThisProcessEnds); kill -TERM 0 ) &
            exec dbus-run-session -- sh -c 'printf %s "$DBUS_SESSION_BUS_ADDRESS" > "$XDG_RUNTIME_DIR/bus-address"
            exec \(command(dir))'
            """
        var env = environment(dir)
        env["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        env["XDG_RUNTIME_DIR"] = dir.path
        env["HOME"] = dir.path
        do {
            process = try RigProcesses.launch(
                "sh", arguments: ["-c", script], environment: env, to: .file(URL(fileURLWithPath: logPath)))
        } catch {
            try? FileManager.default.removeItem(at: dir)
            throw RigError.system("cannot start \(name): \(error)")
        }
        let deadline = Deadline(in: startupTimeout)
        var found: String?
        let folder =
            socketPrefix.contains("/") ? dir.appendingPathComponent(String(socketPrefix.prefix { $0 != "/" })) : dir
        let prefix = socketPrefix.contains("/") ? String(socketPrefix.drop { $0 != "/" }.dropFirst()) : socketPrefix
        while found == nil {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            found = names.first { $0.hasPrefix(prefix) && !$0.hasSuffix(".lock") }
                .map { folder.appendingPathComponent($0).path }
                .flatMap { RigProcesses.acceptsConnections($0) ? $0 : nil }
            if found == nil, !process.isRunning || deadline.hasPassed {
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                RigProcesses.endGroup(process)
                try? FileManager.default.removeItem(at: dir)
                throw RigError.startupFailed(
                    reason: process.isRunning ? "\(name) made no socket within \(startupTimeout) s" : "\(name) exited",
                    log: log)
            }
            if found == nil { usleep(5000) }
        }
        socketPath = found!
    }

    deinit { stop() }

    /// The compositor's log so far (its session's programs' too).
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// The session bus's address (DBUS_SESSION_BUS_ADDRESS inside the session).
    public var busAddress: String {
        get throws {
            let path = runtimeDirectory.appendingPathComponent("bus-address").path
            guard let address = try? String(contentsOfFile: path, encoding: .utf8), !address.isEmpty else {
                throw RigError.system("\(name)'s session wrote no bus address to \(path)")
            }
            return address
        }
    }

    /// The environment a client needs to connect. XDG_RUNTIME_DIR too, though the socket's
    /// path is absolute: GTK4 opens no Wayland display without one.
    public var clientEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        env["WAYLAND_DISPLAY"] = socketPath
        env.removeValue(forKey: "DISPLAY")
        return env
    }

    /// Starts a client; it is killed on stop if still running.
    public func launchClient(
        _ executable: String, arguments: [String], environment: [String: String], to destination: RigClientOutput
    ) throws -> Process {
        try clients.launch(
            executable, arguments: arguments, environment: clientEnvironment, extra: environment, to: destination)
    }

    /// The clients, then the whole group, then the directory. Safe to call twice.
    public func stop() {
        clients.stopAll()
        RigProcesses.endGroup(process)
        try? FileManager.default.removeItem(at: runtimeDirectory)
    }
}

extension Compositor {
    /// The paths of `tools` (the compositor and what its session runs), or the error that names
    /// the first one missing and what installs it.
    func requireTools(_ tools: [String]) throws -> [String] {
        try tools.map { tool in
            guard let path = RigProcesses.findExecutable(tool) else {
                throw RigError.compositorNotFound(name: tool, install: installCommand)
            }
            return path
        }
    }
}

extension DBusConnection {
    /// Asks `condition` of the bus until it holds, for at most `timeout` seconds, and says
    /// whether it did: a compositor takes its D-Bus names, and loads what serves them, a moment
    /// after its Wayland socket opens.
    func poll(for timeout: Double, until condition: (DBusConnection) -> Bool) -> Bool {
        let deadline = Deadline(in: timeout)
        while !condition(self) {
            if deadline.hasPassed { return false }
            usleep(20_000)
        }
        return true
    }
}

/// A rig whose compositor runs in a `SessionCompositor` (mutter's, phoc's): what forwards to the
/// session, written once.
public protocol SessionRig: CompositorRig {
    var session: SessionCompositor { get }
}

extension SessionRig {
    public var socketPath: String { session.socketPath }
    public var clientEnvironment: [String: String] { session.clientEnvironment }
    public var runtimeDirectory: URL { session.runtimeDirectory }
    /// The compositor's log so far (its session's programs' too).
    public var log: String { session.log }

    @discardableResult
    public func launchClient(
        _ executable: String, arguments: [String], environment: [String: String], to destination: RigClientOutput
    ) throws -> Process {
        try session.launchClient(executable, arguments: arguments, environment: environment, to: destination)
    }

    public func stop() { session.stop() }
}
