import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews
import Testing

@testable import ScrollwayScrolling

/// A collection's moves, section reloads and batches (UIKit's `moveItem(at:to:)`,
/// `moveSection(_:toSection:)`, `reloadSections(_:)`, `performBatchUpdates(_:completion:)`),
/// on CollectionUpdateTests' rig: the 3-column grid whose rows are 90 apart from 40 below each
/// section's top, a section `40 + 90 × rows` tall.
extension CollectionUpdateTests {
    /// The grid layout, counting how often the rows are placed: anew (`prepare(for:)`) or
    /// carried through an update (`prepare(forUpdate:for:)`).
    final class CountingLayout: CollectionViewLayout {
        let flow: FlowLayout
        var prepares = 0
        var updates = 0
        init(_ flow: FlowLayout) { self.flow = flow }
        func prepare(for collectionView: CollectionView) {
            prepares += 1
            flow.prepare(for: collectionView)
        }
        func prepare(forUpdate update: CollectionUpdate, for collectionView: CollectionView) -> Bool {
            updates += 1
            return flow.prepare(forUpdate: update, for: collectionView)
        }
        var contentSize: Size { flow.contentSize }
        func items(in rect: Rect) -> [ItemPath] { flow.items(in: rect) }
        func frameForItem(at path: ItemPath) -> Rect { flow.frameForItem(at: path) }
        func headers(in rect: Rect) -> [Int] { flow.headers(in: rect) }
        func frameForHeader(inSection section: Int) -> Rect? { flow.frameForHeader(inSection: section) }
        func measuringWidth(forItemAt path: ItemPath) -> Double? { flow.measuringWidth(forItemAt: path) }
        func isMeasured(_ path: ItemPath) -> Bool { flow.isMeasured(path) }
        func setMeasuredHeight(_ height: Double, forItemAt path: ItemPath) -> Double {
            flow.setMeasuredHeight(height, forItemAt: path)
        }
        func item(from path: ItemPath, toward direction: CollectionDirection) -> ItemPath? {
            flow.item(from: path, toward: direction)
        }
    }

    static func path(_ section: Int, _ item: Int) -> ItemPath { ItemPath(item: item, section: section) }

    /// The headers shown, top to bottom: title and top in the content.
    func headers(_ collection: CollectionView) -> [String] {
        collection.subviews.compactMap { $0 as? ListSectionHeader }.sorted { $0.frame.minY < $1.frame.minY }
            .map { "\($0.textLabel.text) \($0.frame.minY)" }
    }

