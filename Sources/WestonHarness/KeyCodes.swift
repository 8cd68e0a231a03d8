import ScrollwayCXKBCommon

/// Finds the evdev key (and whether Shift is needed) that produces a keysym in the keymap
/// weston uses by default (evdev rules, pc105, us), so scripts can name keys as xkb keysyms
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

    public init(layout: String = "us") throws {
        guard let ctx = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { throw RigError.system("xkb_context_new failed") }
        context = ctx
        let map = "evdev".withCString { rules in
            "pc105".withCString { model in
                layout.withCString { lay -> OpaquePointer? in
                    var names = xkb_rule_names(rules: rules, model: model, layout: lay, variant: nil, options: nil)
                    return xkb_keymap_new_from_names(ctx, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
                }
            }
        }
        guard let map else {
            xkb_context_unref(ctx)
            throw RigError.system("cannot compile the '\(layout)' keymap (is xkb-data installed?)")
        }
        keymap = map
    }

    deinit {
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

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
