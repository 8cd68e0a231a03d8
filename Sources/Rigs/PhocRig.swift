import Foundation
import Glibc
import ScrollwayRaster
import ScrollwayWaylandCore
import ScrollwayWestonHarness

/// phoc 0.24 with squeekboard, the Librem 5 and PinePhone stack, headless as a rig: phoc on
/// wlroots' headless backend and pixman with one output (a phone's 720×1440 at scale 2 by
/// default), in a D-Bus session of its own where squeekboard runs as the input method with the
/// screen keyboard enabled (`org.gnome.desktop.a11y.applications screen-keyboard-enabled`).
/// phoc maximizes windows and, when squeekboard shows, makes them shorter by its height: a
/// window's own height says whether the keyboard is up.
///
/// Input through wlroots' virtual pointer and keyboard, pixels through screencopy (`WlrootsSeat`,
/// without an input method of its own: squeekboard holds the seat's). A headless output draws
/// its cursor into captures, and a second output (sway's rig parks the pointer on one) would
/// take phoc's windows: phoc gets a cursor theme whose every cursor is one transparent pixel
/// (`XCURSOR_PATH`), so only a cursor a client sets shows. Run as root, as phoc runs
/// on a phone; a process group of its own, stopped whole, and a watcher for this process's death.
public final class PhocRig: CompositorRig {
    static let directoryPrefix = "scrollway-phoc-"

    public let runtimeDirectory: URL
    public let logPath: String
    public let socketPath: String
    public let pacer = RealTimePacer()
    public let keys: KeyCodes
    public let control: WlrootsSeat
    private let width: Int
    private let height: Int
    private let scale: Int
    private let process: Process
    private var clients: [Process] = []

    /// Whether squeekboard runs (and holds the seat's input method), or the rig's own input
    /// method does.
    public let hasScreenKeyboard: Bool

    /// `width`×`height` logical pixels at `scale` (a phone: 360×720 at 2), with squeekboard as
    /// the input method when `screenKeyboard` (it shows itself at times on its own, and the
    /// window it makes room for gets shorter: a scenario about anything else runs without it,
    /// with the rig's own input method).
    public init(
        width: Int = 360, height: Int = 720, scale: Int = 2, screenKeyboard: Bool = true, startupTimeout: Double = 15
    ) throws {
        for tool in ["phoc", "squeekboard", "dbus-run-session", "gsettings"]
        where RigProcesses.findExecutable(tool) == nil {
            throw RigError.compositorNotFound(name: tool, install: Compositor.phoc.installCommand)
        }
        self.width = width
        self.height = height
        self.scale = scale
        hasScreenKeyboard = screenKeyboard
        keys = try KeyCodes(.us)
        let base = FileManager.default.temporaryDirectory
        RigProcesses.sweepStaleRuntimeDirectories(prefix: Self.directoryPrefix, in: base)
        let dir = base.appendingPathComponent("\(Self.directoryPrefix)\(getpid())-\(UUID().uuidString.prefix(8))")
        do {
            try FileManager.default.createDirectory(
                at: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            try """
            [core]
            xwayland=false
            [output:HEADLESS-1]
            mode=\(width * scale)x\(height * scale)
            scale=\(scale)
            """.write(to: dir.appendingPathComponent("phoc.ini"), atomically: true, encoding: .utf8)
            try Self.writeBlankCursorTheme(in: dir.appendingPathComponent("icons/default/cursors"))
            // phoc's session: the screen keyboard enabled, then squeekboard, once the rig's
            // connection has made phoc's seat (squeekboard exits without one) and said so.
            try """
            gsettings set org.gnome.desktop.a11y.applications screen-keyboard-enabled true
            while [ ! -e \(dir.path)/seat-ready ]; do sleep 0.02; done
            exec squeekboard
            """.write(to: dir.appendingPathComponent("session.sh"), atomically: true, encoding: .utf8)
        } catch {
            throw RigError.system("cannot set up phoc in \(dir.path): \(error.localizedDescription)")
        }
        runtimeDirectory = dir
        logPath = dir.appendingPathComponent("phoc.log").path
        let script = """
            ( tail --pid=\(getpid()) -f /dev/null; kill -TERM 0 ) &
            exec dbus-run-session -- phoc -C \(dir.path)/phoc.ini \(screenKeyboard ? "-E \"sh \(dir.path)/session.sh\"" : "")
            """
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"]
        env["XDG_RUNTIME_DIR"] = dir.path
        env["HOME"] = dir.path
        env["XDG_CONFIG_HOME"] = dir.appendingPathComponent("config").path
        env["WLR_BACKENDS"] = "headless"
        env["WLR_RENDERER"] = "pixman"
        env["WLR_LIBINPUT_NO_DEVICES"] = "1"
        env["XCURSOR_PATH"] = dir.appendingPathComponent("icons").path
        env["XKB_DEFAULT_LAYOUT"] = "us"
        do {
            process = try RigProcesses.launch(
                "sh", arguments: ["-c", script], environment: env, to: .file(URL(fileURLWithPath: logPath)))
        } catch {
            try? FileManager.default.removeItem(at: dir)
            throw RigError.system("cannot start phoc: \(error)")
        }
        let deadline = Deadline(in: startupTimeout)
        var found: String?
        while found == nil {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            found = names.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
                .map { dir.appendingPathComponent($0).path }
                .flatMap { RigProcesses.acceptsConnections($0) ? $0 : nil }
            if found == nil, !process.isRunning || deadline.hasPassed {
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                RigProcesses.endGroup(process)
                try? FileManager.default.removeItem(at: dir)
                throw RigError.startupFailed(
                    reason: process.isRunning ? "phoc made no socket within \(startupTimeout) s" : "phoc exited",
                    log: log)
            }
            usleep(5000)
        }
        socketPath = found!
        do {
            control = try WlrootsSeat(
                socketPath: socketPath, compositor: "phoc", output: "HEADLESS-1", layoutSize: (width, height),
                keymap: keys.keymapText, inputMethod: !screenKeyboard)
            guard FileManager.default.createFile(atPath: dir.appendingPathComponent("seat-ready").path, contents: nil)
            else { throw RigError.system("cannot write \(dir.path)/seat-ready") }
        } catch {
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            RigProcesses.endGroup(process)
            try? FileManager.default.removeItem(at: dir)
            if case .startupFailed(let reason, _) = error as? RigError {
                throw RigError.startupFailed(reason: reason, log: log)
            }
            throw error
        }
    }

    deinit { stop() }

    public var compositor: Compositor { .phoc }
    public var clientEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["WAYLAND_DISPLAY"] = socketPath
        env.removeValue(forKey: "DISPLAY")
        return env
    }
    public var seat: any SeatInput { control }
    public var output: (width: Int, height: Int, scale: Int) { (width, height, scale) }
    /// With squeekboard, the rig has no input method of its own and so no view of the text input.
    public var features: Set<RigFeature> {
        hasScreenKeyboard
            ? compositor.features.subtracting([.inputMethod, .textInputState])
            : compositor.features.subtracting([.screenKeyboard])
    }

