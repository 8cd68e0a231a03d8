import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayHeadless
import ScrollwayPhysics
import ScrollwayRaster
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayTestSupport
import ScrollwayViews
import Testing

/// A scene on the offscreen frame driver at 60 Hz, with the gestures its tests use built by
/// `ScriptBuilder` (times in ms from the given start, in seconds).
@MainActor
final class SceneDriver {
    let window: Window
    let driver: FrameDriver
    var list: ListView { window.view(named: "main") as! ListView }
    var main: ScrollView { window.view(named: "main") as! ScrollView }
    var time: Double { driver.time }

    /// Called after every frame the driver runs (tests check invariants there).
    var afterFrame: (() -> Void)? {
        didSet { driver.afterFrame = afterFrame.map { f in { _ in f() } } }
    }

    init(_ scene: Scene = .list, size: Size? = nil) {
        window = scene.makeWindow(size: size)
        driver = FrameDriver(window: window)
    }

    func advance(to t: Double) { driver.advance(to: t) }

    func send(_ kind: InputEvent.Kind, at t: Double) { driver.send(kind, at: t) }

    /// Sends what `build` builds, its times in ms from `start`; returns the last event's time.
    @discardableResult
    func send(from start: Double, _ build: (inout ScriptBuilder) -> Void) -> Double {
        driver.send(from: start, build)
    }

    /// A flick: a finger down at `from` 0.1 s from now, `moves` moves 10 ms apart adding up to
    /// `by`, lifted 10 ms after the last (fast, so the content flies on). Returns the lift time.
    @discardableResult
    func flick(from: Point, by delta: Point, moves: Int = 5) -> Double {
        send(from: time + 0.1) { $0.flick(from: from, by: delta, at: 0, moves: moves, id: 1) }
    }

    /// A finger down at `from` at `start`, then at each of `points` 16 ms apart (not lifted).
    /// Returns the time of the last move.
    @discardableResult
    func press(id: Int = 1, at from: Point, then points: [Point], start: Double) -> Double {
        send(from: start) { $0.drag(from: from, through: points, at: 0, id: id) }
    }

    /// Finger `id` (down already) moved to each of `points`, 16 ms apart after `start`. Returns
    /// the time of the last move.
    @discardableResult
    func move(id: Int = 1, through points: [Point], after start: Double) -> Double {
        send(from: start) { $0.move(id: id, through: points, after: 0) }
    }

    func settle() { driver.settle(limit: 50) }

    /// Inserts rows into the list scene's model and then the list, as an app does.
    func insertRows(at rows: [Int]) {
        (list.dataSource as! ListRows).rowCount += Set(rows).count
        list.insertRows(at: rows)
    }

    /// Deletes rows from the list scene's model and then the list, as an app does.
    func deleteRows(at rows: [Int]) {
        (list.dataSource as! ListRows).rowCount -= Set(rows).count
        list.deleteRows(at: rows)
    }
}

@MainActor
@Suite struct ListViewTests {
    @Test func flingingThrough100kRowsCreatesOnlyAScreenfulOfCells() {
        let d = SceneDriver(.list)
        #expect(d.list.contentSize.height > 100_000 * 44)
        for _ in 0..<6 {
            d.flick(from: Point(x: 200, y: 780), by: Point(x: 0, y: -600))
            d.advance(to: d.time + 1.5)
        }
        #expect(d.list.contentOffset.y > 10_000)
        // In view: 844 px + 2 × 100 px margin over rows of at least 44 px ≈ 25 rows, plus the pool.
        let bound = Int(clamping: (844.0 + 2 * 100) / 44) + 2 + ListView.poolLimit
        #expect(d.list.visibleCells.count <= bound)
        #expect(d.list.cellsCreated <= bound, "\(d.list.cellsCreated) cells made")
    }

    @Test func scrollingToTheLastRowPutsItExactlyInView() {
        let d = SceneDriver(.list)
        d.list.scrollToRow(99_999)
        d.advance(to: 0.1)
        let r = d.list.rectForRow(99_999)
        let visible = d.list.bounds
        #expect(r.minY >= visible.minY && r.maxY <= visible.maxY)
        #expect(abs(r.maxY - visible.maxY) < 1e-6)  // the least scroll: flush with the bottom
        #expect(d.list.visibleCells[99_999]?.textLabel.text == "Row 100000")
        #expect(d.list.contentOffset.y == d.list.verticalRange.upperBound)
    }

    @Test func insertingAboveKeepsTheRowsInViewStill() {
        let d = SceneDriver(.list)
        d.list.contentOffset = Point(x: 0, y: 5000)
        d.advance(to: 0.1)
        let row = d.list.visibleCells.keys.sorted()[8]
        let cell = d.list.visibleCells[row]!
        let before = cell.convert(Point.zero, to: nil).y
        d.insertRows(at: [0, 1, 2])
        d.advance(to: 0.2)
        let moved = d.list.visibleCells[row + 3]!
        #expect(moved === cell)
        #expect(moved.convert(Point.zero, to: nil).y == before)
        d.deleteRows(at: [0])
        d.advance(to: 0.3)
        #expect(d.list.visibleCells[row + 2]!.convert(Point.zero, to: nil).y == before)
    }

    /// A list at its top keeps its offset as rows are inserted above the first row in view,
    /// as UIKit's does: the new rows show (a message arriving at the top of an inbox read from
    /// the top), the rows that were in view move down by their heights. A pixel below the top,
    /// the rows in view stay still as anywhere else.
    @Test func insertingAtTheTopOfAListAtItsTopShowsTheNewRows() {
        for start in [0.0, 1.0] {
            let d = SceneDriver(.list)
            d.list.contentOffset = Point(x: 0, y: start)
            d.advance(to: 0.1)
            let cell = d.list.visibleCells[0]!
            let before = cell.convert(Point.zero, to: nil).y
            d.insertRows(at: [0, 1])
            d.advance(to: 0.2)
            #expect(d.list.visibleCells[2] === cell)
            let after = cell.convert(Point.zero, to: nil).y
            if start == 0 {
                #expect(d.list.contentOffset.y == 0)
                #expect(after == before + d.list.rectForRow(2).minY - d.list.rectForRow(0).minY)
                let first = try! #require(d.list.visibleCells[0])
                #expect(first.convert(Point.zero, to: nil).y == before)
            } else {
                #expect(after == before, "a pixel below the top: the cell moved from \(before) to \(after)")
                #expect(d.list.contentOffset.y == start + d.list.rectForRow(2).minY - d.list.rectForRow(0).minY)
            }
        }
    }

