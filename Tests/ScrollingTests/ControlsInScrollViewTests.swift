import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayPhysics
import ScrollwayViews
import Testing

@testable import ScrollwayScrolling

/// A slider and a page control in and beside scroll views: a pan along the track (or the dots)
/// that starts on the thumb (or the control) is the control's at once, not the scroll view's,
/// whichever way it scrolls; a pan across scrolls; a page control follows its scroll view's
/// page and turns it, animated, without the pages the animation passes showing on its dots.
@MainActor
@Suite struct ControlsInScrollViewTests {
    /// Moves the finger `id` from `from` by `step` every 10 ms, `count` times, from time `t`.
    static func move(_ rig: ScrollBench, from: Point, step: Point, count: Int, at t: Double, id: Int = 1) {
        for i in 1...count {
            rig.send(.touchMotion(id: id, position: from + step * Double(i)), at: t + Double(i) * 0.01)
        }
    }

    /// A slider at x 40, y 300 in the content, 300 wide: its thumb's centre at 54 + 272·v.
    static func slider(in rig: ScrollBench) -> Slider {
        let slider = Slider(value: 0, frame: Rect(x: 40, y: 300, width: 300, height: 44))
        rig.content.addSubview(slider)
        rig.window.layoutIfNeeded()
        return slider
    }

    @Test func aQuickDragAlongTheTrackFromTheThumbMovesTheSliderAtOnceNotTheScrollView() {
        let rig = ScrollBench()
        let slider = Self.slider(in: rig)
        let start = Point(x: 54, y: 322)
        rig.send(.touchDown(id: 1, position: start), at: 0)
        // 6 px every 10 ms: the slop (10 px) is crossed at 20 ms, long before the 150 ms hold.
        Self.move(rig, from: start, step: Point(x: 6, y: 0.5), count: 2, at: 0)
        // The scroll view's pan failed, so the touch went to the slider at once: it took hold
        // where the finger was (12 px right of the thumb's centre).
        #expect(slider.isTracking && slider.value == 0)
        Self.move(rig, from: start + Point(x: 12, y: 1), step: Point(x: 6, y: 0.5), count: 8, at: 0.02)
        // At 100 ms: 48 px past where it took hold.
        #expect(rig.time < 0.15)
        #expect(abs(slider.value - 48 / 272) < 1e-12)
        rig.send(.touchUp(id: 1), at: 0.11)
        rig.settle()
        #expect(!rig.scroll.isDragging && rig.scroll.contentOffset == .zero)
        #expect(!rig.callbacks.contains(.willBeginDragging))
    }

    @Test func aQuickDragAcrossTheTrackFromTheThumbScrolls() {
        let rig = ScrollBench()
        let slider = Self.slider(in: rig)
        var heard = 0
        slider.onValueChanged = { _ in heard += 1 }
        rig.drag(from: Point(x: 54, y: 322), to: Point(x: 58, y: 200), duration: 0.1)
        #expect(rig.callbacks.first == .willBeginDragging)
        #expect(rig.scroll.contentOffset.y > 100)
        #expect(slider.value == 0 && heard == 0 && !slider.isTracking)
    }

    @Test func inAPagerTheThumbKeepsItsDragAndTheTrackPages() {
        let rig = ScrollBench(content: Size(width: 390 * 3, height: 844))
        rig.scroll.isPagingEnabled = true
        let slider = Self.slider(in: rig)
        // From the thumb, leftwards along the track... (the thumb at 0.5 first)
        slider.value = 0.5
        let thumb = Point(x: 54 + 136, y: 322)
        rig.send(.touchDown(id: 1, position: thumb), at: 0)
        Self.move(rig, from: thumb, step: Point(x: -8, y: 0), count: 10, at: 0)
        rig.send(.touchUp(id: 1), at: 0.11)
        rig.settle()
        // ...the slider's: taken at the slop's crossing (16 px in), 64 px more.
        #expect(abs(slider.value - (0.5 - 64 / 272)) < 1e-12)
        #expect(rig.scroll.contentOffset.x == 0 && !rig.callbacks.contains(.willBeginDragging))
        // From the track, the same drag turns the page.
        let track = Point(x: 320, y: 322)
        rig.send(.touchDown(id: 1, position: track), at: 2)
        Self.move(rig, from: track, step: Point(x: -16, y: 0), count: 10, at: 2)
        rig.send(.touchUp(id: 1), at: 2.11)
        rig.settle()
        #expect(rig.scroll.contentOffset.x == 390)
        #expect(abs(slider.value - (0.5 - 64 / 272)) < 1e-12)
    }

