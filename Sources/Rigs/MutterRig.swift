import Foundation
import ScrollwayCWaylandClient
import ScrollwayDBus
import ScrollwayRaster
import ScrollwayWaylandCore
import ScrollwayWestonHarness

/// mutter 43 headless as a rig: `mutter --headless --wayland --no-x11 --virtual-monitor WxH` in a
/// D-Bus session of its own (`SessionCompositor`), input through its remote-desktop API
/// (`org.gnome.Mutter.RemoteDesktop`, `MutterSeat`).
///
/// What it shows beyond the input: mutter sends configure_bounds (xdg_wm_base 4) and offers no
/// xdg-decoration. Not offered: captures and touch, which need a ScreenCast stream and so a
/// PipeWire daemon the rig does not run; event times (mutter stamps them); an input method
/// (mutter relays text input to IBus).
public final class MutterRig: SessionRig {
    public let session: SessionCompositor
    public let pacer = RealTimePacer()
    public let keys: KeyCodes
    private let width: Int
    private let height: Int
    private let scale: Int
    private let control: MutterSeat

    public init(width: Int = 800, height: Int = 600, scale: Int = 1, startupTimeout: Double = 15) throws {
        _ = try Compositor.mutter.requireTools(["mutter", "dbus-run-session"])
        self.width = width
        self.height = height
        self.scale = scale
        keys = try KeyCodes(.us)
        session = try SessionCompositor(
            name: "mutter", directoryPrefix: "scrollway-mutter-",
            command: { _ in
                "mutter --headless --wayland --no-x11 --virtual-monitor \(width * scale)x\(height * scale) "
                    + "--wayland-display=wayland-mutter"
            },
            environment: { _ in ["GSETTINGS_BACKEND": "memory"] }, socketPrefix: "wayland-mutter",
            startupTimeout: startupTimeout)
        do {
            control = try MutterSeat(
                bus: try DBusConnection(address: try session.busAddress), socketPath: session.socketPath,
                output: (width, height))
        } catch {
            session.stop()
            throw error
        }
    }

    deinit { stop() }

    public var compositor: Compositor { .mutter }
    public var seat: any SeatInput { control }
    public var output: (width: Int, height: Int, scale: Double) { (width, height, Double(scale)) }
    public var textInput: TextInputSnapshot? { nil }
    public var textInputHistory: [TextInputSnapshot] { [] }

    public func capture() throws -> Canvas { throw RigError.notOffered(compositor.missing(.capture)!) }
    /// Moves the pointer to the output's last pixel: mutter's remote-desktop pointer cannot
    /// leave the output, and the scenarios look at nothing there.
    public func parkPointer() throws {
        control.pointerMotion(x: Double(width) - 1, y: Double(height) - 1, time: 0)
        try control.roundtrip()
    }

    /// Ends the remote-desktop session (mutter removes its virtual devices: the seat loses its
    /// pointer and keyboard) and starts another, whose devices come with their first events.
    /// Only the keyboard: the new session's pointer reaches no client (mutter 43, seen here).
    public func replug(_ device: SeatDevice) throws {
        try require(device.feature)
        try control.replug()
    }
    public func idleInhibitors() throws -> Int { throw RigError.notOffered(compositor.missing(.idleInhibitorCount)!) }
}

/// Input through mutter's remote-desktop API: one session (`CreateSession`, `Start`) whose
/// virtual pointer and keyboard mutter makes on their first events. The calls return once mutter
/// has taken the event; a Wayland roundtrip after them lets it reach clients.
///
/// - Pointer positions: absolute motion needs a ScreenCast stream (and PipeWire), so the seat
///   moves relatively from a known place: a new session pushes the pointer into the output's
///   top-left corner, where mutter stops it.
/// - mutter makes each virtual device on its first event, and that event is lost to clients
///   (they ask for the device only then): a new session makes both with events that change
///   nothing, a Shift tap and the push into the corner.
/// - Wheel clicks go as discrete steps (`NotifyPointerAxisDiscrete`: value120 to clients on
///   wl_seat 8), finger and continuous scrolls as values with their source, and an axis stop as
///   the finish flag, which mutter 43 passes on without an axis_stop.
final class MutterSeat: SeatInput {
    private let bus: DBusConnection
    private let core: WaylandDisplay
    private let output: (width: Int, height: Int)
    private var session: String?
    /// Where the pointer is: the top-left corner when a session starts.
    private var position: (x: Double, y: Double) = (0, 0)
    private var source: UInt32 = 0
    /// A D-Bus call that failed (a SeatInput call cannot throw): reported by the next roundtrip.
    private var failure: Error?

    init(bus: DBusConnection, socketPath: String, output: (width: Int, height: Int)) throws {
        self.bus = bus
        self.output = output
        do {
            core = try WaylandDisplay(socket: socketPath)
            try core.roundtrip(timeout: 10)
        } catch {
            throw RigError.connectionLost("cannot connect to mutter: \(RigError(error, compositor: "mutter"))")
        }
        try startSession()
    }

    deinit { try? stopSession() }

