import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayViews
import Testing

@testable import ScrollwayScrolling

/// The multi-line text view inside a long form: wrapping and content size, the caret kept in
/// sight (a keyboard inset included), line-wise keys, selection, the clipboard, and keys that
/// never reach the form.
@MainActor
@Suite struct TextViewTests {
    let rig = ScrollBench()
    let field = TextField(placeholder: "name", frame: Rect(x: 20, y: 200, width: 350, height: 44))
    let notes = TextView(frame: Rect(x: 20, y: 300, width: 300, height: 116))
    var font: Font { Font.standard! }
    var lineHeight: Double { font.metrics(scale: 1).lineHeight }
    /// The text's width inside the view.
    var textWidth: Double { notes.bounds.width - notes.textInset.horizontal }

    init() {
        rig.content.addSubview(field)
        rig.content.addSubview(notes)
        rig.settle()
    }

    /// Presses and releases `key` 30 ms apart, with the text the press types (as a platform
    /// sends it, right after the key event), then lets motion settle.
    func press(_ key: Key, _ modifiers: Modifiers = [], text: String? = nil) {
        let t = rig.time + 0.02
        rig.send(.key(key, pressed: true, modifiers: modifiers), at: t)
        if let text { rig.send(.text(text), at: t) }
        rig.send(.key(key, pressed: false, modifiers: modifiers), at: t + 0.03)
        rig.settle()
    }

    func type(_ s: String) {
        for ch in s {
            if ch == "\n" { press(.enter) } else { press(ch == " " ? .space : .other(String(ch)), text: String(ch)) }
        }
    }

    func focusNotes() {
        notes.becomeFocused()
        rig.settle()
    }

    /// The visual lines' texts (the shown text cut at each line's start).
    var lineTexts: [String] {
        let chars = Array(notes.text)
        return notes.lines.map { String(chars[$0.start..<min($0.end, chars.count)]) }
    }

    /// A long paragraph is wrapped in pieces (so a keystroke re-shapes one piece, issue 36 item
    /// 12): its lines are the ones wrapping it whole gives, with the same layouts, and after an
    /// edit in its middle they are still those of the edited text wrapped whole.
    /// An empty text view's caret waits where its placeholder is drawn: at the right under a
    /// right-to-left one (it stayed at the left), at the left under a Latin one; typed Hebrew
    /// starts there.
    @Test func anEmptyTextViewsCaretWaitsWhereItsPlaceholderStarts() throws {
        notes.placeholder = "הערות"
        focusNotes()
        let right = notes.bounds.width - notes.textInset.right
        #expect(abs(notes.caretRect.minX - right) < 0.5, "caret at \(notes.caretRect.minX)")
        #expect(notes.runsRightToLeft(at: 0))
        notes.editing.replaceSelection(with: "ש")
        let font = try #require(notes.font ?? Font.standard)
        #expect(abs(notes.caretRect.minX - (right - font.width(of: "ש"))) < 1, "\(notes.caretRect.minX)")
        notes.text = ""
        notes.placeholder = "Notes"
        #expect(abs(notes.caretRect.minX - notes.textInset.left) < 0.5)
        #expect(!notes.runsRightToLeft(at: 0))
    }

    @Test func aLongParagraphWrapsInPiecesAsItWouldWhole() {
        var words = ""
        var n: UInt64 = 7
        for _ in 0..<900 {
            n = n &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            words += String(repeating: "m", count: Int(n >> 61) + 1) + ((n >> 40) % 5 == 0 ? "\u{301} " : " ")
        }
        func expectWholeWrap(_ text: String, _ note: String) {
            notes.text = text
            notes.layoutIfNeeded()
            let whole = TextView.wrap(text, font: font, width: textWidth, scale: 1, direction: TextDirection.of(text))
            #expect(text.count > 3 * TextView.pieceLength, "\(note)")
            #expect(notes.lines.map(\.start) == whole.map(\.start), "\(note)")
            #expect(notes.lines.map(\.end) == whole.map(\.end), "\(note)")
            #expect(notes.lines.map(\.layout) == whole.map(\.layout), "\(note)")
        }
        expectWholeWrap(words, "as typed")
        var edited = words
        edited.insert(contentsOf: "inserted words in the middle ", at: edited.index(edited.startIndex, offsetBy: 1500))
        expectWholeWrap(edited, "after an edit in the second piece")
    }

