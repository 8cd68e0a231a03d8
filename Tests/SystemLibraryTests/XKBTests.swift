import ScrollwayCXKBCommon
import ScrollwayGeometry
import Testing

/// xkbcommon compiles a keymap from RMLVO names (the same data weston's default keymap uses).
@Suite struct XKBTests {
    @Test func keycode38WithShiftIsCapitalA() throws {
        let context = try #require(xkb_context_new(XKB_CONTEXT_NO_FLAGS))
        defer { xkb_context_unref(context) }
        let keymap = try "evdev".withCString { rules in
            try "pc105".withCString { model in
                try "us".withCString { layout in
                    var names = xkb_rule_names(rules: rules, model: model, layout: layout, variant: nil, options: nil)
                    return try #require(xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS))
                }
            }
        }
        defer { xkb_keymap_unref(keymap) }
        let state = try #require(xkb_state_new(keymap))
        defer { xkb_state_unref(state) }

        func utf8(_ keycode: xkb_keycode_t) -> String {
            var buffer = [CChar](repeating: 0, count: 16)
            _ = xkb_state_key_get_utf8(state, keycode, &buffer, buffer.count)
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        // xkb keycodes are evdev codes + 8: KEY_A = 30 -> 38, KEY_LEFTSHIFT = 42 -> 50.
        #expect(utf8(38) == "a")
        _ = xkb_state_update_key(state, 50, XKB_KEY_DOWN)
        #expect(utf8(38) == "A")
        #expect(xkb_state_key_get_one_sym(state, 38) == UInt32(XKB_KEY_A))
        #expect(xkb_state_mod_name_is_active(state, XKB_MOD_NAME_SHIFT, XKB_STATE_MODS_EFFECTIVE) == 1)
        _ = xkb_state_update_key(state, 50, XKB_KEY_UP)
        #expect(utf8(38) == "a")
    }
}
