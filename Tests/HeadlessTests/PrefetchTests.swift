import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// A list's and a collection's prefetching (UIKit's `prefetchDataSource`): the rows a screen
/// beyond those with cells, in the way the view last moved, are asked for nearest first; those
/// that come into view leave quietly, those left behind unshown are cancelled; updates renumber
/// what was asked, a reload forgets it, and turning prefetching off cancels it.
@MainActor
@Suite struct PrefetchTests {
    /// Rows 40 high, so the rows in reach are worked out by hand.
    final class Rows: ListDataSource, ListPrefetchDataSource {
        var count: Int
        var asked: [[Int]] = []
        var cancelled: [[Int]] = []
        init(count: Int) { self.count = count }
        func numberOfRows(in list: ListView) -> Int { count }
        func list(_ list: ListView, cellForRow row: Int) -> ListCell { list.dequeueReusableCell(withIdentifier: "r") }
        func list(_ list: ListView, prefetchRowsAt rows: [Int]) { asked.append(rows) }
        func list(_ list: ListView, cancelPrefetchingForRowsAt rows: [Int]) { cancelled.append(rows) }
    }

    final class FixedCell: ListCell {
        override func sizeThatFits(_ size: Size) -> Size { Size(width: size.width, height: 40) }
    }

    /// A 320 × 480 list with `margin` 100: cells reach 100 px beyond the view, prefetching a
    /// screen (480 px) beyond that.
    func make(_ rows: Rows) -> (FrameDriver, ListView) {
        let window = Window(size: Size(width: 320, height: 480))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        // Rows not measured yet stand at the estimate: the window reaches by it.
        list.estimatedRowHeight = 40
        list.register("r") { FixedCell(reuseIdentifier: "r") }
        list.dataSource = rows
        list.prefetchDataSource = rows
        window.addSubview(list)
        list.reloadData()
        let driver = FrameDriver(window: window)
        driver.advance(by: 0.05)
        return (driver, list)
    }

    @Test func aListAsksForTheScreenAheadAndCancelsWhatItTurnsAwayFrom() {
        let rows = Rows(count: 1000)
        let (driver, list) = make(rows)
        withExtendedLifetime(rows) {
            // Cells for rows 0…14 (to y 580); ahead, to y 1060: rows 15…26, asked once.
            #expect(Set(list.visibleCells.keys) == Set(0...14))
            #expect(rows.asked == [Array(15...26)] && rows.cancelled.isEmpty)
            // Down to 400: cells 7…24 (y 300…980); ahead to 1460: rows 25…36. Rows 15…24 came
            // into view (no cancel); 25 and 26 were asked already.
            list.contentOffset = Point(x: 0, y: 400)
            driver.advance(by: 1 / 60)
            #expect(Set(list.visibleCells.keys) == Set(7...24))
            #expect(rows.asked.last == Array(27...36) && rows.cancelled.isEmpty)
            // Back up to 200: cells 2…19; behind them, rows 1 and 0, nearest first. Rows 25…36
            // are left behind unshown: cancelled.
            list.contentOffset = Point(x: 0, y: 200)
            driver.advance(by: 1 / 60)
            #expect(rows.asked.last == [1, 0])
            #expect(rows.cancelled == [Array(25...36)])
            // Still, nothing new is asked.
            let calls = rows.asked.count
            driver.advance(by: 0.5)
            #expect(rows.asked.count == calls && rows.cancelled.count == 1)
        }
    }

    @Test func updatesRenumberWhatWasAskedAReloadForgetsItAndOffCancelsIt() {
        let rows = Rows(count: 1000)
        let (driver, list) = make(rows)
        withExtendedLifetime(rows) {
            list.contentOffset = Point(x: 0, y: 400)
            driver.advance(by: 1 / 60)
            #expect(rows.asked == [Array(15...26), Array(27...36)])
            // Row 30 (asked) deleted: 31…36 are 30…35 now, and the window 25…36 wants 36.
            rows.count -= 1
            list.deleteRows(at: [30])
            driver.advance(by: 1 / 60)
            #expect(rows.asked.last == [36] && rows.cancelled.isEmpty)
            // Two rows inserted at the top: what is in view stays still, the rows it shows
            // numbered two more; the rows asked too (25…36 are 27…38), which is the window
            // now: nothing asked again, nothing cancelled.
            rows.count += 2
            list.insertRows(at: [0, 1])
            driver.advance(by: 1 / 60)
            #expect(Set(list.visibleCells.keys) == Set(9...26))
            #expect(rows.asked.count == 3 && rows.cancelled.isEmpty)
            // A reload forgets what was asked (the numbers may name other data): the window is
            // asked for again, nothing cancelled.
            list.reloadData()
            driver.advance(by: 1 / 60)
            #expect(rows.asked.last == Array(27...38) && rows.cancelled.isEmpty)
            // Off: what was asked and not shown is cancelled, and nothing more is asked.
            list.isPrefetchingEnabled = false
            #expect(rows.cancelled == [Array(27...38)])
            list.contentOffset = Point(x: 0, y: 2000)
            driver.advance(by: 1 / 60)
            #expect(rows.asked.count == 4)
        }
    }

