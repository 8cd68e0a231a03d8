import ScrollwayGeometry
import ScrollwayScrolling
import ScrollwayViews

/// A list of 100,000 items in 100 sections shown from snapshots: what applying a snapshot
/// that deletes, inserts and moves a hundred items each costs on the main thread (the
/// difference worked out, the batch checked and applied, the rows in view placed), against
/// showing the same snapshot by reloading the list (`applySnapshotUsingReloadData`), the
/// baseline, measured in turn in the same run. And what building the snapshot costs.
@MainActor
enum SnapshotApplyRun {
    struct Result {
        var apply = FrameTimes()
        var reload = FrameTimes()
        var items = 0
        var changes = 0
        /// Milliseconds to build the first snapshot, section by section.
        var built = 0.0
    }

    /// A 390×844 window holding a list shown by a diffable data source whose cells say
    /// "Item n".
    static func makeList() -> (Window, ListView, ListDiffableDataSource<Int, Int>) {
        let window = Window(size: Size(width: 390, height: 844))
        let list = ListView(frame: window.bounds)
        list.register("r") { ListCell(reuseIdentifier: "r") }
        let source = ListDiffableDataSource<Int, Int>(list: list) { list, _, item in
            let cell = list.dequeueReusableCell(withIdentifier: "r")
            cell.textLabel.text = "Item \(item)"
            return cell
        }
        window.addSubview(list)
        return (window, list, source)
    }

    static func measure(quick: Bool) throws -> Result {
        let (window, list, source) = makeList()
        source.titleForHeader = { "Section \($0)" }
        let clock = ContinuousClock()
        let building = clock.now
        var snapshot = DataSourceSnapshot<Int, Int>()
        let perSection = 1_000
        for s in 0..<100 {
            snapshot.appendSections([s])
            snapshot.appendItems(Array(s * perSection..<(s + 1) * perSection), toSection: s)
        }
        let built = BenchDriver.seconds(building.duration(to: clock.now)) * 1000
        source.apply(snapshot, animatingDifferences: false)
        list.contentOffset = Point(x: 0, y: list.contentSize.height / 2)
        window.layoutIfNeeded()

        var result = Result(items: snapshot.numberOfItems, changes: 300, built: built)
        // A fixed sequence (a linear congruential generator): every run edits alike.
        var state: UInt64 = 0x5eed
        func pick(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        var next = snapshot.numberOfItems
        for _ in 0..<(quick ? 3 : 10) {
            var items = snapshot.itemIdentifiers
            var gone = Set<Int>()
            while gone.count < 100 { gone.insert(items[pick(items.count)]) }
            snapshot.deleteItems(Array(gone))
            items = snapshot.itemIdentifiers
            for _ in 0..<100 {
                snapshot.insertItems([next], beforeItem: items[pick(items.count)])
                next += 1
            }
            items = snapshot.itemIdentifiers
            var moved = 0
            while moved < 100 {
                let (item, anchor) = (items[pick(items.count)], items[pick(items.count)])
                if item != anchor, snapshot.moveItem(item, afterItem: anchor) { moved += 1 }
            }
            var start = clock.now
            source.apply(snapshot, animatingDifferences: false)
            window.layoutIfNeeded()
            result.apply.samples.append(BenchDriver.seconds(start.duration(to: clock.now)) * 1000)
            start = clock.now
            source.applySnapshotUsingReloadData(snapshot)
            window.layoutIfNeeded()
            result.reload.samples.append(BenchDriver.seconds(start.duration(to: clock.now)) * 1000)
        }
        guard
            list.visibleCells.allSatisfy({ row, cell in
                cell.textLabel.text == "Item \(source.itemIdentifier(forRow: row) ?? -1)"
            })
        else { throw BenchError("bench: the snapshot's list shows rows other than its items") }
        return result
    }
}

/// An outline of 100 folders of 1,000 items each, every folder open (100,100 rows): the folder
/// of the rows in view closed and opened again, each an unanimated `collapse` or `expand` (the
/// folder's rows deleted, then inserted, as one run; the others kept), against showing the
/// same rows by reloading the list, the baseline, measured in turn in the same run.
@MainActor
enum OutlineToggleRun {
    struct Result {
        var toggle = FrameTimes()
        var reload = FrameTimes()
        var rows = 0
    }

    static func measure(quick: Bool) throws -> Result {
        let (window, list, source) = SnapshotApplyRun.makeList()
        // Folders are -1 to -100, their items 0 to 99,999.
        do {
            // Made and handed over, as an app does: an outline the app still held a copy of
            // would be copied whole at the first folder opened.
            var outline = SectionSnapshot<Int>()
            let folders = (0..<100).map { -1 - $0 }
            outline.append(folders)
            for (k, folder) in folders.enumerated() { outline.append(Array(k * 1_000..<(k + 1) * 1_000), to: folder) }
            outline.expand(folders)
            source.apply(outline, to: 0, animatingDifferences: false)
        }
        list.contentOffset = Point(x: 0, y: list.contentSize.height / 2)
        window.layoutIfNeeded()

        var result = Result(rows: source.numberOfRows(in: list))
        let clock = ContinuousClock()
        for _ in 0..<(quick ? 3 : 10) {
            let inView = list.visibleCells.keys.sorted()
            let top = inView.isEmpty ? 0 : source.itemIdentifier(forRow: inView[inView.count / 2]) ?? 0
            let folder = top < 0 ? top : -1 - top / 1_000
            var start = clock.now
            guard source.collapse(folder, animatingDifferences: false) else {
                throw BenchError("bench: the outline's folder \(folder) did not close")
            }
            window.layoutIfNeeded()
            guard source.expand(folder, animatingDifferences: false) else {
                throw BenchError("bench: the outline's folder \(folder) did not open")
            }
            window.layoutIfNeeded()
            result.toggle.samples.append(BenchDriver.seconds(start.duration(to: clock.now)) * 1000 / 2)
            start = clock.now
            source.applySnapshotUsingReloadData(source.snapshot())
            window.layoutIfNeeded()
            result.reload.samples.append(BenchDriver.seconds(start.duration(to: clock.now)) * 1000)
        }
        guard source.numberOfRows(in: list) == result.rows,
            list.visibleCells.allSatisfy({ row, cell in
                cell.textLabel.text == "Item \(source.itemIdentifier(forRow: row) ?? 0)"
                    && cell.outlineDisclosure != nil
            })
        else { throw BenchError("bench: the outline's list shows rows other than its items") }
        return result
    }
}
