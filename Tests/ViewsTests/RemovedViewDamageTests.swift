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

        /// What the frames are drawn into, one after another (the first is whole).
        let canvas: Canvas
        private var time = 0.0

        init() throws {
            canvas = try Canvas(width: 200, height: 200)
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
            try window.render(into: canvas)
        }

        /// One frame: the scroller at `offset`, after `change`; returns its update, applied.
        mutating func frame(scrolledTo offset: Double, _ change: () -> Void = {}) throws -> FrameUpdate {
            scroller.bounds.origin = Point(x: 0, y: offset)
            change()
            time += 0.016
            let update = try window.prepareFrameUpdate(time: time)
            window.apply(update, to: canvas)
            return update
        }

        /// How many of the canvas's pixels differ from a full composite of the window as it is.
        func differFromFull() throws -> Int {
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
        var scene = try Scene()

        // Scrolled by 100: rows 0 and 1 (on screen at 0–80 the frame before) are out of sight,
        // and leave as a list recycles them.
        let rows = scene.rows
        let update = try scene.frame(scrolledTo: 100) {
            rows[0].removeFromSuperview()
            rows[1].removeFromSuperview()
        }

        let move = try #require(update.move)
        #expect(move.dy == -100)
        #expect(move.rect == PixelRect(x: 0, y: 0, width: 200, height: 160))
        // The exposed strip at the bottom of the scroller (60–160), nothing else.
        #expect(update.damage.area == 200 * 100, "damage \(update.damage.rects)")
        #expect(update.damage.rects.allSatisfy { $0.y0 >= 60 && $0.y1 <= 160 }, "damage \(update.damage.rects)")
        #expect(try scene.differFromFull() == 0)
    }

    @Test func aRowThatLeavesStillInSightIsRepaintedWhereTheMoveTookIt() throws {
        var scene = try Scene()

        // Scrolled by 30: row 2 (80–120 before) is at 50–90 now, and leaves (a row deleted).
        let row = scene.rows[2]
        let update = try scene.frame(scrolledTo: 30) { row.removeFromSuperview() }

        #expect(update.move?.dy == -30)
        // Where its pixels went (50–90), and the exposed strip (130–160); not 80–120.
        var expected = PixelRegion(PixelRect(x: 0, y: 50, width: 200, height: 40))
        expected.add(PixelRect(x: 0, y: 130, width: 200, height: 30))
        expectDamage(update, is: expected)
        #expect(try scene.differFromFull() == 0)
    }

    /// A row that moved with the scroll for a few frames is not visited (its label keeps the
    /// snapshot of where it was then); a label taken out of it afterwards (removed, or hidden)
    /// is repainted where its pixels are now, not where that snapshot says.
    @Test(arguments: [false, true])
    func aLabelTakenOutOfARowThatWasNotVisitedIsRepaintedWhereItIsNow(hidden: Bool) throws {
        var scene = try Scene()
        let label = try #require(scene.rows[1].subviews.first)
        let snapshot = try #require(label.lastComposite)
        for offset in [5.0, 12.0, 20.0] { _ = try scene.frame(scrolledTo: offset) }
        #expect(label.lastComposite?.screenRect == snapshot.screenRect, "the label was not visited")

        let update = try scene.frame(scrolledTo: 26) {
            if hidden { label.isHidden = true } else { label.removeFromSuperview() }
        }
        #expect(update.move?.dy == -6)
        // The label was at 50–70 and is at 24–44 now: repainted there (and only there, with
        // the exposed strip), so the row shows no label.
        var expected = PixelRegion(PixelRect(x: 8, y: 24, width: 120, height: 20))
        expected.add(PixelRect(x: 0, y: 154, width: 200, height: 6))
        #expect(expected.subtracting(update.damage).isEmpty, "damage \(update.damage.rects)")
        #expect(try scene.differFromFull() == 0)
    }

    /// A hidden row is forgotten once: its snapshots go (what it showed repainted) the frame it
    /// is hidden, and the frames after, while the scroll moves, do not walk it again; shown
    /// again mid-scroll it is visited and painted where it is, and hidden again forgotten again.
    @Test func aHiddenRowIsForgottenOnceAndPaintedWhereItIsWhenShown() throws {
        var scene = try Scene()
        let row = scene.rows[2]
        let label = try #require(row.subviews.first)
        let before = scene.window.subtreesForgotten
        _ = try scene.frame(scrolledTo: 4) { row.isHidden = true }
        #expect(scene.window.subtreesForgotten == before + 1)
        #expect(row.snapshotsForgotten && row.lastComposite == nil && label.lastComposite == nil)
        #expect(try scene.differFromFull() == 0)
        for offset in [9.0, 15.0, 22.0] {
            _ = try scene.frame(scrolledTo: offset)
            #expect(row.compositeDrift == .zero && label.lastComposite == nil)
            #expect(try scene.differFromFull() == 0)
        }
        #expect(scene.window.subtreesForgotten == before + 1, "the hidden row was walked again")
        _ = try scene.frame(scrolledTo: 27) { row.isHidden = false }
        #expect(!row.snapshotsForgotten && label.lastComposite != nil)
        #expect(try scene.differFromFull() == 0)
        _ = try scene.frame(scrolledTo: 33) { row.isHidden = true }
        #expect(scene.window.subtreesForgotten == before + 2 && label.lastComposite == nil)
        #expect(try scene.differFromFull() == 0)
    }

    /// A label straight inside the scroller (a leaf with no background: it paints only its
    /// words) that moved with the scroll unvisited keeps the snapshot a visit would have
    /// taken, its words' rect moved and nothing wider (what a change to it damages); taken
    /// out, the rect it shows is repainted where it is now.
    @Test func aLabelInTheScrollerThatWasNotVisitedKeepsItsWordsRect() throws {
        var scene = try Scene()
        let label = Label(text: "Hi", frame: Rect(x: 8, y: 130, width: 180, height: 20))
        let scroller = scene.scroller
        _ = try scene.frame(scrolledTo: 0) { scroller.addSubview(label) }
        let words = try #require(label.lastComposite?.painted)
        #expect(words.width < 60 && words.minY >= 130 && words.maxY <= 150, "only the words: \(words)")
        for offset in [5.0, 12.0, 20.0] {
            _ = try scene.frame(scrolledTo: offset)
            #expect(label.lastComposite?.painted == words.offsetBy(dx: 0, dy: -offset))
            #expect(label.lastComposite?.screenRect == Rect(x: 8, y: 130 - offset, width: 180, height: 20))
        }

        let update = try scene.frame(scrolledTo: 26) { label.removeFromSuperview() }
        #expect(update.move?.dy == -6)
        // It showed at 110–130 and is at 104–124 now: repainted there, with the exposed strip.
        var expected = PixelRegion(PixelRect(x: 8, y: 104, width: 180, height: 20))
        expected.add(PixelRect(x: 0, y: 154, width: 200, height: 6))
        expectDamage(update, is: expected)
        #expect(try scene.differFromFull() == 0)
    }

    @Test func aViewOutsideTheMovedRectIsRepaintedWhereItWas() throws {
        var scene = try Scene()

        let badge = scene.badge
        let update = try scene.frame(scrolledTo: 20) { badge.removeFromSuperview() }

        #expect(update.move?.dy == -20)
        var expected = PixelRegion(PixelRect(x: 20, y: 170, width: 60, height: 20))
        expected.add(PixelRect(x: 0, y: 140, width: 200, height: 20))
        expectDamage(update, is: expected)
        #expect(try scene.differFromFull() == 0)
    }

    /// `update`'s damage is `expected`, no more and no less.
    func expectDamage(
        _ update: FrameUpdate, is expected: PixelRegion, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            update.damage.subtracting(expected).isEmpty, "damage \(update.damage.rects)", sourceLocation: sourceLocation
        )
        #expect(
            expected.subtracting(update.damage).isEmpty, "damage \(update.damage.rects)", sourceLocation: sourceLocation
        )
    }
}