    @Test func aSliderTakenAwayUnderTheFingerNoLongerKeepsItsDragFromThePager() {
        let rig = ScrollBench(content: Size(width: 390 * 3, height: 844))
        rig.scroll.isPagingEnabled = true
        let slider = Self.slider(in: rig)
        slider.value = 1
        let thumb = Point(x: 54 + 272, y: 322)
        rig.send(.touchDown(id: 1, position: thumb), at: 0)
        // The app takes the slider out (and keeps it) while the finger rests on its thumb.
        rig.advance(to: 0.05)
        slider.removeFromSuperview()
        #expect(slider.window == nil)
        Self.move(rig, from: thumb, step: Point(x: -16, y: 0), count: 10, at: 0.05)
        rig.send(.touchUp(id: 1), at: 0.16)
        rig.settle()
        // Nothing of the slider is under the finger any more: the drag along is the pager's.
        #expect(rig.callbacks.first == .willBeginDragging && rig.scroll.contentOffset.x == 390)
        #expect(slider.value == 1 && !slider.isTracking)
    }

    /// `setValue(_:animated:)`: the value is new at once, the thumb glides there on the
    /// ease-in-out curve (half way at half the 0.3 s, as the curve is symmetric); a value set
    /// meanwhile ends the glide, and a finger on the thumb stops it where it stands.
    @Test func anAnimatedValueGlidesOnTheEaseInOutCurve() {
        let rig = ScrollBench()
        // Over the scroll view, so that a finger reaches it at once.
        let slider = Slider(value: 0.25, frame: Rect(x: 40, y: 300, width: 300, height: 44))
        rig.window.addSubview(slider)
        rig.window.layoutIfNeeded()
        var heard: [Double] = []
        slider.onValueChanged = { heard.append($0) }
        let thumb = slider.subviews[0]
        slider.setValue(0.75, animated: true)
        #expect(slider.value == 0.75 && thumb.frame.midX == 14 + 68)
        rig.advance(by: 1 / 60)
        let start = rig.time
        // Five frames in (60 Hz), 5/18 of the time: the curve's slow start, 16.02% of the way
        // (cubic-bezier(0.42, 0, 0.58, 1) solved by bisection), where a linear glide is at 28%.
        rig.advance(to: start + 5 / 60)
        let early = TimingCurve.easeInOut.progress(at: 5 / 60 / 0.3)
        #expect(abs(early - 0.16023) < 1e-5)
        #expect(abs(thumb.frame.midX - (14 + 68 + 136 * early)) < 1e-6)
        rig.advance(to: start + 0.15)
        #expect(abs(thumb.frame.midX - (14 + 136)) < 1e-6)
        rig.settle()
        #expect(thumb.frame.midX == 14 + 204 && !rig.window.hasActiveAnimations)
        // Set in code while it glides back: it is there at once.
        slider.setValue(0.25, animated: true)
        rig.advance(by: 0.1)
        slider.value = 1
        #expect(thumb.frame.midX == 14 + 272)
        // A finger on the thumb while it glides: the value is where it shows.
        slider.setValue(0, animated: true)
        rig.advance(by: 1 / 60)
        let at = rig.time
        rig.advance(to: at + 0.15)
        let shown = (thumb.frame.midX - 14) / 272
        rig.send(.touchDown(id: 1, position: Point(x: 40 + thumb.frame.midX, y: 322)), at: rig.time)
        #expect(abs(slider.value - shown) < 1e-9 && abs(shown - 0.5) < 1e-6)
        rig.send(.touchUp(id: 1), at: rig.time + 0.05)
        rig.settle()
        #expect(abs(slider.value - shown) < 1e-9 && heard.isEmpty)
    }

