import Scrollway
import Testing

/// StackView on constraints, as UIStackView: each distribution and alignment places its views
/// where the hand-worked arithmetic says, in a column and in a row, and hidden views close up.
@MainActor
@Suite struct StackViewTests {
    /// Boxes with intrinsic sizes, as labels and images have.
    final class Box: View {
        let size: Size
        init(_ w: Double, _ h: Double) {
            size = Size(width: w, height: h)
            super.init()
        }
        override var intrinsicContentSize: Size { size }
    }

    /// A stack set by hand to `size` (200×300) at (0,0) in a window, holding boxes 40×30, 60×50, 80×20.
    func column(
        _ distribution: StackView.Distribution, _ alignment: StackView.Alignment = .fill,
        axis: StackView.Axis = .vertical,
        size: Size = Size(width: 200, height: 300)
    ) -> (Window, StackView, [Box]) {
        let window = Window(size: Size(width: 400, height: 400))
        let stack = StackView(
            frame: Rect(origin: .zero, size: size), axis: axis, spacing: 10,
            insets: EdgeInsets(top: 5, left: 6, bottom: 7, right: 8), alignment: alignment, distribution: distribution)
        stack.name = "stack"
        window.addSubview(stack)
        let boxes = [Box(40, 30), Box(60, 50), Box(80, 20)]
        for (i, b) in boxes.enumerated() {
            b.name = "box\(i)"
            stack.addArrangedSubview(b)
        }
        window.layoutIfNeeded()
        return (window, stack, boxes)
    }

    @Test func fillEquallySharesTheLength() {
        let (window, _, boxes) = column(.fillEqually)
        // Inside: 300 − 5 − 7 = 288; two gaps of 10 leave 268, a third each (89⅓), every
        // edge then rounded to the pixel grid: 5…94⅓ → 5…94, 104⅓…193⅔ → 104…194,
        // 203⅔…293 → 204…293.
        #expect(boxes.map(\.frame.minY) == [5, 104, 204])
        #expect(boxes.map(\.frame.height) == [89, 90, 89])
        #expect(boxes.allSatisfy { $0.frame.minX == 6 && $0.frame.width == 186 })
        #expect(window.unsatisfiableLayouts.isEmpty)
    }

    @Test func fillProportionallyFollowsTheIntrinsicHeights() {
        let (_, _, boxes) = column(.fillProportionally)
        // 268 shared 30 : 50 : 20 (80.4, 134, 53.6): 5…85.4, 95.4…229.4, 239.4…293 on the
        // pixel grid.
        #expect(boxes.map(\.frame.minY) == [5, 95, 239])
        #expect(boxes.map(\.frame.height) == [80, 134, 54])
    }

    @Test func equalSpacingSharesTheRoomBetween() {
        let (_, _, boxes) = column(.equalSpacing)
        // Heights 30 + 50 + 20 = 100; 288 − 100 = 188 in two equal gaps of 94.
        #expect(boxes.map(\.frame.minY) == [5, 129, 273])
        #expect(boxes.map(\.frame.height) == [30, 50, 20])
    }

    @Test func equalCenteringSpacesTheCentres() {
        let (_, _, boxes) = column(.equalCentering)
        // First centre at 5 + 15 = 20, last at 293 − 10 = 283: the middle one's at 151.5, its
        // edges (126.5, 176.5) rounded to the pixel grid: 127…177.
        #expect(boxes.map(\.frame.midY) == [20, 152, 283])
    }

    @Test(arguments: [
        (StackView.Alignment.leading, [6.0, 6, 6]), (.trailing, [152.0, 132, 112]), (.center, [79.0, 69, 59]),
    ])
    func alignmentPlacesAcross(alignment: StackView.Alignment, xs: [Double]) {
        let (_, _, boxes) = column(.fill, alignment)
        #expect(boxes.map(\.frame.minX) == xs)
        #expect(boxes.map(\.frame.width) == [40, 60, 80])
    }

    @Test func aRowLinesUpLeftToRight() {
        let (_, _, boxes) = column(.equalSpacing, .top, axis: .horizontal, size: Size(width: 300, height: 200))
        // Inside width 300 − 6 − 8 = 286; widths 180 leave 106: gaps of 53.
        #expect(boxes.map(\.frame.minX) == [6, 99, 212])
        #expect(boxes.map(\.frame.minY) == [5, 5, 5])
        #expect(boxes.map(\.frame.height) == [30, 50, 20])
    }

    @Test func aHiddenViewClosesUpAndComesBack() {
        let (window, _, boxes) = column(.equalSpacing)
        boxes[1].isHidden = true
        window.layoutIfNeeded()
        // 30 + 20 = 50 leave 238 in one gap.
        #expect(boxes[2].frame.minY == 5 + 30 + 238)
        boxes[1].isHidden = false
        window.layoutIfNeeded()
        #expect(boxes.map(\.frame.minY) == [5, 129, 273])
    }

    @Test func aStackSizedByConstraintsIsAsLargeAsItsContent() {
        let window = Window(size: Size(width: 400, height: 400))
        let stack = StackView(spacing: 4, insets: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4), alignment: .center)
        stack.translatesAutoresizingMaskIntoConstraints = false
        window.addSubview(stack)
        for b in [Box(40, 30), Box(60, 50)] { stack.addArrangedSubview(b) }
        LayoutConstraint.activate([
            stack.leadingAnchor.constraint(equalTo: window.leadingAnchor, constant: 10),
            stack.topAnchor.constraint(equalTo: window.topAnchor, constant: 20),
        ])
        window.layoutIfNeeded()
        // 2 + 60 + 4 wide; 1 + 30 + 4 + 50 + 3 tall.
        #expect(stack.frame == Rect(x: 10, y: 20, width: 66, height: 88))
        #expect(stack.fittingSize(width: 100).height == 88)
        #expect(window.unsatisfiableLayouts.isEmpty)
    }
}
