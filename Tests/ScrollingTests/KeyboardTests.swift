import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews
import Testing

@MainActor
@Suite struct KeyboardTests {
    /// A 390×844 scroll view over a long form with one field near the bottom of the viewport.
    func formRig(policy: OnScreenKeyboard.Policy = .touchOnly) -> (ScrollBench, TextField, OnScreenKeyboard) {
        let rig = ScrollBench()
        let field = TextField(placeholder: "name", frame: Rect(x: 20, y: 760, width: 350, height: 44))
        rig.content.addSubview(field)
        let keyboard = OnScreenKeyboard.install(in: rig.window, policy: policy)
        return (rig, field, keyboard)
    }

    func tap(_ rig: ScrollBench, _ p: Point, id: Int = 9) {
        rig.send(from: rig.time + 0.02) { $0.tap(at: p, at: 0, hold: 50, id: id) }
    }

    @Test func showAndHideChangeTheMaximumOffsetByExactlyTheObscuredHeight() {
        let (rig, _, keyboard) = formRig()
        let before = rig.scroll.verticalRange.upperBound
        keyboard.show()
        rig.settle()
        #expect(keyboard.visibleFraction == 1)
        let obscured = rig.scroll.insetContributions[.keyboard]?.bottom ?? 0
        #expect(obscured == OnScreenKeyboard.height)  // the scroll view reaches the window's bottom
        #expect(rig.scroll.verticalRange.upperBound == before + obscured)
        #expect(rig.scroll.adjustedContentInset.bottom == obscured)
        keyboard.hide()
        rig.settle()
        #expect(rig.scroll.verticalRange.upperBound == before)
        #expect(keyboard.isHidden)
    }

    /// A scroll view that reaches below the window (a text view further down the form) is
    /// covered only where it shows: nothing while the keyboard is down, and no more than the
    /// window's part of it under the keyboard while it is up.
    @Test func aScrollViewBelowTheWindowIsCoveredOnlyWhereItShows() {
        let (rig, _, keyboard) = formRig()
        let notes = ScrollView(frame: Rect(x: 20, y: 800, width: 350, height: 200))  // 844-high window
        notes.contentSize = Size(width: 350, height: 600)
        rig.content.addSubview(notes)
        rig.settle()
        keyboard.show()
        rig.settle()
        // The keyboard's top is at 844 − its height; the notes show down to 844.
        #expect(notes.insetContributions[.keyboard]?.bottom == OnScreenKeyboard.height)
        keyboard.hide()
        rig.settle()
        #expect((notes.insetContributions[.keyboard]?.bottom ?? 0) == 0)
    }

    /// `systemWhenAvailable`: the in-app keyboard is a kiosk's (no system input method) and
    /// stays down where the platform has one (the compositor offers text-input-v3).
    @Test(arguments: [false, true])
    func systemWhenAvailableLeavesTypingToASystemInputMethod(system: Bool) {
        let (rig, field, keyboard) = formRig(policy: .systemWhenAvailable)
        rig.window.hasSystemInputMethod = system
        tap(rig, Point(x: 100, y: 780))
        #expect(field.isFocused && rig.window.focusedByTouch)
        rig.settle()
        #expect(keyboard.visibleFraction == (system ? 0 : 1))
    }

    @Test func aTouchedFieldEndsAtLeast12pxAboveTheKeyboard() {
        let (rig, field, keyboard) = formRig()
        tap(rig, Point(x: 100, y: 780))
        #expect(field.isFocused)
        rig.settle()
        #expect(keyboard.visibleFraction == 1)
        let fieldBottom = field.convert(Point(x: 0, y: field.bounds.maxY), to: nil).y
        #expect(fieldBottom <= keyboard.top - 12 + 1e-9, "field bottom \(fieldBottom), keyboard top \(keyboard.top)")
        // The keyboard never makes content jump: every frame's step is a spring's, not a leap.
        let steps = zip(rig.offsets, rig.offsets.dropFirst()).map { abs($1.y - $0.y) }
        #expect(steps.allSatisfy { $0 < 40 })
    }

    @Test func policiesDecideWhenItShows() {
        let (never, nf, nk) = formRig(policy: .never)
        nf.becomeFocused(byTouch: true)
        never.settle()
        #expect(nk.visibleFraction == 0)
        let (always, af, ak) = formRig(policy: .always)
        af.becomeFocused(byTouch: false)
        always.settle()
        #expect(ak.visibleFraction == 1)
        let (touch, tf, tk) = formRig(policy: .touchOnly)
        tf.becomeFocused(byTouch: false)
        touch.settle()
        #expect(tk.visibleFraction == 0)
    }

