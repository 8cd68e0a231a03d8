import ScrollwayGeometry
import Testing

@testable import ScrollwayViews

/// A stack view makes its arrangement once for any number of changes, when it is laid out or
/// its constraints are read, not once per change (a stack filled one view at a time cost n²
/// constraint changes).
@MainActor
@Suite struct StackArrangementTests {
    /// A view of a fixed intrinsic size.
    typealias Box = StackViewTests.Box

    /// A column of 150 rows, 20 high with 4 between, added one at a time to a stack as tall as
    /// its content: one arrangement, at the layout pass, and each row where the arithmetic
    /// puts it (row i at 2 + 24·i).
    @Test func aStackFilledOneViewAtATimeIsArrangedOnce() {
        let window = Window(size: Size(width: 300, height: 400))
        let stack = StackView(spacing: 4, insets: EdgeInsets(top: 2, left: 0, bottom: 0, right: 0), alignment: .leading)
        stack.translatesAutoresizingMaskIntoConstraints = false
        window.addSubview(stack)
        LayoutConstraint.activate([
            stack.leadingAnchor.constraint(equalTo: window.leadingAnchor),
            stack.topAnchor.constraint(equalTo: window.topAnchor),
        ])
        window.layoutIfNeeded()
        let before = stack.arrangementsMade
        let rows = (0..<150).map { _ in Box(100, 20) }
        for r in rows { stack.addArrangedSubview(r) }
        #expect(stack.arrangementsMade == before)
        window.layoutIfNeeded()
        #expect(stack.arrangementsMade == before + 1)
        #expect(
            rows.enumerated().allSatisfy { i, r in r.frame == Rect(x: 0, y: 2 + 24 * Double(i), width: 100, height: 20)
            })
        #expect(stack.frame.height == 2 + 150 * 20 + 149 * 4)
        // Changes between passes, any number, make one more.
        stack.spacing = 6
        rows[3].isHidden = true
        stack.removeArrangedSubview(rows[0])
        window.layoutIfNeeded()
        #expect(stack.arrangementsMade == before + 2)
        #expect(rows[1].frame.minY == 2 && rows[2].frame.minY == 28 && rows[4].frame.minY == 54)
        #expect(window.unsatisfiableLayouts.isEmpty)
    }

    /// Read or measured before any layout pass, a stack has its arrangement: its fitting size
    /// and `constraintsInSubtree` see it.
    @Test func aFittingSizeAndTheConstraintsSeeAnArrangementNotYetMade() {
        let stack = StackView(spacing: 10)
        stack.translatesAutoresizingMaskIntoConstraints = false
        for h in [30.0, 50, 20] { stack.addArrangedSubview(Box(40, h)) }
        #expect(stack.arrangementsMade == 0)
        #expect(stack.fittingSize(width: 100) == Size(width: 100, height: 30 + 10 + 50 + 10 + 20))
        #expect(stack.arrangementsMade == 1)
        stack.addArrangedSubview(Box(40, 5))
        #expect(stack.constraintsInSubtree.contains { $0.firstItem === stack.arrangedSubviews[3] })
        #expect(stack.arrangementsMade == 2)
    }

    /// A view taken out of one stack into another: the constraints of the first that name it
    /// leave with it (a detached view's crossing constraints go), so that the second's
    /// arrangement, made first at the next pass, never meets them; both lines close up.
    @Test func aViewMovedToAnotherStackLeavesNoConflict() {
        let window = Window(size: Size(width: 300, height: 400))
        let a = StackView(
            frame: Rect(x: 0, y: 0, width: 100, height: 400), alignment: .leading, distribution: .equalSpacing)
        let b = StackView(
            frame: Rect(x: 100, y: 0, width: 100, height: 400), alignment: .leading, distribution: .equalSpacing)
        window.addSubview(b)
        window.addSubview(a)
        let boxes = (0..<3).map { _ in Box(50, 40) }
        for x in boxes { a.addArrangedSubview(x) }
        window.layoutIfNeeded()
        #expect(boxes.map(\.frame.minY) == [0, 180, 360])
        b.addArrangedSubview(boxes[1])
        #expect(a.arrangedSubviews.map { $0 === boxes[1] } == [false, false])
        #expect(!a.installedConstraints.contains { $0.firstItem === boxes[1] || $0.secondItem === boxes[1] })
        window.layoutIfNeeded()
        #expect(window.unsatisfiableLayouts.isEmpty)
        #expect(boxes[0].frame.minY == 0 && boxes[2].frame.minY == 360)
        #expect(boxes[1].superview === b && boxes[1].frame.minY == 0)
    }
}
