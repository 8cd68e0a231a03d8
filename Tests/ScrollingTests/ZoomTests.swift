import Foundation
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayScrolling
import ScrollwayViews
import Testing

@MainActor
@Suite struct ZoomTests {
    func zoomRig() -> (ScrollBench, View, RecordingDelegate) {
        let rig = ScrollBench(viewport: Size(width: 400, height: 400), content: Size(width: 400, height: 400))
        let image = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        rig.content.addSubview(image)
        let d = rig.zoomsContent(maximum: 4)
        return (rig, image, d)
    }

    /// Fingers 1 and 2 land at `a` and `b` (10 ms apart) and move to `a2` and `b2` at 50 ms.
    func pinch(_ rig: ScrollBench, _ a: Point, _ b: Point, to a2: Point, _ b2: Point) {
        rig.send(.touchDown(id: 1, position: a))
        rig.send(.touchDown(id: 2, position: b), at: 0.01)
        rig.send(.touchMotion(id: 1, position: a2), at: 0.05)
        rig.send(.touchMotion(id: 2, position: b2), at: 0.05)
    }

    @Test func pinchKeepsItsCentreFixed() {
        let (rig, _, _) = zoomRig()
        rig.scroll.contentOffset = .zero
        // Fingers around (100, 100), spreading from 40 px apart to 80 px apart: ×2.
        pinch(rig, Point(x: 80, y: 100), Point(x: 120, y: 100), to: Point(x: 60, y: 100), Point(x: 140, y: 100))
        #expect(abs(rig.scroll.zoomScale - 2) < 1e-9)
        #expect(rig.scroll.contentSize == Size(width: 800, height: 800))
        // The content point under the centre (100, 100) is still under it: (100+100)·2 − 100.
        #expect(abs(rig.scroll.contentOffset.x - 100) < 1e-9)
        #expect(abs(rig.scroll.contentOffset.y - 100) < 1e-9)
        #expect(rig.content.frame == Rect(x: 0, y: 0, width: 800, height: 800))
        rig.send(.touchUp(id: 1), at: 0.1)
        rig.send(.touchUp(id: 2), at: 0.1)
        rig.settle()
        #expect(rig.callbacks.contains(.willBeginZooming))
        #expect(rig.callbacks.contains(.didEndZooming(scale: 2)))
    }

    /// One finger of a pinch lifts and the other carries on: the zoom ends with didEndZooming
    /// at its scale, and the finger left drags the content (past the slop, without a jump) and
    /// flings it, as UIKit's pan goes on with the finger left. The view had stopped following
    /// any finger until both had lifted.
    @Test func theFingerLeftAfterAPinchDragsTheContent() {
        let (rig, _, _) = zoomRig()
        rig.scroll.contentOffset = .zero
        pinch(rig, Point(x: 80, y: 100), Point(x: 120, y: 100), to: Point(x: 60, y: 100), Point(x: 140, y: 100))
        #expect(abs(rig.scroll.zoomScale - 2) < 1e-9)
        rig.send(.touchUp(id: 1), at: 0.1)
        #expect(rig.callbacks.last == .didEndZooming(scale: 2))
        let zoomed = rig.scroll.contentOffset
        // Finger 2, at (140, 100), moves up and left by 90 px on each axis, 6 px a step.
        var t = 0.12
        for step in 1...15 {
            rig.send(.touchMotion(id: 2, position: Point(x: 140 - 6 * Double(step), y: 100 - 6 * Double(step))), at: t)
            t += 0.016
        }
        // Past the 10 px slop the content follows the finger from the slop's edge (10 px along
        // the diagonal): 90 − 10/√2 on each axis.
        let dragged = rig.scroll.contentOffset - zoomed
        let expected = 90 - 10 / 2.0.squareRoot()
        #expect(abs(dragged.x - expected) < 1e-9 && abs(dragged.y - expected) < 1e-9, "\(dragged)")
        #expect(rig.scroll.isDragging && rig.callbacks.contains(.willBeginDragging))
        rig.send(.touchUp(id: 2), at: t)
        #expect(rig.scroll.isDecelerating)
        rig.settle()
        #expect(rig.scroll.zoomScale == 2 && rig.scroll.isOffsetInRange)
    }

