import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayReplay
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWestonHarness
import Testing

/// The keyboard scene's notes text view in a real headless weston, typed into with real
/// wl_keyboard keys (through the compositor's keymap and xkbcommon) and real wl_touch taps on
/// the in-app keyboard.
@MainActor
@Suite(.serialized) struct TextViewInWestonTests {
    @MainActor final class NotesForm {
        let rig: WestonRig
        let app: WaylandApp
        let window: Window
        let notes: TextView
        let form: ScrollView
        let keyboard: OnScreenKeyboard
        var time: UInt32 = 1000

        init() throws {
            (rig, app, window) = try startScene(.keyboard, height: 844)
            notes = try #require(window.view(named: "notes") as? TextView)
            form = try #require(window.view(named: "main") as? ScrollView)
            keyboard = try #require(window.view(named: "keyboard") as? OnScreenKeyboard)
            // The rig offers text-input-v3, so `systemWhenAvailable` would leave typing to a
            // system keyboard: a kiosk's in-app one here.
            keyboard.policy = .touchOnly
        }

        /// One real key stroke, a keysym by name, with Control and Shift held around it when
        /// asked, through the replay layer.
        func press(named name: String, control: Bool = false, shift: Bool = false) throws {
            #expect(rig.keys.stroke(forKeysymNamed: name) != nil, "no key \(name)")
            time += 40
            try WestonTarget(rig: rig, app: app).send(from: Double(time)) { b in
                let held = (control ? ["Control_L"] : []) + (shift ? ["Shift_L"] : [])
                for m in held { b.add(.key(m, pressed: true), at: 0) }
                b.key(name, at: 0, hold: 5)
                for m in held.reversed() { b.add(.key(m, pressed: false), at: 5) }
            }
        }

        /// Types `text` key by key (Shift where the keymap needs it); a line break is Return.
        func type(_ text: String) throws {
            for ch in text {
                if ch == "\n" {
                    try press(named: "Return")
                } else {
                    time += 40
                    try WestonTarget(rig: rig, app: app).send(from: Double(time)) { $0.text(String(ch), at: 0) }
                }
            }
            try app.settle()
        }

        func tap(_ p: Point) throws {
            time += 120
            try WaylandTests.tap(rig, app, at: p, time: time)
        }
    }

    /// Shift+Tab from nothing focuses the notes (the last stop) and the form scrolls them into
    /// view; lines typed with real keys, Return between them, go in as lines, and neither Return
    /// nor Space moves the form.
    @Test func typingLinesWithPhysicalKeys() throws {
        let s = try NotesForm()
        try s.press(named: "Tab", shift: true)
        try s.app.settle()
        #expect(s.notes.isFocused)
        let onScreen = s.notes.convert(s.notes.bounds, to: nil)
        #expect(onScreen.minY >= 0 && onScreen.maxY <= 844)
        let formOffset = s.form.contentOffset
        try s.type("First line\nsecond one\nthird")
        #expect(s.notes.text == "First line\nsecond one\nthird")
        #expect(s.notes.lineCount == 3)
        #expect(s.form.contentOffset == formOffset)
        #expect(s.keyboard.visibleFraction == 0)
        // Up twice and End: the end of the first line.
        try s.press(named: "Up")
        try s.press(named: "Up")
        try s.press(named: "End")
        #expect(s.notes.editing.caret == "First line".count)
        try s.app.settle()
        #expect(s.form.contentOffset == formOffset)
    }

    /// A finger tap on the notes brings the in-app keyboard up; its keys type lines (its return
    /// key breaks them), and the caret stays above the keyboard.
    @Test func typingLinesWithTheOnScreenKeyboard() throws {
        let s = try NotesForm()
        // Scroll the form to its end, then tap the notes.
        s.form.setContentOffset(Point(x: 0, y: s.form.verticalRange.upperBound), animated: false)
        try s.app.settle()
        try s.tap(s.notes.convert(s.notes.bounds, to: nil).center)
        #expect(s.notes.isFocused && s.window.focusedByTouch)
        try s.app.pump(until: { s.keyboard.visibleFraction == 1 && s.app.isAtRest }, "the keyboard to slide in")
        for ch in "one\ntwo\nthree\nfour\nfive\nsix\n" {
            for title in try #require(OnScreenKeyboard.keyTitles(typing: ch)) {
                try s.tap(try #require(s.keyboard.keyFrame(for: title), "no key \(title)").center)
            }
        }
        try s.app.settle()
        #expect(s.notes.text == "one\ntwo\nthree\nfour\nfive\nsix\n")
        let caret = s.notes.convert(s.notes.caretRect, to: nil)
        #expect(caret.maxY <= s.keyboard.top, "caret \(caret) under the keyboard at \(s.keyboard.top)")
        #expect(s.notes.contentOffset.y > 0)
    }

