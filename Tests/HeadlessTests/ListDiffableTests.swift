import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// A list shown from snapshots: the rows, headers and index the snapshot makes; an update
/// that asks only for the items that are new or reloaded while the others keep their cells and
/// stay still on screen; animated updates that end where the snapshot says; hand moves
/// written back into the snapshot in the section the list showed.
@MainActor
@Suite struct ListDiffableTests {
    typealias Source = ListDiffableDataSource<String, String>

    /// A 320×480 list of 40-high rows (SectionListRig's) on a diffable data source whose cells
    /// show their items; the items the provider was asked for, in order.
    @MainActor
    final class Rig {
        let window: Window
        let driver: FrameDriver
        let list: ListView
        let source: Source
        private let log = Log()
        var asked: [String] {
            get { log.items }
            set { log.items = newValue }
        }
        final class Log { var items: [String] = [] }

        init(_ snapshot: DataSourceSnapshot<String, String>, headers: Bool = true) {
            let made = SectionListRig.make(SectionListRig.Rows())
            (window, driver, list) = made
            source = Source(list: made.list) { [log] list, _, item in
                log.items.append(item)
                let cell = list.dequeueReusableCell(withIdentifier: "r")
                cell.textLabel.text = item
                return cell
            }
            if headers { source.titleForHeader = { "Section \($0)" } }
            source.apply(snapshot, animatingDifferences: false)
            driver.advance(by: 0.05)
        }

        /// The items the cells in view show, by row.
        var shown: [Int: String] { list.visibleCells.mapValues { $0.textLabel.text } }

        /// Whether every cell in view shows its row's item.
        func cellsMatch() -> Bool {
            !list.visibleCells.isEmpty
                && list.visibleCells.allSatisfy { row, cell in cell.textLabel.text == source.itemIdentifier(forRow: row)
                }
        }
    }

    /// Sections "A", "B", "C" of `count` items "A0"...
    static func snapshot(_ count: Int = 10) -> DataSourceSnapshot<String, String> {
        var s = DataSourceSnapshot<String, String>()
        for name in ["A", "B", "C"] {
            s.appendSections([name])
            s.appendItems((0..<count).map { "\(name)\($0)" })
        }
        return s
    }

