import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayScrolling
import ScrollwayTestSupport
import ScrollwayViews
import Testing

/// Random snapshots applied one after another to a list and to a collection, animated or not,
/// from random scroll positions: after each, every cell in view shows the item the snapshot
/// puts there, the views count what it holds, and an unanimated update asked the provider for
/// no item that was in view before and after it unless the item (or its section) was reloaded
/// or, in a collection, came from or went to a section of its own coming or going. A batch the
/// views refused (a difference worked out wrong) reloads them, asking for every item in view.
@MainActor
@Suite struct DiffableFuzzTests {
    typealias Snap = DataSourceSnapshot<String, String>

    final class Log { var items: [String] = [] }

    /// A 320×480 list of 40-high rows and a 400×600 grid of 100×80 items, both with headers.
    @MainActor
    final class Rig {
        let listWindow = Window(size: Size(width: 320, height: 480))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        let listDriver: FrameDriver
        let listSource: ListDiffableDataSource<String, String>
        let gridWindow = Window(size: Size(width: 400, height: 600))
        let grid: CollectionView
        let gridDriver: FrameDriver
        let gridSource: CollectionDiffableDataSource<String, String>
        let listAsked = Log()
        let gridAsked = Log()

        init() {
            list.register("r") { ListCell(reuseIdentifier: "r") }
            list.estimatedRowHeight = 40
            listSource = ListDiffableDataSource(list: list) { [listAsked] list, _, item in
                listAsked.items.append(item)
                let cell = list.dequeueReusableCell(withIdentifier: "r")
                cell.textLabel.text = item
                return cell
            }
            listSource.titleForHeader = { $0 }
            listWindow.addSubview(list)
            listDriver = FrameDriver(window: listWindow, skipsQuietFrames: true)
            let layout = FlowLayout()
            layout.itemSize = Size(width: 100, height: 80)
            layout.minimumLineSpacing = 10
            layout.headerHeight = 30
            grid = CollectionView(layout: layout)
            grid.frame = Rect(x: 0, y: 0, width: 400, height: 600)
            grid.register("cell") { CollectionCell(reuseIdentifier: "cell") }
            gridSource = CollectionDiffableDataSource(collectionView: grid) { [gridAsked] grid, _, item in
                gridAsked.items.append(item)
                let cell = grid.dequeueReusableCell(withIdentifier: "cell")
                cell.accessibilityLabel = item
                return cell
            }
            gridSource.titleForHeader = { $0 }
            gridWindow.addSubview(grid)
            gridDriver = FrameDriver(window: gridWindow, skipsQuietFrames: true)
        }
    }

    /// A random edit of `s` (it may be refused, which changes nothing); `fresh` names new items.
    static func edit(_ s: inout Snap, _ g: inout SeededRandom, fresh: inout Int) {
        func anyItem() -> String? { s.numberOfItems == 0 ? nil : s.itemIdentifiers[g.int(s.numberOfItems)] }
        func anySection() -> String? {
            s.numberOfSections == 0 ? nil : s.sectionIdentifiers[g.int(s.numberOfSections)]
        }
        func new(_ n: Int) -> [String] {
            defer { fresh += n }
            return (0..<n).map { "i\(fresh + $0)" }
        }
        switch g.int(13) {
        case 0, 1:
            if let section = anySection() { s.appendItems(new(1 + g.int(6)), toSection: section) }
        case 2:
            if let anchor = anyItem() {
                if g.int(2) == 0 {
                    s.insertItems(new(1 + g.int(3)), beforeItem: anchor)
                } else {
                    s.insertItems(new(1 + g.int(3)), afterItem: anchor)
                }
            }
        case 3, 4:
            if s.numberOfItems > 0 {
                s.deleteItems((0..<(1 + g.int(4))).compactMap { _ in anyItem() }.uniqued())
            }
        case 5, 6:
            if let item = anyItem(), let anchor = anyItem() {
                if g.int(2) == 0 { s.moveItem(item, beforeItem: anchor) } else { s.moveItem(item, afterItem: anchor) }
            }
        case 7:
            if let section = anySection(), let anchor = anySection() {
                if g.int(2) == 0 {
                    s.moveSection(section, beforeSection: anchor)
                } else {
                    s.moveSection(section, afterSection: anchor)
                }
            }
        case 8:
            let name = "S\(fresh)"
            fresh += 1
            if let anchor = anySection(), g.int(2) == 0 {
                s.insertSections([name], beforeSection: anchor)
            } else {
                s.appendSections([name])
            }
            if g.int(2) == 0 { s.appendItems(new(g.int(5)), toSection: name) }
        case 9:
            if let section = anySection(), s.numberOfSections > 1 { s.deleteSections([section]) }
        case 10:
            s.reloadItems((0..<(1 + g.int(3))).compactMap { _ in anyItem() })
        case 11:
            if let section = anySection() { s.reloadSections([section]) }
        default:
            s.reconfigureItems((0..<(1 + g.int(4))).compactMap { _ in anyItem() })
        }
    }

