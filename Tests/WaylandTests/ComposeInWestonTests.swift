import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayReplay
import ScrollwayViews
import ScrollwayWestonHarness
import Testing

@testable import ScrollwayWayland

/// Dead keys and the Compose key as real wl_keyboard keys: weston runs with the us intl keymap
/// (apostrophe is dead_acute, grave is dead_grave; compose:ralt makes Right Alt the Compose key)
/// and the client composes with the locale's Compose table. The expected texts are what
/// en_US.UTF-8/Compose says: `<dead_acute> <space> : "'"`, `<dead_grave> <space> : "`"`,
/// `<Multi_key> <o> <c> : "©"`, and a key with no sequence cancels, typing nothing.
@MainActor
@Suite(.serialized) struct ComposeInWestonTests {
    static let intl = KeymapNames(layout: "us", variant: "intl", options: "compose:ralt")

    /// A rig with the intl keymap, the keyboard scene, and its first field focused by Tab.
    @MainActor final class Session {
        let rig: WestonRig
        let window: Window
        let app: WaylandApp
        let field: TextField
        var time: UInt32 = 1000

        init() throws {
            rig = try WestonRig(width: 390, height: 844, keymap: ComposeInWestonTests.intl)
            window = Scene.keyboard.makeWindow(size: Size(width: 390, height: 844))
            app = try WaylandApp(content: window, title: "compose", socket: rig.socketPath)
            try app.settle()
            field = try #require(window.view(named: "field1") as? TextField)
            try press("Tab")
            #expect(field.isFocused)
        }

        /// Presses and releases each key (a keysym of the rig's keymap, no Shift) in turn,
        /// `held` ms down (a long hold repeats).
        func press(_ names: String..., held: UInt32 = 5) throws {
            let target = WestonTarget(rig: rig, app: app)
            for name in names {
                let stroke = try #require(rig.keys.stroke(forKeysymNamed: name), "no key \(name)")
                #expect(!stroke.shift, "\(name) needs Shift")
                time += 60
                try target.send(from: Double(time)) { $0.key(name, at: 0, hold: Double(held)) }
                time += held
            }
            try app.settle()
        }
    }

    /// The brief's key numbers, checked against xkbcommon's us intl map rather than trusted.
    @Test func theIntlKeymapHasDeadKeysAndAComposeKey() throws {
        let keys = try KeyCodes(Self.intl)
        #expect(keys.stroke(forKeysymNamed: "dead_acute")?.evdev == 40)
        #expect(keys.stroke(forKeysymNamed: "dead_grave")?.evdev == 41)
        #expect(keys.stroke(forKeysymNamed: "Multi_key")?.evdev == 100)
        // The default map has no dead keys: the apostrophe key types an apostrophe.
        #expect(try KeyCodes().stroke(forKeysymNamed: "apostrophe")?.evdev == 40)
    }

    @Test func deadKeysComposeWithTheNextKey() throws {
        let s = try Session()
        try s.press("dead_acute")
        #expect(s.field.text == "", "a dead key alone types nothing")
        try s.press("e")
        #expect(s.field.text == "é")
        try s.press("dead_grave", "a")
        #expect(s.field.text == "éà")
        // A dead key then Space types the accent the table gives: ' for acute, ` for grave.
        try s.press("dead_acute", "space")
        #expect(s.field.text == "éà'")
        try s.press("dead_grave", "space")
        #expect(s.field.text == "éà'`")
    }

    /// A key with no sequence after a dead key cancels it: neither types anything (xkb's
    /// CANCELLED), the next key types as usual, and keys still reach the field as keys (Left
    /// moves the caret even while it cancels a sequence).
    @Test func aKeyWithNoSequenceCancels() throws {
        let s = try Session()
        try s.press("dead_acute", "q")
        #expect(s.field.text == "")
        try s.press("e")
        #expect(s.field.text == "e")
        try s.press("a", "b", "dead_acute", "Left", "x")
        #expect(s.field.text == "eaxb")
    }

    /// Right Alt is Multi_key with compose:ralt: Compose, o, c types ©.
    @Test func theComposeKeyTypesASequence() throws {
        let s = try Session()
        try s.press("Multi_key", "o")
        #expect(s.field.text == "")
        try s.press("c")
        #expect(s.field.text == "©")
    }

    /// Repeats feed nothing to Compose: a dead key held past the repeat delay still waits for
    /// its letter (fed twice it would type ´ at once), and a held key that finished a sequence
    /// repeats what it typed.
    @Test func aHeldDeadKeyDoesNotComposeWithItself() throws {
        let s = try Session()
        try s.press("dead_acute", held: 900)
        #expect(s.field.text == "")
        try s.press("e")
        #expect(s.field.text == "é")
        try s.press("dead_acute")
        try s.press("e", held: 900)
        #expect(s.field.text.count > 2, "the held key repeated")
        #expect(s.field.text.allSatisfy { $0 == "é" })
    }

    @Test func theComposeLocaleFollowsSetlocalesOrder() {
        func locale(_ env: [String: String]) -> String { WaylandKeyboard.composeLocale { env[$0] } }
        #expect(locale(["LC_ALL": "de_DE.UTF-8", "LC_CTYPE": "fr_FR.UTF-8", "LANG": "sv_SE.UTF-8"]) == "de_DE.UTF-8")
        #expect(locale(["LC_ALL": "", "LC_CTYPE": "fr_FR.UTF-8", "LANG": "sv_SE.UTF-8"]) == "fr_FR.UTF-8")
        #expect(locale(["LANG": "sv_SE.UTF-8"]) == "sv_SE.UTF-8")
        #expect(locale(["LANG": "C"]) == "en_US.UTF-8")
        #expect(locale(["LC_ALL": "POSIX", "LANG": "sv_SE.UTF-8"]) == "en_US.UTF-8")
        #expect(locale([:]) == "en_US.UTF-8")
    }
}
