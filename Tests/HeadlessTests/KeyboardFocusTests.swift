import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// Keyboard focus in the keyboard scene (a long form of fields): Tab and Shift+Tab move it in
/// reading order and scroll the form to the field; a focused field keeps the keys it types and
/// edits with, and the form still pages and steps by the others.
@MainActor
@Suite struct KeyboardFocusTests {
    let d = SceneDriver(.keyboard)
    var form: ScrollView { d.main }

    func field(_ i: Int) -> TextField { d.window.view(named: "field\(i)") as! TextField }

    /// Presses and releases `key` 50 ms apart, a frame after now, then lets motion settle.
    func press(_ key: Key, _ modifiers: Modifiers = [], text: String? = nil) {
        let t = d.time + 0.02
        d.send(.key(key, pressed: true, modifiers: modifiers), at: t)
        // A platform sends the text a press types right after its key event (WaylandKeyboard).
        if let text { d.send(.text(text), at: t) }
        d.send(.key(key, pressed: false, modifiers: modifiers), at: t + 0.05)
        d.driver.settle()
    }

    /// `view`'s frame in the form's visible area (window coordinates; the form fills the window).
    func onScreen(_ view: View) -> Rect { view.convert(view.bounds, to: nil) }

    /// At the form's end with the on-screen keyboard up, hiding it shrinks the range under the
    /// offset as the keyboard slides down: the offset springs after the moving edge and rests on
    /// it, never gliding past it into the range (it was taken for a throw back in: it glided on
    /// for 3 s and rested 19 px short of the new end).
    @Test func hidingTheKeyboardAtTheEndRestsOnTheNewEndWithoutGlidingPastIt() {
        press(.end)
        let keyboard = d.window.view(named: "keyboard") as! OnScreenKeyboard
        // Touch the lowest field in view: the keyboard rises and the form scrolls it above it,
        // past the end the form has without the keyboard.
        let fields = (1...KeyboardForm.fields).filter { onScreen(field($0)).maxY < form.bounds.height - 10 }
        let low = onScreen(field(fields.last!))
        d.driver.send(from: d.time + 0.02) { $0.tap(at: Point(x: low.midX, y: low.midY), at: 0, hold: 50) }
        d.driver.settle()
        #expect(keyboard.visibleFraction == 1)
        let up = form.contentOffset.y
        keyboard.hide()
        let start = d.time
        var lowest = up
        while d.window.hasActiveAnimations, d.time < start + 5 {
            d.driver.advance(by: 1 / 60)
            lowest = min(lowest, form.contentOffset.y)
        }
        let end = form.verticalRange.upperBound
        #expect(end < up - 50, "the keyboard's inset is gone: the end \(end), the offset was \(up)")
        #expect(form.contentOffset.y == end)
        #expect(lowest > end - 1, "went \(end - lowest) px past the new end")
        #expect(d.time - start < 1.5, "moved for \(d.time - start) s")
    }

    @Test func tabFromNothingFocusesTheFirstFieldWithoutTheOnScreenKeyboard() {
        #expect(d.window.focusedView == nil)
        press(.tab)
        #expect(field(1).isFocused)
        #expect(d.window.focusedByTouch == false)
        let keyboard = d.window.view(named: "keyboard") as! OnScreenKeyboard
        #expect(keyboard.visibleFraction == 0)
        #expect(form.contentOffset.y == 0)
    }

    @Test func tabReachesAFieldBelowTheFoldAndTheFormShowsItWithTheMargin() {
        // The first field whose bottom (plus the margin) lies below the window's bottom.
        let height = form.bounds.height
        let below = (1...KeyboardForm.fields).first { onScreen(field($0)).maxY + ScrollView.focusMargin > height }!
        for _ in 1...below { press(.tab) }
        #expect(field(below).isFocused)
        let r = onScreen(field(below))
        // Fully visible with 12 px below it, and no further than that (least distance).
        #expect(abs(r.maxY + ScrollView.focusMargin - height) < 0.5, "field bottom \(r.maxY) in \(height)")
        #expect(form.contentOffset.y > 0)
        // Shift+Tab goes back to the field above, already in view: no scroll.
        let offset = form.contentOffset
        press(.tab, .shift)
        #expect(field(below - 1).isFocused)
        #expect(form.contentOffset == offset)
    }

    /// A system keyboard that reserves space shrinks the window (Phosh does): the focused field
    /// stays in sight, 12 px clear of the new bottom, with the spring; without a focused field,
    /// or when the window grows, nothing scrolls.
    @Test func aWindowThatShrinksUnderAFocusedFieldKeepsItInSight() {
        let height = form.bounds.height
        // The lowest field wholly in view: 300 px less of window would hide it.
        let low = (1...KeyboardForm.fields).last { onScreen(field($0)).maxY + ScrollView.focusMargin <= height }!
        #expect(onScreen(field(low)).maxY > height - 300)
        // Without focus, shrinking scrolls nothing.
        d.window.resize(to: Size(width: d.window.bounds.width, height: height - 300))
        d.driver.settle()
        #expect(form.contentOffset.y == 0)
        d.window.resize(to: Size(width: d.window.bounds.width, height: height))
        d.driver.settle()

        field(low).becomeFocused(byTouch: false)
        d.window.resize(to: Size(width: d.window.bounds.width, height: height - 300))
        // The frame at the new size starts the spring; the next one is on its way.
        d.driver.advance(by: 2 / 60)
        let moving = form.contentOffset.y
        d.driver.settle()
        let r = onScreen(field(low))
        #expect(abs(r.maxY + ScrollView.focusMargin - (height - 300)) < 0.5, "field bottom \(r.maxY)")
        #expect(moving > 0 && moving < form.contentOffset.y, "no spring: \(moving) then \(form.contentOffset.y)")
        // Growing back leaves the form where it is.
        let offset = form.contentOffset
        d.window.resize(to: Size(width: d.window.bounds.width, height: height))
        d.driver.settle()
        #expect(form.contentOffset == offset)
    }

