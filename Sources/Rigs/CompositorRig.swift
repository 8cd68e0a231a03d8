import Foundation
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayWestonHarness

/// The compositors a rig can start headless, each as its users run it.
public enum Compositor: String, CaseIterable, Sendable, CustomStringConvertible {
    /// weston 10 with our test module (kiosk-shell, pixman): the reference rig.
    case weston
    /// sway 1.7 (wlroots 0.15): input through the virtual pointer and keyboard, text through a
    /// real input method (input-method-v2), pixels through screencopy.
    case sway
    /// mutter 43 headless (GNOME's compositor) on a virtual monitor, in a D-Bus session of its
    /// own: pointer and keys through its remote-desktop API over D-Bus. Its pixels (ScreenCast)
    /// need PipeWire, which the rig does not run.
    case mutter
    /// phoc 0.24 with squeekboard (the phone stack): wlroots' virtual pointer and keyboard and
    /// screencopy, and squeekboard as the input method, whose showing makes windows shorter.
    case phoc
    /// KWin 5.27 (KDE's compositor) on a virtual output, in a D-Bus session of its own: input
    /// through KDE's fake input, pixels through ScreenShot2 over D-Bus.
    case kwin

    public var description: String { rawValue }

    /// The executable that must be on $PATH.
    public var executable: String {
        switch self {
        case .weston: return "weston"
        case .sway: return "sway"
        case .mutter: return "mutter"
        case .phoc: return "phoc"
        case .kwin: return "kwin_wayland"
        }
    }

    /// Whether it can run here (its executable is installed).
    public var isInstalled: Bool { RigProcesses.findExecutable(executable) != nil }

    /// What installs it on Debian (`Scripts/install-deps.sh` runs the same).
    public var installCommand: String {
        switch self {
        case .weston: return "apt-get install weston"
        case .sway: return "apt-get install sway"
        case .mutter: return "apt-get install mutter dbus"
        case .phoc: return "apt-get install phoc squeekboard dbus"
        case .kwin: return "apt-get install kwin-wayland dbus"
        }
    }

    /// What a rig of this compositor can do (a rig may offer less: sway without an input method).
    public var features: Set<RigFeature> {
        switch self {
        case .weston:
            return [
                .pointer, .keyboard, .capture, .cursorFreeCaptures, .presentationFeedback, .touch,
                .axisSources, .inputMethod,
                .textInputState,
                .idleInhibitorCount, .resizeFocused, .keyTimestamps,
            ]
        case .sway:
            return [
                .pointer, .keyboard, .capture, .cursorFreeCaptures, .axisSources, .inputMethod, .textInputState,
                .idleInhibitorCount,
                .replugKeyboard, .replugPointer, .keyTimestamps, .focusReturns,
            ]
        case .mutter:
            return [
                .pointer, .keyboard, .presentationFeedback, .value120, .axisSources, .replugKeyboard, .focusReturns,
            ]
        case .phoc:
            return [
                .pointer, .keyboard, .capture, .axisSources, .replugKeyboard, .replugPointer, .keyTimestamps,
                .screenKeyboard, .focusReturns,
                .inputMethod, .textInputState,
            ]
        case .kwin:
            return [
                .pointer, .keyboard, .capture, .cursorFreeCaptures, .touch, .replugKeyboard, .replugPointer,
                .focusReturns, .fractionalScale,
            ]
        }
    }