    @Test func aCellTappedAfterInsertsAndDeletesAboveReportsItsNewRow() {
        let d = SceneDriver(.list)
        var selected: [Int] = []
        d.list.onSelectRow = { selected.append($0) }
        d.list.contentOffset = Point(x: 0, y: 5000)
        d.advance(to: 0.1)
        let row = d.list.visibleCells.keys.sorted()[8]
        let cell = d.list.visibleCells[row]!
        d.insertRows(at: [0, 1, 2, 3, 4])
        d.deleteRows(at: [1])
        d.advance(to: 0.2)
        #expect(d.list.visibleCells[row + 4] === cell)  // the same cell, renumbered
        #expect(d.list.row(for: cell) == row + 4)
        let p = cell.convert(Point(x: 20, y: cell.bounds.height / 2), to: nil)
        d.send(.touchDown(id: 1, position: p), at: 0.3)
        d.send(.touchUp(id: 1), at: 0.35)
        #expect(selected == [row + 4])
    }

    @Test func measuringRowsAboveNeverMovesTheRowUnderTheFinger() {
        let d = SceneDriver(.list)
        d.list.contentOffset = Point(x: 0, y: 40_000)  // rows here are measured; those above are not
        d.advance(to: 0.1)
        d.send(.touchDown(id: 1, position: Point(x: 200, y: 300)), at: 0.2)
        d.send(.touchMotion(id: 1, position: Point(x: 200, y: 312)), at: 0.21)
        let row = d.list.visibleCells.keys.sorted()[6]
        let cell = d.list.visibleCells[row]!
        var last = cell.convert(Point.zero, to: nil).y
        var fingerY = 312.0
        for i in 1...40 {
            fingerY += 10
            d.send(.touchMotion(id: 1, position: Point(x: 200, y: fingerY)), at: 0.21 + Double(i) * 0.016)
            d.advance(to: d.time + 0.016)
            let y = cell.convert(Point.zero, to: nil).y
            #expect(abs(y - last - 10) < 1e-6, "the row moved \(y - last) for 10 px of finger")
            last = y
        }
        d.send(.touchUp(id: 1), at: d.time + 0.2)
    }

    @Test func aDragCancelsTheHighlightAndATapSelects() {
        let d = SceneDriver(.list)
        var selected: [Int] = []
        d.list.onSelectRow = { selected.append($0) }
        // Row 0 lies below its section's 32 px header.
        d.send(.touchDown(id: 1, position: Point(x: 200, y: 50)), at: 0.1)
        d.advance(to: 0.3)
        let cell = d.list.visibleCells[0]!
        #expect(cell.isHighlighted)
        d.send(.touchMotion(id: 1, position: Point(x: 200, y: 90)), at: 0.32)
        #expect(!cell.isHighlighted)
        d.send(.touchUp(id: 1), at: 0.5)
        d.settle()
        #expect(selected.isEmpty)
        d.send(.touchDown(id: 2, position: Point(x: 200, y: 50)), at: d.time + 0.1)
        d.send(.touchUp(id: 2), at: d.time + 0.05)
        #expect(selected == [0])  // the drag bounced back: y 50 is row 0 again
    }

    /// The header on screen at the top of the list, and the one below it.
    private func headers(_ d: SceneDriver) -> [(section: Int, frame: Rect, title: String)] {
        d.list.visibleHeaders.map { ($0.key, $0.value.frame, $0.value.textLabel.text) }.sorted {
            $0.section < $1.section
        }
    }

    @Test func sectionHeadersSitAboveTheirRowsAndTheTopOneSticks() {
        let d = SceneDriver(.list)
        let h = d.list.sectionHeaderHeight
        #expect(d.list.numberOfSections == 4000)
        // At the top: section 0's header at y 0, row 0 right below it.
        #expect(headers(d).first?.frame == Rect(x: 0, y: 0, width: 390, height: h))
        #expect(d.list.rectForRow(0).minY == h)
        #expect(d.list.rectForRow(25).minY == d.list.rectForRow(24).maxY + h)
        // Deep in section 40: its header is pinned at the top of the viewport.
        let sectionTop = d.list.rectForHeader(inSection: 40).minY
        d.list.contentOffset = Point(x: 0, y: sectionTop + 300)
        d.advance(to: 0.1)
        let pinned = headers(d).first { $0.section == 40 }
        #expect(pinned?.frame.minY == d.list.bounds.minY)
        #expect(pinned?.title == "Rows 1001–1025")
        // It is in front of the rows it covers (and behind the indicators).
        let headerIndex = d.list.subviews.firstIndex { $0 === d.list.visibleHeaders[40] }!
        let cellIndices = d.list.visibleCells.values.map { c in d.list.subviews.firstIndex { $0 === c }! }
        #expect(cellIndices.allSatisfy { $0 < headerIndex })
        #expect(d.list.subviews.suffix(2).allSatisfy { $0 is ScrollIndicator })
        // Section 41's header, 10 px from the top, pushes 40's up: they touch, never overlap.
        // (Again until the rows there are measured: measuring can move section 41's header.)
        var next = 0.0
        for i in 0..<6 where d.list.rectForHeader(inSection: 41).minY != next {
            next = d.list.rectForHeader(inSection: 41).minY
            d.list.contentOffset = Point(x: 0, y: next - 10)
            d.advance(to: 0.2 + Double(i) * 0.02)
        }
        #expect(d.list.rectForHeader(inSection: 41).minY == next && d.list.contentOffset.y == next - 10)
        let both = headers(d)
        let h40 = both.first { $0.section == 40 }!.frame
        let h41 = both.first { $0.section == 41 }!.frame
        #expect(h41.minY == next && h40.maxY == next && h40.minY == d.list.bounds.minY - (h - 10))
        // Only the sections near the viewport have headers.
        #expect(both.allSatisfy { abs($0.section - 41) <= 3 })
        // Pulled past the top, section 0's header stays with its rows (not pinned above them).
        d.list.contentOffset = Point(x: 0, y: -40)
        d.advance(to: 0.3)
        #expect(headers(d).first { $0.section == 0 }?.frame.minY == 0)
    }

