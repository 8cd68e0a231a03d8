import Logging
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews
import Synchronization
import Testing

@testable import ScrollwayScrolling

/// A collection's item and section updates (UIKit's `insertItems`, `deleteItems`,
/// `reloadItems`, `insertSections`, `deleteSections`): the cells in view keep their items, what
/// is on screen stays still, the selection and the focus follow their items, a self-sizing
/// layout keeps what it measured, a reader hears the right positions, and an update the data
/// source does not agree with is logged and reloaded instead.
@MainActor
@Suite struct CollectionUpdateTests {
    /// Items named by a model the tests edit as an app does, before telling the collection.
    final class Model: CollectionViewDataSource {
        var names: [[String]]
        var titles: [String]
        /// The paths the collection asked cells for.
        var asked: [ItemPath] = []
        init(_ names: [[String]], titles: [String]? = nil) {
            self.names = names
            self.titles = titles ?? names.indices.map { "Section \($0)" }
        }
        func numberOfSections(in collectionView: CollectionView) -> Int { names.count }
        func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
            names[section].count
        }
        func collectionView(_ collectionView: CollectionView, cellForItemAt path: ItemPath) -> CollectionCell {
            asked.append(path)
            let cell = collectionView.dequeueReusableCell(withIdentifier: "cell") as! CollectionViewTests.TextCell
            cell.label.text = name(at: path) ?? "not in the model"
            return cell
        }
        /// The item's name; nil for a path the model does not have (asked for, a test fails
        /// rather than trap).
        func name(at path: ItemPath) -> String? {
            names.indices.contains(path.section) && names[path.section].indices.contains(path.item)
                ? names[path.section][path.item] : nil
        }
        func collectionView(_ collectionView: CollectionView, titleForSection section: Int) -> String {
            titles[section]
        }
    }

    /// What a logger says, kept in memory.
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    struct Capture: LogHandler {
        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { lines.lines.withLock { $0.append("\(event.level) \(event.message)") } }
    }

    /// The items of `counts` named "s.i", as CollectionViewTests' grid: a 400×600 window, items
    /// 100×80 in three columns 140 apart, rows 90 apart from y = 40 (a header of 30, an inset
    /// of 10). The collection's log goes to `lines`. `layout`: another layout instead.
    func rig(
        _ names: [[String]], selfSizing: Bool = false, layout: CollectionViewLayout? = nil
    ) -> (ScrollBench, CollectionView, Model, Lines) {
        let collection = CollectionView(layout: layout ?? CollectionViewTests.gridLayout(selfSizing: selfSizing))
        collection.register("cell") { CollectionViewTests.TextCell() }
        let lines = Lines()
        collection.log = Logger(label: "test") { _ in Capture(lines: lines) }
        let model = Model(names)
        collection.dataSource = model
        let bench = ScrollBench(viewport: Size(width: 400, height: 600), scrollView: collection)
        bench.retainedDelegate = model
        bench.content.removeFromSuperview()
        collection.reloadData()
        bench.window.layoutIfNeeded()
        return (bench, collection, model, lines)
    }

    static func names(_ count: Int, section: Int = 0) -> [String] { (0..<count).map { "\(section).\($0)" } }

    func text(_ cell: CollectionCell?) -> String? { (cell as? CollectionViewTests.TextCell)?.label.text }

    func onScreen(_ cell: CollectionCell) -> Point { cell.convert(Point.zero, to: nil) }

    /// Every cell shows its item's name in the model, and a reader hears each element's
    /// position among all the items ("item 66 of 304") and its name: the model's at that place.
    func expectCellsShowTheModel(_ collection: CollectionView, _ model: Model, in window: Window) {
        let total = model.names.reduce(0) { $0 + $1.count }
        let flat = model.names.flatMap { $0 }
        for (path, cell) in collection.visibleCells {
            #expect(text(cell) == model.name(at: path), "\(path)")
            let index = model.names.prefix(path.section).reduce(0) { $0 + $1.count } + path.item + 1
            #expect(cell.accessibilityPosition?.index == index && cell.accessibilityPosition?.count == total)
        }
        let nodes = collection.accessibilityNode(in: window, depth: 1)?.children ?? []
        let items = nodes.filter { $0.position != nil }
        #expect(items.count == collection.visibleCells.count)
        for node in items {
            guard let position = node.position else { continue }
            #expect(position.count == total)
            #expect(flat.indices.contains(position.index - 1) && node.label == flat[position.index - 1], "\(position)")
        }
    }

    /// Three items inserted above the view (a row's worth) and one among the items in view: the
    /// cells in view keep their items (renumbered, not asked for again), the first row in view
    /// stays where it is on screen, the items after the one inserted in view move on by one,
    /// and the selection and the keyboard focus follow their items.
    /// A flow layout reads from the right in a right-to-left window, as UIKit's does: each
    /// item's frame mirrored across the content's width (the first item at the top right), the
    /// cells placed there, the left and right arrows swapped with it; turned back, it reads
    /// from the left again.
    @Test func aRightToLeftGridReadsFromTheRight() throws {
        let (bench, collection, _, _) = rig([Self.names(30)])
        let width = collection.contentSize.width
        let ltr = (0..<6).map { collection.frameForItem(at: ItemPath(item: $0)) }
        #expect(ltr[0].minX < ltr[1].minX && ltr[1].minX < ltr[2].minX)
        bench.window.userInterfaceLayoutDirection = .rightToLeft
        bench.window.layoutIfNeeded()
        for (i, f) in ltr.enumerated() {
            let mirrored = Rect(x: width - f.maxX, y: f.minY, width: f.width, height: f.height)
            #expect(collection.frameForItem(at: ItemPath(item: i)) == mirrored, "item \(i)")
            #expect(collection.visibleCells[ItemPath(item: i)]?.frame == mirrored, "item \(i)")
        }
        // From item 1 (the middle column) the right arrow goes to item 0, on its right.
        let middle = try #require(collection.visibleCells[ItemPath(item: 1)])
        middle.becomeFocused()
        collection.moveFocus(from: ItemPath(item: 1), toward: .right)
        #expect(bench.window.focusedView === collection.visibleCells[ItemPath(item: 0)])
        collection.moveFocus(from: ItemPath(item: 0), toward: .left)
        #expect(bench.window.focusedView === middle)
        bench.window.userInterfaceLayoutDirection = .leftToRight
        bench.window.layoutIfNeeded()
        #expect((0..<6).map { collection.visibleCells[ItemPath(item: $0)]?.frame } == ltr)
    }

    /// A collection at its top keeps its offset as items are inserted above the first in view,
    /// as UIKit's does and the list does: the new items show, and those that were in view move
    /// on by a row. A pixel below the top, what is in view stays still.
    @Test func insertingAtTheTopOfACollectionAtItsTopShowsTheNewItems() throws {
        for below in [0.0, 1.0] {
            let (bench, collection, model, _) = rig([Self.names(300)])
            let start = collection.verticalRange.lowerBound + below
            collection.contentOffset = Point(x: 0, y: start)
            bench.window.layoutIfNeeded()
            let cell = try #require(collection.visibleCells[ItemPath(item: 0)])
            let before = onScreen(cell)
            model.names[0].insert(contentsOf: ["new a", "new b", "new c"], at: 0)
            collection.insertItems(at: [0, 1, 2].map { ItemPath(item: $0) })
            bench.window.layoutIfNeeded()
            #expect(collection.visibleCells[ItemPath(item: 3)] === cell)
            let row =
                collection.frameForItem(at: ItemPath(item: 3)).minY
                - collection.frameForItem(at: ItemPath(item: 0)).minY
            #expect(row > 0)
            if below == 0 {
                #expect(collection.contentOffset.y == start)
                #expect(onScreen(cell) == Point(x: before.x, y: before.y + row))
                #expect(collection.visibleCells[ItemPath(item: 0)].map(onScreen) == before)
            } else {
                #expect(collection.contentOffset.y == start + row)
                #expect(onScreen(cell) == before)
            }
            expectCellsShowTheModel(collection, model, in: bench.window)
        }
    }

    @Test func insertingKeepsTheItemsInViewAndTheirPlaceOnScreen() throws {
        let (bench, collection, model, _) = rig([Self.names(300)])
        collection.contentOffset = Point(x: 0, y: 40 + 90 * 20)  // row 20 (items 60…62) at the top
        bench.window.layoutIfNeeded()
        let before = collection.visibleCells
        let place = before.mapValues(onScreen)
        collection.selectItem(at: ItemPath(item: 62))
        let focused = try #require(before[ItemPath(item: 64)])
        focused.becomeFocused()
        model.asked = []
        model.names[0].insert(contentsOf: ["new a", "new b", "new c"], at: 0)
        model.names[0].insert("new d", at: 66)
        collection.insertItems(at: [0, 1, 2, 66].map { ItemPath(item: $0) })
        bench.window.layoutIfNeeded()
        // The content above grew by a row: the offset with it.
        #expect(collection.contentOffset.y == 40 + 90 * 21)
        for old in 60..<63 {
            let cell = try #require(before[ItemPath(item: old)])
            #expect(collection.visibleCells[ItemPath(item: old + 3)] === cell, "\(old)")
            #expect(onScreen(cell) == place[ItemPath(item: old)], "\(old)")
        }
        // Old 63 on: one further on (66 is new), one column right or the next row's first.
        for old in 63..<75 {
            let cell = try #require(before[ItemPath(item: old)])
            let new = ItemPath(item: old + 4)
            #expect(collection.visibleCells[new] === cell, "\(old)")
            let frame = collection.frameForItem(at: new)
            #expect(onScreen(cell) == Point(x: frame.minX, y: frame.minY - collection.contentOffset.y), "\(old)")
        }
        #expect(onScreen(try #require(before[ItemPath(item: 63)])) == place[ItemPath(item: 64)])
        // Cells asked for: the one inserted in view, and what came in at the margin's bottom
        // edge; none for an item that had a cell.
        #expect(model.asked.contains(ItemPath(item: 66)))
        let renumbered = Set(before.keys.map { ItemPath(item: $0.item + ($0.item < 63 ? 3 : 4)) })
        #expect(model.asked.allSatisfy { !renumbered.contains($0) }, "\(model.asked)")
        #expect(collection.selectedItem == ItemPath(item: 65))
        #expect(collection.visibleCells.filter { $0.value.isSelected }.map(\.key) == [ItemPath(item: 65)])
        #expect(bench.window.focusedView === focused && collection.itemPath(for: focused) == ItemPath(item: 68))
        expectCellsShowTheModel(collection, model, in: bench.window)
        // The arrows go on from the focused item's new place.
        bench.send(.key(.right, pressed: true, modifiers: []), at: bench.time + 0.02)
        bench.send(.key(.right, pressed: false, modifiers: []), at: bench.time + 0.05)
        bench.settle()
        #expect(bench.window.focusedView === collection.visibleCells[ItemPath(item: 69)])
    }

    /// The first item in view, the selected one and the focused one deleted: their cells are
    /// recycled, the selection and the focus cleared, and the first item in view that stays
    /// keeps its place on screen (the offset moves up a row with it).
    @Test func deletingRecyclesTheirCellsAndKeepsTheFirstThatStays() throws {
        let (bench, collection, model, _) = rig([Self.names(300)])
        collection.contentOffset = Point(x: 0, y: 40 + 90 * 20)
        bench.window.layoutIfNeeded()
        let before = collection.visibleCells
        collection.selectItem(at: ItemPath(item: 62))
        try #require(before[ItemPath(item: 64)]).becomeFocused()
        let survivor = try #require(before[ItemPath(item: 63)])
        let place = onScreen(survivor)
        let deleted = [60, 61, 62, 64]
        for i in deleted.reversed() { model.names[0].remove(at: i) }
        model.asked = []
        collection.deleteItems(at: deleted.map { ItemPath(item: $0) })
        bench.window.layoutIfNeeded()
        #expect(collection.visibleCells[ItemPath(item: 60)] === survivor)
        #expect(onScreen(survivor) == place)
        #expect(collection.contentOffset.y == 40 + 90 * 19)
        #expect(collection.selectedItem == nil)
        #expect(!collection.visibleCells.values.contains { $0.isSelected })
        #expect(!(bench.window.focusedView is CollectionCell))
        let shown = Set(collection.visibleCells.values.map(ObjectIdentifier.init))
        for i in deleted {
            let cell = try #require(before[ItemPath(item: i)])
            #expect(
                !shown.contains(ObjectIdentifier(cell)) || model.asked.contains { collection.visibleCells[$0] === cell }
            )
            #expect(shown.contains(ObjectIdentifier(cell)) || cell.isHidden || cell.superview == nil)
        }
        // Items 65… stay (as 61…), unasked.
        for old in 65..<72 { #expect(collection.visibleCells[ItemPath(item: old - 4)] === before[ItemPath(item: old)]) }
        expectCellsShowTheModel(collection, model, in: bench.window)
    }

    /// A collection resting at its end whose last items are deleted rests at its new end, with
    /// no bounce: the first item in view is gone and so is everything after it.
    @Test func deletingTheLastItemsAtTheEndRestsAtTheEdge() {
        let (bench, collection, model, _) = rig([Self.names(300)])
        collection.contentOffset = Point(x: 0, y: collection.verticalRange.upperBound)
        bench.window.layoutIfNeeded()
        model.names[0].removeLast(30)
        collection.deleteItems(at: (270..<300).map { ItemPath(item: $0) })
        let rest = collection.contentOffset.y
        #expect(rest == collection.verticalRange.upperBound)
        #expect(collection.contentSize.height == 40 + 90 * 90)
        #expect(!bench.window.hasActiveAnimations)
        bench.advance(by: 0.2)
        #expect(collection.contentOffset.y == rest)
        #expect(collection.visibleCells[ItemPath(item: 269)] != nil)
        expectCellsShowTheModel(collection, model, in: bench.window)
    }

    /// A self-sizing grid keeps the heights it measured of the items that stay, at their new
    /// places: an insertion reflows the tall item into the next row, which is as tall as it
    /// without asking for its cell again; a reload measures the item again.
    @Test func selfSizingKeepsWhatItMeasuredAndAReloadMeasuresAgain() throws {
        var names = Self.names(150)
        names[1] = "A much longer caption that wraps over several lines in a narrow cell"
        let (bench, collection, model, _) = rig([names], selfSizing: true)
        let font = try #require(Font.standard)
        func height(_ text: String) -> Double {
            font.layout(text, maxWidth: 84, maxLines: 0, scale: 1).size.height.rounded(.up) + 16
        }
        let tall = height(names[1])
        let short = height("0.0")
        #expect(tall > short)
        #expect(collection.frameForItem(at: ItemPath(item: 0)).height == tall)
        let tallCell = try #require(collection.visibleCells[ItemPath(item: 1)])
        model.asked = []
        let longer = "An even longer caption inserted at the top, one that wraps over more lines still"
        let taller = height(longer)
        #expect(taller > tall)
        model.names[0].insert(contentsOf: ["new a", longer], at: 0)
        collection.insertItems(at: [ItemPath(item: 0), ItemPath(item: 1)])
        bench.window.layoutIfNeeded()
        // Row 0: new a, the longer caption (measured, in a row with an item measured before),
        // 0.0; row 1: the tall caption, 0.2, 0.3.
        #expect(model.asked.sorted() == [ItemPath(item: 0), ItemPath(item: 1)])
        #expect(collection.visibleCells[ItemPath(item: 3)] === tallCell)
        #expect(collection.frameForItem(at: ItemPath(item: 0)) == Rect(x: 10, y: 40, width: 100, height: taller))
        #expect(
            collection.frameForItem(at: ItemPath(item: 3))
                == Rect(x: 10, y: 40 + taller + 10, width: 100, height: tall))
        #expect(tallCell.frame == collection.frameForItem(at: ItemPath(item: 3)))
        // The caption made short and reloaded: a new cell, measured again, its row one line.
        model.names[0][3] = "short"
        let shownBefore = collection.visibleCells
        model.asked = []
        collection.reloadItems(at: [ItemPath(item: 3)])
        bench.window.layoutIfNeeded()
        // Asked for it again; the others asked for are those its shorter row brought in below,
        // which had no cell.
        #expect(model.asked.first == ItemPath(item: 3))
        #expect(model.asked.dropFirst().allSatisfy { shownBefore[$0] == nil }, "\(model.asked)")
        #expect(text(collection.visibleCells[ItemPath(item: 3)]) == "short")
        #expect(collection.frameForItem(at: ItemPath(item: 3)).height == short)
        #expect(collection.frameForItem(at: ItemPath(item: 6)).minY == 40 + taller + 10 + short + 10)
        expectCellsShowTheModel(collection, model, in: bench.window)
        // At the end, far from the rows measured: a row inserted at the top keeps what was
        // measured of the rows it pushes down, out of view (re-prepared, they went back to the
        // estimate).
        collection.contentOffset = Point(x: 0, y: collection.verticalRange.upperBound)
        bench.window.layoutIfNeeded()
        #expect(collection.layout.items(in: collection.bounds.insetBy(dx: 0, dy: -100)).first!.item > 30)
        model.asked = []
        model.names[0].insert(contentsOf: ["new c", "new d", "new e"], at: 0)
        collection.insertItems(at: (0..<3).map { ItemPath(item: $0) })
        bench.window.layoutIfNeeded()
        #expect(model.asked.isEmpty)
        #expect(!collection.layout.isMeasured(ItemPath(item: 0)))
        #expect(collection.frameForItem(at: ItemPath(item: 0)).height == 50)
        #expect(collection.layout.isMeasured(ItemPath(item: 3)) && collection.layout.isMeasured(ItemPath(item: 6)))
        #expect(collection.frameForItem(at: ItemPath(item: 3)) == Rect(x: 10, y: 40 + 60, width: 100, height: taller))
        #expect(collection.frameForItem(at: ItemPath(item: 6)).height == short)
    }

    /// An app's own layout that keeps no state by item (CollectionViewTests' single column of
    /// 50 px rows 60 apart) is prepared again: it reads the new count, and the item in view
    /// keeps its cell and its place on screen.
    @Test func anAppsOwnLayoutIsPreparedAgain() throws {
        let layout = CollectionViewTests.Column()
        let collection = CollectionView(layout: layout)
        collection.register("cell") { CollectionViewTests.TextCell() }
        let model = Model([Self.names(1_000)])
        collection.dataSource = model
        let bench = ScrollBench(viewport: Size(width: 400, height: 600), scrollView: collection)
        bench.retainedDelegate = model
        bench.content.removeFromSuperview()
        collection.reloadData()
        collection.contentOffset = Point(x: 0, y: 30_000)
        bench.window.layoutIfNeeded()
        let cell = try #require(collection.visibleCells[ItemPath(item: 500)])
        model.names[0].insert(contentsOf: ["new a", "new b"], at: 0)
        collection.insertItems(at: [ItemPath(item: 0), ItemPath(item: 1)])
        bench.window.layoutIfNeeded()
        #expect(layout.count == 1_002)
        #expect(collection.contentSize.height == 1_002 * 60)
        #expect(collection.contentOffset.y == 30_120)
        #expect(collection.visibleCells[ItemPath(item: 502)] === cell)
        #expect(cell.frame == Rect(x: 20, y: 30_120, width: 360, height: 50))
        expectCellsShowTheModel(collection, model, in: bench.window)
    }

    /// A reloaded item keeps the selection and the keyboard focus (its new cell takes it); the
    /// cells of the other items are left as they were.
    @Test func aReloadedItemKeepsTheSelectionAndTheFocus() throws {
        let (bench, collection, model, _) = rig([Self.names(30)])
        collection.selectItem(at: ItemPath(item: 4))
        let old = try #require(collection.visibleCells[ItemPath(item: 4)])
        old.becomeFocused()
        let neighbour = collection.visibleCells[ItemPath(item: 5)]
        model.names[0][4] = "renamed"
        collection.reloadItems(at: [ItemPath(item: 4)])
        bench.window.layoutIfNeeded()
        let new = try #require(collection.visibleCells[ItemPath(item: 4)])
        #expect(text(new) == "renamed")
        #expect(new.isSelected && collection.selectedItem == ItemPath(item: 4))
        #expect(bench.window.focusedView === new)
        #expect(collection.visibleCells[ItemPath(item: 5)] === neighbour)
        expectCellsShowTheModel(collection, model, in: bench.window)
    }

    /// A section inserted above: the cells move with their items into the next section, the
    /// headers are read again; at the top, the offset is kept and the new section shows above
    /// them, and a pixel below it what was in view stays still. Deleting it brings everything
    /// back.
    @Test func sectionsInsertedAndDeletedRenumberTheItemsAndHeaders() throws {
        let (bench, collection, model, _) = rig([Self.names(30), Self.names(2, section: 1)])
        model.titles = ["A", "B"]
        collection.reloadData()
        bench.window.layoutIfNeeded()
        let first = try #require(collection.visibleCells[ItemPath(item: 0)])
        let place = onScreen(first)
        /// The headers shown, top to bottom: title and top in the content.
        func headers() -> [String] {
            collection.subviews.compactMap { $0 as? ListSectionHeader }.sorted { $0.frame.minY < $1.frame.minY }
                .map { "\($0.textLabel.text) \($0.frame.minY)" }
        }
        model.names.insert(["z0", "z1"], at: 0)
        model.titles.insert("Z", at: 0)
        collection.insertSections([0])
        bench.window.layoutIfNeeded()
        #expect(collection.visibleCells[ItemPath(item: 0, section: 1)] === first)
        // Section 0 is 30 + 10 + 80 + 10 tall.
        #expect(collection.contentOffset.y == 0)
        #expect(onScreen(first) == Point(x: place.x, y: place.y + 130))
        #expect(headers() == ["Z 0.0", "A 130.0"])
        expectCellsShowTheModel(collection, model, in: bench.window)
        // Once more a pixel below the top: what is in view stays.
        model.names.insert(["y0"], at: 0)
        model.titles.insert("Y", at: 0)
        collection.contentOffset = Point(x: 0, y: 1)
        bench.window.layoutIfNeeded()
        let shown = onScreen(first)
        collection.insertSections([0])
        bench.window.layoutIfNeeded()
        #expect(collection.visibleCells[ItemPath(item: 0, section: 2)] === first)
        #expect(onScreen(first) == shown)
        #expect(collection.contentOffset.y == 1 + 130)
        model.names.remove(at: 0)
        model.titles.remove(at: 0)
        collection.deleteSections([0])
        collection.contentOffset = .zero
        bench.window.layoutIfNeeded()
        #expect(headers() == ["Z 0.0", "A 130.0"])
        // Deleted with the first items in view: the first that stays (A's first) would go
        // above the top; the collection rests at its top instead.
        model.names.remove(at: 0)
        model.titles.remove(at: 0)
        collection.deleteSections([0])
        bench.window.layoutIfNeeded()
        #expect(collection.visibleCells[ItemPath(item: 0)] === first)
        #expect(collection.contentOffset.y == 0 && onScreen(first) == place)
        #expect(!bench.window.hasActiveAnimations)
        #expect(headers() == ["A 0.0"])
        expectCellsShowTheModel(collection, model, in: bench.window)
    }

    /// A section inserted between two in view: the headers are read again (the one that was
    /// section 1's now heads section 2), each above its section.
    @Test func aSectionInsertedBetweenTwoInViewGetsItsOwnHeader() {
        let (bench, collection, model, _) = rig([Self.names(2), Self.names(2, section: 1)])
        model.titles = ["A", "B"]
        collection.reloadData()
        bench.window.layoutIfNeeded()
        let b = collection.visibleCells[ItemPath(item: 1, section: 1)]
        model.names.insert(["m0"], at: 1)
        model.titles.insert("M", at: 1)
        collection.insertSections([1])
        bench.window.layoutIfNeeded()
        // Each section: 30 + 10 + 80 + 10 tall.
        let headers = collection.subviews.compactMap { $0 as? ListSectionHeader }.sorted {
            $0.frame.minY < $1.frame.minY
        }
        #expect(headers.map { "\($0.textLabel.text) \($0.frame.minY)" } == ["A 0.0", "M 130.0", "B 260.0"])
        #expect(collection.visibleCells[ItemPath(item: 1, section: 2)] === b)
        expectCellsShowTheModel(collection, model, in: bench.window)
    }

    /// Every item in view deleted: the first after them that stays keeps its place (below the
    /// view), so the items that were above the view come into it, as a list's rows do.
    @Test func deletingEverythingInViewKeepsTheNextItemThatStaysWhereItWas() throws {
        let (bench, collection, model, _) = rig([Self.names(300)])
        collection.contentOffset = Point(x: 0, y: 40 + 90 * 20)
        bench.window.layoutIfNeeded()
        // Items 60…89 (rows 20…29) go; item 90 was at 900 on screen.
        model.names[0].removeSubrange(60..<90)
        collection.deleteItems(at: (60..<90).map { ItemPath(item: $0) })
        bench.window.layoutIfNeeded()
        #expect(collection.frameForItem(at: ItemPath(item: 60)).minY - collection.contentOffset.y == 900)
        #expect(collection.contentOffset.y == 40 + 90 * 10)
        expectCellsShowTheModel(collection, model, in: bench.window)
    }

    /// The focused item's cell, kept while the item is scrolled away, follows its item through
    /// an insertion above it: it is placed at the item's new place, and comes back there.
    @Test func aFocusedCellKeptAwayFollowsItsItem() throws {
        let (bench, collection, model, _) = rig([Self.names(300)])
        let focused = try #require(collection.visibleCells[ItemPath(item: 4)])
        focused.becomeFocused()
        collection.contentOffset = Point(x: 0, y: 5_000)
        bench.window.layoutIfNeeded()
        #expect(collection.visibleCells[ItemPath(item: 4)] === focused)
        model.names[0].insert(contentsOf: ["new a", "new b", "new c", "new d"], at: 0)
        collection.insertItems(at: (0..<4).map { ItemPath(item: $0) })
        bench.window.layoutIfNeeded()
        #expect(collection.itemPath(for: focused) == ItemPath(item: 8))
        #expect(focused.frame == collection.frameForItem(at: ItemPath(item: 8)))
        #expect(focused.frame == Rect(x: 290, y: 220, width: 100, height: 80))
        #expect(bench.window.focusedView === focused)
        collection.contentOffset = .zero
        bench.window.layoutIfNeeded()
        #expect(collection.visibleCells[ItemPath(item: 8)] === focused && !focused.isHidden)
        expectCellsShowTheModel(collection, model, in: bench.window)
    }

    /// An update the data source agrees with, made from inside its `cellForItemAt` (an item
    /// inserted at the top while the collection asks for item 5): the pass stops asking for the
    /// paths it had (they name other items now) and places the cells again, so every cell
    /// shows its item.
    @Test func anUpdateFromInsideThePassLeavesEveryCellShowingItsItem() {
        final class Growing: CollectionViewDataSource {
            var names = CollectionUpdateTests.names(40)
            var growAt: Int? = 5
            func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
                names.count
            }
            func collectionView(_ collectionView: CollectionView, cellForItemAt path: ItemPath) -> CollectionCell {
                let cell = collectionView.dequeueReusableCell(withIdentifier: "cell") as! CollectionViewTests.TextCell
                cell.label.text = names[path.item]
                // Configured, then the model grows at the top (news arriving while it scrolls).
                if path.item == growAt {
                    growAt = nil
                    names.insert("new", at: 0)
                    collectionView.insertItems(at: [ItemPath(item: 0)])
                }
                return cell
            }
        }
        let (bench, collection, _, lines) = rig([Self.names(0)])
        let growing = Growing()
        bench.retainedDelegate = growing
        collection.dataSource = growing
        collection.reloadData()
        bench.window.layoutIfNeeded()
        #expect(lines.all.isEmpty)
        #expect(collection.numberOfItems(inSection: 0) == 41)
        #expect(!collection.visibleCells.isEmpty)
        for (path, cell) in collection.visibleCells {
            #expect(text(cell) == growing.names[path.item], "\(path)")
            #expect(cell.frame == collection.frameForItem(at: path))
        }
    }

    /// An update the data source does not agree with (items inserted before the model has
    /// them, counts that differ, paths and sections outside the collection) is not applied: it
    /// is logged, and the collection reloads and shows what the model has.
    @Test func anUpdateTheDataSourceDoesNotAgreeWithIsLoggedAndReloaded() {
        let (bench, collection, model, lines) = rig([Self.names(7), Self.names(2, section: 1)])
        collection.selectItem(at: ItemPath(item: 1, section: 1))
        collection.insertItems(at: [ItemPath(item: 0)])  // not in the model
        model.names[0].append("0.7")
        collection.insertItems(at: [ItemPath(item: 7), ItemPath(item: 8)])  // the model grew by one
        collection.deleteItems(at: [ItemPath(item: 500)])
        collection.insertItems(at: [ItemPath(item: 0, section: 5)])
        collection.reloadItems(at: [ItemPath(item: -1)])
        collection.deleteSections([3])
        collection.insertSections([0])
        model.names[1].append("1.2")  // and the app tells of a change to another item
        collection.reloadItems(at: [ItemPath(item: 0)])
        let suffix = "; reloaded from the data source instead"
        #expect(
            lines.all
                == [
                    "error CollectionView: insertItems: the data source has 7 items in section 0, where the update makes 8",
                    "error CollectionView: insertItems: the data source has 8 items in section 0, where the update makes 9",
                    "error CollectionView: deleteItems: item 0.500 is outside 0..<8 in section 0",
                    "error CollectionView: insertItems: section 5 of item 5.0 is outside 0..<2",
                    "error CollectionView: reloadItems: item 0.-1 is outside 0..<8 in section 0",
                    "error CollectionView: deleteSections: section 3 is outside 0..<2",
                    "error CollectionView: insertSections: the data source has 2 sections, where 2 and 1 inserted make 3",
                    "error CollectionView: reloadItems: the data source has 3 items in section 1, where the update makes 2",
                ].map { $0 + suffix })
        bench.window.layoutIfNeeded()
        #expect(collection.numberOfItems(inSection: 0) == 8 && collection.numberOfItems(inSection: 1) == 3)
        #expect(collection.visibleCells.keys.sorted() == Self.paths([8, 3]))
        #expect(collection.selectedItem == ItemPath(item: 1, section: 1))
        expectCellsShowTheModel(collection, model, in: bench.window)
    }

    static func paths(_ counts: [Int]) -> [ItemPath] {
        counts.enumerated().flatMap { s, n in (0..<n).map { ItemPath(item: $0, section: s) } }
    }

    /// An update refused from inside the data source's `cellForItemAt` (the model shrank and
    /// the app told the collection of an insertion it does not have) waits for the pass to
    /// end: the pass asks for no item the model lacks, and the collection then shows the
    /// model's items. The reload reads the model once the app's code has returned: one that
    /// tells the collection before it changes its model is read as it ends up (a reload at
    /// once read the 200 items about to go, and asked for them).
    @Test(arguments: [false, true])
    func anUpdateRefusedWhileCellsAreAskedForReloadsAfterThePass(tellsFirst: Bool) {
        let (bench, collection, model, lines) = rig([Self.names(0)])
        final class Shrinking: CollectionViewDataSource {
            var count = 200
            var shrinkAt: Int? = 5
            var askedPastEnd: [ItemPath] = []
            let tellsFirst: Bool
            init(tellsFirst: Bool) { self.tellsFirst = tellsFirst }
            func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { count }
            func collectionView(_ collectionView: CollectionView, cellForItemAt path: ItemPath) -> CollectionCell {
                if path.item >= count { askedPastEnd.append(path) }
                if path.item == shrinkAt {
                    shrinkAt = nil
                    if tellsFirst { collectionView.insertItems(at: [ItemPath(item: 0)]) }
                    count = 3
                    if !tellsFirst { collectionView.insertItems(at: [ItemPath(item: 0)]) }
                }
                let cell = collectionView.dequeueReusableCell(withIdentifier: "cell") as! CollectionViewTests.TextCell
                cell.label.text = "\(path)"
                return cell
            }
        }
        let shrinking = Shrinking(tellsFirst: tellsFirst)
        bench.retainedDelegate = shrinking
        _ = model
        collection.dataSource = shrinking
        collection.reloadData()
        bench.window.layoutIfNeeded()
        #expect(shrinking.askedPastEnd.isEmpty, "\(shrinking.askedPastEnd.prefix(10))")
        #expect(collection.numberOfItems(inSection: 0) == 3)
        #expect(collection.visibleCells.keys.sorted() == Self.paths([3]))
        #expect(collection.visibleCells.allSatisfy { text($0.value) == "\($0.key)" })
        #expect(
            lines.all == [
                "error CollectionView: insertItems: the data source has \(tellsFirst ? 200 : 3) items in section 0, where the update makes 201; reloaded from the data source instead"
            ])
    }
}
