import Glibc
import ScrollwayCSystem
import ScrollwayCWaylandClient
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayViews
import ScrollwayWaylandProtocols

/// The seat's pointer: motion, buttons and axes grouped per wl_pointer.frame (empty frames are
/// fine), and its cursor.
@MainActor
final class WaylandPointer {
    unowned let input: WaylandInput
    let proxy: OpaquePointer
    private var pending: [InputEvent] = []
    private var position = Point.zero
    private var axisSource: AxisSource = .wheel
    private var value120: [UInt32: Double] = [:]
    /// Created on the first pointer enter; dropped (surface and theme) on release.
    private var cursor: Cursor?
    /// The serial of a pointer enter whose cursor is not shown yet.
    private var pendingCursorSerial: UInt32?
    /// The serial of the pointer's enter while it is over our surface (set_cursor needs it).
    private var enterSerial: UInt32?
    /// Whether the window wants no cursor (kiosks): `WaylandWindow.hidesCursor`.
    private var hidesCursor: Bool { input.connection.window?.hidesCursor ?? false }
    /// The theme the window's cursor comes from: `WaylandWindow.cursorTheme`.
    private var cursorTheme: CursorTheme { input.connection.window?.cursorTheme ?? .standard }
    /// The serial of the last button press (xdg_toplevel.move and resize need it).
    private(set) var lastButtonSerial: UInt32 = 0
    /// Ends a finger scroll whose axis_stop never comes (made with the window, on first use).
    private var stopWatchStorage: FingerScrollStopWatch?
    private var stopWatch: FingerScrollStopWatch? {
        if let watch = stopWatchStorage { return watch }
        guard let window = input.window else { return nil }
        let watch = FingerScrollStopWatch(window: window) { [weak self] stops in
            guard let self else { return }
            // Never dated before an event already delivered (compositor times run on their own).
            let t = max(self.input.lastEventTime, stops.first?.time ?? 0)
            self.input.deliver(stops.map { InputEvent(time: t, $0.kind) })
        }
        stopWatchStorage = watch
        return watch
    }

    /// Linux input event codes of the buttons we map (linux/input-event-codes.h).
    enum EvdevButton {
        static let left: UInt32 = 0x110
        static let right: UInt32 = 0x111
        static let middle: UInt32 = 0x112
    }

