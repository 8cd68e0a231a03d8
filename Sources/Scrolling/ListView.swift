import Geometry
import Raster
import Views

/// Supplies a list's rows (UITableViewDataSource's role).
public protocol ListDataSource: AnyObject {
    func numberOfRows(in list: ListView) -> Int
    /// A configured cell for `row`; get one with `list.dequeueReusableCell(withIdentifier:)`.
    func list(_ list: ListView, cellForRow row: Int) -> ListCell
}

/// A row's view. Reused: when its row scrolls away it waits in the list's pool for the next
/// row that needs one with its identifier.
open class ListCell: View {
    public let reuseIdentifier: String
    public let textLabel = Label()
    /// Touched (after the scroll view's arbitration): drawn darker. A drag that begins cancels it.
    public private(set) var isHighlighted = false {
        didSet { if isHighlighted != oldValue { backgroundColor = isHighlighted ? highlightColor : normalColor } }
    }
    public var normalColor: Color = .white { didSet { if !isHighlighted { backgroundColor = normalColor } } }
    public var highlightColor = Color(rgb: 210, 220, 235)
    var onTap: (() -> Void)?

    public init(reuseIdentifier: String) {
        self.reuseIdentifier = reuseIdentifier
        super.init()
        backgroundColor = normalColor
        textLabel.numberOfLines = 0
        textLabel.isUserInteractionEnabled = false
        addSubview(textLabel)
    }

    open override func layoutSubviews() {
        textLabel.frame = Rect(x: 16, y: 0, width: max(0, bounds.width - 32), height: bounds.height)
    }

    /// The height this cell wants at `width` (its text wrapped, with 10 px above and below).
    open override func sizeThatFits(_ size: Size) -> Size {
        let text = textLabel.sizeThatFits(Size(width: max(0, size.width - 32), height: .greatestFiniteMagnitude))
        return Size(width: size.width, height: max(44, text.height + 20))
    }

    /// Called before reuse for another row.
    open func prepareForReuse() { isHighlighted = false }

    open override func touchesBegan(_ touches: [Touch]) { isHighlighted = true }
    open override func touchesCancelled(_ touches: [Touch]) { isHighlighted = false }
    open override func touchesEnded(_ touches: [Touch]) {
        let inside = touches.first.map { bounds.contains(convert($0.location, from: nil)) } ?? false
        isHighlighted = false
        if inside { onTap?() }
    }
}

/// A vertical list of any length (UITableView's role): only the rows in view (plus a margin)
/// have cells, cells are reused by identifier, and row heights are measured as rows appear,
/// starting from an estimate; a correction above the viewport moves the offset with it, so the
/// rows in view never jump.
public final class ListView: ScrollView {
    public weak var dataSource: ListDataSource?
    /// The height assumed for rows not yet measured.
    public var estimatedRowHeight = 56.0
    /// Extra distance above and below the viewport that gets cells too.
    public var margin = 100.0
    /// Rows selected by a tap.
    public var onSelectRow: ((Int) -> Void)?

    private var factories: [String: () -> ListCell] = [:]
    private var pool: [String: [ListCell]] = [:]
    /// Reused cells kept per identifier beyond those in view.
    public static let poolLimit = 4
    /// Cells by row, for the rows that have one.
    public private(set) var visibleCells: [Int: ListCell] = [:]
    /// How many cells were ever made (a test of reuse).
    public private(set) var cellsCreated = 0
    private var count = 0
    /// Measured heights (nil: estimated) and the running offsets (offsets[i] = top of row i).
    private var heights: [Double?] = []
    private var offsets: [Double] = [0]
    private var offsetsValidFrom = 0
    private var isUpdating = false

    public func register(_ identifier: String, _ make: @escaping () -> ListCell) { factories[identifier] = make }

    /// A cell from the pool, or a new one from the registered factory.
    public func dequeueReusableCell(withIdentifier identifier: String) -> ListCell {
        if var cells = pool[identifier], let cell = cells.popLast() {
            pool[identifier] = cells
            cell.prepareForReuse()
            return cell
        }
        guard let make = factories[identifier] else {
            preconditionFailure("no cell registered for '\(identifier)': call register(_:_:) first")
        }
        cellsCreated += 1
        return make()
    }

    /// Reloads everything from the data source.
    public func reloadData() {
        for (_, cell) in visibleCells { recycle(cell) }
        visibleCells.removeAll()
        count = dataSource?.numberOfRows(in: self) ?? 0
        heights = Array(repeating: nil, count: count)
        offsets = Array(repeating: 0, count: count + 1)
        offsetsValidFrom = 0
        updateContentSize()
        updateVisibleRows()
    }

    /// The rect of `row` in content coordinates (estimated until measured).
    public func rectForRow(_ row: Int) -> Rect {
        precondition(row >= 0 && row < count, "row \(row) out of 0..<\(count)")
        validateOffsets(upTo: row + 1)
        return Rect(x: 0, y: offsets[row], width: bounds.width, height: offsets[row + 1] - offsets[row])
    }

    /// Scrolls so that `row` is fully in view (measuring as it goes, so it lands exactly).
    /// (Measuring the rows that come into view can move the row; it repeats until nothing moves.)
    public func scrollToRow(_ row: Int, animated: Bool = false) {
        guard row >= 0 && row < count else { return }
        for _ in 0..<12 {
            let before = contentOffset
            scrollRectToVisible(rectForRow(row), animated: false)
            updateVisibleRows()
            contentOffset = clampedOffset(contentOffset)
            updateVisibleRows()
            if contentOffset == before { break }
        }
        if animated { setContentOffset(contentOffset, animated: true) }
    }

