import ScrollwayGeometry
import ScrollwayScrolling
import Testing

/// Several parties follow one scroll view's events at once: the closure, then the observers in
/// the order added, then the delegate, each event the same to all; observers are held weakly and
/// can leave, even from inside a notification.
@MainActor
@Suite struct ScrollEventObserverTests {
    final class Log: ScrollEventObserver {
        let name: String
        let shared: SharedLog
        var onEvent: ((ScrollEvent) -> Void)?
        init(_ name: String, _ shared: SharedLog) {
            self.name = name
            self.shared = shared
        }
        func scrollView(_ scrollView: ScrollView, didSend event: ScrollEvent) {
            if event != .didScroll { shared.lines.append("\(name) \(event)") }
            onEvent?(event)
        }
    }

    final class SharedLog { var lines: [String] = [] }

    final class Delegate: ScrollViewDelegate {
        let shared: SharedLog
        init(_ shared: SharedLog) { self.shared = shared }
        func scrollViewWillEndDragging(
            _ scrollView: ScrollView, withVelocity velocity: Point, targetContentOffset: inout Point
        ) {
            shared.lines.append("delegate willEndDragging")
            targetContentOffset.y = 300
        }
        func scrollViewDidEndDecelerating(_ scrollView: ScrollView) {
            shared.lines.append("delegate didEndDecelerating")
        }
    }

    @Test func theClosureThenTheObserversInOrderThenTheDelegate() throws {
        let rig = ScrollBench()
        let shared = SharedLog()
        let delegate = Delegate(shared)
        rig.scroll.delegate = delegate
        rig.scroll.eventObserver = { _, e in
            if case .willEndDragging = e { shared.lines.append("closure willEndDragging") }
        }
        let first = Log("first", shared)
        let second = Log("second", shared)
        rig.scroll.addEventObserver(first)
        rig.scroll.addEventObserver(second)
        rig.scroll.addEventObserver(first)  // twice: keeps its first place, heard once
        var proposed: Point?
        first.onEvent = { e in
            if case .willEndDragging(_, let target) = e { proposed = target }
        }
        rig.drag(from: Point(x: 200, y: 700), to: Point(x: 200, y: 400), duration: 0.12)
        rig.settle()
        let ending = shared.lines.drop { !$0.contains("willEndDragging") }.prefix(4).map { String($0) }
        #expect(ending.count == 4)
        #expect(ending[0] == "closure willEndDragging")
        #expect(ending[1].hasPrefix("first willEndDragging"))
        #expect(ending[2].hasPrefix("second willEndDragging"))
        #expect(ending[3] == "delegate willEndDragging")
        // Observers see the proposed target (the fling's, far past 300); the delegate's choice
        // is where the view goes.
        let target = try #require(proposed)
        #expect(target.y > 400, "proposed \(target)")
        #expect(rig.scroll.contentOffset.y == 300)
        #expect(
            shared.lines.filter { $0.hasPrefix("first ") }
                == shared.lines.filter { $0.hasPrefix("second ") }.map {
                    "first " + $0.dropFirst("second ".count)
                })
        #expect(shared.lines.last == "delegate didEndDecelerating")
    }

    @Test func observersAreHeldWeaklyAndCanLeaveEvenWhileBeingTold() throws {
        let rig = ScrollBench()
        let shared = SharedLog()
        let leaving = Log("leaving", shared)
        let staying = Log("staying", shared)
        var gone: Log? = Log("gone", shared)
        rig.scroll.addEventObserver(leaving)
        rig.scroll.addEventObserver(gone!)
        rig.scroll.addEventObserver(staying)
        gone = nil  // released: never heard from
        // The first observer removes the one after it during a notification: that one is not
        // told of it, nor of anything after.
        leaving.onEvent = { [unowned rig, unowned staying] _ in rig.scroll.removeEventObserver(staying) }
        rig.drag(from: Point(x: 200, y: 700), to: Point(x: 200, y: 500), duration: 0.2)
        rig.settle()
        #expect(shared.lines.contains { $0.hasPrefix("leaving ") })
        #expect(!shared.lines.contains { $0.hasPrefix("gone ") })
        #expect(!shared.lines.contains { $0.hasPrefix("staying ") })
        _ = leaving
    }
}
