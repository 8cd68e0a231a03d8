import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayScrolling
import ScrollwayTestSupport
import ScrollwayViews
import Testing

/// An outline section between two flat ones, changed at random from random scroll positions: rows
/// opened and closed by the data source's calls and by the chevron's route (the list naming
/// the row), children added (some by a loader as their parent opens, which may drop a child
/// too), subtrees deleted, siblings inserted, whole outlines applied, and the whole list's
/// snapshot applied again with the flat section grown, animated or not.
/// After each step the list's rows are the first flat section's items, the outline's visible
/// items as a model of the tree of its own works them out (depth first through open
/// parents), then the last section's; the sections start where their rows do (the last one's
/// header right above its first row), and every cell in view shows its item, its level and
/// its chevron.
@MainActor
@Suite struct OutlineFuzzTests {
    /// The tree as plain arrays: each parent's children, and which items are open.
    struct Model {
        var children: [String: [String]] = ["": []]
        var open: Set<String> = []
        var parent: [String: String] = [:]

        var all: [String] { parent.keys.sorted() }

        func visible(under p: String = "") -> [String] {
            (children[p] ?? []).flatMap { c in [c] + (open.contains(c) ? visible(under: c) : []) }
        }

        func level(_ item: String) -> Int {
            var l = 0
            var p = parent[item] ?? ""
            while !p.isEmpty {
                l += 1
                p = parent[p] ?? ""
            }
            return l
        }

        mutating func add(_ items: [String], under p: String, at index: Int? = nil) {
            children[p, default: []].insert(contentsOf: items, at: index ?? children[p, default: []].count)
            for i in items {
                parent[i] = p
                children[i] = []
            }
        }

        mutating func remove(_ item: String) {
            for c in children[item] ?? [] { remove(c) }
            children[parent[item] ?? "", default: []].removeAll { $0 == item }
            children[item] = nil
            parent[item] = nil
            open.remove(item)
        }
    }