    init(input: WaylandInput, proxy: OpaquePointer) {
        self.input = input
        self.proxy = proxy
        wl_pointer_add_listener(proxy, Listeners.pointer, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Called while the connection is being torn down, too: touches nothing but its own objects
    /// (not the window, whose connection is going).
    func release() {
        stopWatchStorage = nil
        cursor = nil
        wl_pointer_release(proxy)
    }

    /// The pointer went away: a finger scroll in progress ends, and the pointer leaves.
    func unplugged() {
        stopWatch?.endNow(at: max(input.lastEventTime, sw_monotonic_seconds()))
        if enterSerial != nil { leave() }
        frame()
    }

    /// Whether a pointer enter's cursor waits for the window to be idle.
    var cursorPending: Bool { pendingCursorSerial != nil }

    /// The window's `hidesCursor` or `cursorTheme` changed: the cursor over it follows.
    func cursorVisibilityChanged() {
        guard let serial = enterSerial else { return }
        showCursor(serial: serial)
    }

    /// Shows the cursor for the enter with `serial`: none when the window hides it, else the
    /// theme's, at once when a theme file has it (one small file read), or once the window is
    /// idle when only libwayland-cursor's whole-theme load would give one (`allowFallback`,
    /// from `showPendingCursor`: a theme's every file, too long to block input for).
    private func showCursor(serial: UInt32, allowFallback: Bool = false) {
        pendingCursorSerial = nil
        if hidesCursor {
            // No cursor, at once: a null surface costs nothing to set.
            wl_pointer_set_cursor(proxy, serial, nil, 0, 0)
            return
        }
        if cursor == nil {
            let made = Cursor(connection: input.connection)
            made.scaleChanged = { [weak self] in self?.cursorVisibilityChanged() }
            cursor = made
        }
        if cursor?.set(pointer: proxy, serial: serial, theme: cursorTheme, allowFallback: allowFallback) != true {
            pendingCursorSerial = serial
        }
    }

    /// An output's scale changed, or an output was forgotten (`removing`): the cursor's scale may
    /// change with it.
    func outputsChanged(removing output: OpaquePointer? = nil) { cursor?.outputsChanged(removing: output) }

    /// The scale of the cursor shown, nil when none is (for tests).
    var cursorScale: Int? { cursor?.shownScale }

    /// Shows a cursor that waited for the window to be idle (libwayland-cursor's theme load).
    func showPendingCursor() {
        guard let serial = pendingCursorSerial else { return }
        showCursor(serial: serial, allowFallback: true)
    }

    func enter(serial: UInt32, x: wl_fixed_t, y: wl_fixed_t) {
        position = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        enterSerial = serial
        showCursor(serial: serial)
        pending.append(InputEvent(time: sw_monotonic_seconds(), .pointerEnter(position: position)))
    }

    func leave() {
        pendingCursorSerial = nil
        enterSerial = nil
        pending.append(InputEvent(time: sw_monotonic_seconds(), .pointerLeave))
    }

    func motion(time ms: UInt32, x: wl_fixed_t, y: wl_fixed_t) {
        position = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        pending.append(InputEvent(time: input.time(ms), .pointerMotion(position: position)))
    }

    func button(serial: UInt32, time ms: UInt32, button: UInt32, state: UInt32) {
        let pressed = state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue
        if pressed {
            lastButtonSerial = serial
            // A press on a client-side-decorated window's edge resizes it instead.
            if button == EvdevButton.left, let w = input.connection.window,
                w.startResizeIfOnEdge(at: position, serial: serial)
            {
                return
            }
        }
        let b: PointerButton
        switch button {
        case EvdevButton.left: b = .left
        case EvdevButton.right: b = .right
        case EvdevButton.middle: b = .middle
        default: return
        }
        if pressed { input.newGesture() }
        pending.append(InputEvent(time: input.time(ms), .pointerButton(b, pressed: pressed)))
    }

    func axisSource(_ source: UInt32) {
        switch source {
        case WL_POINTER_AXIS_SOURCE_FINGER.rawValue: axisSource = .finger
        case WL_POINTER_AXIS_SOURCE_CONTINUOUS.rawValue: axisSource = .continuous
        case WL_POINTER_AXIS_SOURCE_WHEEL_TILT.rawValue: axisSource = .wheelTilt
        default: axisSource = .wheel
        }
    }

    func axisDiscrete(axis: UInt32, value120 v: Int32) { value120[axis] = Double(v) }

    private static func axis(_ code: UInt32) -> Axis {
        code == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue ? .vertical : .horizontal
    }

    func axis(time ms: UInt32, axis: UInt32, value: wl_fixed_t) {
        let v120 = value120.removeValue(forKey: axis)
        pending.append(
            InputEvent(
                time: input.time(ms),
                .axis(Self.axis(axis), value: wl_fixed_to_double(value), source: axisSource, value120: v120)))
    }

    func axisStop(time ms: UInt32, axis: UInt32) {
        pending.append(InputEvent(time: input.time(ms), .axisStop(Self.axis(axis))))
    }

    /// wl_pointer.frame: the group is complete (empty frames are fine). A finger scroll's
    /// frame restarts the wait for its axis_stop.
    func frame() {
        let events = pending
        pending.removeAll()
        axisSource = .wheel
        input.deliver(events)
        stopWatch?.observe(events)
    }
}

/// The touchpad's pinch and hold (zwp_pointer_gestures_v1), bound to the seat's pointer.
@MainActor
final class WaylandPointerGestures {
    unowned let input: WaylandInput
    private let pinch: OpaquePointer?
    private let hold: OpaquePointer?

    convenience init(input: WaylandInput, manager: OpaquePointer, pointer: OpaquePointer, withHold: Bool) {
        self.init(
            input: input, pinch: zwp_pointer_gestures_v1_get_pinch_gesture(manager, pointer),
            hold: withHold ? zwp_pointer_gestures_v1_get_hold_gesture(manager, pointer) : nil)
    }

    /// With the gesture objects the compositor made (nil where it made none: events then come
    /// only from a caller, as in tests against a compositor that cannot inject them).
    init(input: WaylandInput, pinch: OpaquePointer?, hold: OpaquePointer?) {
        self.input = input
        self.pinch = pinch
        self.hold = hold
        let me = Unmanaged.passUnretained(self).toOpaque()
        if let pinch { zwp_pointer_gesture_pinch_v1_add_listener(pinch, Listeners.pinch, me) }
        if let hold { zwp_pointer_gesture_hold_v1_add_listener(hold, Listeners.hold, me) }
    }

    func release() {
        if let pinch { zwp_pointer_gesture_pinch_v1_destroy(pinch) }
        if let hold { zwp_pointer_gesture_hold_v1_destroy(hold) }
    }

    func pinchBegin(time ms: UInt32, fingers: UInt32) {
        input.newGesture()
        input.deliver([InputEvent(time: input.time(ms), .pinchBegin(fingers: Int(fingers)))])
    }

    /// `scale` is relative to the pinch's start; dx/dy are this update's centroid motion.
    func pinchUpdate(time ms: UInt32, dx: wl_fixed_t, dy: wl_fixed_t, scale: wl_fixed_t) {
        input.deliver([
            InputEvent(
                time: input.time(ms),
                .pinchUpdate(scale: wl_fixed_to_double(scale), dx: wl_fixed_to_double(dx), dy: wl_fixed_to_double(dy)))
        ])
    }

    func pinchEnd(time ms: UInt32, cancelled: Bool) {
        input.deliver([InputEvent(time: input.time(ms), .pinchEnd(cancelled: cancelled))])
    }

    /// Fingers resting on the touchpad: stops momentum.
    func holdBegin(time ms: UInt32, fingers: UInt32) {
        input.newGesture()
        input.deliver([InputEvent(time: input.time(ms), .holdBegin(fingers: Int(fingers)))])
    }

    func holdEnd(time ms: UInt32, cancelled: Bool) {
        input.deliver([InputEvent(time: input.time(ms), .holdEnd(cancelled: cancelled))])
    }
}
