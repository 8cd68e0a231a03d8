/// The updates that turn a list or a collection showing one snapshot into one showing
/// another, in UIKit's batch terms: deletions, reloads and the sources of moves name indices
/// before the update, insertions and the destinations of moves, after it.
///
/// An item in both snapshots keeps its cell: it stays, or it moves. Which move is the fewest:
/// of the items that keep their section, those whose old places still ascend in the new order
/// stay, and the longest such run (the longest increasing subsequence, O(n log n)) is kept, so
/// that swapping two rows moves one, not every row between them. A reloaded item that also
/// moves is deleted and inserted (UIKit's batch refuses a move and a reload of one item), as a
/// reloaded section that moves is.
enum SnapshotDifference {
    /// A list's update: rows by their index among all the rows.
    struct Rows: Equatable {
        var deleted: [Int] = []
        var inserted: [Int] = []
        var reloaded: [Int] = []
        var moves: [Move<Int>] = []
    }

    /// A collection's update.
    struct Paths: Equatable {
        var deletedSections: [Int] = []
        var insertedSections: [Int] = []
        var reloadedSections: [Int] = []
        var movedSections: [Move<Int>] = []
        var deletedItems: [ItemPath] = []
        var insertedItems: [ItemPath] = []
        var reloadedItems: [ItemPath] = []
        var movedItems: [Move<ItemPath>] = []
    }

    struct Move<Index: Equatable>: Equatable {
        let from: Index
        let to: Index
    }

    /// A list's rows are every section's items one after another; its sections are read
    /// anew with every update, so only the rows need saying. A reloaded section reloads its
    /// rows.
    static func rows<S, I>(from old: DataSourceSnapshot<S, I>, to new: DataSourceSnapshot<S, I>) -> Rows {
        rows(from: old.itemIdentifiers, to: new.itemIdentifiers, reloaded: reloadedItems(of: new))
    }

    /// The items `snapshot` marks reloaded, its reloaded sections' items among them.
    static func reloadedItems<S, I>(of snapshot: DataSourceSnapshot<S, I>) -> Set<I> {
        var items = snapshot.reloadedItemIdentifiers
        for s in snapshot.reloadedSectionIdentifiers { items.formUnion(snapshot.itemIdentifiers(inSection: s)) }
        return items
    }

    /// The rows' update from the items `before` to those `after` (each without repeats).
    static func rows<I: Hashable>(from before: [I], to after: [I], reloaded: Set<I>) -> Rows {
        let table = PositionTable(before)
        var rows = Rows()
        var found = [Bool](repeating: false, count: before.count)
        // The items in both, in their new order, with their old places.
        var kept: [(old: Int, new: Int)] = []
        kept.reserveCapacity(min(before.count, after.count))
        for j in after.indices {
            if let i = table.position(of: after[j]) {
                kept.append((i, j))
                found[i] = true
            } else {
                rows.inserted.append(j)
            }
        }
        for (i, isFound) in found.enumerated() where !isFound { rows.deleted.append(i) }
        let staying = longestIncreasingRun(kept.map(\.old))
        for (k, pair) in kept.enumerated() {
            let isReloaded = !reloaded.isEmpty && reloaded.contains(after[pair.new])
            if staying[k] {
                if isReloaded { rows.reloaded.append(pair.old) }
            } else if isReloaded {
                rows.deleted.append(pair.old)
                rows.inserted.append(pair.new)
            } else {
                rows.moves.append(Move(from: pair.old, to: pair.new))
            }
        }
        rows.deleted.sort()
        rows.inserted.sort()
        return rows
    }

