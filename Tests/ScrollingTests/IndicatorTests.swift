import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews
import Testing

@MainActor
@Suite struct IndicatorTests {
    /// The thumb in window coordinates.
    func thumbOnScreen(_ s: ScrollView) -> Rect {
        let ind = s.verticalScrollIndicator
        let t = ind.thumb
        let local = Rect(x: ind.bounds.width - 3, y: t.minY, width: 3, height: t.height)
        return ind.convert(local, to: nil)
    }

    @Test func thumbGeometryFollowsTheSpec() {
        let rig = ScrollBench()
        let s = rig.scroll
        s.flashScrollIndicators()
        let track = 844.0 - 2 * 3
        let length = track * 844 / 12000
        var thumb = thumbOnScreen(s)
        #expect(abs(thumb.height - length) < 1e-9)
        #expect(thumb.maxX == 390 - 3)  // 3 px from the edge
        #expect(thumb.width == 3)
        #expect(thumb.minY == 3)
        s.contentOffset = Point(x: 0, y: s.verticalRange.upperBound)
        thumb = thumbOnScreen(s)
        #expect(abs(thumb.maxY - (844 - 3)) < 1e-9)
        // Long content: never shorter than 36 px.
        s.contentSize = Size(width: 390, height: 1_000_000)
        s.layoutIfNeeded()
        #expect(thumbOnScreen(s).height == 36)
        #expect(s.horizontalScrollIndicator.isHidden)  // content fits horizontally
    }

    @Test func overscrollShortensTheThumbDownTo7px() {
        let rig = ScrollBench()
        let s = rig.scroll
        let normal = 838.0 * 844 / 12000
        rig.drag(from: Point(x: 200, y: 100), to: Point(x: 200, y: 150), duration: 0.2, lift: false)
        let shown = -s.contentOffset.y
        #expect(shown > 0)
        #expect(abs(thumbOnScreen(s).height - (normal - shown)) < 1e-9)
        rig.send(.touchMotion(id: 1, position: Point(x: 200, y: 800)), at: rig.time + 0.1)
        #expect(thumbOnScreen(s).height == 7)
    }

    @Test func touchFadeStartsHalfASecondAfterMotionAndTakesAQuarter() {
        let rig = ScrollBench()
        let ind = rig.scroll.verticalScrollIndicator
        rig.drag(from: Point(x: 200, y: 600), to: Point(x: 200, y: 500), duration: 0.2, lift: false)
        #expect(ind.alpha == 1)
        rig.send(.touchUp(id: 1), at: rig.time + 0.1)  // held still: no fling
        let stop = rig.time
        rig.advance(to: stop + 0.49)
        #expect(ind.alpha == 1)
        rig.advance(to: stop + 0.5 + 0.125 + 1.0 / 120)
        #expect(ind.alpha > 0.3 && ind.alpha < 0.7)
        rig.advance(to: stop + 0.8)
        #expect(ind.alpha == 0)
    }

    @Test func pointerWidensTheIndicatorAndClicksOnTheTrackPage() {
        let rig = ScrollBench()
        let s = rig.scroll
        rig.send(.pointerMotion(position: Point(x: 200, y: 400)))
        #expect(!s.verticalScrollIndicator.isWide)
        rig.send(.pointerMotion(position: Point(x: 383, y: 400)))  // within 5 px of the thumb line
        #expect(s.verticalScrollIndicator.isWide)
        #expect(s.verticalScrollIndicator.alpha == 1)
        // A click on the track below the thumb pages down (viewport − 40).
        rig.send(.pointerButton(.left, pressed: true))
        rig.send(.pointerButton(.left, pressed: false), at: rig.time + 0.05)
        rig.settle()
        #expect(s.contentOffset.y == 804)
        // Dragging the thumb maps its position onto the range.
        let thumb = thumbOnScreen(s)
        rig.send(.pointerMotion(position: Point(x: 385, y: thumb.midY)))
        rig.send(.pointerButton(.left, pressed: true))
        let track = 838.0
        rig.send(.pointerMotion(position: Point(x: 385, y: thumb.midY + 100)), at: rig.time + 0.05)
        let expected = (thumb.minY - 3 + 100) / (track - thumb.height) * s.verticalRange.upperBound
        #expect(abs(s.contentOffset.y - expected) < 1e-6)
        rig.send(.pointerButton(.left, pressed: false))
        rig.send(.pointerMotion(position: Point(x: 200, y: 400)))
        #expect(!s.verticalScrollIndicator.isWide)
    }