    /// One batch deleting, inserting and moving items (one within its section, one into the
    /// next, one out of it), worked by hand with UIKit's rules: 0.1 and 0.4 deleted, "new"
    /// inserted at 0.0 (after), 0.6 moved to 1.0 and 1.3 to 0.2 (after), 0.3 reloaded (before).
    /// The items that stay fill the places left free in order: section 0 is new, 0.0, 1.3, 0.2,
    /// 0.3, 0.5, 0.7 … 0.11; section 1 is 0.6, 1.0, 1.1, 1.2. Every cell in view stays with its
    /// item (a moved one too), only the inserted item and the reloaded one (at 0.4 now) are
    /// asked for, the selection and the focus follow their items through the moves, and the
    /// completion is called once, with true, after the update.
    @Test func aBatchOfDeletesInsertsAndMovesIsOneUpdateWithUIKitsIndices() throws {
        let (bench, collection, model, lines) = rig([Self.names(12), Self.names(4, section: 1)])
        let before = collection.visibleCells
        #expect(before.count == 16)
        collection.selectItem(at: Self.path(0, 6))
        let focused = try #require(before[Self.path(1, 3)])
        focused.becomeFocused()
        model.asked = []
        var completions: [String] = []
        collection.performBatchUpdates(
            {
                model.names = [
                    ["new", "0.0", "1.3", "0.2", "0.3 again", "0.5", "0.7", "0.8", "0.9", "0.10", "0.11"],
                    ["0.6", "1.0", "1.1", "1.2"],
                ]
                collection.deleteItems(at: [Self.path(0, 1), Self.path(0, 4)])
                collection.insertItems(at: [Self.path(0, 0)])
                collection.moveItem(at: Self.path(0, 6), to: Self.path(1, 0))
                collection.moveItem(at: Self.path(1, 3), to: Self.path(0, 2))
                collection.reloadItems(at: [Self.path(0, 3)])
                // Collected, not applied: the collection still has the items before the batch.
                completions.append("in the batch: \(collection.numberOfItems(inSection: 0))")
            },
            completion: { completions.append("\($0): \(collection.numberOfItems(inSection: 0))") })
        #expect(completions == ["in the batch: 12", "true: 11"])
        #expect(lines.all.isEmpty)
        bench.window.layoutIfNeeded()
        let moves: [(ItemPath, ItemPath)] =
            [(0, 1), (2, 3), (5, 5), (7, 6), (8, 7), (9, 8), (10, 9), (11, 10)].map {
                (Self.path(0, $0), Self.path(0, $1))
            } + [(Self.path(0, 6), Self.path(1, 0)), (Self.path(1, 3), Self.path(0, 2))]
            + (0..<3).map { (Self.path(1, $0), Self.path(1, $0 + 1)) }
        for (old, new) in moves {
            #expect(collection.visibleCells[new] === before[old], "\(old) → \(new)")
        }
        #expect(model.asked.sorted() == [Self.path(0, 0), Self.path(0, 4)])
        #expect(text(collection.visibleCells[Self.path(0, 4)]) == "0.3 again")
        // Section 0 still has 4 rows: section 1's header at 400, its rows at 440 and 530.
        let frames: [(String, Rect)] = [
            ("0.0", Rect(x: 150, y: 40, width: 100, height: 80)),
            ("1.3", Rect(x: 290, y: 40, width: 100, height: 80)),
            ("0.11", Rect(x: 150, y: 310, width: 100, height: 80)),
            ("0.6", Rect(x: 10, y: 440, width: 100, height: 80)),
            ("1.2", Rect(x: 10, y: 530, width: 100, height: 80)),
        ]
        for (name, frame) in frames {
            let cell = collection.visibleCells.values.first { text($0) == name }
            #expect(cell?.frame == frame, "\(name)")
        }
        #expect(collection.selectedItem == Self.path(1, 0))
        #expect(collection.visibleCells.filter { $0.value.isSelected }.map(\.key) == [Self.path(1, 0)])
        #expect(bench.window.focusedView === focused && collection.itemPath(for: focused) == Self.path(0, 2))
        #expect(collection.contentOffset.y == 0)
        expectCellsShowTheModel(collection, model, in: bench.window)
    }

    /// The first item in view keeps its place on screen through a move above it (the items
    /// after the one moved away move back one place), and a moved item does not hold the view:
    /// the first item in view moved to the top leaves the view where it is, held by the next
    /// one.
    @Test func movesKeepTheFirstItemInViewThatStaysInOrderStill() throws {
        let (bench, collection, model, _) = rig([Self.names(300)])
        collection.contentOffset = Point(x: 0, y: 40 + 90 * 20)  // row 20 (items 60…62) at the top
        bench.window.layoutIfNeeded()
        let first = try #require(collection.visibleCells[ItemPath(item: 60)])
        let place = onScreen(first)
        model.names[0].append(model.names[0].remove(at: 5))
        collection.moveItem(at: ItemPath(item: 5), to: ItemPath(item: 299))
        bench.window.layoutIfNeeded()
        // Old 60 is 59 now, row 19's last: the offset up a row, the cell as high on screen.
        #expect(collection.visibleCells[ItemPath(item: 59)] === first)
        #expect(collection.contentOffset.y == 40 + 90 * 19)
        #expect(onScreen(first).y == place.y && onScreen(first).x == 290)
        // Row 19 (57…59) at the top now; 57 moved to the top: 58 holds the view, and stays put.
        let next = try #require(collection.visibleCells[ItemPath(item: 58)])
        let nextPlace = onScreen(next)
        model.names[0].insert(model.names[0].remove(at: 57), at: 0)
        collection.moveItem(at: ItemPath(item: 57), to: ItemPath(item: 0))
        bench.window.layoutIfNeeded()
        #expect(collection.contentOffset.y == 40 + 90 * 19)
        #expect(collection.visibleCells[ItemPath(item: 58)] === next && onScreen(next) == nextPlace)
        expectCellsShowTheModel(collection, model, in: bench.window)
    }