    private func startSession() throws {
        let named = bus.poll(for: 10) { bus in
            (try? bus.call(
                "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "NameHasOwner", arguments: [.string("org.gnome.Mutter.RemoteDesktop")])) == [.bool(true)]
        }
        guard named else {
            throw RigError.startupFailed(reason: "mutter took no org.gnome.Mutter.RemoteDesktop within 10 s", log: "")
        }
        do {
            let reply = try bus.call(
                "org.gnome.Mutter.RemoteDesktop", path: "/org/gnome/Mutter/RemoteDesktop",
                interface: "org.gnome.Mutter.RemoteDesktop", member: "CreateSession")
            guard let path = reply.first?.stringValue else {
                throw RigError.system("mutter's CreateSession returned \(reply)")
            }
            session = path
            try call("Start")
            // mutter makes each virtual device on its first event and the client asks for it
            // only then, so that event itself is lost: a Shift tap makes the keyboard now.
            try call("NotifyKeyboardKeycode", [.uint32(Self.leftShift), .bool(true)])
            try call("NotifyKeyboardKeycode", [.uint32(Self.leftShift), .bool(false)])
            // The pointer likewise, pushed into the output's top-left corner, one axis at a
            // time (mutter keeps it on the output): from there the seat knows where it is.
            let far = Double(10 * max(output.width, output.height))
            try call("NotifyPointerMotionRelative", [.double(-far), .double(0)])
            try call("NotifyPointerMotionRelative", [.double(0), .double(-far)])
        } catch let error as DBusError {
            throw RigError.startupFailed(reason: "mutter's remote desktop: \(error)", log: "")
        }
        position = (0, 0)
    }

    /// KEY_LEFTSHIFT: a key whose tap changes nothing.
    private static let leftShift: UInt32 = 42

    private func stopSession() throws {
        guard session != nil else { return }
        defer { session = nil }
        try call("Stop")
    }

    /// Ends the session and starts another (see `MutterRig.replug`).
    func replug() throws {
        try stopSession()
        try roundtrip()
        try startSession()
    }

    private func call(_ member: String, _ arguments: [DBusValue] = []) throws {
        guard let session else { throw RigError.connectionLost("mutter: no remote-desktop session") }
        try bus.call(
            "org.gnome.Mutter.RemoteDesktop", path: session, interface: "org.gnome.Mutter.RemoteDesktop.Session",
            member: member, arguments: arguments)
    }

    /// Sends one event, keeping the first failure for the next roundtrip to throw.
    private func send(_ member: String, _ arguments: [DBusValue]) {
        guard failure == nil else { return }
        do { try call(member, arguments) } catch { failure = error }
    }

    func pointerMotion(x: Double, y: Double, time: UInt32) {
        let target = (x: min(max(x, 0), Double(output.width) - 1), y: min(max(y, 0), Double(output.height) - 1))
        let from = position
        send("NotifyPointerMotionRelative", [.double(target.x - from.x), .double(target.y - from.y)])
        position = target
    }

    func pointerButton(_ button: UInt32, pressed: Bool, time: UInt32) {
        send("NotifyPointerButton", [.int32(Int32(bitPattern: button)), .bool(pressed)])
    }

    func axisSource(_ source: UInt32) { self.source = source }

    func axis(_ axis: UInt32, value: Double, discrete: Int32, value120: Int32, time: UInt32) {
        let steps = discrete != 0 ? discrete : value120 / 120
        if source == 0, steps != 0 {
            send("NotifyPointerAxisDiscrete", [.uint32(axis), .int32(steps)])
        } else {
            let (dx, dy) = axis == 0 ? (0, value) : (value, 0)
            send("NotifyPointerAxis", [.double(dx), .double(dy), .uint32(Self.sourceFlag(source))])
        }
    }

    func axisStop(_ axis: UInt32, time: UInt32) {
        // The finish flag (1) with the source: mutter's way to say the scroll stopped.
        send("NotifyPointerAxis", [.double(0), .double(0), .uint32(1 | Self.sourceFlag(source))])
    }

    /// wl_pointer's axis source as mutter's flag: wheel 2, finger 4, continuous 8.
    private static func sourceFlag(_ source: UInt32) -> UInt32 {
        switch source {
        case 1: return 4
        case 2: return 8
        default: return 2
        }
    }

    func pointerFrame() { source = 0 }

    func touchDown(id: Int32, x: Double, y: Double, time: UInt32) {}
    func touchMotion(id: Int32, x: Double, y: Double, time: UInt32) {}
    func touchUp(id: Int32, time: UInt32) {}
    func touchFrame() {}
    func touchCancel() {}

    func key(_ key: UInt32, pressed: Bool, time: UInt32) {
        send("NotifyKeyboardKeycode", [.uint32(key), .bool(pressed)])
    }

    func textInputPreedit(_ text: String, cursor: ClosedRange<Int>?) {}
    func textInputCommit(_ text: String) {}
    func textInputDeleteSurrounding(before: Int, after: Int) {}
    func textInputDone() {}

    func flush() throws {
        if let failure { throw RigError.connectionLost("mutter: \(failure)") }
        do { try core.flush() } catch { throw RigError(error, compositor: "mutter") }
    }

    /// mutter's input thread hands the events to clients when it gets to them, which on a
    /// loaded machine can be after both roundtrips (`CompositorTarget.awaitDelivery`).
    var roundtripDelivers: Bool { false }

    /// Two Wayland roundtrips: mutter takes remote-desktop events on its input thread and hands
    /// them to its main loop, which sends them to clients; the first sync usually queues behind
    /// them, not always (`roundtripDelivers`).
    func roundtrip() throws {
        if let failure {
            self.failure = nil
            throw RigError.connectionLost("mutter: \(failure)")
        }
        do {
            try core.roundtrip(timeout: 10)
            try core.roundtrip(timeout: 10)
        } catch { throw RigError(error, compositor: "mutter") }
    }
}