    // MARK: Page control

    /// A pager of six pages with a page control below it, in the window: the dots' centres are
    /// 19 px apart from x 147.5, on y 793.
    func pager() -> (ScrollBench, PageControl) {
        let rig = ScrollBench(content: Size(width: 390 * 6, height: 844))
        rig.scroll.isPagingEnabled = true
        let control = PageControl(numberOfPages: 6, frame: Rect(x: 0, y: 780, width: 390, height: 26))
        rig.window.addSubview(control)
        control.scrollView = rig.scroll
        return (rig, control)
    }

    static func dot(_ page: Int) -> Point { Point(x: 147.5 + 19 * Double(page), y: 793) }

    @Test func aTapBesideTheCurrentDotTurnsOnePageAndTheDotsDoNotFlickerOnTheWay() {
        let (rig, control) = pager()
        var heard: [Int] = []
        control.onValueChanged = { heard.append($0) }
        rig.send(from: 0) { $0.tap(at: Point(x: 300, y: 793), at: 0, id: 1) }
        #expect(control.currentPage == 1 && heard == [1])
        var shown: Set<Int> = []
        rig.driver.afterFrame = { _ in shown.insert(control.currentPage) }
        rig.settle()
        #expect(rig.scroll.contentOffset.x == 390)
        // The offset passed 0 to 195, page 0's half, on the way: the dots stayed on page 1.
        #expect(shown == [1])
        #expect(rig.callbacks.contains(.didEndScrollingAnimation))
        rig.send(from: rig.time + 0.1) { $0.tap(at: Point(x: 40, y: 793), at: 0, id: 1) }
        rig.settle()
        #expect(control.currentPage == 0 && rig.scroll.contentOffset.x == 0 && heard == [1, 0])
        // At the first page, a tap before it does nothing.
        rig.send(from: rig.time + 0.1) { $0.tap(at: Point(x: 40, y: 793), at: 0, id: 1) }
        rig.settle()
        #expect(heard == [1, 0] && rig.scroll.contentOffset.x == 0)
    }

    @Test func aDragAlongTheDotsScrubsAndACancelledScrubGoesBack() {
        let (rig, control) = pager()
        var heard: [Int] = []
        control.onValueChanged = { heard.append($0) }
        rig.send(.touchDown(id: 1, position: Self.dot(0)), at: 0)
        for page in 1...5 { rig.send(.touchMotion(id: 1, position: Self.dot(page)), at: Double(page) * 0.05) }
        rig.send(.touchUp(id: 1), at: 0.3)
        rig.settle()
        #expect(heard == [1, 2, 3, 4, 5])
        #expect(control.currentPage == 5 && rig.scroll.contentOffset.x == 1950)
        let at = rig.time + 0.1
        rig.send(.touchDown(id: 1, position: Self.dot(5)), at: at)
        rig.send(.touchMotion(id: 1, position: Self.dot(2)), at: at + 0.05)
        #expect(control.currentPage == 2)
        rig.send(.touchCancel, at: at + 0.1)
        rig.settle()
        #expect(control.currentPage == 5 && rig.scroll.contentOffset.x == 1950)
        #expect(heard == [1, 2, 3, 4, 5, 2, 5])
    }

