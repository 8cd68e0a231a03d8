import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayReplay
import ScrollwayScripts
import ScrollwayViews
import ScrollwayWestonHarness
import Testing

/// A script's keys type offscreen what they type in a compositor: the key's text through the
/// us keymap (a rig's seat and the client's xkb), and a text line's control characters as
/// their keys. A recorded session's typing (recorded as its keys) had vanished offscreen.
@MainActor
@Suite struct KeyTypingTests {
    @Test func theKeymapSaysWhatAKeyTypes() throws {
        let keys = try KeyCodes()
        #expect(keys.typedText(forKeysymNamed: "a", shift: false) == "a")
        #expect(keys.typedText(forKeysymNamed: "a", shift: true) == "A")
        // A keysym on the shifted level types it without Shift held: the rig holds Shift for it.
        #expect(keys.typedText(forKeysymNamed: "exclam", shift: false) == "!")
        #expect(keys.typedText(forKeysymNamed: "space", shift: false) == " ")
        #expect(keys.typedText(forKeysymNamed: "a", shift: false, control: true) == nil)
        for key in ["Return", "Tab", "BackSpace", "Page_Down", "F1", "Shift_L"] {
            #expect(keys.typedText(forKeysymNamed: key, shift: false) == nil, "\(key)")
        }
        // No key of the us keymap: its own character (a rig refuses it before it starts).
        #expect(keys.typedText(forKeysymNamed: "eacute", shift: false) == "é")
        #expect(keys.stroke(forKeysymNamed: "eacute") == nil)
    }

    @Test func aScriptsKeysAndTextTypeIntoTheFormOffscreen() throws {
        let window = Scene.form.makeWindow(size: Size(width: 390, height: 600))
        let name = try #require(window.firstView(of: TextField.self))
        let player = try HeadlessPlayer(window: window, options: .init(trace: .discard, pixels: false))
        var b = ScriptBuilder()
        b.tap(at: name.convert(Point(x: 20, y: 20), to: window), at: 0)
        var t = 300.0
        for key in ["H", "i", "exclam"] {
            b.add(.key(key, pressed: true), at: t)
            b.add(.key(key, pressed: false), at: t + 20)
            t += 50
        }
        b.add(.key("Shift_L", pressed: true), at: t)
        b.add(.key("o", pressed: true), at: t + 10)
        b.add(.key("o", pressed: false), at: t + 20)
        b.add(.key("Shift_L", pressed: false), at: t + 30)
        // The tab moves the focus to the next field, as a compositor's Tab key does.
        b.add(.text(" x\ty"), at: t + 100)
        try player.play(b.script)
        #expect(name.text == "Hi!O x")
        let next = try #require(window.focusedView as? TextField)
        #expect(next !== name && next.text == "y")
    }
}