    @Test func aSnapshotShowsItsRowsHeadersAndIndex() throws {
        let rig = Rig(Self.snapshot())
        #expect(rig.source.numberOfRows(in: rig.list) == 30 && rig.source.sectionStarts(in: rig.list) == [0, 10, 20])
        #expect(
            rig.shown[0] == "A0" && rig.source.itemIdentifier(forRow: 12) == "B2" && rig.source.row(for: "C9") == 29)
        // The first header, then ten rows of 40, then B's.
        #expect(rig.list.rectForRow(0).minY == 32 && rig.list.rectForRow(10).minY == 32 + 400 + 32)
        #expect(rig.list.visibleHeaders[1]?.textLabel.text == "Section B")
        // No title, no header: nothing above the first row.
        let plain = Rig(Self.snapshot(), headers: false)
        #expect(plain.list.rectForRow(0).minY == 0 && plain.list.rectForRow(10).minY == 400)
        rig.source.sectionIndexTitle = { $0 == "B" ? nil : $0.lowercased() }
        #expect(rig.source.sectionIndexTitles(in: rig.list) == ["a", "c"])
        #expect(rig.source.list(rig.list, sectionForSectionIndexTitle: "c", at: 1) == 2)
    }

    /// An insert, a delete, a move and a reload at once, unanimated: the provider is asked for
    /// the new and the reloaded items only, every other row in view keeps its very cell, and
    /// the rows show the snapshot's order.
    @Test func onlyNewAndReloadedItemsAreAskedForAndTheRestKeepTheirCells() throws {
        let rig = Rig(Self.snapshot())
        let before = rig.list.visibleCells
        var s = rig.source.snapshot()
        s.deleteItems(["A3"])
        s.insertItems(["N"], afterItem: "A5")
        s.moveItem("A1", afterItem: "A8")
        s.reloadItems(["A6"])
        rig.asked = []
        rig.source.apply(s, animatingDifferences: false)
        rig.driver.advance(by: 0.05)
        #expect(rig.asked.sorted() == ["A6", "N"])
        #expect(
            (0..<10).map { rig.source.itemIdentifier(forRow: $0)! } == [
                "A0", "A2", "A4", "A5", "N", "A6", "A7", "A8", "A1", "A9",
            ])
        #expect(rig.cellsMatch())
        for cell in before.values {
            let item = cell.textLabel.text
            guard item != "A3", item != "A6", let now = rig.source.row(for: item) else { continue }
            #expect(rig.list.visibleCells[now] === cell, "\(item) got a new cell")
        }
        // Applying the same snapshot again changes and asks for nothing.
        rig.asked = []
        rig.source.apply(rig.source.snapshot(), animatingDifferences: false)
        rig.driver.advance(by: 0.05)
        #expect(rig.asked.isEmpty && rig.cellsMatch())
    }

    /// Items inserted above the rows in view (a feed's new posts): the rows in view stay where
    /// they are on screen.
    @Test func itemsInsertedAboveTheRowsInViewLeaveThemStill() throws {
        let rig = Rig(Self.snapshot(20))
        rig.list.contentOffset = Point(x: 0, y: 1_000)
        rig.driver.advance(by: 0.05)
        let row = try #require(rig.source.row(for: "B5"))
        let y = rig.list.convert(rig.list.rectForRow(row), to: nil).minY
        var s = rig.source.snapshot()
        s.insertItems(["n0", "n1", "n2"], beforeItem: "A0")
        s.appendSections(["New"])
        s.moveSection("New", beforeSection: "A")
        s.appendItems(["n3"], toSection: "New")
        rig.source.apply(s)
        rig.driver.settle()
        let now = try #require(rig.source.row(for: "B5"))
        #expect(now == row + 4)
        #expect(rig.list.convert(rig.list.rectForRow(now), to: nil).minY == y)
        #expect(rig.cellsMatch())
    }

    /// The first row in view moved far away in one batch: the view stays with the rows that
    /// stay (A7 keeps its place on screen), where it had followed the moved row down the list.
    @Test func aRowMovedAwayFromTheTopOfTheViewDoesNotTakeTheViewWithIt() throws {
        let rig = Rig(Self.snapshot(20))
        rig.list.contentOffset = Point(x: 0, y: 32 + 5 * 40)  // A5 at the top
        rig.driver.advance(by: 0.05)
        #expect(
            rig.list.visibleCells.first { $0.value.frame.minY == rig.list.bounds.minY }?.value.textLabel.text == "A5")
        let y = rig.list.convert(rig.list.rectForRow(7), to: nil).minY
        var s = rig.source.snapshot()
        s.moveItem("A5", afterItem: "C19")
        s.moveItem("A6", afterItem: "C3")
        rig.asked = []
        rig.source.apply(s, animatingDifferences: false)
        rig.driver.advance(by: 0.05)
        let row = try #require(rig.source.row(for: "A7"))
        #expect(row == 5 && rig.list.convert(rig.list.rectForRow(row), to: nil).minY == y)
        #expect(rig.cellsMatch())
        // Two rows came up from below the view to fill its bottom.
        #expect(rig.asked.count <= 2)
    }

    /// A row added above the view and the rows below it deleted, so that the list, kept still,
    /// would stand past its new end: it rests at the end at once, asking again for no row it
    /// kept in view (it had gone past the end first, recycling rows at the top of the view,
    /// and come back asking for them).
    @Test func rowsDeletedBelowAListNearItsEndLeaveItAtTheNewEndWithItsCells() throws {
        var s = DataSourceSnapshot<String, String>()
        for (name, count) in [("A", 6), ("B", 8), ("C", 22)] {
            s.appendSections([name])
            s.appendItems((0..<count).map { "\(name)\($0)" })
        }
        let rig = Rig(s)
        rig.list.contentOffset = Point(x: 0, y: 307)
        rig.driver.advance(by: 0.05)
        let before = rig.list.visibleCells.values.map(\.textLabel.text)
        s.deleteSections(["C"])
        s.deleteItems(["B3"])
        s.appendItems(["A6"], toSection: "A")
        rig.asked = []
        rig.source.apply(s, animatingDifferences: false)
        rig.driver.advance(by: 0.05)
        #expect(rig.list.contentOffset.y == rig.list.contentSize.height - 480)
        let after = Set(rig.list.visibleCells.values.map(\.textLabel.text))
        #expect(Set(rig.asked).isDisjoint(with: Set(before).intersection(after)), "asked again: \(rig.asked)")
        #expect(rig.cellsMatch())
    }

    /// Reconfigured items keep their very cells: the provider is handed each one's own cell
    /// (not prepared for reuse), the selection stays, and a cell that grows is measured
    /// again, the rows below moving down while the first row in view stays.
    @Test func reconfiguredItemsAreConfiguredAgainInTheirOwnCells() throws {
        final class Counted: ListCell {
            var reuses = 0
            override func prepareForReuse() {
                super.prepareForReuse()
                reuses += 1
            }
        }
        let made = SectionListRig.make(SectionListRig.Rows())
        let (window, driver, list) = made
        list.register("c") { Counted(reuseIdentifier: "c") }
        final class Model {
            var texts: [String: String] = [:]
            var handed: [String: ListCell] = [:]
        }
        let model = Model()
        let source = ListDiffableDataSource<String, String>(list: list) { list, _, item in
            let cell = list.dequeueReusableCell(withIdentifier: "c")
            model.handed[item] = cell
            cell.textLabel.text = model.texts[item] ?? item
            return cell
        }
        source.apply(Self.snapshot(), animatingDifferences: false)
        driver.advance(by: 0.05)
        list.selectRow(2)
        let cell = try #require(list.visibleCells[2] as? Counted)
        let reuses = cell.reuses
        let below = list.rectForRow(3).minY
        model.texts["A2"] = "A2, now\nwith a second line"
        var s = source.snapshot()
        s.reconfigureItems(["A2", "C9"])  // C9 is out of view: nothing to do
        model.handed = [:]
        source.apply(s, animatingDifferences: false)
        driver.advance(by: 0.05)
        #expect(Array(model.handed.keys) == ["A2"] && model.handed["A2"] === cell)
        #expect(list.visibleCells[2] === cell && cell.reuses == reuses)
        #expect(cell.textLabel.text.hasPrefix("A2, now") && list.selectedRows == [2])
        #expect(list.rectForRow(2).height > 40 && list.rectForRow(3).minY > below)
        #expect(cell.frame == list.rectForRow(2))
        #expect(source.snapshot().reconfiguredItemIdentifiers.isEmpty)
        _ = window
    }

    /// Inside a batch, the rows to reconfigure are named as they are after it, and are
    /// configured once it is applied, in their own cells; a row the data source answers with
    /// a cell of another kind is reloaded instead.
    @Test func rowsReconfiguredInABatchAreConfiguredAfterIt() throws {
        final class Rows: ListDataSource {
            var items = (0..<40).map { "Item \($0)" }
            var plain: Set<Int> = []
            var asked: [Int] = []
            func numberOfRows(in list: ListView) -> Int { items.count }
            func list(_ list: ListView, cellForRow row: Int) -> ListCell {
                asked.append(row)
                let cell = list.dequeueReusableCell(withIdentifier: plain.contains(row) ? "p" : "r")
                cell.textLabel.text = items[row]
                return cell
            }
        }
        let rows = Rows()
        let (window, driver, list) = SectionListRig.make(rows) { $0.register("p") { ListCell(reuseIdentifier: "p") } }
        let second = try #require(list.visibleCells[1])
        rows.asked = []
        list.performBatchUpdates {
            rows.items.remove(at: 0)
            list.deleteRows(at: [0])
            rows.items[0] = "Item 1, changed"
            list.reconfigureRows(at: [0])
        }
        driver.advance(by: 0.05)
        // (The row the deletion brought in at the bottom was asked for too.)
        #expect(rows.asked.filter { $0 == 0 }.count == 1 && list.visibleCells[0] === second)
        #expect(second.textLabel.text == "Item 1, changed")
        // Another kind of cell: reloaded, a new cell in its place.
        let third = try #require(list.visibleCells[2])
        rows.plain = [2]
        list.reconfigureRows(at: [2])
        driver.advance(by: 0.05)
        let now = try #require(list.visibleCells[2])
        #expect(now !== third && now.reuseIdentifier == "p" && now.textLabel.text == rows.items[2])
        _ = window
    }

    /// Animated in a window: the rows slide and fade, and `completion` runs once they are in
    /// place, not before.
    @Test func anAnimatedApplyEndsWhereTheSnapshotSaysAndThenCompletes() throws {
        let rig = Rig(Self.snapshot())
        var s = rig.source.snapshot()
        s.deleteItems(["A0", "A1"])
        s.moveItem("A9", beforeItem: "A2")
        s.appendItems(["A10"], toSection: "A")
        var done = 0
        rig.source.apply(s) { done += 1 }
        #expect(done == 0)
        rig.driver.advance(by: 0.05)
        #expect(done == 0)
        rig.driver.settle()
        #expect(done == 1)
        #expect(
            (0..<9).map { rig.source.itemIdentifier(forRow: $0)! } == [
                "A9", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A10",
            ])
        #expect(rig.cellsMatch())
        let first = try #require(rig.list.visibleCells[0])
        #expect(first.textLabel.text == "A9" && first.frame.minY == rig.list.rectForRow(0).minY)
    }

    /// A row lifted by hand and dropped at a section's edge stays in the section it came from,
    /// as the list showed it; the snapshot holds the move and the app hears of it.
    @Test func aRowMovedByHandJoinsTheSectionTheListShowedItIn() throws {
        let rig = Rig(Self.snapshot())
        rig.source.canMoveItem = { _ in true }
        var heard: [(String, [String])] = []
        rig.source.didReorder = { item, snapshot in heard.append((item, snapshot.itemIdentifiers(inSection: "A"))) }
        // Each row's data source ↔ list rule: from above to the edge row 9 stays in A.
        rig.source.list(rig.list, moveRowAt: 2, to: 9)
        #expect(rig.source.snapshot().itemIdentifiers(inSection: "A").last == "A2")
        rig.source.list(rig.list, moveRowAt: 15, to: 10)
        #expect(rig.source.snapshot().itemIdentifiers(inSection: "B").first == "B5")
        rig.source.list(rig.list, moveRowAt: 15, to: 9)
        #expect(
            rig.source.snapshot().itemIdentifiers(inSection: "A") == [
                "A0", "A1", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "B4", "A2",
            ])
        #expect(rig.source.sectionStarts(in: rig.list) == [0, 11, 20] && heard.count == 3 && heard.last?.0 == "B4")
        rig.list.reloadData()
        rig.driver.advance(by: 0.05)

        // By hand: row 1 lifted and carried to the bottom of section A, past its last row's
        // middle (the edge: B's header below).
        #expect(rig.list.beginInteractiveMovementForRow(1))
        let lastOfA = rig.list.rectForRow(10)
        rig.list.updateInteractiveMovementTargetPosition(Point(x: 160, y: lastOfA.midY + 5))
        rig.driver.advance(by: 0.05)
        rig.list.endInteractiveMovement()
        rig.driver.settle()
        #expect(heard.last?.0 == "A1" && heard.last?.1.last == "A1")
        #expect(rig.source.sectionStarts(in: rig.list) == [0, 11, 20])
        #expect(rig.cellsMatch())
    }

    /// The app applies a snapshot as it hears of a row dropped by hand (`didReorder`): the
    /// update names rows in the order the drop made, and the list is in that order, not with
    /// the dropped row put back where it was lifted (every row between showed its neighbour).
    @Test func aSnapshotAppliedWhenARowIsDroppedFindsTheListInTheDroppedOrder() throws {
        let rig = Rig(Self.snapshot())
        rig.source.canMoveItem = { _ in true }
        rig.source.didReorder = { [unowned rig] _, snapshot in
            var s = snapshot
            s.insertItems(["N"], beforeItem: "A0")
            rig.source.apply(s, animatingDifferences: false)
        }
        #expect(rig.list.beginInteractiveMovementForRow(1))
        rig.list.updateInteractiveMovementTargetPosition(Point(x: 160, y: rig.list.rectForRow(4).midY + 5))
        rig.driver.advance(by: 0.05)
        rig.list.endInteractiveMovement()
        rig.driver.settle()
        #expect((0..<6).map { rig.source.itemIdentifier(forRow: $0)! } == ["N", "A0", "A2", "A3", "A4", "A1"])
        #expect(rig.cellsMatch())
    }

    /// The same from a screen reader's "Move down": the list makes the move before the
    /// update the app applies on hearing of it, and does not make it again after.
    @Test func aSnapshotAppliedWhenAReaderMovesARowFindsTheListInTheNewOrder() throws {
        let rig = Rig(Self.snapshot())
        rig.source.canMoveItem = { _ in true }
        rig.list.reordersRowsOnLongPress = true
        rig.source.didReorder = { [unowned rig] _, snapshot in
            var s = snapshot
            s.insertItems(["N"], beforeItem: "A0")
            rig.source.apply(s, animatingDifferences: false)
        }
        rig.driver.advance(by: 0.05)
        let cell = try #require(rig.list.visibleCells[2])
        let down = try #require(cell.accessibilityCustomActions.first { $0.name == "Move down" })
        #expect(down.handler())
        rig.driver.settle()
        #expect((0..<5).map { rig.source.itemIdentifier(forRow: $0)! } == ["N", "A0", "A1", "A3", "A2"])
        #expect(rig.list.visibleCells[4] === cell && rig.cellsMatch())
    }

    /// The texts an app shows for its items, by item (the item's name where none is set).
    final class Texts { var texts: [String: String] = [:] }

    /// A data source on `list` whose cells show `Texts`' text for their items.
    static func textsSource(on list: ListView) -> (Texts, Source) {
        let model = Texts()
        let source = Source(list: list) { list, _, item in
            let cell = list.dequeueReusableCell(withIdentifier: "r")
            cell.textLabel.text = model.texts[item] ?? item
            return cell
        }
        return (model, source)
    }

    /// An item reconfigured while a row is moved by hand: the cell of the item is configured
    /// again, wherever the lifted row stands, not the cell of the row the item had before.
    @Test func anItemReconfiguredWhileARowIsMovedByHandIsTheOneConfigured() throws {
        let made = SectionListRig.make(SectionListRig.Rows())
        let (model, source) = Self.textsSource(on: made.list)
        source.canMoveItem = { _ in true }
        source.apply(Self.snapshot(), animatingDifferences: false)
        made.driver.advance(by: 0.05)
        let lifted = try #require(made.list.visibleCells[1])
        #expect(made.list.beginInteractiveMovementForRow(1))
        made.list.updateInteractiveMovementTargetPosition(Point(x: 160, y: made.list.rectForRow(3).midY + 5))
        made.driver.advance(by: 0.05)
        #expect(made.list.interactiveMovementRow == 3)
        model.texts["A1"] = "A1, changed"
        var s = source.snapshot()
        s.reconfigureItems(["A1"])
        source.apply(s, animatingDifferences: false)
        made.driver.advance(by: 0.05)
        #expect(lifted.textLabel.text == "A1, changed")
        for (row, cell) in made.list.visibleCells where cell !== lifted {
            #expect(!cell.textLabel.text.hasPrefix("A1"), "row \(row)")
        }
    }

    /// The app reconfigures the item a screen reader moved as it hears of the move
    /// (`didReorder`): the item's own cell is configured again, no other row's.
    @Test func anItemReconfiguredWhenAReaderMovesItIsTheOneConfigured() throws {
        let rig = Rig(Self.snapshot())
        let (model, source) = Self.textsSource(on: rig.list)
        source.canMoveItem = { _ in true }
        source.apply(Self.snapshot(), animatingDifferences: false)
        rig.list.reordersRowsOnLongPress = true
        source.didReorder = { [unowned source] item, snapshot in
            model.texts[item] = "\(item), moved"
            var s = snapshot
            s.reconfigureItems([item])
            source.apply(s, animatingDifferences: false)
        }
        rig.driver.advance(by: 0.05)
        let cell = try #require(rig.list.visibleCells[2])
        let down = try #require(cell.accessibilityCustomActions.first { $0.name == "Move down" })
        #expect(down.handler())
        rig.driver.settle()
        #expect(rig.list.visibleCells[3] === cell && cell.textLabel.text == "A2, moved")
        #expect(rig.list.visibleCells[2]?.textLabel.text == "A3")
    }

    /// The cell provider applies a snapshot that takes items away while rows are reconfigured:
    /// the list asks for no more rows (the next, past the new count, trapped in the source)
    /// and reloads once it is done, every cell in view showing its row.
    @Test func aSnapshotAppliedFromTheProviderWhileRowsAreReconfiguredIsShownAfter() throws {
        let made = SectionListRig.make(SectionListRig.Rows())
        final class Box {
            var source: Source?
            var armed = false
        }
        let box = Box()
        box.source = Source(list: made.list) { list, _, item in
            if item == "A0", box.armed, let source = box.source {
                box.armed = false
                var s = source.snapshot()
                s.deleteItems(["B0", "B1"])
                source.apply(s, animatingDifferences: false)
            }
            let cell = list.dequeueReusableCell(withIdentifier: "r")
            cell.textLabel.text = item
            return cell
        }
        let source = try #require(box.source)
        source.apply(Self.snapshot(3), animatingDifferences: false)
        made.driver.advance(by: 0.05)
        var s = source.snapshot()
        s.reconfigureItems(["A0", "C2"])
        box.armed = true
        source.apply(s, animatingDifferences: false)
        made.driver.settle()
        #expect(made.list.rowCount == 7)
        for (row, cell) in made.list.visibleCells {
            #expect(cell.textLabel.text == source.itemIdentifier(forRow: row), "row \(row)")
        }
    }

    /// The cell provider applies a snapshot (the app's model changed as an item showed): the
    /// cell it was making is not kept at the row the item had, whose row is another's now; the
    /// list reloads once it has asked for its cells, every cell in view showing its row.
    @Test func aSnapshotAppliedFromTheCellProviderLeavesNoCellOnAnotherRow() throws {
        let made = SectionListRig.make(SectionListRig.Rows())
        final class Box { var source: Source? }
        let box = Box()
        var applied = 0
        box.source = Source(list: made.list) { list, _, item in
            if item == "B5", applied == 0, let source = box.source {
                var s = source.snapshot()
                s.deleteItems(["A0"])
                source.apply(s, animatingDifferences: false) { applied += 1 }
            }
            let cell = list.dequeueReusableCell(withIdentifier: "r")
            cell.textLabel.text = item
            return cell
        }
        let source = try #require(box.source)
        source.apply(Self.snapshot(), animatingDifferences: false)
        made.driver.advance(by: 0.05)
        made.list.contentOffset = Point(x: 0, y: 300)
        made.driver.settle()
        #expect(applied == 1 && made.list.rowCount == 29)
        #expect(!made.list.visibleCells.isEmpty)
        for (row, cell) in made.list.visibleCells {
            #expect(cell.textLabel.text == source.itemIdentifier(forRow: row), "row \(row)")
        }
    }

    /// Sections only: an empty section added shows its header, a section's title changed is
    /// read again, and no row is asked for.
    @Test func sectionChangesAloneReadTheHeadersAgain() throws {
        let rig = Rig(Self.snapshot(3))
        var s = rig.source.snapshot()
        s.insertSections(["Empty"], afterSection: "A")
        rig.asked = []
        rig.source.titleForHeader = { $0 == "B" ? "Bees" : "Section \($0)" }
        rig.source.apply(s, animatingDifferences: false)
        rig.driver.advance(by: 0.05)
        #expect(rig.asked.isEmpty)
        #expect(rig.list.visibleHeaders[1]?.textLabel.text == "Section Empty")
        #expect(rig.list.visibleHeaders[2]?.textLabel.text == "Bees")
        // Two headers stacked between A's last row and B's first.
        #expect(rig.list.rectForRow(3).minY - rig.list.rectForRow(2).maxY == 64)
    }
}