    @Test func scrollingToARowAboveLeavesItJustBelowThePinnedHeader() {
        let d = SceneDriver(.list)
        d.list.scrollToRow(99_999)
        d.list.scrollToRow(510)
        d.advance(to: 0.1)
        let r = d.list.rectForRow(510)
        #expect(abs(r.minY - (d.list.bounds.minY + d.list.sectionHeaderHeight)) < 1e-6)
        let top = headers(d).first { $0.frame.minY == d.list.bounds.minY }
        #expect(top?.title == "Rows 501–525")
        #expect(d.list.visibleCells[510]?.textLabel.text == "Row 511")
    }

    @Test func anAnimatedScrollToRowStartsWhereTheListWasAndEndsWithTheRowInView() {
        let d = SceneDriver(.list)
        d.list.scrollToRow(2000, animated: true)
        #expect(d.list.contentOffset.y == 0)  // nothing jumps: the animation starts here
        #expect(d.window.hasActiveAnimations)
        d.settle()
        let r = d.list.rectForRow(2000)
        // Re-aimed while rows on the way were measured: it lands flush with the bottom.
        #expect(abs(r.maxY - d.list.bounds.maxY) < 0.5)
        #expect(d.list.visibleCells[2000]?.textLabel.text == ListRows.text(2000))
    }

    @Test func scrollToRowStopsAFlingInsteadOfRacingIt() {
        let d = SceneDriver(.list)
        let lift = d.flick(from: Point(x: 200, y: 780), by: Point(x: 0, y: -600))
        d.advance(to: lift + 0.14)
        #expect(d.list.isDecelerating)
        d.list.scrollToRow(5000)
        #expect(!d.list.isDecelerating)
        let placed = d.list.contentOffset
        d.settle()
        #expect(d.list.contentOffset == placed)  // nothing moved it on
        let r = d.list.rectForRow(5000)
        #expect(abs(r.maxY - d.list.bounds.maxY) < 1e-6)  // below: it comes in at the bottom
    }

    @Test func anAnimatedScrollToRowYieldsToWhateverMovesTheListNext() {
        /// A list 0.2 s into an animated scroll to row 2000.
        func animatingToRow2000() -> SceneDriver {
            let d = SceneDriver(.list)
            d.list.scrollToRow(2000, animated: true)
            d.advance(to: 0.2)
            return d
        }
        // A plain setContentOffset while it runs: the list stays where that put it (rows
        // measured above may correct the offset by a few pixels, nothing like row 2000).
        let d = animatingToRow2000()
        d.list.setContentOffset(Point(x: 0, y: 1234), animated: false)
        d.settle()
        #expect(abs(d.list.contentOffset.y - 1234) < 100)

        // Another animation while it runs: that one decides where the list ends.
        let e = animatingToRow2000()
        e.list.setContentOffset(Point(x: 0, y: 800), animated: true)
        e.settle()
        #expect(abs(e.list.contentOffset.y - 800) < 100)

        // A wheel notch: the follower lets go; only the wheel's step is added to where it was.
        let f = animatingToRow2000()
        f.send(.pointerMotion(position: Point(x: 200, y: 400)), at: 0.2)
        f.send(.axis(.vertical, value: 15, source: .wheel, value120: 120), at: 0.21)
        let wheelStart = f.list.contentOffset.y  // the animation stopped here; the wheel goes on
        f.settle()
        let step = WheelAnimation.step(viewport: f.list.bounds.height, value120: 120)
        #expect(abs(f.list.contentOffset.y - (wheelStart + step)) < 1e-6)
        #expect(f.list.rectForRow(2000).maxY > f.list.bounds.maxY + 1000)  // nowhere near row 2000
    }

    /// Issue 36, item 13: one wheel event crossing some 15,000 estimated rows in a few frames
    /// measures every row it passes, not only those the frames happen to show, so where it
    /// rests and the content's height do not depend on the refresh rate. Moving down, the
    /// rows come in below the viewport: the wheel lands exactly on its step. Back up, on rows
    /// measured already, it lands exactly on its step again.
    @Test func aLongWheelSpinRestsOnTheSamePixelAtEveryRefreshRate() {
        let results = [24.0, 60.0, 120.0, 144.0].map { hz -> [Double] in
            let window = Scene.list.makeWindow()
            let driver = FrameDriver(window: window, refresh: hz)
            let list = window.view(named: "main") as! ListView
            driver.send(.pointerMotion(position: Point(x: 195, y: 400)), at: 0)
            driver.send(.axis(.vertical, value: 10, source: .wheel, value120: 1_200_000), at: 0.01)
            driver.settle(limit: 50)
            let down = [list.contentOffset.y, list.contentSize.height]
            driver.send(.axis(.vertical, value: -10, source: .wheel, value120: -600_000), at: driver.time + 0.01)
            driver.settle(limit: 50)
            return down + [list.contentOffset.y, list.contentSize.height]
        }
        #expect(results.allSatisfy { $0 == results[0] }, "\(results)")
        let step = WheelAnimation.step(viewport: 844, value120: 1_200_000)
        #expect(results[0][0] == step)
        #expect(results[0][2] == step - step / 2)
        #expect(results[0][1] == results[0][3])
    }

