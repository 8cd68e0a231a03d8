import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// Every recognizer state change in a window, as `name:state`.
@MainActor
final class RecognizerStates: WindowObserver {
    var log: [String] = []
    func window(_ window: Window, gestureRecognizer: GestureRecognizer, didChangeTo state: GestureRecognizer.State) {
        guard let name = gestureRecognizer.name else { return }
        if state == .changed, log.last == "\(name):changed" { return }  // one per run of changes
        log.append("\(name):\(state.rawValue)")
    }
}

/// Answers a test sets for an app's recognizer.
@MainActor
final class RecognizerRules: GestureRecognizerDelegate {
    var shouldBegin: (GestureRecognizer) -> Bool = { _ in true }
    var simultaneous = false
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { shouldBegin(recognizer) }
    func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool { simultaneous }
}

/// The scroll view's pan and pinch as recognizer objects, and app recognizers coordinating
/// with them.
@MainActor
@Suite struct ScrollViewRecognizerTests {
    /// A bench whose content logs its touches, with the states of named recognizers.
    func bench(
        content size: Size = Size(width: 390, height: 12000)
    ) -> (ScrollBench, TouchRecorder, RecognizerStates) {
        let rig = ScrollBench(content: size)
        let view = TouchRecorder(frame: Rect(origin: .zero, size: size))
        rig.content.addSubview(view)
        let states = RecognizerStates()
        rig.window.addObserver(states)
        rig.scroll.panGestureRecognizer.name = "pan"
        return (rig, view, states)
    }

    @Test func thePanBeginsWithTheDragChangesWithItAndEndsAtTheRelease() {
        let (rig, content, states) = bench()
        let pan = rig.scroll.panGestureRecognizer
        rig.send(.touchDown(id: 1, position: Point(x: 200, y: 600)))
        rig.send(.touchMotion(id: 1, position: Point(x: 200, y: 585)), at: 0.016)
        #expect(states.log == ["pan:began", "pan:changed"])
        #expect(rig.callbacks.first == .willBeginDragging)
        rig.send(.touchMotion(id: 1, position: Point(x: 200, y: 500)), at: 0.032)
        // The translation is the drag's (from where the slop was crossed), and the offset moved
        // by exactly as much.
        #expect(pan.translation(in: nil) == Point(x: 0, y: -90))
        #expect(rig.scroll.contentOffset.y == 90)
        #expect(pan.velocity(in: nil).y < -1000)
        rig.send(.touchUp(id: 1), at: 0.048)
        #expect(states.log == ["pan:began", "pan:changed", "pan:ended", "pan:possible"])
        #expect(content.log.isEmpty)  // a quick drag: the content never heard of it
        // A tap: the pan fails as the finger lifts.
        states.log = []
        rig.settle()
        rig.send(.touchDown(id: 1, position: Point(x: 200, y: 600)), at: rig.time + 1)
        rig.send(.touchUp(id: 1), at: rig.time + 0.05)
        #expect(states.log == ["pan:failed", "pan:possible"])
        #expect(content.log == ["began", "ended"])
    }

    @Test func withTwoFingersRequiredOneFingerIsTheContentsAndTwoScroll() {
        let (rig, content, states) = bench()
        rig.scroll.panGestureRecognizer.minimumNumberOfTouches = 2
        rig.send(.touchDown(id: 1, position: Point(x: 100, y: 600)))
        for i in 1...10 {
            rig.send(.touchMotion(id: 1, position: Point(x: 100, y: 600 - 10 * Double(i))), at: 0.02 * Double(i))
        }
        // One finger drew on the content (it got the touch after the hold) and nothing scrolled.
        #expect(rig.scroll.contentOffset.y == 0 && !rig.scroll.isDragging)
        #expect(content.log == ["began", "moved"])
        #expect(states.log.isEmpty)
        // A second finger lands and the two move: the scroll begins where they are, and the
        // content's touch is cancelled.
        rig.send(.touchDown(id: 2, position: Point(x: 200, y: 500)), at: 0.25)
        rig.send(.touchMotion(id: 2, position: Point(x: 200, y: 498)), at: 0.27)
        #expect(rig.scroll.isDragging && states.log == ["pan:began", "pan:changed"])
        #expect(rig.scroll.contentOffset.y == 0)  // no jump by the slop already travelled
        #expect(content.log == ["began", "moved", "cancelled"])
        rig.send(.touchMotion(id: 1, position: Point(x: 100, y: 460)), at: 0.29)
        rig.send(.touchMotion(id: 2, position: Point(x: 200, y: 458)), at: 0.29)
        // Both fingers moved 40 px: the centroid did too.
        #expect(rig.scroll.contentOffset.y == 40)
        rig.send(.touchUp(id: 1), at: 0.3)
        rig.send(.touchUp(id: 2), at: 0.3)
        #expect(states.log.suffix(2) == ["pan:ended", "pan:possible"])
    }