    @Test(arguments: [ScrollView.KeyboardDismissMode.none, .onDrag, .interactive])
    func dismissModes(mode: ScrollView.KeyboardDismissMode) {
        let (rig, field, keyboard) = formRig()
        rig.scroll.keyboardDismissMode = mode
        tap(rig, Point(x: 100, y: 780))
        rig.settle()
        #expect(keyboard.visibleFraction == 1)
        // Drag the content down from above the keyboard to near the window's bottom.
        rig.drag(from: Point(x: 200, y: 400), to: Point(x: 200, y: 830), duration: 0.4, lift: false)
        switch mode {
        case .none:
            #expect(keyboard.visibleFraction == 1 && field.isFocused)
        case .onDrag:
            #expect(!field.isFocused)
        case .interactive:
            // The keyboard follows the finger below its top edge.
            #expect(keyboard.visibleFraction < 0.2)
            #expect(abs(keyboard.top - 830) < 1)
        }
        rig.send(.touchUp(id: 1), at: rig.time + 0.2)
        rig.settle()
        #expect(field.isFocused == (mode == .none))
        #expect(keyboard.visibleFraction == (mode == .none ? 1 : 0))
        #expect(rig.scroll.insetContributions[.keyboard] == nil || mode == .none)
    }

    @Test func helloWorldTypedByTapsOnTheKeyboard() throws {
        let (rig, field, keyboard) = formRig()
        tap(rig, Point(x: 100, y: 780))
        rig.settle()
        func key(_ title: String) throws {
            let frame = try #require(keyboard.keyFrame(for: title), "no key '\(title)'")
            tap(rig, frame.center)
        }
        for ch in "Hello, World" {
            for title in try #require(OnScreenKeyboard.keyTitles(typing: ch)) { try key(title) }
        }
        rig.settle()
        #expect(field.text == "Hello, World")
        // Backspace deletes before the caret; return reaches the field.
        var returned = false
        field.onReturn = { returned = true }
        try key("\u{232B}")
        try key("return")
        #expect(field.text == "Hello, Worl" && returned)
    }

    /// The keyboard itself moves with the window's bottom and spans its width (it had stayed
    /// where it stood, below a shorter window's bottom, while its insets moved), and its keys
    /// spread across the new width.
    @Test func aResizeWhileUpKeepsTheKeyboardAtTheBottomWithTheRightInset() {
        let (rig, _, keyboard) = formRig()
        keyboard.show()
        rig.settle()
        let h = OnScreenKeyboard.height
        #expect(keyboard.frame == Rect(x: 0, y: 844 - h, width: 390, height: h))
        rig.window.resize(to: Size(width: 390, height: 600))
        rig.scroll.frame = Rect(x: 0, y: 0, width: 390, height: 600)
        rig.settle()
        #expect(keyboard.top == 600 - h)
        #expect(keyboard.frame == Rect(x: 0, y: 600 - h, width: 390, height: h))
        #expect(rig.scroll.insetContributions[.keyboard]?.bottom == h)
        let narrowKeys = keyboard.subviews.map(\.frame.maxX).max() ?? 0
        rig.window.resize(to: Size(width: 800, height: 500))
        rig.scroll.frame = Rect(x: 0, y: 0, width: 800, height: 500)
        rig.settle()
        #expect(keyboard.frame == Rect(x: 0, y: 500 - h, width: 800, height: h))
        let wideKeys = keyboard.subviews.map(\.frame.maxX).max() ?? 0
        #expect(
            narrowKeys <= 390 && narrowKeys > 370 && wideKeys <= 800 && wideKeys > 780, "\(narrowKeys), \(wideKeys)")
        #expect(rig.scroll.insetContributions[.keyboard]?.bottom == h)
    }

    /// In a narrow window every key's title fits between its rounded ends, shrunk where it must
    /// be (a 320 px phone's "123" and "return" were cut to "1…" and "ret…", a 280 px window's
    /// "m" and backspace drawn blank or as "…"), and nothing shrinks at 390 px.
    @Test(arguments: [280.0, 320.0, 390.0])
    func everyKeysTitleFitsItsKey(width: Double) throws {
        let (rig, _, keyboard) = formRig()
        rig.window.resize(to: Size(width: width, height: 844))
        rig.scroll.frame = Rect(x: 0, y: 0, width: width, height: 844)
        keyboard.show()
        rig.settle()
        let standard = try #require(Font.standard)
        for shifted in [false, true] {
            if shifted, let shift = keyboard.subviews.first(where: { ($0 as? Button)?.title == "\u{21E7}" }) as? Button
            {
                shift.onTap?()
                rig.settle()
            }
            let buttons = keyboard.subviews.compactMap { $0 as? Button }
            #expect(buttons.count == 32)
            for b in buttons {
                let font = b.font ?? standard
                let room = b.frame.width - 2 * b.cornerRadius
                #expect(
                    font.width(of: b.title) <= room,
                    "'\(b.title)' at \(width) px: \(font.width(of: b.title)) in \(room)")
                #expect(font.size >= 10, "'\(b.title)' at \(font.size) px")
                if width == 390 { #expect(b.font == nil, "'\(b.title)' shrunk at 390 px") }
            }
        }
    }

    @Test func whichKeysTypeACharacter() {
        #expect(OnScreenKeyboard.keyTitles(typing: "a") == ["a"])
        #expect(OnScreenKeyboard.keyTitles(typing: "A") == ["\u{21E7}", "A"])
        #expect(OnScreenKeyboard.keyTitles(typing: ",") == ["123", ",", "ABC"])
        #expect(OnScreenKeyboard.keyTitles(typing: "7") == ["123", "7", "ABC"])
        #expect(OnScreenKeyboard.keyTitles(typing: " ") == ["space"])
        #expect(OnScreenKeyboard.keyTitles(typing: "é") == nil)
    }
}
