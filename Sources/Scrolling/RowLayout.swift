import ScrollwayGeometry

/// Where every row of a `ListView` is: heights (measured, or the estimate) and section headers,
/// kept as prefix sums in a Fenwick tree, so a row's top, the row at a given y and the total
/// height each cost O(log n), and so does measuring one row. A 100,000-row list that measures
/// a row or two per frame while it flings does a few dozen additions per frame, not 100,000.
///
/// Layout: row i occupies a span of `lead(i) + height(i)`, where `lead(i)` is the band of
/// section headers and footers above it. Sections are kept in header order (ascending first
/// rows), each with its own header height `H[p]` and footer height `F[p]` (UITableView's
/// `heightForHeaderInSection`; 0: none). With sections a...b starting at row i (more than one
/// when those before the last are empty), the band holds the footer of the section above (when
/// a section starts above row i, a > 0), then the empty sections' header and footer each, then
/// the last one's header: `lead(i) = F[a − 1] + Σ_{p=a}^{b−1} (H[p] + F[p]) + H[b]`. The sums
/// of header-and-footer pairs are kept as prefix sums over the sections (`pairs`), so any run
/// of them costs one subtraction. With `prefix(i)` the sum of the spans of rows 0..<i:
/// `top(i) = prefix(i) + lead(i)`, the header of section a + k has its top at `prefix(i) +
/// F[a − 1] + Σ_{p=a}^{a+k−1} (H[p] + F[p])`, the footer of a section that ends before row i
/// at `prefix(i)`, and the content height is `prefix(count)` plus the last row's section's
/// footer and the headers and footers of the sections after the last row. With every section
/// alike (h, f) a band is `n·h + (n − 1 + above)·f`.
/// A list's own header view stands above row 0 (`listHeaderHeight`: every position is that
/// much lower) and its footer view below the last (`listFooterHeight`, in the content height).
///
/// Heights are kept in steps of 1/256 px (invisible), so every sum is exact in a Double, whatever
/// order a height was added in: the tree never drifts, and two ways of adding up the same rows
/// (a row's bottom, the content's end) give the same number to the last bit.
struct RowLayout {
    private(set) var count: Int
    /// Measured heights; nil: not measured yet (the estimate stands in).
    private var measured: [Double?]
    /// The band of headers and footers right above each row (`lead`).
    private var bands: [Double]
    /// The row each section starts at, in header order (ascending, `count` for those after
    /// the last row), and its header's and footer's heights.
    private var starts: [Int] = []
    private var headerHeights: [Double] = []
    private var footerHeights: [Double] = []
    /// `pairs[p]`: the headers and footers of sections 0..<p, `Σ_{t<p} (H[t] + F[t])`.
    private var pairs: [Double] = [0]
    private(set) var estimate: Double
    /// Whether any section has a footer.
    private(set) var hasFooters = false
    /// The list's header view's height, above row 0.
    private(set) var listHeaderHeight = 0.0
    /// The list's footer view's height, after the last row and the headers after it.
    private(set) var listFooterHeight = 0.0
    /// Fenwick tree over the spans, 1-based: tree[i] holds the spans of rows (i − lowbit(i))..<i.
    private var tree: [Double]
    /// The rows whose height is measured: a new width forgets only those (a list shows a few
    /// dozen of its rows at a time), instead of building the tree of every row again.
    private var measuredRows = Set<Int>()
    /// The first row whose rect (its top or its height) may have changed since `markPlaced()`;
    /// `count` when none has. A list's fling measures the rows it brings in, and only the
    /// cells at or below the first of them move: the cells above keep their frames, and a
    /// frame that brings in one row sets one cell's frame, not every cell's in view.
    private(set) var firstMovedRow = 0

    /// Every row's rect is where a list last put its cells.
    mutating func markPlaced() { firstMovedRow = count }

    /// A height in steps of 1/256, at most `ScrollView.largestOffset`: two of the largest
    /// finite heights summed were infinite, and a band's top, an infinity less another, NaN.
    static func quantized(_ h: Double) -> Double {
        guard h.isFinite else { return 0 }
        return (min(max(0, h), ScrollView.largestOffset) * 256).rounded() / 256
    }

    /// Rows with the heights measured so far (nil: the estimate stands in).
    init(measured: [Double?], sectionStartRows: some Sequence<Int>, estimate: Double, headerHeight: Double) {
        self.init(
            count: measured.count, sectionStartRows: sectionStartRows, estimate: estimate, headerHeight: headerHeight)
        for (row, h) in measured.enumerated() { if let h { setHeight(row, h) } }
    }

