import Foundation
import Glibc
import ScrollwayWaylandCore
import ScrollwayWestonHarness

/// A headless sway in a private runtime directory: wlroots' headless backend and pixman
/// renderer, the rig's output (HEADLESS-1, of the rig's size and scale) and a small parking
/// output to its right (HEADLESS-2, where the pointer goes to leave every window: a headless
/// output draws its cursor into captures), no bar, no borders, no Xwayland, keyboards not
/// grouped (so each virtual keyboard is a device of its own, as a replugged one is).
///
/// sway refuses to run as root ("Unable to drop root"), so as root it runs as `nobody` through
/// `setpriv`, in a runtime directory that user owns; root clients still connect. It ends with
/// `stop()`, on deinit, and (a watcher its config starts) when this process dies.
public final class SwayProcess {
    /// The user sway runs as when this process is root: nobody, which every system has.
    static let unprivilegedID: uid_t = 65534
    static let directoryPrefix = "scrollway-sway-"

    public let runtimeDirectory: URL
    public let logPath: String
    public let width: Int
    public let height: Int
    public let scale: Int
    /// The parking output's size (logical pixels), right of the rig's output.
    static let parkingSize = 64
    private let process: Process
    private var clients = RigClients()
    /// The Wayland socket's absolute path (sway names it itself: the one in the directory).
    public private(set) var socketPath = ""
    /// sway's IPC socket (`swaymsg -s`).
    public private(set) var ipcSocketPath = ""

