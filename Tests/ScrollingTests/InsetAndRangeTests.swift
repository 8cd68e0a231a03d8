import ScrollwayGeometry
import ScrollwayScrolling
import ScrollwayViews
import Testing

@MainActor
@Suite struct InsetAndRangeTests {
    /// Insets and offsets that are not finite are ignored, and those past `largestOffset` (2^53)
    /// are brought back to it: a NaN inset trapped in the range's arithmetic, an infinite one left
    /// the offset NaN with a fling that never ended, a NaN offset and an animation to 1e308 were
    /// NaN for good, and a zoom to a NaN rect too; the window was never at rest after them.
    @Test func insetsAndOffsetsThatAreNotFiniteAreIgnored() {
        let rig = ScrollBench()
        let s = rig.scroll
        rig.zoomsContent(maximum: 4)
        s.contentInset = EdgeInsets(top: 20, left: 0, bottom: 0, right: 0)
        s.contentOffset = Point(x: 0, y: 100)
        for bad in [
            EdgeInsets(top: .nan, left: 0, bottom: 0, right: 0), EdgeInsets(top: 0, left: .nan, bottom: 0, right: 0),
            EdgeInsets(top: -.infinity, left: 0, bottom: 0, right: 0),
            EdgeInsets(top: 0, left: 0, bottom: .infinity, right: 0),
        ] {
            s.contentInset = bad
            s.safeAreaInsets = bad
            #expect(s.contentInset == EdgeInsets(top: 20, left: 0, bottom: 0, right: 0) && s.safeAreaInsets == .zero)
        }
        s.contentInset = EdgeInsets(top: 1e300, left: 0, bottom: 0, right: 0)
        #expect(s.contentInset.top == ScrollView.largestOffset)
        s.contentInset = .zero
        s.contentOffset = Point(x: .nan, y: 0)
        s.contentOffset = Point(x: 0, y: .infinity)
        #expect(s.contentOffset == Point(x: 0, y: 100))
        s.zoom(to: Rect(x: .nan, y: 0, width: 10, height: 10), animated: true)
        #expect(s.zoomScale == 1 && s.contentOffset == Point(x: 0, y: 100))
        s.setContentOffset(Point(x: 0, y: 1e308), animated: true)
        rig.settle()
        #expect(s.contentOffset.isFinite && !s.isDecelerating)
        #expect(!rig.window.hasActiveAnimations)
        #expect(s.contentOffset.y == ScrollView.largestOffset, "rests at \(s.contentOffset.y)")
        s.setContentOffset(Point(x: 0, y: 100), animated: true)
        rig.settle()
        #expect(s.contentOffset == Point(x: 0, y: 100))
    }

    @Test func offsetRangeWithAndWithoutInsets() {
        let rig = ScrollBench()
        let s = rig.scroll
        #expect(s.verticalRange == 0...(12000 - 844))
        #expect(s.horizontalRange == 0...0)
        s.contentInset = EdgeInsets(top: 20, left: 5, bottom: 60, right: 5)
        #expect(s.verticalRange == -20...(12000 + 60 - 844))
        #expect(s.horizontalRange == -5...(390 + 5 - 390))
        // Content smaller than the viewport: the range collapses to −top.
        s.contentSize = Size(width: 390, height: 300)
        #expect(s.verticalRange == -20...(-20))
        // contentOffset IS bounds.origin.
        s.contentOffset = Point(x: 0, y: 33)
        #expect(s.bounds.origin == Point(x: 0, y: 33))
        s.bounds.origin = Point(x: 0, y: 44)
        #expect(s.contentOffset.y == 44)
    }