    /// The notes text view at the form's end is the last stop.
    var notes: TextView { d.window.view(named: "notes") as! TextView }

    @Test func tabPastTheLastWrapsToTheFirstAndScrollsBackUp() {
        for _ in 1...KeyboardForm.fields { press(.tab) }
        #expect(field(KeyboardForm.fields).isFocused)
        press(.tab)
        #expect(notes.isFocused)
        let last = onScreen(notes)
        #expect(last.minY >= 0 && last.maxY <= form.bounds.height)
        let atTheLast = form.contentOffset.y
        #expect(atTheLast > 0)
        press(.tab)
        #expect(field(1).isFocused)
        // Back up the least distance: the first field's top 12 px below the window's top.
        let first = onScreen(field(1))
        #expect(abs(first.minY - ScrollView.focusMargin) < 0.5, "first field's top at \(first.minY)")
        #expect(form.contentOffset.y < atTheLast)
        // And Shift+Tab from the first wraps to the last.
        press(.tab, .shift)
        #expect(notes.isFocused)
        press(.tab, .shift)
        #expect(field(KeyboardForm.fields).isFocused)
    }

    @Test func shiftTabFromNothingFocusesTheLast() {
        press(.tab, .shift)
        #expect(notes.isFocused)
        #expect(onScreen(notes).maxY <= form.bounds.height)
    }

    /// Typing lines into the notes at the form's end with the on-screen keyboard up: the caret
    /// stays above the keyboard, in the notes and in the window, and the form never takes the
    /// keys (Space, Return, arrows, Page Down).
    @Test func typingLinesIntoTheNotesKeepsTheCaretAboveTheKeyboard() {
        let keyboard = d.window.view(named: "keyboard") as! OnScreenKeyboard
        // Bring the notes into view first (Shift+Tab from nothing), then tap them.
        press(.tab, .shift)
        d.window.focus(nil, byTouch: false)
        d.driver.settle()
        let p = notes.convert(notes.bounds.center, to: nil)
        d.send(from: d.time + 0.05) { $0.tap(at: p, at: 0, hold: 50, id: 4) }
        d.driver.settle()
        #expect(notes.isFocused && keyboard.visibleFraction == 1)
        // The notes' own keyboard inset is what the keyboard covers of them where the form
        // brought them (above it: nothing), not where they were when it rose.
        let covered = max(0, notes.convert(notes.bounds, to: nil).maxY - keyboard.top)
        #expect(notes.adjustedContentInset.bottom == covered)
        for i in 1...9 {
            for ch in "note \(i)" { press(ch == " " ? .space : .other(String(ch)), text: String(ch)) }
            press(.enter)
            let caret = notes.convert(notes.caretRect, to: nil)
            #expect(caret.maxY <= keyboard.top, "line \(i): caret \(caret) under the keyboard at \(keyboard.top)")
            #expect(caret.minY >= 0)
        }
        #expect(notes.text.hasPrefix("note 1\nnote 2\n"))
        #expect(notes.contentOffset.y > 0)
        let formOffset = form.contentOffset
        press(.pageUp)
        press(.down)
        press(.space, text: " ")
        #expect(form.contentOffset == formOffset)
    }

    @Test func tabScrollsWithAnAnimation() {
        let height = form.bounds.height
        let below = (1...KeyboardForm.fields).first { onScreen(field($0)).maxY + ScrollView.focusMargin > height }!
        for _ in 1..<below { press(.tab) }
        var seen: [Double] = []
        d.afterFrame = { seen.append(self.form.contentOffset.y) }
        press(.tab)
        let goal = form.contentOffset.y
        #expect(seen.contains { $0 > 0 && $0 < goal - 0.5 }, "offsets \(seen)")
    }

    @Test func spaceInAFocusedFieldTypesOneSpaceAndDoesNotPageTheForm() {
        press(.tab)
        press(.other("a"), text: "a")
        press(.space, text: " ")
        press(.other("b"), text: "b")
        #expect(field(1).text == "a b")
        #expect(form.contentOffset.y == 0)
    }

    @Test func theCaretKeysStayInTheFieldAndPageDownStillScrolls() {
        press(.tab)
        for ch in "abc" { press(.other(String(ch)), text: String(ch)) }
        press(.left)
        press(.left)
        #expect(field(1).caret == 1)
        press(.right)
        press(.home)
        #expect(field(1).caret == 0)
        press(.end)
        press(.backspace)
        #expect(field(1).text == "ab")
        #expect(form.contentOffset.y == 0)
        // Page Down is not the field's: the form pages, and the field keeps the focus.
        press(.pageDown)
        #expect(form.contentOffset.y > 0)
        #expect(field(1).isFocused)
    }

    @Test func downStillStepsTheFormWhileAFieldHasFocus() {
        press(.tab)
        press(.down)
        #expect(form.contentOffset.y == ScrollView.arrowStep)
        press(.up)
        #expect(form.contentOffset.y == 0)
    }

    @Test func withNothingFocusedSpaceStillPagesTheForm() {
        press(.space, text: " ")
        #expect(form.contentOffset.y > 0)
        #expect(field(1).text.isEmpty)
    }
}
