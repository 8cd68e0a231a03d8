import ScrollwayGeometry
import ScrollwayViews
import Testing

/// The layout pass visits only the subtrees where something asked for layout: a fling's frame
/// lays out the list, not every row and label, and still nothing that asked is left out.
@MainActor
@Suite struct LayoutPassTests {
    final class Counting: View {
        var layouts = 0
        override func layoutSubviews() { layouts += 1 }
    }

    /// A window with two branches, each two deep: `a` → `a1`, `b` → `b1`.
    func tree() -> (Window, a: Counting, a1: Counting, b: Counting, b1: Counting) {
        let window = Window(size: Size(width: 200, height: 200))
        let a = Counting(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let a1 = Counting(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        let b = Counting(frame: Rect(x: 100, y: 0, width: 100, height: 100))
        let b1 = Counting(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        window.addSubview(a)
        a.addSubview(a1)
        window.addSubview(b)
        b.addSubview(b1)
        window.layoutIfNeeded()
        return (window, a, a1, b, b1)
    }

    @Test func everyNewViewIsLaidOutOnce() {
        let (window, a, a1, b, b1) = tree()
        #expect([a.layouts, a1.layouts, b.layouts, b1.layouts] == [1, 1, 1, 1])
        window.layoutIfNeeded()
        #expect([a.layouts, a1.layouts, b.layouts, b1.layouts] == [1, 1, 1, 1])
    }

    @Test func aDeepRequestIsLaidOutAndItsSiblingsAreNot() {
        let (window, a, a1, b, b1) = tree()
        b1.setNeedsLayout()
        window.layoutIfNeeded()
        #expect([a.layouts, a1.layouts, b.layouts, b1.layouts] == [1, 1, 1, 2])
        // A request made while another branch is laid out, for a view the pass has yet to reach.
        final class Asking: View {
            weak var other: View?
            override func layoutSubviews() { other?.setNeedsLayout() }
        }
        let asking = Asking(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        asking.other = b1
        a1.addSubview(asking)
        window.layoutIfNeeded()
        #expect(b1.layouts == 3, "b1 comes after a1 in the pass: laid out in the same pass")
        window.layoutIfNeeded()
        #expect(
            [a.layouts, a1.layouts, b.layouts, b1.layouts] == [1, 2, 1, 3], "a1 lays out again for its new subview")
    }

    @Test func aSubtreeBuiltAwayFromTheWindowIsLaidOutWhenAdded() {
        let (window, _, _, b, _) = tree()
        let branch = Counting(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        let leaf = Counting(frame: Rect(x: 0, y: 0, width: 20, height: 20))
        branch.addSubview(leaf)
        leaf.setNeedsLayout()
        b.addSubview(branch)
        window.layoutIfNeeded()
        #expect(branch.layouts == 1 && leaf.layouts == 1)
        // Moved to another branch: laid out again there (as UIKit does on a move).
        window.addSubview(branch)
        window.layoutIfNeeded()
        #expect(branch.layouts == 2 && leaf.layouts == 1)
    }
}
