import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import Testing

@testable import ScrollwayViews

/// The input-method half of text fields, offscreen: zwp_text_input_v3's done order, UTF-8 byte
/// offsets over multibyte text, the 4000-byte surrounding-text window, and the preedit's
/// underline in pixels.
@MainActor
@Suite struct TextInputTests {
    // MARK: The editing model

    @Test func doneAppliesInTheProtocolsOrder() {
        // "ab|cd" with a preedit "xy": delete one byte each side, commit "Q", new preedit "z".
        var e = TextEditing(text: "abcd", caret: 2)
        e.apply(TextInputUpdate(preedit: "xy"))
        #expect(e.text == "abcd" && e.caret == 2 && e.preedit == "xy")
        // The old preedit goes first (it never counts in the deletion), the deletion is around
        // the caret, the commit lands where the deletion left the caret, the preedit after it.
        e.apply(
            TextInputUpdate(
                preedit: "z", preeditCursor: .init(begin: 1, end: 1), commit: "Q", deleteBefore: 1, deleteAfter: 1))
        #expect(e.text == "aQd")
        #expect(e.caret == 2)
        #expect(e.preedit == "z")
        #expect(e.preeditCursor == .init(begin: 1, end: 1))
        // A done with nothing in it clears the preedit.
        e.apply(TextInputUpdate())
        #expect(e.preedit == "" && e.preeditCursor == nil && e.text == "aQd")
    }

    /// An app's caret, anchor and text setters keep the caret and anchor inside the text: a
    /// caret set past the end, then typed at, had walked off the text (a trap, or a character
    /// count gone wrong for the next edit).
    @Test func settersKeepTheCaretAndAnchorInTheText() {
        var e = TextEditing(text: "héllo", caret: 2)
        e.caret = 99
        #expect(e.caret == 5 && e.anchor == 2)
        e.anchor = -7
        #expect(e.anchor == 0 && e.selection == 0..<5)
        e.replaceSelection(with: "ab")
        #expect(e.text == "ab" && e.caret == 2 && e.characterCount == 2)
        e.caret = -1
        e.anchor = 1_000_000
        #expect(e.caret == 0 && e.anchor == 2)
        e.deleteForward()
        #expect(e.text == "" && e.caret == 0 && e.characterCount == 0)
        // A shorter text set from outside takes the caret and anchor in with it.
        e.text = "0123456789"
        e.moveCaret(to: 9)
        e.anchor = 4
        e.text = "x😀"
        #expect(e.caret == 2 && e.anchor == 2 && e.characterCount == 2)
        e.replaceSelection(with: "!")
        #expect(e.text == "x😀!" && e.caret == 3 && e.byteOffset(ofCharacter: e.caret) == 6)
        e.apply(TextInputUpdate(deleteBefore: 1, deleteAfter: 0))
        #expect(e.text == "x😀" && e.caret == 2)
        // Through a field's own `editing`, as an app may set it.
        let field = TextField(frame: Rect(x: 0, y: 0, width: 200, height: 40))
        field.text = "abc"
        field.editing.anchor = 10
        field.editing.caret = 10
        field.editing.replaceSelection(with: "d")
        #expect(field.text == "abcd" && field.caret == 4)
    }

    /// Canonically equivalent texts are different edits: "é" composed and "e" + U+0301 are equal
    /// Strings, drawn with different glyphs, so an input method's decomposed commit over a
    /// composed text must redraw the field. A preedit likewise.
    @Test func canonicallyEquivalentTextsAreDifferentEdits() throws {
        let composed = TextEditing(text: "caf\u{E9}")
        var decomposed = TextEditing(text: "cafe\u{301}")
        #expect(composed.text == decomposed.text && composed.caret == decomposed.caret)
        #expect(composed != decomposed)
        #expect(composed == TextEditing(text: "caf\u{E9}"))
        decomposed.text = "caf\u{E9}"
        #expect(composed == decomposed)
        var a = composed
        var b = composed
        a.apply(TextInputUpdate(preedit: "\u{E9}"))
        b.apply(TextInputUpdate(preedit: "e\u{301}"))
        #expect(a != b)

        let field = TextField(frame: Rect(x: 0, y: 0, width: 200, height: 40))
        field.text = "caf\u{E9}"
        let window = Window(size: Size(width: 200, height: 40), scale: 1)
        window.addSubview(field)
        let canvas = try Canvas(size: window.bounds.size, scale: 1)
        try window.render(into: canvas)
        #expect(!field.needsDisplay)
        field.text = "cafe\u{301}"
        #expect(field.needsDisplay)
    }

