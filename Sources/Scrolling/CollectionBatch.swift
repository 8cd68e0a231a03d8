/// The calls of one update to a collection, collected as UIKit's `performBatchUpdates`
/// collects them (a single call outside a batch is a batch of its own), and checked as UIKit
/// checks them at the batch's end: every index names a section or an item there is (before the
/// update for deletions, reloads and the sources of moves; after it for insertions and the
/// destinations of moves), no index is named twice in ways that contradict each other (UIKit
/// raises on a delete and a move of one item, a reload of a moved or deleted one, two moves from
/// one place or to one), and the data source's counts are those the update makes: per section
/// that stays, the count before less the items deleted or moved out, plus those inserted or
/// moved in ("Invalid update: invalid number of items in section").
struct CollectionBatch {
    /// The call a refusal names: the single call, or `performBatchUpdates`.
    let name: String
    var deletedSections = Set<Int>()
    var insertedSections = Set<Int>()
    var reloadedSections = Set<Int>()
    var movedSections: [(from: Int, to: Int)] = []
    var deletedItems = Set<ItemPath>()
    var insertedItems = Set<ItemPath>()
    var reloadedItems = Set<ItemPath>()
    var movedItems: [(from: ItemPath, to: ItemPath)] = []
    /// The completions of the batch and of those nested in it, called when it is applied.
    var completions: [(Bool) -> Void] = []

    init(name: String) { self.name = name }

