import Geometry
import Raster
import Views

/// Supplies a list's rows (UITableViewDataSource's role).
public protocol ListDataSource: AnyObject {
    func numberOfRows(in list: ListView) -> Int
    /// A configured cell for `row`; get one with `list.dequeueReusableCell(withIdentifier:)`.
    func list(_ list: ListView, cellForRow row: Int) -> ListCell
    /// Where sections begin: the first row of each, ascending, the first usually 0 (none:
    /// no sections, no headers). Each section gets a header above its first row.
    func sectionStarts(in list: ListView) -> [Int]
    /// The title shown in a section's header.
    func list(_ list: ListView, titleForSection section: Int) -> String
}

extension ListDataSource {
    public func sectionStarts(in list: ListView) -> [Int] { [] }
    public func list(_ list: ListView, titleForSection section: Int) -> String { "" }
}

/// A section's header: a grey band with the section's title. While its section fills the top
/// of the list it stays pinned there (UITableView's plain style), until the next section's
/// header pushes it up.
open class ListSectionHeader: View {
    public let textLabel = Label()

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        backgroundColor = Color(rgb: 242, 242, 247)
        textLabel.font = try? Font.system(size: 13, bold: true)
        textLabel.textColor = Color(rgb: 110, 110, 118)
        textLabel.isUserInteractionEnabled = false
        addSubview(textLabel)
    }

    open override func layoutSubviews() {
        textLabel.frame = Rect(x: 16, y: 0, width: max(0, bounds.width - 32), height: bounds.height)
            .insetBy(dx: 0, dy: max(0, (bounds.height - 18) / 2))
    }
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
///
/// Optional sections (`ListDataSource.sectionStarts`) put a header of `sectionHeaderHeight`
/// above each section's first row. Layout: `top(0) = lead(0)` and
/// `top(i + 1) = top(i) + height(i) + lead(i + 1)`, where `lead(i)` is the header height when
/// a section starts at row i. The header of the section at the top of the viewport is pinned
/// at `bounds.minY + adjustedContentInset.top` and pushed up by the next one:
/// `y = min(max(natural, pin), nextNatural − headerHeight)`.
public final class ListView: ScrollView {
    public weak var dataSource: ListDataSource?
    /// The height assumed for rows not yet measured.
    public var estimatedRowHeight = 56.0
    /// Extra distance above and below the viewport that gets cells too.
    public var margin = 100.0
    /// Rows selected by a tap.
    public var onSelectRow: ((Int) -> Void)?
    /// The height of section headers.
    public var sectionHeaderHeight = 32.0 {
        didSet { if sectionHeaderHeight != oldValue { invalidateLayout() } }
    }
    /// Whether the header of the section at the top stays pinned there while it scrolls.
    public var pinsSectionHeaders = true { didSet { updateVisibleRows() } }
    /// Headers by section, for the sections that show one.
    public private(set) var visibleHeaders: [Int: ListSectionHeader] = [:]
    private var headerPool: [ListSectionHeader] = []
    private var sectionStarts: [Int] = []
    private var startsSection: Set<Int> = []

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
    private var follower: RowScrollFollower?

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
        for (_, header) in visibleHeaders { recycle(header) }
        visibleHeaders.removeAll()
        count = dataSource?.numberOfRows(in: self) ?? 0
        heights = Array(repeating: nil, count: count)
        loadSections()
        invalidateLayout()
    }

    /// The number of rows.
    public var rowCount: Int { count }

    /// The row a cell in view currently shows (nil for a cell not in view).
    public func row(for cell: ListCell) -> Int? {
        visibleCells.first { $0.value === cell }?.key
    }

    /// The number of sections (0 without sections).
    public var numberOfSections: Int { sectionStarts.count }

    /// The section `row` belongs to (nil without sections or above the first).
    public func section(containingRow row: Int) -> Int? {
        var lo = 0
        var hi = sectionStarts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sectionStarts[mid] <= row { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? nil : lo - 1
    }

    /// The rect of section `section`'s header where the content puts it (before pinning).
    public func rectForHeader(inSection section: Int) -> Rect {
        let start = sectionStarts[section]
        let top = start < count ? rectForRow(start).minY : offsets[count]
        return Rect(x: 0, y: top - sectionHeaderHeight, width: bounds.width, height: sectionHeaderHeight)
    }

    private func loadSections() {
        let starts = (dataSource?.sectionStarts(in: self) ?? []).filter { $0 >= 0 && $0 < count }
        sectionStarts = Array(Set(starts)).sorted()
        startsSection = Set(sectionStarts)
    }

    private func lead(_ row: Int) -> Double { row < count && startsSection.contains(row) ? sectionHeaderHeight : 0 }

    private func invalidateLayout() {
        offsets = Array(repeating: 0, count: count + 1)
        offsetsValidFrom = 0
        updateContentSize()
        updateVisibleRows()
    }

    /// The rect of `row` in content coordinates (estimated until measured).
    public func rectForRow(_ row: Int) -> Rect {
        precondition(row >= 0 && row < count, "row \(row) out of 0..<\(count)")
        validateOffsets(upTo: row + 1)
        return Rect(x: 0, y: offsets[row], width: bounds.width, height: rowHeight(row))
    }

    /// Scrolls so that `row` is fully in view with the least scroll: a row above comes in at
    /// the top (below a pinned header), a row below at the bottom. Measuring the rows that come
    /// into view can move the row, so the chosen edge is aligned again until nothing moves.
    /// Animated, the list goes back to where it was and animates to the measured offset.
    public func scrollToRow(_ row: Int, animated: Bool = false) {
        guard row >= 0 && row < count else { return }
        settleZoomAnimation()
        // A fling or an earlier scroll-to-row would go on moving the list from where this
        // one puts it: this call replaces them (UITableView's too).
        follower?.list = nil
        follower = nil
        stopMotion()
        let startRow = self.row(at: max(0, bounds.minY))
        let startDelta = bounds.minY - rectForRow(startRow).minY
        let startOffset = contentOffset
        let visible = bounds.inset(by: adjustedContentInset)
        let rect = rowRectBelowPinnedHeader(row)
        let alignTop: Bool
        if rect.minY < visible.minY || rect.height >= visible.height {
            alignTop = true
        } else if rect.maxY > visible.maxY {
            alignTop = false
        } else {
            return
        }
        for _ in 0..<12 {
            let before = contentOffset
            contentOffset = offset(aligning: row, top: alignTop)
            updateVisibleRows()
            contentOffset = clampedOffset(contentOffset)
            if contentOffset == before { break }
        }
        guard animated, let window else { return }
        let target = contentOffset
        // Back to the start view (its rows may have been re-measured meanwhile), then animate.
        let start = startRow < count ? rectForRow(startRow).minY + startDelta : startOffset.y
        contentOffset = clampedOffset(Point(x: startOffset.x, y: start))
        setContentOffset(target, animated: true)
        let follower = RowScrollFollower(list: self, row: row, alignTop: alignTop)
        self.follower = follower
        window.addAnimation(follower)
    }

    /// The offset that puts `row` at the top (below a pinned header) or at the bottom.
    func offset(aligning row: Int, top: Bool) -> Point {
        let rect = rowRectBelowPinnedHeader(row)
        let y = top ? rect.minY - adjustedContentInset.top : rect.maxY - bounds.height + adjustedContentInset.bottom
        return clampedOffset(Point(x: contentOffset.x, y: y))
    }

    /// The row's rect, extended upwards by the header height when a pinned header would cover it.
    private func rowRectBelowPinnedHeader(_ row: Int) -> Rect {
        let rect = rectForRow(row)
        guard pinsSectionHeaders, section(containingRow: row) != nil else { return rect }
        return Rect(
            x: rect.minX, y: rect.minY - sectionHeaderHeight, width: rect.width,
            height: rect.height + sectionHeaderHeight)
    }

    /// Inserts rows (indices after the insertion); the rows in view stay where they are on
    /// screen, whatever is inserted above them.
    public func insertRows(at rows: [Int]) {
        let inserted = rows.sorted()
        keepingRowsInViewStill(
            mutate: {
                for r in inserted { heights.insert(nil, at: r) }
                remapCells(inserted: inserted, deleted: [])
            },
            newIndex: { old in
                var n = old
                for i in inserted where i <= n { n += 1 }
                return n
            })
    }

    /// Deletes rows (indices before the deletion); the rows in view stay where they are on
    /// screen, whatever is deleted above them.
    public func deleteRows(at rows: [Int]) {
        let deleted = Array(Set(rows)).sorted()
        keepingRowsInViewStill(
            mutate: {
                for r in deleted.reversed() {
                    heights.remove(at: r)
                    if let cell = visibleCells.removeValue(forKey: r) { recycle(cell) }
                }
                remapCells(inserted: [], deleted: deleted)
            },
            newIndex: { old in
                deleted.contains(old) ? nil : old - deleted.prefix { $0 < old }.count
            })
    }

    /// Applies a change to the rows, then moves the offset by however far the first row in
    /// view (or the first that survives) moved, so nothing in view jumps.
    private func keepingRowsInViewStill(mutate: () -> Void, newIndex: (Int) -> Int?) {
        follower?.list = nil  // its row number is stale now
        var reference: (old: Double, new: Int)?
        if count > 0 {
            var r = row(at: max(0, bounds.minY))
            while r < count, newIndex(r) == nil { r += 1 }
            if r < count, let n = newIndex(r) { reference = (rectForRow(r).minY, n) }
        }
        mutate()
        count = heights.count
        loadSections()
        for (_, header) in visibleHeaders { recycle(header) }
        visibleHeaders.removeAll()
        offsets = Array(repeating: 0, count: count + 1)
        offsetsValidFrom = 0
        updateContentSize()
        if let reference, reference.new < count {
            let shift = rectForRow(reference.new).minY - reference.old
            if shift != 0 { contentShifted(by: shift) }
        }
        updateVisibleRows()
    }

    // MARK: Layout

    public override func didChangeBounds(from old: Rect) {
        super.didChangeBounds(from: old)
        if old.width != bounds.width, count > 0 {
            remeasureForNewWidth()
        } else if old != bounds {
            updateVisibleRows()
        }
    }

    /// A new width (a resized window) wraps text differently, so every measured height is
    /// stale: all rows go back to estimates and the rows in view are measured again, with the
    /// first row in view kept where it was on screen (as inserts and deletes keep it).
    private func remeasureForNewWidth() {
        keepingRowsInViewStill(
            mutate: {
                heights = Array(repeating: nil, count: count)
                for (_, cell) in visibleCells { recycle(cell) }
                visibleCells.removeAll()
            },
            newIndex: { $0 })
    }

    private func rowHeight(_ r: Int) -> Double { heights[r] ?? estimatedRowHeight }

    private func validateOffsets(upTo end: Int) {
        guard offsetsValidFrom < end else { return }
        var i = offsetsValidFrom
        if i == 0 { offsets[0] = lead(0) }
        while i < end && i < count {
            offsets[i + 1] = offsets[i] + rowHeight(i) + lead(i + 1)
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
        updateHeaders(first: first, last: last)
    }

    /// Headers for the sections starting among the rows with cells, and for the section at
    /// the top (pinned); the rest go back to the pool.
    private func updateHeaders(first: Int, last: Int) {
        guard let dataSource, !sectionStarts.isEmpty else { return }
        let pin = bounds.minY + adjustedContentInset.top
        var wanted: Set<Int> = []
        var s = section(containingRow: first) ?? 0
        while s < sectionStarts.count, sectionStarts[s] <= last + 1 {
            wanted.insert(s)
            s += 1
        }
        let top = pinsSectionHeaders ? section(containingRow: row(at: max(0, pin))) : nil
        if let top { wanted.insert(top) }
        for (s, header) in visibleHeaders where !wanted.contains(s) {
            visibleHeaders.removeValue(forKey: s)
            recycle(header)
        }
        // In front of every cell, behind the scroll indicators.
        let front = subviews.firstIndex { $0 is ScrollIndicator } ?? subviews.count
        for s in wanted.sorted() {
            var rect = rectForHeader(inSection: s)
            if s == top {
                let next = s + 1 < sectionStarts.count ? rectForHeader(inSection: s + 1).minY : .infinity
                rect.origin.y = min(max(rect.minY, pin), next - sectionHeaderHeight)
            }
            let header = visibleHeaders[s] ?? headerPool.popLast() ?? ListSectionHeader()
            if visibleHeaders[s] == nil {
                header.textLabel.text = dataSource.list(self, titleForSection: s)
                visibleHeaders[s] = header
            }
            header.frame = rect
            if header.superview !== self {
                insertSubview(header, at: front)
            } else if s == top {
                bringSubviewBelowIndicators(header)
            }
        }
    }

    private func bringSubviewBelowIndicators(_ view: View) {
        guard let i = subviews.firstIndex(where: { $0 === view }) else { return }
        let front = subviews.firstIndex { $0 is ScrollIndicator } ?? subviews.count
        if i != front - 1 { insertSubview(view, at: front - 1) }
    }

    private func recycle(_ header: ListSectionHeader) {
        header.removeFromSuperview()
        if headerPool.count < Self.poolLimit { headerPool.append(header) }
    }

    private func place(_ cell: ListCell, row: Int) {
        if let old = visibleCells[row], old !== cell { recycle(old) }
        visibleCells[row] = cell
        cell.frame = rectForRow(row)
        // The row is looked up at tap time: inserts and deletes renumber cells in view.
        cell.onTap = { [weak self, weak cell] in
            guard let self, let cell, let row = self.row(for: cell) else { return }
            self.onSelectRow?(row)
        }
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

/// Follows an animated `scrollToRow`: the rows measured on the way (their heights were
/// estimates) move the row, so each frame re-aims the animation at where the row is now,
/// keeping its velocity. It lets go when the row is reached, or when anything else moves the
/// list: a finger, a wheel, a key, a fling, another `setContentOffset` (any motion it did not
/// start itself, told by `motionGeneration`).
final class RowScrollFollower: FrameAnimation {
    weak var list: ListView?
    let row: Int
    let alignTop: Bool
    /// The list's motion generation right after this follower last aimed it.
    private var generation: Int

    /// Call right after starting the animation to the row.
    init(list: ListView, row: Int, alignTop: Bool) {
        self.list = list
        self.row = row
        self.alignTop = alignTop
        generation = list.motionGeneration
    }

    func advance(to time: Double) -> Bool {
        guard let list, list.motionGeneration == generation, !list.isTracking, !list.isDragging,
            !list.isDecelerating, row < list.rowCount
        else {
            return false
        }
        let desired = list.offset(aligning: row, top: alignTop)
        let heading = list.animationTarget ?? list.contentOffset
        if abs(heading.y - desired.y) > 0.25 {
            list.setContentOffset(desired, animated: true)
            generation = list.motionGeneration
        }
        return list.animationTarget != nil
    }
}