    public init(width: Int, height: Int, scale: Int = 1, startupTimeout: Double = 10) throws {
        guard let sway = RigProcesses.findExecutable("sway") else {
            throw RigError.compositorNotFound(name: "sway", install: Compositor.sway.installCommand)
        }
        self.width = width
        self.height = height
        self.scale = scale
        let dir = try RigProcesses.makeRuntimeDirectory(prefix: Self.directoryPrefix)
        runtimeDirectory = dir
        logPath = dir.appendingPathComponent("sway.log").path
        let config = dir.appendingPathComponent("config")
        let watcher = dir.appendingPathComponent("watch.sh")
        // The watcher sway starts: when this process is gone, it ends sway, by the PID its IPC
        // socket's name carries (the socket itself may be gone: a later rig sweeps the runtime
        // directories of dead creators). It first closes every descriptor it inherited:
        // Foundation learns that a process it started has ended when the last holder of a pipe it
        // gave it closes it, and a watcher still holding sway's copy would make `stop()` wait for
        // this process's death.
        // Run by bash, not sh: dash's redirections take one-digit descriptors only; bash reads
        // the script through descriptor 255, which stays. sway runs an exec line through
        // `sh -c`: the line's own `exec` replaces that shell, which would otherwise wait for the
        // watcher holding the descriptors too.
        let watch = """
            for f in /proc/self/fd/*; do
              n=${f##*/}
              case $n in 0|1|2|255) ;; *) eval "exec $n>&-" 2>/dev/null ;; esac
            done
            sway=${SWAYSOCK%.sock}
            sway=${sway##*.}
            \(RigProcesses.untilThisProcessEnds)
            kill -TERM "$sway"
            """
        let text = """
            output HEADLESS-1 resolution \(width * scale)x\(height * scale) position 0 0 scale \(scale)
            output HEADLESS-2 resolution \(Self.parkingSize)x\(Self.parkingSize) position \(width) 0 scale 1
            default_border none
            default_floating_border none
            focus_follows_mouse no
            xwayland disable
            seat * keyboard_grouping none
            exec exec bash \(watcher.path)
            """
        let asRoot = geteuid() == 0
        do {
            try text.write(to: config, atomically: true, encoding: .utf8)
            try watch.write(to: watcher, atomically: true, encoding: .utf8)
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
            if asRoot {
                for path in [dir.path, config.path, watcher.path, logPath] {
                    guard chown(path, Self.unprivilegedID, Self.unprivilegedID) == 0 else {
                        throw RigError.system(
                            "cannot give \(path) to uid \(Self.unprivilegedID): \(String(cString: strerror(errno)))")
                    }
                }
            }
        } catch let error as RigError {
            try? FileManager.default.removeItem(at: dir)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: dir)
            throw RigError.system("cannot write the sway config in \(dir.path): \(error.localizedDescription)")
        }

        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"]
        env["XDG_RUNTIME_DIR"] = dir.path
        env["HOME"] = dir.path
        env["WLR_BACKENDS"] = "headless"
        env["WLR_RENDERER"] = "pixman"
        env["WLR_LIBINPUT_NO_DEVICES"] = "1"
        env["WLR_HEADLESS_OUTPUTS"] = "2"
        env["XKB_DEFAULT_LAYOUT"] = "us"
        var arguments = ["-c", config.path, "-d"]
        var executable = sway
        if asRoot {
            guard let setpriv = RigProcesses.findExecutable("setpriv") else {
                throw RigError.system("sway refuses to run as root and setpriv (util-linux) is not installed")
            }
            executable = setpriv
            let id = String(Self.unprivilegedID)
            arguments = ["--reuid=\(id)", "--regid=\(id)", "--clear-groups", "--", sway] + arguments
        }
        do {
            process = try RigProcesses.launch(
                executable, arguments: arguments, environment: env, to: .file(URL(fileURLWithPath: logPath)))
        } catch {
            try? FileManager.default.removeItem(at: dir)
            throw RigError.system("cannot start sway: \(error)")
        }
        let deadline = Deadline(in: startupTimeout)
        while true {
            if let socket = Self.socket(in: dir, prefix: "wayland-"), RigProcesses.acceptsConnections(socket),
                let ipc = Self.socket(in: dir, prefix: "sway-ipc.")
            {
                socketPath = socket
                ipcSocketPath = ipc
                break
            }
            if !process.isRunning {
                let log = self.log
                stop()
                throw RigError.startupFailed(reason: "sway \(RigProcesses.describeEnd(process))", log: log)
            }
            if deadline.hasPassed {
                let log = self.log
                stop()
                throw RigError.startupFailed(reason: "sway made no socket within \(startupTimeout) s", log: log)
            }
            usleep(5000)
        }
    }

    deinit { stop() }

    /// The socket in `dir` whose name starts with `prefix` (not its lock file).
    private static func socket(in dir: URL, prefix: String) -> String? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return nil }
        return names.first { $0.hasPrefix(prefix) && !$0.hasSuffix(".lock") }.map {
            dir.appendingPathComponent($0).path
        }
    }

    /// The output layout's size in logical pixels: both outputs side by side.
    public var layoutSize: (width: Int, height: Int) { (width + Self.parkingSize, max(height, Self.parkingSize)) }

    /// The middle of the parking output: a point on no window.
    public var parkingPoint: (x: Double, y: Double) {
        (Double(width) + Double(Self.parkingSize) / 2, Double(Self.parkingSize) / 2)
    }

    /// sway's log so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    public var isAlive: Bool { process.isRunning }

    /// The environment a client needs to connect to this sway. XDG_RUNTIME_DIR too, though the
    /// socket's path is absolute: GTK4 opens no Wayland display without one.
    public var clientEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        env["WAYLAND_DISPLAY"] = socketPath
        env["SWAYSOCK"] = ipcSocketPath
        env.removeValue(forKey: "DISPLAY")
        return env
    }

    /// Starts a client; it is killed on stop if still running.
    @discardableResult
    public func launchClient(
        _ executable: String, arguments: [String] = [], environment extra: [String: String] = [:],
        to destination: RigClientOutput = .null
    ) throws -> Process {
        try clients.launch(
            executable, arguments: arguments, environment: clientEnvironment, extra: extra, to: destination)
    }

    /// Runs `swaymsg ARGS` against this sway and returns what it printed; a failure says what
    /// sway answered.
    public func message(_ arguments: [String]) throws -> String {
        let out = runtimeDirectory.appendingPathComponent("swaymsg-\(UUID().uuidString.prefix(8)).out")
        defer { try? FileManager.default.removeItem(at: out) }
        let p = try RigProcesses.launch(
            "swaymsg", arguments: ["-s", ipcSocketPath] + arguments, environment: clientEnvironment, to: .file(out))
        p.waitUntilExit()
        let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        guard p.terminationStatus == 0 else {
            throw RigError.system("swaymsg \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    /// Kills the clients, then sway, and removes the runtime directory. Safe to call twice.
    public func stop() {
        clients.stopAll()
        RigProcesses.terminate(process)
        try? FileManager.default.removeItem(at: runtimeDirectory)
    }
}