    @Test func byteOffsetsOverMultibyteText() {
        // é is two bytes, ö two, 😀 four: the caret after "hé" is at byte 3.
        var e = TextEditing(text: "hé😀ö", caret: 2)
        #expect(e.byteOffset(ofCharacter: 2) == 3)
        #expect(e.surrounding().cursor == 3)
        // Deleting 2 bytes before removes é whole; 4 after removes 😀 whole.
        e.apply(TextInputUpdate(deleteBefore: 2, deleteAfter: 4))
        #expect(e.text == "hö")
        #expect(e.caret == 1)
        // A length that ends inside a character takes that character too (never half of one).
        var f = TextEditing(text: "aé", caret: 2)
        f.apply(TextInputUpdate(deleteBefore: 1))
        #expect(f.text == "a")
        // Commit puts the caret after the committed text, counted in characters.
        var g = TextEditing(text: "hllo", caret: 1)
        g.apply(TextInputUpdate(commit: "é"))
        #expect(g.text == "héllo" && g.caret == 2 && g.byteOffset(ofCharacter: g.caret) == 3)
        // Deleting more than there is stops at the ends.
        var h = TextEditing(text: "ab", caret: 1)
        h.apply(TextInputUpdate(deleteBefore: 50, deleteAfter: 50))
        #expect(h.text == "" && h.caret == 0)
    }

    @Test func surroundingTextIsAWindowOfAtMost4000BytesAroundTheCaret() {
        let short = TextEditing(text: "héllo", caret: 5)
        #expect(short.surrounding() == ("héllo", 6, 6))
        // 3000 two-byte characters (6000 bytes), caret in the middle.
        let text = String(repeating: "é", count: 3000)
        let mid = TextEditing(text: text, caret: 1500)
        let s = mid.surrounding()
        #expect(s.text.utf8.count <= 4000)
        #expect(s.text.utf8.count >= 3998)
        #expect(s.cursor == s.anchor)
        // The caret sits where it does in the whole text: 1500 é before it overall, and the
        // window's part before it is all é too.
        #expect(s.cursor % 2 == 0 && s.cursor >= 1900 && s.cursor <= 2100)
        #expect(String(decoding: Array(s.text.utf8)[..<s.cursor], as: UTF8.self).count * 2 == s.cursor)
        // Near the end: the window ends at the text's end and holds the caret.
        let end = TextEditing(text: text, caret: 3000)
        let e = end.surrounding()
        #expect(e.text.utf8.count == 4000 && e.cursor == 4000)
        let start = TextEditing(text: text, caret: 0)
        #expect(start.surrounding().cursor == 0 && start.surrounding().text.utf8.count == 4000)
        // A 4-byte character at the cut is never split: odd limits still give whole characters.
        let emoji = TextEditing(text: String(repeating: "😀", count: 2000), caret: 1000)
        let w = emoji.surrounding(limit: 4001)
        #expect(w.text.utf8.count % 4 == 0 && w.cursor % 4 == 0)
    }

    // MARK: Fields

    func focusedField(_ text: String = "") -> (Window, TextField) {
        let window = Window(size: Size(width: 300, height: 100))
        let field = TextField(frame: Rect(x: 20, y: 30, width: 260, height: 44))
        field.text = text
        window.addSubview(field)
        field.becomeFocused(byTouch: true)
        return (window, field)
    }

    /// The caret stands where the shaped, reordered glyphs put it: in a right-to-left word it
    /// is on the left of the text at its end and on the right at its start (the width of the
    /// text before it, measured left to right, put it at the opposite ends). The word stands at
    /// the box's right edge, as a right-to-left line starts there.
    @Test func theCaretFollowsRightToLeftText() throws {
        let (window, _) = focusedField("שלום")
        let font = try #require(Font.standard)
        let width = font.width(of: "שלום")
        #expect(width > 10)
        let right = 20.0 + 260 - 10
        let atEnd = try #require(window.textInputState).cursorRectangle.minX
        #expect(abs(atEnd - (right - width)) < 1, "caret at the end of a right-to-left word: \(atEnd)")
        window.handle(InputEvent(time: 1, .key(.home, pressed: true, modifiers: [])))
        let atStart = try #require(window.textInputState).cursorRectangle.minX
        #expect(abs(atStart - right) < 1, "caret at its start: \(atStart)")
    }

