import ScrollwayGeometry
import ScrollwayViews

/// A list's update: the calls collected by its `performBatchUpdates`, or a single
/// `insertRows`, `deleteRows` or `reloadRows` as a batch of one, with UITableView's index rules:
/// deletions, reloads and the sources of moves name rows before the batch; insertions and the
/// destinations of moves, rows after it.
struct RowBatch {
    var deleted = Set<Int>()
    var inserted = Set<Int>()
    var reloaded = Set<Int>()
    var moves: [(from: Int, to: Int)] = []
    /// The first animation a call asked for (UITableView animates each call its own way; here
    /// the batch moves as one).
    var animation = RowAnimation.none
    var completions: [(Bool) -> Void] = []

    mutating func insert(_ rows: [Int], _ a: RowAnimation) {
        inserted.formUnion(rows)
        take(a)
    }
    mutating func delete(_ rows: [Int], _ a: RowAnimation) {
        deleted.formUnion(rows)
        take(a)
    }
    mutating func reload(_ rows: [Int], _ a: RowAnimation) {
        reloaded.formUnion(rows)
        take(a)
    }
    mutating func move(_ from: Int, _ to: Int, _ a: RowAnimation) {
        moves.append((from, to))
        take(a)
    }
    private mutating func take(_ a: RowAnimation) { if animation == .none { animation = a } }

    var isEmpty: Bool { deleted.isEmpty && inserted.isEmpty && reloaded.isEmpty && moves.isEmpty }

    /// What the batch does to a list of `count` rows: the rows' new count, where each old row
    /// goes (nil: deleted), the rows to take out of the layout (before) and to put in (after),
    /// or why it cannot be applied.
    func resolve(count: Int) -> Result<Resolved, Refusal> {
        let sources = moves.map(\.from)
        let destinations = moves.map(\.to)
        let newCount = count - deleted.count + inserted.count
        func outside(_ rows: some Sequence<Int>, _ n: Int) -> Int? { rows.first { $0 < 0 || $0 >= n } }
        if let r = outside(deleted.union(reloaded).union(sources), count) {
            return .failure(Refusal("row \(r) is outside 0..<\(count) (the rows before the update)"))
        }
        if let r = outside(inserted.union(destinations), newCount) {
            return .failure(Refusal("row \(r) is outside 0..<\(newCount) (the rows after the update)"))
        }
        let from = Set(sources)
        let to = Set(destinations)
        if from.count < sources.count { return .failure(Refusal("a row is moved twice")) }
        if to.count < destinations.count { return .failure(Refusal("two rows are moved to one place")) }
        if let r = deleted.intersection(from.union(reloaded)).min() {
            return .failure(Refusal("row \(r) is deleted and also moved or reloaded"))
        }
        if let r = reloaded.intersection(from).min() { return .failure(Refusal("row \(r) is moved and reloaded")) }
        if let r = inserted.intersection(to).min() {
            return .failure(Refusal("row \(r) is inserted and a move's destination"))
        }
        let leaving = deleted.union(from).sorted()
        let arriving = inserted.union(to).sorted()
        // A row that stays, the k-th of those left, takes the k-th place the arrivals leave
        // free: after every arrival j with arriving[j] − j ≤ k (as insertRows counts).
        let gaps = arriving.enumerated().map { $1 - $0 }
        let movedTo = Dictionary(uniqueKeysWithValues: moves.map { ($0.from, $0.to) })
        let deleted = self.deleted
        let newIndex = { (old: Int) -> Int? in
            if deleted.contains(old) { return nil }
            if let to = movedTo[old] { return to }
            let k = old - leaving.countBelow(old)
            return k + gaps.countBelow(k + 1)
        }
        return .success(Resolved(newCount: newCount, newIndex: newIndex, leaving: leaving, arriving: arriving))
    }

    struct Resolved {
        let newCount: Int
        let newIndex: (Int) -> Int?
        let leaving: [Int]
        let arriving: [Int]
    }

    struct Refusal: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}

