import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// A list's `performBatchUpdates`, with UITableView's index rules: deletions, reloads and the
/// sources of moves name rows before the batch, insertions and the destinations of moves rows
/// after it; the model changes once, the list follows once.
@MainActor
@Suite struct ListBatchTests {
    /// A list of `count` rows at rest at time 0.05 (ListRowAnimationTests').
    func make(_ count: Int) -> (ListReorderTests.Items, FrameDriver, ListView) { ListRowAnimationTests().make(count) }

    /// UIKit's completion hears whether the batch's animations ran to their end: one whose
    /// rows a later update took on elsewhere before then hears false, the later one true.
    @Test func aBatchWhoseSlidesAnotherUpdateTookOverHearsItDidNotFinish() throws {
        let (items, driver, list) = make(40)
        var first: [Bool] = []
        var second: [Bool] = []
        items.items.remove(at: 2)
        list.performBatchUpdates {
            list.deleteRows(at: [2], with: .fade)
        } completion: {
            first.append($0)
        }
        driver.advance(by: ListView.rowAnimationDuration / 2)
        items.items.remove(at: 5)
        list.performBatchUpdates {
            list.deleteRows(at: [5], with: .fade)
        } completion: {
            second.append($0)
        }
        driver.settle()
        #expect(first == [false] && second == [true])
        ListReorderTests().expectCellsMatch(list, items)
        // Left alone, a batch runs to its end.
        items.items.remove(at: 1)
        list.performBatchUpdates {
            list.deleteRows(at: [1], with: .fade)
        } completion: {
            first.append($0)
        }
        driver.settle()
        #expect(first == [false, true])
    }

    /// A data source that changes its model as a row is asked for, and tells the list (rows
    /// inserted above, one moved): the list reloads once it has asked for its cells, so no cell
    /// is left on a row whose item it does not show (the cell being made stayed on its old
    /// row, another's after the update).
    @Test func updatesMadeWhileTheListAsksForRowsReloadAfterThePass() throws {
        final class Changing: ListDataSource {
            var items = (0..<40).map { "Item \($0)" }
            var change: ((ListView) -> Void)?
            func numberOfRows(in list: ListView) -> Int { items.count }
            func list(_ list: ListView, cellForRow row: Int) -> ListCell {
                let cell = list.dequeueReusableCell(withIdentifier: "r")
                cell.textLabel.text = items[row]
                if row == 5, let change {
                    self.change = nil
                    change(list)
                }
                return cell
            }
        }
        for moving in [false, true] {
            let source = Changing()
            let window = Window(size: Size(width: 320, height: 480))
            let list = ListView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
            list.register("r") { ListCell(reuseIdentifier: "r") }
            list.dataSource = source
            window.addSubview(list)
            source.change = { list in
                if moving {
                    source.items.insert(source.items.remove(at: 9), at: 2)
                    list.moveRow(at: 9, to: 2)
                } else {
                    source.items.insert(contentsOf: ["New 0", "New 1"], at: 0)
                    list.insertRows(at: [0, 1])
                }
            }
            list.reloadData()
            FrameDriver(window: window).advance(by: 0.05)
            #expect(source.change == nil && !list.visibleCells.isEmpty)
            for (row, cell) in list.visibleCells {
                #expect(cell.textLabel.text == source.items[row], "moving \(moving): row \(row)")
            }
        }
    }

    @Test func deletionsAndInsertionsReadWithUIKitsIndices() throws {
        let (items, driver, list) = make(40)
        let kept = try #require(list.visibleCells[6])
        let keptText = items.items[6]
        list.selectRow(6)
        // Rows 2 and 5 (before) go; "A" and "B" come at 0 and 4 (after): one model change.
        items.items.remove(at: 5)
        items.items.remove(at: 2)
        items.items.insert("A", at: 0)
        items.items.insert("B", at: 4)
        var completions: [Bool] = []
        list.performBatchUpdates {
            list.deleteRows(at: [2, 5])
            list.insertRows(at: [0, 4])
        } completion: {
            completions.append($0)
        }
        #expect(completions == [true])
        ListReorderTests().expectCellsMatch(list, items)
        // Row 6 (before) is row 6 after (two went above it, two came): its cell and its selection.
        #expect(list.visibleCells[6] === kept && items.items[6] == keptText)
        #expect(list.selectedRows == [6])
        #expect(items.outOfRange.isEmpty)
        driver.advance(by: 0.05)
        ListReorderTests().expectCellsMatch(list, items)
    }