    @Test(arguments: 0..<FuzzBudget.cases(120))
    func anOutlineChangedAtRandomShowsWhatItsModelShows(seed: Int) throws {
        var g = SeededRandom(state: 0x0071_0000 &+ UInt64(seed))
        let window = Window(size: Size(width: 320, height: 480))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        list.register("r") { ListCell(reuseIdentifier: "r") }
        list.estimatedRowHeight = 44
        let source = ListDiffableDataSource<String, String>(list: list) { list, _, item in
            let cell = list.dequeueReusableCell(withIdentifier: "r")
            cell.textLabel.text = item
            return cell
        }
        source.titleForHeader = { $0 }
        window.addSubview(list)
        let driver = FrameDriver(window: window, skipsQuietFrames: true)
        var flat = DataSourceSnapshot<String, String>()
        flat.appendSections(["flat", "tree", "tail"])
        flat.appendItems((0..<g.int(6)).map { "f\($0)" }, toSection: "flat")
        let tail = (0..<1 + g.int(3)).map { "t\($0)" }
        flat.appendItems(tail, toSection: "tail")
        source.apply(flat, animatingDifferences: false)

        var model = Model()
        var fresh = 0
        func new(_ n: Int) -> [String] {
            (0..<n).map { _ in
                fresh += 1; return "o\(fresh)"
            }
        }
        var outline = SectionSnapshot<String>()
        let roots = new(1 + g.int(5))
        outline.append(roots)
        model.add(roots, under: "")
        source.apply(outline, to: "tree", animatingDifferences: false)

        for step in 0..<12 {
            let animated = g.int(3) == 0
            var byChevron = false
            let replay = "seed \(seed), step \(step), animated \(animated)"
            list.contentOffset = Point(x: 0, y: (g.unit(0, 1) * max(0, list.contentSize.height - 480)).rounded())
            driver.advance(by: 0.05)
            let items = model.all
            let any = items.isEmpty ? nil : items[g.int(items.count)]
            switch g.int(7) {
            case 0, 1:
                // Open or close an item as the data source's calls do, or, for a row shown, as
                // its chevron does (the list names the row; animated); one in three openings
                // loads a child more, as a folder's contents come in, half of them dropping
                // the first child the folder had (with its subtree).
                guard let item = any else { break }
                let wasOpen = model.open.contains(item)
                let loaded = !wasOpen && g.int(3) == 0 ? new(1)[0] : nil
                let dropped = loaded != nil && g.int(2) == 0 ? model.children[item]?.first : nil
                if let loaded {
                    source.sectionSnapshotHandlers.snapshotForExpandingParent = { _, children in
                        var more = children
                        if let dropped { more.delete([dropped]) }
                        more.append([loaded])
                        return more
                    }
                }
                let shownRow = (flat.itemIdentifiers(inSection: "flat") + model.visible()).firstIndex(of: item)
                let done: Bool
                if let shownRow, g.int(2) == 0 {
                    byChevron = true
                    done = source.list(list, setRow: shownRow, expanded: !wasOpen)
                } else {
                    done =
                        wasOpen
                        ? source.collapse(item, animatingDifferences: animated)
                        : source.expand(item, animatingDifferences: animated)
                }
                source.sectionSnapshotHandlers.snapshotForExpandingParent = nil
                #expect(done, "\(replay): \(wasOpen ? "collapse" : "expand") \(item)")
                if wasOpen { model.open.remove(item) } else { model.open.insert(item) }
                if let dropped { model.remove(dropped) }
                if let loaded { model.add([loaded], under: item) }
            case 2:
                // The data source's own snapshot again, the flat section given an item new to
                // the list: the outline stays one (its rows open and close at later steps).
                var whole = source.snapshot()
                let item = "f-\(step)"
                whole.appendItems([item], toSection: "flat")
                flat.appendItems([item], toSection: "flat")
                source.apply(whole, animatingDifferences: animated)
            default:
                var o = source.snapshot(for: "tree")
                let edited: Bool
                switch g.int(4) {
                case 0:
                    let kids = new(1 + g.int(4))
                    let p = any ?? ""
                    edited = p.isEmpty ? o.append(kids) : o.append(kids, to: p)
                    model.add(kids, under: p)
                case 1:
                    guard let item = any else { continue }
                    edited = o.delete([item])
                    model.remove(item)
                case 2:
                    guard let item = any else { continue }
                    let kids = new(1 + g.int(2))
                    let p = model.parent[item] ?? ""
                    let before = g.int(2) == 0
                    edited = before ? o.insert(kids, before: item) : o.insert(kids, after: item)
                    model.add(kids, under: p, at: model.children[p]!.firstIndex(of: item)! + (before ? 0 : 1))
                default:
                    // Open or close several at once, in the outline itself.
                    let picks = items.filter { _ in g.int(3) == 0 }
                    let opening = g.int(2) == 0
                    edited = opening ? o.expand(picks) : o.collapse(picks)
                    if opening { model.open.formUnion(picks) } else { model.open.subtract(picks) }
                }
                #expect(edited, "\(replay): the edit")
                source.apply(o, to: "tree", animatingDifferences: animated)
            }
            if animated || byChevron { driver.settle(limit: 3) } else { window.layoutIfNeeded() }

            let head = flat.itemIdentifiers(inSection: "flat")
            let shown = model.visible()
            let expected = head + shown + tail
            // The sections start where their items do, the tail's header right above its rows.
            #expect(source.sectionStarts(in: list) == [0, head.count, head.count + shown.count], "\(replay): starts")
            let tailHeader = list.rectForHeader(inSection: 2)
            #expect(tailHeader.maxY == list.rectForRow(head.count + shown.count).minY, "\(replay): the tail's header")
            let rows = (0..<source.numberOfRows(in: list)).map { source.itemIdentifier(forRow: $0) ?? "?" }
            #expect(rows == expected, "\(replay): rows")
            #expect(list.rowCount == expected.count, "\(replay): the list counts \(list.rowCount)")
            for (row, cell) in list.visibleCells where row < expected.count {
                let item = expected[row]
                guard cell.textLabel.text == item else {
                    Issue.record("\(replay): row \(row) shows \(cell.textLabel.text), not \(item)")
                    continue
                }
                guard item.hasPrefix("o") else {
                    #expect(cell.outlineDisclosure == nil && cell.indentationLevel == 0, "\(replay): \(item)")
                    continue
                }
                let kids = model.children[item] ?? []
                let disclosure: OutlineDisclosure =
                    kids.isEmpty ? .leaf : model.open.contains(item) ? .expanded : .collapsed
                #expect(cell.outlineDisclosure == disclosure, "\(replay): \(item)'s chevron")
                #expect(cell.indentationLevel == model.level(item), "\(replay): \(item)'s level")
                let parentRow = source.list(list, parentOfRow: row)
                let p = model.parent[item] ?? ""
                #expect(parentRow == (p.isEmpty ? nil : expected.firstIndex(of: p)), "\(replay): \(item)'s parent")
            }
        }
    }
}
