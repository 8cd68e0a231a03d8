import ScrollwayGeometry
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// A collection shown from snapshots: sections and items inserted, deleted, moved (across
/// sections too) and reloaded in one update that asks only for what is new or reloaded, the
/// other items keeping their cells.
@MainActor
@Suite struct CollectionDiffableTests {
    typealias Source = CollectionDiffableDataSource<String, String>
    typealias Snap = DataSourceSnapshot<String, String>

    /// CollectionViewTests' grid (a 400×600 window, three columns of 100×80 items 90 apart,
    /// headers of 30) on a diffable data source whose cells show their items; what the
    /// provider was asked for.
    @MainActor
    final class Rig {
        let bench: ScrollBench
        let collection: CollectionView
        let source: Source
        final class Log { var items: [String] = [] }
        private let log = Log()
        var asked: [String] {
            get { log.items }
            set { log.items = newValue }
        }

        init(_ snapshot: Snap) {
            collection = CollectionView(layout: CollectionViewTests.gridLayout())
            collection.register("cell") { CollectionViewTests.TextCell() }
            source = Source(collectionView: collection) { [log] collection, _, item in
                log.items.append(item)
                let cell = collection.dequeueReusableCell(withIdentifier: "cell") as! CollectionViewTests.TextCell
                cell.label.text = item
                return cell
            }
            source.titleForHeader = { "Section \($0)" }
            bench = ScrollBench(viewport: Size(width: 400, height: 600), scrollView: collection)
            bench.content.removeFromSuperview()
            source.apply(snapshot, animatingDifferences: false)
            bench.window.layoutIfNeeded()
        }

        func text(_ cell: CollectionCell) -> String? { (cell as? CollectionViewTests.TextCell)?.label.text }

        /// Whether every cell in view shows the item at its path.
        func cellsMatch() -> Bool {
            !collection.visibleCells.isEmpty
                && collection.visibleCells.allSatisfy { path, cell in text(cell) == source.itemIdentifier(for: path) }
        }
    }

    /// Sections "A", "B", "C" of `count` items "A0"...
    static func snapshot(_ count: Int = 6) -> Snap {
        var s = Snap()
        for name in ["A", "B", "C"] {
            s.appendSections([name])
            s.appendItems((0..<count).map { "\(name)\($0)" })
        }
        return s
    }

    @Test func anUpdateAsksOnlyForWhatIsNewOrReloadedAndMovedItemsKeepTheirCells() throws {
        let rig = Rig(Self.snapshot())
        #expect(rig.cellsMatch() && rig.collection.layout.frameForHeader(inSection: 1)?.minY == 220)
        let before = rig.collection.visibleCells
        var s = rig.source.snapshot()
        s.moveSection("B", beforeSection: "A")
        s.moveItem("A1", afterItem: "B2")
        s.moveItem("B5", beforeItem: "B0")
        s.deleteItems(["B0"])
        s.insertItems(["N"], beforeItem: "A0")
        s.reloadItems(["A4"])
        rig.asked = []
        rig.source.apply(s, animatingDifferences: false)
        rig.bench.window.layoutIfNeeded()
        #expect(rig.source.snapshot().sectionIdentifiers == ["B", "A", "C"])
        #expect(rig.source.snapshot().itemIdentifiers(inSection: "B") == ["B5", "B1", "B2", "A1", "B3", "B4"])
        #expect(rig.cellsMatch())
        // C's first row slid below the view; A's items are still in it.
        #expect(rig.asked.sorted() == ["A4", "N"])
        for cell in before.values {
            guard let item = rig.text(cell), !["A4", "B0"].contains(item),
                let path = rig.source.path(for: item), let now = rig.collection.visibleCells[path]
            else { continue }
            #expect(now === cell, "\(item) got a new cell")
        }
        #expect(rig.collection.visibleCells[try #require(rig.source.path(for: "A1"))] === before[ItemPath(item: 1)])
    }

