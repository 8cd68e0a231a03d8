import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayViews
import Testing

/// Tab order, focusable controls and a focused button, in a small window with no scroll view.
@MainActor
@Suite struct FocusTests {
    var time = 0.0

    /// Views by identity (views are not Equatable).
    func ids(_ views: [View?]) -> [ObjectIdentifier?] { views.map { $0.map(ObjectIdentifier.init) } }

    mutating func press(_ window: Window, _ key: Key, _ modifiers: Modifiers = []) {
        time += 0.1
        window.handle(InputEvent(time: time, .key(key, pressed: true, modifiers: modifiers)))
        window.handle(InputEvent(time: time + 0.05, .key(key, pressed: false, modifiers: modifiers)))
    }

    /// Two fields side by side on the first row, a button below them, another field below that.
    func form() -> (Window, TextField, TextField, Button, TextField) {
        let window = Window(size: Size(width: 200, height: 200))
        let right = TextField(frame: Rect(x: 110, y: 10, width: 80, height: 30))
        let left = TextField(frame: Rect(x: 10, y: 10, width: 80, height: 30))
        let button = Button(title: "", frame: Rect(x: 10, y: 60, width: 100, height: 40))
        let last = TextField(frame: Rect(x: 10, y: 120, width: 80, height: 30))
        // Added out of order: the tab order is where they are, not when they were added.
        for v in [last, right, button, left] { window.addSubview(v) }
        return (window, left, right, button, last)
    }

    @Test mutating func tabGoesInReadingOrderAndWraps() {
        let (window, left, right, button, last) = form()
        #expect(ids(window.focusableViews) == ids([left, right, button, last]))
        var seen: [View?] = []
        for _ in 0..<5 {
            press(window, .tab)
            seen.append(window.focusedView)
        }
        #expect(ids(seen) == ids([left, right, button, last, left]))
        press(window, .tab, .shift)
        #expect(window.focusedView === last)
        press(window, .tab, .shift)
        #expect(window.focusedView === button)
        #expect(!window.focusedByTouch)
    }

    /// A focused view that leaves the window, alone or with what holds it, gives the focus up
    /// (keys had gone on to it out of the window); one moved to another place in the window
    /// keeps it.
    @Test mutating func aFocusedViewThatLeavesTheWindowGivesUpTheFocus() {
        let (window, left, right, button, _) = form()
        left.becomeFocused()
        left.removeFromSuperview()
        #expect(window.focusedView == nil && !left.isFocused)
        let panel = View(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        window.addSubview(panel)
        panel.addSubview(right)
        #expect(right.window === window)
        right.becomeFocused()
        let box = View(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        window.addSubview(box)
        box.addSubview(right)
        #expect(window.focusedView === right)
        box.removeFromSuperview()
        #expect(window.focusedView == nil)
        press(window, .tab)
        #expect(window.focusedView === button)
    }

    @Test mutating func controlsOptOutAndHiddenOnesAreSkipped() {
        let (window, left, right, button, last) = form()
        right.canBecomeFocused = false
        last.isHidden = true
        #expect(ids(window.focusableViews) == ids([left, button]))
        // A plain control opts in.
        let custom = Control(frame: Rect(x: 150, y: 170, width: 10, height: 10))
        custom.canBecomeFocused = true
        window.addSubview(custom)
        #expect(ids(window.focusableViews) == ids([left, button, custom]))
        // Ctrl+Tab is a shortcut, not focus movement.
        press(window, .tab, .control)
        #expect(window.focusedView == nil)
    }

    @Test mutating func enterAndSpaceOnAFocusedButtonFireIt() {
        let (window, _, _, button, _) = form()
        var fired = 0
        button.onTap = { fired += 1 }
        button.becomeFocused()
        press(window, .enter)
        #expect(fired == 1)
        press(window, .space)
        #expect(fired == 2 && button.tapCount == 2)
        // Not focused: Enter does nothing to it.
        button.resignFocus()
        press(window, .enter)
        #expect(fired == 2)
    }

    @Test mutating func aFocusedButtonShowsItsFocusRing() throws {
        let window = Window(size: Size(width: 120, height: 60))
        let button = Button(title: "", frame: Rect(x: 10, y: 10, width: 100, height: 40))
        button.fillColor = Color(rgb: 0, 0, 200)
        button.titleColor = .white
        window.addSubview(button)
        // On the ring: inset 3 px, 2 px wide, so x 13…15 along the left edge at mid-height.
        let onRing = (x: 14, y: 30)
        let fill = Color(rgb: 0, 0, 200).premultipliedARGB
        var canvas = try Offscreen.render(window)
        #expect(canvas.pixel(x: onRing.x, y: onRing.y) == fill)
        press(window, .tab)
        #expect(button.isFocused)
        canvas = try Offscreen.render(window)
        #expect(canvas.pixel(x: onRing.x, y: onRing.y) == Color.white.premultipliedARGB)
        // Inside and outside the ring the fill is unchanged.
        #expect(canvas.pixel(x: 11, y: 30) == fill)
        #expect(canvas.pixel(x: 20, y: 30) == fill)
        var ring = 0
        for y in 10..<50 {
            for x in 10..<110 where canvas.pixel(x: x, y: y) == Color.white.premultipliedARGB { ring += 1 }
        }
        #expect(ring > 300, "ring pixels \(ring)")
        button.resignFocus()
        canvas = try Offscreen.render(window)
        #expect(canvas.pixel(x: onRing.x, y: onRing.y) == fill)
    }

    /// What an input method was composing in a field goes when the focus leaves it: never
    /// committed, it is not part of the text, and the disable tells the input method so.
    @Test func aFieldThatLosesTheFocusDropsItsPreedit() {
        let (window, left, right, _, _) = form()
        window.focus(left, byTouch: false)
        left.text = "ab"
        window.handle(InputEvent(time: 1, .textInput(TextInputUpdate(preedit: "xy"))))
        #expect(left.editing.preedit == "xy" && left.editing.shownText.count == 4)
        window.focus(right, byTouch: false)
        #expect(left.editing.preedit == "" && left.editing.preeditCursor == nil)
        #expect(left.text == "ab")
    }

    /// A window without the keyboard keeps its focused view but shows neither its ring nor its
    /// caret, and shows them again when the keyboard comes back: pixels, not flags.
    @Test func aWindowWithoutTheKeyboardShowsNoRingOrCaret() throws {
        let (window, left, _, _, _) = form()
        let blank = try Offscreen.render(window)
        window.focus(left, byTouch: false)
        let focused = try Offscreen.render(window)
        func changed(_ a: Canvas, _ b: Canvas) -> Int {
            var n = 0
            for y in 0..<a.height { for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { n += 1 } }
            return n
        }
        #expect(changed(blank, focused) > 50, "the focused field shows no ring")
        window.isKeyWindow = false
        #expect(left.isFocused && !left.showsFocus)
        #expect(changed(blank, try Offscreen.render(window)) == 0, "ring or caret drawn without the keyboard")
        window.isKeyWindow = true
        #expect(changed(focused, try Offscreen.render(window)) == 0)
    }
}