    /// End across the 100,000 rows heads for an edge: its frames measure the rows they show,
    /// not the rows they pass (each a text layout; it measured all 99,983 before, see
    /// docs/decisions.md). At every refresh rate it rests at the end on the same rows, each
    /// where the others have it; Home comes back to row 0 at the top the same way.
    @Test func endAndHomeAcrossTheListMeasureOnlyWhatTheyShow() {
        let results = [24.0, 60.0, 144.0].map { hz -> [String] in
            let window = Scene.list.makeWindow()
            let driver = FrameDriver(window: window, refresh: hz)
            let list = window.view(named: "main") as! ListView
            driver.send(.pointerMotion(position: Point(x: 195, y: 400)), at: 0)
            driver.send(.key(.end, pressed: true, modifiers: []), at: 0.01)
            driver.send(.key(.end, pressed: false, modifiers: []), at: 0.05)
            let before = driver.framesStepped
            driver.settle(limit: 20)
            #expect(list.contentOffset.y == list.verticalRange.upperBound, "\(hz) Hz")
            #expect(list.rectForRow(99_999).maxY == list.bounds.maxY, "\(hz) Hz")
            let measured = (0..<list.rowCount).count { list.isRowMeasured($0) }
            // The first window and at most a window's rows a frame: 844 px and two 100 px
            // margins over rows of at least 44 px.
            let rowsPerWindow = Int(clamping: (844.0 + 2 * 100) / 44, rounding: .up)
            let frames = driver.framesStepped - before
            #expect(measured <= rowsPerWindow * (frames + 1), "\(hz) Hz: \(measured) rows measured in \(frames) frames")
            #expect(measured < 5_000, "\(hz) Hz: \(measured) rows measured")
            let atEnd = Self.rowsInView(list)
            driver.send(.key(.home, pressed: true, modifiers: []), at: driver.time + 0.01)
            driver.send(.key(.home, pressed: false, modifiers: []), at: driver.time + 0.05)
            driver.settle(limit: 20)
            #expect(list.contentOffset.y == list.verticalRange.lowerBound, "\(hz) Hz")
            #expect(list.visibleCells[0]?.textLabel.text == "Row 1", "\(hz) Hz")
            return atEnd + Self.rowsInView(list)
        }
        #expect(results.allSatisfy { $0 == results[0] }, "\(results)")
        #expect(results[0].contains { $0.hasPrefix("Row 100000 at ") }, "\(results[0])")
    }

    /// The rows with cells, each with its text and its top relative to the viewport's.
    private static func rowsInView(_ list: ListView) -> [String] {
        list.visibleCells.sorted { $0.key < $1.key }.map { _, cell in
            "\(cell.textLabel.text) at \(cell.frame.minY - list.bounds.minY)"
        }
    }

    @Test func flingingReusesHeadersToo() {
        let d = SceneDriver(.list)
        var most = 0
        d.afterFrame = { most = max(most, d.list.visibleHeaders.count) }
        for _ in 0..<3 {
            d.flick(from: Point(x: 200, y: 780), by: Point(x: 0, y: -600))
            d.settle()
        }
        #expect(d.list.contentOffset.y > 10_000)
        // A screen of 844 px holds at most a few 25-row sections.
        #expect(most >= 1 && most <= 4)
        #expect(d.list.visibleHeaders.values.allSatisfy { $0.superview === d.list })
    }

    @Test func scrollRectToVisibleToTheLastRowPutsItExactlyInView() {
        let d = SceneDriver(.list)
        // The rect of row 99,999 as estimated now: measuring the rows that come into view
        // moves it, and the list follows the row there.
        d.list.scrollRectToVisible(d.list.rectForRow(99_999), animated: false)
        d.advance(to: 0.1)
        let r = d.list.rectForRow(99_999)
        #expect(d.list.isRowMeasured(99_999))
        #expect(r.maxY == d.list.bounds.maxY && r.minY >= d.list.bounds.minY)
        #expect(d.list.contentOffset.y == d.list.verticalRange.upperBound)
        #expect(d.list.visibleCells[99_999]?.textLabel.text == "Row 100000")
        // Any other rect keeps its place in the row it starts in: 10 px into row 60,000, 20 tall,
        // above the viewport, so it comes in at the top.
        let top = d.list.rectForRow(60_000).minY
        d.list.scrollRectToVisible(Rect(x: 0, y: top + 10, width: 50, height: 20), animated: false)
        d.advance(to: 0.2)
        #expect(d.list.isRowMeasured(60_000))
        #expect(d.list.rectForRow(60_000).minY + 10 == d.list.bounds.minY)
    }

    @Test func anAnimatedScrollRectToVisibleLandsOnTheMeasuredRow() {
        let d = SceneDriver(.list)
        d.list.scrollRectToVisible(d.list.rectForRow(3000), animated: true)
        #expect(d.list.contentOffset.y == 0)
        d.settle()
        #expect(d.list.rectForRow(3000).maxY == d.list.bounds.maxY)
    }