    /// Inserts rows; rows above the viewport move the offset with them so what is in view stays.
    public func insertRows(at rows: [Int]) {
        let firstVisible = visibleCells.keys.min() ?? 0
        var shift = 0.0
        for r in rows.sorted() {
            heights.insert(nil, at: r)
            if r <= firstVisible { shift += estimatedRowHeight }
        }
        count = heights.count
        remapCells(inserted: rows.sorted(), deleted: [])
        offsets = Array(repeating: 0, count: count + 1)
        offsetsValidFrom = 0
        updateContentSize()
        if shift != 0 { contentShifted(by: shift) }
        updateVisibleRows()
    }

    /// Deletes rows; rows above the viewport move the offset with them so what is in view stays.
    public func deleteRows(at rows: [Int]) {
        let firstVisible = visibleCells.keys.min() ?? 0
        var shift = 0.0
        for r in rows.sorted(by: >) {
            let h = rowHeight(r)
            if r < firstVisible { shift += h }
            heights.remove(at: r)
            if let cell = visibleCells.removeValue(forKey: r) { recycle(cell) }
        }
        count = heights.count
        remapCells(inserted: [], deleted: rows.sorted())
        offsets = Array(repeating: 0, count: count + 1)
        offsetsValidFrom = 0
        updateContentSize()
        if shift != 0 { contentShifted(by: -shift) }
        updateVisibleRows()
    }

    // MARK: Layout

    public override func didChangeBounds(from old: Rect) {
        super.didChangeBounds(from: old)
        if old != bounds { updateVisibleRows() }
    }

    private func rowHeight(_ r: Int) -> Double { heights[r] ?? estimatedRowHeight }

    private func validateOffsets(upTo end: Int) {
        guard offsetsValidFrom < end else { return }
        var i = offsetsValidFrom
        while i < end && i < count {
            offsets[i + 1] = offsets[i] + rowHeight(i)
            i += 1
        }
        offsetsValidFrom = max(offsetsValidFrom, min(end, count))
    }

    private func updateContentSize() {
        validateOffsets(upTo: count)
        contentSize = Size(width: bounds.width, height: offsets[count])
    }

    /// The first row whose bottom is below `y`.
    private func row(at y: Double) -> Int {
        validateOffsets(upTo: count)
        var lo = 0
        var hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if offsets[mid + 1] <= y { lo = mid + 1 } else { hi = mid }
        }
        return min(lo, max(0, count - 1))
    }

    /// Gives cells to the rows in view (+ margin), measures them, recycles the rest.
    func updateVisibleRows() {
        guard !isUpdating, count > 0, let dataSource else { return }
        isUpdating = true
        defer { isUpdating = false }
        let top = bounds.minY - margin
        let bottom = bounds.maxY + margin
        var first = row(at: max(0, top))
        var last = row(at: max(0, bottom))
        // Measure newly visible rows; corrections above the first visible row move the offset.
        var r = first
        var correctionAbove = 0.0
        let anchorRow = row(at: max(0, bounds.minY))
        while r <= last {
            if heights[r] == nil {
                let cell = dataSource.list(self, cellForRow: r)
                let h = cell.sizeThatFits(Size(width: bounds.width, height: .greatestFiniteMagnitude)).height
                if r < anchorRow { correctionAbove += h - estimatedRowHeight }
                heights[r] = h
                offsetsValidFrom = min(offsetsValidFrom, r)
                place(cell, row: r)
            }
            r += 1
            validateOffsets(upTo: r + 1)
            if r <= last, offsets[r] > bottom { break }
            if r > last, r < count, offsets[r] < bottom { last = r }
        }
        updateContentSize()
        if correctionAbove != 0 { contentShifted(by: correctionAbove) }
        first = self.row(at: max(0, bounds.minY - margin))
        last = self.row(at: max(0, bounds.maxY + margin))
        for (r, cell) in visibleCells where r < first || r > last {
            visibleCells.removeValue(forKey: r)
            recycle(cell)
        }
        for r in first...last {
            if let cell = visibleCells[r] {
                cell.frame = rectForRow(r)
            } else {
                place(dataSource.list(self, cellForRow: r), row: r)
            }
        }
    }

    private func place(_ cell: ListCell, row: Int) {
        if let old = visibleCells[row], old !== cell { recycle(old) }
        visibleCells[row] = cell
        cell.frame = rectForRow(row)
        cell.onTap = { [weak self] in self?.onSelectRow?(row) }
        if cell.superview !== self { insertSubview(cell, at: 0) }
    }

    private func recycle(_ cell: ListCell) {
        cell.removeFromSuperview()
        var cells = pool[cell.reuseIdentifier] ?? []
        if cells.count < Self.poolLimit { cells.append(cell) }
        pool[cell.reuseIdentifier] = cells
    }

    private func remapCells(inserted: [Int], deleted: [Int]) {
        var remapped: [Int: ListCell] = [:]
        for (r, cell) in visibleCells {
            var n = r
            for d in deleted where d < r { n -= 1 }
            for i in inserted where i <= n { n += 1 }
            remapped[n] = cell
        }
        visibleCells = remapped
    }
}
