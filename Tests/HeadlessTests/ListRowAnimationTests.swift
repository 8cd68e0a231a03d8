import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// Animated row updates (UITableView's `insertRows(at:with:)` and kin): the rows that stay
/// slide from where they stood on screen to their places over `rowAnimationDuration` on the
/// ease-in-out curve (half the time, half the way); rows come in and go out by fading or
/// sliding; what went is reused whole afterwards.
@MainActor
@Suite struct ListRowAnimationTests {
    typealias Items = ListReorderTests.Items

    /// A list of `count` rows at rest at time 0.05 (frame 3), no reordering.
    func make(_ count: Int) -> (Items, FrameDriver, ListView) {
        let items = Items(count: count)
        let (driver, list) = ListReorderTests().make(items)
        list.reordersRowsOnLongPress = false
        return (items, driver, list)
    }

    /// Frames up to half the animation's time (from 0.05: 0.2, frame 12), then to its end.
    func half(_ driver: FrameDriver) { driver.advance(to: 0.05 + ListView.rowAnimationDuration / 2) }
    func end(_ driver: FrameDriver) { driver.advance(to: 0.05 + ListView.rowAnimationDuration + 1 / 60) }

    /// Cells not in `visibleCells` still standing in the list, shown.
    func strayCells(_ list: ListView) -> [ListCell] {
        let kept = Set(list.visibleCells.values.map(ObjectIdentifier.init))
        return list.subviews.compactMap { $0 as? ListCell }.filter {
            !$0.isHidden && !kept.contains(ObjectIdentifier($0))
        }
    }

