import Foundation
import ScrollwayDBus
import ScrollwayRaster
import ScrollwayWestonHarness

/// phoc 0.24 with squeekboard, the Librem 5 and PinePhone stack, headless as a rig: phoc on
/// wlroots' headless backend and pixman with one output (a phone's 720×1440 at scale 2 by
/// default), in a D-Bus session of its own (`SessionCompositor`) where squeekboard runs as the
/// input method with the screen keyboard enabled (`org.gnome.desktop.a11y.applications
/// screen-keyboard-enabled`). phoc maximizes windows and, when squeekboard shows, makes them
/// shorter by its height: a window's own height says whether the keyboard is up.
///
/// Input through wlroots' virtual pointer and keyboard, pixels through screencopy (`WlrootsSeat`,
/// without an input method of its own while squeekboard holds the seat's). A headless output
/// draws its cursor into captures, and a second output (sway's rig parks the pointer on one)
/// would take phoc's windows: phoc gets a cursor theme whose every cursor is one transparent
/// pixel (`XCURSOR_PATH`), and parking the pointer unplugs it.
public final class PhocRig: WlrootsRig, SessionRig {
    public let session: SessionCompositor
    public let pacer = RealTimePacer()
    public let keys: KeyCodes
    public let control: WlrootsSeat
    /// Whether squeekboard runs (and holds the seat's input method), or the rig's own input
    /// method does.
    public let hasScreenKeyboard: Bool
    private let width: Int
    private let height: Int
    private let scale: Int
    /// The session bus, once `screenKeyboardVisible` asks squeekboard.
    private var sessionBus: DBusConnection?

    /// `width`×`height` logical pixels at `scale` (a phone: 360×720 at 2), with squeekboard as
    /// the input method when `screenKeyboard` (it shows itself at times on its own, and the
    /// window it makes room for gets shorter: a scenario about anything else runs without it,
    /// with the rig's own input method).
    public init(
        width: Int = 360, height: Int = 720, scale: Int = 2, screenKeyboard: Bool = true, startupTimeout: Double = 15
    ) throws {
        _ = try Compositor.phoc.requireTools(["phoc", "squeekboard", "dbus-run-session", "gsettings"])
        self.width = width
        self.height = height
        self.scale = scale
        hasScreenKeyboard = screenKeyboard
        keys = try KeyCodes(.us)
        session = try SessionCompositor(
            name: "phoc", directoryPrefix: "scrollway-phoc-",
            command: { dir in
                "phoc -C \(dir.path)/phoc.ini" + (screenKeyboard ? " -E \"sh \(dir.path)/session.sh\"" : "")
            },
            environment: { dir in
                [
                    "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
                    "XKB_DEFAULT_LAYOUT": "us", "XCURSOR_PATH": dir.appendingPathComponent("icons").path,
                ]
            }, socketPrefix: "wayland-", startupTimeout: startupTimeout,
            prepare: { dir in
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
            })
        do {
            control = try WlrootsSeat(
                socketPath: session.socketPath, compositor: "phoc", output: "HEADLESS-1", layoutSize: (width, height),
                keys: keys, inputMethod: !screenKeyboard)
            let ready = session.runtimeDirectory.appendingPathComponent("seat-ready").path
            guard FileManager.default.createFile(atPath: ready, contents: nil) else {
                throw RigError.system("cannot write \(ready)")
            }
        } catch {
            let log = session.log
            session.stop()
            if case .startupFailed(let reason, _) = error as? RigError {
                throw RigError.startupFailed(reason: reason, log: log)
            }
            throw error
        }
    }

    deinit { stop() }

    public var compositor: Compositor { .phoc }
    public var output: (width: Int, height: Int, scale: Double) { (width, height, Double(scale)) }

    /// With squeekboard, the rig has no input method of its own and so no view of the text input.
    public var features: Set<RigFeature> {
        hasScreenKeyboard
            ? compositor.features.subtracting([.inputMethod, .textInputState])
            : compositor.features.subtracting([.screenKeyboard])
    }

    /// Unplugs the pointer: phoc's windows cover the output, so the pointer cannot leave them by
    /// moving, and a client's cursor would show in captures; without a pointer the seat has no
    /// cursor, and the client gets its leave. The next pointer event plugs one in again.
    public func parkPointer() throws { try control.unplugPointer() }

    public func idleInhibitors() throws -> Int { throw RigError.notOffered(compositor.missing(.idleInhibitorCount)!) }

    /// Whether squeekboard shows, as it says itself: the `Visible` property of its
    /// `sm.puri.OSK0` object on the session bus (false until it has started and taken the name).
    public func screenKeyboardVisible() throws -> Bool {
        try require(.screenKeyboard)
        if sessionBus == nil { sessionBus = try DBusConnection(address: try session.busAddress) }
        guard
            let visible = try? sessionBus?.property(
                "sm.puri.OSK0", path: "/sm/puri/OSK0", interface: "sm.puri.OSK0", name: "Visible")
        else { return false }
        return visible == .bool(true)
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
}
