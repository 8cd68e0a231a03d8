import ScrollwayViews

/// Cells waiting to show another row or item, by reuse identifier, and the factories that make
/// new ones: what `ListView` and `CollectionView` share. Only the cells in view (and a margin)
/// exist; one that leaves goes here, and the next row that needs one of its kind takes it.
@MainActor
struct ReusePool<Cell: ReusableCell> {
    private var factories: [String: () -> Cell] = [:]
    private var waiting: [String: [Cell]] = [:]
    /// How many cells were ever made (a test of reuse).
    private(set) var created = 0
    /// The cell of a row or item being configured again in place (`reconfigureRows(at:)`,
    /// `reconfigureItems(at:)`): the next dequeue of its identifier hands it back as it is.
    var handingBack: Cell?

    mutating func register(_ identifier: String, _ make: @escaping () -> Cell) { factories[identifier] = make }

    /// The cell handed back, or a waiting cell (prepared for reuse), or a new one from the
    /// registered factory. An identifier never registered is a programming error.
    mutating func dequeue(_ identifier: String) -> Cell {
        if let cell = handingBack, cell.reuseIdentifier == identifier {
            handingBack = nil
            return cell
        }
        if var cells = waiting[identifier], let cell = cells.popLast() {
            waiting[identifier] = cells
            cell.prepareForReuse()
            return cell
        }
        guard let make = factories[identifier] else {
            preconditionFailure("no cell registered for '\(identifier)': call register(_:_:) first")
        }
        created += 1
        return make()
    }

    mutating func put(_ cell: Cell, identifier: String) { waiting[identifier, default: []].append(cell) }

    /// Keeps at most `limit` waiting cells per identifier; the others leave `container` if
    /// they waited in it (`leaveRowsInView`).
    mutating func trim(to limit: Int, waitingIn container: View) {
        for (id, cells) in waiting where cells.count > limit {
            waiting[id] = Array(cells.prefix(limit))
            for cell in cells.dropFirst(limit) where cell.superview === container { cell.removeFromSuperview() }
        }
    }
}

extension View {
    /// A cell leaves the rows in view. One whose subtree the window's constraint engine holds
    /// waits hidden where it is: taken out and put back when it is reused, each of its
    /// constraints would leave the window's solver and go in again, most of a self-sizing
    /// feed's layout (decisions.md, "Recycled cells with constraints wait in place"). Others
    /// leave the hierarchy, which costs them nothing and keeps the frame's walks short.
    func leaveRowsInView() {
        if superview != nil, isInWindowLayoutEngine {
            isHidden = true
        } else {
            removeFromSuperview()
        }
    }

    /// A cell joins the rows in view in `container`: inserted at the back, or shown again
    /// where it waited. Whether it was not shown there before (a reader is told of it then).
    func joinRowsInView(of container: View) -> Bool {
        if superview !== container {
            container.insertSubview(self, at: 0)
            if isHidden { isHidden = false }
            return true
        }
        guard isHidden else { return false }
        isHidden = false
        return true
    }
}