    @Test func jumpsReuseTheCellsTheyLeaveAndKeepNoStrayViews() {
        let d = SceneDriver(.list)
        // 844 px + 2 × 100 px margin over rows of at least 44 px, headers apart, plus the pool.
        let screenful = Int(clamping: (844.0 + 2 * 100) / 44) + 2
        let made = d.list.cellsCreated
        #expect(made <= screenful)
        for (i, row) in [99_999, 0, 50_000, 12_345, 99_000, 7].enumerated() {
            d.list.scrollToRow(row)
            d.advance(to: 0.1 * Double(i + 1))
            #expect(d.list.cellsCreated <= screenful + ListView.poolLimit, "after row \(row)")
            // Only the cells and headers in view, the two indicators: nothing left behind.
            #expect(
                d.list.subviews.count == d.list.visibleCells.count + d.list.visibleHeaders.count + 2,
                "after row \(row)")
            #expect(d.list.visibleCells.allSatisfy { $0.value.superview === d.list })
        }
    }

    /// Cells with constraints (a badge pinned to the cell's trailing edge) wait hidden in the
    /// list when recycled instead of leaving it (their constraints stay in the window's
    /// engine); jumps still leave no stray views: the cells in view, the indicators, and at
    /// most the pool's limit waiting hidden.
    @Test func recycledCellsWithConstraintsWaitHiddenAndJumpsLeaveNoStrayViews() {
        let rows = BadgeRows(count: 100_000)
        let (window, list) = rows.makeList()
        for (i, row) in [99_999, 0, 50_000, 12_345, 50_003, 7].enumerated() {
            list.scrollToRow(row)
            _ = try? window.prepareFrame(time: 0.1 * Double(i + 1))
            // (The indicators hide when the list is still.)
            let waiting = list.subviews.filter { $0 is BadgeCell && $0.isHidden }
            #expect(waiting.count <= ListView.poolLimit, "after row \(row)")
            #expect(list.subviews.count == list.visibleCells.count + waiting.count + 2, "after row \(row)")
            for (r, cell) in list.visibleCells {
                #expect(!cell.isHidden && cell.textLabel.text == "row \(r)")
                let badge = (cell as? BadgeCell)?.badge.frame
                #expect(badge == Rect(x: 300 - 28, y: (cell.frame.height - 20) / 2, width: 20, height: 20), "row \(r)")
            }
        }
        // Half as tall: half the cells leave, and wait hidden in place.
        let before = list.visibleCells.count
        list.frame = Rect(x: 0, y: 0, width: 300, height: 300)
        _ = try? window.prepareFrame(time: 1)
        let waiting = list.subviews.filter { $0 is BadgeCell && $0.isHidden }
        #expect(list.visibleCells.count < before && !waiting.isEmpty && waiting.count <= ListView.poolLimit)
        #expect(list.subviews.count == list.visibleCells.count + waiting.count + 2)
    }

    @Test func theHeaderEnteringThePinLineTakesOverWithoutAJump() {
        let d = SceneDriver(.list)
        let h = d.list.sectionHeaderHeight
        // Measure around section 41 first (measuring moves its header), then sweep the offset
        // across its header band a pixel at a time: 41's header meets the top and stays there,
        // 40's is pushed up and away, continuously.
        var next = -1.0
        for i in 0..<6 where d.list.rectForHeader(inSection: 41).minY != next {
            next = d.list.rectForHeader(inSection: 41).minY
            d.list.contentOffset = Point(x: 0, y: next - 40)
            d.advance(to: 0.1 + Double(i) * 0.02)
        }
        let header41 = d.list.rectForHeader(inSection: 41).minY
        var t = 0.3
        for dy in stride(from: -12.0, through: Double(h) + 12, by: 1) {
            d.list.contentOffset = Point(x: 0, y: header41 + dy)
            t += 0.02
            d.advance(to: t)
            #expect(d.list.rectForHeader(inSection: 41).minY == header41)
            let on = headers(d).map { (section: $0.section, y: $0.frame.minY - d.list.bounds.minY) }
            let y41 = on.first { $0.section == 41 }?.y
            #expect(y41 == max(0, -dy), "offset \(dy) from 41's header: at \(String(describing: y41))")
            if let y40 = on.first(where: { $0.section == 40 })?.y, dy < 0 {
                #expect(y40 == -dy - h, "40's header is pushed by 41's at \(dy)")
            }
        }
    }

    /// A new width with the viewport's top cutting a row whose estimate (56) is shorter than it
    /// is (71): every row in view keeps its place on screen, and the width back changes
    /// nothing (the row, measured again, counted as above itself and moved every row in view
    /// 15 px up, for good).
    @Test func aResizeKeepsTheRowsInViewWhereTheyAreWhenTheTopRowIsTallerThanItsEstimate() {
        let d = SceneDriver(.list)
        d.list.contentOffset = Point(x: 0, y: 190)
        d.advance(to: 0.1)
        func onScreen() -> [Int: Double] {
            d.list.visibleCells.filter {
                $0.value.frame.maxY > d.list.bounds.minY && $0.value.frame.minY < d.list.bounds.maxY
            }
            .mapValues { $0.frame.minY - d.list.contentOffset.y }
        }
        let before = onScreen()
        let top = before.min { $0.value < $1.value }!
        #expect(top.value < 0 && d.list.visibleCells[top.key]!.frame.height > d.list.estimatedRowHeight)
        d.window.resize(to: Size(width: 600, height: 844))
        d.advance(to: 0.2)
        let wide = onScreen()
        for (row, y) in before where wide[row] != nil {
            #expect(wide[row] == y, "row \(row) at \(wide[row]!), was \(y)")
        }
        d.window.resize(to: Size(width: 390, height: 844))
        d.advance(to: 0.3)
        #expect(onScreen() == before)
    }

    /// Rows deleted at the end of a list at rest: the content shrinks under the offset, which
    /// goes straight back inside, with no bounce (the content size's change started one, which
    /// the clamp after it had left running, or which its guard let run: the list sprang from
    /// 1,100 px past its new end).
    @Test func deletingTheLastRowsAtTheEndRestsInsideWithoutABounce() {
        let d = SceneDriver(.list)
        d.list.scrollToRow(d.list.rowCount - 1)
        d.advance(to: 0.1)
        #expect(d.list.contentOffset.y == d.list.verticalRange.upperBound)
        let count = d.list.rowCount
        d.deleteRows(at: Array((count - 20)..<count))
        let rest = d.list.contentOffset.y
        #expect(d.list.isOffsetInRange && d.list.verticalRange.upperBound - rest < 44)
        #expect(!d.window.hasActiveAnimations, "\(d.list.motionDescription)")
        for step in 1...10 {
            d.advance(to: 0.1 + Double(step) / 60)
            #expect(d.list.contentOffset.y == rest, "frame \(step)")
        }
        #expect(d.list.visibleCells[count - 21] != nil)
    }

    @Test func deletingTheTopRowsAtTheTopLeavesNoGap() {
        let d = SceneDriver(.list)
        let second = d.list.visibleCells[1]!
        d.deleteRows(at: [0])
        d.advance(to: 0.1)
        #expect(d.list.contentOffset.y == 0)
        #expect(!d.window.hasActiveAnimations)
        #expect(d.list.visibleCells[0] === second)
        #expect(second.frame.minY == d.list.sectionHeaderHeight)
        // Deleting every row: no cells, and the scene's sections, counted from its rows, are
        // gone with them (empty sections' stacked headers have a test of their own below).
        d.deleteRows(at: Array(0..<d.list.rowCount))
        d.advance(to: 0.2)
        #expect(d.list.rowCount == 0 && d.list.numberOfSections == 0 && d.list.contentSize.height == 0)
        #expect(d.list.visibleCells.isEmpty && d.list.visibleHeaders.isEmpty)
        #expect(d.list.contentOffset.y == 0)
    }

    /// An update the data source does not agree with is not applied: rows inserted before the
    /// model has them (the app's own `cellForRow` trapped on its array), a count that disagrees
    /// (the list showed the wrong number of rows), rows outside the list (a trap). The list
    /// reloads from the data source and shows what the app has.
    @Test func anUpdateTheDataSourceDoesNotHaveReloadsInstead() {
        let d = SceneDriver(.list)
        let rows = d.list.dataSource as! ListRows
        d.list.contentOffset = Point(x: 0, y: 5000)
        d.advance(to: 0.1)
        // Inserted before the model: the list keeps the model's count.
        d.list.insertRows(at: [0, 1, 2])
        #expect(d.list.rowCount == rows.rowCount)
        // The model grew by one, the list was told three.
        rows.rowCount += 1
        d.list.insertRows(at: [0, 1, 2])
        #expect(d.list.rowCount == rows.rowCount)
        rows.rowCount -= 2
        d.list.deleteRows(at: [5])
        #expect(d.list.rowCount == rows.rowCount)
        // Rows outside the list, and a negative one.
        d.list.deleteRows(at: [rows.rowCount + 4])
        d.list.insertRows(at: [-1])
        d.list.reloadRows(at: [rows.rowCount])
        #expect(d.list.rowCount == rows.rowCount)
        // A reload while the model has another count (UIKit's batch checks it too).
        rows.rowCount += 3
        d.list.reloadRows(at: [0])
        #expect(d.list.rowCount == rows.rowCount)
        d.advance(to: 0.2)
        // Every cell in view shows its row's text.
        for (row, cell) in d.list.visibleCells {
            #expect(cell.textLabel.text == ListRows.text(row), "row \(row)")
        }
        #expect(!d.list.visibleCells.isEmpty)
    }

    /// An update refused from inside the data source's `cellForRow` (the model shrank and the
    /// app told the list of an insert it does not have) waits for the list's pass to end: the
    /// pass asks for no row the model lacks, and the list then shows the model's rows. A reload
    /// in the middle of the pass left it measuring rows the new layout did not have (a trap).
    @Test func anUpdateRefusedWhileCellsArePlacedReloadsAfterThePass() {
        final class ShrinkingRows: ListDataSource {
            var count = 200
            var shrinkAt: Int? = 5
            var askedPastEnd: [Int] = []
            func numberOfRows(in list: ListView) -> Int { count }
            func list(_ list: ListView, cellForRow row: Int) -> ListCell {
                if row >= count { askedPastEnd.append(row) }
                if row == shrinkAt {
                    shrinkAt = nil
                    count = 3
                    list.insertRows(at: [0])
                }
                let cell = list.dequeueReusableCell(withIdentifier: "row")
                cell.textLabel.text = "row \(row)"
                return cell
            }
        }
        let d = SceneDriver(.list)
        let rows = ShrinkingRows()
        d.list.dataSource = rows
        d.list.reloadData()
        d.settle()
        #expect(rows.askedPastEnd.isEmpty, "\(rows.askedPastEnd.prefix(10))")
        #expect(d.list.rowCount == 3)
        #expect(d.list.visibleCells.keys.sorted() == [0, 1, 2])
    }

    @Test func aBatchOfTenThousandInsertsAboveKeepsTheRowsInViewStill() {
        let d = SceneDriver(.list)
        d.list.contentOffset = Point(x: 0, y: 2_000_000)  // about row 30,000
        d.advance(to: 0.1)
        let row = d.list.visibleCells.keys.sorted()[6]
        #expect(row > 20_000)
        let cell = d.list.visibleCells[row]!
        let before = cell.convert(Point.zero, to: nil).y
        d.insertRows(at: Array(stride(from: 0, to: 20_000, by: 2)))  // all above it
        d.advance(to: 0.2)
        #expect(d.list.rowCount == 110_000)
        #expect(d.list.visibleCells[row + 10_000] === cell)
        #expect(cell.convert(Point.zero, to: nil).y == before)
    }

    /// `count` one-line rows ("r" and the row) in sections starting at `starts`, titled "S"
    /// and the section.
    final class SectionedRows: ListDataSource {
        let count: Int
        var starts: [Int]
        init(count: Int, starts: [Int]) {
            self.count = count
            self.starts = starts
        }
        func numberOfRows(in list: ListView) -> Int { count }
        func sectionStarts(in list: ListView) -> [Int] { starts }
        func list(_ list: ListView, titleForSection section: Int) -> String { "S\(section)" }
        func list(_ list: ListView, cellForRow row: Int) -> ListCell {
            let cell = list.dequeueReusableCell(withIdentifier: "r")
            cell.textLabel.text = "r\(row)"
            return cell
        }
    }

    /// A list 300 wide and `height` tall showing `rows`, filling a window of its size.
    private func sectionedList(_ rows: SectionedRows, height: Double) -> (Window, ListView) {
        let window = Window(size: Size(width: 300, height: height))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 300, height: height))
        list.register("r") { ListCell(reuseIdentifier: "r") }
        list.dataSource = rows
        window.addSubview(list)
        list.reloadData()
        return (window, list)
    }

    @Test func emptySectionsStackTheirHeadersAboveTheNextSectionsAsUITableViewDoes() {
        // Section 1 is empty (section 2 starts at the same row); section 4 comes after the last
        // row (empty, at the end).
        let rows = SectionedRows(count: 12, starts: [0, 5, 5, 10, 12])
        let (window, list) = sectionedList(rows, height: 1000)
        _ = try? window.prepareFrame(time: 0)
        #expect(list.numberOfSections == 5)
        #expect(list.section(containingRow: 4) == 0)
        #expect(list.section(containingRow: 5) == 2)
        #expect(list.section(containingRow: 11) == 3)
        // Rows of 44 px (one line each) and headers of 32: S0 | r0…r4 | S1 S2 | r5…r9 | S3 |
        // r10 r11 | S4.
        let tops = (0..<5).map { list.rectForHeader(inSection: $0).minY }
        let expected: [Double] = [0, 252, 284, 536, 656]  // 32 + 5·44, +32, 32 + 10·44 + 64, 32 + 12·44 + 96
        #expect(tops == expected)
        #expect(list.rectForRow(5).minY == 32 + 5 * 44 + 64)
        #expect(list.contentSize.height == 5 * 32 + 12 * 44)
        let titles = list.visibleHeaders.sorted { $0.key < $1.key }.map { $0.value.textLabel.text }
        #expect(titles == ["S0", "S1", "S2", "S3", "S4"])
        #expect(list.visibleHeaders.allSatisfy { $0.value.frame == list.rectForHeader(inSection: $0.key) })
        // Scrolled so the pin line is in S1's band: S1 is the section at the top, and S2, right
        // below it, pushes it up (S1 sits at its natural place).
        list.contentOffset = Point(x: 0, y: tops[1] + 10)
        _ = try? window.prepareFrame(time: 0.1)
        #expect(list.visibleHeaders[1]?.frame.minY == tops[1])
        // In S2's band, S2 pins at the top.
        list.contentOffset = Point(x: 0, y: tops[2] + 10)
        _ = try? window.prepareFrame(time: 0.2)
        #expect(list.visibleHeaders[2]?.frame.minY == tops[2] + 10)
    }

    /// Whatever the scroll does (small steps either way, jumps anywhere, past both ends) and
    /// however the sections change, the headers in view are exactly those a search of every
    /// section finds: each whose natural rect meets the viewport and its margin, and the one
    /// whose natural top is the last at or above the pin line, pinned there until the next
    /// pushes it up.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func theHeadersInViewAreThoseASearchOfEverySectionFinds(seed: UInt64) {
        var random = SeededRandom(state: seed)
        // Sections of 0 to 40 rows (empty ones stack their headers), some past the last row.
        func someSections() -> [Int] {
            var starts: [Int] = []
            var row = 0
            while row <= 2000 {
                starts.append(row)
                row += Int(clamping: random.unit(0, 41))
            }
            return starts
        }
        let rows = SectionedRows(count: 2000, starts: someSections())
        let (window, list) = sectionedList(rows, height: 600)
        var time = 0.0
        for step in 0..<400 {
            let roll = random.unit(0, 1)
            if roll < 0.03 {
                rows.starts = roll < 0.01 ? [] : someSections()
                list.reloadData()
            } else if roll < 0.15 {
                list.contentOffset.y = random.unit(-300, list.contentSize.height + 300)
            } else {
                list.contentOffset.y += random.unit(-60, 60)
            }
            time += 1.0 / 60
            _ = try? window.prepareFrame(time: time)
            let h = list.sectionHeaderHeight
            let tops = (0..<list.numberOfSections).map { list.rectForHeader(inSection: $0).minY }
            let (from, to) = (list.bounds.minY - list.margin, list.bounds.maxY + list.margin)
            var expected = Set(tops.indices.filter { tops[$0] <= to && tops[$0] + h > from })
            let pin = max(0, list.bounds.minY)
            let top = tops.indices.filter { tops[$0] <= pin }.max { tops[$0] < tops[$1] }
            if let top { expected.insert(top) }
            #expect(Set(list.visibleHeaders.keys) == expected, "step \(step) at \(list.contentOffset.y)")
            if let top, let header = list.visibleHeaders[top] {
                let next = tops.filter { $0 > tops[top] }.min() ?? .infinity
                // (To an ulp: the frame is kept as a centre and a size.)
                let pinned = min(max(tops[top], list.bounds.minY), next - h)
                #expect(abs(header.frame.minY - pinned) < 1e-6, "step \(step): \(header.frame.minY), not \(pinned)")
            }
            if Set(list.visibleHeaders.keys) != expected { return }
        }
    }

    @Test func aTouchOnACellThatIsReloadedUnderTheFingerSelectsNothing() {
        let d = SceneDriver(.list)
        var selected: [Int] = []
        d.list.onSelectRow = { selected.append($0) }
        d.send(.touchDown(id: 1, position: Point(x: 200, y: 50)), at: 0.1)
        d.advance(to: 0.3)  // past the 150 ms hold: the cell has the touch
        let cell = d.list.visibleCells[0]!
        #expect(cell.isHighlighted)
        d.list.reloadData()  // every cell recycled and handed out again, maybe for another row
        d.advance(to: 0.35)
        #expect(!cell.isHighlighted)
        d.send(.touchUp(id: 1), at: 0.4)
        #expect(selected.isEmpty)
        // A quick tap (lifted within the 150 ms hold, so the cell hears of it only at the lift)
        // on a row reloaded meanwhile: the cell was recycled and handed out again, maybe for
        // the same row, and still hears nothing of a touch that began on its old self.
        d.send(.touchDown(id: 3, position: Point(x: 200, y: 50)), at: 0.45)
        d.list.reloadRows(at: [0])
        d.send(.touchUp(id: 3), at: 0.5)
        #expect(selected.isEmpty)
        // The next tap selects as usual.
        d.send(.touchDown(id: 2, position: Point(x: 200, y: 50)), at: 0.6)
        d.send(.touchUp(id: 2), at: 0.65)
        #expect(selected == [0])
    }

    /// UIKit's `estimatedRowHeight = 0` ("no estimate"), set before the first load: rows are
    /// measured by their cells as they come into view, so an estimate there must be; 0, a
    /// negative or a non-finite one sets the default. An estimate of 0 put every row not yet
    /// measured at one place: the list showed its last row alone and could not scroll.
    @Test(arguments: [0.0, -10.0, .nan, .infinity])
    func anEstimateOfNoHeightIsTheDefault(estimate: Double) {
        final class Rows: ListDataSource {
            func numberOfRows(in list: ListView) -> Int { 100 }
            func list(_ list: ListView, cellForRow row: Int) -> ListCell {
                let cell = list.dequeueReusableCell(withIdentifier: "r")
                cell.textLabel.text = "row \(row)"
                return cell
            }
        }
        let rows = Rows()
        let window = Window(size: Size(width: 390, height: 844))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        list.register("r") { ListCell(reuseIdentifier: "r") }
        list.estimatedRowHeight = estimate
        #expect(list.estimatedRowHeight == ListView.defaultEstimatedRowHeight)
        list.dataSource = rows
        window.addSubview(list)
        list.reloadData()
        _ = try? window.prepareFrame(time: 0)
        let shown = list.visibleCells.keys.sorted()
        #expect(shown.first == 0 && shown.count > 10, "rows shown: \(shown)")
        #expect(list.rectForRow(1).minY == list.rectForRow(0).maxY && list.rectForRow(0).height > 0)
        list.scrollToRow(50)
        _ = try? window.prepareFrame(time: 0.1)
        #expect(list.visibleCells[50] != nil && list.contentOffset.y > 0)
    }

    @Test func reloadingARowMeasuresItAgainAndKeepsTheRowsInViewStill() {
        final class Rows: ListDataSource {
            var lines = Array(repeating: 1, count: 200)
            func numberOfRows(in list: ListView) -> Int { lines.count }
            func list(_ list: ListView, cellForRow row: Int) -> ListCell {
                let cell = list.dequeueReusableCell(withIdentifier: "r")
                cell.textLabel.text = Array(repeating: "row \(row)", count: lines[row]).joined(separator: "\n")
                return cell
            }
        }
        let rows = Rows()
        let window = Window(size: Size(width: 300, height: 600))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 300, height: 600))
        list.register("r") { ListCell(reuseIdentifier: "r") }
        list.estimatedRowHeight = 44  // one line: exact until a row grows
        list.dataSource = rows
        window.addSubview(list)
        list.reloadData()
        _ = try? window.prepareFrame(time: 0)  // rows 0 to 16 measured
        #expect(list.isRowMeasured(10))
        list.contentOffset = Point(x: 0, y: 44 * 50)  // rows 50... at the top
        _ = try? window.prepareFrame(time: 0.05)
        let oneLine = list.rectForRow(52).height
        let cell55 = list.visibleCells[55]!
        let y55 = cell55.convert(Point.zero, to: nil).y
        let height = list.contentSize.height
        // Row 52 (in view) and row 10 (above, measured long ago) grow to three lines.
        rows.lines[52] = 3
        rows.lines[10] = 3
        list.reloadRows(at: [52, 10])
        _ = try? window.prepareFrame(time: 0.1)
        let threeLines = list.rectForRow(52).height
        #expect(threeLines > oneLine)
        #expect(list.visibleCells[52]?.textLabel.text == "row 52\nrow 52\nrow 52")
        // Row 10 is not in view: back to the estimate until it is measured again.
        #expect(!list.isRowMeasured(10) && list.rectForRow(10).height == list.estimatedRowHeight)
        // The first row in view stayed put; the rows below row 52 moved down by its growth.
        #expect(list.visibleCells[50]!.convert(Point.zero, to: nil).y == 0)
        #expect(list.visibleCells[55]!.convert(Point.zero, to: nil).y == y55 + threeLines - oneLine)
        #expect(list.contentSize.height == height + (threeLines - oneLine))
    }

    /// Rows are measured at the window's scale (text is measured in device pixels, and wraps
    /// at other words at another scale), in a window made at that scale and in one moved to it:
    /// each row in view is as tall as its text at that scale. A new cell, measured before it
    /// joined the list, measured at 1 whatever the window's scale, and a window's new scale
    /// left the rows measured at the old one: a paragraph a line longer was cut.
    @Test(arguments: [1.25, 1.5, 1.75])
    func rowsAreMeasuredAtTheWindowsScale(scale: Double) throws {
        final class Paragraphs: ListDataSource {
            func numberOfRows(in list: ListView) -> Int { 1000 }
            func list(_ list: ListView, cellForRow row: Int) -> ListCell {
                let cell = list.dequeueReusableCell(withIdentifier: "text")
                cell.textLabel.text = Posts.body(3)
                return cell
            }
        }
        // Labels as wide as wraps the paragraph to another number of lines at `scale` than at 1.
        let font = try #require(Font.standard)
        let lines = { (width: Double, scale: Double) in
            font.layout(Posts.body(3), maxWidth: width, scale: scale).lines.count
        }
        let width = try #require((150...350).map(Double.init).first { lines($0, scale) != lines($0, 1) })
        func make(_ scale: Double) -> (Window, ListView) {
            let window = Window(size: Size(width: width + 32, height: 600), scale: scale)
            let list = ListView(frame: Rect(x: 0, y: 0, width: width + 32, height: 600))
            let rows = Paragraphs()
            window.retainedObjects.append(rows)
            list.register("text") { ListCell(reuseIdentifier: "text") }
            list.dataSource = rows
            window.addSubview(list)
            list.reloadData()
            window.layoutIfNeeded()
            return (window, list)
        }
        let (moved, list) = make(1)
        moved.scale = scale
        moved.layoutIfNeeded()
        let (_, expected) = make(scale)
        #expect(list.visibleCells.count >= 3 && list.visibleCells.count == expected.visibleCells.count)
        for (row, cell) in expected.visibleCells {
            let text = try #require(cell.textLabel.textLayout(scale: scale)).size.height
            #expect(expected.rectForRow(row).height == max(44, text.rounded(.up) + 20), "row \(row) at \(scale)")
        }
        for (row, cell) in list.visibleCells {
            #expect(list.rectForRow(row) == expected.rectForRow(row), "row \(row) moved to \(scale)")
            let text = try #require(cell.textLabel.textLayout(scale: scale)).size.height
            #expect(cell.textLabel.bounds.height >= text, "row \(row) moved to \(scale)")
        }
    }
}

