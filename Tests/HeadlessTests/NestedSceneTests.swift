import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayHeadless
import ScrollwayPhysics
import ScrollwayReplay
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// The nested scene: who gets a gesture, and in what order the trace shows the hand-off.
@MainActor
@Suite struct NestedSceneTests {
    @MainActor
    final class Fixture {
        let d = SceneDriver(.nested)
        let recorder: TraceRecorder
        var pager: ScrollView { d.window.view(named: "pager") as! ScrollView }
        var notes: ScrollView { d.window.view(named: "notes") as! ScrollView }

        init() { recorder = TraceRecorder(window: d.window) }

        /// Delegate records as "view.callback", in trace order.
        var delegateRecords: [String] {
            recorder.text.split(separator: "\n").compactMap { line -> String? in
                guard let d = field("delegate", in: line), let v = field("view", in: line) else { return nil }
                return "\(v).\(d)"
            }
        }

        private func field(_ key: String, in line: Substring) -> String? {
            guard let r = line.range(of: "\"\(key)\": \"") else { return nil }
            let rest = line[r.upperBound...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }

        /// A finger from `a` through `points`, 16 ms apart; it rests 200 ms before lifting
        /// when `hold` (no momentum) and lifts at once otherwise (a flick).
        func drag(from a: Point, through points: [Point], hold: Bool = true, checkBeforeLift: (() -> Void)? = nil) {
            var t = d.press(at: a, then: points, start: d.time + 0.1)
            checkBeforeLift?()
            if hold { t = d.send(from: t) { $0.move(id: 1, through: [points.last!], after: 0, step: 200) } }
            d.send(.touchUp(id: 1), at: t + 0.016)
            d.settle()
        }
    }

    static func steps(from a: Point, by delta: Point, count: Int) -> [Point] {
        (1...count).map { a + delta * (Double($0) / Double(count)) }
    }

    @Test func aVerticalDragOnThePagerScrollsTheList() {
        let f = Fixture()
        let start = Point(x: 200, y: 200)  // on card 1
        f.drag(from: start, through: Self.steps(from: start, by: Point(x: 0, y: -120), count: 6)) {
            // The list follows the finger beyond the 10 px slop; the pager does not move.
            #expect(f.d.main.contentOffset.y == 110)
            #expect(f.pager.contentOffset == .zero)
        }
        #expect(f.d.main.contentOffset.y == 110)
        #expect(f.pager.contentOffset == .zero)
        #expect(
            f.delegateRecords == [
                "main.scrollViewWillBeginDragging", "main.scrollViewWillEndDragging", "main.scrollViewDidEndDragging",
            ])
    }

    @Test func aHorizontalDragOnThePagerTurnsACardAndLeavesTheListAlone() {
        let f = Fixture()
        let start = Point(x: 300, y: 200)
        f.drag(from: start, through: Self.steps(from: start, by: Point(x: -160, y: 12), count: 5), hold: false) {
            // The travel beyond the radial slop's crossing point, on x only (the lock drops y).
            let first = Point(x: -32, y: 2.4)
            let expected = 160 - 10 * first.x / -first.length
            #expect(abs(f.pager.contentOffset.x - expected) < 1e-9)
            #expect(f.d.main.contentOffset == .zero)
        }
        #expect(f.pager.contentOffset.x == 390)
        #expect((f.d.window.view(named: "pageIndicator") as! PageControl).currentPage == 1)
        #expect(f.d.main.contentOffset == .zero)
        #expect(f.delegateRecords.allSatisfy { $0.hasPrefix("pager.") })
        #expect(f.delegateRecords.first == "pager.scrollViewWillBeginDragging")
    }

