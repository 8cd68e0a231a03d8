import Glibc
import ScrollwayCWaylandClient
import ScrollwayCXKBCommon
import ScrollwayGestures
import ScrollwayViews

/// The seat's keyboard: the compositor's xkb keymap (from its fd, mapped read-only, size
/// checked), modifiers as the compositor reports them, keys as keysym names plus the text they
/// type, and client-side repeat from repeat_info on the window's timers.
@MainActor
final class WaylandKeyboard {
    unowned let input: WaylandInput
    let proxy: OpaquePointer
    private var xkbContext: OpaquePointer?
    private var keymap: OpaquePointer?
    private var xkbState: OpaquePointer?
    private var repeatRate: Int32 = 25
    private var repeatDelay: Int32 = 600
    private var repeatTimer: TimerToken?
    /// evdev key codes are xkb key codes minus 8 (the X11 offset xkbcommon keeps).
    static let xkbKeycodeOffset: UInt32 = 8

    init(input: WaylandInput, proxy: OpaquePointer) {
        self.input = input
        self.proxy = proxy
        wl_keyboard_add_listener(proxy, Listeners.keyboard, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Called while the connection is being torn down: touches nothing but its own objects.
    func release() {
        wl_keyboard_release(proxy)
        if let xkbState { xkb_state_unref(xkbState) }
        if let keymap { xkb_keymap_unref(keymap) }
        if let xkbContext { xkb_context_unref(xkbContext) }
        xkbState = nil
        keymap = nil
        xkbContext = nil
    }

    /// The keymap arrives as a file descriptor: mapped read-only, its size checked first.
    func keymap(format: UInt32, fd: Int32, size: UInt32) {
        defer { close(fd) }
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue else { return }
        let connection = input.connection
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

    func enter() {}

    func leave() {
        input.window?.cancelTimer(repeatTimer)
        repeatTimer = nil
        // Keys held elsewhere are not ours: no Ctrl stays down for the next wheel. The xkb state
        // forgets them too, so that modifiers still held when focus returns (sent right after
        // enter) count as a change and reach the window.
        if let xkbState { xkb_state_update_mask(xkbState, 0, 0, 0, 0, 0, 0) }
        input.deliver([InputEvent(time: sw_monotonic_seconds(), .modifiers([]))])
    }

    /// The compositor's modifier state, sent after the key that changed it: the window hears of
    /// it at once, so a wheel turned while Ctrl is held zooms.
    func modifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        guard let xkbState else { return }
        let before = currentModifiers
        xkb_state_update_mask(xkbState, depressed, latched, locked, 0, 0, group)
        let now = currentModifiers
        if now != before { input.deliver([InputEvent(time: sw_monotonic_seconds(), .modifiers(now))]) }
    }

    func repeatInfo(rate: Int32, delay: Int32) {
        repeatRate = rate
        repeatDelay = delay
    }

    var currentModifiers: Modifiers {
        guard let xkbState else { return [] }
        var m: Modifiers = []
        func active(_ name: String) -> Bool {
            xkb_state_mod_name_is_active(xkbState, name, XKB_STATE_MODS_EFFECTIVE) == 1
        }
        if active(XKB_MOD_NAME_SHIFT) { m.insert(.shift) }
        if active(XKB_MOD_NAME_CTRL) { m.insert(.control) }
        if active(XKB_MOD_NAME_ALT) { m.insert(.alt) }
        if active(XKB_MOD_NAME_LOGO) { m.insert(.logo) }
        return m
    }

    func key(time ms: UInt32, key: UInt32, state: UInt32) {
        guard xkbState != nil else { return }
        let code = key + Self.xkbKeycodeOffset
        let t = input.time(ms)
        let pressed = state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue
        input.window?.cancelTimer(repeatTimer)
        repeatTimer = nil
        emitKey(code: code, pressed: pressed, at: t)
        // Client-side repeat from repeat_info, on the window's timers.
        if pressed, repeatRate > 0, let keymap, xkb_keymap_key_repeats(keymap, code) == 1 {
            scheduleRepeat(code: code, at: t + Double(repeatDelay) / 1000)
        }
    }

    private func emitKey(code: UInt32, pressed: Bool, at t: Double) {
        guard let xkbState else { return }
        let sym = xkb_state_key_get_one_sym(xkbState, code)
        var name = [CChar](repeating: 0, count: 64)
        _ = xkb_keysym_get_name(sym, &name, name.count)
        let keyName = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        input.deliver([
            InputEvent(time: t, .key(Key(keysymName: keyName), pressed: pressed, modifiers: currentModifiers))
        ])
        if pressed {
            var buf = [CChar](repeating: 0, count: 16)
            let n = xkb_state_key_get_utf8(xkbState, code, &buf, buf.count)
            if n > 0 {
                let text = String(decoding: buf.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) {
                    input.deliver([InputEvent(time: t, .text(text))])
                }
            }
        }
    }

    private func scheduleRepeat(code: UInt32, at deadline: Double) {
        repeatTimer = input.window?.schedule(at: deadline) { [weak self] in
            guard let self else { return }
            self.emitKey(code: code, pressed: true, at: deadline)
            self.scheduleRepeat(code: code, at: deadline + 1 / Double(max(1, self.repeatRate)))
        }
    }
}