    /// `count` rows, none measured yet (a list's reload): the estimate stands in for every row.
    init(
        count: Int, sectionStartRows: some Sequence<Int>, estimate: Double, headerHeight: Double,
        footerHeight: Double = 0
    ) {
        let sorted = sectionStartRows.sorted()
        self.init(
            count: count, estimate: estimate, sectionStarts: sorted,
            headerHeights: Array(repeating: headerHeight, count: sorted.count),
            footerHeights: Array(repeating: footerHeight, count: sorted.count))
    }

    /// `count` rows, none measured yet, in sections given in header order with their own
    /// heights (`setSections`): the tree built once.
    init(count: Int, estimate: Double, sectionStarts: [Int], headerHeights: [Double], footerHeights: [Double]) {
        self.count = count
        measured = Array(repeating: nil, count: count)
        bands = []  // set by the sections
        self.estimate = Self.quantized(estimate)
        tree = []
        setSections(starts: sectionStarts, headerHeights: headerHeights, footerHeights: footerHeights)
    }

    /// O(n): every node from the spans. The spans are read from the stored arrays directly,
    /// into a local tree: a call to a method of the layout from this mutating method would copy
    /// the whole layout (its arrays retained and released) for every row in an unoptimized
    /// build, where a list's `reloadData` then costs most of its time.
    private mutating func rebuild() {
        firstMovedRow = 0
        // The old tree's storage, taken (unique now) and cleared: a 100,000-row list's batch
        // allocates no new megabyte for it.
        var nodes = tree
        tree = []
        Self.zero(&nodes, count: count + 1)
        let fallback = estimate
        for i in stride(from: 1, through: count, by: 1) {
            nodes[i] += bands[i - 1] + (measured[i - 1] ?? fallback)
            let parent = i + (i & -i)
            if parent <= count { nodes[parent] += nodes[i] }
        }
        tree = nodes
    }

    /// `array` made `count` zeros in the storage it has (grown or cut by the difference, then
    /// cleared at memset's speed), not a new one, unless it grows by more than a screenful.
    private static func zero(_ array: inout [Double], count: Int) {
        // A new layout's, or one grown by much: made new at once.
        if array.count + 1_024 < count {
            array = Array(repeating: 0, count: count)
            return
        }
        if array.count > count {
            array.removeLast(array.count - count)
        } else if array.count < count {
            array.append(contentsOf: repeatElement(0, count: count - array.count))
        }
        array.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }

    private func lead(_ row: Int) -> Double { bands[row] }

    /// The first section (in header order) that starts at or after `row`: binary search.
    private func firstSection(startingAtOrAfter row: Int) -> Int {
        var (lo, hi) = (0, starts.count)
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid] < row { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The footer that opens the band of the sections from `first` on: the section above's.
    private func footer(above first: Int) -> Double { first > 0 ? footerHeights[first - 1] : 0 }

    func height(_ row: Int) -> Double { measured[row] ?? estimate }
    func isMeasured(_ row: Int) -> Bool { measured[row] != nil }
    /// The number of sections, empty ones included.
    var sectionCount: Int { starts.count }
    /// The header's and the footer's height of the section at `position` in header order.
    func headerHeight(at position: Int) -> Double { headerHeights[position] }
    func footerHeight(at position: Int) -> Double { footerHeights[position] }

    /// Where row `row`'s span starts: the spans of rows 0..<row below the list's header view.
    func prefix(_ row: Int) -> Double {
        var sum = listHeaderHeight
        var i = row
        while i > 0 {
            sum += tree[i]
            i -= i & -i
        }
        return sum
    }

    func top(_ row: Int) -> Double { prefix(row) + (row < count ? lead(row) : 0) }
    var totalHeight: Double { footerTop + listFooterHeight }

    /// Where the footer view starts: after the last row, its section's footer, and the headers
    /// and footers of the sections after it.
    var footerTop: Double {
        let first = firstSection(startingAtOrAfter: count)
        return prefix(count) + footer(above: first) + pairs[starts.count] - pairs[first]
    }

    /// The list's header and footer views' heights. A new header moves every row.
    mutating func setListViews(headerHeight header: Double, footerHeight footer: Double) {
        let (top, bottom) = (Self.quantized(header), Self.quantized(footer))
        if top != listHeaderHeight { firstMovedRow = 0 }
        listHeaderHeight = top
        listFooterHeight = bottom
    }

    /// The top of the `slot`-th header (0-based) of the sections starting at `row` (`count`:
    /// after the last row).
    func headerTop(row: Int, slot: Int) -> Double {
        let row = min(row, count)
        let first = firstSection(startingAtOrAfter: row)
        precondition(first + slot < starts.count && starts[first + slot] == row, "no header \(slot) at row \(row)")
        return prefix(row) + footer(above: first) + pairs[first + slot] - pairs[first]
    }

    /// The top of the footer of a section whose last row is just above `row` (`count`: the
    /// last row): the band before `row` opens with it.
    func footerTop(endingBefore row: Int) -> Double { prefix(min(row, count)) }

    /// The row whose span holds `y` (a header band belongs to the row below it); rows past the
    /// end give the last row. Binary lifting down the tree: O(log n).
    func row(at y: Double) -> Int {
        guard count > 0 else { return 0 }
        var position = 0
        var remaining = y - listHeaderHeight
        var step = 1
        while step * 2 <= count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next <= count && tree[next] <= remaining {
                position = next
                remaining -= tree[next]
            }
            step /= 2
        }
        return min(position, count - 1)
    }

