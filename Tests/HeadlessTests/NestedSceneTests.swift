import DemoScenes
import Geometry
import Gestures
import Headless
import Scrolling
import Testing
import Views

/// The nested scene: who gets a gesture, and in what order the trace shows the hand-off.
@Suite struct NestedSceneTests {
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
            var t = d.time + 0.1
            d.send(.touchDown(id: 1, position: a), at: t)
            for p in points {
                t += 0.016
                d.send(.touchMotion(id: 1, position: p), at: t)
            }
            checkBeforeLift?()
            if hold {
                t += 0.2
                d.send(.touchMotion(id: 1, position: points.last!), at: t)
            }
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
        #expect((f.d.window.view(named: "pageIndicator") as! PageIndicator).currentPage == 1)
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
        #expect(f.d.main.contentOffset.y > 60)  // the flick carried on in the list
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
        var t = 0.1
        f.d.send(.touchDown(id: 1, position: Point(x: 200, y: 800)), at: t)
        for i in 1...4 {
            t += 0.016
            f.d.send(.touchMotion(id: 1, position: Point(x: 200, y: 800 - 50 * Double(i))), at: t)
        }
        f.d.send(.touchUp(id: 1), at: t)
        f.d.run(until: t + 0.1)
        #expect(f.d.main.isDecelerating)
        // Touch the notes where they are now: the list stops, and the touch is the list's.
        let notesCenter = f.notes.convert(Point(x: f.notes.bounds.midX, y: f.notes.bounds.midY), to: nil)
        #expect(notesCenter.y > 100 && notesCenter.y < 800)
        t += 0.1
        f.d.send(.touchDown(id: 2, position: notesCenter), at: t)
        #expect(!f.d.main.isDecelerating)
        let stopped = f.d.main.contentOffset.y
        f.d.run(until: t + 0.2)
        #expect(f.d.main.contentOffset.y == stopped)
        for i in 1...4 {
            f.d.send(
                .touchMotion(id: 2, position: notesCenter + Point(x: 0, y: -10 * Double(i))),
                at: t + 0.2 + 0.016 * Double(i))
        }
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
        var t = 0.1
        let start = Point(x: 300, y: 200)
        f.d.send(.touchDown(id: 1, position: start), at: t)
        for p in steps(from: start, by: Point(x: -160, y: 0), count: 5) {
            t += 0.016
            f.d.send(.touchMotion(id: 1, position: p), at: t)
        }
        f.d.send(.touchUp(id: 1), at: t)
        f.d.run(until: t + 0.08)
        let x = f.pager.contentOffset.x
        #expect(x > 100 && x < 390 - 100, "the turn is under way (\(x))")
        t += 0.1
        f.d.send(.touchDown(id: 2, position: Point(x: 200, y: 200)), at: t)
        #expect(f.pager.contentOffset.x == x || !f.pager.isDecelerating)
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
        for p in Self.steps(from: a, by: Point(x: 0, y: -120), count: 6) {
            t += 0.016
            f.d.send(.touchMotion(id: 2, position: p), at: t)
        }
        // The list has the finger; the pager, given up, goes to its nearest card meanwhile.
        #expect(f.d.main.contentOffset.y == 110)
        f.d.run(until: t + 0.6)
        #expect(f.pager.contentOffset.x == (caught / 390).rounded() * 390)
        f.d.send(.touchUp(id: 2), at: t + 0.62)
        f.d.settle()
        #expect(f.d.main.contentOffset.y == 110)
    }

    @Test func aSecondFingerAfterTheHandOffJoinsTheListsPan() {
        let f = Fixture()
        var t = 0.1
        let a = Point(x: 200, y: 250)
        f.d.send(.touchDown(id: 1, position: a), at: t)
        for p in Self.steps(from: a, by: Point(x: 0, y: -60), count: 3) {
            t += 0.016
            f.d.send(.touchMotion(id: 1, position: p), at: t)
        }
        #expect(f.d.main.contentOffset.y == 50)  // 60 px less the slop
        // A second finger on the pager (now at y −10…230 on screen) joins the list's
        // gesture: the pan follows the centroid of both.
        let b = Point(x: 100, y: 150)
        #expect(f.d.window.hitTest(b)?.isDescendant(of: f.pager) == true)
        t += 0.016
        f.d.send(.touchDown(id: 2, position: b), at: t)
        #expect(f.d.main.contentOffset.y == 50)  // a finger joining moves nothing
        for i in 1...4 {
            t += 0.016
            f.d.send(.touchMotion(id: 2, position: b + Point(x: 0, y: -10.0 * Double(i))), at: t)
        }
        #expect(f.d.main.contentOffset.y == 70)  // one of two fingers 40 px further: 20
        #expect(f.pager.contentOffset == .zero)
        #expect(!f.pager.isTracking)
        f.d.send(.touchUp(id: 2), at: t + 0.2)
        f.d.send(.touchUp(id: 1), at: t + 0.21)
        f.d.settle()
        #expect(!f.delegateRecords.contains { $0.hasPrefix("pager.") })
    }
}