    @Test func itFollowsThePageWhoseHalfIsInView() {
        let (rig, control) = pager()
        var heard = 0
        control.onValueChanged = { _ in heard += 1 }
        rig.scroll.setContentOffset(Point(x: 390 * 1.4, y: 0), animated: false)
        #expect(control.currentPage == 1)
        rig.scroll.setContentOffset(Point(x: 390 * 1.6, y: 0), animated: false)
        #expect(control.currentPage == 2)
        // A flick of the pages.
        rig.send(from: rig.time) { $0.flick(from: Point(x: 300, y: 400), by: Point(x: -120, y: 0), at: 0, moves: 3) }
        rig.settle()
        #expect(rig.scroll.contentOffset.x == 1170 && control.currentPage == 3)
        // The scroll view's own moves are not the user's choice of the control.
        #expect(heard == 0)
    }

    @Test func aTurnAFingerStopsShortLeavesTheDotsOnThePageInView() {
        // Not paging: the content stays where the finger stopped it, and no scroll event says so.
        let (rig, control) = pager()
        rig.scroll.isPagingEnabled = false
        #expect(control.accessibilitySetValue(6) && control.currentPage == 5)
        rig.advance(by: 0.12)
        #expect(control.currentPage == 5 && rig.scroll.isScrollAnimating)
        let t = rig.time
        rig.send(.touchDown(id: 1, position: Point(x: 200, y: 400)), at: t + 0.001)
        rig.send(.touchUp(id: 1), at: t + 0.3)
        rig.settle()
        let x = rig.scroll.contentOffset.x
        #expect(x > 390 * 2.5 && x < 390 * 3.5)
        #expect(control.currentPage == 3)
        // A turn that replaces one under way: the dots go from one target to the other only.
        var shown: [Int] = []
        rig.driver.afterFrame = { _ in if shown.last != control.currentPage { shown.append(control.currentPage) } }
        control.accessibilityDecrement()
        rig.advance(by: 0.05)
        control.accessibilityDecrement()
        rig.settle()
        #expect(shown == [2, 1])
        #expect(control.currentPage == 1 && rig.scroll.contentOffset.x == 390)
    }

    @Test func keysAndAReaderTurnPages() throws {
        let (rig, control) = pager()
        control.becomeFocused()
        func press(_ key: Key) {
            rig.send(.key(key, pressed: true, modifiers: []), at: rig.time + 0.01)
            rig.send(.key(key, pressed: false, modifiers: []), at: rig.time + 0.03)
        }
        press(.right)
        rig.settle()
        #expect(control.currentPage == 1 && rig.scroll.contentOffset.x == 390)
        press(.end)
        rig.settle()
        #expect(control.currentPage == 5 && rig.scroll.contentOffset.x == 1950)
        press(.left)
        rig.settle()
        #expect(control.currentPage == 4)
        let node = try #require(rig.window.accessibilityTree().all.first { $0.view === control })
        #expect(node.role == .slider)
        #expect(node.value == AccessibilityValue(current: 5, minimum: 1, maximum: 6, step: 1, text: "Page 5 of 6"))
        control.accessibilityDecrement()
        rig.settle()
        #expect(control.currentPage == 3 && rig.scroll.contentOffset.x == 1170)
        #expect(control.accessibilitySetValue(1.2))
        rig.settle()
        #expect(control.currentPage == 0 && rig.scroll.contentOffset.x == 0)
    }

    @Test func aScrubInsideAScrollViewIsTheControlsNotThePagers() {
        let rig = ScrollBench(content: Size(width: 390 * 3, height: 844))
        rig.scroll.isPagingEnabled = true
        let control = PageControl(numberOfPages: 6, frame: Rect(x: 0, y: 780, width: 390, height: 26))
        rig.content.addSubview(control)
        rig.send(.touchDown(id: 1, position: Self.dot(0)), at: 0)
        Self.move(rig, from: Self.dot(0), step: Point(x: 9.5, y: 0), count: 10, at: 0)
        #expect(rig.time < 0.15 && control.currentPage == 5)
        rig.send(.touchUp(id: 1), at: 0.11)
        rig.settle()
        #expect(rig.scroll.contentOffset.x == 0 && !rig.callbacks.contains(.willBeginDragging))
    }

