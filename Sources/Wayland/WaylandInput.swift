import CWaylandClient
import CXKBCommon
import Geometry
import Gestures
import Glibc
import Views
import WaylandProtocols

/// The seat's pointer, touch and keyboard, turned into the engine's InputEvents.
///
/// Pointer events are grouped per wl_pointer.frame and touch events per wl_touch.frame; the last
/// touch up also ends a group, because weston 10 sends no frame after it. Timestamps are moved
/// onto the platform's monotonic clock: the offset is fixed when a gesture starts, so the
/// spacing between a gesture's events is exactly the compositor's.
public final class WaylandInput {
    unowned let connection: WaylandConnection
    private var pointer: OpaquePointer?
    private var touch: OpaquePointer?
    private var keyboard: OpaquePointer?
    private var pinchGesture: OpaquePointer?
    private var holdGesture: OpaquePointer?
    private var pendingPointer: [InputEvent] = []
    private var pendingTouch: [InputEvent] = []
    private var touchesDown: Set<Int32> = []
    private var pointerPosition = Point.zero
    private var axisSource: AxisSource = .wheel
    private var value120: [UInt32: Double] = [:]
    private var clockOffset: Double?
    private var lastEventTime = -Double.infinity
    // Keyboard
    private var xkbContext: OpaquePointer?
    private var keymap: OpaquePointer?
    private var xkbState: OpaquePointer?
    private var repeatRate: Int32 = 25
    private var repeatDelay: Int32 = 600
    private var repeatTimer: TimerToken?
    /// Created on the first pointer enter; dropped (surface and theme) on release.
    private var cursor: Cursor?
    /// The serial of a pointer enter whose cursor is not shown yet.
    private var pendingCursorSerial: UInt32?

    /// Shows the cursor a pointer enter asked for, once the window is idle (it has shown a frame
    /// and nothing animates).
    func showPendingCursor(windowIsIdle: Bool) {
        guard windowIsIdle, let serial = pendingCursorSerial else { return }
        pendingCursorSerial = nil
        if cursor == nil { cursor = Cursor(connection: connection) }
        cursor?.set(pointer: pointer, serial: serial)
    }

    init(connection: WaylandConnection) { self.connection = connection }

    func release() {
        cursor = nil
        if let pinchGesture { zwp_pointer_gesture_pinch_v1_destroy(pinchGesture) }
        if let holdGesture { zwp_pointer_gesture_hold_v1_destroy(holdGesture) }
        pinchGesture = nil
        holdGesture = nil
        if let pointer { wl_pointer_release(pointer) }
        if let touch { wl_touch_release(touch) }
        if let keyboard { wl_keyboard_release(keyboard) }
        pointer = nil
        touch = nil
        keyboard = nil
        if let xkbState { xkb_state_unref(xkbState) }
        if let keymap { xkb_keymap_unref(keymap) }
        if let xkbContext { xkb_context_unref(xkbContext) }
        xkbState = nil
        keymap = nil
        xkbContext = nil
    }

    private var window: Window? { connection.window?.content }

    func capabilities(_ caps: UInt32) {
        let me = connection.selfPointer
        let seat = connection.seat
        if caps & WL_SEAT_CAPABILITY_POINTER.rawValue != 0, pointer == nil {
            pointer = wl_seat_get_pointer(seat)
            wl_pointer_add_listener(pointer, Listeners.pointer, me)
            if let gestures = connection.pointerGestures {
                pinchGesture = zwp_pointer_gestures_v1_get_pinch_gesture(gestures, pointer)
                zwp_pointer_gesture_pinch_v1_add_listener(pinchGesture, Listeners.pinch, me)
                if connection.boundVersion("zwp_pointer_gestures_v1") ?? 1 >= 3 {
                    holdGesture = zwp_pointer_gestures_v1_get_hold_gesture(gestures, pointer)
                    zwp_pointer_gesture_hold_v1_add_listener(holdGesture, Listeners.hold, me)
                }
            }
        }
        if caps & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0, touch == nil {
            touch = wl_seat_get_touch(seat)
            wl_touch_add_listener(touch, Listeners.touch, me)
        }
        if caps & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0, keyboard == nil {
            keyboard = wl_seat_get_keyboard(seat)
            wl_keyboard_add_listener(keyboard, Listeners.keyboard, me)
        }
    }

