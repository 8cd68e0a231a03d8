import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// The scroll state is one value (`ScrollState`): what holds the content (fingers, the
/// touchpad) and what moves it on its own (a curve) cannot both own the offset, except a
/// programmatic animation under a resting finger. Each test is a combination the separate
/// flags used to allow.
@MainActor
@Suite struct ScrollStateTests {
    @Test func aDragStopsAnAnimationAKeyStartedUnderTheRestingFinger() {
        let rig = ScrollBench()
        rig.send(.touchDown(id: 1, position: Point(x: 200, y: 400)))
        // Page Down while the finger rests: the animation runs beside the resting finger.
        rig.send(.key(.pageDown, pressed: true, modifiers: []), at: 0.02)
        rig.advance(to: 0.05)
        #expect(rig.scroll.isTracking)
        #expect(rig.scroll.phase == .animating)
        let before = rig.scroll.contentOffset.y
        #expect(before > 0)
        // The finger starts dragging (past the 10 px slop): the drag owns the offset from here,
        // and the page spring no longer moves it.
        rig.send(.touchMotion(id: 1, position: Point(x: 200, y: 380)), at: 0.06)
        let anchor = rig.scroll.contentOffset.y
        #expect(rig.scroll.isDragging)
        rig.advance(to: 0.3)
        #expect(rig.scroll.contentOffset.y == anchor, "a spring still moved the dragged content")
        rig.send(.touchMotion(id: 1, position: Point(x: 200, y: 360)), at: 0.31)
        #expect(abs(rig.scroll.contentOffset.y - (anchor + 20)) < 1e-9)
        rig.send(.touchUp(id: 1), at: 0.5)
        rig.settle()
        #expect(!rig.callbacks.contains(.didEndScrollingAnimation))
    }

    /// A finger that stops at a fractional offset (touch positions are 1/256 px) and lifts:
    /// the offset rounds to the device pixel at once and the drag ends without a deceleration,
    /// as UIKit's does when the finger stopped before lifting (it was reported as one, begun and
    /// ended in a frame).
    @Test(arguments: [1.0, 2.0])
    func aStillReleaseAtAFractionalOffsetSnapsWithoutADeceleration(scale: Double) {
        let rig = ScrollBench(scale: scale)
        rig.send(.touchDown(id: 1, position: Point(x: 200, y: 600)))
        rig.send(.touchMotion(id: 1, position: Point(x: 200, y: 500)), at: 0.1)
        rig.send(.touchMotion(id: 1, position: Point(x: 200, y: 400.3)), at: 0.2)
        rig.send(.touchUp(id: 1), at: 0.6)
        #expect(rig.callbacks.contains(.didEndDragging(willDecelerate: false)), "\(rig.callbacks)")
        #expect(!rig.callbacks.contains(.willBeginDecelerating))
        let y = rig.scroll.contentOffset.y
        #expect(y == (y * scale).rounded() / scale && abs(y - 189.7) < 1 / scale, "\(y)")
        rig.settle()
        #expect(!rig.callbacks.contains(.didEndDecelerating))
        #expect(rig.scroll.contentOffset.y == y)
    }