/// A cell with constraints (a 20×20 badge pinned 8 px inside its trailing edge): recycled, it
/// waits hidden in the list (its constraints stay in the window's engine).
final class BadgeCell: ListCell {
    let badge = View()
    init() {
        super.init(reuseIdentifier: "badge")
        badge.translatesAutoresizingMaskIntoConstraints = false
        addSubview(badge)
        LayoutConstraint.activate([
            badge.trailingAnchor.constraint(equalTo: trailingAnchor, constant: -8),
            badge.centerYAnchor.constraint(equalTo: centerYAnchor),
            badge.widthAnchor.constraint(equalToConstant: 20),
            badge.heightAnchor.constraint(equalToConstant: 20),
        ])
    }
}

/// `count` rows of `BadgeCell`s, each titled by its row.
final class BadgeRows: ListDataSource {
    var count: Int
    init(count: Int) { self.count = count }
    func numberOfRows(in list: ListView) -> Int { count }
    func list(_ list: ListView, cellForRow row: Int) -> ListCell {
        let cell = list.dequeueReusableCell(withIdentifier: "badge")
        cell.textLabel.text = "row \(row)"
        return cell
    }

    /// A 300×600 window holding a list of these rows, loaded (the list holds them weakly).
    @MainActor func makeList() -> (Window, ListView) {
        let window = Window(size: Size(width: 300, height: 600))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 300, height: 600))
        list.register("badge") { BadgeCell() }
        list.dataSource = self
        window.addSubview(list)
        list.reloadData()
        return (window, list)
    }
}
