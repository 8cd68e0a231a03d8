import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// Rows moved: by the app (`moveRow(at:to:)`) and by hand (a long press lifts a row, a drag
/// takes it to another place, the list scrolling by itself near its ends), the data source
/// told once, when it is dropped.
@MainActor
@Suite struct ListReorderTests {
    /// Items of one or two lines (every third has a second): rows of two heights. Row 0 is
    /// pinned (it may not move).
    final class Items: ListDataSource {
        var items: [String]
        var moves: [(Int, Int)] = []
        /// Sections of 4 rows, "A" to "Z" down a section index.
        var indexed = false
        init(count: Int) {
            items = (0..<count).map { $0 % 3 == 0 ? "Item \($0)\nwith a second line" : "Item \($0)" }
        }
        func numberOfRows(in list: ListView) -> Int { items.count }
        /// Rows asked for that the model does not have.
        var outOfRange: [Int] = []
        func list(_ list: ListView, cellForRow row: Int) -> ListCell {
            let cell = list.dequeueReusableCell(withIdentifier: "r")
            if row >= items.count { outOfRange.append(row) }
            cell.textLabel.text = row < items.count ? items[row] : "?"
            return cell
        }
        func list(_ list: ListView, canMoveRow row: Int) -> Bool { row != 0 }
        /// Whether row 0 stays first: a row is never taken there.
        var keepsFirst = false
        func list(_ list: ListView, targetRowForMoveFrom source: Int, toProposedRow proposed: Int) -> Int {
            keepsFirst ? max(1, proposed) : proposed
        }
        func sectionStarts(in list: ListView) -> [Int] { indexed ? (0..<26).map { $0 * 4 } : [] }
        func sectionIndexTitles(in list: ListView) -> [String] {
            indexed ? (0..<26).map { String(UnicodeScalar(UInt8(65 + $0))) } : []
        }
        func list(_ list: ListView, moveRowAt source: Int, to destination: Int) {
            moves.append((source, destination))
            items.insert(items.remove(at: source), at: destination)
        }
    }

    func make(_ items: Items) -> (FrameDriver, ListView) {
        let window = Window(size: Size(width: 320, height: 480))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        list.register("r") { ListCell(reuseIdentifier: "r") }
        list.dataSource = items
        list.reordersRowsOnLongPress = true
        window.addSubview(list)
        list.reloadData()
        let driver = FrameDriver(window: window)
        driver.advance(by: 0.05)
        return (driver, list)
    }

    /// Every cell in view shows the model's item for its row, at its row's rect or on its way
    /// there (rows making room for a lifted one slide aside).
    func expectCellsMatch(_ list: ListView, _ items: Items, skipping lifted: Int? = nil) {
        for (row, cell) in list.visibleCells where row != lifted {
            #expect(cell.textLabel.text == items.items[row], "row \(row)")
            #expect(Self.destination(cell) == list.rectForRow(row), "row \(row)'s frame")
        }
    }

    /// Where `view` is going: its frame once its slide ends (its frame when none runs).
    static func destination(_ view: View) -> Rect {
        guard let end = view.animationTargets else { return view.frame }
        return Rect(
            x: end.center.x - end.bounds.width / 2, y: end.center.y - end.bounds.height / 2, width: end.bounds.width,
            height: end.bounds.height)
    }

    @Test func moveRowTakesTheCellAndItsHeightAndKeepsTheOffset() throws {
        let items = Items(count: 60)
        let (driver, list) = make(items)
        list.contentOffset = Point(x: 0, y: 100)
        driver.advance(by: 0.05)
        let cell = try #require(list.visibleCells[3])
        let tall = list.rectForRow(3).height
        #expect(tall > list.rectForRow(4).height)  // two lines against one
        let below = list.rectForRow(9).minY
        let fifthTop = list.rectForRow(5).minY
        items.items.insert(items.items.remove(at: 3), at: 7)
        list.moveRow(at: 3, to: 7)
        driver.advance(by: 0.05)
        #expect(list.visibleCells[7] === cell && list.rectForRow(7).height == tall)
        #expect(list.contentOffset.y == 100)
        // The rows between moved up a place, by the moved row's height; those after it stay.
        #expect(list.rectForRow(4).minY == fifthTop - tall)
        #expect(list.rectForRow(9).minY == below)
        expectCellsMatch(list, items)
        // One the data source does not agree with (no such row) is refused and reloads.
        list.moveRow(at: 3, to: 60)
        expectCellsMatch(list, items)
    }

