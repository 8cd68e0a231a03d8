import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// A list's selection, as UITableView's: a tapped row stays selected (drawn so) until another
/// is, or the app deselects it; several at once with `allowsMultipleSelection`, a second tap
/// deselecting; the selected rows follow their rows through inserts, deletes and moves, and
/// a reload clears them.
@MainActor
@Suite struct ListSelectionTests {
    typealias Items = ListReorderTests.Items

    func tap(_ row: Int, _ list: ListView, _ driver: FrameDriver) {
        let p = list.convert(list.rectForRow(row), to: nil).center
        driver.send(from: driver.time + 0.05) { $0.tap(at: p, at: 0, hold: 60) }
        driver.settle()
    }

    @Test func aTappedRowStaysSelectedUntilAnotherIs() throws {
        let items = Items(count: 60)
        let (driver, list) = ListReorderTests().make(items)
        var selected: [Int] = []
        list.onSelectRow = { selected.append($0) }
        tap(3, list, driver)
        #expect(list.selectedRow == 3 && list.selectedRows == [3] && selected == [3])
        let third = try #require(list.visibleCells[3])
        #expect(third.isSelected && third.backgroundColor == third.selectedColor)
        #expect(third.resolvedAccessibility.role == .listItem)
        #expect(third.accessibilityExtraStates.contains(.selected))
        tap(5, list, driver)
        #expect(list.selectedRows == [5] && selected == [3, 5])
        #expect(!third.isSelected && third.backgroundColor == third.normalColor)
        #expect(list.visibleCells[5]?.isSelected == true)

        // It follows its row: two rows inserted above, one deleted above, a move.
        items.items.insert(contentsOf: ["new a", "new b"], at: 0)
        list.insertRows(at: [0, 1])
        #expect(list.selectedRows == [7] && list.visibleCells[7]?.isSelected == true)
        items.items.remove(at: 2)
        list.deleteRows(at: [2])
        #expect(list.selectedRows == [6])
        items.items.insert(items.items.remove(at: 6), at: 1)
        list.moveRow(at: 6, to: 1)
        #expect(list.selectedRows == [1] && list.visibleCells[1]?.isSelected == true)
        #expect(list.visibleCells.filter { $0.value.isSelected }.map(\.key) == [1])
        // Scrolled far away and back: the cells reused meanwhile show their own rows' state.
        list.scrollToRow(59)
        driver.advance(by: 0.05)
        #expect(list.visibleCells.values.allSatisfy { !$0.isSelected })
        list.scrollToRow(0)
        driver.advance(by: 0.05)
        #expect(list.visibleCells.filter { $0.value.isSelected }.map(\.key) == [1])
        // Its row deleted, nothing is selected; a reload clears a selection too.
        items.items.remove(at: 1)
        list.deleteRows(at: [1])
        #expect(list.selectedRow == nil)
        list.selectRow(4)
        #expect(list.selectedRows == [4] && selected == [3, 5])  // the app's own: no callback
        list.reloadData()
        #expect(list.selectedRow == nil)
    }

    @Test func severalRowsAtOnceASecondTapDeselects() throws {
        let items = Items(count: 40)
        let (driver, list) = ListReorderTests().make(items)
        list.reordersRowsOnLongPress = false
        list.allowsMultipleSelection = true
        var heard: [String] = []
        list.onSelectRow = { heard.append("select \($0)") }
        list.onDeselectRow = { heard.append("deselect \($0)") }
        tap(2, list, driver)
        tap(6, list, driver)
        tap(4, list, driver)
        #expect(list.selectedRows == [2, 4, 6])
        tap(6, list, driver)
        #expect(list.selectedRows == [2, 4] && heard == ["select 2", "select 6", "select 4", "deselect 6"])
        #expect(list.visibleCells[6]?.isSelected == false && list.visibleCells[4]?.isSelected == true)
        // A reader hears a list that takes several, and which rows are selected.
        let window = try #require(list.window)
        let node = try #require(list.accessibilityNode(in: window))
        #expect(node.states.contains(.multiselectable))
        let picked = node.children.filter { $0.states.contains(.selected) }.map(\.label)
        #expect(picked == [2, 4].compactMap { list.visibleCells[$0]?.textLabel.text } && picked.count == 2)
        // A row lifted and moved keeps its selection.
        list.reordersRowsOnLongPress = true
        #expect(list.beginInteractiveMovementForRow(4))
        list.updateInteractiveMovementTargetPosition(Point(x: 160, y: list.rectForRow(9).midY + 2))
        let to = try #require(list.interactiveMovementRow)
        list.endInteractiveMovement()
        driver.advance(by: 0.05)
        #expect(list.selectedRows == [2, to] && list.visibleCells[to]?.isSelected == true)
        // Back to one at a time: the first stays.
        list.allowsMultipleSelection = false
        #expect(list.selectedRows == [2])
        // Selection turned off: none, and a tap selects nothing and tells nothing.
        list.allowsSelection = false
        #expect(list.selectedRows.isEmpty)
        tap(3, list, driver)
        #expect(list.selectedRows.isEmpty && heard.count == 4)
    }
}
