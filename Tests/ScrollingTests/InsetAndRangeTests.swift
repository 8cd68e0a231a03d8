import ScrollwayGeometry
import ScrollwayScrolling
import ScrollwayViews
import Testing

@MainActor
@Suite struct InsetAndRangeTests {
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
}
