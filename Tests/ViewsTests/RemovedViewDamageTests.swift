import ScrollwayGeometry
import ScrollwayRaster
import Testing

@testable import ScrollwayViews

/// A view that leaves the window in a frame that moves a scrolled view's pixels is repainted
/// where its pixels are now: inside the move's rect that is where the move took them (every
/// pixel there moved), outside it where they were. A list flung faster than its margin
/// recycles rows that were on screen the frame before; repainting where they had been cost a
/// strip as tall as the row on top of the exposed one.
@MainActor
@Suite struct RemovedViewDamageTests {
    /// A 200×200 window: a scroller over its top 160 rows, rows 40 high (each with a label),
    /// and a badge below the scroller.
    @MainActor
    struct Scene {
        let window = Window(size: Size(width: 200, height: 200))
        let scroller = View(frame: Rect(x: 0, y: 0, width: 200, height: 160))
        let badge = View(frame: Rect(x: 20, y: 170, width: 60, height: 20))
        var rows: [View] = []

        init() {
            scroller.clipsToBounds = true
            scroller.backgroundColor = .white
            for i in 0..<12 {
                let row = View(frame: Rect(x: 0, y: Double(i) * 40, width: 200, height: 40))
                row.backgroundColor = i % 2 == 0 ? Color(rgb: 230, 230, 240) : Color(rgb: 250, 240, 230)
                row.addSubview(Label(text: "Row \(i)", frame: Rect(x: 8, y: 10, width: 120, height: 20)))
                scroller.addSubview(row)
                rows.append(row)
            }
            badge.backgroundColor = Color(rgb: 200, 40, 40)
            window.addSubview(scroller)
            window.addSubview(badge)
        }

        /// How many of `canvas`'s pixels differ from a full composite of the window as it is.
        func differFromFull(_ canvas: Canvas) throws -> Int {
            let full = try Canvas(width: 200, height: 200)
            window.composite(into: full)
            var differ = 0
            for y in 0..<200 {
                for x in 0..<200 where canvas.pixel(x: x, y: y) != full.pixel(x: x, y: y) { differ += 1 }
            }
            return differ
        }
    }

    @Test func rowsRecycledDuringAMoveCostNothingButTheExposedStrip() throws {
        let scene = Scene()
        let canvas = try Canvas(width: 200, height: 200)
        try scene.window.render(into: canvas)

        // Scrolled by 100: rows 0 and 1 (on screen at 0–80 the frame before) are out of sight,
        // and leave as a list recycles them.
        scene.scroller.bounds.origin = Point(x: 0, y: 100)
        scene.rows[0].removeFromSuperview()
        scene.rows[1].removeFromSuperview()
        let update = try scene.window.prepareFrameUpdate(time: 0.016)
        scene.window.apply(update, to: canvas)

        let move = try #require(update.move)
        #expect(move.dy == -100)
        #expect(move.rect == PixelRect(x: 0, y: 0, width: 200, height: 160))
        // The exposed strip at the bottom of the scroller (60–160), nothing else.
        #expect(update.damage.area == 200 * 100, "damage \(update.damage.rects)")
        #expect(update.damage.rects.allSatisfy { $0.y0 >= 60 && $0.y1 <= 160 }, "damage \(update.damage.rects)")
        #expect(try scene.differFromFull(canvas) == 0)
    }

    @Test func aRowThatLeavesStillInSightIsRepaintedWhereTheMoveTookIt() throws {
        let scene = Scene()
        let canvas = try Canvas(width: 200, height: 200)
        try scene.window.render(into: canvas)

        // Scrolled by 30: row 2 (80–120 before) is at 50–90 now, and leaves (a row deleted).
        scene.scroller.bounds.origin = Point(x: 0, y: 30)
        scene.rows[2].removeFromSuperview()
        let update = try scene.window.prepareFrameUpdate(time: 0.016)
        scene.window.apply(update, to: canvas)

        #expect(update.move?.dy == -30)
        // Where its pixels went (50–90), and the exposed strip (130–160); not 80–120.
        var expected = PixelRegion(PixelRect(x: 0, y: 50, width: 200, height: 40))
        expected.add(PixelRect(x: 0, y: 130, width: 200, height: 30))
        #expect(update.damage.subtracting(expected).isEmpty, "damage \(update.damage.rects)")
        #expect(expected.subtracting(update.damage).isEmpty, "damage \(update.damage.rects)")
        #expect(try scene.differFromFull(canvas) == 0)
    }

    /// A row that moved with the scroll for a few frames is not visited (its label keeps the
    /// snapshot of where it was then); a label taken out of it afterwards (removed, or hidden)
    /// is repainted where its pixels are now, not where that snapshot says.
    @Test(arguments: [false, true])
    func aLabelTakenOutOfARowThatWasNotVisitedIsRepaintedWhereItIsNow(hidden: Bool) throws {
        let scene = Scene()
        let canvas = try Canvas(width: 200, height: 200)
        try scene.window.render(into: canvas)
        let label = try #require(scene.rows[1].subviews.first)
        let snapshot = try #require(label.lastComposite)
        for (i, offset) in [5.0, 12.0, 20.0].enumerated() {
            scene.scroller.bounds.origin = Point(x: 0, y: offset)
            let update = try scene.window.prepareFrameUpdate(time: Double(i + 1) * 0.016)
            scene.window.apply(update, to: canvas)
        }
        #expect(label.lastComposite?.screenRect == snapshot.screenRect, "the label was not visited")

        scene.scroller.bounds.origin = Point(x: 0, y: 26)
        if hidden { label.isHidden = true } else { label.removeFromSuperview() }
        let update = try scene.window.prepareFrameUpdate(time: 0.08)
        scene.window.apply(update, to: canvas)
        #expect(update.move?.dy == -6)
        // The label was at 50–70 and is at 24–44 now: repainted there (and only there, with
        // the exposed strip), so the row shows no label.
        var expected = PixelRegion(PixelRect(x: 8, y: 24, width: 120, height: 20))
        expected.add(PixelRect(x: 0, y: 154, width: 200, height: 6))
        #expect(expected.subtracting(update.damage).isEmpty, "damage \(update.damage.rects)")
        #expect(try scene.differFromFull(canvas) == 0)
    }

    @Test func aViewOutsideTheMovedRectIsRepaintedWhereItWas() throws {
        let scene = Scene()
        let canvas = try Canvas(width: 200, height: 200)
        try scene.window.render(into: canvas)

        scene.scroller.bounds.origin = Point(x: 0, y: 20)
        scene.badge.removeFromSuperview()
        let update = try scene.window.prepareFrameUpdate(time: 0.016)
        scene.window.apply(update, to: canvas)

        #expect(update.move?.dy == -20)
        var expected = PixelRegion(PixelRect(x: 20, y: 170, width: 60, height: 20))
        expected.add(PixelRect(x: 0, y: 140, width: 200, height: 20))
        #expect(update.damage.subtracting(expected).isEmpty, "damage \(update.damage.rects)")
        #expect(expected.subtracting(update.damage).isEmpty, "damage \(update.damage.rects)")
        #expect(try scene.differFromFull(canvas) == 0)
    }
}