    @Test func aMoveKeepsItsCellAndHeightBesideAReloadAndADeletion() throws {
        let (items, driver, list) = make(40)
        let moving = try #require(list.visibleCells[3])
        let height = list.rectForRow(3).height
        let reloadedBefore = try #require(list.visibleCells[1])
        // Before: move 3 to the end of the first screen, reload 1, delete 0; after, row 1
        // is "Item 1 again" and the moved row is at 6.
        var model = items.items
        let moved = model[3]
        model.remove(at: 3)
        model.remove(at: 0)
        model[0] = "Item 1 again"
        model.insert(moved, at: 6)
        items.items = model
        list.performBatchUpdates {
            list.moveRow(at: 3, to: 6)
            list.reloadRows(at: [1])
            list.deleteRows(at: [0])
        }
        #expect(list.visibleCells[6] === moving && list.rectForRow(6).height == height)
        #expect(list.visibleCells[0] !== reloadedBefore)
        ListReorderTests().expectCellsMatch(list, items)
        driver.advance(by: 0.05)
        ListReorderTests().expectCellsMatch(list, items)
        #expect(list.visibleCells[0]?.textLabel.text == "Item 1 again")
    }

    @Test func anAnimatedBatchSlidesOnceAndCompletesAtItsEnd() throws {
        let (items, driver, list) = make(40)
        let cell = try #require(list.visibleCells[5])
        let from = cell.frame.minY
        items.items.remove(at: 1)
        items.items.insert("New\nwith two lines", at: 3)
        var completions: [Bool] = []
        list.performBatchUpdates {
            list.deleteRows(at: [1], with: .fade)
            list.insertRows(at: [3], with: .fade)
        } completion: {
            completions.append($0)
        }
        #expect(completions.isEmpty && list.hasRowAnimations)
        #expect(list.visibleCells[5] === cell && cell.frame.minY == from)
        let to = list.rectForRow(5).minY
        driver.advance(to: 0.05 + ListView.rowAnimationDuration / 2)
        #expect(abs(cell.frame.minY - (from + to) / 2) < 1e-9)
        #expect(completions.isEmpty)
        driver.advance(to: 0.05 + ListView.rowAnimationDuration + 1 / 60)
        #expect(completions == [true] && cell.frame.minY == to)
        ListReorderTests().expectCellsMatch(list, items)
    }

    @Test func aBatchTheModelDoesNotMatchIsRefusedAndReloaded() throws {
        let (items, _, list) = make(40)
        var completions: [Bool] = []
        // The model lost two rows; the batch says one.
        items.items.removeFirst(2)
        list.performBatchUpdates {
            list.deleteRows(at: [0])
        } completion: {
            completions.append($0)
        }
        #expect(completions == [false] && list.rowCount == 38)
        ListReorderTests().expectCellsMatch(list, items)
        // Rows named twice, or out of range: refused, whatever the model.
        for bad in [
            {
                list.deleteRows(at: [3]); list.moveRow(at: 3, to: 5)
            },
            {
                list.moveRow(at: 1, to: 4); list.moveRow(at: 2, to: 4)
            },
            { list.reloadRows(at: [99]) },
            {
                list.insertRows(at: [2]); list.moveRow(at: 7, to: 2)
            },
        ] as [() -> Void] {
            var heard: [Bool] = []
            list.performBatchUpdates(bad) { heard.append($0) }
            #expect(heard == [false])
            ListReorderTests().expectCellsMatch(list, items)
        }
        // An empty batch completes at once; a nested one joins.
        var nested: [String] = []
        list.performBatchUpdates {
            list.performBatchUpdates({}) { _ in nested.append("inner") }
        } completion: { _ in
            nested.append("outer")
        }
        #expect(nested == ["inner", "outer"])
    }
}