    /// A compositor timestamp (ms) on the platform clock (s). The compositor's spacing between
    /// events is kept exactly (release velocities depend on it); delivery jitter may put an
    /// event up to `maxLead` ahead of now, but a timestamp further in the future (or far back:
    /// another clock) re-bases the offset at now.
    func time(_ ms: UInt32) -> Double {
        let t = Double(ms) / 1000
        let now = sw_monotonic_seconds()
        if clockOffset == nil || t + clockOffset! > now + Self.maxLead || t + clockOffset! < lastEventTime - 1 {
            clockOffset = now - t
        }
        let mapped = max(lastEventTime, t + clockOffset!)
        lastEventTime = mapped
        return mapped
    }

    /// How far ahead of now jittery delivery may place an event before the offset re-bases.
    static let maxLead = 0.050

    /// Starts a new gesture's clock offset (between gestures the compositor's base may differ).
    private func newGesture() { clockOffset = nil }

    private func deliver(_ events: [InputEvent]) {
        guard let window else { return }
        for e in events { window.handle(e) }
    }

    // MARK: Pointer

    func pointerEnter(serial: UInt32, surface: OpaquePointer?, x: wl_fixed_t, y: wl_fixed_t) {
        pointerPosition = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        // Loading a cursor theme reads every cursor of it (about 0.2 s of files): not before
        // the window's first frame nor during an animation (`showPendingCursor`, from the loop).
        pendingCursorSerial = serial
        pendingPointer.append(InputEvent(time: sw_monotonic_seconds(), .pointerEnter(position: pointerPosition)))
    }

    func pointerLeave() {
        pendingCursorSerial = nil
        pendingPointer.append(InputEvent(time: sw_monotonic_seconds(), .pointerLeave))
    }

    func pointerMotion(time ms: UInt32, x: wl_fixed_t, y: wl_fixed_t) {
        pointerPosition = Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
        pendingPointer.append(InputEvent(time: time(ms), .pointerMotion(position: pointerPosition)))
    }

    /// The serial of the last button press (xdg_toplevel.move and resize need it).
    private(set) var lastButtonSerial: UInt32 = 0

    func pointerButton(serial: UInt32, time ms: UInt32, button: UInt32, state: UInt32) {
        if state == 1 {
            lastButtonSerial = serial
            // A press on a client-side-decorated window's edge resizes it instead.
            if button == 0x110, let w = connection.window, w.startResizeIfOnEdge(at: pointerPosition, serial: serial) {
                return
            }
        }
        let b: PointerButton
        switch button {
        case 0x110: b = .left
        case 0x111: b = .right
        case 0x112: b = .middle
        default: return
        }
        if state == 1 { newGesture() }
        pendingPointer.append(InputEvent(time: time(ms), .pointerButton(b, pressed: state == 1)))
    }

    func axisSource(_ source: UInt32) {
        switch source {
        case 1: axisSource = .finger
        case 2: axisSource = .continuous
        case 3: axisSource = .wheelTilt
        default: axisSource = .wheel
        }
    }

    func axisDiscrete(axis: UInt32, value120 v: Int32) { value120[axis] = Double(v) }

    func axis(time ms: UInt32, axis: UInt32, value: wl_fixed_t) {
        let a: Axis = axis == 0 ? .vertical : .horizontal
        let v120 = value120.removeValue(forKey: axis)
        pendingPointer.append(
            InputEvent(time: time(ms), .axis(a, value: wl_fixed_to_double(value), source: axisSource, value120: v120)))
    }

