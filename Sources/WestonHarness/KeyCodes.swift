import Glibc
import ScrollwayCXKBCommon
import ScrollwayGeometry

/// The xkb names of a keymap (evdev rules, pc105): what the rig tells weston to use
/// (`[keyboard]` in weston.ini) and what `KeyCodes` compiles to find keys in the same map.
public struct KeymapNames: Equatable, Sendable {
    public var layout: String
    public var variant: String
    /// xkb options, comma-separated ("compose:ralt").
    public var options: String

    public init(layout: String = "us", variant: String = "", options: String = "") {
        self.layout = layout
        self.variant = variant
        self.options = options
    }

    /// weston's default: us, no variant, no options.
    public static let us = KeymapNames()
}

/// Finds the evdev key (and whether Shift is needed) that produces a keysym in the keymap
/// weston uses (evdev rules, pc105, us unless the rig says otherwise), so scripts can name keys as xkb keysyms
/// ("Page_Down", "a", "A") and type text.
public final class KeyCodes {
    /// One key press: the evdev code and whether Shift must be held.
    public struct Stroke: Equatable, Sendable {
        public var evdev: UInt32
        public var shift: Bool
    }

    /// KEY_LEFTSHIFT.
    public static let leftShift: UInt32 = 42
    /// KEY_LEFTCTRL.
    public static let leftControl: UInt32 = 29

    private let context: OpaquePointer
    private let keymap: OpaquePointer
    private var cache: [UInt32: Stroke?] = [:]

    public convenience init(layout: String = "us") throws {
        try self.init(KeymapNames(layout: layout))
    }

    public init(_ names: KeymapNames) throws {
        guard let ctx = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { throw RigError.system("xkb_context_new failed") }
        context = ctx
        let map = "evdev".withCString { rules in
            "pc105".withCString { model in
                names.layout.withCString { layout in
                    names.variant.withCString { variant in
                        names.options.withCString { options -> OpaquePointer? in
                            var rmlvo = xkb_rule_names(
                                rules: rules, model: model, layout: layout, variant: variant, options: options)
                            return xkb_keymap_new_from_names(ctx, &rmlvo, XKB_KEYMAP_COMPILE_NO_FLAGS)
                        }
                    }
                }
            }
        }
        guard let map else {
            xkb_context_unref(ctx)
            throw RigError.system(
                "cannot compile the keymap '\(names.layout)' '\(names.variant)' '\(names.options)' (is xkb-data installed?)"
            )
        }
        keymap = map
    }

    deinit {
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    /// The keymap as xkb's text format (what a virtual keyboard hands its compositor).
    public var keymapText: String {
        guard let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else { return "" }
        defer { free(text) }
        return String(cString: text)
    }

    /// A fresh record of this keymap's modifiers, none held.
    public func modifierState() throws -> ModifierState { try ModifierState(keymap: keymap) }

    /// The keysym for an xkb name ("Page_Down", "a"), or nil if there is no such name.
    public static func keysym(named name: String) -> UInt32? {
        let sym = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS)
        return sym == 0 ? nil : sym
    }

    /// The stroke for a keysym name, or nil when no key of the keymap produces it.
    public func stroke(forKeysymNamed name: String) -> Stroke? {
        guard let sym = Self.keysym(named: name) else { return nil }
        return stroke(forKeysym: sym)
    }

    /// The stroke that types `character`, or nil when the keymap cannot type it.
    public func stroke(for character: Unicode.Scalar) -> Stroke? {
        if character == "\n" { return stroke(forKeysymNamed: "Return") }
        let sym = xkb_utf32_to_keysym(character.value)
        return sym == 0 ? nil : stroke(forKeysym: sym)
    }

    /// What a press of the key that produces keysym `name` types in this keymap, as a client's
    /// xkb state derives it (`WaylandKeyboard`): with Shift when `shift` is held or the keysym
    /// needs it (the rig's seat holds Shift for it), nothing with Control (xkb gives a control
    /// character, which is a key, not text), nothing for a key that types no printable text
    /// (Return, Tab, a function key). A keysym no key of the keymap produces types its own
    /// character: offscreen plays it, where a rig refuses it before it starts.
    public func typedText(forKeysymNamed name: String, shift: Bool, control: Bool = false) -> String? {
        guard !control, let sym = Self.keysym(named: name) else { return nil }
        var buffer = [CChar](repeating: 0, count: 16)
        let count: Int32
        if let stroke = stroke(forKeysym: sym) {
            guard let state = xkb_state_new(keymap) else { return nil }
            defer { xkb_state_unref(state) }
            if shift || stroke.shift {
                let index = xkb_keymap_mod_get_index(keymap, "Shift")
                if index != XKB_MOD_INVALID {
                    _ = xkb_state_update_mask(state, 1 << index, 0, 0, 0, 0, 0)
                }
            }
            count = xkb_state_key_get_utf8(state, stroke.evdev + 8, &buffer, buffer.count)
        } else {
            count = xkb_keysym_to_utf8(sym, &buffer, buffer.count) - 1
        }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) ? text : nil
    }

    private func stroke(forKeysym sym: UInt32) -> Stroke? {
        if let cached = cache[sym] { return cached }
        var found: Stroke?
        let lo = xkb_keymap_min_keycode(keymap)
        let hi = xkb_keymap_max_keycode(keymap)
        search: for level in 0..<2 {
            for code in lo...hi where code >= 8 {
                var syms: UnsafePointer<xkb_keysym_t>?
                let n = xkb_keymap_key_get_syms_by_level(keymap, code, 0, xkb_level_index_t(level), &syms)
                guard n > 0, let syms else { continue }
                for i in 0..<Int(n) where syms[i] == sym {
                    found = Stroke(evdev: code - 8, shift: level == 1)
                    break search
                }
            }
        }
        cache[sym] = found
        return found
    }
}

/// The modifiers a keyboard's presses leave depressed, latched and locked, and its layout
/// group, as `wl_keyboard.modifiers` carries them. For a virtual keyboard whose compositor
/// forwards only the modifiers it is told (wlroots' zwp_virtual_keyboard_v1 works none out from
/// the keys): without them Ctrl+wheel did not zoom and "Hi" was typed "hi" under sway and phoc.
public final class ModifierState {
    /// The four masks of `wl_keyboard.modifiers`.
    public struct Masks: Equatable, Sendable {
        public var depressed: UInt32
        public var latched: UInt32
        public var locked: UInt32
        public var group: UInt32
    }

    private let state: OpaquePointer

    init(keymap: OpaquePointer) throws {
        guard let state = xkb_state_new(keymap) else { throw RigError.system("xkb_state_new failed") }
        self.state = state
    }

    deinit { xkb_state_unref(state) }

    /// Applies a press or release of evdev key `key`; the new masks when they changed (a
    /// modifier's key, or a lock's), nil when they did not.
    public func update(key: UInt32, pressed: Bool) -> Masks? {
        let changed = xkb_state_update_key(state, key + 8, pressed ? XKB_KEY_DOWN : XKB_KEY_UP)
        guard changed.rawValue != 0 else { return nil }
        return current
    }

    /// The masks now.
    public var current: Masks {
        Masks(
            depressed: xkb_state_serialize_mods(state, XKB_STATE_MODS_DEPRESSED),
            latched: xkb_state_serialize_mods(state, XKB_STATE_MODS_LATCHED),
            locked: xkb_state_serialize_mods(state, XKB_STATE_MODS_LOCKED),
            group: xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_EFFECTIVE))
    }
}