    /// An empty field's caret waits where its placeholder's text starts: at the box's right
    /// edge under a Hebrew placeholder (it stayed at the left while the placeholder was drawn
    /// at the right), at the left under a Latin one; typed Hebrew stays at the right.
    @Test func anEmptyFieldsCaretWaitsWhereItsPlaceholderStarts() throws {
        let (window, field) = focusedField()
        let box = (left: 20.0 + 10, right: 20.0 + 260 - 10)
        field.placeholder = "חיפוש"
        #expect(abs(try #require(window.textInputState).cursorRectangle.minX - box.right) < 0.5)
        window.handle(InputEvent(time: 1, .text("ש")))
        let font = try #require(Font.standard)
        let typed = try #require(window.textInputState).cursorRectangle.minX
        #expect(abs(typed - (box.right - font.width(of: "ש"))) < 1, "after typing: \(typed)")
        // A phone number's first digit under a Hebrew placeholder stays at the right.
        field.text = ""
        field.placeholder = "טלפון"
        window.handle(InputEvent(time: 2, .text("1")))
        let digit = try #require(window.textInputState).cursorRectangle.minX
        #expect(digit >= box.right - font.width(of: "1") - 1, "after a digit: \(digit)")
        field.text = ""
        field.placeholder = "Search"
        #expect(abs(try #require(window.textInputState).cursorRectangle.minX - box.left) < 0.5)
        field.placeholder = ""
        #expect(abs(try #require(window.textInputState).cursorRectangle.minX - box.left) < 0.5)
    }

    /// A right-to-left text longer than the field starts at the box's right edge and scrolls
    /// leftwards: at its end the caret is at the left edge, Home brings the text's start to the
    /// right edge (its first letter drawn there), End takes the caret back to the left. The
    /// field scrolled as if the text ran rightwards, so its start never came into sight.
    @Test func aLongRightToLeftTextScrollsFromTheRight() throws {
        let long = String(repeating: "גלול אותי הצידה ", count: 105)
        let (window, field) = focusedField(long)
        let font = try #require(Font.standard)
        let box = (left: 20.0 + 10, right: 20.0 + 260 - 10)
        let atEnd = try #require(window.textInputState).cursorRectangle.minX
        #expect(atEnd >= box.left - 0.5 && atEnd < box.left + font.width(of: "ם"), "caret at the end: \(atEnd)")
        window.handle(InputEvent(time: 1, .key(.home, pressed: true, modifiers: [])))
        #expect(field.caret == 0)
        #expect(abs(try #require(window.textInputState).cursorRectangle.minX - box.right) < 0.5)
        // The first letter is drawn at the right edge: ink in the box's last 12 px, none past it;
        // the text runs on to the left edge.
        let canvas = try Offscreen.render(window)
        let rows = 30 + 12..<30 + 32
        func inked(_ xs: Range<Int>, _ canvas: Canvas) -> Bool {
            xs.contains { x in rows.contains { y in canvas.pixel(x: x, y: y) & 0xFF < 0x60 } }
        }
        let edge = 20 + 260 - 10
        #expect(inked(edge - 12..<edge, canvas) && inked(30..<42, canvas))
        #expect(!inked(edge + 1..<edge + 8, canvas))
        window.handle(InputEvent(time: 2, .key(.end, pressed: true, modifiers: [])))
        #expect(try #require(window.textInputState).cursorRectangle.minX == atEnd)
        // At the end too the box is full, from the right edge, and its last letter is in sight
        // beside the caret.
        let last = try #require(field.characterRect(at: long.count - 2))
        #expect(last.minX >= box.left - 20 - 0.5 && last.maxX <= box.left - 20 + 30, "\(last)")
        let atEndDrawn = try Offscreen.render(window)
        #expect(inked(edge - 12..<edge, atEndDrawn) && inked(30..<42, atEndDrawn))
        // Typing at the end keeps the caret at the left edge.
        window.handle(InputEvent(time: 3, .text("אבג")))
        let typed = try #require(window.textInputState).cursorRectangle.minX
        #expect(typed >= box.left - 0.5 && typed < box.left + font.width(of: "ם"), "after typing: \(typed)")
    }