    /// In a right-to-left scroll view the vertical indicator stands at the left edge, as
    /// UIKit's does: its thumb 3 px from the left and drawn there, widened by the pointer near
    /// it there and not at the right, and a click on its track pages down as at the right.
    @Test func aRightToLeftScrollViewsIndicatorStandsAtTheLeft() {
        let rig = ScrollBench()
        rig.window.userInterfaceLayoutDirection = .rightToLeft
        let s = rig.scroll
        s.flashScrollIndicators()
        s.layoutIfNeeded()
        let ind = s.verticalScrollIndicator
        #expect(ind.frame.minX == 3)
        let drawn = ind.drawnRect(scale: 1)
        #expect(drawn?.minX == -1 && drawn?.width == 5)
        rig.send(.pointerMotion(position: Point(x: 383, y: 400)))
        #expect(!ind.isWide)
        rig.send(.pointerMotion(position: Point(x: 7, y: 400)))
        #expect(ind.isWide && ind.alpha == 1)
        rig.send(.pointerButton(.left, pressed: true))
        rig.send(.pointerButton(.left, pressed: false), at: rig.time + 0.05)
        rig.settle()
        #expect(s.contentOffset.y == 804)
        // Turned back, it stands at the right again (narrow, the pointer gone from it).
        rig.send(.pointerMotion(position: Point(x: 200, y: 400)))
        #expect(!ind.isWide)
        rig.window.userInterfaceLayoutDirection = .leftToRight
        s.layoutIfNeeded()
        #expect(ind.frame.maxX == 390 - 3)
        #expect(ind.drawnRect(scale: 1).map { $0.maxX == ind.bounds.width + 1 } == true)
    }

    /// The pointer leaving the window over a widened indicator (out through the window's right
    /// edge, where the bar sits) narrows it, and it fades as after the pointer moved away: it
    /// stayed wide and shown for good, since nothing told the views the pointer had gone.
    @Test func aWidenedIndicatorNarrowsAndFadesWhenThePointerLeaves() {
        let rig = ScrollBench()
        let s = rig.scroll
        let ind = s.verticalScrollIndicator
        rig.send(.pointerMotion(position: Point(x: 388, y: 400)))
        #expect(ind.isWide && ind.alpha == 1)
        rig.send(.pointerLeave)
        #expect(!ind.isWide)
        let left = rig.time
        rig.advance(to: left + ScrollIndicator.touchFadeDelay + 1)
        #expect(ind.alpha == 0)
    }

    @Test func indicatorsStayInFrontOfContentAddedLater() {
        let rig = ScrollBench()
        let late = View(frame: Rect(x: 0, y: 0, width: 390, height: 100))
        rig.scroll.addSubview(late)
        rig.scroll.layoutIfNeeded()
        #expect(rig.scroll.subviews.last === rig.scroll.verticalScrollIndicator)
    }

    /// A window with a 12,000-point scroll view at `offset`, its indicators shown, one frame
    /// prepared.
    func scrolledWindow(at offset: Double, scale: Double) throws -> (Window, ScrollView) {
        let window = Window(size: Size(width: 390, height: 844), scale: scale)
        let s = ScrollView(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        s.contentSize = Size(width: 390, height: 12000)
        window.addSubview(s)
        s.contentOffset = Point(x: 0, y: offset)
        s.flashScrollIndicators()
        _ = try window.prepareFrameUpdate(time: 0)
        return (window, s)
    }

    /// The thumb moves every frame of a scroll but keeps its length: its image is drawn once
    /// and moved (`contentsOnlyMoved`), not drawn again each frame, and the window shows exactly
    /// what a window drawn afresh at the end shows. A thumb whose length changes is drawn again.
    @Test(arguments: [1.0, 1.5, 2.0]) func aThumbThatOnlyMovesIsDrawnOnce(_ scale: Double) throws {
        // Away from the track's ends, where its bounds clip the thumb's border (another image).
        let (window, s) = try scrolledWindow(at: 100, scale: scale)
        let ind = s.verticalScrollIndicator
        let draws = ind.drawCount
        for i in 1...24 {
            s.contentOffset = Point(x: 0, y: 100 + Double(i) * 37.3)
            _ = try window.prepareFrameUpdate(time: Double(i) / 60)
        }
        #expect(ind.drawCount == draws)
        let (fresh, _) = try scrolledWindow(at: 100 + 24 * 37.3, scale: scale)
        let a = try Canvas(size: window.bounds.size, scale: scale)
        let b = try Canvas(size: fresh.bounds.size, scale: scale)
        window.composite(into: a)
        fresh.composite(into: b)
        var differing = 0
        for y in 0..<a.height {
            for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { differing += 1 }
        }
        #expect(differing == 0, "\(differing) pixels differ from a window drawn at the end")
        // Longer content: a shorter thumb, drawn again.
        s.contentSize = Size(width: 390, height: 24000)
        s.layoutIfNeeded()
        _ = try window.prepareFrameUpdate(time: 1)
        #expect(ind.drawCount == draws + 1)
    }
}