    /// A keystroke into a long text redraws the strip of lines it typed into, not the whole
    /// text (issue 36, item 12: the notes view redrew a 390 × 16,500 px image per keystroke).
    @Test func aKeystrokeRedrawsOnlyTheStripItTypesInto() {
        focusNotes()
        notes.text = (0..<200).map { "line \($0)" }.joined(separator: "\n")
        notes.editing.moveCaret(to: notes.text.count)
        rig.settle()
        let strips = notes.content.subviews.compactMap { $0 as? TextStrip }
        #expect(strips.count == (200 + TextStrip.lineCount - 1) / TextStrip.lineCount)
        let before = strips.map(\.drawCount)
        type("x")
        let redrawn = zip(strips, before).filter { $0.drawCount != $1 }.map { $0.0.lines }
        #expect(redrawn == [(192..<200)], "strips redrawn: \(redrawn)")
        // The caret moving to another strip redraws the one it left and the one it enters.
        let moved = strips.map(\.drawCount)
        notes.editing.moveCaret(to: 0)
        rig.settle()
        #expect(zip(strips, moved).filter { $0.drawCount != $1 }.map(\.0.lines) == [0..<16, 192..<200])
    }

    @Test func textWrapsToTheWidthAndTheContentGrowsWithIt() {
        notes.text = String(repeating: "wrap these words ", count: 12)
        notes.layoutIfNeeded()
        #expect(notes.lines.count > 3)
        for line in lineTexts {
            let drawn = line.hasSuffix(" ") ? String(line.dropLast()) : line
            #expect(font.width(of: drawn) <= textWidth, "\(drawn) wider than \(textWidth)")
        }
        // The lines hold the whole text, in order.
        #expect(lineTexts.joined() == notes.text)
        #expect(notes.contentSize.height == notes.textInset.vertical + Double(notes.lines.count) * lineHeight)
        #expect(notes.contentSize.height > notes.bounds.height)
        // Return breaks the line: one more line, the content one line taller.
        focusNotes()
        let (lines, height) = (notes.lines.count, notes.contentSize.height)
        press(.enter)
        #expect(notes.text.hasSuffix("\n"))
        #expect(notes.lines.count == lines + 1)
        #expect(notes.contentSize.height == height + lineHeight)
    }

    /// Typing line after line past the bottom, with a keyboard covering the view's lower half:
    /// the view scrolls so that the caret stays above the keyboard, and the form keeps it in
    /// the window.
    @Test func theCaretStaysInSightAboveAKeyboardInsetWhileTyping() {
        notes.setInsetContribution(EdgeInsets(top: 0, left: 0, bottom: 50, right: 0), for: .keyboard)
        focusNotes()
        for i in 1...12 {
            type("line \(i)\n")
            let caret = notes.caretRect
            let visibleTop = notes.contentOffset.y + notes.adjustedContentInset.top
            let visibleBottom = notes.contentOffset.y + notes.bounds.height - notes.adjustedContentInset.bottom
            #expect(caret.minY >= visibleTop - 1e-9 && caret.maxY <= visibleBottom + 1e-9, "line \(i): \(caret)")
        }
        #expect(notes.contentOffset.y > 0)
        let onScreen = notes.convert(notes.caretRect, to: nil)
        #expect(onScreen.minY >= 0 && onScreen.maxY <= rig.window.bounds.height)
    }

    @Test func upAndDownMoveByVisualLineKeepingTheX() {
        notes.text = "the first line here\nab\nthe first line here"
        focusNotes()
        notes.editing.moveCaret(to: 14)  // "the first line| here"
        let x = notes.caretRect.minX
        press(.down)
        #expect(notes.editing.caret == 22)  // the end of the short "ab"
        press(.down)
        #expect(notes.editing.caret == 23 + 14)  // back at the x it started from
        #expect(abs(notes.caretRect.minX - x) < 1)
        press(.up)
        press(.up)
        #expect(notes.editing.caret == 14)
        // Within a wrapped paragraph too: Down goes to the next visual line, not paragraph.
        notes.text = String(repeating: "wrap these words ", count: 6)
        notes.editing.moveCaret(to: 2)
        press(.down)
        #expect(notes.editing.caret > 2 && notes.editing.caret < notes.text.count)
        #expect(notes.lineIndex(ofShown: notes.editing.caret) == 1)
    }