    var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && reloadedSections.isEmpty && movedSections.isEmpty
            && deletedItems.isEmpty && insertedItems.isEmpty && reloadedItems.isEmpty && movedItems.isEmpty
    }

    /// What the data source has after the app changed its model.
    struct Source {
        let sections: Int
        let items: (Int) -> Int
    }

    /// Why a batch is refused.
    struct Refusal: Error {
        let reason: String
    }

    /// The update the batch makes of sections holding `old` items, and the counts after it;
    /// `source` (nil: no data source, which agrees with anything but cannot say how many items
    /// a new section has) must agree with them.
    func resolve(counts old: [Int], source: Source?) throws(Refusal) -> (update: CollectionUpdate, counts: [Int]) {
        let newSectionCount = old.count - deletedSections.count + insertedSections.count
        let movedFrom = movedSections.map(\.from)
        let movedTo = movedSections.map(\.to)
        for s in deletedSections.union(reloadedSections).union(movedFrom).sorted() where s < 0 || s >= old.count {
            throw Refusal(reason: "section \(s) is outside 0..<\(old.count)")
        }
        for s in insertedSections.union(movedTo).sorted() where s < 0 || s >= newSectionCount {
            throw Refusal(reason: "section \(s) is outside 0..<\(newSectionCount) (the sections after the update)")
        }
        try Self.checkDistinct(
            "section", before: (deletedSections, reloadedSections, movedFrom), after: (insertedSections, movedTo))
        if let source, source.sections != newSectionCount {
            let less = deletedSections.isEmpty ? "" : " less \(deletedSections.count) deleted"
            let more = insertedSections.isEmpty ? "" : " and \(insertedSections.count) inserted"
            throw Refusal(
                reason:
                    "the data source has \(source.sections) sections, where \(old.count)\(less)\(more) make \(newSectionCount)"
            )
        }

        // The sections that stay fill, in order, the places insertions and moves leave free.
        let sectionMoves = Dictionary(uniqueKeysWithValues: movedSections.map { ($0.from, $0.to) })
        let taken = insertedSections.union(movedTo)
        var newSections = [Int?](repeating: nil, count: old.count)
        var oldSection = [Int?](repeating: nil, count: newSectionCount)
        var free = 0
        for s in old.indices where !deletedSections.contains(s) {
            if let to = sectionMoves[s] {
                newSections[s] = to
            } else {
                while taken.contains(free) { free += 1 }
                newSections[s] = free
                free += 1
            }
            if let t = newSections[s] { oldSection[t] = s }
        }
        // Sections whose items the data source says anew: those inserted, those reloaded.
        let readAnew = insertedSections.union(reloadedSections.compactMap { newSections[$0] })

        let moveSources = movedItems.map(\.from)
        let moveDestinations = movedItems.map(\.to)
        for p in deletedItems.union(reloadedItems).union(moveSources).sorted() {
            guard p.isItem(in: old) else { throw Refusal(reason: Self.outside(p, old)) }
            if deletedSections.contains(p.section) || reloadedSections.contains(p.section) {
                throw Refusal(reason: "item \(p) is in section \(p.section), which the update deletes or reloads")
            }
        }
        try Self.checkDistinct(
            "item", before: (deletedItems, reloadedItems, moveSources), after: (insertedItems, moveDestinations))

        let leaving = Dictionary(grouping: deletedItems.union(moveSources), by: \.section).mapValues {
            $0.map(\.item).sorted()
        }
        let arriving = Dictionary(grouping: insertedItems.union(moveDestinations), by: \.section).mapValues {
            $0.map(\.item).sorted()
        }
        var newCounts: [Int] = []
        for t in 0..<newSectionCount {
            if readAnew.contains(t) {
                guard let source else { throw Refusal(reason: "there is no data source to count section \(t)'s items") }
                newCounts.append(max(0, source.items(t)))
            } else if let s = oldSection[t] {
                newCounts.append(old[s] - (leaving[s]?.count ?? 0) + (arriving[t]?.count ?? 0))
            }
        }
        for p in insertedItems.union(moveDestinations).sorted() {
            guard p.isItem(in: newCounts) else {
                let inRange = p.section >= 0 && p.section < newCounts.count
                throw Refusal(reason: Self.outside(p, newCounts) + (inRange ? " (the items after the update)" : ""))
            }
            if readAnew.contains(p.section) {
                throw Refusal(reason: "item \(p) is in section \(p.section), which the update inserts or reloads")
            }
        }
        if let source {
            for (t, n) in newCounts.enumerated() where !readAnew.contains(t) {
                let has = source.items(t)
                if has != n {
                    throw Refusal(
                        reason: "the data source has \(has) items in section \(t), where the update makes \(n)")
                }
            }
        }
        let update = CollectionUpdate(
            newSections: newSections, insertsSections: !insertedSections.isEmpty, movedSections: Set(movedFrom),
            reloadedSections: Dictionary(
                uniqueKeysWithValues: reloadedSections.compactMap { s in
                    newSections[s].map { ($0, newCounts[$0]) }
                }),
            itemsLeaving: leaving, itemsArriving: arriving,
            movedItems: Dictionary(uniqueKeysWithValues: movedItems.map { ($0.from, $0.to) }),
            reloadedItems: reloadedItems)
        return (update, newCounts)
    }

    /// Refuses what UIKit raises on: one place named by two moves, moved and deleted, reloaded
    /// and deleted or moved (a reload is a deletion and an insertion), or inserted and moved to.
    private static func checkDistinct<T: Hashable & Comparable>(
        _ kind: String, before: (deleted: Set<T>, reloaded: Set<T>, moved: [T]), after: (inserted: Set<T>, moved: [T])
    ) throws(Refusal) {
        if let x = repeated(before.moved) { throw Refusal(reason: "\(kind) \(x) is moved twice") }
        if let x = repeated(after.moved) {
            throw Refusal(reason: "two \(kind)s are moved to \(kind) \(x)")
        }
        let sources = Set(before.moved)
        if let x = before.deleted.intersection(sources).min() {
            throw Refusal(reason: "\(kind) \(x) is deleted and moved")
        }
        if let x = before.reloaded.intersection(before.deleted).min() {
            throw Refusal(reason: "\(kind) \(x) is deleted and reloaded")
        }
        if let x = before.reloaded.intersection(sources).min() {
            throw Refusal(reason: "\(kind) \(x) is moved and reloaded")
        }
        if let x = after.inserted.intersection(after.moved).min() {
            throw Refusal(reason: "\(kind) \(x) is inserted and moved to")
        }
    }

    /// The least value `values` holds twice.
    private static func repeated<T: Hashable & Comparable>(_ values: [T]) -> T? {
        var seen = Set<T>()
        return values.sorted().first { !seen.insert($0).inserted }
    }

    /// Why `path` names no item of sections holding `counts` items.
    static func outside(_ path: ItemPath, _ counts: [Int]) -> String {
        guard path.section >= 0 && path.section < counts.count else {
            return "section \(path.section) of item \(path) is outside 0..<\(counts.count)"
        }
        return "item \(path) is outside 0..<\(counts[path.section]) in section \(path.section)"
    }
}
