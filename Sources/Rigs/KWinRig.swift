import Foundation
import Glibc
import ScrollwayCWaylandClient
import ScrollwayDBus
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayRigProtocols
import ScrollwayWaylandCore
import ScrollwayWestonHarness

/// KWin 5.27 (KDE's compositor) headless as a rig: `kwin_wayland --virtual` in a D-Bus session of
/// its own (`SessionCompositor`), with input through KDE's fake input (`org_kde_kwin_fake_input`,
/// `KWinSeat`) and pixels through `org.kde.KWin.ScreenShot2` over D-Bus.
///
/// - Debian's `kwin_wayland` carries a file capability (`cap_sys_resource`) that a locked-down
///   container refuses to exec (EPERM): the rig runs a copy of the binary, which carries none.
/// - Both interfaces are restricted to programs a desktop file names; the rig turns KWin's own
///   test switches on instead (`KWIN_WAYLAND_NO_PERMISSION_CHECKS`,
///   `KWIN_SCREENSHOT_NO_PERMISSION_CHECKS`), since the caller is whichever test binary or
///   `scrollway` runs.
/// - KWin places windows itself: a window rule puts every window at the output's origin, so that
///   the scenarios' coordinates (the window's own) are the output's. Animations are off
///   (`AnimationDurationFactor=0`), so a capture shows a window as it is, not as it fades in.
///   Compositing is OpenGL's (Mesa's llvmpipe in software here): KWin's screenshot effect
///   needs it, and loads a moment after the socket opens, so the rig waits for it.
public final class KWinRig: SessionRig {
    public let session: SessionCompositor
    public let pacer = RealTimePacer()
    public let keys: KeyCodes
    private let control: KWinSeat
    private let bus: DBusConnection
    private let width: Int
    private let height: Int
    private let scale: Double

    public init(width: Int = 800, height: Int = 600, scale: Double = 1, startupTimeout: Double = 30) throws {
        let kwin = try Compositor.kwin.requireTools(["kwin_wayland", "dbus-run-session"])[0]
        self.width = width
        self.height = height
        self.scale = scale
        keys = try KeyCodes(.us)
        session = try SessionCompositor(
            name: "kwin", directoryPrefix: "scrollway-kwin-",
            command: { dir in
                "\(dir.path)/kwin_wayland --virtual --width \(width) --height \(height) --scale \(scale) "
                    + "--socket wayland-kwin --no-lockscreen --no-global-shortcuts --no-kactivities"
            },
            environment: { dir in
                [
                    "KWIN_WAYLAND_NO_PERMISSION_CHECKS": "1", "KWIN_SCREENSHOT_NO_PERMISSION_CHECKS": "1",
                    "XDG_CONFIG_HOME": dir.appendingPathComponent("config").path,
                    "XKB_DEFAULT_LAYOUT": "us", "QT_LOGGING_RULES": "*.debug=false",
                ]
            }, socketPrefix: "wayland-kwin", startupTimeout: startupTimeout,
            prepare: { dir in
                try FileManager.default.copyItem(
                    atPath: kwin, toPath: dir.appendingPathComponent("kwin_wayland").path)
                try Self.writeConfiguration(in: dir.appendingPathComponent("config"))
            })
        do {
            bus = try DBusConnection(address: try session.busAddress)
            control = try KWinSeat(socketPath: session.socketPath)
            let screenshots = bus.poll(for: startupTimeout) { bus in
                (try? bus.property(
                    "org.kde.KWin", path: "/org/kde/KWin/ScreenShot2", interface: "org.kde.KWin.ScreenShot2",
                    name: "Version")) != nil
            }
            guard screenshots else {
                throw RigError.system("kwin offered no org.kde.KWin.ScreenShot2 within \(startupTimeout) s")
            }
        } catch {
            let log = session.log
            session.stop()
            throw RigError.startupFailed(reason: "\(error)", log: log)
        }
    }

    deinit { stop() }

    public var compositor: Compositor { .kwin }
    public var seat: any SeatInput { control }
    public var output: (width: Int, height: Int, scale: Double) { (width, height, scale) }
    public var textInput: TextInputSnapshot? { nil }
    public var textInputHistory: [TextInputSnapshot] { [] }