    /// Held half a second, a row lifts; dragged down it takes the place of each row whose
    /// middle it passes (they move up for it, the list stays still), and dropped there the data
    /// source hears of the one move.
    @Test func aLongPressLiftsARowThatADragMovesAndTheDropTellsTheDataSourceOnce() throws {
        let items = Items(count: 40)
        let (driver, list) = make(items)
        var drags = 0
        list.panGestureRecognizer.addAction { g in if g.state == .began { drags += 1 } }
        let start = list.convert(list.rectForRow(2), to: nil)
        let lifted = try #require(list.visibleCells[2])
        // Down 130 px after the hold, in 10 px steps, then held (not lifted).
        let p = Point(x: 160, y: start.midY)
        let moves = (1...13).map { (t: 600 + 16 * Double($0), to: p + Point(x: 0, y: 10 * Double($0))) }
        let end = driver.send(from: driver.time + 0.05) { $0.touch(from: p, at: 0, moves: moves, liftAt: nil, id: 1) }
        driver.advance(to: end + 0.05)
        // It floats where the finger holds it, highlighted, over the rows.
        #expect(lifted.isHighlighted)
        #expect(lifted.frame.minY == start.minY + 130)
        // Its middle passed the middles of rows 3, 4 and 5 (44, 44 and 64 px tall below its 64):
        // it stands at 5, they at 2 to 4.
        let now = try #require(list.interactiveMovementRow)
        var passed = 2
        while passed + 1 < 40,
            lifted.frame.midY > list.rectForRow(passed + 1).midY
        {
            passed += 1
        }
        #expect(now == passed && now > 2)
        #expect(list.visibleCells[now] === lifted)
        // The others show the rows as they stand, though the model has not moved yet.
        for (row, cell) in list.visibleCells where row != now {
            let model = row < 2 || row > now ? row : row + 1
            #expect(cell.textLabel.text == items.items[model] && Self.destination(cell) == list.rectForRow(row))
        }
        #expect(items.moves.isEmpty && list.contentOffset.y == 0 && drags == 0)
        // Dropped: the data source moves it once, and the cells show the new order.
        driver.send(.touchUp(id: 1), at: driver.time + 0.01)
        driver.send(.touchFrame, at: driver.time)
        driver.settle()
        #expect(items.moves.count == 1 && items.moves.first! == (2, now))
        #expect(items.items[now] == "Item 2")
        #expect(!lifted.isHighlighted && list.interactiveMovementRow == nil)
        expectCellsMatch(list, items)
        #expect(list.visibleCells.values.allSatisfy { $0.animationTargets == nil }, "every row settled")
    }