    /// A self-sizing grid: a moved item keeps the height measured of it (its cell is not asked
    /// for again) and makes its new row as tall, its old row going back to its other items'
    /// height; a batch places the rows once, however many calls it has. A reloaded section's
    /// items are measured again.
    @Test func aMovedItemKeepsItsMeasuredHeightAndABatchPlacesTheRowsOnce() throws {
        var names = Self.names(150)
        names[1] = "A much longer caption that wraps over several lines in a narrow cell"
        let layout = CountingLayout(CollectionViewTests.gridLayout(selfSizing: true))
        let (bench, collection, model, _) = rig([names], layout: layout)
        let font = try #require(Font.standard)
        func height(_ text: String) -> Double {
            font.layout(text, maxWidth: 84, maxLines: 0, scale: 1).size.height.rounded(.up) + 16
        }
        let tall = height(names[1])
        let short = height("0.0")
        #expect(tall > short)
        #expect(collection.frameForItem(at: ItemPath(item: 0)).height == tall)
        let tallCell = try #require(collection.visibleCells[ItemPath(item: 1)])
        let prepares = layout.prepares
        model.asked = []
        collection.performBatchUpdates {
            // 1 to 4, then 0.149 to the top: 0.149, 0.0, 0.2 | 0.3, 0.4, the caption | 0.5 …
            model.names[0].insert(model.names[0].remove(at: 1), at: 4)
            model.names[0].insert(model.names[0].removeLast(), at: 0)
            collection.moveItem(at: ItemPath(item: 1), to: ItemPath(item: 5))
            collection.moveItem(at: ItemPath(item: 149), to: ItemPath(item: 0))
            collection.performBatchUpdates {
                model.names[0][2] = "0.2b"
                collection.reloadItems(at: [ItemPath(item: 2)])
            }
        }
        bench.window.layoutIfNeeded()
        #expect(layout.updates == 1 && layout.prepares == prepares)
        // Asked for: the item moved in from the end (never measured), the one reloaded.
        #expect(model.asked.sorted() == [ItemPath(item: 0), ItemPath(item: 2)])
        #expect(collection.visibleCells[ItemPath(item: 5)] === tallCell)
        #expect(collection.frameForItem(at: ItemPath(item: 0)) == Rect(x: 10, y: 40, width: 100, height: short))
        #expect(
            collection.frameForItem(at: ItemPath(item: 5))
                == Rect(x: 290, y: 40 + short + 10, width: 100, height: tall))
        #expect(tallCell.frame == collection.frameForItem(at: ItemPath(item: 5)))
        expectCellsShowTheModel(collection, model, in: bench.window)
        // The section reloaded with the caption at the top: measured again there.
        model.names[0][0] = names[1]
        model.asked = []
        collection.reloadSections([0])
        bench.window.layoutIfNeeded()
        #expect(layout.updates == 2 && layout.prepares == prepares)
        #expect(model.asked.contains(ItemPath(item: 0)) && model.asked.contains(ItemPath(item: 5)))
        #expect(collection.frameForItem(at: ItemPath(item: 0)).height == tall)
        #expect(collection.frameForItem(at: ItemPath(item: 5)).height == tall)
        expectCellsShowTheModel(collection, model, in: bench.window)
    }

    /// A batch inside a batch joins it: its calls read the indices of the outer batch's start,
    /// nothing is applied until the outer one ends, and both completions are called then, once
    /// each, with true. The rows are placed once.
    @Test func aNestedBatchJoinsTheOuterOne() throws {
        let layout = CountingLayout(CollectionViewTests.gridLayout())
        let (bench, collection, model, lines) = rig([Self.names(10)], layout: layout)
        let before = collection.visibleCells
        let updates = layout.updates
        model.asked = []
        var events: [String] = []
        collection.performBatchUpdates(
            {
                model.names[0].insert("new", at: 0)
                collection.insertItems(at: [ItemPath(item: 0)])
                collection.performBatchUpdates(
                    {
                        // 0.4 and 0.5 as the outer batch began: 5 and 6 in the model now.
                        model.names[0].removeSubrange(5...6)
                        collection.deleteItems(at: [ItemPath(item: 4), ItemPath(item: 5)])
                    },
                    completion: { events.append("inner \($0) \(collection.numberOfItems(inSection: 0))") })
                events.append("inner returned \(collection.numberOfItems(inSection: 0))")
            },
            completion: { events.append("outer \($0) \(collection.numberOfItems(inSection: 0))") })
        #expect(events == ["inner returned 10", "inner true 9", "outer true 9"])
        #expect(lines.all.isEmpty)
        #expect(layout.updates == updates + 1)
        bench.window.layoutIfNeeded()
        #expect(model.asked == [ItemPath(item: 0)])
        for (old, new) in [(0, 1), (3, 4), (6, 5), (9, 8)] {
            #expect(collection.visibleCells[ItemPath(item: new)] === before[ItemPath(item: old)], "\(old)")
        }
        expectCellsShowTheModel(collection, model, in: bench.window)
    }

    /// A section moved to the end: its items' cells go with it, the headers are read again in
    /// their new order, and the selection follows its item.
    @Test func aMovedSectionTakesItsCellsAndTheSelection() throws {
        let (bench, collection, model, _) = rig([Self.names(2), Self.names(2, section: 1), Self.names(2, section: 2)])
        model.titles = ["A", "B", "C"]
        collection.reloadData()
        bench.window.layoutIfNeeded()
        let before = collection.visibleCells
        collection.selectItem(at: Self.path(0, 1))
        model.asked = []
        model.names.append(model.names.removeFirst())
        model.titles.append(model.titles.removeFirst())
        collection.moveSection(0, toSection: 2)
        bench.window.layoutIfNeeded()
        #expect(headers(collection) == ["B 0.0", "C 130.0", "A 260.0"])
        for (old, new) in [(0, 2), (1, 0), (2, 1)] {
            for i in 0..<2 {
                #expect(collection.visibleCells[Self.path(new, i)] === before[Self.path(old, i)], "\(old).\(i)")
            }
        }
        #expect(model.asked.isEmpty)
        #expect(collection.frameForItem(at: Self.path(2, 1)) == Rect(x: 150, y: 300, width: 100, height: 80))
        #expect(collection.selectedItem == Self.path(2, 1) && before[Self.path(0, 1)]?.isSelected == true)
        expectCellsShowTheModel(collection, model, in: bench.window)
    }

    /// A section reloaded in a batch with an insertion above it: its count and title are read
    /// again, its items get new cells (asked for), the other items keep theirs, and the
    /// selection and the focus stay at their index in it.
    @Test func aReloadedSectionIsReadAgain() throws {
        let (bench, collection, model, lines) = rig([Self.names(3), Self.names(4, section: 1)])
        model.titles = ["A", "B"]
        collection.reloadData()
        bench.window.layoutIfNeeded()
        let before = collection.visibleCells
        collection.selectItem(at: Self.path(1, 1))
        try #require(before[Self.path(1, 1)]).becomeFocused()
        model.asked = []
        collection.performBatchUpdates {
            model.names[0].append("0.3")
            model.names[1] = ["b0", "b1"]
            model.titles[1] = "B2"
            collection.reloadSections([1])
            collection.insertItems(at: [Self.path(0, 3)])
        }
        bench.window.layoutIfNeeded()
        #expect(lines.all.isEmpty)
        #expect(model.asked.sorted() == [Self.path(0, 3), Self.path(1, 0), Self.path(1, 1)])
        for i in 0..<3 { #expect(collection.visibleCells[Self.path(0, i)] === before[Self.path(0, i)]) }
        #expect(collection.visibleCells.keys.sorted() == Self.paths([4, 2]))
        // Section 0 has two rows now: B2's header 90 lower.
        #expect(headers(collection) == ["A 0.0", "B2 220.0"])
        #expect(
            collection.selectedItem == Self.path(1, 1)
                && collection.cellForItem(at: Self.path(1, 1))?.isSelected == true)
        #expect(bench.window.focusedView === collection.cellForItem(at: Self.path(1, 1)))
        expectCellsShowTheModel(collection, model, in: bench.window)
    }

    /// Batches UIKit raises on (a deletion and a move of one item, a reload of a moved item or
    /// section, two moves to one place, a section deleted and moved), batches naming an item
    /// in a section they delete or insert (its items are the section's business), and batches whose counts
    /// the data source does not agree with (a move the model did not make; an empty batch after
    /// the model changed; a nested batch adding to a count the model has once) are refused:
    /// logged, the completion called once with false, and the collection reloaded from the
    /// model.
    @Test func aBatchUIKitWouldRaiseOnIsLoggedAndReloaded() {
        let (bench, collection, model, lines) = rig([Self.names(7), Self.names(2, section: 1)])
        var results: [Bool] = []
        func batch(_ updates: () -> Void) { collection.performBatchUpdates(updates) { results.append($0) } }
        batch {
            model.names[0].remove(at: 0)
            collection.deleteItems(at: [Self.path(0, 0)])
            collection.moveItem(at: Self.path(0, 0), to: Self.path(0, 3))
        }
        batch {
            collection.moveItem(at: Self.path(0, 1), to: Self.path(0, 2))
            collection.reloadItems(at: [Self.path(0, 1)])
        }
        batch { collection.moveItem(at: Self.path(0, 0), to: Self.path(1, 0)) }
        batch {
            collection.moveItem(at: Self.path(0, 0), to: Self.path(0, 5))
            collection.moveItem(at: Self.path(0, 1), to: Self.path(0, 5))
        }
        batch {
            collection.deleteSections([1])
            collection.moveSection(1, toSection: 0)
        }
        batch {
            collection.reloadSections([0])
            collection.moveSection(0, toSection: 1)
        }
        model.names[0].append("0.6")
        batch {}
        batch {
            model.names[0].insert("new", at: 0)
            collection.insertItems(at: [Self.path(0, 0)])
            collection.performBatchUpdates({ collection.insertItems(at: [Self.path(0, 1)]) }) { results.append($0) }
        }
        batch {
            model.names.remove(at: 1)
            collection.deleteSections([1])
            collection.deleteItems(at: [Self.path(1, 0)])
        }
        batch {
            model.names.insert(["a"], at: 0)
            collection.insertSections([0])
            collection.insertItems(at: [Self.path(0, 0)])
        }
        collection.reloadSections([5])
        let suffix = "; reloaded from the data source instead"
        #expect(
            lines.all
                == [
                    "performBatchUpdates: item 0.0 is deleted and moved",
                    "performBatchUpdates: item 0.1 is moved and reloaded",
                    "performBatchUpdates: the data source has 6 items in section 0, where the update makes 5",
                    "performBatchUpdates: two items are moved to item 0.5",
                    "performBatchUpdates: section 1 is deleted and moved",
                    "performBatchUpdates: section 0 is moved and reloaded",
                    "performBatchUpdates: the data source has 7 items in section 0, where the update makes 6",
                    "performBatchUpdates: the data source has 8 items in section 0, where the update makes 9",
                    "performBatchUpdates: item 1.0 is in section 1, which the update deletes or reloads",
                    "performBatchUpdates: item 0.0 is in section 0, which the update inserts or reloads",
                    "reloadSections: section 5 is outside 0..<2",
                ].map { "error CollectionView: " + $0 + suffix })
        #expect(results == Array(repeating: false, count: 11))
        bench.window.layoutIfNeeded()
        #expect(collection.numberOfItems(inSection: 0) == 1 && collection.numberOfItems(inSection: 1) == 8)
        #expect(collection.visibleCells.keys.sorted() == Self.paths([1, 8]))
        expectCellsShowTheModel(collection, model, in: bench.window)
    }
}
