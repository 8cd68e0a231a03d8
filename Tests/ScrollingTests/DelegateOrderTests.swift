import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// The delegate's calls in UIKit's order for each way the offset moves (UIScrollViewDelegate):
/// a drag released at rest, a fling, a page swipe, an animated and a plain `setContentOffset`.
@MainActor
@Suite struct DelegateOrderTests {
    /// The calls' names, without didScroll.
    func names(_ rig: ScrollBench) -> [String] {
        rig.callbacks.map { event in
            switch event {
            case .didEndDragging(let decelerate): "didEndDragging(\(decelerate))"
            default: event.delegateName.replacingOccurrences(of: "scrollView", with: "").lowercasedFirst
            }
        }
    }

    @Test func aDragReleasedAtRestEndsWithoutDecelerating() {
        let rig = ScrollBench()
        rig.send { b in
            b.drag(from: Point(x: 200, y: 600), to: Point(x: 200, y: 400), at: 0, ms: 300, id: 1, lift: false, step: 8)
        }
        // Held still long enough that the release carries no velocity.
        rig.advance(to: rig.time + 0.3)
        rig.send(.touchUp(id: 1))
        rig.settle()
        #expect(names(rig) == ["willBeginDragging", "willEndDragging", "didEndDragging(false)"])
    }

    @Test func aFlingDecelerates() {
        let rig = ScrollBench()
        rig.send { $0.flick(from: Point(x: 200, y: 700), by: Point(x: 0, y: -300), at: 0, id: 1) }
        rig.settle()
        #expect(
            names(rig) == [
                "willBeginDragging", "willEndDragging", "didEndDragging(true)", "willBeginDecelerating",
                "didEndDecelerating",
            ])
    }

    /// A scroll view taken out of its window completes its motion at once, where the curve
    /// rests, with the delegate's end call: removed in `didEndDragging` (a pull to dismiss), its
    /// glide had never run and never ended, and the next touch after it came back jumped the
    /// content 3,460 px; removed mid-glide, it ends where the glide would have. Back in the
    /// window, it is at rest there, and a touch holds it there.
    @Test(arguments: [true, false])
    func aScrollViewLeavingItsWindowCompletesItsGlide(inEndDragging: Bool) {
        final class Remover: ScrollViewDelegate {
            var onEndDragging: ((ScrollView) -> Void)?
            func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
                onEndDragging?(scrollView)
            }
        }
        let rig = ScrollBench()
        let s = rig.scroll
        let remover = Remover()
        s.delegate = remover
        rig.retainedDelegate = remover
        let superview = s.superview!
        if inEndDragging { remover.onEndDragging = { $0.removeFromSuperview() } }
        rig.send { $0.flick(from: Point(x: 200, y: 700), by: Point(x: 0, y: -300), at: 0, id: 1) }
        // The flick's drag itself moved it 300 px.
        var before = Point(x: 0, y: 300)
        if !inEndDragging {
            rig.advance(by: 0.2)
            #expect(s.isDecelerating)
            before = s.contentOffset
            s.removeFromSuperview()
        }
        let left = s.contentOffset
        #expect(!s.isDecelerating && !s.isDragging && s.window == nil)
        #expect(left.y > before.y + 100 && s.isOffsetInRange, "\(before) → \(left)")
        #expect(left.y == left.y.rounded(), "rests on a pixel: \(left)")
        #expect(
            names(rig) == [
                "willBeginDragging", "willEndDragging", "didEndDragging(true)", "willBeginDecelerating",
                "didEndDecelerating",
            ])
        rig.advance(by: 1)
        superview.addSubview(s)
        rig.settle()
        #expect(s.contentOffset == left && !s.isDecelerating)
        rig.send(.touchDown(id: 2, position: Point(x: 200, y: 400)))
        rig.advance(by: 0.05)
        #expect(s.contentOffset == left, "a touch moved it to \(s.contentOffset)")
    }

    @Test func aPageSwipeDeceleratesOntoThePage() {
        let rig = ScrollBench(content: Size(width: 390 * 4, height: 844))
        rig.scroll.isPagingEnabled = true
        rig.send { $0.flick(from: Point(x: 300, y: 400), by: Point(x: -150, y: 0), at: 0, id: 1) }
        rig.settle()
        #expect(rig.scroll.contentOffset == Point(x: 390, y: 0))
        #expect(
            names(rig) == [
                "willBeginDragging", "willEndDragging", "didEndDragging(true)", "willBeginDecelerating",
                "didEndDecelerating",
            ])
    }

    @Test func setContentOffsetAnimatedEndsItsAnimationAndPlainSendsNothing() {
        let rig = ScrollBench()
        rig.scroll.setContentOffset(Point(x: 0, y: 500), animated: true)
        rig.settle()
        #expect(names(rig) == ["didEndScrollingAnimation"])
        rig.events = []
        rig.scroll.setContentOffset(Point(x: 0, y: 900), animated: false)
        rig.settle()
        #expect(names(rig).isEmpty && rig.events == [.didScroll])
    }
}

extension String {
    fileprivate var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