    @Test(arguments: [
        (ScrollView.ContentInsetAdjustmentBehavior.never, false, EdgeInsets.zero),
        (.always, false, EdgeInsets(top: 47, left: 10, bottom: 34, right: 12)),
        (.automatic, false, EdgeInsets(top: 47, left: 0, bottom: 34, right: 0)),
        (.automatic, true, EdgeInsets(top: 47, left: 10, bottom: 34, right: 12)),
        (.scrollableAxes, false, EdgeInsets(top: 47, left: 0, bottom: 34, right: 0)),
        (.scrollableAxes, true, EdgeInsets(top: 47, left: 10, bottom: 34, right: 12)),
    ])
    func adjustedInsetUnderEachBehaviour(
        behaviour: ScrollView.ContentInsetAdjustmentBehavior, wide: Bool, expectedSafePart: EdgeInsets
    ) {
        // Narrow content stays narrower than the viewport even with the 2 + 4 px side insets.
        let rig = ScrollBench(content: Size(width: wide ? 2000 : 300, height: 12000))
        let s = rig.scroll
        s.contentInsetAdjustmentBehavior = behaviour
        s.contentInset = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
        s.safeAreaInsets = EdgeInsets(top: 47, left: 10, bottom: 34, right: 12)
        #expect(s.adjustedContentInset == EdgeInsets(top: 1, left: 2, bottom: 3, right: 4) + expectedSafePart)
    }

    @Test func scrollableAxesSkipsAVerticalAxisThatDoesNotScroll() {
        let rig = ScrollBench(content: Size(width: 390, height: 100))
        rig.scroll.contentInsetAdjustmentBehavior = .scrollableAxes
        rig.scroll.safeAreaInsets = EdgeInsets(top: 47, left: 0, bottom: 34, right: 0)
        #expect(rig.scroll.adjustedContentInset == .zero)
        rig.scroll.alwaysBounceVertical = true
        rig.scroll.contentInsetAdjustmentBehavior = .automatic
        rig.scroll.contentInsetAdjustmentBehavior = .scrollableAxes
        #expect(rig.scroll.adjustedContentInset.top == 47)
    }

    @Test func contributionsAddToTheAdjustedInsetAndAChangeSpringsBackWithoutWritingTheOffset() {
        let rig = ScrollBench()
        let s = rig.scroll
        s.setInsetContribution(EdgeInsets(top: 60, left: 0, bottom: 0, right: 0), for: "refresh")
        #expect(s.adjustedContentInset.top == 60)
        #expect(s.verticalRange.lowerBound == -60)
        #expect(rig.callbacks == [.didChangeAdjustedContentInset])
        // Rest at −60, then remove the contribution: the offset is outside and springs to 0.
        s.contentOffset = Point(x: 0, y: -60)
        rig.events.removeAll()
        s.setInsetContribution(.zero, for: "refresh")
        #expect(s.contentOffset.y == -60)  // not written directly
        #expect(s.phase == .bouncing)
        rig.settle()
        #expect(s.contentOffset.y == 0)
        #expect(rig.callbacks == [.didChangeAdjustedContentInset])
        // Spring frames never jump more than the ω=10 spring allows (its peak speed is ω·y0/... < 600 px/s here).
        let steps = zip(rig.offsets, rig.offsets.dropFirst()).map { abs($1.y - $0.y) }
        #expect(steps.allSatisfy { $0 <= 60.0 * 10 / 60 + 1e-9 })
    }

    /// Content that fits its viewport scrolls once the adjusted inset makes its range longer
    /// than nothing (a keyboard's part, or the safe area's under `automatic`), as UIKit's does:
    /// a drag moves it and it rests at the range's end. Whether an axis scrolled was decided
    /// from `contentInset` alone, so the drag was refused on that axis and the fields under a
    /// keyboard could not be brought up.
    @Test(arguments: [true, false])
    func anAdjustedInsetAloneMakesContentThatFitsScroll(keyboard: Bool) {
        let rig = ScrollBench(content: Size(width: 390, height: 300))
        let s = rig.scroll
        #expect(!s.scrollsVertically)
        if keyboard {
            s.setInsetContribution(EdgeInsets(top: 0, left: 0, bottom: 600, right: 0), for: .keyboard)
        } else {
            s.safeAreaInsets = EdgeInsets(top: 0, left: 0, bottom: 600, right: 0)
        }
        #expect(s.verticalRange == 0...56)  // 300 + 600 − 844
        #expect(s.scrollsVertically && !s.scrollsHorizontally)
        rig.drag(from: Point(x: 200, y: 700), to: Point(x: 200, y: 600), duration: 0.4)
        #expect(s.contentOffset.y > 40, "dragged to \(s.contentOffset.y)")
        rig.settle()
        #expect(s.contentOffset == Point(x: 0, y: 56))
    }
}