    /// An item leaving a section that goes, for one that stays, is inserted where it lands;
    /// one going into a section that comes is taken from where it was; a reloaded section is
    /// asked for again whole, its title too. The collection takes the update (a refused one
    /// would reload, asking for every item in view).
    @Test func itemsComingFromOrGoingToSectionsThatComeAndGoAndReloadedSections() throws {
        let rig = Rig(Self.snapshot(3))
        var s = rig.source.snapshot()
        s.moveItem("B0", afterItem: "A2")
        s.deleteSections(["B"])
        s.insertSections(["D"], afterSection: "A")
        s.appendItems(["d0"], toSection: "D")
        s.moveItem("C2", afterItem: "d0")
        s.reloadSections(["C"])
        rig.source.titleForHeader = { $0 == "C" ? "Sea" : "Section \($0)" }
        rig.asked = []
        var done = false
        rig.source.apply(s, animatingDifferences: false) { done = true }
        rig.bench.window.layoutIfNeeded()
        #expect(done)
        #expect(rig.asked.sorted() == ["B0", "C0", "C1", "C2", "d0"])
        #expect(rig.cellsMatch())
        #expect(rig.source.snapshot().itemIdentifiers == ["A0", "A1", "A2", "B0", "d0", "C2", "C0", "C1"])
        #expect(rig.collection.visibleHeaders[2]?.textLabel.text == "Sea")
    }

    /// Reconfigured items keep their cells, focus and selection: the provider is handed each
    /// one's own cell; a reconfigure inside a batch waits for it, naming items as after it.
    @Test func reconfiguredItemsKeepTheirCellsAndFocus() throws {
        let rig = Rig(Self.snapshot())
        let path = ItemPath(item: 4)
        let cell = try #require(rig.collection.visibleCells[path])
        rig.collection.selectItem(at: path)
        rig.bench.window.focus(cell, byTouch: false)
        var s = rig.source.snapshot()
        s.reconfigureItems(["A4", "B5"])
        rig.asked = []
        rig.source.apply(s, animatingDifferences: false)
        #expect(rig.asked.sorted() == ["A4", "B5"])
        #expect(rig.collection.visibleCells[path] === cell && rig.bench.window.focusedView === cell)
        #expect(rig.collection.selectedItems == [path] && cell.isSelected)
        // Inside a batch: after it, by the paths it makes (A0 deleted: A5 at item 4).
        let a5 = try #require(rig.collection.visibleCells[ItemPath(item: 5)])
        s = rig.source.snapshot()
        s.deleteItems(["A0"])
        rig.asked = []
        rig.collection.performBatchUpdates {
            rig.source.apply(s, animatingDifferences: false)
            rig.collection.reconfigureItems(at: [ItemPath(item: 4)])
        }
        #expect(rig.asked.filter { $0 == "A5" }.count == 1)
        #expect(rig.collection.visibleCells[ItemPath(item: 4)] === a5 && rig.text(a5) == "A5")
    }

    /// Animated: the update runs by `defaultItemAnimation` and `completion` waits for its end;
    /// the collection's own `updateAnimation` is left as the app set it.
    @Test func anAnimatedApplyCompletesOnceItsItemsArePlaced() throws {
        let rig = Rig(Self.snapshot())
        var s = rig.source.snapshot()
        s.deleteItems(["A0"])
        s.moveItem("C0", beforeItem: "A1")
        var done = 0
        rig.source.apply(s) { done += 1 }
        #expect(rig.collection.hasUpdateAnimations && done == 0)
        #expect(rig.collection.updateAnimation == .none)
        rig.bench.driver.advance(by: 1)
        #expect(!rig.collection.hasUpdateAnimations && done == 1)
        #expect(rig.cellsMatch() && rig.source.itemIdentifier(for: ItemPath(item: 0)) == "C0")
        let cell = try #require(rig.collection.visibleCells[ItemPath(item: 0)])
        #expect(cell.frame == rig.collection.frameForItem(at: ItemPath(item: 0)))
    }
}
