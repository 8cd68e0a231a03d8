import ScrollwayGeometry
import ScrollwayScrolling
import ScrollwayViews
import Testing

@MainActor
@Suite struct RefreshControlTests {
    /// The finger overscroll that shows `b` past the edge in a viewport of `d`: o = b·d/(0.55·(d − b)).
    func overscroll(showing b: Double, d: Double = 844) -> Double { b * d / (0.55 * (d - b)) }

    @Test(arguments: [0.0, 20.0])
    func pullTriggerRefreshEnd(topInset: Double) {
        let rig = ScrollBench()
        let s = rig.scroll
        s.contentInset = EdgeInsets(top: topInset, left: 0, bottom: 0, right: 0)
        s.contentOffset = Point(x: 0, y: -topInset)
        let control = RefreshControl()
        var triggered = 0
        control.onValueChanged = { triggered += 1 }
        s.refreshControl = control
        #expect(s.adjustedContentInset.top == topInset)

        // Pull slowly to a shown overscroll just below 1.5·h: not yet.
        let below = overscroll(showing: 85)
        rig.drag(from: Point(x: 200, y: 100), to: Point(x: 200, y: 110 + below), duration: 0.5, lift: false)
        #expect(!control.isRefreshing)
        #expect(abs(control.progress - 85 / 90) < 0.01)
        // Further: it triggers mid-drag, once, and h joins the adjusted inset.
        rig.offsets.removeAll()
        rig.send { $0.move(id: 1, through: (1...20).map { Point(x: 200, y: 110 + below + Double($0) * 3) }, after: 0) }
        #expect(control.isRefreshing && triggered == 1)
        #expect(s.adjustedContentInset.top == topInset + 60)
        #expect(s.verticalRange.lowerBound == -(topInset + 60))
        // The content never jumped while the inset changed under the finger.
        let steps = zip(rig.offsets, rig.offsets.dropFirst()).map { abs($1.y - $0.y) }
        #expect(steps.allSatisfy { $0 < 5 }, "largest step \(steps.max() ?? 0)")

        // Held still and released: it settles at −adjusted.top, spinner in view.
        rig.send(.touchUp(id: 1), at: rig.time + 0.2)
        rig.settle()
        #expect(s.contentOffset.y == -(topInset + 60))
        #expect(triggered == 1)

        // End: h leaves the inset and the offset springs back, smoothly (ω = 10 from 60 px peaks
        // at ω·60/e ≈ 221 px/s: under 4 px a frame at 60 Hz).
        rig.offsets.removeAll()
        control.endRefreshing()
        #expect(s.adjustedContentInset.top == topInset)
        #expect(s.contentOffset.y == -(topInset + 60))  // the offset is not written
        rig.settle()
        #expect(s.contentOffset.y == -topInset)
        let back = zip(rig.offsets, rig.offsets.dropFirst()).map { abs($1.y - $0.y) }
        #expect(back.allSatisfy { $0 <= 10.0 * 60 / 2.718281828 / 60 + 1e-9 })
    }

    /// A refresh that ends while the pull's release still springs back (the data came from a
    /// cache): the spring follows the edge that moved, at a spring's speed, and rests at the top.
    /// Its velocity had been taken for a throw back in, and glided 156 px down into the content;
    /// the same for the content growing under it, or a list appending rows.
    @Test(arguments: ["end", "size", "inset"])
    func aRangeChangeWhileAReleaseSpringsBackRestsAtTheEdge(change: String) {
        let rig = ScrollBench()
        let s = rig.scroll
        let control = RefreshControl()
        s.refreshControl = control
        // Pulled 600 px down over half a second, held still, lifted: refreshing, springing back.
        rig.drag(from: Point(x: 200, y: 100), to: Point(x: 200, y: 700), duration: 0.5, lift: false)
        rig.send(.touchUp(id: 1), at: rig.time + 0.1)
        #expect(control.isRefreshing)
        rig.advance(by: 0.1)
        #expect(s.isDecelerating && s.contentOffset.y < -100, "springing back at \(s.contentOffset.y)")
        var top = 0.0
        switch change {
        case "end": control.endRefreshing()
        case "size":
            control.endRefreshing()
            s.contentSize.height += 500
        default:
            control.endRefreshing()
            s.contentInset.top = 100
            top = -100
        }
        rig.offsets.removeAll()
        rig.settle()
        #expect(s.contentOffset.y == top)
        // Never past it on the way.
        #expect(rig.offsets.allSatisfy { $0.y <= top }, "went to \(rig.offsets.map(\.y).max() ?? 0)")
    }

