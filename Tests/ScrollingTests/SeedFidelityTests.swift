import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// UIKit's defaults, point by point from the UIScrollView reference, where Scrollway once did
/// something else.
@MainActor
@Suite struct SeedFidelityTests {
    // MARK: touchesShouldBegin(_:in:), asked when the reference says

    @MainActor
    /// Records when `touchesShouldBegin` is asked, and answers `answer`.
    final class AskingScrollView: ScrollView {
        var asked: [Double] = []
        var answer = true
        override func touchesShouldBegin(_ touches: [Touch], in view: View) -> Bool {
            asked.append(touches[0].timestamp)
            return answer
        }
    }

    func rig(delays: Bool = true) -> (ScrollBench, AskingScrollView, Button) {
        let scroll = AskingScrollView()
        scroll.delaysContentTouches = delays
        let rig = ScrollBench(scrollView: scroll)
        let b = Button(title: "Tap", frame: Rect(x: 100, y: 300, width: 190, height: 60))
        rig.content.addSubview(b)
        return (rig, scroll, b)
    }

    @Test func withTheDelayItIsAskedWhenThe150msPassNotAtTouchDown() {
        let (rig, scroll, b) = rig()
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 320)))
        #expect(scroll.asked.isEmpty)
        rig.advance(to: 0.151)
        #expect(scroll.asked == [0.15])
        #expect(b.isHighlighted)
    }

    @Test func aTouchThatBecameAScrollFirstIsNeverOffered() {
        let (rig, scroll, b) = rig()
        rig.drag(from: Point(x: 150, y: 330), to: Point(x: 150, y: 200), duration: 0.08)
        rig.settle()
        #expect(scroll.asked.isEmpty && b.tapCount == 0)
    }

    @Test func aQuickTapIsAskedAtTheLift() {
        let (rig, scroll, b) = rig()
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 320)))
        rig.send(.touchUp(id: 1), at: 0.08)
        #expect(scroll.asked == [0.08] && b.tapCount == 1)
    }

    @Test func withoutTheDelayItIsAskedAtTouchDown() {
        let (rig, scroll, b) = rig(delays: false)
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 320)))
        #expect(scroll.asked == [0] && b.isHighlighted)
    }

    @Test(arguments: [true, false])
    func aNoKeepsTheTouchForScrolling(delays: Bool) {
        let (rig, scroll, b) = rig(delays: delays)
        scroll.answer = false
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 330)))
        rig.advance(to: 0.2)
        #expect(scroll.asked.count == 1 && !b.isHighlighted)
        rig.send(.touchMotion(id: 1, position: Point(x: 150, y: 300)), at: 0.25)
        #expect(scroll.isDragging && scroll.contentOffset.y == 20)
        rig.send(.touchUp(id: 1), at: 0.3)
        #expect(b.tapCount == 0)
    }

    // MARK: Scroll to top

    @MainActor
    final class ScrollToTopDelegate: ScrollViewDelegate {
        var allow = true
        var log: [String] = []
        func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool {
            log.append("should")
            return allow
        }
        func scrollViewDidScrollToTop(_ scrollView: ScrollView) { log.append("did") }
    }

    /// The gesture at the top scrolls nothing and says nothing; an app's own `scrollToTop()`
    /// is not the gesture: it scrolls without asking and without `didScrollToTop` (issue 38).
    @Test func onlyTheGesturesScrollSaysItScrolledToTheTop() {
        let rig = ScrollBench()
        let d = ScrollToTopDelegate()
        rig.scroll.delegate = d
        rig.retainedDelegate = d
        #expect(rig.window.requestScrollToTop())
        rig.settle()
        #expect(d.log == ["should"] && rig.callbacks.isEmpty, "\(d.log) \(rig.callbacks)")
        rig.scroll.contentOffset = Point(x: 0, y: 3000)
        d.log = []
        rig.scroll.scrollToTop()
        rig.settle()
        #expect(rig.scroll.contentOffset == .zero)
        #expect(d.log.isEmpty && rig.callbacks == [.didEndScrollingAnimation], "\(d.log) \(rig.callbacks)")
    }

    /// Without a view to zoom, setting the zoom scale changes nothing (UIKit's stays 1).
    @Test func aZoomScaleWithoutAZoomViewStaysOne() {
        let rig = ScrollBench()
        rig.scroll.maximumZoomScale = 4
        rig.scroll.zoomScale = 2
        rig.scroll.setZoomScale(3, animated: true)
        rig.settle()
        #expect(rig.scroll.zoomScale == 1 && rig.callbacks.isEmpty, "\(rig.scroll.zoomScale) \(rig.callbacks)")
    }

    /// A zoom without animation is a jump, not a zoom gesture: the delegate hears didZoom and
    /// no willBeginZooming or didEndZooming (UIKit's setZoomScale(animated: false)); an animated
    /// one is announced from its beginning to its end.
    @Test func aZoomWithoutAnimationAnnouncesNoBeginningOrEnd() {
        let rig = ScrollBench(content: Size(width: 390, height: 844))
        rig.zoomsContent(minimum: 0.5, maximum: 4)
        let announced: (ScrollEvent) -> Bool = { e in
            if case .didEndZooming = e { return true }
            return e == .willBeginZooming
        }
        rig.scroll.zoomScale = 2
        rig.scroll.setZoomScale(3, animated: false)
        rig.scroll.zoom(to: Rect(x: 0, y: 0, width: 195, height: 422), animated: false)
        #expect(rig.scroll.zoomScale == 2)
        // Ctrl+wheel: each detent a step (×1.1 about the pointer).
        rig.send(.pointerEnter(position: Point(x: 195, y: 400)))
        rig.send(.key(.other("Control_L"), pressed: true, modifiers: .control))
        rig.send(.axis(.vertical, value: -15, source: .wheel, value120: -120))
        rig.send(.key(.other("Control_L"), pressed: false, modifiers: []))
        #expect(abs(rig.scroll.zoomScale - 2.2) < 1e-9)
        rig.settle()
        #expect(rig.events.contains(.didZoom))
        #expect(!rig.events.contains(where: announced), "\(rig.callbacks)")
        // Animated: both, the end once the animation is over.
        rig.scroll.setZoomScale(1, animated: true)
        #expect(rig.callbacks.last == .willBeginZooming)
        rig.settle()
        #expect(rig.callbacks.last == .didEndZooming(scale: 1))
    }

    @Test func theOneVisibleScrollViewScrollsToItsTopAskingFirst() {
        let rig = ScrollBench()
        let d = ScrollToTopDelegate()
        rig.scroll.delegate = d
        rig.retainedDelegate = d
        rig.scroll.contentInset = EdgeInsets(top: 40, left: 0, bottom: 0, right: 0)
        rig.scroll.contentOffset = Point(x: 0, y: 3000)
        #expect(rig.window.requestScrollToTop())
        #expect(d.log == ["should"])
        rig.settle()
        #expect(rig.scroll.contentOffset == Point(x: 0, y: -40))
        #expect(d.log == ["should", "did"])
        #expect(Array(rig.callbacks.suffix(2)) == [.didEndScrollingAnimation, .didScrollToTop])
    }

    @Test func aDelegateThatSaysNoKeepsTheOffset() {
        let rig = ScrollBench()
        let d = ScrollToTopDelegate()
        d.allow = false
        rig.scroll.delegate = d
        rig.retainedDelegate = d
        rig.scroll.contentOffset = Point(x: 0, y: 3000)
        rig.window.requestScrollToTop()
        rig.settle()
        #expect(rig.scroll.contentOffset.y == 3000 && d.log == ["should"])
    }

    /// The phone's rule (`onlyCandidate`); a desktop window's default is the larger screens'
    /// (`nearest`), where the outer one, nearer the top, would take it.
    @Test func severalCandidatesScrollNoneAsInUIKit() {
        let rig = ScrollBench()
        rig.window.scrollToTopRule = .onlyCandidate
        let inner = ScrollView(frame: Rect(x: 20, y: 100, width: 300, height: 200))
        inner.contentSize = Size(width: 300, height: 2000)
        inner.contentOffset = Point(x: 0, y: 500)
        rig.content.addSubview(inner)
        rig.scroll.contentOffset = Point(x: 0, y: 50)
        #expect(!rig.window.requestScrollToTop())
        rig.settle()
        #expect(rig.scroll.contentOffset.y == 50 && inner.contentOffset.y == 500)
        // With one of them out of it, the other scrolls.
        inner.scrollsToTop = false
        #expect(rig.window.requestScrollToTop())
        rig.settle()
        #expect(rig.scroll.contentOffset.y == 0 && inner.contentOffset.y == 500)
    }

    @Test func aTextViewTakesTheScrollToTopGestureAsUITextViewDoes() {
        #expect(TextView().scrollsToTop)
        // In a form, the form (nearer the top) takes it, and the text view stays.
        let rig = ScrollBench()
        let notes = TextView(frame: Rect(x: 20, y: 300, width: 300, height: 100))
        notes.text = String(repeating: "line\n", count: 100)
        rig.content.addSubview(notes)
        notes.contentOffset = Point(x: 0, y: 200)
        rig.scroll.contentOffset = Point(x: 0, y: 100)
        #expect(rig.window.requestScrollToTop())
        rig.settle()
        #expect(rig.scroll.contentOffset.y == 0 && notes.contentOffset.y == 200)
    }

    /// `scrollIndicatorInsets` sets both indicators' insets at once, so that the reference's
    /// `sv.scrollIndicatorInsets = sv.contentInset` can be written.
    @Test func scrollIndicatorInsetsSetsBoth() {
        let sv = ScrollView()
        let insets = EdgeInsets(top: 10, left: 2, bottom: 30, right: 4)
        sv.contentInset = insets
        sv.scrollIndicatorInsets = sv.contentInset
        #expect(sv.verticalScrollIndicatorInsets == insets && sv.horizontalScrollIndicatorInsets == insets)
        #expect(sv.scrollIndicatorInsets == insets)
        sv.horizontalScrollIndicatorInsets = .zero
        #expect(sv.scrollIndicatorInsets == insets)  // reads as the vertical one
    }

    // MARK: Properties the reference lists

    /// `isScrollEnabled = false`: no touch drag, wheel, touchpad or key scrolls it (the content
    /// keeps the touch), and the app's own offsets still apply.
    @Test func aScrollViewWithScrollingOffMovesOnlyWhenTheAppMovesIt() {
        let rig = ScrollBench()
        let content = TouchRecorder(frame: Rect(x: 0, y: 0, width: 390, height: 12000))
        rig.content.addSubview(content)
        rig.scroll.isScrollEnabled = false
        rig.drag(from: Point(x: 200, y: 600), to: Point(x: 200, y: 200), duration: 0.3)
        rig.send(.pointerEnter(position: Point(x: 200, y: 400)))
        rig.send(.axis(.vertical, value: 150, source: .wheel, value120: 1200))
        rig.send(.axis(.vertical, value: 40, source: .finger, value120: nil))
        rig.send(.axisStop(.vertical))
        rig.send(.key(.pageDown, pressed: true, modifiers: []))
        rig.send(.key(.pageDown, pressed: false, modifiers: []))
        rig.settle()
        #expect(rig.scroll.contentOffset == .zero && rig.callbacks.isEmpty, "\(rig.callbacks)")
        #expect(content.log == ["began", "moved", "ended"])
        rig.scroll.setContentOffset(Point(x: 0, y: 500), animated: true)
        rig.settle()
        #expect(rig.scroll.contentOffset.y == 500)
    }

    /// A subclass's `adjustedContentInsetDidChange()` runs once per change of the adjusted
    /// inset, before the delegate hears of it, and not when an inset is set to what it was.
    @Test func adjustedContentInsetDidChangeRunsOncePerChangeBeforeTheDelegate() {
        final class Watching: ScrollView {
            var order: [String] = []
            override func adjustedContentInsetDidChange() { order.append("hook \(adjustedContentInset.top)") }
        }
        let watching = Watching()
        let rig = ScrollBench(scrollView: watching)
        rig.scroll.eventObserver = { [unowned watching] _, e in
            if e == .didChangeAdjustedContentInset { watching.order.append("delegate") }
        }
        watching.order = []
        rig.scroll.contentInset = EdgeInsets(top: 40, left: 0, bottom: 0, right: 0)
        rig.scroll.contentInset = EdgeInsets(top: 40, left: 0, bottom: 0, right: 0)
        rig.scroll.setInsetContribution(EdgeInsets(top: 0, left: 0, bottom: 300, right: 0), for: .keyboard)
        #expect(watching.order == ["hook 40.0", "delegate", "hook 40.0", "delegate"])
    }

    /// `bouncesHorizontally` and `bouncesVertically` apart: past the top the drag stops at the
    /// edge, past the left it stretches; `bounces` sets both and reads true only for both.
    @Test func eachAxisBouncesOnItsOwn() {
        let rig = ScrollBench(viewport: Size(width: 390, height: 844), content: Size(width: 2000, height: 3000))
        rig.scroll.bouncesVertically = false
        #expect(!rig.scroll.bounces && rig.scroll.bouncesHorizontally)
        rig.drag(from: Point(x: 100, y: 200), to: Point(x: 100, y: 500), duration: 0.3, lift: false)
        #expect(rig.scroll.contentOffset.y == 0)
        rig.send(.touchUp(id: 1))
        rig.settle()
        rig.drag(from: Point(x: 100, y: 200), to: Point(x: 400, y: 200), duration: 0.3, lift: false)
        #expect(rig.scroll.contentOffset.x < -50)
        rig.send(.touchUp(id: 1))
        rig.settle()
        #expect(rig.scroll.contentOffset == .zero)
        // A fling up into the top edge stops there with no overshoot.
        rig.scroll.contentOffset = Point(x: 0, y: 400)
        rig.send { $0.flick(from: Point(x: 100, y: 300), by: Point(x: 0, y: 200), at: 0, moves: 5, id: 1) }
        var lowest = Double.infinity
        for _ in 0..<120 {
            rig.advance(by: 1 / 60)
            lowest = min(lowest, rig.scroll.contentOffset.y)
        }
        #expect(lowest == 0)
        rig.scroll.bounces = true
        #expect(rig.scroll.bouncesVertically && rig.scroll.bouncesHorizontally && rig.scroll.bounces)
    }

    /// `allowsKeyboardScrolling` off: Page Down and the arrows leave it where it is.
    @Test func keysScrollOnlyWhenAllowed() {
        let rig = ScrollBench()
        rig.scroll.allowsKeyboardScrolling = false
        #expect(!rig.scroll.acceptsKeyboardScrolling)
        rig.send(.key(.pageDown, pressed: true, modifiers: []))
        rig.send(.key(.down, pressed: true, modifiers: []))
        rig.settle()
        #expect(rig.scroll.contentOffset == .zero)
        rig.scroll.allowsKeyboardScrolling = true
        rig.send(.key(.pageDown, pressed: true, modifiers: []))
        rig.settle()
        #expect(rig.scroll.contentOffset.y == 844 - 40)
    }

    /// `isScrollAnimating` and `isZoomAnimating` while a programmatic animation runs.
    @Test func programmaticAnimationsSayTheyAreRunning() {
        let rig = ScrollBench(content: Size(width: 390, height: 844))
        rig.zoomsContent(minimum: 1, maximum: 4)
        rig.scroll.setZoomScale(2, animated: true)
        #expect(rig.scroll.isZoomAnimating && !rig.scroll.isScrollAnimating)
        rig.settle()
        #expect(!rig.scroll.isZoomAnimating)
        rig.scroll.setContentOffset(Point(x: 100, y: 300), animated: true)
        #expect(rig.scroll.isScrollAnimating && !rig.scroll.isZoomAnimating)
        rig.settle()
        #expect(!rig.scroll.isScrollAnimating && rig.scroll.contentOffset == Point(x: 100, y: 300))
    }

    /// A wheel scroll at an inner view's edge goes on outside unless the inner view keeps that
    /// axis to itself (`transfersVerticalScrollingToParent`).
    @Test func aWheelAtTheInnerEdgeGoesOutsideUnlessTheInnerViewKeepsIt() {
        func outerOffsetAfterWheel(transfers: Bool) -> Double {
            let rig = ScrollBench()
            let inner = ScrollView(frame: Rect(x: 0, y: 100, width: 390, height: 300))
            inner.contentSize = Size(width: 390, height: 600)
            inner.contentOffset = Point(x: 0, y: 300)  // at its bottom
            inner.transfersVerticalScrollingToParent = transfers
            rig.content.addSubview(inner)
            rig.send(.pointerEnter(position: Point(x: 200, y: 200)))
            rig.send(.axis(.vertical, value: 15, source: .wheel, value120: 120))
            rig.settle()
            #expect(inner.contentOffset.y == 300)
            return rig.scroll.contentOffset.y
        }
        #expect(outerOffsetAfterWheel(transfers: true) > 0)
        #expect(outerOffsetAfterWheel(transfers: false) == 0)
    }

    /// `bouncesZoom` off: a pinch stops at the limits instead of stretching past them.
    @Test func aPinchPastTheMaximumStretchesOnlyWithBouncesZoom() {
        func pinchToFourfold(bounces: Bool) -> (peak: Double, rest: Double) {
            let rig = ScrollBench(viewport: Size(width: 400, height: 400), content: Size(width: 400, height: 400))
            rig.zoomsContent(maximum: 2)
            rig.scroll.bouncesZoom = bounces
            var peak = 0.0
            rig.send(.touchDown(id: 1, position: Point(x: 150, y: 200)))
            rig.send(.touchDown(id: 2, position: Point(x: 250, y: 200)), at: 0.01)
            for i in 1...10 {
                let d = 50 + 15 * Double(i)  // to 200 px apart from the centre: ×4 asked
                rig.send(.touchMotion(id: 1, position: Point(x: 200 - d, y: 200)), at: 0.01 + 0.01 * Double(i))
                rig.send(.touchMotion(id: 2, position: Point(x: 200 + d, y: 200)), at: 0.01 + 0.01 * Double(i))
                peak = max(peak, rig.scroll.zoomScale)
            }
            rig.send(.touchUp(id: 1), at: 0.2)
            rig.send(.touchUp(id: 2), at: 0.2)
            rig.settle()
            return (peak, rig.scroll.zoomScale)
        }
        let stretching = pinchToFourfold(bounces: true)
        #expect(stretching.peak > 2.2 && abs(stretching.rest - 2) < 1e-6)
        let stopping = pinchToFourfold(bounces: false)
        #expect(stopping.peak == 2 && stopping.rest == 2)
    }

    // MARK: Paging on multiples of the bounds

    @Test func pagesAreMultiplesOfTheBoundsWhateverTheInset() {
        let rig = ScrollBench(viewport: Size(width: 390, height: 600), content: Size(width: 390, height: 6000))
        rig.scroll.isPagingEnabled = true
        rig.scroll.contentInset = EdgeInsets(top: 100, left: 0, bottom: 0, right: 0)
        rig.send(.touchDown(id: 1, position: Point(x: 200, y: 500)))
        rig.send(.touchMotion(id: 1, position: Point(x: 200, y: 300)), at: 0.3)
        rig.send(.touchMotion(id: 1, position: Point(x: 200, y: 150)), at: 0.6)
        rig.send(.touchUp(id: 1), at: 0.9)
        rig.settle()
        // 350 px dragged slowly from 0: the nearest multiple of 600 is 600 (not −100 + 600 = 500).
        #expect(rig.scroll.contentOffset.y == 600)
    }

    // MARK: Double tap, edge hand-off, indicator style

    @Test func aDoubleTapDoesNotZoomByDefault() {
        let rig = ScrollBench()
        rig.zoomsContent(maximum: 4)
        #expect(!rig.scroll.doubleTapZooms)
        rig.send(from: 0) { b in
            for t in [0.0, 200] { b.tap(at: Point(x: 100, y: 100), at: t, hold: 50, id: 1) }
        }
        rig.settle()
        #expect(rig.scroll.zoomScale == 1)
        rig.scroll.doubleTapZooms = true
        rig.send(from: rig.time + 0.5) { b in
            for t in [0.0, 200] { b.tap(at: Point(x: 100, y: 100), at: t, hold: 50, id: 1) }
        }
        rig.settle()
        #expect(rig.scroll.zoomScale == 2)
    }

    /// UIKit keeps a drag in the inner view at its edge (it rubber-bands); handing it outwards
    /// is Scrollway's opt-in extension.
    @Test(arguments: [false, true])
    func aDragAtTheInnerEdgeStaysUnlessHandOffIsOn(handsOff: Bool) {
        let rig = ScrollBench()
        let inner = ScrollView(frame: Rect(x: 20, y: 100, width: 350, height: 400))
        inner.contentSize = Size(width: 350, height: 1000)
        inner.contentOffset = Point(x: 0, y: 600)  // at its bottom edge
        inner.handsOffDragsAtEdges = handsOff
        rig.content.addSubview(inner)
        rig.drag(from: Point(x: 200, y: 450), to: Point(x: 200, y: 250), duration: 0.3, lift: false)
        if handsOff {
            #expect(inner.contentOffset.y == 600 && rig.scroll.contentOffset.y > 150)
        } else {
            #expect(inner.contentOffset.y > 600 && rig.scroll.contentOffset.y == 0)
        }
        rig.send(.touchUp(id: 1))
        rig.settle()
        #expect(inner.contentOffset.y == 600)
    }

    @Test(arguments: [ScrollView.IndicatorStyle.black, .white, .default])
    func theIndicatorTakesItsStyle(style: ScrollView.IndicatorStyle) throws {
        let rig = ScrollBench(viewport: Size(width: 100, height: 200), content: Size(width: 100, height: 2000))
        rig.scroll.backgroundColor = Color(rgb: 128, 128, 128)
        rig.scroll.indicatorStyle = style
        rig.drag(from: Point(x: 50, y: 150), to: Point(x: 50, y: 100), duration: 0.1, lift: false)
        let canvas = try Canvas(width: 100, height: 200)
        _ = try rig.window.prepareFrame(time: rig.time)
        rig.window.composite(into: canvas)
        // Along the right edge, against the grey: darker pixels (the thumb of black and
        // default), lighter ones (white's thumb, default's border).
        var darker = 0
        var lighter = 0
        for y in 0..<200 {
            for x in 88..<100 {
                let blue = canvas.pixel(x: x, y: y) & 0xFF
                if blue < 120 { darker += 1 }
                if blue > 136 { lighter += 1 }
            }
        }
        switch style {
        case .black: #expect(darker > 20 && lighter == 0, "darker \(darker), lighter \(lighter)")
        case .white: #expect(lighter > 20 && darker == 0, "darker \(darker), lighter \(lighter)")
        case .default: #expect(darker > 20 && lighter > 20, "darker \(darker), lighter \(lighter)")
        }
    }

    // MARK: Keys a focused field uses

    /// A form with a focused field, and `key` pressed and released in it.
    func pressInFocusedField(_ key: String) -> (ScrollBench, TextField) {
        let rig = ScrollBench()
        let field = TextField(frame: Rect(x: 20, y: 100, width: 300, height: 44))
        rig.content.addSubview(field)
        field.becomeFocused()
        rig.send(.key(Key(keysymName: key), pressed: true, modifiers: []))
        rig.send(.key(Key(keysymName: key), pressed: false, modifiers: []), at: 0.05)
        rig.settle()
        return (rig, field)
    }

    @Test(arguments: ["space", "Left", "Right", "Home", "End", "BackSpace", "a"])
    func keysAFocusedFieldUsesNeverScrollTheForm(key: String) {
        let (rig, field) = pressInFocusedField(key)
        #expect(rig.scroll.contentOffset.y == 0)
        // Without the focus, Space pages and Down steps.
        field.resignFocus()
        rig.send(.key(.space, pressed: true, modifiers: []), at: rig.time + 0.1)
        rig.settle()
        #expect(rig.scroll.contentOffset.y == 844 - ScrollView.pageOverlap)
    }

    /// A field is one line: Up/Down and Page Up/Down are not its keys, and scroll the form.
    @Test(arguments: ["Down", "Page_Down"])
    func keysAFocusedFieldDoesNotUseStillScroll(key: String) {
        let (rig, field) = pressInFocusedField(key)
        let step = key == "Down" ? ScrollView.arrowStep : 844 - ScrollView.pageOverlap
        #expect(rig.scroll.contentOffset.y == step)
        #expect(field.isFocused)
    }
}
