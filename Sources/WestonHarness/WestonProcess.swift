import Foundation
import ScrollwayCWaylandClient
import ScrollwayWaylandCore

/// A headless weston in a private runtime directory, killed by PID on every path: `stop()`,
/// deinit, and (through the module's parent watch) when this process dies.
///
/// The command line is fixed by DESIGN.md: headless backend, kiosk shell (it configures the
/// exact output size), pixman, no idle timeout, and an ini with `[core] repaint-window=17`.
/// weston aborts on options it does not know, so the module is configured by environment.
public final class WestonProcess {
    public struct Options: Sendable {
        public var width: Int
        public var height: Int
        public var scale: Int
        /// Absolute path of the module .so to load (nil: no module, a bare compositor).
        public var modulePath: String?
        /// How long to wait for the socket.
        public var startupTimeout: Double
        /// The process whose death makes weston exit (the module watches it): this one by default.
        public var parentPID: Int32?
        /// A line weston's log must show before the compositor counts as ready. weston creates
        /// its socket before it loads modules, so a module's own "ready" line is the real signal.
        public var readyMarker: String?
        /// The seat's keymap, as weston.ini's `[keyboard]` section (written only when it is not
        /// weston's default us map): dead keys and the Compose key are tested with us intl.
        public var keymap: KeymapNames

        public init(
            width: Int = 800, height: Int = 600, scale: Int = 1, modulePath: String? = nil, startupTimeout: Double = 5,
            parentPID: Int32? = nil, keymap: KeymapNames = .us
        ) {
            self.width = width
            self.height = height
            self.scale = scale
            self.modulePath = modulePath
            self.startupTimeout = startupTimeout
            self.parentPID = parentPID
            self.readyMarker = modulePath == nil ? nil : WestonProcess.moduleReadyMarker
            self.keymap = keymap
        }
    }

    /// The line WestonTestInput logs once its global is up.
    public static let moduleReadyMarker = "scrollway_test_input_v1 ready"

    public let options: Options
    /// The private runtime directory (0700), removed on stop.
    public let runtimeDirectory: URL
    /// The socket's name inside the runtime directory.
    public let socketName: String
    /// The socket's absolute path: usable directly as WAYLAND_DISPLAY.
    public var socketPath: String { runtimeDirectory.appendingPathComponent(socketName).path }
    public let logPath: String
    private let process = Process()
    private var clients = RigClients()
    public private(set) var isRunning = false

    public init(_ options: Options) throws {
        self.options = options
        guard let weston = RigProcesses.findExecutable("weston") else { throw RigError.westonNotFound }
        try RigProcesses.requireDescriptors()
        let dir = try RigProcesses.makeRuntimeDirectory(prefix: WestonProcess.directoryPrefix)
        runtimeDirectory = dir
        socketName = "scrollway-\(UUID().uuidString.prefix(8))"
        logPath = dir.appendingPathComponent("weston.log").path
        let ini = dir.appendingPathComponent("weston.ini")
        var config = "[core]\nrepaint-window=17\n"
        if options.scale != 1 { config += "\n[output]\nname=headless\nscale=\(options.scale)\n" }
        if options.keymap != .us {
            let k = options.keymap
            config +=
                "\n[keyboard]\nkeymap_layout=\(k.layout)\nkeymap_variant=\(k.variant)\nkeymap_options=\(k.options)\n"
        }
        try RigProcesses.writeFile(config, to: ini.path)

        var args = [
            "--backend=headless-backend.so", "--shell=kiosk-shell.so", "--use-pixman", "--idle-time=0",
            "--width=\(options.width)", "--height=\(options.height)", "--socket=\(socketName)", "--config=\(ini.path)",
        ]
        if let module = options.modulePath { args.append("--modules=\(module)") }
        if options.scale != 1 { args.append("--scale=\(options.scale)") }
        process.executableURL = URL(fileURLWithPath: weston)
        process.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = dir.path
        env["SCROLLWAY_RIG_PARENT_PID"] = String(options.parentPID ?? getpid())
        for key in ["WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY", "WESTON_CONFIG_FILE"] {
            env.removeValue(forKey: key)
        }
        process.environment = env
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        guard let log = FileHandle(forWritingAtPath: logPath) else {
            throw RigError.system("cannot write the weston log at \(logPath)")
        }
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        do {
            try process.runWithSignalsUnblocked()
        } catch {
            try? FileManager.default.removeItem(at: dir)
            throw error
        }
        isRunning = true
        let deadline = Deadline(in: options.startupTimeout)
        // The socket file appears at bind(), a moment before listen(): a client that connects
        // in between is refused, so readiness is a connection that succeeds.
        while !RigProcesses.acceptsConnections(socketPath)
            || (options.readyMarker.map { !self.log.contains($0) } ?? false)
        {
            if !process.isRunning {
                let text = self.log
                stop()
                throw RigError.startupFailed(
                    reason: "weston \(RigProcesses.describeEnd(process))", log: text)
            }
            if deadline.hasPassed {
                let text = self.log
                stop()
                let what = FileManager.default.fileExists(atPath: socketPath) ? "module not ready" : "no socket"
                throw RigError.startupFailed(reason: "\(what) after \(options.startupTimeout) s", log: text)
            }
            usleep(2000)
        }
    }

    deinit { stop() }

    /// weston's output so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// weston's PID.
    public var pid: Int32 { process.processIdentifier }

    /// Whether weston is still alive (it may have exited on its own).
    public var isAlive: Bool { process.isRunning }

    /// The environment a client needs to connect to this compositor.
    public var clientEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        env["WAYLAND_DISPLAY"] = socketName
        env.removeValue(forKey: "DISPLAY")
        return env
    }

    /// Where a client's standard output and error go.
    public typealias ClientOutput = RigClientOutput

    /// Starts a client of this compositor; it is killed on stop if still running.
    @discardableResult
    public func launchClient(
        _ executable: String, arguments: [String] = [], environment extra: [String: String] = [:],
        output: URL? = nil, inheritOutput: Bool = false
    ) throws -> Process {
        try launchClient(
            executable, arguments: arguments, environment: extra,
            to: output.map { .file($0) } ?? (inheritOutput ? .inherit : .null))
    }

    /// Starts a client of this compositor with its output going to `destination`.
    @discardableResult
    public func launchClient(
        _ executable: String, arguments: [String] = [], environment extra: [String: String] = [:],
        to destination: ClientOutput
    ) throws -> Process {
        try clients.launch(
            executable, arguments: arguments, environment: clientEnvironment, extra: extra, to: destination)
    }

    /// Kills the clients, then weston (SIGTERM, SIGKILL after a second), and removes the
    /// runtime directory. Safe to call more than once.
    public func stop() {
        clients.stopAll()
        if isRunning {
            RigProcesses.terminate(process)
            isRunning = false
        }
        try? FileManager.default.removeItem(at: runtimeDirectory)
    }

    package static let directoryPrefix = "scrollway-rig-"

    /// weston's process id (a test kills it to take the compositor away from its clients).
    package var processIdentifier: Int32 { process.processIdentifier }

    /// Removes the runtime folders of this process's weston rigs, for a command stopped by a
    /// signal (`RigProcesses.removeRuntimeDirectoriesOfThisProcess`).
    public static func removeRuntimeDirectoriesOfThisProcess() {
        RigProcesses.removeRuntimeDirectoriesOfThisProcess(prefix: directoryPrefix)
    }
}