    func axisStop(time ms: UInt32, axis: UInt32) {
        pendingPointer.append(InputEvent(time: time(ms), .axisStop(axis == 0 ? .vertical : .horizontal)))
    }

    /// wl_pointer.frame: the group is complete (empty frames are fine).
    func pointerFrame() {
        let events = pendingPointer
        pendingPointer.removeAll()
        axisSource = .wheel
        deliver(events)
    }

    // MARK: Pointer gestures (touchpad pinch and hold)

    func pinchBegin(time ms: UInt32, fingers: UInt32) {
        newGesture()
        deliver([InputEvent(time: time(ms), .pinchBegin(fingers: Int(fingers)))])
    }

    /// `scale` is relative to the pinch's start; dx/dy are this update's centroid motion.
    func pinchUpdate(time ms: UInt32, dx: wl_fixed_t, dy: wl_fixed_t, scale: wl_fixed_t) {
        deliver([
            InputEvent(
                time: time(ms),
                .pinchUpdate(scale: wl_fixed_to_double(scale), dx: wl_fixed_to_double(dx), dy: wl_fixed_to_double(dy)))
        ])
    }

    func pinchEnd(time ms: UInt32, cancelled: Bool) {
        deliver([InputEvent(time: time(ms), .pinchEnd(cancelled: cancelled))])
    }

    /// Fingers resting on the touchpad: stops momentum.
    func holdBegin(time ms: UInt32, fingers: UInt32) {
        newGesture()
        deliver([InputEvent(time: time(ms), .holdBegin(fingers: Int(fingers)))])
    }

    func holdEnd(time ms: UInt32, cancelled: Bool) {
        deliver([InputEvent(time: time(ms), .holdEnd(cancelled: cancelled))])
    }

    // MARK: Touch