    @Test func aDisabledPanDoesNotScrollAndTheContentKeepsTheTouch() {
        let (rig, content, _) = bench()
        rig.scroll.panGestureRecognizer.isEnabled = false
        rig.drag(from: Point(x: 200, y: 600), to: Point(x: 200, y: 300), duration: 0.3)
        #expect(rig.scroll.contentOffset.y == 0 && rig.callbacks.isEmpty)
        #expect(content.log == ["began", "moved", "ended"])
    }

    @Test func anAppsHorizontalPanInTheContentWinsSidewaysAndTheListScrollsOtherwise() {
        let (rig, content, states) = bench()
        let rules = RecognizerRules()
        // Begins only for a mostly horizontal motion, as a row's swipe does.
        rules.shouldBegin = { g in
            let t = (g as! PanGestureRecognizer).translation(in: nil)
            return abs(t.x) > abs(t.y)
        }
        let swipe = PanGestureRecognizer()
        swipe.name = "swipe"
        swipe.delegate = rules
        content.addGestureRecognizer(swipe)
        rig.drag(from: Point(x: 200, y: 600), to: Point(x: 80, y: 590), duration: 0.2)
        #expect(
            states.log == [
                "swipe:began", "pan:failed", "swipe:changed", "swipe:ended", "swipe:possible", "pan:possible",
            ])
        #expect(rig.scroll.contentOffset == .zero && rig.callbacks.isEmpty)
        #expect(content.log.isEmpty)  // held, then taken by the swipe: never delivered
        // Vertically the app's pan declines and the list scrolls.
        states.log = []
        rig.drag(from: Point(x: 200, y: 600), to: Point(x: 205, y: 400), duration: 0.2)
        #expect(states.log.prefix(3) == ["swipe:failed", "pan:began", "pan:changed"])
        #expect(rig.scroll.contentOffset.y > 150)
        // Allowed to recognize together, both run.
        rig.settle()
        rules.simultaneous = true
        rules.shouldBegin = { _ in true }
        states.log = []
        rig.drag(from: Point(x: 200, y: 600), to: Point(x: 200, y: 500), duration: 0.2)
        #expect(states.log.prefix(2) == ["swipe:began", "pan:began"])
    }

    @Test func thePanWaitsForTheAppsSwipeToFailAndDoesNotScrollIfItSucceeds() {
        let (rig, content, states) = bench(content: Size(width: 4000, height: 844))
        let swipe = SwipeGestureRecognizer()
        swipe.name = "swipe"
        swipe.direction = .right
        content.addGestureRecognizer(swipe)
        rig.scroll.contentOffset = Point(x: 1000, y: 0)
        rig.scroll.panGestureRecognizer.require(toFail: swipe)
        // A quick swipe right: the swipe recognizes, the pan (waiting since the slop) fails.
        rig.drag(from: Point(x: 100, y: 400), to: Point(x: 300, y: 400), duration: 0.1)
        #expect(states.log == ["swipe:ended", "pan:failed", "swipe:possible", "pan:possible"])
        #expect(rig.scroll.contentOffset.x == 1000)
        // Leftwards the swipe fails at the slop and the pan goes ahead on that very move.
        states.log = []
        rig.drag(from: Point(x: 300, y: 400), to: Point(x: 100, y: 400), duration: 0.1)
        #expect(states.log.prefix(2) == ["swipe:failed", "pan:began"])
        #expect(rig.scroll.contentOffset.x > 1100)
        // Slowly rightwards: the pan waits until the swipe runs out of time (0.5 s), then
        // scrolls from where the finger is then, without a jump.
        rig.settle()
        let before = rig.scroll.contentOffset.x
        states.log = []
        let start = rig.time + 0.5
        rig.send(.touchDown(id: 1, position: Point(x: 100, y: 400)), at: start)
        rig.send(.touchMotion(id: 1, position: Point(x: 130, y: 400)), at: start + 0.2)
        #expect(states.log.isEmpty && rig.scroll.contentOffset.x == before)
        rig.advance(to: start + 0.5)
        #expect(states.log == ["swipe:failed"])
        rig.send(.touchMotion(id: 1, position: Point(x: 131, y: 400)), at: start + 0.55)
        #expect(states.log == ["swipe:failed", "pan:began", "pan:changed"])
        #expect(rig.scroll.contentOffset.x == before)
        rig.send(.touchMotion(id: 1, position: Point(x: 171, y: 400)), at: start + 0.6)
        #expect(rig.scroll.contentOffset.x == before - 40)
        rig.send(.touchUp(id: 1), at: start + 0.7)
    }

    /// The library guide's photo: a double tap that requires the scroll view's pan to fail is
    /// recognized on its second tap (the pan fails as each finger lifts), and a drag never is.
    @Test func aDoubleTapThatWaitsForThePanIsRecognizedAndADragIsNot() {
        let (rig, content, states) = bench()
        var taps: [Point] = []
        let doubleTap = TapGestureRecognizer { g in taps.append(g.location(in: content)) }
        doubleTap.name = "doubleTap"
        doubleTap.numberOfTapsRequired = 2
        doubleTap.require(toFail: rig.scroll.panGestureRecognizer)
        content.addGestureRecognizer(doubleTap)
        rig.send { b in
            b.tap(at: Point(x: 100, y: 300), at: 0, hold: 50, id: 1)
            b.tap(at: Point(x: 104, y: 302), at: 150, hold: 50, id: 1)
        }
        #expect(taps == [Point(x: 104, y: 302)])
        #expect(states.log.suffix(4) == ["pan:failed", "doubleTap:ended", "doubleTap:possible", "pan:possible"])
        // Two drags in a row: the pan scrolls, the double tap fails with the first.
        states.log = []
        rig.settle()
        rig.drag(from: Point(x: 100, y: 600), to: Point(x: 100, y: 400), duration: 0.1)
        rig.drag(from: Point(x: 100, y: 600), to: Point(x: 100, y: 400), duration: 0.1)
        #expect(taps.count == 1)
        #expect(states.log.prefix(3) == ["doubleTap:failed", "pan:began", "pan:changed"])
    }

    @Test func thePinchFollowsATwoFingerZoomAndIsThereOnlyWhileTheViewZooms() {
        let (rig, _, states) = bench(content: Size(width: 390, height: 844))
        #expect(rig.scroll.pinchGestureRecognizer == nil)
        rig.zoomsContent(minimum: 1, maximum: 4)
        let pinch = try! #require(rig.scroll.pinchGestureRecognizer)
        pinch.name = "pinch"
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 400)))
        rig.send(.touchDown(id: 2, position: Point(x: 250, y: 400)), at: 0.01)
        // Two fingers down are no pinch yet: it begins once their distance changes by more
        // than the slop, with the scale since they landed.
        #expect(states.log.isEmpty && !rig.scroll.isZooming)
        rig.send(.touchMotion(id: 2, position: Point(x: 350, y: 400)), at: 0.03)
        #expect(pinch.scale == 2)
        #expect(abs(rig.scroll.zoomScale - 2) < 1e-9)
        rig.send(.touchUp(id: 2), at: 0.05)
        #expect(states.log == ["pinch:began", "pinch:changed", "pinch:ended"])
        rig.send(.touchUp(id: 1), at: 0.06)
        #expect(states.log.last == "pinch:possible")
    }

    /// Two fingers that land, stay within the slop and lift are no zoom (as UIKit's pinch):
    /// no willBeginZooming or didEndZooming, no recognizer state, the scale and offset as they
    /// were. A zoom began at the second finger's landing, and the trace showed a zoom.
    @Test func twoFingersThatLandAndLiftStillAreNoZoom() {
        let (rig, _, states) = bench(content: Size(width: 390, height: 844))
        rig.zoomsContent(minimum: 1, maximum: 4)
        rig.scroll.pinchGestureRecognizer?.name = "pinch"
        rig.scroll.contentOffset = .zero
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 400)))
        rig.send(.touchDown(id: 2, position: Point(x: 250, y: 400)), at: 0.01)
        // 8 px wider and the centroid 6 px on: both within the slop.
        rig.send(.touchMotion(id: 2, position: Point(x: 258, y: 400)), at: 0.03)
        rig.send(.touchMotion(id: 1, position: Point(x: 154, y: 404)), at: 0.04)
        #expect(!rig.scroll.isZooming && rig.scroll.zoomScale == 1)
        rig.send(.touchUp(id: 2), at: 0.08)
        rig.send(.touchUp(id: 1), at: 0.09)
        rig.settle()
        #expect(rig.callbacks.isEmpty, "\(rig.callbacks)")
        // Both recognizers fail when the fingers lift without beginning, as UIKit's do.
        #expect(states.log == ["pan:failed", "pan:possible", "pinch:failed", "pinch:possible"])
        #expect(rig.scroll.zoomScale == 1 && rig.scroll.contentOffset == .zero)
        states.log = []
        // Stopped by the app before they moved: no zoom ends either (didEndZooming came alone).
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 400)), at: 0.5)
        rig.send(.touchDown(id: 2, position: Point(x: 250, y: 400)), at: 0.51)
        rig.scroll.stopScrollingAndZooming()
        rig.send(.touchUp(id: 2), at: 0.55)
        rig.send(.touchUp(id: 1), at: 0.56)
        #expect(rig.callbacks.isEmpty, "\(rig.callbacks)")
        states.log = []
        // Past the slop the zoom begins, at the scale since the fingers landed.
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 400)), at: 1)
        rig.send(.touchDown(id: 2, position: Point(x: 250, y: 400)), at: 1.01)
        rig.send(.touchMotion(id: 2, position: Point(x: 262, y: 400)), at: 1.03)
        #expect(rig.scroll.isZooming && abs(rig.scroll.zoomScale - 1.12) < 1e-9)
        #expect(rig.callbacks == [.willBeginZooming])
        #expect(states.log == ["pinch:began", "pinch:changed"])
    }
}