    @Test(arguments: 0..<FuzzBudget.cases(300))
    func snapshotsAppliedOneAfterAnotherShowTheirItemsAndKeepTheirCells(seed: Int) throws {
        var g = SeededRandom(state: 0xd1ff_0000 &+ UInt64(seed))
        let rig = Rig()
        var fresh = 0
        var s = Snap()
        for k in 0..<(1 + g.int(3)) {
            s.appendSections(["S\(k)"])
            s.appendItems((0..<g.int(25)).map { "s\(k)-\($0)" })
        }
        rig.listSource.apply(s, animatingDifferences: false)
        rig.gridSource.apply(s, animatingDifferences: false)
        for step in 0..<6 {
            let old = rig.listSource.snapshot()
            var new = old
            for _ in 0..<(1 + g.int(6)) { Self.edit(&new, &g, fresh: &fresh) }
            let animated = g.int(3) == 0
            let listY = g.unit(0, 1) * max(0, rig.list.contentSize.height - 480)
            let gridY = g.unit(0, 1) * max(0, rig.grid.contentSize.height - 600)
            rig.list.contentOffset = Point(x: 0, y: listY.rounded())
            rig.grid.contentOffset = Point(x: 0, y: gridY.rounded())
            rig.listDriver.advance(by: 0.05)
            rig.gridDriver.advance(by: 0.05)
            let listBefore = Set(rig.list.visibleCells.values.map(\.textLabel.text))
            let listCells = Dictionary(
                rig.list.visibleCells.values.map { ($0.textLabel.text, ObjectIdentifier($0)) },
                uniquingKeysWith: { a, _ in a })
            let gridBefore = Set(rig.grid.visibleCells.values.compactMap(\.accessibilityLabel))
            rig.listAsked.items = []
            rig.gridAsked.items = []
            var done = 0
            rig.listSource.apply(new, animatingDifferences: animated) { done += 1 }
            rig.gridSource.apply(new, animatingDifferences: animated) { done += 1 }
            let replay = "seed \(seed), step \(step), animated \(animated)"
            if animated {
                rig.listDriver.settle(limit: 3)
                rig.gridDriver.settle(limit: 3)
            } else {
                rig.listWindow.layoutIfNeeded()
                rig.gridWindow.layoutIfNeeded()
            }
            #expect(done == 2, "\(replay): completions")
            #expect(rig.listSource.snapshot() == new.withoutMarks && rig.gridSource.snapshot() == new.withoutMarks)

            // The list: its rows, and the cells it kept.
            let rows = new.itemIdentifiers
            #expect(rig.listSource.numberOfRows(in: rig.list) == rows.count)
            // Lookups answer for the snapshot shown (a table kept from the last apply would not).
            for (i, item) in rows.enumerated() where rig.listSource.row(for: item) != i {
                Issue.record("\(replay): row(for: \(item)) is not \(i)")
            }
            for (s, section) in new.sectionIdentifiers.enumerated() {
                for (i, item) in new.itemIdentifiers(inSection: section).enumerated()
                where rig.gridSource.path(for: item) != ItemPath(item: i, section: s) {
                    Issue.record("\(replay): path(for: \(item)) is not \(s).\(i)")
                }
            }
            for (row, cell) in rig.list.visibleCells where cell.textLabel.text != rows[row] {
                Issue.record("\(replay): list row \(row) shows \(cell.textLabel.text), not \(rows[row])")
            }
            var reloaded = new.reloadedItemIdentifiers
            for section in new.reloadedSectionIdentifiers {
                reloaded.formUnion(new.itemIdentifiers(inSection: section))
            }
            if !animated {
                let listAfter = Set(rig.list.visibleCells.values.map(\.textLabel.text))
                let reasked = Set(rig.listAsked.items).intersection(listBefore).intersection(listAfter)
                    .subtracting(reloaded).subtracting(new.reconfiguredItemIdentifiers)
                #expect(reasked.isEmpty, "\(replay): the list asked again for \(reasked.sorted())")
                // Reconfigured in view: asked again, in the same cell.
                for cell in rig.list.visibleCells.values {
                    let item = cell.textLabel.text
                    guard new.reconfiguredItemIdentifiers.contains(item), !reloaded.contains(item),
                        let was = listCells[item]
                    else { continue }
                    #expect(was == ObjectIdentifier(cell), "\(replay): reconfigured \(item) got a new cell")
                    #expect(rig.listAsked.items.contains(item), "\(replay): reconfigured \(item) was not asked for")
                }
            }

            // The collection: its sections and items, and the cells it kept.
            #expect(rig.grid.numberOfSections == new.numberOfSections, "\(replay)")
            for (path, cell) in rig.grid.visibleCells
            where cell.accessibilityLabel != rig.gridSource.itemIdentifier(for: path) {
                Issue.record("\(replay): grid item \(path) shows \(cell.accessibilityLabel ?? "-")")
            }
            if !animated {
                // Items whose section came, went or was reloaded get new cells.
                let stable = Set(old.sectionIdentifiers).intersection(new.sectionIdentifiers)
                    .subtracting(new.reloadedSectionIdentifiers)
                let gridAfter = Set(rig.grid.visibleCells.values.compactMap(\.accessibilityLabel))
                let reasked = Set(rig.gridAsked.items).intersection(gridBefore).intersection(gridAfter)
                    .subtracting(new.reloadedItemIdentifiers).subtracting(new.reconfiguredItemIdentifiers)
                    .filter { item in
                        [old.sectionIdentifier(containingItem: item), new.sectionIdentifier(containingItem: item)]
                            .allSatisfy { $0.map(stable.contains) ?? false }
                    }
                #expect(reasked.isEmpty, "\(replay): the grid asked again for \(reasked.sorted())")
            }
        }
    }
}

extension DataSourceSnapshot {
    /// The snapshot as a data source keeps it once applied: without its reload marks.
    var withoutMarks: Self {
        var plain = Self()
        for section in sectionIdentifiers {
            plain.appendSections([section])
            plain.appendItems(itemIdentifiers(inSection: section), toSection: section)
        }
        return plain
    }
}

extension Array where Element: Hashable {
    /// The elements without repeats, in order.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