    /// The output's pixels at its scale, through ScreenShot2's CaptureArea over the whole
    /// output (cursor left out): KWin writes the image into a pipe the rig passes, and describes
    /// it in the reply (size, stride, QImage format).
    public func capture() throws -> Canvas {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw RigError.system("pipe: \(String(cString: strerror(errno)))") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        defer { close(fds[0]) }
        let reply: [DBusValue]
        do {
            defer { close(fds[1]) }
            reply = try bus.call(
                "org.kde.KWin", path: "/org/kde/KWin/ScreenShot2", interface: "org.kde.KWin.ScreenShot2",
                member: "CaptureArea",
                arguments: [
                    .int32(0), .int32(0), .uint32(UInt32(width)), .uint32(UInt32(height)),
                    .vardict(["native-resolution": .bool(true), "include-cursor": .bool(false)]), .fd(fds[1]),
                ])
        } catch {
            throw RigError.captureFailed("kwin: \(error)")
        }
        guard let info = reply.first?.vardictValue, let w = info["width"]?.intValue, let h = info["height"]?.intValue,
            let stride = info["stride"]?.intValue, let format = info["format"]?.intValue
        else { throw RigError.captureFailed("kwin: ScreenShot2 described its image as \(reply)") }
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        guard bytes.count >= stride * h, stride >= w * 4 else {
            throw RigError.captureFailed("kwin: ScreenShot2 wrote \(bytes.count) bytes for \(w)×\(h), stride \(stride)")
        }
        return try Self.canvas(bytes, width: w, height: h, stride: stride, qimageFormat: format, scale: scale)
    }

    /// A QImage's 32-bit pixels as an ARGB canvas. QImage's RGB32 and ARGB32 formats are
    /// native-endian ARGB words, as pixman's a8r8g8b8; its RGBA8888 formats are bytes in R, G, B,
    /// A order.
    static func canvas(
        _ bytes: [UInt8], width: Int, height: Int, stride: Int, qimageFormat: Int, scale: Double
    ) throws -> Canvas {
        // QImage::Format: RGB32 4, ARGB32 5, ARGB32_Premultiplied 6, RGBX8888 16, RGBA8888 17,
        // RGBA8888_Premultiplied 18.
        let words = [4, 5, 6].contains(qimageFormat)
        guard words || [16, 17, 18].contains(qimageFormat) else {
            throw RigError.captureFailed("kwin: ScreenShot2 sent QImage format \(qimageFormat), not 32-bit RGB")
        }
        let opaque = qimageFormat == 4 || qimageFormat == 16
        let canvas = try Canvas(width: width, height: height, scale: scale)
        canvas.withPixels { px in
            bytes.withUnsafeBytes { raw in
                for y in 0..<height {
                    for x in 0..<width {
                        let o = y * stride + x * 4
                        var p: UInt32
                        if words {
                            p = raw.loadUnaligned(fromByteOffset: o, as: UInt32.self)
                        } else {
                            p =
                                UInt32(raw[o + 3]) << 24 | UInt32(raw[o]) << 16 | UInt32(raw[o + 1]) << 8
                                | UInt32(raw[o + 2])
                        }
                        if opaque { p |= 0xFF00_0000 }
                        px[y * (canvas.stride / 4) + x] = p
                    }
                }
            }
        }
        return canvas
    }

    /// Fake input has no way to leave a window but moving off it, and the window covers the
    /// output: the pointer goes to the output's last pixel row, whose hover changes nothing
    /// the scenarios look at, and KWin draws no cursor into ScreenShot2's images.
    public func parkPointer() throws {
        control.pointerMotion(x: Double(width) - 1, y: Double(height) - 1, time: 0)
        try control.roundtrip()
    }

    public func idleInhibitors() throws -> Int { throw RigError.notOffered(compositor.missing(.idleInhibitorCount)!) }

    /// Unplugs KWin's fake input device and plugs it in again: the seat loses its pointer,
    /// keyboard and touch and gets them back (one fake device is all three).
    public func replug(_ device: SeatDevice) throws { try control.replug() }

