import Foundation
import Glibc
import ScrollwayCWaylandClient
import ScrollwayRaster
import ScrollwayWaylandCore
import ScrollwayWestonHarness

/// mutter 43 headless as a rig: `mutter --headless --wayland --no-x11 --virtual-monitor WxH` in a
/// D-Bus session of its own (`dbus-run-session`), in a private runtime directory, as a process
/// group of its own (Foundation starts every process as the leader of a new group: stopping the
/// group ends the session bus with mutter), and ended by a watcher when this process dies.
///
/// What it offers is what a client does there on its own: mutter sends configure_bounds
/// (xdg_wm_base 4) and no xdg-decoration. Input and captures go through mutter's D-Bus APIs
/// (RemoteDesktop, ScreenCast with PipeWire), which the rig does not speak yet: they are
/// declared missing (`Compositor.missing`), and the seat only makes roundtrips.
public final class MutterRig: CompositorRig {
    static let directoryPrefix = "scrollway-mutter-"

    public let runtimeDirectory: URL
    public let logPath: String
    public let socketPath: String
    public let pacer = RealTimePacer()
    public let keys: KeyCodes
    private let width: Int
    private let height: Int
    private let scale: Int
    private let process: Process
    private var clients: [Process] = []
    private let control: RoundtripSeat

    public init(width: Int = 800, height: Int = 600, scale: Int = 1, startupTimeout: Double = 15) throws {
        for tool in ["mutter", "dbus-run-session"] where RigProcesses.findExecutable(tool) == nil {
            throw RigError.compositorNotFound(name: tool, install: Compositor.mutter.installCommand)
        }
        self.width = width
        self.height = height
        self.scale = scale
        keys = try KeyCodes(.us)
        let base = FileManager.default.temporaryDirectory
        RigProcesses.sweepStaleRuntimeDirectories(prefix: Self.directoryPrefix, in: base)
        let dir = base.appendingPathComponent("\(Self.directoryPrefix)\(getpid())-\(UUID().uuidString.prefix(8))")
        do {
            try FileManager.default.createDirectory(
                at: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw RigError.system("cannot create the runtime directory \(dir.path): \(error.localizedDescription)")
        }
        runtimeDirectory = dir
        logPath = dir.appendingPathComponent("mutter.log").path
        socketPath = dir.appendingPathComponent("wayland-mutter").path
        // The watcher ends the whole group (the session bus, mutter) when this process is gone;
        // `stop()` ends the group itself.
        let script = """
            ( tail --pid=\(getpid()) -f /dev/null; kill -TERM 0 ) &
            exec dbus-run-session -- mutter --headless --wayland --no-x11 \
            --virtual-monitor \(width * scale)x\(height * scale) --wayland-display=wayland-mutter
            """
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"]
        env["XDG_RUNTIME_DIR"] = dir.path
        env["HOME"] = dir.path
        env["XDG_CONFIG_HOME"] = dir.appendingPathComponent("config").path
        env["GSETTINGS_BACKEND"] = "memory"
        do {
            process = try RigProcesses.launch(
                "sh", arguments: ["-c", script], environment: env, to: .file(URL(fileURLWithPath: logPath)))
        } catch {
            try? FileManager.default.removeItem(at: dir)
            throw RigError.system("cannot start mutter: \(error)")
        }
        let deadline = Deadline(in: startupTimeout)
        while !RigProcesses.acceptsConnections(socketPath) {
            if !process.isRunning || deadline.hasPassed {
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                Self.end(process, directory: dir)
                throw RigError.startupFailed(
                    reason: process.isRunning ? "mutter made no socket within \(startupTimeout) s" : "mutter exited",
                    log: log)
            }
            usleep(5000)
        }
        do {
            control = try RoundtripSeat(socketPath: socketPath, compositor: "mutter")
        } catch {
            Self.end(process, directory: dir)
            throw error
        }
    }

    deinit { stop() }

    public var compositor: Compositor { .mutter }
    public var clientEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["WAYLAND_DISPLAY"] = socketPath
        env.removeValue(forKey: "DISPLAY")
        return env
    }
    public var seat: any SeatInput { control }
    public var output: (width: Int, height: Int, scale: Int) { (width, height, scale) }
    public var textInput: TextInputSnapshot? { nil }
    public var textInputHistory: [TextInputSnapshot] { [] }

    public func capture() throws -> Canvas { throw RigError.notOffered(compositor.missing(.capture)!) }
    public func parkPointer() throws {}
    public func idleInhibitors() throws -> Int { throw RigError.notOffered(compositor.missing(.idleInhibitorCount)!) }

    @discardableResult
    public func launchClient(
        _ executable: String, arguments: [String], environment: [String: String], to destination: RigClientOutput
    ) throws -> Process {
        let p = try RigProcesses.launch(
            executable, arguments: arguments, environment: clientEnvironment.merging(environment) { $1 },
            to: destination)
        clients.append(p)
        return p
    }

    public func stop() {
        for c in clients where c.isRunning { RigProcesses.terminate(c) }
        clients.removeAll()
        Self.end(process, directory: runtimeDirectory)
    }

    /// The whole group (the watcher, the session bus and mutter), then the directory.
    private static func end(_ p: Process, directory: URL) {
        RigProcesses.endGroup(p)
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A seat that carries no input (the rig cannot inject into this compositor yet): its
/// connection only makes roundtrips, so that "everything sent has been handled" still means
/// something. `SeatInjector` refuses input events for such a rig before they get here.
final class RoundtripSeat: SeatInput {
    private let core: WaylandDisplay
    private let compositorName: String

    init(socketPath: String, compositor: String) throws {
        compositorName = compositor
        do {
            core = try WaylandDisplay(socket: socketPath)
            try core.roundtrip(timeout: 10)
        } catch {
            throw RigError.connectionLost("cannot connect to \(compositor): \(RigError(error, compositor: compositor))")
        }
    }

    func pointerMotion(x: Double, y: Double, time: UInt32) {}
    func pointerButton(_ button: UInt32, pressed: Bool, time: UInt32) {}
    func axisSource(_ source: UInt32) {}
    func axis(_ axis: UInt32, value: Double, discrete: Int32, value120: Int32, time: UInt32) {}
    func axisStop(_ axis: UInt32, time: UInt32) {}
    func pointerFrame() {}
    func touchDown(id: Int32, x: Double, y: Double, time: UInt32) {}
    func touchMotion(id: Int32, x: Double, y: Double, time: UInt32) {}
    func touchUp(id: Int32, time: UInt32) {}
    func touchFrame() {}
    func touchCancel() {}
    func key(_ key: UInt32, pressed: Bool, time: UInt32) {}
    func textInputPreedit(_ text: String, cursor: ClosedRange<Int>?) {}
    func textInputCommit(_ text: String) {}
    func textInputDeleteSurrounding(before: Int, after: Int) {}
    func textInputDone() {}

    func flush() throws {
        do { try core.flush() } catch { throw RigError(error, compositor: compositorName) }
    }

    func roundtrip() throws {
        do { try core.roundtrip(timeout: 10) } catch { throw RigError(error, compositor: compositorName) }
    }
}