    public var textInput: TextInputSnapshot? {
        try? control.dispatchPending()
        return control.textInput
    }

    public var textInputHistory: [TextInputSnapshot] {
        try? control.dispatchPending()
        return control.textInputHistory
    }

    public func capture() throws -> Canvas { try control.capture() }

    public func replug(_ device: SeatDevice) throws {
        switch device {
        case .keyboard: try control.replugKeyboard()
        case .pointer: try control.replugPointer()
        }
    }

    /// Unplugs the pointer: phoc's windows cover the output, so the pointer cannot leave them by
    /// moving, and a client's cursor would show in captures; without a pointer the seat has no
    /// cursor, and the client gets its leave. The next pointer event plugs one in again.
    public func parkPointer() throws { try control.unplugPointer() }

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

    /// An Xcursor theme whose `left_ptr` (the cursor phoc shows over no client) is one
    /// transparent pixel: the file format's header, one table entry, one 1×1 image chunk, all
    /// little-endian 32-bit words.
    static func writeBlankCursorTheme(in cursors: URL) throws {
        try FileManager.default.createDirectory(at: cursors, withIntermediateDirectories: true)
        let imageType: UInt32 = 0xFFFD_0002
        let nominalSize: UInt32 = 24
        let words: [UInt32] = [
            0x7275_6358, 16, 0x0001_0000, 1,  // "Xcur", header size, version, table entries
            imageType, nominalSize, 28,  // the one entry: an image, its size, its offset
            36, imageType, nominalSize, 1, 1, 1, 0, 0, 0,  // chunk: 1×1, hotspot 0,0, no delay
            0,  // the pixel, transparent
        ]
        var bytes: [UInt8] = []
        for w in words { withUnsafeBytes(of: w.littleEndian) { bytes.append(contentsOf: $0) } }
        let data = Data(bytes)
        for name in ["left_ptr", "default"] { try data.write(to: cursors.appendingPathComponent(name)) }
    }

    /// phoc's log so far (squeekboard's too: it is phoc's session).
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    public func stop() {
        for c in clients where c.isRunning { RigProcesses.terminate(c) }
        clients.removeAll()
        RigProcesses.endGroup(process)
        try? FileManager.default.removeItem(at: runtimeDirectory)
    }
}