    /// Held near the bottom edge, the lifted row scrolls the list by itself, faster the
    /// deeper into the band, taking the place of the rows that come under it; the rows brought
    /// in meanwhile show their own items; dropped, the model moves it once, far down.
    @Test func aRowHeldNearTheBottomScrollsTheListOnAndDropsFarBelow() throws {
        let items = Items(count: 200)
        let (driver, list) = make(items)
        let p = list.convert(list.rectForRow(4), to: nil).center
        // Lifted, then down to 10 px above the bottom edge, and held there 1.5 s.
        let to = Point(x: 160, y: 470)
        let moves = (1...10).map { (t: 600 + 16 * Double($0), to: p + (to - p) * (Double($0) / 10)) }
        let end = driver.send(from: driver.time + 0.05) { $0.touch(from: p, at: 0, moves: moves, liftAt: nil, id: 1) }
        driver.advance(to: end + 0.1)
        let early = list.contentOffset.y
        #expect(early > 0)
        driver.advance(by: 1.4)
        // 50 px into the 60 px band: five sixths of 1,200 px/s, about 1,400 px in 1.4 s.
        let travelled = list.contentOffset.y - early
        #expect(travelled > 1_300 && travelled < 1_500)
        let now = try #require(list.interactiveMovementRow)
        #expect(now > 30)
        let lifted = try #require(list.visibleCells[now])
        #expect(lifted.textLabel.text == "Item 4")
        // Held by its middle where the finger is.
        #expect(lifted.convert(lifted.bounds, to: nil).midY == to.y)
        for (row, cell) in list.visibleCells where row != now {
            #expect(cell.textLabel.text == items.items[row < 4 || row > now ? row : row + 1])
        }
        // Then up to the top band for half a second: the list scrolls back up, and the rows
        // that come in above it (between its old and new places) show theirs.
        let up = Point(x: 160, y: 20)
        let back = driver.send(from: driver.time + 0.01) {
            $0.move(id: 1, through: [to + (up - to) * 0.5, up], after: 0)
        }
        driver.advance(to: back + 0.5)
        let high = try #require(list.interactiveMovementRow)
        #expect(high < now - 10 && high > 4)
        for (row, cell) in list.visibleCells where row != high {
            #expect(cell.textLabel.text == items.items[row < 4 || row > high ? row : row + 1], "row \(row)")
        }
        // Down again, past where it was, and dropped there.
        let down = driver.send(from: driver.time + 0.01) { $0.move(id: 1, through: [Point(x: 160, y: 240)], after: 0) }
        driver.advance(to: down + 0.05)
        let dropped = try #require(list.interactiveMovementRow)
        driver.send(.touchUp(id: 1), at: driver.time + 0.01)
        driver.send(.touchFrame, at: driver.time)
        driver.settle()
        #expect(items.moves.count == 1 && items.moves.first! == (4, dropped) && items.items[dropped] == "Item 4")
        expectCellsMatch(list, items)
        // It stopped scrolling with the drop.
        let offset = list.contentOffset.y
        driver.advance(by: 0.5)
        #expect(list.contentOffset.y == offset)
    }

    /// Frames far apart (a stall, a window whose frames are throttled) while the list scrolls
    /// by itself: it covers the same distance, and the lifted row stays lifted under the finger
    /// (a jump of a whole screenful recycled its cell, and the movement was dropped).
    @Test func longFramesWhileTheListScrollsByItselfKeepTheRowLifted() throws {
        let items = Items(count: 200)
        let window = Window(size: Size(width: 320, height: 480))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        list.register("r") { ListCell(reuseIdentifier: "r") }
        list.dataSource = items
        window.addSubview(list)
        list.reloadData()
        let driver = FrameDriver(window: window, refresh: 1.5)
        driver.advance(by: 0.05)
        #expect(list.beginInteractiveMovementForRow(3))
        let finger = Point(x: 160, y: 470)
        list.updateInteractiveMovementTargetPosition(finger)
        driver.advance(by: 1.4)
        // 50 px into the band: 1,000 px/s for the two frames' 1.33 s.
        #expect(list.contentOffset.y > 1_200)
        let now = try #require(list.interactiveMovementRow)
        let lifted = try #require(list.visibleCells[now])
        #expect(lifted.textLabel.text == items.items[3] && lifted.isHighlighted)
        #expect(lifted.convert(lifted.bounds, to: nil).midY == finger.y)
        list.endInteractiveMovement()
        #expect(items.moves.count == 1 && items.moves.first! == (3, now))
    }

    /// The app inserts or deletes rows while a row is lifted far from its place (its model
    /// first, as it must): the movement is dropped, and the list asks only for rows the model
    /// has, by their new indices (the cancel that ran first asked by the old ones: after an
    /// insert above, rows in view showed their neighbours' items; after a delete of most
    /// rows, it asked for rows the model no longer had).
    @Test func rowsInsertedOrDeletedWhileARowIsLiftedShowTheModel() throws {
        for deleting in [false, true] {
            let items = Items(count: 200)
            let (driver, list) = make(items)
            #expect(list.beginInteractiveMovementForRow(1))
            list.updateInteractiveMovementTargetPosition(Point(x: 160, y: 470))
            driver.advance(by: 0.5)
            #expect((list.interactiveMovementRow ?? 0) > 15)
            if deleting {
                items.items.removeLast(195)
                list.deleteRows(at: Array(5..<200))
            } else {
                items.items.insert(contentsOf: ["New 0", "New 1", "New 2"], at: 0)
                list.insertRows(at: [0, 1, 2])
            }
            driver.advance(by: 0.05)
            #expect(list.interactiveMovementRow == nil && items.moves.isEmpty)
            #expect(items.outOfRange.isEmpty, "asked for \(items.outOfRange)")
            #expect(!list.visibleCells.isEmpty)
            expectCellsMatch(list, items)
            #expect(list.visibleCells.values.allSatisfy { !$0.isHighlighted })
        }
    }