    /// In a line of both directions the field's part in sight moves sideways to keep the
    /// caret in the box, and the text is drawn where that puts it, where the caret, the
    /// character rectangles and clicks say it is (it was drawn by alignment alone).
    @Test func aMixedLineIsDrawnWhereItsCaretAndCharactersAre() throws {
        let hebrew = String(repeating: "שלום ", count: 20).trimmingCharacters(in: .whitespaces)
        let text = "a " + hebrew + String(repeating: " ", count: 40)
        let (window, field) = focusedField(text)
        #expect(!field.runsRightToLeft(at: field.caret))
        // The first trailing space: the Hebrew run's ink ends at its left.
        let space = field.convert(try #require(field.characterRect(at: 2 + hebrew.count)), to: nil)
        let canvas = try Offscreen.render(window)
        let rows = 30 + 12..<30 + 32
        let inked = (30..<270).filter { x in rows.contains { y in canvas.pixel(x: x, y: y) & 0xFF < 0x60 } }
        let caret = try #require(window.textInputState).cursorRectangle
        let lastInk = try #require(inked.filter { Double($0) < caret.minX - 1 }.last)
        #expect(Double(lastInk) <= space.minX + 2 && Double(lastInk) >= space.minX - 12, "\(lastInk) \(space)")
    }

    /// The part of a line in sight runs in the whole line's direction: scrolled to Latin words
    /// in a Hebrew line, the field still runs right to left (its part in sight was laid out in
    /// its own first letter's direction, so Left and Right swapped as the field scrolled).
    @Test func theLineInSightRunsInTheWholeLinesDirection() throws {
        let (window, field) = focusedField("שלום " + String(repeating: "abc def ", count: 100))
        let box = (left: 20.0 + 10, right: 20.0 + 260 - 10)
        #expect(field.runsRightToLeft(at: field.caret))
        // At the end (the logical end of a right-to-left line), the caret is at the left edge.
        let atEnd = try #require(window.textInputState).cursorRectangle.minX
        #expect(atEnd >= box.left - 0.5 && atEnd < box.left + 20, "caret at the end: \(atEnd)")
        field.text = "abc " + String(repeating: "שלום ", count: 100)
        #expect(!field.runsRightToLeft(at: field.caret))
    }

    /// In right-to-left text Left and Right move the caret the way they point: Left, from the
    /// text's start (its right end), steps past its first letter. They stepped through the text
    /// in its order, so Left went right.
    @Test func arrowsMoveTheWayTheyPointInRightToLeftText() throws {
        let (window, field) = focusedField("שלום")
        window.handle(InputEvent(time: 1, .key(.home, pressed: true, modifiers: [])))
        #expect(field.caret == 0)
        let atStart = try #require(window.textInputState).cursorRectangle.minX
        window.handle(InputEvent(time: 2, .key(.left, pressed: true, modifiers: [])))
        #expect(field.caret == 1)
        #expect(try #require(window.textInputState).cursorRectangle.minX < atStart)
        window.handle(InputEvent(time: 3, .key(.right, pressed: true, modifiers: [])))
        #expect(field.caret == 0)
        // Left to right text is as it was.
        field.text = "abc"
        field.editing.moveCaret(to: 0)
        window.handle(InputEvent(time: 4, .key(.right, pressed: true, modifiers: [])))
        #expect(field.caret == 1)
    }

    /// A line break in a field's text (set by the app, or an input method's commit) shows as a
    /// space, one character for one: since every break ends a line, the one line a field shows
    /// ended there ("ab…"), and carets past it were clamped to it.
    @Test func aLineBreakInAFieldShowsAsASpace() throws {
        let (window, field) = focusedField("ab\r\ncd\u{2028}ef")
        let font = try #require(Font.standard)
        let atEnd = try #require(window.textInputState).cursorRectangle.minX
        #expect(abs(atEnd - (20 + 10 + font.width(of: "ab cd ef"))) < 1, "caret at the end: \(atEnd)")
        #expect(field.text.count == 8)
    }

    /// A text longer than the field scrolls sideways so that the caret stays in sight (as
    /// UITextField does; only the run in sight is shaped, issue 36 item 12): at the end of 2,000
    /// characters the caret is at the box's right edge, Home brings the text's start back to
    /// its left edge, and End the caret back to the right.
    @Test func aLongTextScrollsToKeepTheCaretInSight() throws {
        let long = String(repeating: "scroll me sideways ", count: 105)
        let (window, _) = focusedField(long)
        let font = try #require(Font.standard)
        let box = (left: 20.0 + 10, right: 20.0 + 260 - 10)
        let atEnd = try #require(window.textInputState).cursorRectangle.minX
        #expect(atEnd > box.right - font.width(of: "m") && atEnd <= box.right + 0.5, "caret at the end: \(atEnd)")
        window.handle(InputEvent(time: 1, .key(.home, pressed: true, modifiers: [])))
        #expect(abs(try #require(window.textInputState).cursorRectangle.minX - box.left) < 0.5)
        window.handle(InputEvent(time: 2, .key(.end, pressed: true, modifiers: [])))
        #expect(try #require(window.textInputState).cursorRectangle.minX == atEnd)
        // Typing at the end keeps it there; the text shown ends at the caret.
        window.handle(InputEvent(time: 3, .text("abc")))
        let typed = try #require(window.textInputState).cursorRectangle.minX
        #expect(typed > box.right - font.width(of: "m") && typed <= box.right + 0.5, "after typing: \(typed)")
    }

    @Test func theFocusedFieldTakesUpdatesAndReportsItsState() throws {
        let (window, field) = focusedField("hllo")
        field.contentType = .number
        window.handle(InputEvent(time: 1, .key(.home, pressed: true, modifiers: [])))
        window.handle(InputEvent(time: 1, .key(.right, pressed: true, modifiers: [])))
        window.handle(InputEvent(time: 2, .textInput(TextInputUpdate(commit: "é"))))
        #expect(field.text == "héllo")
        let state = try #require(window.textInputState)
        #expect(state.surroundingText == "héllo" && state.cursor == 3 && state.anchor == 3)
        #expect(state.contentType.purpose == .number)
        // The caret rectangle is in window coordinates: the field's origin, 10 px padding, and
        // the width of "hé"; as tall as a line, centred in the field.
        let font = try #require(Font.standard)
        let lineHeight = font.metrics().lineHeight
        #expect(state.cursorRectangle.minX == 20 + 10 + font.width(of: "hé"))
        #expect(state.cursorRectangle.minY == 30 + (44 - lineHeight) / 2)
        #expect(state.cursorRectangle.height == lineHeight)
        // A preedit moves the caret rectangle to its cursor, not the surrounding text.
        window.handle(
            InputEvent(time: 3, .textInput(TextInputUpdate(preedit: "wö", preeditCursor: .init(begin: 1, end: 1)))))
        let withPreedit = try #require(window.textInputState)
        #expect(withPreedit.surroundingText == "héllo" && withPreedit.cursor == 3)
        #expect(withPreedit.cursorRectangle.minX == 20 + 10 + font.width(of: "héw"))
        // Focus gone: no state (the platform disables), and updates go nowhere.
        field.resignFocus()
        #expect(window.textInputState == nil)
        window.handle(InputEvent(time: 4, .textInput(TextInputUpdate(commit: "x"))))
        #expect(field.text == "héllo")
    }

    /// The preedit is drawn in place and underlined: a dark row under its glyphs, and the same
    /// row empty under the committed text beside it.
    @Test func preeditIsUnderlinedInPixels() throws {
        let (window, field) = focusedField("ab")
        _ = field
        let font = try #require(Font.standard)
        let before = try Offscreen.render(window)
        window.handle(InputEvent(time: 1, .textInput(TextInputUpdate(preedit: "mmmm", preeditCursor: nil))))
        let canvas = try Offscreen.render(window)
        let m = font.metrics()
        let row = Int(clamping: 30 + (44 - m.lineHeight) / 2 + m.ascent + 1, rounding: .down)
        let x0 = 20 + 10 + font.width(of: "ab")
        let x1 = 20 + 10 + font.width(of: "abmmmm")
        func dark(_ c: Canvas, _ x: Int, _ y: Int) -> Bool { c.pixel(x: x, y: y) & 0xFF < 0x60 }
        let under = (Int(clamping: x0, rounding: .up) + 1..<Int(clamping: x1, rounding: .down) - 1).filter {
            dark(canvas, $0, row)
        }
        #expect(
            under.count == Int(clamping: x1, rounding: .down) - 1 - (Int(clamping: x0, rounding: .up) + 1),
            "an unbroken underline")
        let underCommitted = (22 + 10..<Int(clamping: x0, rounding: .down) - 1).filter { dark(canvas, $0, row) }
        #expect(underCommitted.isEmpty, "no underline under committed text")
        // Without the preedit the row is not underlined there.
        #expect(
            (Int(clamping: x0, rounding: .up) + 1..<Int(clamping: x1, rounding: .down) - 1).filter {
                dark(before, $0, row)
            }.isEmpty)
        // Committing ends the underline.
        window.handle(InputEvent(time: 2, .textInput(TextInputUpdate(commit: "mmmm"))))
        let after = try Offscreen.render(window)
        #expect(field.text == "abmmmm")
        #expect(
            (Int(clamping: x0, rounding: .up) + 1..<Int(clamping: x1, rounding: .down) - 1).filter {
                dark(after, $0, row)
            }.isEmpty)
    }
}