    /// Why `feature` is missing from this compositor's rig, naming the compositor (nil if offered).
    public func missing(_ feature: RigFeature) -> String? {
        guard !features.contains(feature) else { return nil }
        switch (self, feature) {
        case (.weston, .replugKeyboard), (.weston, .replugPointer):
            return "replugging devices is not offered by weston's rig: weston keeps a seat's old devices alive"
        case (.mutter, .replugPointer):
            return "replugging the pointer is not offered by mutter's rig: the pointer of a second remote-desktop "
                + "session reaches no client in mutter 43 (its keyboard does)"
        case (.weston, .focusReturns):
            return
                "a closed window giving the keyboard back is not offered by weston 10's kiosk-shell: it gives it to no one"
        case (.sway, .presentationFeedback), (.phoc, .presentationFeedback):
            return "presentation feedback is not given by \(self)'s headless output: wlroots 0.15 neither "
                + "presents nor discards it (a window's stays pending)"
        case (.kwin, .presentationFeedback):
            return "presentation feedback is not offered by KWin 5.27: it has no wp_presentation"
        case (.phoc, .cursorFreeCaptures):
            return "captures without phoc's own cursor are not offered by phoc: its headless output can keep "
                + "an arrow where its pointer was, even with the rig's blank cursor theme"
        case (.sway, .touch): return "touch is not offered by sway: wlroots 0.15 has no virtual touch device"
        case (.phoc, .touch): return "touch is not offered by phoc: wlroots has no virtual touch device"
        case (.phoc, .idleInhibitorCount), (.mutter, .idleInhibitorCount):
            return "idle inhibition is not offered by \(self): it has no zwp_idle_inhibit_manager_v1"
        case (.sway, .value120): return "value120 is not offered by sway 1.7: its wl_seat is version 7"
        case (.weston, .value120):
            return "value120 is not offered by weston 10: its wl_seat is version 7 (clients get whole detents as "
                + "axis_discrete)"
        case (.weston, .partialDetents), (.sway, .partialDetents), (.phoc, .partialDetents):
            let name = self == .weston ? "weston 10" : self == .sway ? "sway 1.7" : "phoc 0.24"
            return "a wheel between whole detents is not offered by \(name): its wl_seat is version 7, whose clients "
                + "get whole detents only (axis_discrete)"
        case (.mutter, .partialDetents):
            return "a wheel between whole detents is not offered by mutter's rig: its remote-desktop API takes "
                + "whole wheel steps"
        case (.sway, .resizeFocused): return "configuring a window to a size is not offered by sway's rig"
        case (.mutter, .touch):
            return "touch is not offered by mutter's rig: remote-desktop touch points need a ScreenCast stream, "
                + "and so a PipeWire daemon, which the rig does not run"
        case (.mutter, .keyTimestamps):
            return "keyTimestamps is not offered by mutter's rig: remote-desktop events carry no time, mutter "
                + "stamps them"
        case (.mutter, .capture):
            return "capture is not offered by mutter's rig: mutter shows its output only through "
                + "org.gnome.Mutter.ScreenCast and PipeWire, which the rig does not run"
        case (.kwin, .value120), (.kwin, .axisSources), (.kwin, .partialDetents):
            return "\(feature.rawValue) is not offered by KWin's rig: its fake input passes an axis on as a plain "
                + "value, with no source, steps or stop"
        case (.kwin, .keyTimestamps):
            return "keyTimestamps is not offered by KWin's rig: fake input events carry no time, KWin stamps them"
        case (.kwin, .inputMethod), (.kwin, .textInputState):
            return "an input method is not offered by KWin's rig: KWin takes one only as a program it starts "
                + "itself (--inputmethod), over input-method-v1"
        case (.kwin, .idleInhibitorCount):
            return "idle inhibition is not offered by KWin's rig: KWin tells no one how many inhibitors it holds"
        case (.mutter, .inputMethod), (.mutter, .textInputState):
            return "an input method is not offered by mutter's rig: mutter relays text input to its own (IBus)"
        case (_, .fractionalScale):
            return "a fractional scale is not offered by \(self): it has no wp_fractional_scale_manager_v1"
        default: return "\(feature.rawValue) is not offered by \(self)"
        }
    }