/// What a first review of the scroll view's own recognizers found.
@MainActor
@Suite struct ScrollViewRecognizerReviewTests {
    /// A touch in the middle of a touchpad pinch ends the pinch: its recognizer ends too, and
    /// app recognizers on later touches are not blocked by a pinch left running.
    @Test func aTouchDuringATouchpadPinchEndsThePinchRecognizer() throws {
        let rig = ScrollBench(viewport: Size(width: 400, height: 400), content: Size(width: 400, height: 400))
        rig.zoomsContent(maximum: 4)
        let pinch = try #require(rig.scroll.pinchGestureRecognizer)
        rig.send(.pointerEnter(position: Point(x: 200, y: 200)))
        rig.send(.pinchBegin(fingers: 2))
        rig.send(.pinchUpdate(scale: 1.5, dx: 0, dy: 0))
        #expect(pinch.state == .changed)
        rig.send(.touchDown(id: 1, position: Point(x: 100, y: 100)))
        #expect(pinch.state == .cancelled)  // reset once that touch lifts, as UIKit's
        rig.send(.touchUp(id: 1))
        #expect(pinch.state == .possible)
        let tap = TapGestureRecognizer()
        rig.content.addGestureRecognizer(tap)
        var taps = 0
        tap.addAction { _ in taps += 1 }
        rig.send { $0.tap(at: Point(x: 100, y: 100), at: 500, hold: 50, id: 1) }
        #expect(taps == 1)
    }