    /// KWin's configuration for a rig: no animations, focus given to every new window, and a
    /// window rule placing every window at the output's origin (KWin's placement would cascade
    /// them).
    static func writeConfiguration(in config: URL) throws {
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let files = [
            "kdeglobals": "[KDE]\nAnimationDurationFactor=0\n",
            "kwinrc": "[Windows]\nFocusStealingPreventionLevel=0\n",
            "kwinrulesrc": """
            [General]
            count=1
            rules=scrollway-rig

            [scrollway-rig]
            Description=Scrollway rig: every window at the output's origin
            position=0,0
            positionrule=2
            wmclassmatch=0

            """,
        ]
        for (name, text) in files {
            try text.write(to: config.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
    }
}

/// The rig's own connection to KWin: one fake input device (`org_kde_kwin_fake_input` 4),
/// which is a pointer with absolute motion, buttons and axes, a keyboard and a touchscreen.
///
/// What fake input cannot say: event times (KWin stamps each event as it arrives), axis
/// sources, discrete steps and stops (KWin passes an axis on as a plain value), pointer frames,
/// and anything of text input.
final class KWinSeat: SeatInput {
    private let socketPath: String
    private var connection: (core: WaylandDisplay, device: OpaquePointer?)?
    let timeout: Double

    init(socketPath: String, timeout: Double = 10) throws {
        self.socketPath = socketPath
        self.timeout = timeout
        connection = try Self.connect(socketPath, timeout: timeout)
    }

    deinit { if let device { wl_proxy_destroy(device) } }

    private var device: OpaquePointer? { connection?.device }

    /// A connection and its authenticated fake input device. Fake input 4 has no destructor: the
    /// device lives as long as the connection.
    private static func connect(
        _ socketPath: String, timeout: Double
    ) throws -> (core: WaylandDisplay, device: OpaquePointer?) {
        let core: WaylandDisplay
        do {
            core = try WaylandDisplay(socket: socketPath)
            try core.roundtrip(timeout: timeout)
        } catch {
            throw RigError.connectionLost(
                "cannot connect to kwin at \(socketPath): \(RigError(error, compositor: "kwin"))")
        }
        guard core.globals["org_kde_kwin_fake_input"] != nil else {
            throw RigError.missingGlobal(
                "org_kde_kwin_fake_input (kwin offers it only with KWIN_WAYLAND_NO_PERMISSION_CHECKS=1 or to a "
                    + "program a desktop file names)")
        }
        let device = core.bind("org_kde_kwin_fake_input", sw_org_kde_kwin_fake_input_interface(), handled: 4)
        org_kde_kwin_fake_input_authenticate(device, "Scrollway rig", "injects a test's input")
        do { try core.roundtrip(timeout: timeout) } catch { throw RigError(error, compositor: "kwin") }
        return (core, device)
    }

    /// Closes the connection (KWin removes its device: the seat loses pointer, keyboard and
    /// touch) and opens another (they come back). KWin has read the old connection's hang-up
    /// before it answers the new one's registry roundtrip, so the loss comes first.
    func replug() throws {
        if let device { wl_proxy_destroy(device) }
        connection = nil
        connection = try Self.connect(socketPath, timeout: timeout)
    }

    func pointerMotion(x: Double, y: Double, time: UInt32) {
        org_kde_kwin_fake_input_pointer_motion_absolute(device, wl_fixed_from_double(x), wl_fixed_from_double(y))
    }

    func pointerButton(_ button: UInt32, pressed: Bool, time: UInt32) {
        org_kde_kwin_fake_input_button(device, button, pressed ? 1 : 0)
    }

    func axisSource(_ source: UInt32) {}

    func axis(_ axis: UInt32, value: Double, discrete: Int32, value120: Int32, time: UInt32) {
        org_kde_kwin_fake_input_axis(device, axis, wl_fixed_from_double(value))
    }

    func axisStop(_ axis: UInt32, time: UInt32) {}
    func pointerFrame() {}

    func touchDown(id: Int32, x: Double, y: Double, time: UInt32) {
        org_kde_kwin_fake_input_touch_down(
            device, UInt32(bitPattern: id), wl_fixed_from_double(x), wl_fixed_from_double(y))
    }

    func touchMotion(id: Int32, x: Double, y: Double, time: UInt32) {
        org_kde_kwin_fake_input_touch_motion(
            device, UInt32(bitPattern: id), wl_fixed_from_double(x), wl_fixed_from_double(y))
    }

    func touchUp(id: Int32, time: UInt32) { org_kde_kwin_fake_input_touch_up(device, UInt32(bitPattern: id)) }
    func touchFrame() { org_kde_kwin_fake_input_touch_frame(device) }
    func touchCancel() { org_kde_kwin_fake_input_touch_cancel(device) }

    func key(_ key: UInt32, pressed: Bool, time: UInt32) {
        org_kde_kwin_fake_input_keyboard_key(device, key, pressed ? 1 : 0)
    }

    func textInputPreedit(_ text: String, cursor: ClosedRange<Int>?) {}
    func textInputCommit(_ text: String) {}
    func textInputDeleteSurrounding(before: Int, after: Int) {}
    func textInputDone() {}

    private var core: WaylandDisplay {
        get throws {
            guard let connection else { throw RigError.connectionLost("kwin: the fake input device is unplugged") }
            return connection.core
        }
    }

    func flush() throws {
        let core = try core
        do { try core.flush() } catch { throw RigError(error, compositor: "kwin") }
    }

    func roundtrip() throws {
        let core = try core
        do { try core.roundtrip(timeout: timeout) } catch { throw RigError(error, compositor: "kwin") }
    }
}