    /// Starts this compositor headless at `width`×`height` logical pixels and `scale` (a
    /// fraction only where `.fractionalScale` is offered), with a
    /// real on-screen keyboard where it has one and `screenKeyboard` asks for it (phoc's
    /// squeekboard; without it, the rig's own input method).
    public func start(
        width: Int = 800, height: Int = 600, scale: Double = 1, screenKeyboard: Bool = false
    ) throws
        -> any CompositorRig
    {
        guard isInstalled else { throw RigError.compositorNotFound(name: rawValue, install: installCommand) }
        guard scale > 0, scale == scale.rounded() || features.contains(.fractionalScale) else {
            throw RigError.notOffered(missing(.fractionalScale) ?? "a scale of \(scale) is not one")
        }
        let whole = Int(clamping: scale, rounding: .toNearestOrAwayFromZero)
        switch self {
        case .weston: return try WestonRig(width: width, height: height, scale: whole)
        case .sway: return try SwayRig(width: width, height: height, scale: whole)
        case .mutter: return try MutterRig(width: width, height: height, scale: whole)
        case .phoc: return try PhocRig(width: width, height: height, scale: whole, screenKeyboard: screenKeyboard)
        case .kwin: return try KWinRig(width: width, height: height, scale: scale)
        }
    }
}

/// What a rig can do. A test of something a rig does not offer says so ("touch is not offered by
/// sway: …") instead of passing silently.
public enum RigFeature: String, CaseIterable, Sendable {
    /// Pointer motion, buttons and the wheel.
    case pointer
    /// Keys, and text typed key by key.
    case keyboard
    /// Captures of the output.
    case capture
    /// Captures never show the compositor's own cursor, so a cursor in one is the client's.
    case cursorFreeCaptures
    /// The compositor says when a window's frames were shown (wp_presentation feedback).
    case presentationFeedback
    /// Touch points (wl_touch).
    case touch
    /// Wheel clicks carry value120 to clients (wl_seat 8).
    case value120
    /// A wheel event between whole detents (a `value120` that is not a multiple of 120, as
    /// high-resolution wheels send) reaches clients as written. No rig offers it: each is named
    /// with why (`Compositor.missing`), and a script with one is refused.
    case partialDetents
    /// Wheel clicks and finger scrolls arrive as such: the axis source, discrete steps (or
    /// value120), and the finger's stop.
    case axisSources
    /// The input method's preedit, commit and deletion reach the focused client's text input.
    case inputMethod
    /// The compositor's view of the focused client's text input (enabled, surrounding text,
    /// content type) can be read.
    case textInputState
    /// The output can have a fractional scale (1.5), which clients learn through
    /// wp_fractional_scale_v1.
    case fractionalScale
    /// The number of idle inhibitors in effect can be read.
    case idleInhibitorCount
    /// The focused window can be configured to a size (a shell making room).
    case resizeFocused
    /// The seat's keyboard can be unplugged and plugged in again (the seat loses the capability
    /// and gets it back).
    case replugKeyboard
    /// The same for the pointer.
    case replugPointer
    /// Key events can carry any timestamp, 0 included.
    case keyTimestamps
    /// A window that closes gives the keyboard back to the one it took it from.
    case focusReturns
    /// A real on-screen keyboard shows for a focused field (squeekboard on phoc).
    case screenKeyboard
}