    @Test func aTouchEndsATouchpadScrollWithAReleaseTheDelegateHears() {
        let rig = ScrollBench()
        rig.send(.pointerMotion(position: Point(x: 200, y: 400)))
        rig.send(.axis(.vertical, value: 30, source: .finger, value120: nil), at: 0.01)
        rig.send(.axis(.vertical, value: 30, source: .finger, value120: nil), at: 0.02)
        #expect(rig.scroll.isDragging)
        rig.send(.touchDown(id: 1, position: Point(x: 200, y: 400)), at: 0.03)
        // The touchpad's drag ended (without momentum) before the finger took the content.
        #expect(rig.scroll.isTracking && !rig.scroll.isDragging)
        #expect(
            rig.callbacks == [
                .willBeginDragging, .willEndDragging(velocity: .zero, targetContentOffset: Point(x: 0, y: 150)),
                .didEndDragging(willDecelerate: false),
            ])
        // The touchpad's late axis_stop finds no scroll of its own to end.
        rig.send(.axisStop(.vertical), at: 0.04)
        rig.send(.touchUp(id: 1), at: 0.1)
        rig.settle()
        #expect(rig.scroll.contentOffset == Point(x: 0, y: 150))
        #expect(rig.callbacks.filter { $0 == .willBeginDragging }.count == 1)
    }

    /// A touchpad scroll whose axis_stop does not come ends 5 s after its last event (a lost
    /// stop), offscreen as on Wayland (`FingerScrollStopWatch`), still: the scroll view does
    /// not stay dragging, deaf to keys. Offscreen it had stayed dragging to the end of the play.
    /// Once a scroll has run out its time with no stop ever seen, the pointer sends none: the
    /// next scroll ends 0.5 s after its last event, until a stop comes.
    @Test func aTouchpadScrollWithoutItsStopEndsAfterTheSafetyTimeoutThenSoonerIfNoStopEverCame() {
        let rig = ScrollBench()
        rig.send(.pointerMotion(position: Point(x: 200, y: 400)))
        for i in 1...5 { rig.send(.axis(.vertical, value: 10, source: .finger, value120: nil), at: 0.01 * Double(i)) }
        rig.advance(to: 5.049)
        #expect(rig.scroll.isDragging)
        rig.advance(to: 5.051)
        #expect(!rig.scroll.isDragging && !rig.scroll.isDecelerating)
        #expect(
            rig.callbacks.suffix(2) == [
                .willEndDragging(velocity: .zero, targetContentOffset: rig.scroll.contentOffset),
                .didEndDragging(willDecelerate: false),
            ])
        // Page Down pages at once.
        var rested = rig.scroll.contentOffset.y
        rig.send(.key(.pageDown, pressed: true, modifiers: []), at: 5.1)
        rig.settle()
        #expect(rig.scroll.contentOffset.y > rested + 100)
        // No stop has ever come: the next scroll without one ends 0.5 s after its last event.
        let t0 = rig.time + 1
        for i in 1...5 {
            rig.send(.axis(.vertical, value: 10, source: .finger, value120: nil), at: t0 + 0.01 * Double(i))
        }
        rig.advance(to: t0 + 0.549)
        #expect(rig.scroll.isDragging)
        rig.advance(to: t0 + 0.551)
        #expect(!rig.scroll.isDragging)
        // Its stop comes late after all: the pointer sends stops, and the next scroll is held
        // while the fingers rest again.
        rig.send(.axisStop(.vertical), at: t0 + 0.6)
        rested = rig.scroll.contentOffset.y
        let t1 = t0 + 1
        for i in 1...5 {
            rig.send(.axis(.vertical, value: 10, source: .finger, value120: nil), at: t1 + 0.01 * Double(i))
        }
        rig.advance(to: t1 + 2)
        #expect(rig.scroll.isDragging)
        #expect(rig.callbacks.filter { $0 == .willBeginDragging }.count == 3)
    }

    /// Fingers resting on the touchpad mid-scroll hold it, however long, until its axis_stop:
    /// a rubber band stays out under them, and their next motions go on with the same drag.
    /// The scroll had ended 0.5 s after the last motion: the band sprang back under the
    /// fingers, and the motions after the rest began a second drag.
    @Test func restingFingersHoldATouchpadScrollUntilItsStop() {
        let rig = ScrollBench()
        rig.send(.pointerMotion(position: Point(x: 200, y: 400)))
        for i in 1...5 { rig.send(.axis(.vertical, value: -10, source: .finger, value120: nil), at: 0.01 * Double(i)) }
        let pulled = rig.scroll.contentOffset.y
        #expect(pulled < 0)
        rig.advance(to: 2)
        #expect(rig.scroll.isDragging && rig.scroll.contentOffset.y == pulled)
        for i in 1...5 {
            rig.send(.axis(.vertical, value: 10, source: .finger, value120: nil), at: 2 + 0.01 * Double(i))
        }
        rig.advance(to: 3)
        #expect(rig.scroll.isDragging)
        rig.send(.axisStop(.vertical), at: 3)
        #expect(!rig.scroll.isDragging)
        #expect(rig.callbacks.filter { $0 == .willBeginDragging }.count == 1)
        #expect(rig.callbacks.filter { if case .willEndDragging = $0 { true } else { false } }.count == 1)
    }

    /// The pointer leaving the window ends a touchpad scroll held by resting fingers (its stop
    /// would go to the surface under the pointer then), as if the stop had come.
    @Test func aPointerLeaveEndsAHeldTouchpadScroll() {
        let rig = ScrollBench()
        rig.send(.pointerEnter(position: Point(x: 200, y: 400)))
        for i in 1...5 { rig.send(.axis(.vertical, value: 10, source: .finger, value120: nil), at: 0.01 * Double(i)) }
        rig.advance(to: 1)
        #expect(rig.scroll.isDragging)
        rig.send(.pointerLeave, at: 1)
        #expect(!rig.scroll.isDragging && !rig.scroll.isDecelerating)
        #expect(rig.callbacks.suffix(1) == [.didEndDragging(willDecelerate: false)])
    }

    /// Touchpad momentum takes the motions' velocity over their last 150 ms, however late
    /// (up to 100 ms) the axis_stop comes after the last of them: the stop is no sample. A
    /// stop 45 ms late had thrown nothing (the still sample it added read as a stopped finger),
    /// and one 35 ms late threw 17% slower.
    @Test(arguments: [0.0, 0.035, 0.045, 0.1]) func aTouchpadFlingKeepsItsVelocityWhenTheStopComesLate(_ gap: Double) {
        let rig = ScrollBench()
        rig.send(.pointerMotion(position: Point(x: 200, y: 400)))
        // 2.5 px/ms: 8 units (× 2.5) every 8 ms.
        for i in 1...15 { rig.send(.axis(.vertical, value: 8, source: .finger, value120: nil), at: 0.008 * Double(i)) }
        rig.send(.axisStop(.vertical), at: 0.12 + gap)
        let velocity = rig.callbacks.compactMap { if case .willEndDragging(let v, _) = $0 { v } else { nil } }
        #expect(velocity.count == 1)
        #expect(abs((velocity.first?.y ?? 0) - 2.5) < 0.001, "released at \(velocity)")
        #expect(rig.scroll.isDecelerating)
    }

    /// Fingers still for more than 100 ms before they lift had stopped: no fling.
    @Test func aTouchpadStopLongAfterTheLastMotionThrowsNothing() {
        let rig = ScrollBench()
        rig.send(.pointerMotion(position: Point(x: 200, y: 400)))
        for i in 1...15 { rig.send(.axis(.vertical, value: 8, source: .finger, value120: nil), at: 0.008 * Double(i)) }
        rig.send(.axisStop(.vertical), at: 0.12 + 0.101)
        #expect(
            rig.callbacks.suffix(2) == [
                .willEndDragging(velocity: .zero, targetContentOffset: rig.scroll.contentOffset),
                .didEndDragging(willDecelerate: false),
            ])
    }

    @Test func aWheelUnderATouchpadScrollDoesNotAnimateAgainstIt() {
        let rig = ScrollBench()
        rig.send(.pointerMotion(position: Point(x: 200, y: 400)))
        rig.send(.axis(.vertical, value: 20, source: .finger, value120: nil), at: 0.01)
        let held = rig.scroll.contentOffset.y
        #expect(held == 50)
        rig.send(.axis(.vertical, value: 15, source: .wheel, value120: 120), at: 0.02)
        rig.advance(to: 0.5)
        #expect(rig.scroll.contentOffset.y == held)
        #expect(rig.scroll.phase == .dragging)
    }

    @Test func stoppingDuringAPinchEndsTheZoomWithDidEndZooming() {
        let rig = ScrollBench(viewport: Size(width: 400, height: 400), content: Size(width: 400, height: 400))
        rig.zoomsContent(maximum: 4)
        rig.send(.touchDown(id: 1, position: Point(x: 180, y: 200)))
        rig.send(.touchDown(id: 2, position: Point(x: 220, y: 200)), at: 0.01)
        rig.send(.touchMotion(id: 1, position: Point(x: 160, y: 200)), at: 0.05)
        rig.send(.touchMotion(id: 2, position: Point(x: 240, y: 200)), at: 0.05)
        #expect(rig.scroll.isZooming)
        rig.scroll.stopScrollingAndZooming()
        #expect(!rig.scroll.isZooming && !rig.scroll.isTracking)
        #expect(rig.callbacks.last == .didEndZooming(scale: 2))
        // The fingers' later moves and lifts are no one's.
        rig.send(.touchMotion(id: 2, position: Point(x: 300, y: 200)), at: 0.1)
        rig.send(.touchUp(id: 1), at: 0.12)
        rig.send(.touchUp(id: 2), at: 0.12)
        rig.settle()
        #expect(rig.scroll.zoomScale == 2)
        #expect(rig.callbacks.filter { $0 == .willBeginZooming }.count == 1)
        #expect(rig.callbacks.filter { if case .didEndZooming = $0 { true } else { false } }.count == 1)
    }

    @Test func anInterruptedScrollToTopDoesNotAnnounceALaterAnimationsEnd() {
        let rig = ScrollBench()
        rig.scroll.contentOffset = Point(x: 0, y: 3000)
        rig.scroll.scrollToTop()
        rig.advance(to: 0.1)
        // A touch stops the scroll to top on its way.
        rig.send(.touchDown(id: 1, position: Point(x: 200, y: 400)), at: 0.1)
        rig.send(.touchUp(id: 1), at: 0.15)
        rig.settle()
        rig.scroll.setContentOffset(Point(x: 0, y: 500), animated: true)
        rig.settle()
        #expect(rig.scroll.contentOffset == Point(x: 0, y: 500))
        #expect(rig.callbacks.contains(.didEndScrollingAnimation))
        #expect(!rig.callbacks.contains(.didScrollToTop))
    }
}
