import Glibc
import ScrollwayAtSpi
import ScrollwayCSystem
import ScrollwayCWaylandClient
import ScrollwayCXKBCommon
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayViews

/// The seat's keyboard: the compositor's xkb keymap (from its fd, mapped read-only, size
/// checked), modifiers as the compositor reports them, keys as keysym names plus the text they
/// type (dead keys and Compose sequences through the locale's Compose table), and client-side
/// repeat from repeat_info on the window's timers.
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
    /// The locale's Compose table and the sequence typed so far: nil without a table (no
    /// libx11-data), and then keys type what xkb says, as they did before Compose.
    private var composeTable: OpaquePointer?
    private var composeState: OpaquePointer?
    /// Whether the table was looked for: once per keyboard, so a missing one is said once.
    private var composeLookedFor = false
    /// The compositor's keymap, not compiled yet. Compiling it and the Compose table takes
    /// milliseconds the window's first frame need not wait for: it is done once the window is
    /// first idle (`compilePendingKeymap`, from the loop), or at once when a key needs it
    /// first (the time: docs/decisions.md, "The keymap compiled after the first frame").
    private var pendingKeymap: String?
    /// Modifier state the compositor sent while the keymap waited: applied once it is compiled.
    private var pendingModifiers: (depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32)?
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
        if let composeState { xkb_compose_state_unref(composeState) }
        if let composeTable { xkb_compose_table_unref(composeTable) }
        composeState = nil
        composeTable = nil
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
        // The string is NUL-terminated within `size` (the protocol says so); bound it anyway.
        pendingKeymap = String(
            decoding: UnsafeRawBufferPointer(start: map, count: Int(size)).prefix { $0 != 0 }, as: UTF8.self)
    }

    /// Whether a keymap waits to be compiled (`compilePendingKeymap`).
    var keymapPending: Bool { pendingKeymap != nil }

    /// Compiles the keymap the compositor last sent, if it has not been: its xkb state made anew,
    /// the Compose table looked for the first time, and modifier state sent meanwhile applied.
    func compilePendingKeymap() {
        guard let text = pendingKeymap else { return }
        pendingKeymap = nil
        if xkbContext == nil { xkbContext = xkb_context_new(XKB_CONTEXT_NO_FLAGS) }
        guard
            let km = xkb_keymap_new_from_string(
                xkbContext, text, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        else {
            input.connection.fail(WaylandError.keymap("xkbcommon cannot compile the compositor's keymap"))
            return
        }
        if let xkbState { xkb_state_unref(xkbState) }
        if let keymap { xkb_keymap_unref(keymap) }
        keymap = km
        xkbState = xkb_state_new(km)
        if !composeLookedFor { lookForComposeTable() }
        if let m = pendingModifiers {
            pendingModifiers = nil
            modifiers(depressed: m.depressed, latched: m.latched, locked: m.locked, group: m.group)
        }
    }

    /// The locale whose Compose table applies: the first of LC_ALL, LC_CTYPE and LANG that is
    /// set and not empty (the order setlocale reads them for LC_CTYPE). "C", "POSIX" or none
    /// mean en_US.UTF-8, as GTK and Qt do, so dead keys also work in a bare environment.
    static func composeLocale(_ variable: (String) -> String?) -> String {
        let named = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap(variable).first { !$0.isEmpty }
        guard let named, named != "C", named != "POSIX" else { return "en_US.UTF-8" }
        return named
    }

    /// Builds the Compose table from the locale (xkbcommon also honours XCOMPOSEFILE and
    /// ~/.XCompose). Without one, keys type what xkb says and dead keys type nothing, as before;
    /// that is said once, since the table comes from a package (libx11-data) a system may lack.
    private func lookForComposeTable() {
        composeLookedFor = true
        let locale = Self.composeLocale { getenv($0).map { String(cString: $0) } }
        guard let table = xkb_compose_table_new_from_locale(xkbContext, locale, XKB_COMPOSE_COMPILE_NO_FLAGS) else {
            Diagnostics.wayland.notice(
                "no Compose table for the locale \(locale) (is libx11-data installed?): dead keys and the Compose key type nothing"
            )
            return
        }
        composeTable = table
        composeState = xkb_compose_state_new(table, XKB_COMPOSE_STATE_NO_FLAGS)
    }

    /// The serial of the last key event (a copy's set_selection needs one).
    private(set) var lastSerial: UInt32 = 0

    /// Whether the compositor's keyboard focus is on our surface (between enter and leave).
    private(set) var hasFocus = false

    /// The window has the keyboard: its focused view shows its ring and caret.
    func enter() {
        hasFocus = true
        input.window?.isKeyWindow = true
    }

    func leave() {
        hasFocus = false
        input.window?.isKeyWindow = false
        input.window?.cancelTimer(repeatTimer)
        repeatTimer = nil
        // A sequence begun here does not finish with keys typed after focus comes back.
        if let composeState { xkb_compose_state_reset(composeState) }
        // Keys held elsewhere are not ours: no Ctrl stays down for the next wheel. The xkb state
        // forgets them too, so that modifiers still held when focus returns (sent right after
        // enter) count as a change and reach the window.
        if let xkbState { xkb_state_update_mask(xkbState, 0, 0, 0, 0, 0, 0) }
        pendingModifiers = nil
        input.deliver([InputEvent(time: sw_monotonic_seconds(), .modifiers([]))])
    }

    /// The compositor's modifier state, sent after the key that changed it: the window hears of
    /// it at once, so a wheel turned while Ctrl is held zooms.
    func modifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        if pendingKeymap != nil {
            pendingModifiers = (depressed, latched, locked, group)
            return
        }
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

    func key(serial: UInt32, time ms: UInt32, key: UInt32, state: UInt32) {
        // The clipboard's set_selection names the key event that asked for it (Ctrl+C).
        lastSerial = serial
        compilePendingKeymap()
        guard xkbState != nil else { return }
        let code = key + Self.xkbKeycodeOffset
        let t = input.time(ms, alone: true)
        let pressed = state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue
        input.window?.cancelTimer(repeatTimer)
        repeatTimer = nil
        let text = pressed ? typedText(code: code) : nil
        emitKey(code: code, pressed: pressed, text: text, at: t)
        // Client-side repeat from repeat_info, on the window's timers. A repeat types what the
        // press typed and feeds nothing to Compose: a held dead key does not compose with itself
        // (dead_acute twice is "´"), and a held key that finished a sequence keeps typing it.
        // The delay runs from the press's arrival at the latest: a press dated in the past must
        // not start repeating at once.
        if pressed, repeatRate > 0, let keymap, xkb_keymap_key_repeats(keymap, code) == 1 {
            scheduleRepeat(code: code, text: text, at: max(t, sw_monotonic_seconds()) + Double(repeatDelay) / 1000)
        }
    }

    /// The text a press types, its keysym fed to the Compose state first: nothing while a
    /// sequence is under way or when one is cancelled (xkb's choice: the key that broke it types
    /// nothing either), the composed text when one finishes, else what xkb says the key types.
    private func typedText(code: UInt32) -> String? {
        guard let xkbState else { return nil }
        if let composeState,
            xkb_compose_state_feed(composeState, xkb_state_key_get_one_sym(xkbState, code)) == XKB_COMPOSE_FEED_ACCEPTED
        {
            switch xkb_compose_state_get_status(composeState) {
            case XKB_COMPOSE_COMPOSING:
                return nil
            case XKB_COMPOSE_COMPOSED:
                var buf = [CChar](repeating: 0, count: 64)
                var n = Int(xkb_compose_state_get_utf8(composeState, &buf, buf.count))
                if n <= 0 {
                    // A sequence may give a keysym and no string: the keysym's own text.
                    n = Int(xkb_keysym_to_utf8(xkb_compose_state_get_one_sym(composeState), &buf, buf.count)) - 1
                }
                xkb_compose_state_reset(composeState)
                return Self.printable(buf, count: min(n, buf.count - 1))
            case XKB_COMPOSE_CANCELLED:
                xkb_compose_state_reset(composeState)
                return nil
            default:
                break
            }
        }
        var buf = [CChar](repeating: 0, count: 16)
        let n = xkb_state_key_get_utf8(xkbState, code, &buf, buf.count)
        return Self.printable(buf, count: Int(n))
    }

    /// The first `count` bytes as text, or nil when empty or when they hold control characters
    /// (Return, Tab, Backspace and Escape are keys, not text).
    private static func printable(_ buf: [CChar], count: Int) -> String? {
        guard count > 0 else { return nil }
        let text = String(decoding: buf.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) ? text : nil
    }

    private func emitKey(code: UInt32, pressed: Bool, text: String?, at t: Double) {
        guard let xkbState else { return }
        let sym = xkb_state_key_get_one_sym(xkbState, code)
        var name = [CChar](repeating: 0, count: 64)
        _ = xkb_keysym_get_name(sym, &name, name.count)
        let keyName = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var events = [
            InputEvent(time: t, .key(Key(keysymName: keyName), pressed: pressed, modifiers: currentModifiers))
        ]
        if let text { events.append(InputEvent(time: t, .text(text))) }
        guard let forward = input.keyForwarder else {
            input.deliver(events)
            return
        }
        let key = AtSpiKeyEvent(
            pressed: pressed, keysym: sym, keycode: code, modifiers: currentModifiers,
            timestamp: UInt32(truncatingIfNeeded: Int64(clamping: t * 1000, rounding: .down)), string: text ?? keyName,
            isText: text != nil)
        forward(key) { [weak input] in input?.deliver(events) }
    }

    /// One repeat at `deadline`, then the next one interval later; a loop that fell behind (a
    /// long frame) skips the repeats it missed rather than typing them in a burst.
    private func scheduleRepeat(code: UInt32, text: String?, at deadline: Double) {
        repeatTimer = input.window?.schedule(at: deadline) { [weak self] in
            guard let self else { return }
            self.emitKey(code: code, pressed: true, text: text, at: deadline)
            let next = deadline + 1 / Double(max(1, self.repeatRate))
            self.scheduleRepeat(code: code, text: text, at: max(next, sw_monotonic_seconds()))
        }
    }
}
