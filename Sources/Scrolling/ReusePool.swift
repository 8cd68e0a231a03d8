import ScrollwayViews

/// Cells waiting to show another row or item, by reuse identifier, and the factories that make
/// new ones: what `ListView` and `CollectionView` share. Only the cells in view (and a margin)
/// exist; one that leaves goes here, and the next row that needs one of its kind takes it.
@MainActor
struct ReusePool<Cell: View> {
    private var factories: [String: () -> Cell] = [:]
    private var waiting: [String: [Cell]] = [:]
    /// How many cells were ever made (a test of reuse).
    private(set) var created = 0

    mutating func register(_ identifier: String, _ make: @escaping () -> Cell) { factories[identifier] = make }

    /// A waiting cell (given to `prepare`, its `prepareForReuse`), or a new one from the
    /// registered factory. An identifier never registered is a programming error.
    mutating func dequeue(_ identifier: String, prepare: (Cell) -> Void) -> Cell {
        if var cells = waiting[identifier], let cell = cells.popLast() {
            waiting[identifier] = cells
            prepare(cell)
            return cell
        }
        guard let make = factories[identifier] else {
            preconditionFailure("no cell registered for '\(identifier)': call register(_:_:) first")
        }
        created += 1
        return make()
    }

    mutating func put(_ cell: Cell, identifier: String) { waiting[identifier, default: []].append(cell) }

    /// Keeps at most `limit` waiting cells per identifier.
    mutating func trim(to limit: Int) {
        for (id, cells) in waiting where cells.count > limit { waiting[id] = Array(cells.prefix(limit)) }
    }
}
