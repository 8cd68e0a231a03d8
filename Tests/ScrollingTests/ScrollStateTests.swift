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

    /// A touchpad scroll whose axis_stop never comes ends 0.5 s after its last event,
    /// offscreen as on Wayland (`FingerScrollStopWatch`), still: the scroll view does not stay
    /// dragging, deaf to keys. Offscreen it had stayed dragging to the end of the play.
    @Test func aTouchpadScrollWithoutItsStopEndsHalfASecondAfterItsLastEvent() {
        let rig = ScrollBench()
        rig.send(.pointerMotion(position: Point(x: 200, y: 400)))
        for i in 1...5 { rig.send(.axis(.vertical, value: 10, source: .finger, value120: nil), at: 0.01 * Double(i)) }
        rig.advance(to: 0.549)
        #expect(rig.scroll.isDragging)
        rig.advance(to: 0.551)
        #expect(!rig.scroll.isDragging && !rig.scroll.isDecelerating)
        #expect(
            rig.callbacks.suffix(2) == [
                .willEndDragging(velocity: .zero, targetContentOffset: rig.scroll.contentOffset),
                .didEndDragging(willDecelerate: false),
            ])
        // The stop that comes late finds nothing to end; Page Down pages at once.
        rig.send(.axisStop(.vertical), at: 0.6)
        let rested = rig.scroll.contentOffset.y
        rig.send(.key(.pageDown, pressed: true, modifiers: []), at: 0.7)
        rig.settle()
        #expect(rig.scroll.contentOffset.y > rested + 100)
        #expect(rig.callbacks.filter { $0 == .willBeginDragging }.count == 1)
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