    /// Records a measured height; returns how far everything below the row moved.
    @discardableResult
    mutating func setHeight(_ row: Int, _ h: Double) -> Double {
        let new = Self.quantized(h)
        let delta = new - height(row)
        measured[row] = new
        measuredRows.insert(row)
        guard delta != 0 else { return 0 }
        firstMovedRow = min(firstMovedRow, row)
        add(delta, toSpanOf: row)
        return delta
    }

    /// Row `row`'s span grew by `delta`: the tree's nodes that sum it, O(log n).
    private mutating func add(_ delta: Double, toSpanOf row: Int) {
        var i = row + 1
        while i <= count {
            tree[i] += delta
            i += i & -i
        }
    }

    /// Row `from` moved to `to` (a reorder): its height goes with it and the rows between shift
    /// by one place, each span changed in the tree in place: O(|to − from| · log n), so a drag
    /// that moves a row a place at a time costs a few additions a step, not a rebuild. The
    /// rows outside the two keep their tops (the heights add up to the same). Section starts
    /// stay where they are; the caller sets new ones if they changed.
    mutating func move(from: Int, to: Int) {
        guard from != to else { return }
        let moving = measured[from]
        let span = min(from, to)...max(from, to)
        let old = span.map { height($0) }
        if from < to {
            for i in from..<to { measured[i] = measured[i + 1] }
        } else {
            for i in stride(from: from, to: to, by: -1) { measured[i] = measured[i - 1] }
        }
        measured[to] = moving
        for (k, row) in span.enumerated() {
            if measured[row] != nil { measuredRows.insert(row) } else { measuredRows.remove(row) }
            let delta = height(row) - old[k]
            if delta != 0 { add(delta, toSpanOf: row) }
        }
        firstMovedRow = min(firstMovedRow, span.lowerBound)
    }

    /// One row back to the estimate (its content changed): measured again when next in view.
    mutating func forgetMeasurement(_ row: Int) {
        setHeight(row, estimate)
        measured[row] = nil
        measuredRows.remove(row)
    }

    /// Every row back to the estimate (a new width wraps text differently): row by row, each
    /// O(log n), while that is less work than building the tree again.
    mutating func forgetMeasurements() {
        var steps = 1
        while 1 << steps < count { steps += 1 }
        if measuredRows.count * steps < count {
            for row in measuredRows.sorted() { forgetMeasurement(row) }
            return
        }
        measured = Array(repeating: nil, count: count)
        measuredRows.removeAll()
        rebuild()
    }

    /// Every row but `kept` back to the estimate (a change that wraps text anew, the list's
    /// editing controls coming or going, with the rows in view measured again at once): the
    /// heights of `kept` are put back after.
    mutating func forgetMeasurements(except kept: Set<Int>) {
        let heights = kept.compactMap { r in r >= 0 && r < count ? measured[r].map { (r, $0) } : nil }
        forgetMeasurements()
        for (r, h) in heights { setHeight(r, h) }
    }

    mutating func setEstimate(_ h: Double) {
        estimate = Self.quantized(h)
        rebuild()
    }

    /// Sections in header order: the row each starts at (ascending; negative: row 0; `count`
    /// or more: after the last row) and its header's and footer's heights (negative or not
    /// finite: 0).
    mutating func setSections(starts rows: [Int], headerHeights h: [Double], footerHeights f: [Double]) {
        precondition(rows.count == h.count && rows.count == f.count, "a height for each section")
        let clamped = rows.map { min(max(0, $0), count) }
        precondition(zip(clamped, clamped.dropFirst()).allSatisfy { $0 <= $1 }, "sections in header order")
        let (headers, footers) = (h.map(Self.quantized), f.map(Self.quantized))
        // The same sections again (a list's edits keep most of them): the tree stands as it is.
        if clamped == starts && headers == headerHeights && footers == footerHeights && tree.count == count + 1 {
            return
        }
        place(starts: clamped, headerHeights: headers, footerHeights: footers)
    }