    func touchDown(time ms: UInt32, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        if touchesDown.isEmpty { newGesture() }
        touchesDown.insert(id)
        pendingTouch.append(
            InputEvent(
                time: time(ms),
                .touchDown(id: Int(id), position: Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))))
    }

    func touchMotion(time ms: UInt32, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        pendingTouch.append(
            InputEvent(
                time: time(ms),
                .touchMotion(id: Int(id), position: Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))))
    }

    func touchUp(time ms: UInt32, id: Int32) {
        touchesDown.remove(id)
        pendingTouch.append(InputEvent(time: time(ms), .touchUp(id: Int(id))))
        // weston 10 sends no wl_touch.frame after the last up: that up ends the group.
        if touchesDown.isEmpty { touchFrame() }
    }

    func touchFrame() {
        let events = pendingTouch
        pendingTouch.removeAll()
        deliver(events)
    }

    func touchCancel() {
        pendingTouch.removeAll()
        touchesDown.removeAll()
        deliver([InputEvent(time: max(lastEventTime, sw_monotonic_seconds()), .touchCancel)])
    }

    // MARK: Keyboard

    /// The keymap arrives as a file descriptor: mapped read-only, its size checked first.
    func keymap(format: UInt32, fd: Int32, size: UInt32) {
        defer { close(fd) }
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue else { return }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size >= off_t(size), size > 0 else {
            connection.fail(WaylandError.keymap("the keymap fd holds \(st.st_size) bytes, the compositor said \(size)"))
            return
        }
        guard let map = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else {
            connection.fail(WaylandError.keymap("cannot map the keymap: \(String(cString: strerror(errno)))"))
            return
        }
        defer { munmap(map, Int(size)) }
        if xkbContext == nil { xkbContext = xkb_context_new(XKB_CONTEXT_NO_FLAGS) }
        // The string is NUL-terminated within `size` (the protocol says so); bound it anyway.
        let text = String(
            decoding: UnsafeRawBufferPointer(start: map, count: Int(size)).prefix { $0 != 0 }, as: UTF8.self)
        guard
            let km = xkb_keymap_new_from_string(
                xkbContext, text, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        else {
            connection.fail(WaylandError.keymap("xkbcommon cannot compile the compositor's keymap"))
            return
        }
        if let xkbState { xkb_state_unref(xkbState) }
        if let keymap { xkb_keymap_unref(keymap) }
        keymap = km
        xkbState = xkb_state_new(km)
    }

    func keyboardEnter() {}

    func keyboardLeave() {
        window?.cancelTimer(repeatTimer)
        repeatTimer = nil
        // Keys held elsewhere are not ours: no Ctrl stays down for the next wheel. The xkb state
        // forgets them too, so that modifiers still held when focus returns (sent right after
        // enter) count as a change and reach the window.
        if let xkbState { xkb_state_update_mask(xkbState, 0, 0, 0, 0, 0, 0) }
        deliver([InputEvent(time: sw_monotonic_seconds(), .modifiers([]))])
    }

    /// The compositor's modifier state, sent after the key that changed it: the window hears of
    /// it at once, so a wheel turned while Ctrl is held zooms.
    func modifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        guard let xkbState else { return }
        let before = currentModifiers
        xkb_state_update_mask(xkbState, depressed, latched, locked, 0, 0, group)
        let now = currentModifiers
        if now != before { deliver([InputEvent(time: sw_monotonic_seconds(), .modifiers(now))]) }
    }

    func repeatInfo(rate: Int32, delay: Int32) {
        repeatRate = rate
        repeatDelay = delay
    }

    var currentModifiers: Modifiers {
        guard let xkbState else { return [] }
        var m: Modifiers = []
        if xkb_state_mod_name_is_active(xkbState, XKB_MOD_NAME_SHIFT, XKB_STATE_MODS_EFFECTIVE) == 1 {
            m.insert(.shift)
        }
        if xkb_state_mod_name_is_active(xkbState, XKB_MOD_NAME_CTRL, XKB_STATE_MODS_EFFECTIVE) == 1 {
            m.insert(.control)
        }
        if xkb_state_mod_name_is_active(xkbState, XKB_MOD_NAME_ALT, XKB_STATE_MODS_EFFECTIVE) == 1 { m.insert(.alt) }
        if xkb_state_mod_name_is_active(xkbState, XKB_MOD_NAME_LOGO, XKB_STATE_MODS_EFFECTIVE) == 1 { m.insert(.logo) }
        return m
    }

    func key(time ms: UInt32, key: UInt32, state: UInt32) {
        guard let xkbState else { return }
        let code = key + 8
        let t = time(ms)
        let pressed = state == 1
        window?.cancelTimer(repeatTimer)
        repeatTimer = nil
        emitKey(code: code, pressed: pressed, at: t)
        // Client-side repeat from repeat_info, on the window's timers.
        if pressed, repeatRate > 0, let keymap, xkb_keymap_key_repeats(keymap, code) == 1 {
            scheduleRepeat(code: code, at: t + Double(repeatDelay) / 1000)
        }
        _ = xkbState
    }

    private func emitKey(code: UInt32, pressed: Bool, at t: Double) {
        guard let xkbState else { return }
        let sym = xkb_state_key_get_one_sym(xkbState, code)
        var name = [CChar](repeating: 0, count: 64)
        _ = xkb_keysym_get_name(sym, &name, name.count)
        let keyName = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        deliver([InputEvent(time: t, .key(Key(keysymName: keyName), pressed: pressed, modifiers: currentModifiers))])
        if pressed {
            var buf = [CChar](repeating: 0, count: 16)
            let n = xkb_state_key_get_utf8(xkbState, code, &buf, buf.count)
            if n > 0 {
                let text = String(decoding: buf.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) {
                    deliver([InputEvent(time: t, .text(text))])
                }
            }
        }
    }

    private func scheduleRepeat(code: UInt32, at deadline: Double) {
        repeatTimer = window?.schedule(at: deadline) { [weak self] in
            guard let self else { return }
            self.emitKey(code: code, pressed: true, at: deadline)
            self.scheduleRepeat(code: code, at: deadline + 1 / Double(max(1, self.repeatRate)))
        }
    }
}
