import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWestonHarness
import Testing

/// zwp_text_input_v3 end to end: a real headless weston, real wl_touch taps, and the test
/// module playing the system input method (weston 10 has none): it records what the app
/// commits and injects preedit, commit and deletion as an input method would.
@MainActor
@Suite(.serialized) struct TextInputInWestonTests {
    /// A 390×600 form in a scroll view: a text field, a number field, a button that takes the
    /// focus away, and a field near the bottom; the in-app keyboard under `systemWhenAvailable`.
    @MainActor final class Form {
        let rig: WestonRig
        let app: WaylandApp
        let window: Window
        let scroll = ScrollView(frame: .zero)
        let name = TextField(placeholder: "Name", frame: Rect(x: 16, y: 20, width: 358, height: 44))
        let amount = TextField(placeholder: "Amount", frame: Rect(x: 16, y: 80, width: 358, height: 44))
        let done = Button(title: "Done", frame: Rect(x: 16, y: 140, width: 120, height: 44))
        let bottom = TextField(placeholder: "Notes", frame: Rect(x: 16, y: 530, width: 358, height: 44))
        let keyboard: OnScreenKeyboard
        var time: UInt32 = 1000

        init() throws {
            rig = try WestonRig(width: 390, height: 600)
            window = Window(size: Size(width: 390, height: 600))
            scroll.fillsSuperview = true
            scroll.contentSize = Size(width: 390, height: 1200)
            amount.contentType = .number
            for v in [name, amount, done, bottom] { scroll.addSubview(v) }
            window.addSubview(scroll)
            keyboard = OnScreenKeyboard.install(in: window, policy: .systemWhenAvailable)
            done.onTap = { [amount, name, bottom] in
                for f in [amount, name, bottom] { f.resignFocus() }
            }
            app = try WaylandApp(content: window, title: "text input", socket: rig.socketPath)
            try app.settle()
        }

        /// A real tap: touch down and up 40 ms later, the app handling both.
        func tap(_ view: View) throws {
            time += 200
            try WaylandTests.tap(rig, app, at: view.convert(view.bounds, to: nil).center, time: time)
        }

        /// Steps the app until what the module last recorded satisfies `condition`.
        func waitForState(_ what: String, _ condition: (TextInputSnapshot) -> Bool) throws {
            try waitForTextInput(rig, app, what, condition)
        }

        /// The input method sends one done: what `set` asks of the module, then done.
        func inputMethod(_ update: ScriptEvent.Kind) throws {
            try sendInputMethod(rig, app, update)
        }

        /// The rectangle the app should report for `field`'s caret, in whole surface pixels.
        func expectedRectangle(_ field: TextField) throws -> TextInputSnapshot.Rectangle {
            let r = try #require(window.textInputState?.cursorRectangle)
            let x = r.minX.rounded(.down)
            let y = r.minY.rounded(.down)
            return .init(
                x: Int(clamping: x), y: Int(clamping: y), width: Int(clamping: r.maxX - x, rounding: .up),
                height: Int(clamping: r.maxY - y, rounding: .up))
        }
    }

    @Test func aTouchFocusedFieldEnablesTextInputWithItsCaretRectangleAndContentType() throws {
        let form = try Form()
        #expect(form.window.hasSystemInputMethod)
        try form.app.pump(
            until: {
                try form.rig.input.roundtrip(); return form.rig.input.textInputEntered
            }, "enter")
        #expect(form.rig.input.textInput == nil, "nothing committed before a field has the focus")

        try form.tap(form.name)
        #expect(form.name.isFocused && form.window.focusedByTouch)
        try form.waitForState("enabled with a rectangle") { $0.enabled && $0.cursorRectangle != nil }
        let state = try #require(form.rig.input.textInput)
        #expect(state.surroundingText == "" && state.cursor == 0 && state.anchor == 0)
        #expect(state.purpose == 0 && state.hint == 0)
        // The caret of an empty field: 10 px in from the field's left edge, a line tall, centred
        // in the 44 px field; the field sits at (16, 20) in the form, which has not scrolled.
        let rect = try #require(state.cursorRectangle)
        let font = try #require(Font.standard)
        let line = font.metrics().lineHeight
        #expect(rect.x == 16 + 10)
        #expect(rect.y == Int(clamping: 20 + (44 - line) / 2, rounding: .down))
        #expect(rect.width == 2)
        #expect(rect.height == Int(clamping: 20 + (44 - line) / 2 + line, rounding: .up) - rect.y)
        #expect(rect == (try form.expectedRectangle(form.name)))
        // The system keyboard types: the in-app one stays down.
        try form.app.settle()
        #expect(form.keyboard.visibleFraction == 0)

        // A number field asks for the number purpose (3), after a new enable.
        try form.tap(form.amount)
        try form.waitForState("the number purpose") { $0.enabled && $0.purpose == 3 }
        #expect(form.rig.input.textInput?.cursorRectangle?.y == Int(clamping: 80 + (44 - line) / 2, rounding: .down))

        // Focus moving to the button (a tap elsewhere) disables text input.
        try form.tap(form.done)
        try form.waitForState("disabled") { !$0.enabled }
        #expect(form.window.textInputState == nil)
        // Every commit counted: the serial is the number of commits so far, one per report.
        let serials = form.rig.input.textInputHistory.map(\.serial)
        #expect(serials == Array(1...UInt32(serials.count)))
    }