    /// Ctrl+C in one field and Ctrl+V in another, with real keys: the text goes through the
    /// compositor's clipboard (wl_data_device: our data source becomes the selection, and the
    /// paste reads the selection's offer through a pipe that our own source writes into), then
    /// into the notes, where it replaces the selection.
    @Test func copyInOneFieldAndPasteInAnotherThroughTheDataDevice() throws {
        let s = try NotesForm()
        #expect(!(s.window.pasteboard is MemoryPasteboard), "the platform installs the desktop's clipboard")
        let field1 = try #require(s.window.view(named: "field1") as? TextField)
        let field2 = try #require(s.window.view(named: "field2") as? TextField)
        try s.press(named: "Tab")
        #expect(field1.isFocused)
        try s.type("Copied text")
        try s.press(named: "a", control: true)
        try s.press(named: "c", control: true)
        try s.press(named: "Tab")
        #expect(field2.isFocused)
        try s.press(named: "v", control: true)
        try s.app.pump(until: { field2.text == "Copied text" }, "the paste to arrive through the pipe")
        // Into the notes, over a selection.
        s.notes.text = "before after"
        s.notes.editing.moveCaret(to: 7)
        s.notes.editing.moveCaret(to: 12, extending: true)
        s.notes.becomeFocused()
        try s.press(named: "v", control: true)
        try s.app.pump(until: { s.notes.text == "before Copied text" }, "the paste into the notes")
    }

    /// The system input method (the test module plays it; the scene's `systemWhenAvailable`
    /// leaves typing to it): a tap on the notes enables text input with the multi-line hint and
    /// the caret's rectangle; its preedit shows in place, its commits go in, line breaks
    /// included, and the surrounding text follows.
    @Test func theSystemInputMethodTypesIntoTheNotes() throws {
        let s = try NotesForm()
        s.keyboard.policy = .systemWhenAvailable
        s.form.setContentOffset(Point(x: 0, y: s.form.verticalRange.upperBound), animated: false)
        try s.app.settle()
        try s.tap(s.notes.convert(s.notes.bounds, to: nil).center)
        #expect(s.notes.isFocused)
        func waitForState(_ what: String, _ condition: (TextInputSnapshot) -> Bool) throws {
            try waitForTextInput(s.rig, s.app, what, condition)
        }
        func inputMethod(_ update: ScriptEvent.Kind) throws { try sendInputMethod(s.rig, s.app, update) }
        try waitForState("enabled, multi-line") { $0.enabled && $0.hint & 0x200 != 0 && $0.cursorRectangle != nil }
        #expect(s.keyboard.visibleFraction == 0)
        try inputMethod(.preedit("compo", cursor: 5...5))
        #expect(s.notes.editing.preedit == "compo" && s.notes.text == "")
        try inputMethod(.commitText("first\nsecond"))
        #expect(s.notes.text == "first\nsecond" && s.notes.editing.preedit == "")
        #expect(s.notes.lineCount == 2)
        try waitForState("the surrounding text") { $0.surroundingText == "first\nsecond" && $0.cursor == 12 }
        // The caret rectangle is on the second line, in surface coordinates.
        let rect = try #require(s.rig.input.textInput?.cursorRectangle)
        let caret = s.notes.convert(s.notes.caretRect, to: nil)
        #expect(rect.y == Int(clamping: caret.minY, rounding: .down))
        #expect(rect.x == Int(clamping: caret.minX, rounding: .down))
    }
}