    /// A flick down at the top springs back from past it; the top inset grows under the spring:
    /// an edge it springs to that is still inside the range is kept (its velocity had been
    /// taken for a throw, and glided 422 px into the content), and past the new edge it springs
    /// to that.
    @Test(arguments: [100.0, 600.0])
    func aTopInsetGrowingUnderABounceKeepsItAtTheTop(inset: Double) {
        let rig = ScrollBench()
        let s = rig.scroll
        rig.send { $0.flick(from: Point(x: 200, y: 600), by: Point(x: 0, y: 900), at: 0) }
        rig.advance(by: 0.15)
        // About 300 px past the top, springing back.
        #expect(s.isDecelerating && s.contentOffset.y < -200 && s.contentOffset.y > -400, "at \(s.contentOffset.y)")
        let inside = inset > 400
        s.contentInset.top = inset
        rig.offsets.removeAll()
        rig.settle()
        #expect(s.contentOffset.y == (inside ? 0 : -inset), "rests at \(s.contentOffset.y)")
        #expect(rig.offsets.allSatisfy { $0.y <= 0 }, "went to \(rig.offsets.map(\.y).max() ?? 0)")
    }

    /// A refreshing control given to another scroll view is taken from the first as setting
    /// its `refreshControl` to nil does: the refresh ends there and the first's inset goes (it
    /// kept 60 px for good).
    @Test func aControlMovedToAnotherScrollViewLeavesTheFirstWithoutItsInset() {
        let rig = ScrollBench()
        let other = ScrollView(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        other.contentSize = Size(width: 390, height: 2000)
        rig.window.addSubview(other)
        let control = RefreshControl()
        rig.scroll.refreshControl = control
        control.beginRefreshing()
        #expect(rig.scroll.adjustedContentInset.top == 60)
        other.refreshControl = control
        #expect(rig.scroll.refreshControl == nil && other.refreshControl === control)
        #expect(rig.scroll.adjustedContentInset.top == 0 && !control.isRefreshing)
        control.beginRefreshing()
        #expect(other.adjustedContentInset.top == 60 && rig.scroll.adjustedContentInset.top == 0)
        control.endRefreshing()
        #expect(other.adjustedContentInset.top == 0)
    }

    @Test func ifTheOffsetIsStillInsideTheRangeEndingDoesNotMoveIt() {
        let rig = ScrollBench()
        let control = RefreshControl()
        rig.scroll.refreshControl = control
        control.beginRefreshing()
        #expect(rig.scroll.adjustedContentInset.top == 60)
        rig.scroll.contentOffset = Point(x: 0, y: 300)
        control.endRefreshing()
        rig.settle()
        #expect(rig.scroll.contentOffset.y == 300)
    }

    @Test func worksWithASafeAreaTop() {
        let rig = ScrollBench()
        let s = rig.scroll
        s.safeAreaInsets = EdgeInsets(top: 47, left: 0, bottom: 0, right: 0)
        s.contentOffset = Point(x: 0, y: -47)
        let control = RefreshControl()
        s.refreshControl = control
        rig.drag(
            from: Point(x: 200, y: 100), to: Point(x: 200, y: 110 + overscroll(showing: 95)), duration: 0.5, lift: false
        )
        #expect(control.isRefreshing)
        rig.send(.touchUp(id: 1), at: rig.time + 0.2)
        rig.settle()
        #expect(s.contentOffset.y == -(47 + 60))
    }
}