    @Test func insertedRowsFadeInAsTheRowsBelowSlideDown() throws {
        let (items, driver, list) = make(40)
        let oldFrames = (3..<8).map { list.rectForRow($0) }
        let cells = try (3..<8).map { try #require(list.visibleCells[$0]) }
        items.items.insert("New", at: 3)
        list.insertRows(at: [3], with: .fade)
        // Nothing has moved yet; the new row is clear, at its place.
        let new = try #require(list.visibleCells[3])
        #expect(new.alpha == 0 && new.frame == list.rectForRow(3) && new.textLabel.text == "New")
        for (cell, old) in zip(cells, oldFrames) { #expect(cell.frame == old) }
        let drop = list.rectForRow(3).height
        #expect(list.rectForRow(4).minY == oldFrames[0].minY + drop)
        half(driver)
        #expect(abs(new.alpha - 0.5) < 1e-9)
        for (cell, old) in zip(cells, oldFrames) { #expect(abs(cell.frame.minY - (old.minY + drop / 2)) < 1e-9) }
        #expect(list.hasRowAnimations)
        end(driver)
        #expect(new.alpha == 1)
        ListReorderTests().expectCellsMatch(list, items)
        #expect(!list.hasRowAnimations && !driver.window.hasActiveAnimations)
    }

    @Test func deletedRowsFadeWhereTheyStoodAndAreReusedWhole() throws {
        let (items, driver, list) = make(40)
        let gone = try #require(list.visibleCells[2])
        let goneFrame = gone.frame
        let below = try #require(list.visibleCells[3])
        let belowFrame = below.frame
        let lastWithCell = try #require(list.visibleCells.keys.max())
        items.items.remove(at: 2)
        list.deleteRows(at: [2], with: .automatic)
        // Rows brought in below start where they would have stood, sliding up with the others.
        let newcomers = list.visibleCells.filter { $0.key >= lastWithCell }
        #expect(!newcomers.isEmpty)
        for (row, cell) in newcomers { #expect(cell.frame.minY == list.rectForRow(row).minY + goneFrame.height) }
        // The deleted row's cell has left the rows but still shows where it stood, untouchable.
        #expect(list.visibleCells.values.allSatisfy { $0 !== gone })
        #expect(gone.superview === list && !gone.isHidden && gone.frame == goneFrame)
        #expect(!gone.isUserInteractionEnabled && list.subviews.first === gone)
        #expect(list.row(for: gone) == nil)
        #expect(list.visibleCells[2] === below && below.frame == belowFrame)
        half(driver)
        #expect(abs(gone.alpha - 0.5) < 1e-9)
        #expect(abs(below.frame.minY - (belowFrame.minY - goneFrame.height / 2)) < 1e-9)
        #expect(strayCells(list).count == 1 && strayCells(list).first === gone)
        // A screen reader, told it went, passes over it while it fades.
        let elements = list.accessibilityChildren(in: driver.window)
        #expect(!elements.contains { $0.view === gone })
        #expect(elements.contains { $0.view === below })
        #expect(list.accessibilityIndex(ofChild: gone, in: driver.window) == -1)
        end(driver)
        ListReorderTests().expectCellsMatch(list, items)
        #expect(strayCells(list).isEmpty)
        // Back in the pool, whole: the next row to need a cell gets it opaque and touchable.
        #expect(gone.alpha == 1 && gone.isUserInteractionEnabled && gone.frame.minX == 0)
        list.contentOffset = Point(x: 0, y: 900)
        driver.advance(by: 0.05)
        #expect(list.visibleCells.values.contains { $0 === gone })
        #expect(list.visibleCells.values.allSatisfy { $0.alpha == 1 && $0.isUserInteractionEnabled })
    }

    @Test func rowsSlideInAndOutAcross() throws {
        let (items, driver, list) = make(40)
        items.items.insert("From the left", at: 1)
        list.insertRows(at: [1], with: .left)
        let new = try #require(list.visibleCells[1])
        #expect(new.frame.minX == -320 && new.alpha == 1)
        half(driver)
        #expect(abs(new.frame.minX + 160) < 1e-9)
        end(driver)
        #expect(new.frame.minX == 0)
        let gone = try #require(list.visibleCells[4])
        items.items.remove(at: 4)
        list.deleteRows(at: [4], with: .right)
        driver.advance(to: driver.time + ListView.rowAnimationDuration / 2)
        #expect(abs(gone.frame.minX - 160) < 1e-9 && gone.alpha == 1)
        driver.advance(to: driver.time + ListView.rowAnimationDuration)
        ListReorderTests().expectCellsMatch(list, items)
        #expect(strayCells(list).isEmpty)
    }

    @Test func rowsComeOutFromBehindTheRowAboveAndGoDownBehindTheRowBelow() throws {
        let (items, driver, list) = make(40)
        // A cell waits in the pool, in front of the rows (removed, it stays where it stood).
        items.items.remove(at: 1)
        list.deleteRows(at: [1], with: .none)
        driver.advance(by: 0.05)
        let below = try #require(list.visibleCells[3])
        let belowFrame = below.frame
        items.items.insert("From above", at: 3)
        list.insertRows(at: [3], with: .top)
        let new = try #require(list.visibleCells[3])
        let place = list.rectForRow(3)
        let h = place.height
        // Its height up, behind every other row (the row above covers it), opaque.
        #expect(new.frame == place.offsetBy(dx: 0, dy: -h) && new.alpha == 1)
        #expect(list.subviews.first === new)
        let start = driver.time
        driver.advance(to: start + ListView.rowAnimationDuration / 2)
        // Half way down, its bottom on the top of the row below as that makes room.
        #expect(abs(new.frame.minY - (place.minY - h / 2)) < 1e-9)
        #expect(abs(below.frame.minY - (belowFrame.minY + h / 2)) < 1e-9)
        #expect(abs(new.frame.maxY - below.frame.minY) < 1e-9)
        driver.advance(to: start + ListView.rowAnimationDuration + 1 / 60)
        #expect(new.frame == place)
        ListReorderTests().expectCellsMatch(list, items)

        // Deleted with `.bottom`: down by its height behind the rows below, which close up.
        let gone = try #require(list.visibleCells[5])
        let goneFrame = gone.frame
        let next = try #require(list.visibleCells[6])
        items.items.remove(at: 5)
        list.deleteRows(at: [5], with: .bottom)
        #expect(gone.frame == goneFrame && list.subviews.first === gone)
        driver.advance(to: driver.time + ListView.rowAnimationDuration / 2)
        #expect(abs(gone.frame.minY - (goneFrame.minY + goneFrame.height / 2)) < 1e-9 && gone.alpha == 1)
        #expect(abs(next.frame.minY - (goneFrame.maxY - goneFrame.height / 2)) < 1e-9)
        driver.advance(to: driver.time + ListView.rowAnimationDuration)
        ListReorderTests().expectCellsMatch(list, items)
        #expect(strayCells(list).isEmpty)

        // Inserted with `.bottom`: up from its height below; deleted with `.top`: up by its height.
        items.items.insert("From below", at: 2)
        list.insertRows(at: [2], with: .bottom)
        let up = try #require(list.visibleCells[2])
        #expect(up.frame == list.rectForRow(2).offsetBy(dx: 0, dy: list.rectForRow(2).height))
        driver.advance(to: driver.time + ListView.rowAnimationDuration + 1 / 60)
        #expect(up.frame == list.rectForRow(2))
        let lifted = try #require(list.visibleCells[1])
        let liftedFrame = lifted.frame
        items.items.remove(at: 1)
        list.deleteRows(at: [1], with: .top)
        driver.advance(to: driver.time + ListView.rowAnimationDuration / 2)
        #expect(abs(lifted.frame.minY - (liftedFrame.minY - liftedFrame.height / 2)) < 1e-9)
        driver.advance(to: driver.time + ListView.rowAnimationDuration)
        ListReorderTests().expectCellsMatch(list, items)
        #expect(strayCells(list).isEmpty)
    }

    /// Cells with constraints wait hidden where they stood in the list's subviews, in front of
    /// rows perhaps: one taken for a row coming out from behind its neighbours goes behind them.
    @Test func aCellThatWaitedInFrontComesOutFromBehindToo() throws {
        let rows = BadgeRows(count: 1000)
        let (window, list) = rows.makeList()
        var time = 0.0
        for row in [500, 0, 700, 20, 0] {
            list.scrollToRow(row)
            time += 0.1
            _ = try window.prepareFrame(time: time)
        }
        #expect(list.subviews.contains { $0 is BadgeCell && $0.isHidden })
        rows.count += 1
        list.insertRows(at: [3], with: .top)
        let new = try #require(list.visibleCells[3])
        let at = try #require(list.subviews.index(ofIdentical: new))
        for (row, cell) in list.visibleCells where row != 3 {
            #expect(try #require(list.subviews.index(ofIdentical: cell)) > at, "row \(row)")
        }
    }

    @Test func aReloadCrossFadesAndTheRowsBelowFollowTheNewHeight() throws {
        let (items, driver, list) = make(40)
        let old = try #require(list.visibleCells[1])
        let oldHeight = list.rectForRow(1).height
        let next = try #require(list.visibleCells[2])
        let nextTop = next.frame.minY
        items.items[1] = "Reloaded\nnow with\nthree lines"
        list.reloadRows(at: [1], with: .fade)
        let new = try #require(list.visibleCells[1])
        #expect(new !== old && new.alpha == 0 && old.alpha == 1 && old.superview === list)
        let grew = list.rectForRow(1).height - oldHeight
        #expect(grew > 0)
        #expect(next.frame.minY == nextTop)
        half(driver)
        #expect(abs(new.alpha - 0.5) < 1e-9 && abs(old.alpha - 0.5) < 1e-9)
        #expect(abs(next.frame.minY - (nextTop + grew / 2)) < 1e-9)
        end(driver)
        ListReorderTests().expectCellsMatch(list, items)
        #expect(strayCells(list).isEmpty)
    }

    @Test func anAnimatedMoveSlidesTheRowAndThoseBetween() throws {
        let (items, driver, list) = make(40)
        let moving = try #require(list.visibleCells[1])
        let from = moving.frame.minY
        items.items.insert(items.items.remove(at: 1), at: 4)
        list.moveRow(at: 1, to: 4, animated: true)
        #expect(list.visibleCells[4] === moving && moving.frame.minY == from)
        let to = list.rectForRow(4).minY
        half(driver)
        #expect(abs(moving.frame.minY - (from + to) / 2) < 1e-9)
        end(driver)
        ListReorderTests().expectCellsMatch(list, items)
    }

    @Test func aCellReusedDuringTheUpdateMovesWithItsNewNeighbours() throws {
        let (items, driver, list) = make(40)
        let last = try #require(list.visibleCells.keys.max())
        let height = list.rectForRow(1).height
        let moving = try #require(list.visibleCells[1])
        // Row 1 moves far below: its cell leaves the rows in view and is reused at once for the
        // row that comes in at the bottom. That row slides up with the rows around it; it does
        // not fly down from where the cell stood as row 1.
        items.items.insert(items.items.remove(at: 1), at: 30)
        list.moveRow(at: 1, to: 30, animated: true)
        let newcomer = try #require(list.visibleCells[last])
        #expect(newcomer === moving)
        #expect(newcomer.frame.minY == list.rectForRow(last).minY + height)
        let neighbour = try #require(list.visibleCells[last - 1])
        #expect(neighbour.frame.minY == list.rectForRow(last - 1).minY + height)
        end(driver)
        ListReorderTests().expectCellsMatch(list, items)
    }

    @Test func rowsStillOnScreenDoNotMoveAndAScrollPutsRowsInPlace() throws {
        let (items, driver, list) = make(60)
        list.contentOffset = Point(x: 0, y: 600)
        driver.advance(by: 0.05)
        let firstInView = try #require(list.visibleCells.keys.sorted().first { list.rectForRow($0).maxY > 600 })
        let cell = try #require(list.visibleCells[firstInView + 1])
        let screenY = cell.frame.minY - list.bounds.minY
        // Inserted above the viewport: the rows in view keep their places on screen.
        items.items.insert("Above", at: 0)
        list.insertRows(at: [0], with: .fade)
        #expect(cell.frame.minY - list.bounds.minY == screenY)
        driver.advance(by: 0.05)
        #expect(cell.frame.minY - list.bounds.minY == screenY)
        // Inserted in view, then scrolled at once: the cells reused meanwhile come whole.
        items.items.insert("In view", at: firstInView + 3)
        list.insertRows(at: [firstInView + 3], with: .fade)
        list.contentOffset = Point(x: 0, y: 3000)
        driver.advance(by: 0.05)
        #expect(list.visibleCells.values.allSatisfy { $0.alpha == 1 })
        driver.settle()
        ListReorderTests().expectCellsMatch(list, items)
        #expect(strayCells(list).isEmpty)
        #expect(list.visibleCells.values.allSatisfy { $0.alpha == 1 && $0.frame.minX == 0 })
    }

    /// Rows measured above the viewport while rows slide (a scroll up into rows not yet
    /// measured) move the rows in view in the list and the offset with them: the slides go on
    /// from where they stand to the rows' new places, and a row going out stays among them.
    @Test func rowsMeasuredAboveWhileRowsSlideKeepTheSlidesGoing() throws {
        let (items, driver, list) = make(400)
        list.scrollToRow(300)
        driver.advance(by: 0.05)
        let first = try #require(list.visibleCells.keys.sorted().first { list.rectForRow($0).minY >= list.bounds.minY })
        let gone = try #require(list.visibleCells[first + 2])
        let goneFrame = gone.frame
        let h = goneFrame.height
        let stays = try #require(list.visibleCells[first + 4])
        let start = driver.time
        items.items.remove(at: first + 2)
        list.deleteRows(at: [first + 2], with: .fade)
        // A quarter of the way in, a scroll up brings in rows above, measured, not as
        // estimated: the rows in view move, and the offset with them.
        driver.advance(to: start + ListView.rowAnimationDuration / 4)
        let asked = list.contentOffset.y - 150
        list.contentOffset = Point(x: 0, y: asked)
        driver.advance(by: 1 / 60)
        let dy = list.contentOffset.y - asked
        #expect(dy != 0, "no row above was measured other than its estimate")
        #expect(list.visibleCells[first + 3] === stays)
        // Half the time: half the way to its new place, as the rest of the way was.
        driver.advance(to: start + ListView.rowAnimationDuration / 2)
        #expect(abs(stays.frame.minY - (list.rectForRow(first + 3).minY + h / 2)) < 1e-9)
        // The row going out moved with its neighbours.
        #expect(abs(gone.frame.minY - (goneFrame.minY + dy)) < 1e-9 && gone.alpha > 0)
        driver.advance(to: start + ListView.rowAnimationDuration + 1 / 60)
        ListReorderTests().expectCellsMatch(list, items)
        #expect(strayCells(list).isEmpty)
    }

    /// A second update that moves the offset (a row inserted above the viewport, whose rows
    /// keep their places on screen) leaves the first's rows going out where they stand.
    @Test func rowsGoingOutStayPutWhenALaterUpdateMovesTheOffset() throws {
        let (items, driver, list) = make(60)
        list.contentOffset = Point(x: 0, y: 600)
        driver.advance(by: 0.05)
        let first = try #require(list.visibleCells.keys.sorted().first { list.rectForRow($0).minY >= 600 })
        let faded = try #require(list.visibleCells[first + 1])
        let slid = try #require(list.visibleCells[first + 4])
        let fadedScreen = faded.frame.minY - list.bounds.minY
        let slidScreen = slid.frame.minY - list.bounds.minY
        items.items.remove(at: first + 4)
        list.deleteRows(at: [first + 4], with: .left)
        items.items.remove(at: first + 1)
        list.deleteRows(at: [first + 1], with: .fade)
        let start = driver.time
        driver.advance(to: start + ListView.rowAnimationDuration / 2)
        #expect(abs(slid.frame.minX + 160) < 1e-9)
        items.items.insert("Above", at: 0)
        list.insertRows(at: [0], with: .fade)
        #expect(list.contentOffset.y != 600)
        #expect(faded.frame.minY - list.bounds.minY == fadedScreen)
        #expect(abs(slid.frame.minY - list.bounds.minY - slidScreen) < 1e-9)
        // The slide goes on across, from where it was.
        driver.advance(to: start + ListView.rowAnimationDuration * 3 / 4)
        #expect(abs(slid.frame.minY - list.bounds.minY - slidScreen) < 1e-9)
        #expect(slid.frame.minX < -160 && slid.frame.minX > -320)
        driver.settle()
        ListReorderTests().expectCellsMatch(list, items)
        #expect(strayCells(list).isEmpty)
    }

    /// A cell whose row goes at once while it slides (an update without animation during an
    /// animated one) goes to the pool, out of the list; taken from there at once for a
    /// measured row whose place is where the cell stands, it shows that row there, not sliding
    /// on to the place of the row it showed before.
    @Test func aCellReusedBeforeTheNextFrameLeavesItsLastRowsSlideBehind() throws {
        let (items, driver, list) = make(40)
        items.items = (0..<40).map { "Item \($0)" }
        list.reloadData()
        // The rows below those in view measured too.
        list.contentOffset = Point(x: 0, y: 400)
        driver.advance(by: 0.05)
        list.contentOffset = .zero
        driver.advance(by: 0.05)
        let h = list.rectForRow(0).height
        #expect(list.rectForRow(13).minY == 13 * h && list.visibleCells.keys.max() == 13)
        // Rows 4 and 5 go: every row below slides up two places, row 11's cell from row 13's
        // place, where it still stands.
        items.items.removeSubrange(4...5)
        list.deleteRows(at: [4, 5], with: .fade)
        let cell = try #require(list.visibleCells[11])
        #expect(cell.frame.minY == 13 * h)
        // Row 11 goes at once: its cell, reused for row 13, is at row 13's place already.
        items.items.remove(at: 11)
        list.deleteRows(at: [11])
        #expect(list.visibleCells[13] === cell && cell.frame == list.rectForRow(13))
        driver.settle()
        ListReorderTests().expectCellsMatch(list, items)
        #expect(strayCells(list).isEmpty)
    }

    @Test func headersSlideWithTheirRows() throws {
        let items = Items(count: 60)
        items.indexed = true
        let (driver, list) = ListReorderTests().make(items)
        list.reordersRowsOnLongPress = false
        let header = try #require(list.visibleHeaders[1])
        let top = header.frame.minY
        // A row added to the first section (sections start every fourth row): the second's
        // header makes room with its rows.
        items.items.insert("New\nwith\nfour\nlines", at: 2)
        list.insertRows(at: [2], with: .fade)
        let moved = try #require(list.visibleHeaders[1])
        let to = list.rectForHeader(inSection: 1).minY
        #expect(to > top && moved.frame.minY == top)
        half(driver)
        #expect(abs(moved.frame.minY - (top + to) / 2) < 1e-9)
        end(driver)
        #expect(moved.frame.minY == to)
    }

    /// Two animated updates in one turn (as UITableView's batch): the rows slide once, from
    /// where they stood before the first to their places after the second.
    @Test func twoUpdatesInOneTurnSlideOnceFromBeforeTheFirstToAfterTheSecond() throws {
        let (items, driver, list) = make(40)
        let cell = try #require(list.visibleCells[4])
        let from = cell.frame.minY
        items.items.remove(at: 1)
        list.deleteRows(at: [1], with: .fade)
        items.items.insert("New\nwith\nthree lines", at: 2)
        list.insertRows(at: [2], with: .fade)
        // Row 4 is row 4 again (one row went above it, one came), its cell still where it stood.
        #expect(list.visibleCells[4] === cell && cell.frame.minY == from)
        let to = list.rectForRow(4).minY
        #expect(to != from)
        half(driver)
        #expect(abs(cell.frame.minY - (from + to) / 2) < 1e-9)
        end(driver)
        ListReorderTests().expectCellsMatch(list, items)
        #expect(strayCells(list).isEmpty && !list.hasRowAnimations)
    }

    /// A row deleted and one as tall inserted in its place in one turn: the rows below end
    /// where they stood, their slide to where the deletion alone would have put them ended
    /// (it took them a row too high, and they stayed there).
    @Test func rowsBackWhereTheyStoodAfterTwoUpdatesStayThere() throws {
        let (items, driver, list) = make(40)
        let cell = try #require(list.visibleCells[5])
        let from = cell.frame
        items.items.remove(at: 2)
        list.deleteRows(at: [2], with: .fade)
        items.items.insert("New", at: 2)
        list.insertRows(at: [2], with: .fade)
        #expect(list.visibleCells[5] === cell && list.rectForRow(5) == from && cell.frame == from)
        half(driver)
        #expect(cell.frame == from)
        end(driver)
        #expect(cell.frame == from)
        ListReorderTests().expectCellsMatch(list, items)
        #expect(strayCells(list).isEmpty && !list.hasRowAnimations)
    }

    @Test func withoutAnimationOrAWindowEverythingIsInPlaceAtOnce() throws {
        let (items, _, list) = make(40)
        items.items.insert("New", at: 2)
        list.insertRows(at: [2], with: .none)
        ListReorderTests().expectCellsMatch(list, items)
        #expect(!list.hasRowAnimations)
        list.removeFromSuperview()
        items.items.remove(at: 5)
        list.deleteRows(at: [5], with: .fade)
        ListReorderTests().expectCellsMatch(list, items)
        #expect(strayCells(list).isEmpty && !list.hasRowAnimations)
    }
}