    /// A long press on a row that may not move lifts nothing, and a drag that moves before the
    /// half second scrolls the list as ever. A movement cancelled puts the row back, and the
    /// data source hears nothing.
    @Test func pinnedRowsStayQuickDragsScrollAndACancelPutsTheRowBack() throws {
        let items = Items(count: 40)
        let (driver, list) = make(items)
        let first = list.convert(list.rectForRow(0), to: nil).center
        driver.send(from: driver.time + 0.05) { $0.tap(at: first, at: 0, hold: 800) }
        driver.settle()
        #expect(list.interactiveMovementRow == nil && list.visibleCells[0]?.isHighlighted == false)
        #expect(!list.beginInteractiveMovementForRow(0))
        let p = list.convert(list.rectForRow(5), to: nil).center
        driver.send(from: driver.time + 0.05) { $0.flick(from: p, by: Point(x: 0, y: -200), at: 0) }
        driver.settle()
        #expect(list.contentOffset.y > 200 && list.interactiveMovementRow == nil && items.moves.isEmpty)

        list.setContentOffset(.zero, animated: false)
        driver.advance(by: 0.05)
        #expect(list.beginInteractiveMovementForRow(3))
        list.updateInteractiveMovementTargetPosition(Point(x: 160, y: list.rectForRow(8).midY))
        #expect(list.interactiveMovementRow == 7 || list.interactiveMovementRow == 8)
        list.cancelInteractiveMovement()
        driver.advance(by: 0.05)
        #expect(list.interactiveMovementRow == nil && items.moves.isEmpty)
        expectCellsMatch(list, items)
    }

    /// The rows a lifted row passes slide aside to their new places over
    /// `ListView.rowAnimationDuration`, from where they stood, as UIKit's make room; passed back
    /// before its slide ends, a row turns round from where it is; the dropped row settles from
    /// where the finger left it into its place; a cancel slides the rows back.
    @Test func passedRowsSlideAsideAndTheDroppedRowSettles() throws {
        let items = Items(count: 40)
        let (driver, list) = make(items)
        let duration = ListView.rowAnimationDuration
        #expect(list.beginInteractiveMovementForRow(1))
        let lifted = try #require(list.visibleCells[1])
        let second = try #require(list.visibleCells[2])
        let was = second.frame
        // The lifted row's middle past row 2's (44 px, below the 64-px row 1): they swap.
        list.updateInteractiveMovementTargetPosition(Point(x: 160, y: was.midY + 6))
        #expect(list.interactiveMovementRow == 2 && list.visibleCells[1] === second)
        let place = list.rectForRow(1)
        #expect(place.minY < was.minY)
        // Still where it stood, on its way up; the lifted row under the finger, on its way
        // nowhere.
        #expect(second.frame == was && Self.destination(second) == place)
        #expect(lifted.animationTargets == nil)
        driver.advance(by: duration / 2)
        #expect(second.frame.minY < was.minY && second.frame.minY > place.minY, "half way: \(second.frame)")
        // Passed back before it arrives: it turns round from where it is, down to where it was.
        let halfway = second.frame.minY
        list.updateInteractiveMovementTargetPosition(Point(x: 160, y: list.rectForRow(1).midY - 16))
        #expect(list.interactiveMovementRow == 1 && list.visibleCells[2] === second)
        #expect(second.frame.minY == halfway && Self.destination(second) == was)
        driver.advance(by: duration + 0.05)
        #expect(second.frame == was && second.animationTargets == nil)

        // Past rows 2 to 4 again and dropped: the rows between are in place once their slides
        // end, and the dropped row settles from the finger into row 4.
        list.updateInteractiveMovementTargetPosition(Point(x: 160, y: list.rectForRow(4).midY + 10))
        #expect(list.interactiveMovementRow == 4)
        let held = lifted.frame
        list.endInteractiveMovement()
        #expect(items.moves.count == 1 && items.moves[0] == (1, 4))
        #expect(lifted.frame == held && Self.destination(lifted) == list.rectForRow(4) && !lifted.isHighlighted)
        driver.advance(by: duration / 2)
        #expect(lifted.frame != held && lifted.frame != list.rectForRow(4))
        driver.settle()
        #expect(lifted.frame == list.rectForRow(4) && list.visibleCells[4] === lifted)
        expectCellsMatch(list, items)
        #expect(list.visibleCells.values.allSatisfy { $0.animationTargets == nil })

        // Cancelled: the passed rows slide back, the row settles back into its place.
        #expect(list.beginInteractiveMovementForRow(6))
        let sixth = try #require(list.visibleCells[6])
        let seventh = try #require(list.visibleCells[7])
        let seventhWas = seventh.frame
        list.updateInteractiveMovementTargetPosition(Point(x: 160, y: seventhWas.midY + 10))
        #expect(list.interactiveMovementRow == 7)
        driver.advance(by: duration + 0.05)
        let aside = list.rectForRow(6)
        #expect(seventh.frame == aside)
        list.cancelInteractiveMovement()
        #expect(seventh.frame == aside && Self.destination(seventh) == seventhWas)
        driver.settle()
        #expect(seventh.frame == seventhWas && sixth.frame == list.rectForRow(6) && items.moves.count == 1)
        expectCellsMatch(list, items)
    }

