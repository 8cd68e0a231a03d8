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

    @Test func severalCandidatesScrollNoneAsInUIKit() {
        let rig = ScrollBench()
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