    @Test func homeEndAndPageKeysMoveInsideTheViewAndNeverScrollTheForm() {
        notes.text = (1...30).map { "line \($0)" }.joined(separator: "\n")
        focusNotes()
        notes.editing.moveCaret(to: 0)
        rig.settle()
        let form = rig.scroll.contentOffset
        let perPage = notes.linesPerPage
        press(.pageDown)
        #expect(notes.lineIndex(ofShown: notes.editing.caret) == perPage)
        #expect(notes.contentOffset.y > 0)
        press(.pageDown)
        #expect(notes.lineIndex(ofShown: notes.editing.caret) == 2 * perPage)
        press(.end)
        #expect(
            notes.editing.caret
                == notes.text.components(separatedBy: "\n").prefix(2 * perPage + 1).joined(separator: "\n").count)
        press(.home)
        press(.pageUp)
        #expect(notes.lineIndex(ofShown: notes.editing.caret) == perPage)
        for key in [Key.space, .up, .down, .left, .right, .home, .end, .pageDown, .pageUp, .enter] {
            press(key, text: key == .space ? " " : nil)
        }
        // Every key was the text view's: the form never moved.
        #expect(rig.scroll.contentOffset == form)
        // Unfocused, the form pages as ever.
        notes.resignFocus()
        press(.pageDown)
        #expect(rig.scroll.contentOffset.y > form.y)
    }

    @Test func shiftExtendsASelectionThatTypingReplacesAndBackspaceDeletes() {
        notes.text = "hello brave world"
        focusNotes()
        notes.editing.moveCaret(to: 11)
        for _ in 0..<5 { press(.left, .shift) }
        #expect(notes.editing.selectedText == "brave")
        type("X")
        #expect(notes.text == "hello X world")
        press(.home, .shift)
        #expect(notes.editing.selectedText == "hello X")
        press(.backspace)
        #expect(notes.text == " world")
        press(.other("a"), .control)
        #expect(notes.editing.selectedText == " world")
        // Left collapses a selection to its start.
        press(.left)
        #expect(notes.editing.caret == 0 && notes.editing.selection.isEmpty)
        // The field shares the rules.
        field.text = "one two"
        field.becomeFocused()
        press(.left, .shift)
        press(.left, .shift)
        press(.left, .shift)
        #expect(field.editing.selectedText == "two")
        press(.backspace)
        #expect(field.text == "one ")
    }

    /// Ctrl steps by word, as GTK's and Qt's fields do (and as Orca reads a word at a time):
    /// Left to a word's start, Right to its end, with Shift selecting, and Backspace and Delete
    /// deleting to there; an apostrophe or a hyphen inside a word is the word's.
    @Test func ctrlMovesSelectsAndDeletesByWord() {
        field.text = "Don't stop, e-mail me"
        field.becomeFocused()
        field.editing.moveCaret(to: 21)
        press(.left, .control)
        #expect(field.editing.caret == 19)
        press(.left, .control)
        #expect(field.editing.caret == 12)
        press(.left, .control)
        #expect(field.editing.caret == 6)  // over ", " and into "stop"
        press(.left, .control)
        press(.left, .control)
        #expect(field.editing.caret == 0)
        press(.right, .control)
        #expect(field.editing.caret == 5)
        press(.right, [.control, .shift])
        #expect(field.editing.selectedText == " stop")
        press(.left, .control)  // a selection collapses to its side first, as with a plain arrow
        #expect(field.editing.caret == 5 && field.editing.selection.isEmpty)
        press(.right, [.control, .shift])
        press(.right)
        press(.right, .control)
        #expect(field.editing.caret == 18)  // the end of "e-mail"
        press(.backspace, .control)
        #expect(field.text == "Don't stop,  me" && field.editing.caret == 12)
        press(.other("Delete"), .control)
        #expect(field.text == "Don't stop, " && field.editing.caret == 12)
        press(.backspace, .control)
        #expect(field.text == "Don't " && field.editing.caret == 6)
        // In a text view too, across a line break.
        notes.text = "first\nsecond"
        focusNotes()
        notes.editing.moveCaret(to: 6)
        press(.left, .control)
        #expect(notes.editing.caret == 0)
        press(.right, .control)
        press(.right, .control)
        #expect(notes.editing.caret == 12)
    }

    /// Where each character is drawn (what a screen reader's magnifier follows): on its own
    /// line, one after another, and the point inside a character finds it again.
    @Test func charactersHaveBoxesOnTheirLinesAndPointsFindThem() throws {
        notes.text = "first\nsecond"
        focusNotes()
        let f = try #require(notes.characterRect(at: 0))
        let i = try #require(notes.characterRect(at: 4))
        let s = try #require(notes.characterRect(at: 6))
        let e = try #require(notes.characterRect(at: 7))
        #expect(f.minX == notes.textInset.left && f.minY == notes.textInset.top && f.width > 2, "\(f)")
        #expect(i.minY == f.minY && i.minX > f.maxX - 0.5)
        #expect(abs(s.minY - (f.minY + lineHeight)) < 0.001 && s.minX == notes.textInset.left, "\(s)")
        #expect(abs(e.minX - s.maxX) < 0.001 && e.minY == s.minY)
        #expect(notes.textIndex(at: Point(x: e.minX + 1, y: e.midY)) == 7)
        #expect(notes.characterRect(at: 12) == nil && notes.characterRect(at: -1) == nil)
        field.text = "abc"
        let b = try #require(field.characterRect(at: 1))
        #expect(b.width > 2 && field.textIndex(at: Point(x: b.minX + 1, y: b.midY)) == 1, "\(b)")
    }

    @Test func copyCutAndPasteRoundTripThroughTheWindowsPasteboard() {
        let pasteboard = rig.window.pasteboard as! MemoryPasteboard
        field.text = "hello"
        field.becomeFocused()
        press(.other("a"), .control)
        press(.other("c"), .control)
        #expect(pasteboard.text == "hello")
        #expect(field.text == "hello")
        focusNotes()
        notes.text = "say: "
        notes.editing.moveCaret(to: 5)
        press(.other("v"), .control)
        press(.enter)
        press(.other("v"), .control)
        #expect(notes.text == "say: hello\nhello")
        // Cut the first line, line break included.
        notes.editing.moveCaret(to: 0)
        press(.down, .shift)
        press(.other("x"), .control)
        #expect(pasteboard.text == "say: hello\n")
        #expect(notes.text == "hello")
        // Pasted into a field, the line break becomes a space.
        field.becomeFocused()
        press(.other("v"), .control)
        #expect(field.text == "hellosay: hello ")
        // Nothing selected: copy leaves the pasteboard as it was.
        press(.other("c"), .control)
        #expect(pasteboard.text == "say: hello\n")
    }

    @Test func theSelectionIsHighlightedInTheTint() throws {
        notes.text = "select me please"
        focusNotes()
        notes.editing.moveCaret(to: 7)
        press(.right, .shift)
        press(.right, .shift)
        #expect(notes.editing.selectedText == "me")
        let canvas = try Offscreen.render(rig.window)
        let line = notes.lines[0]
        let x0 = notes.x(ofShown: 7, line: 0)
        let x1 = notes.x(ofShown: 9, line: 0)
        // A pixel of the selection band above the glyphs' ascent is the tint over white; one
        // just past the band is white.
        func windowPixel(_ x: Double) -> Color {
            let p = notes.convert(Point(x: x, y: line.y + 1), to: nil)
            return canvas.color(x: Int(clamping: p.x), y: Int(clamping: p.y))
        }
        let inside = windowPixel((x0 + x1) / 2)
        let outside = windowPixel(x1 + 6)
        #expect(inside.blue > inside.red + 0.1, "\(inside)")
        #expect(outside.red > 0.95 && outside.blue > 0.95, "\(outside)")
    }

    /// Left and Right move the caret the way they point on a right-to-left line, and as before
    /// on a left-to-right one below it.
    @Test func arrowsMoveTheWayTheyPointOnRightToLeftLines() {
        notes.text = "שלום\nabc"
        focusNotes()
        notes.editing.moveCaret(to: 0)
        press(.left)
        #expect(notes.editing.caret == 1)
        press(.right)
        #expect(notes.editing.caret == 0)
        notes.editing.moveCaret(to: 5)
        press(.right)
        #expect(notes.editing.caret == 6)
    }

    /// A right-to-left paragraph's lines end at the right inset, and every one of them runs
    /// right to left, a wrapped line of Latin words too: each wrapped line was laid out as a
    /// paragraph of its own, left-aligned, in its own first letter's direction.
    @Test func aRightToLeftParagraphsLinesAlignRightInItsDirection() throws {
        notes.text = "שלום " + String(repeating: "abc ", count: 40) + "\nabc"
        rig.settle()
        let right = notes.bounds.width - notes.textInset.right
        let lines = notes.lines
        #expect(lines.count >= 3)
        // "ש", the paragraph's first letter, ends at the right inset.
        let shin = try #require(notes.characterRect(at: 0))
        #expect(abs(shin.maxX - right) < 0.5, "\(shin)")
        // The second line, all Latin: right to left, its last letter at the right inset.
        let second = lines[1]
        #expect(notes.runsRightToLeft(at: second.start))
        let lastLetter = try #require(notes.characterRect(at: second.end - 2))  // before its space
        #expect(abs(lastLetter.maxX - right) < 0.5, "\(lastLetter) on a line of \(second.start)..<\(second.end)")
        // The last paragraph, Latin, is at the left inset as before.
        let last = try #require(lines.last)
        #expect(!notes.runsRightToLeft(at: last.start))
        #expect(try #require(notes.characterRect(at: last.start)).minX == notes.textInset.left)
    }

    /// A new font lays the text out again: with the same text, width and scale the layout
    /// counted as done, and the lines kept the old font's height and glyphs.
    @Test func aNewFontLaysTheTextOutAgain() throws {
        notes.text = "one\ntwo"
        rig.settle()
        let before = notes.contentSize.height
        notes.font = try Font.system(size: 32)
        rig.settle()
        let line = try Font.system(size: 32).metrics(scale: 1).lineHeight
        #expect(
            notes.contentSize.height == notes.textInset.vertical + 2 * line, "\(before) → \(notes.contentSize.height)")
        #expect(line > lineHeight)
    }

    /// Right-to-left text is highlighted where its selected characters are drawn: the band was
    /// one span from the selection's first caret to its last, filled only when that ran left to
    /// right, so a Hebrew selection showed none.
    @Test func aRightToLeftSelectionIsHighlighted() throws {
        notes.text = "שלום עולם"
        focusNotes()
        notes.editing.moveCaret(to: 9)
        for _ in 0..<4 { press(.right, .shift) }  // rightwards: back through right-to-left text
        #expect(notes.editing.selectedText == "עולם")
        let canvas = try Offscreen.render(rig.window)
        let line = notes.lines[0]
        // "עולם", the last word, is drawn leftmost: its carets run from x(9) (left) to x(5).
        let x9 = notes.x(ofShown: 9, line: 0)
        let x5 = notes.x(ofShown: 5, line: 0)
        let x0 = notes.x(ofShown: 0, line: 0)
        #expect(x9 < x5 && x5 < x0)
        func windowPixel(_ x: Double) -> Color {
            let p = notes.convert(Point(x: x, y: line.y + 1), to: nil)
            return canvas.color(x: Int(clamping: p.x), y: Int(clamping: p.y))
        }
        let inside = windowPixel((x9 + x5) / 2)
        let unselected = windowPixel((x5 + x0) / 2 + 2)
        #expect(inside.blue > inside.red + 0.1, "\(inside)")
        #expect(unselected.red > 0.95 && unselected.blue > 0.95, "\(unselected)")
    }

    /// A finger tap focuses the view with the caret where it lands; a finger drag scrolls the
    /// text; a mouse drag selects (in a field too).
    @Test func aTapFocusesATouchDragScrollsAndAMouseDragSelects() {
        notes.text = (1...20).map { "line \($0)" }.joined(separator: "\n")
        notes.layoutIfNeeded()
        let origin = notes.convert(Point.zero, to: nil)
        let secondLine = Point(x: origin.x + 200, y: origin.y + notes.textInset.top + lineHeight * 1.5)
        rig.send(from: rig.time + 0.02) { $0.tap(at: secondLine, at: 0, hold: 50, id: 3) }
        rig.settle()
        #expect(notes.isFocused && rig.window.focusedByTouch)
        #expect(notes.editing.caret == "line 1\nline 2".count)
        let form = rig.scroll.contentOffset
        rig.drag(from: secondLine + Point(x: 0, y: 60), to: secondLine, duration: 0.2)
        rig.settle()
        #expect(notes.contentOffset.y > 20)
        #expect(rig.scroll.contentOffset == form)
        #expect(notes.editing.selection.isEmpty)
        // The mouse: press on the first visible line's start, drag down a line.
        notes.setContentOffset(.zero, animated: false)
        let first = Point(x: origin.x + notes.textInset.left + 1, y: origin.y + notes.textInset.top + lineHeight / 2)
        var t = rig.time + 0.02
        rig.send(.pointerEnter(position: first), at: t)
        rig.send(.pointerButton(.left, pressed: true), at: t)
        for k in 1...4 {
            t += 0.016
            rig.send(.pointerMotion(position: first + Point(x: 0, y: lineHeight * Double(k) / 4)), at: t)
        }
        rig.send(.pointerButton(.left, pressed: false), at: t + 0.016)
        rig.settle()
        #expect(notes.editing.selectedText == "line 1\n")
        // In a field.
        let f = field.convert(Point(x: 12, y: 22), to: nil)
        field.text = "drag select"
        t = rig.time + 0.02
        rig.send(.pointerMotion(position: f), at: t)
        rig.send(.pointerButton(.left, pressed: true), at: t)
        rig.send(.pointerMotion(position: f + Point(x: font.width(of: "drag"), y: 0)), at: t + 0.02)
        rig.send(.pointerButton(.left, pressed: false), at: t + 0.04)
        rig.settle()
        #expect(field.isFocused)
        #expect(field.editing.selectedText == "drag")
    }

    @Test func tabStopsAtTheTextView() {
        press(.tab)
        #expect(field.isFocused)
        press(.tab)
        #expect(notes.isFocused)
        // Typed text goes in; Tab itself moves on rather than typing.
        type("hi")
        press(.tab)
        #expect(field.isFocused && notes.text == "hi")
    }

    @Test func textInputStateReportsTheCaretInWindowCoordinatesAndTheSelection() {
        notes.text = "ab\ncd"
        focusNotes()
        notes.editing.moveCaret(to: 4)
        notes.editing.moveCaret(to: 1, extending: true)
        let state = rig.window.textInputState!
        #expect(state.surroundingText == "ab\ncd")
        #expect(state.cursor == 1 && state.anchor == 4)
        #expect(state.contentType.hints.contains(.multiline))
        #expect(state.cursorRectangle == notes.convert(notes.caretRect, to: nil))
        // A preedit shows at the caret and counts in the layout.
        notes.editing.moveCaret(to: 5)
        _ = notes.handleInput(
            InputEvent(
                time: rig.time, .textInput(TextInputUpdate(preedit: "xyz", preeditCursor: .init(begin: 3, end: 3)))))
        #expect(notes.editing.preedit == "xyz")
        #expect(notes.text == "ab\ncd")
        #expect(notes.caretRect.minX > notes.x(ofShown: 5, line: 1))
    }

    /// The caret and the tinted ring show while the view has the focus, and go when it leaves.
    @Test func theCaretAndTheRingShowOnlyWhileFocused() throws {
        notes.text = "abc"
        focusNotes()
        func pixels() throws -> (caret: Color, ring: Color) {
            let canvas = try Offscreen.render(rig.window)
            let c = notes.convert(notes.caretRect, to: nil)
            let ring = notes.convert(Point(x: notes.bounds.midX, y: 1), to: nil)
            return (
                canvas.color(x: Int(clamping: c.minX), y: Int(clamping: c.midY)),
                canvas.color(x: Int(clamping: ring.x), y: Int(clamping: ring.y))
            )
        }
        let focused = try pixels()
        #expect(focused.caret.blue > 0.9 && focused.caret.red < 0.3, "\(focused.caret)")
        #expect(focused.ring.blue > 0.9 && focused.ring.red < 0.3, "\(focused.ring)")
        field.becomeFocused()
        rig.settle()
        let unfocused = try pixels()
        #expect(unfocused.caret.red > 0.9, "\(unfocused.caret)")
        #expect(unfocused.ring.red > 0.5, "\(unfocused.ring)")
    }
}