    /// Items with a section index ("A" to "Z"): a finger held on the index reads it, and lifts
    /// no row under it; held on the row beside it, it lifts that row.
    @Test func aFingerHeldOnTheSectionIndexLiftsNoRow() throws {
        let items = Items(count: 104)
        items.indexed = true
        let (driver, list) = make(items)
        let index = try #require(list.subviews.first { $0.resolvedAccessibility.label == "Section index" })
        let column = index.convert(index.bounds, to: nil)
        let row = try #require((1..<list.rowCount).first { list.convert(list.rectForRow($0), to: nil).minY > 200 })
        let y = list.convert(list.rectForRow(row), to: nil).midY
        let held = Point(x: column.midX, y: y)
        driver.send(from: driver.time + 0.05) { $0.touch(from: held, at: 0, moves: [], liftAt: nil, id: 1) }
        driver.advance(by: 0.9)
        #expect(list.interactiveMovementRow == nil)
        driver.send(.touchUp(id: 1), at: driver.time + 0.01)
        driver.send(.touchFrame, at: driver.time)
        driver.settle()
        #expect(items.moves.isEmpty)
        // Beside it, on the row there now (the index jumped the list), the same hold lifts it.
        let at = Point(x: 160, y: y)
        let under = try #require(list.visibleCells.first { list.convert($0.value.frame, to: nil).contains(at) })
        driver.send(from: driver.time + 0.05) { $0.touch(from: at, at: 0, moves: [], liftAt: nil, id: 1) }
        driver.advance(by: 0.9)
        #expect(list.interactiveMovementRow == under.key)
        list.cancelInteractiveMovement()
        driver.send(.touchUp(id: 1), at: driver.time + 0.01)
        driver.settle()
    }

    /// A screen reader cannot drag: a row that may move offers "Move up" and "Move down",
    /// which move it a place in the model and the list, its cell with it; a row that may not
    /// move offers neither, asked again for each cell whose row a move changed (the first
    /// place is pinned here, whichever row stands in it). Without long-press reordering the
    /// actions are not offered.
    @Test func aReaderMovesARowAPlaceAtATime() throws {
        let items = Items(count: 40)
        let (driver, list) = make(items)
        let cell = try #require(list.visibleCells[3])
        let text = items.items[3]
        #expect(cell.accessibilityCustomActions.map(\.name) == ["Move up", "Move down"])
        #expect(list.visibleCells[0]?.accessibilityCustomActions.isEmpty == true)
        #expect(cell.accessibilityCustomActions[1].handler())
        driver.advance(by: 0.05)
        #expect(items.moves.count == 1 && items.moves.first! == (3, 4))
        #expect(list.visibleCells[4] === cell && cell.textLabel.text == text)
        expectCellsMatch(list, items)
        #expect(cell.accessibilityCustomActions[0].handler())
        #expect(cell.accessibilityCustomActions[0].handler())
        #expect(cell.accessibilityCustomActions[0].handler())
        driver.advance(by: 0.05)
        #expect(list.visibleCells[1] === cell && items.items[1] == text)
        // It may pass the pinned first row (which may not move itself), and stops at the top.
        #expect(cell.accessibilityCustomActions[0].handler())
        driver.advance(by: 0.05)
        #expect(items.moves.count == 5 && list.visibleCells[0] === cell && items.items[0] == text)
        expectCellsMatch(list, items)
        // The pinned row, a place down now, may move there: it offers the moves; the row at
        // the top, which may not, offers none.
        let pinned = try #require(list.visibleCells[1])
        #expect(pinned.textLabel.text == "Item 0\nwith a second line")
        #expect(pinned.accessibilityCustomActions.map(\.name) == ["Move up", "Move down"])
        #expect(cell.accessibilityCustomActions.isEmpty)
        let top = try #require(list.visibleCells[0])
        list.reordersRowsOnLongPress = false
        #expect(top.accessibilityCustomActions.isEmpty)
    }