    @Test func theNotesScrollToTheirEdgeThenTheListCarriesOn() {
        let f = Fixture()
        let range = f.notes.verticalRange.upperBound
        #expect(range > 100)
        // 10 px of slop, the notes' whole range, then 60 px more for the list.
        let travel = 10 + range + 60
        let start = Point(x: 200, y: 730)  // inside the notes box
        f.drag(from: start, through: Self.steps(from: start, by: Point(x: 0, y: -travel), count: 20), hold: false) {
            #expect(f.notes.contentOffset.y == range)  // exactly at its edge, not banded
            #expect(abs(f.d.main.contentOffset.y - 60) < 1e-9)  // no travel lost, none doubled
        }
        #expect(f.notes.contentOffset.y == range)
        // The flick carried on in the list with the finger's velocity (20 equal steps, 16 ms
        // apart: the least-squares line is exact), from 60 to x0 + v0/k on a device pixel.
        let v0 = travel / 20 / 0.016
        let scale = f.d.window.scale
        let rest = ((60 + v0 / f.d.main.decelerationRate.k) * scale).rounded() / scale
        #expect(f.d.main.contentOffset.y == rest)
        #expect(
            Array(f.delegateRecords.prefix(7)) == [
                "notes.scrollViewWillBeginDragging", "notes.scrollViewWillEndDragging",
                "notes.scrollViewDidEndDragging", "main.scrollViewWillBeginDragging",
                "main.scrollViewWillEndDragging", "main.scrollViewDidEndDragging",
                "main.scrollViewWillBeginDecelerating",
            ])
        // The notes ended at their edge without momentum.
        #expect(
            f.recorder.text.contains(
                "\"view\": \"notes\", \"delegate\": \"scrollViewDidEndDragging\", \"willDecelerate\": false"))
    }

    @Test func withNoAncestorToTakeItThePagerRubberBandsAtItsLastCard() {
        let f = Fixture()
        f.pager.contentOffset = Point(x: 390 * 4, y: 0)
        let start = Point(x: 300, y: 200)
        f.drag(from: start, through: Self.steps(from: start, by: Point(x: -110, y: 0), count: 5)) {
            // Beyond the range: the band, as a lone scroll view (the list cannot move sideways).
            #expect(f.pager.contentOffset.x > 390 * 4 && f.pager.contentOffset.x < 390 * 4 + 100)
            #expect(f.d.main.contentOffset == .zero)
        }
        #expect(f.pager.contentOffset.x == 390 * 4)
        #expect(f.delegateRecords.allSatisfy { $0.hasPrefix("pager.") })
    }

    @Test func aTouchOnTheNotesWhileTheListDeceleratesStopsTheList() {
        let f = Fixture()
        var t = f.d.press(
            at: Point(x: 200, y: 800), then: (1...4).map { Point(x: 200, y: 800 - 50 * Double($0)) }, start: 0.1)
        f.d.send(.touchUp(id: 1), at: t)
        f.d.advance(to: t + 0.1)
        #expect(f.d.main.isDecelerating)
        // Touch the notes where they are now: the list stops, and the touch is the list's.
        let notesCenter = f.notes.convert(Point(x: f.notes.bounds.midX, y: f.notes.bounds.midY), to: nil)
        #expect(notesCenter.y > 100 && notesCenter.y < 800)
        t += 0.1
        f.d.send(.touchDown(id: 2, position: notesCenter), at: t)
        #expect(!f.d.main.isDecelerating)
        let stopped = f.d.main.contentOffset.y
        f.d.advance(to: t + 0.2)
        #expect(f.d.main.contentOffset.y == stopped)
        f.d.move(id: 2, through: (1...4).map { notesCenter + Point(x: 0, y: -10 * Double($0)) }, after: t + 0.2)
        #expect(f.d.main.contentOffset.y == stopped + 30)  // 40 px less the slop, in the list
        #expect(f.notes.contentOffset == .zero)
        #expect(!f.delegateRecords.contains { $0.hasPrefix("notes.") })
    }

    @Test func wheelAndTouchpadChainOutwardsAtTheEdge() {
        let f = Fixture()
        let max = f.notes.verticalRange.upperBound
        f.notes.contentOffset = Point(x: 0, y: max)
        let over = f.notes.convert(Point(x: f.notes.bounds.midX, y: f.notes.bounds.midY), to: nil)
        f.d.send(.pointerMotion(position: over), at: 0.1)
        // A touchpad scroll that begins with the notes at their end belongs to the list, and
        // stays the list's when it reverses (latching).
        var t = 0.1
        for value in [10.0, 10, 10, -5] {
            t += 0.016
            f.d.send(.axis(.vertical, value: value, source: .finger, value120: nil), at: t)
        }
        #expect(f.d.main.contentOffset.y == 25 * f.d.main.touchpadMultiplier)
        #expect(f.notes.contentOffset.y == max)
        f.d.send(.axisStop(.vertical), at: t + 0.3)
        f.d.settle()
        // A wheel detent over the horizontal pager scrolls the list (the pager has no y).
        f.d.main.contentOffset = .zero
        f.notes.contentOffset = .zero
        f.d.send(.pointerMotion(position: Point(x: 200, y: 200)), at: f.d.time + 0.1)
        f.d.send(.axis(.vertical, value: 10, source: .wheel, value120: 120), at: f.d.time + 0.01)
        f.d.settle()
        #expect(f.d.main.contentOffset.y > 50)
        #expect(f.pager.contentOffset == .zero)
        // Up in the notes at their top: the list, at its own top, cannot take it either, so
        // nothing moves but the notes' own (clamped) wheel.
        f.d.main.contentOffset = .zero
        f.d.send(.pointerMotion(position: f.notes.convert(Point(x: 100, y: 100), to: nil)), at: f.d.time + 0.1)
        f.d.send(.axis(.vertical, value: -10, source: .wheel, value120: -120), at: f.d.time + 0.01)
        f.d.settle()
        #expect(f.d.main.contentOffset == .zero && f.notes.contentOffset == .zero)
    }

    /// A flick that turns the pager towards card 2, caught half way by a touch at `t`.
    private static func catchAPageTurn(_ f: Fixture) -> Double {
        let start = Point(x: 300, y: 200)
        var t = f.d.press(at: start, then: steps(from: start, by: Point(x: -160, y: 0), count: 5), start: 0.1)
        f.d.send(.touchUp(id: 1), at: t)
        f.d.advance(to: t + 0.08)
        let x = f.pager.contentOffset.x
        #expect(x > 100 && x < 390 - 100, "the turn is under way (\(x))")
        t += 0.1
        f.d.send(.touchDown(id: 2, position: Point(x: 200, y: 200)), at: t)
        // Caught exactly where the paging spring is at the touch's time: released at 150
        // (160 px less the slop) at 2000 px/s, heading for card 2 with ω = 14.
        let spring = Spring(from: 150, to: 390, velocity: 2000, omega: Spring.animationOmega)
        #expect(abs(f.pager.contentOffset.x - spring.position(at: 0.1)) < 1e-9)
        #expect(!f.pager.isDecelerating)
        return t
    }

    @Test func aPageTurnCaughtAndLetGoSettlesOnAPage() {
        let f = Fixture()
        let t = Self.catchAPageTurn(f)
        let caught = f.pager.contentOffset.x
        f.d.send(.touchUp(id: 2), at: t + 0.05)
        f.d.settle()
        // The nearest card, not wherever the touch stopped it.
        #expect(f.pager.contentOffset.x == (caught / 390).rounded() * 390)
        #expect(f.pager.contentOffset.x != caught)
    }

    @Test func aPageTurnCaughtThenDraggedVerticallySettlesOnAPageAndTheListScrolls() {
        let f = Fixture()
        var t = Self.catchAPageTurn(f)
        let caught = f.pager.contentOffset.x
        let a = Point(x: 200, y: 200)
        t = f.d.move(id: 2, through: Self.steps(from: a, by: Point(x: 0, y: -120), count: 6), after: t)
        // The list has the finger; the pager, given up, goes to its nearest card meanwhile.
        #expect(f.d.main.contentOffset.y == 110)
        f.d.advance(to: t + 0.6)
        #expect(f.pager.contentOffset.x == (caught / 390).rounded() * 390)
        f.d.send(.touchUp(id: 2), at: t + 0.62)
        f.d.settle()
        #expect(f.d.main.contentOffset.y == 110)
    }

    @Test func aSecondFingerAfterTheHandOffJoinsTheListsPan() {
        let f = Fixture()
        let a = Point(x: 200, y: 250)
        var t = f.d.press(at: a, then: Self.steps(from: a, by: Point(x: 0, y: -60), count: 3), start: 0.1)
        #expect(f.d.main.contentOffset.y == 50)  // 60 px less the slop
        // A second finger on the pager (now at y −10…230 on screen) joins the list's
        // gesture: the pan follows the centroid of both.
        let b = Point(x: 100, y: 150)
        #expect(f.d.window.hitTest(b)?.isDescendant(of: f.pager) == true)
        t += 0.016
        f.d.send(.touchDown(id: 2, position: b), at: t)
        #expect(f.d.main.contentOffset.y == 50)  // a finger joining moves nothing
        t = f.d.move(id: 2, through: (1...4).map { b + Point(x: 0, y: -10.0 * Double($0)) }, after: t)
        #expect(f.d.main.contentOffset.y == 70)  // one of two fingers 40 px further: 20
        #expect(f.pager.contentOffset == .zero)
        #expect(!f.pager.isTracking)
        f.d.send(.touchUp(id: 2), at: t + 0.2)
        f.d.send(.touchUp(id: 1), at: t + 0.21)
        f.d.settle()
        #expect(!f.delegateRecords.contains { $0.hasPrefix("pager.") })
    }

    /// The innermost scroll view at or above `view` (the one a touch on it lands in).
    static func scrollView(intercepting view: View?) -> ScrollView? {
        var v = view
        while let c = v {
            if let s = c as? ScrollView { return s }
            v = c.superview
        }
        return nil
    }

    /// The list's offset after each move of a pull down from `a` (15, 60 and 120 px), then at
    /// rest, with the delegate records and the pager's offset.
    private static func pullDown(
        from a: Point
    ) -> (offsets: [Double], records: [String], pager: Point, landsIn: String?) {
        let f = Fixture()
        let landsIn = scrollView(intercepting: f.d.window.hitTest(a))?.name
        var offsets: [Double] = []
        var t = 0.1
        f.d.send(.touchDown(id: 1, position: a), at: t)
        for dy in [15.0, 60, 120] {
            t += 0.016
            f.d.send(.touchMotion(id: 1, position: a + Point(x: 0, y: dy)), at: t)
            offsets.append(f.d.main.contentOffset.y)
        }
        f.d.send(.touchUp(id: 1), at: t + 0.016)
        f.d.settle()
        offsets.append(f.d.main.contentOffset.y)
        return (offsets, f.delegateRecords, f.pager.contentOffset, landsIn)
    }

    @Test func pullingDownOnThePagerAtTheTopRubberBandsTheListAsOnARow() {
        let onPager = Self.pullDown(from: Point(x: 200, y: 200))
        let onRow = Self.pullDown(from: Point(x: 200, y: 400))
        #expect(onPager.landsIn == "pager")
        #expect(onRow.landsIn == "main")
        // The pager does not scroll vertically at all: the list takes the pull and bands it,
        // the finger's travel beyond the slop crossing (5, 50, 110 px) shown through the band.
        let range = Fixture().d.main.verticalRange
        let banded = [5.0, 50, 110].map {
            RubberBand.clamp(-$0, min: range.lowerBound, max: range.upperBound, dimension: 844)
        }
        #expect(onPager.offsets == banded + [0])
        #expect(onPager.offsets == onRow.offsets)
        #expect(onPager.records == onRow.records)
        #expect(onPager.records.first == "main.scrollViewWillBeginDragging")
        #expect(!onPager.records.contains { $0.hasPrefix("pager.") })
        #expect(onPager.pager == .zero)
    }

    @Test func aMostlyVerticalDiagonalDragOnThePagerScrollsTheList() {
        let f = Fixture()
        let t = f.d.press(
            at: Point(x: 200, y: 200), then: [Point(x: 192, y: 188), Point(x: 180, y: 160), Point(x: 170, y: 100)],
            start: 0.1)
        // Crossing at 10 px along (−8, −12), no lock (8 ≥ 0.5·12): vertical dominates, so the
        // list takes it; it follows y from the crossing point, the pager never moves.
        #expect(abs(f.d.main.contentOffset.y - (100 - 120 / 208.0.squareRoot())) < 1e-9)
        #expect(f.pager.contentOffset == .zero)
        f.d.send(.touchUp(id: 1), at: t + 0.016)
        f.d.settle()
        #expect(f.pager.contentOffset == .zero)
        #expect(!f.delegateRecords.contains { $0.hasPrefix("pager.") })
        #expect(f.delegateRecords.first == "main.scrollViewWillBeginDragging")
    }

    @Test func aMostlyHorizontalDiagonalDragOnThePagerTurnsTheCard() {
        let f = Fixture()
        let t = f.d.press(
            at: Point(x: 300, y: 200), then: [Point(x: 288, y: 192), Point(x: 260, y: 180), Point(x: 200, y: 170)],
            start: 0.1)
        // Crossing along (−12, −8), no lock: horizontal dominates, the pager takes it.
        #expect(abs(f.pager.contentOffset.x - (100 - 120 / 208.0.squareRoot())) < 1e-9)
        #expect(f.d.main.contentOffset == .zero)
        f.d.send(.touchUp(id: 1), at: t + 0.016)
        f.d.settle()
        #expect(f.pager.contentOffset.x == 390)
        #expect(f.d.main.contentOffset == .zero)
        #expect(f.delegateRecords.allSatisfy { $0.hasPrefix("pager.") })
    }

    @Test func theListTakesAPassedGestureWithItsOwnDirectionalLockSetting() {
        let f = Fixture()
        // The pager locks; the list, made to bounce sideways, does not.
        f.d.main.isDirectionalLockEnabled = false
        f.d.main.alwaysBounceHorizontal = true
        let t = f.d.press(
            at: Point(x: 200, y: 200), then: [Point(x: 200, y: 185), Point(x: 230, y: 150), Point(x: 260, y: 120)],
            start: 0.1)
        // Crossing straight up at (200, 190): with the pager's lock the list would follow y
        // only; with its own (none) it follows x too, banded (its content is as wide as it).
        #expect(f.d.main.contentOffset.y == 70)
        #expect(f.d.main.contentOffset.x == RubberBand.clamp(-60, min: 0, max: 0, dimension: 390))
        #expect(f.pager.contentOffset == .zero)
        f.d.send(.touchUp(id: 1), at: t + 0.2)
        f.d.settle()
        #expect(f.d.main.contentOffset.x == 0)
    }

    @Test func anInnerViewScrollingBothWaysKeepsADiagonalDragWhileOneAxisCanMove() {
        let f = Fixture()
        f.notes.contentSize = Size(width: f.notes.bounds.width * 2, height: f.notes.contentSize.height)
        f.d.main.contentOffset = Point(x: 0, y: 300)
        let a = Point(x: 300, y: 300)
        #expect(Self.scrollView(intercepting: f.d.window.hitTest(a)) === f.notes)
        let t = f.d.press(
            at: a, then: [a + Point(x: -8, y: 8), a + Point(x: -30, y: 30), a + Point(x: -60, y: 60)], start: 0.1)
        // Diagonal, no lock: the notes, at their top, still move sideways, so they keep the
        // drag and band at the top; the list (which could scroll up) is left alone.
        let travel = 60 - 10 / 2.0.squareRoot()
        #expect(abs(f.notes.contentOffset.x - travel) < 1e-9)
        let banded = RubberBand.clamp(-travel, min: 0, max: f.notes.verticalRange.upperBound, dimension: 200)
        #expect(abs(f.notes.contentOffset.y - banded) < 1e-9)
        #expect(f.d.main.contentOffset.y == 300)
        f.d.send(.touchUp(id: 1), at: t + 0.2)
        f.d.settle()
        #expect(f.notes.contentOffset.y == 0)
        #expect(f.d.main.contentOffset.y == 300)
        #expect(f.delegateRecords.allSatisfy { $0.hasPrefix("notes.") })
    }

    @Test func aSidewaysSwipeOnThePagerWhileTheListDeceleratesTurnsTheCard() {
        let f = Fixture()
        let lift = f.d.flick(from: Point(x: 200, y: 800), by: Point(x: 0, y: -60))
        f.d.advance(to: lift + 0.1)
        #expect(f.d.main.isDecelerating)
        // Touch the pager where it is now (the list is moving at about 1000 px/s: the touch is
        // the list's, and stops it).
        let top = f.pager.convert(Point.zero, to: nil).y
        let a = Point(x: 300, y: (max(0, top) + top + f.pager.bounds.height) / 2)
        #expect(Self.scrollView(intercepting: f.d.window.hitTest(a)) === f.pager)
        var t = lift + 0.1
        f.d.send(.touchDown(id: 1, position: a), at: t)
        #expect(!f.d.main.isDecelerating)
        let stopped = f.d.main.contentOffset.y
        t = f.d.move(through: [a + Point(x: -20, y: 1), a + Point(x: -50, y: 3), a + Point(x: -80, y: 5)], after: t)
        // The list cannot move sideways: the pager under the finger takes the swipe from the
        // slop crossing on (locked horizontal).
        #expect(abs(f.pager.contentOffset.x - (80 - 200 / 401.0.squareRoot())) < 1e-9)
        #expect(f.d.main.contentOffset.y == stopped)
        #expect(f.pager.isDragging && !f.d.main.isDragging && !f.d.main.isTracking)
        f.d.send(.touchUp(id: 1), at: t + 0.016)
        f.d.settle()
        #expect(f.pager.contentOffset.x == 390)
        #expect(f.d.main.contentOffset.y == stopped)
        #expect(
            f.delegateRecords.filter { $0.hasPrefix("pager.") } == [
                "pager.scrollViewWillBeginDragging", "pager.scrollViewWillEndDragging",
                "pager.scrollViewDidEndDragging", "pager.scrollViewWillBeginDecelerating",
                "pager.scrollViewDidEndDecelerating",
            ])
        // The list's own flick ended when the touch stopped it; it never dragged again.
        #expect(f.delegateRecords.filter { $0 == "main.scrollViewWillBeginDragging" }.count == 1)
    }

    @Test func aCancelAfterTheHandOffLeavesBothViewsIdleWithPairedCalls() {
        let f = Fixture()
        let range = f.notes.verticalRange.upperBound
        let a = Point(x: 200, y: 730)
        let t = f.d.press(
            at: a, then: Self.steps(from: a, by: Point(x: 0, y: -(10 + range + 40)), count: 10), start: 0.1)
        #expect(f.d.main.isDragging && f.notes.contentOffset.y == range)
        f.d.send(.touchCancel, at: t + 0.01)
        for v in [f.d.main, f.notes] { #expect(!v.isTracking && !v.isDragging) }
        #expect(f.d.main.contentOffset.y == 40)
        f.d.settle()
        for v in [f.d.main, f.notes, f.pager] { #expect(v.phase == .idle) }
        #expect(f.d.main.contentOffset.y == 40 && f.notes.contentOffset.y == range)
        #expect(
            f.delegateRecords == [
                "notes.scrollViewWillBeginDragging", "notes.scrollViewWillEndDragging",
                "notes.scrollViewDidEndDragging", "main.scrollViewWillBeginDragging",
                "main.scrollViewWillEndDragging", "main.scrollViewDidEndDragging",
            ])
        // A later touch is a fresh gesture of the notes' own.
        f.d.send(.touchDown(id: 1, position: Point(x: 200, y: 600)), at: t + 0.1)
        #expect(f.notes.isTracking && !f.d.main.isTracking)
        f.d.send(.touchUp(id: 1), at: t + 0.15)
    }

    @Test func twoFingersOnThePagerHandOffTogether() {
        let f = Fixture()
        let a = Point(x: 150, y: 200)
        let b = Point(x: 250, y: 220)
        var t = 0.1
        f.d.send(.touchDown(id: 1, position: a), at: t)
        f.d.send(.touchDown(id: 2, position: b), at: t + 0.01)
        t += 0.01
        // Both fingers 15 px up every 16 ms, the second a millisecond after the first.
        let up = (1...4).map { Point(x: 0, y: -15.0 * Double($0)) }
        f.d.send(from: t) {
            $0.move(id: 1, through: up.map { a + $0 }, after: 0)
            $0.move(id: 2, through: up.map { b + $0 }, after: 1)
        }
        t += 4 * 0.016
        // The centroid went 60 px up; the slop is crossed on it, and the list follows it from
        // there with both fingers (the pager never drags).
        #expect(f.d.main.contentOffset.y == 50)
        #expect(f.pager.contentOffset == .zero && !f.pager.isTracking)
        f.d.send(.touchMotion(id: 2, position: b + Point(x: 0, y: -100)), at: t + 0.016)
        #expect(f.d.main.contentOffset.y == 70)  // one of two fingers 40 px further: 20
        f.d.send(.touchUp(id: 1), at: t + 0.2)
        #expect(f.d.main.isDragging)
        f.d.send(.touchUp(id: 2), at: t + 0.21)
        f.d.settle()
        #expect(!f.d.main.isTracking && !f.d.main.isDragging && f.d.main.contentOffset.y == 70)
        #expect(
            f.delegateRecords == [
                "main.scrollViewWillBeginDragging", "main.scrollViewWillEndDragging", "main.scrollViewDidEndDragging",
            ])
    }

    @Test func thePagerTakenAwayMidDragEndsItsDragAndSettlesOnACard() {
        let f = Fixture()
        let pager = f.pager
        let a = Point(x: 300, y: 200)
        var t = f.d.press(at: a, then: Self.steps(from: a, by: Point(x: -110, y: 0), count: 5), start: 0.1)
        #expect(pager.isDragging && pager.contentOffset.x == 100)
        t += 0.016
        f.d.advance(to: t)
        pager.removeFromSuperview()
        // Cancelled as it left: no longer held, and on its way to the nearest card.
        #expect(!pager.isTracking && !pager.isDragging)
        // The finger goes on and lifts: nothing of it reaches the list or the gone pager.
        f.d.move(through: (1...4).map { a + Point(x: -110, y: -30 * Double($0)) }, after: t)
        f.d.send(.touchUp(id: 1), at: t + 0.1)
        f.d.settle()
        #expect(pager.contentOffset.x == 0 && !pager.isDecelerating && pager.phase == .idle)
        #expect(f.d.main.contentOffset == .zero && !f.d.main.isTracking)
        #expect(
            f.delegateRecords == [
                "pager.scrollViewWillBeginDragging", "pager.scrollViewWillEndDragging",
                "pager.scrollViewDidEndDragging", "pager.scrollViewWillBeginDecelerating",
                "pager.scrollViewDidEndDecelerating",
            ])
    }

    @Test func aButtonDoesNotFireWhenTheScrollViewDraggingItsTouchIsTakenAwayAndFreed() {
        let window = Window(size: Size(width: 390, height: 844))
        let button = Button(title: "Go", frame: Rect(x: 100, y: 100, width: 200, height: 60))
        weak var gone: ScrollView?
        do {
            let scroll = ScrollView(frame: window.bounds)
            scroll.contentSize = Size(width: 390, height: 3000)
            scroll.addSubview(button)
            window.addSubview(scroll)
            gone = scroll
        }
        let a = Point(x: 150, y: 120)
        #expect(window.hitTest(a) === button)
        let driver = FrameDriver(window: window)
        driver.send(from: 0.1) {
            $0.drag(from: a, through: (1...5).map { a + Point(x: 0, y: -10 * Double($0)) }, at: 0, id: 1)
        }
        #expect(gone?.isDragging == true && gone?.contentOffset.y == 40)
        gone?.removeFromSuperview()
        #expect(gone == nil)
        // The finger comes back over the (still alive) button and lifts: it never began there.
        driver.send(.touchMotion(id: 1, position: Point(x: 50, y: 50)), at: 0.3)
        driver.send(.touchUp(id: 1), at: 0.32)
        #expect(button.tapCount == 0 && !button.isHighlighted)
    }

    /// A diagonal touchpad swipe over `p`: frames of (`first`, then the other axis) events,
    /// then axis_stop for `stops` in that order. Returns the time of the last stop.
    private static func touchpadSwipe(
        _ f: Fixture, over p: Point, first: Axis, values: [(x: Double, y: Double)], stops: [Axis]
    ) -> Double {
        var t = f.d.time + 0.1
        f.d.send(.pointerMotion(position: p), at: t)
        for v in values {
            t += 0.016
            for axis in first == .horizontal ? [Axis.horizontal, .vertical] : [.vertical, .horizontal] {
                let value = axis == .horizontal ? v.x : v.y
                f.d.send(.axis(axis, value: value, source: .finger, value120: nil), at: t)
            }
            f.d.send(.pointerFrame, at: t)
        }
        for axis in stops {
            t += 0.001
            f.d.send(.axisStop(axis), at: t)
        }
        return t
    }

    @Test func aDiagonalTouchpadSwipeOnThePagerScrollsOnlyThePager() {
        let f = Fixture()
        let values = Array(repeating: (x: 4.0, y: 3.0), count: 5)
        var stopsAt = 0.0
        // The vertical stop first: the swipe goes on until its horizontal one.
        stopsAt = Self.touchpadSwipe(
            f, over: Point(x: 200, y: 200), first: .horizontal, values: values, stops: [.vertical])
        #expect(f.pager.contentOffset.x == 5 * 4 * f.pager.touchpadMultiplier)
        #expect(f.d.main.contentOffset == .zero && !f.d.main.isDragging)
        #expect(f.pager.isDragging)
        f.d.send(.axisStop(.horizontal), at: stopsAt + 0.001)
        #expect(!f.pager.isDragging)
        f.d.settle()
        #expect(f.d.main.contentOffset == .zero)
        #expect(f.pager.contentOffset.x == 0 || f.pager.contentOffset.x == 390)
        #expect(
            Array(f.delegateRecords.prefix(3)) == [
                "pager.scrollViewWillBeginDragging", "pager.scrollViewWillEndDragging",
                "pager.scrollViewDidEndDragging",
            ])
        #expect(f.delegateRecords.allSatisfy { $0.hasPrefix("pager.") })
    }

    @Test func aTouchpadSwipeThatTheListTookFirstStaysTheListsOnBothAxes() {
        let f = Fixture()
        // Vertical first over the pager: the pager does not scroll that way, the list takes the
        // swipe; its horizontal part then moves nothing (the list has no x), the pager included.
        let values = Array(repeating: (x: 4.0, y: 3.0), count: 5)
        _ = Self.touchpadSwipe(
            f, over: Point(x: 200, y: 200), first: .vertical, values: values, stops: [.horizontal, .vertical])
        #expect(f.d.main.contentOffset.y == 5 * 3 * f.d.main.touchpadMultiplier)
        #expect(f.pager.contentOffset == .zero)
        #expect(!f.d.main.isDragging)
        f.d.settle()
        #expect(f.pager.contentOffset == .zero)
        #expect(f.delegateRecords.allSatisfy { $0.hasPrefix("main.") })
    }

    /// The window moved to an output of another scale: the notes' text, measured by hand, is
    /// measured again at that scale (text is measured in device pixels), so all its lines
    /// show and the notes scroll as far as a window made at that scale lets them.
    @Test(arguments: [1.25, 1.5, 3.0])
    func aNewScaleMeasuresTheNotesAgain(scale: Double) throws {
        let moved = Scene.nested.makeWindow(scale: 1)
        moved.layoutIfNeeded()
        moved.scale = scale
        moved.layoutIfNeeded()
        let fresh = Scene.nested.makeWindow(scale: scale)
        fresh.layoutIfNeeded()
        let notes = try #require(moved.view(named: "notes") as? ScrollView)
        let expected = try #require(fresh.view(named: "notes") as? ScrollView)
        let text = try #require(notes.subviews.compactMap { $0 as? Label }.first)
        let lines = try #require(text.textLayout(scale: scale)).size.height
        #expect(text.frame.height >= lines, "at \(scale)")
        #expect(notes.contentSize == expected.contentSize, "at \(scale)")
    }
}