    /// Items 100 × 100 in three columns with 8 px between rows (108 px a row), in a 320 × 480
    /// collection with `margin` 100.
    final class Items: CollectionViewDataSource, CollectionPrefetchDataSource {
        var asked: [[ItemPath]] = []
        var cancelled: [[ItemPath]] = []
        var count = 300
        func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { count }
        func collectionView(_ collectionView: CollectionView, cellForItemAt path: ItemPath) -> CollectionCell {
            collectionView.dequeueReusableCell(withIdentifier: "c")
        }
        func collectionView(_ collectionView: CollectionView, prefetchItemsAt paths: [ItemPath]) {
            asked.append(paths)
        }
        func collectionView(_ collectionView: CollectionView, cancelPrefetchingForItemsAt paths: [ItemPath]) {
            cancelled.append(paths)
        }
    }

    static func items(_ rows: ClosedRange<Int>) -> [ItemPath] {
        rows.flatMap { r in (0..<3).map { ItemPath(item: 3 * r + $0) } }
    }

    func makeGrid(_ items: Items) -> (FrameDriver, CollectionView) {
        let layout = FlowLayout()
        layout.itemSize = Size(width: 100, height: 100)
        layout.columnCount = 3
        let window = Window(size: Size(width: 320, height: 480))
        let grid = CollectionView(frame: Rect(x: 0, y: 0, width: 320, height: 480), layout: layout)
        grid.register("c") { CollectionCell(reuseIdentifier: "c") }
        grid.dataSource = items
        grid.prefetchDataSource = items
        window.addSubview(grid)
        grid.reloadData()
        let driver = FrameDriver(window: window)
        driver.advance(by: 0.05)
        return (driver, grid)
    }

    @Test func aCollectionAsksForTheScreenAheadAndCancelsWhatItTurnsAwayFrom() {
        let items = Items()
        let (driver, grid) = makeGrid(items)
        withExtendedLifetime(items) {
            // Cells for rows 0…5 (to y 580: row 5 spans 540…640); the screen beyond, y 580…1060,
            // meets rows 5…9, of which 6…9 have no cells.
            #expect(Set(grid.visibleCells.keys) == Set(Self.items(0...5)))
            #expect(items.asked == [Self.items(6...9)] && items.cancelled.isEmpty)
            // Down to 1080 in one jump: cells for rows 9…15 (y 980…1660); beyond, y 1660…2140,
            // rows 15…19, of which 16…19 have no cells.
            grid.contentOffset = Point(x: 0, y: 1080)
            driver.advance(by: 1 / 60)
            #expect(Set(grid.visibleCells.keys) == Set(Self.items(9...15)))
            #expect(items.asked.last == Self.items(16...19))
            // Rows 6…8, asked, were jumped over unshown: cancelled; row 9 came into view.
            #expect(items.cancelled == [Self.items(6...8)])
            // Up a little: cells for rows 8…14; behind, y 400…880, rows 3…8, of which 3…7 have
            // no cells, nearest first; rows 16…19 are left behind.
            grid.contentOffset = Point(x: 0, y: 980)
            driver.advance(by: 1 / 60)
            #expect(items.asked.last == Self.items(3...7).reversed())
            #expect(items.cancelled.last == Self.items(16...19))
            // A reload forgets (asks the window again, cancels nothing); off cancels.
            grid.reloadData()
            driver.advance(by: 1 / 60)
            #expect(items.asked.count == 4 && items.asked.last == Self.items(3...7).reversed())
            #expect(items.cancelled.count == 2)
            grid.isPrefetchingEnabled = false
            #expect(items.cancelled.last == Self.items(3...7))
        }
    }

    /// Item 0 deleted at the top: every item moves up a place, the items asked for too (18…29
    /// are 17…28), so of the window's (slots 18…29) only 29 is new, and 17, in view now,
    /// leaves quietly.
    @Test func aCollectionsUpdateRenumbersWhatWasAsked() {
        let items = Items()
        let (driver, grid) = makeGrid(items)
        withExtendedLifetime(items) {
            #expect(items.asked == [Self.items(6...9)])
            items.count = 299
            grid.deleteItems(at: [ItemPath(item: 0)])
            driver.advance(by: 1 / 60)
            #expect(items.asked.last == [ItemPath(item: 29)] && items.cancelled.isEmpty)
        }
    }
}