    /// A row dragged from section A into section B: while it moves, every other row stays
    /// under its own section's header (the headers move with the rows the lifted one passes);
    /// dragged back to the edge of A it is still in A.
    @Test func whileARowMovesAcrossSectionsEveryOtherRowStaysUnderItsHeader() throws {
        let book = ListSectionIndexTests.Book()
        book.movable = true
        let (driver, list) = ListSectionIndexTests().make(book)
        let letters = ListSectionIndexTests.letters
        func rowsUnderTheirHeaders(lifted: Int) {
            for (row, cell) in list.visibleCells where row != lifted {
                let section = list.section(containingRow: row) ?? -1
                #expect(
                    cell.textLabel.text.hasPrefix(letters[max(0, section)] + " "),
                    "row \(row), '\(cell.textLabel.text)', under \(section)")
            }
        }
        #expect(list.beginInteractiveMovementForRow(2))
        list.updateInteractiveMovementTargetPosition(Point(x: 150, y: list.rectForRow(11).midY + 2))
        driver.advance(by: 0.05)
        let lifted = try #require(list.interactiveMovementRow)
        #expect(lifted >= 10)
        rowsUnderTheirHeaders(lifted: lifted)
        // B starts a row earlier (A lent it the lifted row); the lifted row is in B.
        #expect(list.section(containingRow: 7) == 1 && list.section(containingRow: lifted) == 1)
        // Back up to just below A's last row: the edge; it stays in A, where it came from.
        list.updateInteractiveMovementTargetPosition(Point(x: 150, y: list.rectForRow(6).maxY + 10))
        driver.advance(by: 0.05)
        let edge = try #require(list.interactiveMovementRow)
        rowsUnderTheirHeaders(lifted: edge)
        #expect(list.section(containingRow: edge) == 0)
        list.cancelInteractiveMovement()
        driver.advance(by: 0.05)
        rowsUnderTheirHeaders(lifted: -1)
        #expect(book.moves.isEmpty)
    }

    /// The data source redirects a move (`targetRowForMoveFrom`): with the first row kept
    /// first, a row dragged above it stops at 1, dropped there, and a reader's "Move up" from 1
    /// does nothing.
    @Test func theDataSourceKeepsARowOutOfPlacesItMayNotTake() throws {
        let items = Items(count: 40)
        items.keepsFirst = true
        let (driver, list) = make(items)
        let first = items.items[0]
        #expect(list.beginInteractiveMovementForRow(4))
        list.updateInteractiveMovementTargetPosition(Point(x: 160, y: 2))
        driver.advance(by: 0.05)
        #expect(list.interactiveMovementRow == 1)
        list.endInteractiveMovement()
        driver.advance(by: 0.05)
        #expect(items.moves.count == 1 && items.moves.first! == (4, 1) && items.items[0] == first)
        expectCellsMatch(list, items)
        let cell = try #require(list.visibleCells[1])
        let up = try #require(cell.accessibilityCustomActions.first { $0.name == "Move up" })
        #expect(!up.handler() && items.moves.count == 1)
        // Without it, the same drag takes the first place.
        items.keepsFirst = false
        #expect(list.beginInteractiveMovementForRow(4))
        list.updateInteractiveMovementTargetPosition(Point(x: 160, y: 2))
        #expect(list.interactiveMovementRow == 0)
        list.cancelInteractiveMovement()
    }
}