extension ListView {
    /// Makes the updates `updates` calls (`insertRows(at:with:)`, `deleteRows(at:with:)`,
    /// `reloadRows(at:with:)`, `moveRow(at:to:animated:)`) one update, as UITableView's: they
    /// are collected, not applied, and applied together when `updates` returns, read with
    /// UIKit's index rules (deletions, reloads and the sources of moves name rows before the
    /// batch; insertions and the destinations of moves, after it), so the data source changes
    /// its model once, in the closure, for all of them. The rows in view stay where they are on
    /// screen (a list at its top keeps its offset), a moved row keeps its cell and measured
    /// height, and the selection follows its rows. Animated by the first animation a call asks
    /// for, the rows slide once. The data source's count after must be the count before, less
    /// the deletions, plus the insertions; a batch it does not agree with, or one that deletes
    /// and moves one row, or moves and reloads it, is refused as a single update is: logged,
    /// and the list reloads (UIKit raises "Invalid update").
    ///
    /// A batch that changes no row (as UIKit's empty `beginUpdates()`/`endUpdates()`) asks the
    /// data source for its sections again, their heights and titles: how a section's header or
    /// footer height changed in the app's model is shown, the rows in view kept still.
    ///
    /// A batch inside the closure joins this one. `completion` is called once the batch is
    /// applied, or once its animation is over, with whether its rows ran to their places (as
    /// UIKit's: false when a later update or the app took a row's animation over on the way);
    /// with false for a batch refused.
    public func performBatchUpdates(_ updates: () -> Void, completion: ((Bool) -> Void)? = nil) {
        guard rowBatch == nil else {
            updates()
            if let completion { rowBatch?.completions.append(completion) }
            return
        }
        rowBatch = RowBatch()
        updates()
        guard var batch = rowBatch else { return }
        rowBatch = nil
        if let completion { batch.completions.append(completion) }
        if batch.isEmpty && !isUpdating { keepingRowsInViewStill(mutate: {}, newIndex: { $0 }) }
        let completions = batch.completions
        commit(batch, name: "performBatchUpdates") { applied in completions.forEach { $0(applied) } }
        if !reconfigureAfterBatch.isEmpty {
            let rows = reconfigureAfterBatch
            reconfigureAfterBatch = []
            reconfigureRows(at: rows.filter { $0 >= 0 && $0 < count })
        }
    }

    /// Checks an update (a batch, or a single call as a batch of one) against the list and the
    /// data source, and applies it; one they do not agree with is refused (`refuseUpdate`).
    /// `done` hears whether it was applied, once it is over (its animation ended).
    func commit(_ batch: RowBatch, name: String, done: @escaping (Bool) -> Void = { _ in }) {
        guard !batch.isEmpty else { return done(true) }
        // From the data source's `cellForRow` (its model changed as a row was asked for): the
        // pass would keep the cell being made on the row it was asked for, another's after
        // the update. The list reloads once the pass ends, as the collection does.
        if isUpdating {
            refuseUpdate("\(name): made while the list asks for rows")
            return done(false)
        }
        abandonMovementForUpdate()
        let resolved: RowBatch.Resolved
        switch batch.resolve(count: count) {
        case .failure(let refusal):
            refuseUpdate("\(name): \(refusal.reason)")
            return done(false)
        case .success(let r): resolved = r
        }
        if let rows = dataSourceHas(resolved.newCount) {
            refuseUpdate(
                "\(name): the data source has \(rows) rows, where \(count), less \(batch.deleted.count) "
                    + "deleted and with \(batch.inserted.count) inserted, make \(resolved.newCount)")
            return done(false)
        }
        let newIndex = resolved.newIndex
        let reloaded = batch.reloaded.sorted()
        let reloadedAfter = reloaded.compactMap(newIndex)
        // A moved row keeps what was measured of it.
        let heights = batch.moves.compactMap { m in layout.isMeasured(m.from) ? (m.to, layout.height(m.from)) : nil }
        animatingRows(
            batch.animation, departing: batch.deleted.sorted() + reloaded,
            arriving: batch.inserted.sorted() + reloadedAfter,
            newIndex: newIndex, done: done
        ) {
            keepingRowsInViewStill(
                mutate: {
                    // Still numbered as before the update here: the reloaded rows' cells go.
                    for r in reloaded { if let cell = visibleCells.removeValue(forKey: r) { recycle(cell) } }
                    // Reloads alone change no row's place: no pass over every row.
                    if !resolved.leaving.isEmpty || !resolved.arriving.isEmpty {
                        layout.apply(inserted: resolved.arriving, deleted: resolved.leaving)
                    }
                    for (row, h) in heights { layout.setHeight(row, h) }
                    for r in reloadedAfter { layout.forgetMeasurement(r) }
                },
                newIndex: newIndex, moved: Set(batch.moves.map(\.from)))
        }
    }
}