/// One headless compositor with a way in (seat input) and a way out (captures), whatever the
/// compositor: the conformance suite, `scrollway rig --compositor` and the replay layer's
/// `CompositorTarget` work on this.
public protocol CompositorRig: AnyObject {
    var compositor: Compositor { get }
    /// WAYLAND_DISPLAY for clients: the socket's absolute path.
    var socketPath: String { get }
    /// The environment a client needs to connect.
    var clientEnvironment: [String: String] { get }
    /// Paces injected input in real time.
    var pacer: RealTimePacer { get }
    /// The seat's keymap, to find keys by keysym.
    var keys: KeyCodes { get }
    /// Where input goes in.
    var seat: any SeatInput { get }
    /// What this rig can do beyond the common ground.
    var features: Set<RigFeature> { get }
    /// The output's size in logical pixels and its scale.
    var output: (width: Int, height: Int, scale: Double) { get }
    /// Why `feature` is missing here, in a sentence that names the compositor (nil if offered).
    func missing(_ feature: RigFeature) -> String?
    /// What the output shows now (its next repaint), without a cursor.
    func capture() throws -> Canvas
    /// Takes the pointer off the client's surfaces where the compositor can (so no hover or
    /// cursor is left behind).
    func parkPointer() throws
    /// The compositor's view of the focused client's text input (`.textInputState`).
    var textInput: TextInputSnapshot? { get }
    /// Every text-input state the compositor saw committed, oldest first (`.textInputState`).
    var textInputHistory: [TextInputSnapshot] { get }
    /// Idle inhibitors in effect (`.idleInhibitorCount`).
    func idleInhibitors() throws -> Int
    /// Starts a client of this compositor; it is killed when the rig stops.
    @discardableResult
    func launchClient(
        _ executable: String, arguments: [String], environment: [String: String], to destination: RigClientOutput
    ) throws -> Process
    /// Unplugs a device of the seat and plugs it in again: the seat loses the capability and
    /// gets it back, as a USB keyboard replugged (`.replugKeyboard`, `.replugPointer`).
    func replug(_ device: SeatDevice) throws
    /// Ends the compositor and its clients. Safe to call more than once.
    func stop()
}

/// A seat device a rig can unplug and plug in again.
public enum SeatDevice: Sendable {
    case keyboard, pointer

    /// The rig feature replugging it needs.
    public var feature: RigFeature { self == .keyboard ? .replugKeyboard : .replugPointer }
}

extension CompositorRig {
    public var features: Set<RigFeature> { compositor.features }

    public func missing(_ feature: RigFeature) -> String? {
        guard !features.contains(feature) else { return nil }
        return compositor.missing(feature) ?? "\(feature.rawValue) is not offered by this \(compositor) rig"
    }

    public func replug(_ device: SeatDevice) throws { try require(device.feature) }

    /// Throws `RigError.notOffered` unless this rig has `feature`.
    public func require(_ feature: RigFeature) throws {
        if let why = missing(feature) { throw RigError.notOffered(why) }
    }
}

/// Seat input as the rigs take it: times in ms, coordinates in global logical pixels, buttons
/// and keys as evdev codes, and the input method's text.
public protocol SeatInput: AnyObject {
    func pointerMotion(x: Double, y: Double, time: UInt32)
    func pointerButton(_ button: UInt32, pressed: Bool, time: UInt32)
    /// wl_pointer's axis source: 0 wheel, 1 finger, 2 continuous, 3 wheel tilt.
    func axisSource(_ source: UInt32)
    func axis(_ axis: UInt32, value: Double, discrete: Int32, value120: Int32, time: UInt32)
    func axisStop(_ axis: UInt32, time: UInt32)
    func pointerFrame()
    func touchDown(id: Int32, x: Double, y: Double, time: UInt32)
    func touchMotion(id: Int32, x: Double, y: Double, time: UInt32)
    func touchUp(id: Int32, time: UInt32)
    func touchFrame()
    func touchCancel()
    func key(_ key: UInt32, pressed: Bool, time: UInt32)
    func textInputPreedit(_ text: String, cursor: ClosedRange<Int>?)
    func textInputCommit(_ text: String)
    func textInputDeleteSurrounding(before: Int, after: Int)
    /// Ends one input-method update (what was set since goes out together).
    func textInputDone()
    /// Sends what is queued.
    func flush() throws
    /// Returns once the compositor has handled everything sent.
    func roundtrip() throws
    /// Whether `roundtrip` returning also means the compositor has sent clients all the input
    /// it made of what was sent. mutter's does not: it takes remote-desktop input on its input
    /// thread and hands the events to clients from its main loop later, after a roundtrip
    /// may have been answered. A client in this process can then wait for a key of its own
    /// played after the input (`CompositorTarget.awaitDelivery`).
    var roundtripDelivers: Bool { get }
}

extension SeatInput {
    public var roundtripDelivers: Bool { true }
}
