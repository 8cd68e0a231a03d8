import ScrollwayGeometry
import ScrollwayRaster
import Testing

@testable import ScrollwayViews

/// A subtree that a scroll moved exactly as its pixels moved, with nothing in it changed, is not
/// visited by the frame (its views keep last frame's snapshots); anything that changes in it is
/// visited again, and every frame's pixels equal a full composite.
@MainActor
@Suite struct LandedSubtreeTests {
    @Test func aScrolledRowIsNotVisitedUntilSomethingInItChanges() throws {
        let window = Window(size: Size(width: 100, height: 100))
        let scroller = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        scroller.clipsToBounds = true
        scroller.backgroundColor = .white
        var labels: [Label] = []
        for i in 0..<8 {
            let row = View(frame: Rect(x: 0, y: Double(i) * 40, width: 100, height: 40))
            row.backgroundColor = i % 2 == 0 ? Color(rgb: 230, 230, 240) : .white
            let label = Label(text: "Row \(i)", frame: Rect(x: 8, y: 10, width: 84, height: 20))
            row.addSubview(label)
            scroller.addSubview(row)
            labels.append(label)
        }
        window.addSubview(scroller)
        let canvas = try Canvas(width: 100, height: 100)
        func expectFull(_ what: String) throws {
            let full = try Canvas(width: 100, height: 100)
            window.composite(into: full)
            var differ = 0
            for y in 0..<100 {
                for x in 0..<100 where canvas.pixel(x: x, y: y) != full.pixel(x: x, y: y) { differ += 1 }
            }
            #expect(differ == 0, "\(what): \(differ) pixels differ from a full composite")
        }
        try window.render(into: canvas)
        let before = try #require(labels[1].lastComposite)

        scroller.bounds.origin = Point(x: 0, y: 3)  // whole pixels: a move; the rows land
        let update = try window.prepareFrameUpdate(time: 0.016)
        window.apply(update, to: canvas)
        #expect(update.move != nil)
        #expect(labels[1].lastComposite?.screenRect == before.screenRect, "the label was not visited")
        try expectFull("after the move")

        labels[1].text = "Changed"  // something in the row changed: it is visited
        scroller.bounds.origin = Point(x: 0, y: 7)
        let changed = try window.prepareFrameUpdate(time: 0.032)
        window.apply(changed, to: canvas)
        #expect(abs((labels[1].lastComposite?.screenRect.minY ?? 0) - 43) < 1e-9, "visited after its change")
        try expectFull("after a change in a moved row")

        // A change of scale visits everything again (every view draws at the new scale).
        window.scale = 2
        let rescaled = try Canvas(width: 200, height: 200, scale: 2)
        try window.render(into: rescaled)
        #expect(abs((labels[5].lastComposite?.screenRect.minY ?? 0) - 203) < 1e-9, "visited at the new scale")
    }

    /// A clipping view out of sight leaves its subviews undrawn; its landed ancestors are
    /// still visited each frame, so that when the scroll brings it into sight its subviews
    /// are drawn and shown.
    @Test func aClippingViewScrolledIntoSightShowsItsSubviews() throws {
        let window = Window(size: Size(width: 100, height: 100))
        let scroller = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        scroller.clipsToBounds = true
        scroller.backgroundColor = .white
        let column = View(frame: Rect(x: 0, y: 0, width: 100, height: 400))  // lands with every move
        let box = View(frame: Rect(x: 10, y: 250, width: 80, height: 40))
        box.clipsToBounds = true
        let label = Label(text: "Boxed", frame: Rect(x: 4, y: 10, width: 72, height: 20))
        label.textColor = .black
        box.addSubview(label)
        column.addSubview(box)
        scroller.addSubview(column)
        window.addSubview(scroller)
        let canvas = try Canvas(width: 100, height: 100)
        try window.render(into: canvas)
        #expect(label.backingImage == nil, "out of sight inside a clipping view: not drawn yet")
        var moves = 0
        for step in 1...20 {
            scroller.bounds.origin = Point(x: 0, y: Double(step) * 10)
            let update = try window.prepareFrameUpdate(time: Double(step) / 60)
            if update.move != nil { moves += 1 }
            window.apply(update, to: canvas)
        }
        #expect(moves == 20)
        // The box is at y 50 in the window now; its label's words are dark pixels.
        #expect(label.backingImage != nil, "the label was drawn when its box came into sight")
        var dark = 0
        for y in 60..<80 {
            for x in 14..<86 where canvas.pixel(x: x, y: y) & 0xff < 0x80 { dark += 1 }
        }
        #expect(dark > 20, "the label shows (\(dark) dark pixels)")
    }
}