    @Test func manyPagesShowARunAroundTheCurrentOneAndOnePageHides() {
        let control = PageControl(numberOfPages: 40, frame: Rect(x: 0, y: 0, width: 200, height: 26))
        // (200 − 10) / 19: ten dots fit.
        #expect(control.dots.count == 10 && control.dots.first == 0)
        control.currentPage = 20
        #expect(control.dots.first == 15)
        control.currentPage = 39
        #expect(control.dots.first == 30)
        control.currentPage = 99
        #expect(control.currentPage == 39)
        control.numberOfPages = 3
        #expect(control.currentPage == 2 && control.dots.count == 3)
        #expect(control.size(forNumberOfPages: 3) == Size(width: 3 * 9 + 2 * 10 + 20, height: 26))
        let window = Window(size: Size(width: 200, height: 100))
        window.addSubview(control)
        control.numberOfPages = 1
        #expect(window.hitTest(Point(x: 100, y: 13)) === control)
        control.hidesForSinglePage = true
        #expect(window.hitTest(Point(x: 100, y: 13)) === window)
        #expect(!window.accessibilityTree().all.contains { $0.view === control })
    }

    @Test func aScrubAmongMorePagesThanFitFollowsTheFingerNotTheRunItRecentres() {
        let window = Window(size: Size(width: 200, height: 100))
        let control = PageControl(numberOfPages: 40, frame: Rect(x: 0, y: 0, width: 200, height: 26))
        window.addSubview(control)
        window.layoutIfNeeded()
        var heard: [Int] = []
        control.onValueChanged = { heard.append($0) }
        // Ten dots fit: pages 0 to 9, 19 px apart from x 14.5.
        let d = control.dots
        #expect(d.first == 0 && d.count == 10 && d.startX == 14.5)
        func send(_ kind: InputEvent.Kind, at t: Double) { window.handle(InputEvent(time: t, kind)) }
        send(.touchDown(id: 1, position: Point(x: 14.5, y: 13)), at: 0)
        // To the last dot shown, then a finger held there that trembles by a pixel: page 9 stays,
        // though the run shown now centres it (a finger read against that run ran to page 39).
        for i in 0..<6 {
            let x = 14.5 + 9 * 19 + Double(i % 2)
            send(.touchMotion(id: 1, position: Point(x: x, y: 13)), at: 0.02 * Double(i + 1))
        }
        #expect(control.currentPage == 9 && heard == [9])
        #expect(control.dots.first == 4)
        // Back and on past the end: the pages the finger is over in the run the press found.
        send(.touchMotion(id: 1, position: Point(x: 14.5 + 5 * 19, y: 13)), at: 0.2)
        #expect(control.currentPage == 5)
        send(.touchMotion(id: 1, position: Point(x: 14.5 + 12 * 19, y: 13)), at: 0.22)
        send(.touchUp(id: 1), at: 0.24)
        #expect(control.currentPage == 12 && heard == [9, 5, 12])
    }

    @Test func aReaderSettingAPageFarOutOfRangeGetsAnEndAndNaNIsRefused() {
        let (_, control) = pager()
        control.currentPage = 2
        #expect(control.accessibilitySetValue(-1e300) && control.currentPage == 0)
        #expect(control.accessibilitySetValue(.infinity) && control.currentPage == 5)
        #expect(control.accessibilitySetValue(-.infinity) && control.currentPage == 0)
        #expect(control.accessibilitySetValue(Double(Int.min)) && control.currentPage == 0)
        #expect(!control.accessibilitySetValue(.nan) && control.currentPage == 0)
        #expect(control.accessibilitySetValue(3.4) && control.currentPage == 2)
    }
}