    /// A zoom that begins while the content has the first finger cancels the content's touch;
    /// one that begins within the hold means the content never hears of it.
    @Test func aZoomTakesTheFingersFromTheContent() {
        let rig = ScrollBench(viewport: Size(width: 400, height: 400), content: Size(width: 400, height: 400))
        rig.zoomsContent(maximum: 4)
        let photo = TouchRecorder(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        rig.content.addSubview(photo)
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 200)))
        rig.advance(to: 0.2)  // past the hold: the content has it
        #expect(photo.log == ["began"])
        rig.send(.touchDown(id: 2, position: Point(x: 250, y: 200)), at: 0.21)
        #expect(photo.log == ["began", "cancelled"])
        rig.send(.touchMotion(id: 2, position: Point(x: 300, y: 200)), at: 0.23)
        rig.send(.touchUp(id: 1), at: 0.25)
        rig.send(.touchUp(id: 2), at: 0.25)
        rig.settle()
        #expect(photo.log == ["began", "cancelled"])
        #expect(rig.scroll.zoomScale > 1)
        // Within the hold: nothing at all reaches the content.
        photo.log = []
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 200)), at: rig.time + 1)
        rig.send(.touchDown(id: 2, position: Point(x: 250, y: 200)), at: rig.time + 0.02)
        rig.advance(to: rig.time + 0.3)
        rig.send(.touchUp(id: 1))
        rig.send(.touchUp(id: 2))
        rig.settle()
        #expect(photo.log.isEmpty)
    }

    /// A pager whose pan is off does not take a drag an inner list hands on, and a pan turned
    /// off mid-drag lets go.
    @Test func aPanThatIsOffTakesNoHandOffAndOneTurnedOffMidDragLetsGo() {
        let rig = ScrollBench(content: Size(width: 390 * 3, height: 844))
        rig.scroll.isPagingEnabled = true
        let list = ScrollView(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        list.contentSize = Size(width: 390, height: 5000)
        rig.content.addSubview(list)
        rig.scroll.panGestureRecognizer.isEnabled = false
        rig.drag(from: Point(x: 300, y: 400), to: Point(x: 100, y: 400), duration: 0.2)
        rig.settle()
        #expect(rig.scroll.contentOffset.x == 0)
        // Turned off while the list drags: the list lets go without momentum.
        rig.drag(from: Point(x: 200, y: 600), to: Point(x: 200, y: 400), duration: 0.2, lift: false)
        #expect(list.isDragging)
        list.panGestureRecognizer.isEnabled = false
        #expect(!list.isDragging && !list.isTracking)
        rig.send(.touchUp(id: 1))
        rig.settle()
        #expect(list.contentOffset.y > 0 && !list.isDecelerating)
    }

    /// The pointer taken away mid mouse drag (a `leave` with the button down: a compositor's or
    /// another client's grab, a rig parking it for a capture) cancels the drag; the release
    /// never comes. The drag had stayed on: back over the window, a plain motion dragged the
    /// content.
    @Test func aLeaveWithTheButtonDownCancelsTheMouseDrag() {
        let rig = ScrollBench()
        let s = rig.scroll
        s.allowsMouseDrag = true
        s.contentOffset = Point(x: 0, y: 1000)
        rig.send(.pointerEnter(position: Point(x: 200, y: 500)))
        rig.send(.pointerButton(.left, pressed: true), at: 0.1)
        for i in 1...6 {
            rig.send(.pointerMotion(position: Point(x: 200, y: 500 - 20 * Double(i))), at: 0.1 + 0.016 * Double(i))
        }
        #expect(s.isDragging && s.contentOffset.y > 1000)
        rig.send(.pointerLeave, at: 0.25)
        #expect(!s.isDragging && !s.isTracking)
        rig.settle()
        let rest = s.contentOffset
        rig.send(.pointerEnter(position: Point(x: 200, y: 380)), at: rig.time + 0.5)
        for i in 1...6 {
            rig.send(.pointerMotion(position: Point(x: 200, y: 380 + 30 * Double(i))), at: rig.time + 0.016)
        }
        #expect(s.contentOffset == rest && !s.isDragging, "a plain motion moved it to \(s.contentOffset)")
        // A late release (a recorded script may hold one) changes nothing.
        rig.send(.pointerButton(.left, pressed: false), at: rig.time + 0.016)
        rig.settle()
        #expect(s.contentOffset == rest)
    }

    /// A double click whose second click drags (past the mouse's 4 px slop, within the tap's
    /// 10 px) does not zoom, neither then nor at the next click.
    @Test func aDraggedDoubleClickLeavesNoZoomForLater() {
        let rig = ScrollBench(viewport: Size(width: 400, height: 400), content: Size(width: 800, height: 800))
        rig.zoomsContent(minimum: 1, maximum: 4)
        rig.scroll.allowsMouseDrag = true
        rig.scroll.doubleTapZooms = true
        rig.send(.pointerEnter(position: Point(x: 200, y: 200)))
        rig.send(.pointerButton(.left, pressed: true), at: 0.1)
        rig.send(.pointerButton(.left, pressed: false), at: 0.15)
        rig.send(.pointerButton(.left, pressed: true), at: 0.25)
        rig.send(.pointerMotion(position: Point(x: 206, y: 200)), at: 0.27)
        rig.send(.pointerButton(.left, pressed: false), at: 0.3)
        rig.settle()
        #expect(rig.scroll.zoomScale == 1)
        rig.send(.pointerButton(.left, pressed: true), at: rig.time + 1)
        rig.send(.pointerButton(.left, pressed: false), at: rig.time + 0.05)
        rig.settle()
        #expect(rig.scroll.zoomScale == 1)
    }

    /// An ancestor's pinch recognizer does not take a touchpad pinch over a zooming scroll view
    /// inside it: the scroll view zooms, as it would with fingers.
    @Test func theInnermostZoomingScrollViewTakesTheTouchpadPinch() {
        let rig = ScrollBench(viewport: Size(width: 400, height: 400), content: Size(width: 400, height: 400))
        rig.zoomsContent(maximum: 4)
        let outer = PinchGestureRecognizer()
        rig.window.addGestureRecognizer(outer)
        rig.send(.pointerEnter(position: Point(x: 200, y: 200)))
        rig.send(.pinchBegin(fingers: 2))
        rig.send(.pinchUpdate(scale: 2, dx: 0, dy: 0))
        rig.send(.pinchEnd(cancelled: false))
        rig.settle()
        #expect(abs(rig.scroll.zoomScale - 2) < 1e-9)
        #expect(outer.state == .possible && !outer.isInvolved)
    }
}