    /// A second finger that lands on a drag and lifts again leaves the drag going with the
    /// first: no release in between, the content following the first finger without a jump,
    /// and its end calls all sent. The drag had been released as the second finger lifted,
    /// and the finger left then dropped its deceleration unended and could not drag.
    @Test func aDragGoesOnWhenASecondFingerComesAndGoes() {
        let (rig, _, _) = zoomRig()
        rig.scroll.setZoomScale(2, animated: false)  // 800 px of content: a range to drag in
        rig.scroll.contentOffset = .zero
        rig.events.removeAll()
        // Finger 1 drags down 60 px: past the top, banded.
        for step in 0...6 {
            let at = Point(x: 200, y: 100 + 10 * Double(step))
            if step == 0 {
                rig.send(.touchDown(id: 1, position: at))
            } else {
                rig.send(.touchMotion(id: 1, position: at), at: 0.016 * Double(step))
            }
        }
        #expect(rig.scroll.isDragging && rig.scroll.contentOffset.y < 0)
        rig.send(.touchDown(id: 2, position: Point(x: 300, y: 300)), at: 0.12)
        rig.send(.touchUp(id: 2), at: 0.15)
        #expect(rig.scroll.isDragging && !rig.callbacks.contains(.didEndDragging(willDecelerate: true)))
        let held = rig.scroll.contentOffset.y
        rig.send(.touchMotion(id: 1, position: Point(x: 200, y: 150)), at: 0.17)
        // Back up 10 px: the content follows (banded, so by less), from where it was.
        #expect(rig.scroll.contentOffset.y > held && rig.scroll.contentOffset.y < held + 10)
        rig.send(.touchUp(id: 1), at: 0.2)
        rig.settle()
        #expect(rig.scroll.isOffsetInRange && !rig.scroll.isDecelerating)
        #expect(
            rig.callbacks.map(\.delegateName) == [
                "scrollViewWillBeginDragging", "scrollViewWillEndDragging", "scrollViewDidEndDragging",
                "scrollViewWillBeginDecelerating", "scrollViewDidEndDecelerating",
            ], "\(rig.callbacks)")
    }

    @Test func beyondTheMaximumItBandsAndBouncesBack() {
        let (rig, _, _) = zoomRig()
        rig.send(.touchDown(id: 1, position: Point(x: 190, y: 200)))
        rig.send(.touchDown(id: 2, position: Point(x: 210, y: 200)), at: 0.01)
        // 20 px → 400 px apart: ×20 requested, far past 4.
        rig.send(.touchMotion(id: 1, position: Point(x: 0, y: 200)), at: 0.05)
        rig.send(.touchMotion(id: 2, position: Point(x: 400, y: 200)), at: 0.05)
        let shown = rig.scroll.zoomScale
        #expect(shown > 4 && shown < 8)  // banded in log space: at most 4·2
        rig.send(.touchUp(id: 1), at: 0.1)
        rig.send(.touchUp(id: 2), at: 0.1)
        #expect(rig.scroll.isZoomBouncing)
        rig.settle()
        #expect(rig.scroll.zoomScale == 4)
        #expect(!rig.scroll.isZoomBouncing)
        #expect(rig.scroll.isOffsetInRange)
    }

    /// The spring back from past the maximum ends without a jump: its last frame moves the
    /// content less than a device pixel at the corner farthest from the anchor (an offset's
    /// spring snaps its last half pixel). It ended when the scale was within 0.5% of the limit,
    /// and snapped that 0.5% at once: 2.4 px there.
    @Test func theZoomsSpringBackEndsWithoutAJump() {
        let (rig, _, _) = zoomRig()
        pinch(rig, Point(x: 190, y: 200), Point(x: 210, y: 200), to: Point(x: 0, y: 200), Point(x: 400, y: 200))
        rig.send(.touchUp(id: 1), at: 0.1)
        rig.send(.touchUp(id: 2), at: 0.1)
        var scales = [rig.scroll.zoomScale]
        while rig.scroll.isZoomBouncing, scales.count < 600 {
            rig.advance(by: 1.0 / 60)
            scales.append(rig.scroll.zoomScale)
        }
        #expect(rig.scroll.zoomScale == 4 && scales.count > 10)
        // Each frame's move at the viewport's far corner, 400·√2 px from the anchor at most.
        let moves = zip(scales, scales.dropFirst()).map { abs(Foundation.log($1 / $0)) * 400 * 2.0.squareRoot() }
        #expect(moves.last! < 1, "\(moves.suffix(4))")
    }

    @Test func setZoomScaleAndZoomToRect() {
        let (rig, _, _) = zoomRig()
        rig.scroll.setZoomScale(10, animated: false)
        #expect(rig.scroll.zoomScale == 4)
        rig.scroll.setZoomScale(1, animated: true)
        rig.settle()
        #expect(abs(rig.scroll.zoomScale - 1) < 1e-9)
        rig.scroll.zoom(to: Rect(x: 100, y: 100, width: 100, height: 100), animated: true)
        rig.settle()
        #expect(abs(rig.scroll.zoomScale - 4) < 1e-6)
        // The rect fills the viewport: its origin at the viewport's top-left.
        #expect(abs(rig.scroll.contentOffset.x - 400) < 0.5 && abs(rig.scroll.contentOffset.y - 400) < 0.5)
    }

    @Test func controlWheelZoomsByTenPercentPerDetent() {
        let (rig, _, _) = zoomRig()
        rig.send(.pointerMotion(position: Point(x: 200, y: 200)))
        rig.send(.key(.other("Control_L"), pressed: true, modifiers: .control))
        rig.send(.axis(.vertical, value: -15, source: .wheel, value120: -120))
        #expect(abs(rig.scroll.zoomScale - 1.1) < 1e-9)
        rig.send(.axis(.vertical, value: -30, source: .wheel, value120: -240))
        #expect(abs(rig.scroll.zoomScale - 1.1 * 1.21) < 1e-9)
    }

    @Test func touchpadPinch() {
        let (rig, _, _) = zoomRig()
        // To ×3 in one update 50 ms in, the pinch left open.
        rig.send { $0.pinch(over: Point(x: 200, y: 200), to: 3, at: 0, ms: 50, step: 50, endAfter: nil) }
        #expect(abs(rig.scroll.zoomScale - 3) < 1e-9)
        rig.send(.pinchEnd(cancelled: false), at: 0.1)
        rig.settle()
        #expect(abs(rig.scroll.zoomScale - 3) < 1e-9)
    }

    @Test func doubleTapZoomsIn() {
        let (rig, _, _) = zoomRig()
        rig.scroll.doubleTapZooms = true  // off by default, as UIKit has no double tap
        rig.send(.touchDown(id: 1, position: Point(x: 100, y: 100)))
        rig.send(.touchUp(id: 1), at: 0.05)
        rig.send(.touchDown(id: 1, position: Point(x: 100, y: 100)), at: 0.2)
        rig.send(.touchUp(id: 1), at: 0.25)
        rig.settle()
        #expect(abs(rig.scroll.zoomScale - 2) < 1e-6)
    }

    /// A pager of three zoomable 300×400 pages (PhotoKiosk's shape): the pager is the bench's
    /// scroll view, each page a scroll view of its own zooming its photo from 1 to 3.
    /// The pages' delegates come back too: the test keeps them (a delegate is held weakly).
    func zoomablePager() -> (ScrollBench, [ScrollView], [RecordingDelegate]) {
        let rig = ScrollBench(viewport: Size(width: 300, height: 400), content: Size(width: 900, height: 400))
        rig.scroll.isPagingEnabled = true
        var delegates: [RecordingDelegate] = []
        let pages = (0..<3).map { i -> ScrollView in
            let page = ScrollView(frame: Rect(x: Double(i) * 300, y: 0, width: 300, height: 400))
            let photo = View(frame: Rect(x: 0, y: 0, width: 300, height: 400))
            page.addSubview(photo)
            page.contentSize = photo.frame.size
            let d = RecordingDelegate()
            d.zoomView = photo
            page.delegate = d
            delegates.append(d)
            page.minimumZoomScale = 1
            page.maximumZoomScale = 3
            rig.content.addSubview(page)
            return page
        }
        return (rig, pages, delegates)
    }

    /// Two fingers landed together on a page at its smallest scale and swiped sideways turn the
    /// pager's page, as one finger does and as UIKit's pager does (its pinch does not begin on
    /// fingers that move together, and the page cannot move their way): the page took them as
    /// a pinch that panned it, rubber-banding, and the pager never moved.
    @Test func aTwoFingerSwipeOnAZoomablePageTurnsThePager() {
        let (rig, pages, delegates) = zoomablePager()
        defer { withExtendedLifetime(delegates) {} }
        rig.send(from: 0.1) { b in
            b.touch(
                from: Point(x: 200, y: 150), at: 0,
                moves: (1...10).map { (t: Double($0 * 12), to: Point(x: 200 - 15 * Double($0), y: 150)) },
                liftAt: 130, id: 1)
            b.touch(
                from: Point(x: 200, y: 250), at: 5,
                moves: (1...10).map { (t: Double($0 * 12), to: Point(x: 200 - 15 * Double($0), y: 250)) },
                liftAt: 130, id: 2)
        }
        #expect(!pages[0].isZooming && pages[0].zoomScale == 1)
        rig.settle()
        #expect(rig.scroll.contentOffset.x == 300, "the pager rests at \(rig.scroll.contentOffset.x)")
        #expect(pages[0].contentOffset == .zero && pages[0].zoomScale == 1)
        #expect(!pages[0].isDragging && !pages[0].isZooming)
        // The pager followed the fingers' centroid from the slop's crossing: no jump.
        let jumps = zip(rig.offsets, rig.offsets.dropFirst()).map { abs($1.x - $0.x) }
        #expect(jumps.allSatisfy { $0 < 60 }, "\(jumps)")
        // The page's recognizers are ready for the next gesture, and the page shown now zooms.
        #expect(pages[0].panGestureRecognizer.state == .possible)
        #expect(pages[0].pinchGestureRecognizer?.state == .possible)
        let t = rig.time + 0.1
        rig.send(.touchDown(id: 3, position: Point(x: 130, y: 200)), at: t)
        rig.send(.touchDown(id: 4, position: Point(x: 170, y: 200)), at: t + 0.01)
        rig.send(.touchMotion(id: 3, position: Point(x: 110, y: 200)), at: t + 0.05)
        rig.send(.touchMotion(id: 4, position: Point(x: 190, y: 200)), at: t + 0.05)
        #expect(abs(pages[1].zoomScale - 2) < 1e-9 && rig.scroll.contentOffset.x == 300)
    }

    /// A third finger that lands beside the two before their swipe is known goes with them to
    /// the pager, and drags it on after they lift: it had stayed with the page, which no longer
    /// tracked anything, and its moves were lost (the pager's pan takes every finger on it).
    @Test func aThirdFingerGoesWithATwoFingerSwipeHandedOn() {
        let (rig, pages, delegates) = zoomablePager()
        defer { withExtendedLifetime(delegates) {} }
        var t = 0.1
        rig.send(.touchDown(id: 1, position: Point(x: 200, y: 100)), at: t)
        rig.send(.touchDown(id: 2, position: Point(x: 200, y: 200)), at: t + 0.005)
        rig.send(.touchDown(id: 3, position: Point(x: 200, y: 300)), at: t + 0.008)
        t += 0.01
        for i in 1...5 {
            t += 0.012
            for id in 1...3 {
                rig.send(.touchMotion(id: id, position: Point(x: 200 - 15 * Double(i), y: 100 * Double(id))), at: t)
            }
        }
        #expect(rig.scroll.isDragging && !pages[0].isZooming)
        // The two fingers' centroid crossed the slop (10 px) at their first step of 15: 5 px
        // on; the third finger's 15 then moves the three's centroid 5, and each later step of
        // all three 15: 70 in all, no jump as the third joined.
        #expect(abs(rig.scroll.contentOffset.x - 70) < 1e-6, "\(rig.scroll.contentOffset)")
        t += 0.012
        rig.send(.touchUp(id: 1), at: t)
        rig.send(.touchUp(id: 2), at: t)
        let left = rig.scroll.contentOffset.x
        for i in 6...10 {
            t += 0.012
            rig.send(.touchMotion(id: 3, position: Point(x: 200 - 15 * Double(i), y: 300)), at: t)
        }
        #expect(rig.scroll.isDragging, "the pager no longer drags under the third finger")
        #expect(abs(rig.scroll.contentOffset.x - (left + 75)) < 1e-6, "\(rig.scroll.contentOffset)")
        rig.send(.touchUp(id: 3), at: t + 0.012)
        rig.settle()
        #expect(rig.scroll.contentOffset.x == 300)
    }

    /// The same swipe on a page zoomed in pans the page's photo (the page can move that way):
    /// its pinch begins and carries the photo with the fingers, the pager stays, even where
    /// the page hands drags on at its edges (it is not at one).
    @Test func aTwoFingerSwipeOnAZoomedPagePansIt() {
        let (rig, pages, delegates) = zoomablePager()
        defer { withExtendedLifetime(delegates) {} }
        pages[0].handsOffDragsAtEdges = true
        pages[0].setZoomScale(2, animated: false)
        pages[0].contentOffset = Point(x: 100, y: 100)
        rig.send(from: 0.1) { b in
            b.touch(
                from: Point(x: 200, y: 150), at: 0,
                moves: (1...6).map { (t: Double($0 * 12), to: Point(x: 200 - 10 * Double($0), y: 150)) },
                liftAt: nil, id: 1)
            b.touch(
                from: Point(x: 200, y: 250), at: 5,
                moves: (1...6).map { (t: Double($0 * 12), to: Point(x: 200 - 10 * Double($0), y: 250)) },
                liftAt: nil, id: 2)
        }
        #expect(pages[0].isZooming)
        #expect(abs(pages[0].contentOffset.x - 160) < 1e-6, "\(pages[0].contentOffset)")
        #expect(rig.scroll.contentOffset.x == 0)
    }
}