    /// A collection's update: sections deleted, inserted, moved (the fewest) and reloaded,
    /// then items. The items of a section deleted or reloaded are not named (they go with it),
    /// nor those of a section inserted or reloaded (the data source gives them): an item
    /// leaving such a section for one that stays is inserted there, and one coming into such a
    /// section from one that stays is deleted from it.
    static func paths<S, I>(from old: DataSourceSnapshot<S, I>, to new: DataSourceSnapshot<S, I>) -> Paths {
        var paths = Paths()
        let oldSections = old.sectionIdentifiers
        let newSections = new.sectionIdentifiers
        // Per old section: false when its items go with it; per new section: false when the
        // data source gives its items.
        var oldTracked = [Bool](repeating: true, count: oldSections.count)
        var newTracked = [Bool](repeating: true, count: newSections.count)
        // A section in both, by its new index: its old one.
        var sameSection = [Int?](repeating: nil, count: newSections.count)
        for (s, id) in oldSections.enumerated() where new.indexOfSection(id) == nil {
            paths.deletedSections.append(s)
            oldTracked[s] = false
        }
        var keptSections: [(old: Int, new: Int)] = []
        for (t, id) in newSections.enumerated() {
            if let s = old.indexOfSection(id) {
                keptSections.append((s, t))
            } else {
                paths.insertedSections.append(t)
                newTracked[t] = false
            }
        }
        let sectionsStaying = longestIncreasingRun(keptSections.map(\.old))
        for (k, pair) in keptSections.enumerated() {
            let reloaded = new.reloadedSectionIdentifiers.contains(newSections[pair.new])
            if reloaded {
                oldTracked[pair.old] = false
                newTracked[pair.new] = false
                if sectionsStaying[k] {
                    paths.reloadedSections.append(pair.old)
                } else {
                    paths.deletedSections.append(pair.old)
                    paths.insertedSections.append(pair.new)
                }
                continue
            }
            sameSection[pair.new] = pair.old
            if !sectionsStaying[k] { paths.movedSections.append(Move(from: pair.old, to: pair.new)) }
        }

        // Items: where each old one stood.
        let (oldItems, oldPaths) = old.itemsWithPaths()
        let table = PositionTable(oldItems)
        var found = [Bool](repeating: false, count: oldItems.count)
        let reloadsItems = !new.reloadedItemIdentifiers.isEmpty
        for t in newSections.indices {
            let items = new.items(inSectionAt: t)
            // The items that stay in this section, in their new order.
            var kept: [(old: ItemPath, new: ItemPath)] = []
            // An index loop, as in `rows`: no generic metadata asked for at every step.
            for j in items.indices {
                let item = items[j]
                let to = ItemPath(item: j, section: t)
                guard let position = table.position(of: item) else {
                    if newTracked[t] { paths.insertedItems.append(to) }
                    continue
                }
                found[position] = true
                let from = oldPaths[position]
                switch (oldTracked[from.section], newTracked[t]) {
                case (false, false): break
                case (false, true): paths.insertedItems.append(to)
                case (true, false): paths.deletedItems.append(from)
                case (true, true):
                    if sameSection[t] == from.section {
                        kept.append((from, to))
                    } else if reloadsItems && new.reloadedItemIdentifiers.contains(item) {
                        paths.deletedItems.append(from)
                        paths.insertedItems.append(to)
                    } else {
                        paths.movedItems.append(Move(from: from, to: to))
                    }
                }
            }
            let staying = longestIncreasingRun(kept.map(\.old.item))
            for (k, pair) in kept.enumerated() {
                let reloaded = reloadsItems && new.reloadedItemIdentifiers.contains(items[pair.new.item])
                if staying[k] {
                    if reloaded { paths.reloadedItems.append(pair.old) }
                } else if reloaded {
                    paths.deletedItems.append(pair.old)
                    paths.insertedItems.append(pair.new)
                } else {
                    paths.movedItems.append(Move(from: pair.old, to: pair.new))
                }
            }
        }
        // The old items gone from the snapshot, from sections whose items are named.
        for (position, path) in oldPaths.enumerated() where !found[position] && oldTracked[path.section] {
            paths.deletedItems.append(path)
        }
        paths.deletedSections.sort()
        paths.insertedSections.sort()
        paths.deletedItems.sort()
        paths.insertedItems.sort()
        return paths
    }

    /// Which positions in `values` (distinct) make a longest run that ascends, as patience
    /// sorting finds one: `tails[k]` is the position of the least value ending an ascending run
    /// of k + 1, and each position remembers the one before it in its run.
    static func longestIncreasingRun(_ values: [Int]) -> [Bool] {
        var tails: [Int] = []
        // The values at `tails`, searched without going through the positions.
        var ends: [Int] = []
        var previous = [Int](repeating: -1, count: values.count)
        for (i, v) in values.enumerated() {
            // The first run whose end is not below v; most often the longest (the values
            // mostly ascend: few items moved), so that is tried first.
            var lo = 0
            var hi = ends.count
            if let last = ends.last, last < v {
                lo = hi
            } else {
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if ends[mid] < v { lo = mid + 1 } else { hi = mid }
                }
            }
            if lo > 0 { previous[i] = tails[lo - 1] }
            if lo == tails.count {
                tails.append(i)
                ends.append(v)
            } else {
                tails[lo] = i
                ends[lo] = v
            }
        }
        var run = [Bool](repeating: false, count: values.count)
        var i = tails.last ?? -1
        while i >= 0 {
            run[i] = true
            i = previous[i]
        }
        return run
    }
}

/// Where each item of an array stands, found by its hash value in a table keyed by `Int` and
/// compared with the item itself only on a match. A `Dictionary` keyed by the items, generic
/// code not specialized for the app's identifier type, spent about 300 ns on each insertion and
/// lookup (decisions.md, 0.15.48); the item's own hash and equality are still asked once each.
struct PositionTable<Item: Hashable> {
    private let items: [Item]
    /// The first position with each hash value.
    private var first: [Int: Int]
    /// Further positions whose hash values collide with an earlier one's (rare).
    private var more: [Int: [Int]] = [:]

    init(_ items: [Item]) {
        self.items = items
        first = Dictionary(minimumCapacity: items.count)
        // Index loops: an enumerated sequence of items asks the runtime for its generic
        // metadata at every step in code not specialized for the item's type.
        for i in items.indices {
            let h = items[i].hashValue
            if let earlier = first.updateValue(i, forKey: h) {
                first[h] = earlier
                more[h, default: []].append(i)
            }
        }
    }

    func position(of item: Item) -> Int? {
        let h = item.hashValue
        guard let i = first[h] else { return nil }
        if items[i] == item { return i }
        return more[h]?.first { items[$0] == item }
    }
}