    /// Sections (clamped, in header order, heights quantized) laid out: the bands above their
    /// first rows, and the tree built again.
    private mutating func place(starts clamped: [Int], headerHeights headers: [Double], footerHeights footers: [Double])
    {
        starts = clamped
        headerHeights = headers
        footerHeights = footers
        hasFooters = footers.contains { $0 > 0 }
        var sums = [Double](repeating: 0, count: clamped.count + 1)
        for p in clamped.indices { sums[p + 1] = sums[p] + headers[p] + footers[p] }
        pairs = sums
        Self.zero(&bands, count: count)
        // Each run of sections starting at one row makes that row's band.
        var a = 0
        while a < clamped.count && clamped[a] < count {
            var b = a
            while b + 1 < clamped.count && clamped[b + 1] == clamped[a] { b += 1 }
            bands[clamped[a]] = (a > 0 ? footers[a - 1] : 0) + sums[b] - sums[a] + headers[b]
            a = b + 1
        }
        rebuild()
    }

    /// Rows inserted (`inserted`: indices after the change, ascending) and deleted (`deleted`:
    /// indices before the change, ascending): the kept rows' heights copied a run at a time
    /// (one copy of the array for any batch), the measured rows and the sections' starts
    /// renumbered (a row inserted at a section's first row joins the section above), and the
    /// tree built once. The caller sets the sections afterwards (`setSections`); when they are
    /// the renumbered ones (rows came and went inside sections: an outline's row opened), the
    /// tree stands.
    mutating func apply(inserted: [Int], deleted: [Int]) {
        let renumber = Renumbering(inserted: inserted, deleted: deleted)
        measuredRows = Set(renumber.rows(measuredRows.sorted()).compactMap { $0 })
        let shifted = renumber.rows(starts, keepingDeleted: true).map { $0! }
        if Self.isRun(deleted) && Self.isRun(inserted) {
            // One run out and one in (a row, an outline's folder): moved in place.
            if let first = deleted.first { measured.removeSubrange(first...deleted[deleted.count - 1]) }
            if let first = inserted.first {
                measured.insert(contentsOf: repeatElement(nil, count: inserted.count), at: first)
            }
        } else {
            measured = Self.heights(measured, inserted: inserted, deleted: deleted)
        }
        count = measured.count
        place(starts: shifted.map { min($0, count) }, headerHeights: headerHeights, footerHeights: footerHeights)
    }

    /// Whether `rows` (ascending) are one run of consecutive rows, or none.
    private static func isRun(_ rows: [Int]) -> Bool {
        rows.isEmpty || rows[rows.count - 1] - rows[0] == rows.count - 1
    }

    /// `measured` with `deleted` taken out and `inserted` (unmeasured) put in.
    private static func heights(_ measured: [Double?], inserted: [Int], deleted: [Int]) -> [Double?] {
        var kept: [Double?] = []
        kept.reserveCapacity(measured.count - deleted.count)
        var from = 0
        for d in deleted {
            kept.append(contentsOf: measured[from..<d])
            from = d + 1
        }
        kept.append(contentsOf: measured[from...])
        var result: [Double?] = []
        result.reserveCapacity(kept.count + inserted.count)
        var k = 0
        for i in inserted {
            let take = min(max(0, i - result.count), kept.count - k)
            result.append(contentsOf: kept[k..<k + take])
            k += take
            result.append(nil)
        }
        result.append(contentsOf: kept[k...])
        return result
    }
}

/// Old row numbers to new ones across a batch of deletions (old numbers) and insertions (new
/// numbers), both ascending, for rows given in ascending order: one merged pass, O(rows +
/// changes).
private struct Renumbering {
    let inserted: [Int]
    let deleted: [Int]

    /// Each row's new number; nil for a deleted row, unless `keepingDeleted` (a section's start
    /// whose row went: the next row that stays).
    func rows(_ old: [Int], keepingDeleted: Bool = false) -> [Int?] {
        var out: [Int?] = []
        out.reserveCapacity(old.count)
        var d = 0
        var j = 0
        for r in old {
            while d < deleted.count && deleted[d] < r { d += 1 }
            if !keepingDeleted && d < deleted.count && deleted[d] == r {
                out.append(nil)
                continue
            }
            // Its place among the kept rows, then pushed down by the insertions at or above it.
            let place = r - d
            while j < inserted.count && inserted[j] <= place + j { j += 1 }
            out.append(place + j)
        }
        return out
    }
}