    @Test func preeditShowsUnderlinedThenCommitAndDeleteEditTheField() throws {
        let form = try Form()
        try form.tap(form.name)
        try form.waitForState("enabled") { $0.enabled && $0.cursorRectangle != nil }

        // A preedit: drawn in place, underlined; not part of the text or the surrounding text.
        try form.inputMethod(.preedit("mmm", cursor: 3...3))
        #expect(form.name.preedit == "mmm" && form.name.text == "")
        try form.rig.parkPointer()
        try form.app.settle()
        let shot = try form.rig.capture()
        let font = try #require(Font.standard)
        let m = font.metrics()
        let row = Int(clamping: 20 + (44 - m.lineHeight) / 2 + m.ascent + 1, rounding: .down)
        let x0 = 16 + 10 + 1
        let x1 = Int(clamping: 16 + 10 + font.width(of: "mmm"), rounding: .down) - 1
        func dark(_ x: Int, _ y: Int) -> Bool { shot.pixel(x: x, y: y) & 0xFF < 0x60 }
        #expect((x0..<x1).allSatisfy { dark($0, row) }, "an underline under the preedit at row \(row)")
        #expect(!(x1 + 6..<x1 + 40).contains { dark($0, row) }, "no underline past the preedit")
        // The caret rectangle follows the preedit's cursor.
        try form.waitForState("the caret after the preedit") {
            $0.cursorRectangle?.x == Int(clamping: 16 + 10 + font.width(of: "mmm"), rounding: .down)
        }
        #expect(form.rig.input.textInput?.surroundingText == "")

        // A commit replaces the preedit with the text; the surrounding text follows in bytes.
        try form.inputMethod(.commitText("héllo wörld"))
        #expect(form.name.text == "héllo wörld")
        #expect(form.name.preedit == "")
        try form.waitForState("the committed text") { $0.surroundingText == "héllo wörld" && $0.cursor == 13 }

        // Deleting 6 bytes before the caret removes "wörld" (5 characters, 6 bytes).
        try form.inputMethod(.deleteSurrounding(before: 6, after: 0))
        #expect(form.name.text == "héllo ")
        try form.waitForState("the text after deleting") { $0.surroundingText == "héllo " && $0.cursor == 7 }
        // Without an underline now.
        try form.app.settle()
        let after = try form.rig.capture()
        #expect(!(x0..<x1).contains { after.pixel(x: $0, y: row) & 0xFF < 0x60 }, "no underline once committed")
    }

    /// Text longer than the protocol's 4000 bytes: the app sends a window of it around the
    /// caret, cut between characters, with the caret's offset inside that window.
    @Test func longTextIsSentAsA4000ByteWindowAroundTheCaret() throws {
        let form = try Form()
        try form.tap(form.name)
        try form.waitForState("enabled") { $0.enabled && $0.cursorRectangle != nil }
        let chunk = String(repeating: "é", count: 1500)  // 3000 bytes, one message
        try form.inputMethod(.commitText(chunk))
        try form.inputMethod(.commitText(chunk))
        #expect(form.name.text.utf8.count == 6000)
        try form.waitForState("a clipped window") { ($0.surroundingText?.utf8.count ?? 0) > 3000 }
        let state = try #require(form.rig.input.textInput)
        let sent = try #require(state.surroundingText)
        #expect(sent.utf8.count == 4000)
        #expect(sent.allSatisfy { $0 == "é" })
        // The caret is at the end of the text, so at the end of the window.
        #expect(state.cursor == 4000 && state.anchor == 4000)
    }

    @Test func aFieldNearTheBottomStaysInViewWhenTheWindowShrinksAndItsRectangleFollows() throws {
        let form = try Form()
        try form.tap(form.bottom)
        try form.waitForState("enabled") { $0.enabled && $0.cursorRectangle != nil }
        let before = try #require(form.rig.input.textInput?.cursorRectangle)
        #expect(before.y > 530)
        // The shell makes room for a system keyboard: 300 px less.
        form.rig.input.resizeFocused(width: 390, height: 300)
        try form.rig.input.roundtrip()
        try form.app.pump(until: { form.window.bounds.height == 300 }, "the configure to 390×300")
        try form.app.settle()
        let frame = form.bottom.convert(form.bottom.bounds, to: nil)
        #expect(frame.maxY <= 300 - ScrollView.focusMargin + 0.5, "the field in view above the new bottom")
        #expect(frame.minY >= 0)
        #expect(form.scroll.contentOffset.y > 0)
        // The input method hears where the caret went.
        try form.waitForState("the rectangle moved up") { ($0.cursorRectangle?.y ?? 1000) < 300 }
        #expect(form.rig.input.textInput?.cursorRectangle == (try form.expectedRectangle(form.bottom)))
    }
}
