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
