import Logging
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews

/// A vertical list of any length (UITableView's role): only the rows in view (plus a margin)
/// have cells, cells are reused by identifier, and row heights are measured as rows appear,
/// starting from an estimate; a correction above the viewport moves the offset with it, so the
/// rows in view never jump. A motion aimed at an offset whose frame jumps past rows (a long
/// wheel spin) measures every row it passes, so where it rests depends on its path, not on the
/// frames drawn (the refresh rate). One aimed at a place the rows define (End and Home go to
/// an edge, an animated `scrollToRow` to a row) measures only the rows its frames show, as
/// `UITableView` does: it comes to rest on the same rows whatever it measured on the way.
///
/// Optional sections (`ListDataSource.sectionStarts`) put a header of `sectionHeaderHeight`
/// (or the section's own, `heightForHeaderInSection`; 0: none) above each section's first row.
/// Layout (`RowLayout`, prefix sums in a Fenwick tree): `top(0) = lead(0)` and `top(i + 1) =
/// top(i) + height(i) + lead(i + 1)`, where `lead(i)` is the band of the headers of the
/// sections starting at row i (empty ones stack). The header of the section at the top of the
/// viewport is pinned at `bounds.minY + adjustedContentInset.top` and pushed up by the next
/// one: `y = min(max(natural, pin), nextNatural − headerHeight)` (with footers, by its own
/// section's footer: `nextNatural` is the footer's natural top).
/// With footers (`sectionFooterHeight`, or a section's own), a footer follows each section's
/// last row (RowLayout's bands, ListView+SectionFooters.swift), and the footer of the section
/// at the bottom of the viewport is pinned there and pushed down by its own header: `y =
/// max(min(natural, bottomPin − footerHeight), headerNatural + headerHeight)`.
public final class ListView: ScrollView {
    public weak var dataSource: ListDataSource?
    /// The app's part in getting rows ready a screen ahead (UITableView's `prefetchDataSource`).
    public weak var prefetchDataSource: ListPrefetchDataSource? {
        didSet {
            guard prefetchDataSource !== oldValue else { return }
            prefetch.forget()
            updateVisibleRows()
        }
    }
    /// Whether `prefetchDataSource` is asked (on by default, as UICollectionView's
    /// `isPrefetchingEnabled`). Off, what was asked and not shown is cancelled.
    public var isPrefetchingEnabled = true {
        didSet {
            guard isPrefetchingEnabled != oldValue else { return }
            prefetch.isStale = true
            prefetchAhead()
        }
    }
    /// What the prefetch data source was asked for, and the rows it was asked for last (nil:
    /// none).
    var prefetch = PrefetchBook<Int>()
    var prefetchWindow: ClosedRange<Int>?
    private let log = Logger(label: "scrollway.list")
    /// The estimate of a row's height a list starts with.
    public static let defaultEstimatedRowHeight = 56.0
    /// The height assumed for rows not yet measured. Rows are measured by their cells as they
    /// come into view, so there is always an estimate: UIKit's 0 ("no estimate: ask every row
    /// for its height"), a negative or a non-finite value sets the default,
    /// `defaultEstimatedRowHeight` (an estimate of 0 put every row not measured at one place,
    /// and the list showed only its last row).
    public var estimatedRowHeight = ListView.defaultEstimatedRowHeight {
        didSet {
            if !(estimatedRowHeight > 0 && estimatedRowHeight.isFinite) {
                estimatedRowHeight = Self.defaultEstimatedRowHeight
            }
            guard estimatedRowHeight != oldValue else { return }
            keepingRowsInViewStill(mutate: { layout.setEstimate(estimatedRowHeight) }, newIndex: { $0 })
        }
    }
    // This and the other plain values marked `@exclusivity(unchecked)` here are read at every
    // frame of a scroll: unchecked as `View`'s geometry is (main actor only, never `inout`
    // across a call); the rows' arrays and dictionaries keep the check.
    /// Extra distance above and below the viewport that gets cells too.
    @exclusivity(unchecked) public var margin = 100.0 { didSet { updateVisibleRows() } }
    /// Called when a tap (or Space or Return on a focused row) selects a row.
    public var onSelectRow: ((Int) -> Void)?
    /// Called when a tap deselects a row (`allowsMultipleSelection`: a second tap).
    public var onDeselectRow: ((Int) -> Void)?
    /// Whether a tap selects its row (UITableView's `allowsSelection`, on by default): the row
    /// stays selected, drawn in its cell's `selectedColor`, until another is selected or the
    /// app deselects it. Off, a tap neither selects nor calls `onSelectRow`.
    public var allowsSelection = true {
        didSet { if !allowsSelection { setSelection([]) } }
    }
    /// Whether several rows may be selected at once (UITableView's): a tap then selects its
    /// row, or deselects it if it was. Off, selecting a row deselects the others.
    public var allowsMultipleSelection = false {
        didSet { if !allowsMultipleSelection, let first = selection.min() { setSelection([first]) } }
    }
    /// The selected rows; they follow their rows through inserts, deletes and moves, and a
    /// reload clears them (ListView+Selection.swift).
    var selection = Set<Int>()
    /// The buttons a row reveals at its trailing edge when swiped towards its leading edge
    /// (leftwards, or rightwards right to left; UIKit's trailing swipe actions), by row, the
    /// first outermost; nil (or no actions for a row): rows do not swipe that way. A
    /// horizontal swipe on a row slides it open while a vertical pan still scrolls the list
    /// (ListView+SwipeActions.swift); a screen reader offers the same actions on each row.
    public var trailingSwipeActions: ((Int) -> [RowAction])? {
        didSet { swipeActionsChanged() }
    }
    /// The buttons a row reveals at its leading edge when swiped towards its trailing edge
    /// (rightwards, or leftwards right to left; UIKit's leading swipe actions), the first
    /// outermost, as `trailingSwipeActions`.
    public var leadingSwipeActions: ((Int) -> [RowAction])? {
        didSet { swipeActionsChanged() }
    }
    /// Whether a row swiped on past its buttons, most of the way across (UIKit's full swipe),
    /// performs the first action of that side as it is released, as UIKit's default
    /// configuration does. Ours applies to every row and both sides; UIKit's is asked with
    /// each row's actions.
    public var performsFirstActionWithFullSwipe = true
    /// Row swiping, while either side's actions are set.
    var swipeActions: RowSwipeActions?

    /// The section index's titles (UITableView's `sectionIndexColor`); the system blue.
    public var sectionIndexColor = Color(rgb: 0, 122, 255) { didSet { sectionIndex?.applyColors() } }
    /// Behind the index while it is not touched (nil: clear).
    public var sectionIndexBackgroundColor: Color? { didSet { sectionIndex?.applyColors() } }
    /// Behind the index while a finger is on it (nil: the untouched background).
    public var sectionIndexTrackingBackgroundColor: Color? { didSet { sectionIndex?.applyColors() } }
    /// The fewest rows that show the index (UITableView's, 0 by default: any).
    public var sectionIndexMinimumDisplayRowCount = 0 { didSet { reloadSectionIndexTitles() } }
    /// The section index, while the data source gives titles (ListView+SectionIndex.swift).
    var sectionIndex: SectionIndexView?
    /// Whether a long press on a row the data source lets move (`list(_:canMoveRow:)`) lifts
    /// it to be dragged to another place, the list scrolling by itself near its ends; the data
    /// source hears of the move when it is dropped (`list(_:moveRowAt:to:)`).
    /// ListView+Reorder.swift; off by default.
    public var reordersRowsOnLongPress = false {
        didSet {
            updateRowReorder()
            for (row, cell) in visibleCells { offerActions(of: row, on: cell) }
        }
    }
    /// The long press that lifts rows, while `reordersRowsOnLongPress` is on.
    var rowReorder: RowReorder?
    /// The row being moved by hand, if one is.
    var movement: RowMovement?
    /// Whether the list edits its rows (`isEditing`, ListView+Editing.swift).
    var editingRows = false
    /// The grips' drag, while the list edits.
    var gripDrag: RowReorder?
    /// Whether a tap selects a row while the list edits (UITableView's, off by default).
    public var allowsSelectionDuringEditing = false
    /// Whether the list selects several rows while it edits (UITableView's, off by default, as
    /// Mail's Edit picks messages): every row shows a selection circle in its editing
    /// control's place, ticked while it is selected, and a tap anywhere on a row adds it to
    /// the selection or takes it out; the rows' editing styles are not shown meanwhile.
    public var allowsMultipleSelectionDuringEditing = false {
        didSet {
            guard editingRows, allowsMultipleSelectionDuringEditing != oldValue else { return }
            setSelection([])
            for (row, cell) in visibleCells {
                showEditing(of: row, on: cell)
                offerActions(of: row, on: cell)
            }
        }
    }
    /// A screen reader's move the data source is hearing of, not yet made in the list
    /// (`moveForReader`): an update the data source makes meanwhile, naming rows in the model's
    /// new order, makes it first (`abandonMovementForUpdate`).
    var readerMoveToShow: (from: Int, to: Int)?
    /// The vertical indicator stands beside the section index, not over it.
    override var verticalIndicatorClearance: Double { sectionIndexInset }

    /// The section index moves to the other edge (the cells lay their text out again: their
    /// own `layoutDirectionDidChange`).
    public override func layoutDirectionDidChange() {
        super.layoutDirectionDidChange()
        placeSectionIndex()
    }

    private func swipeActionsChanged() {
        updateSwipeActions()
        for (row, cell) in visibleCells { offerActions(of: row, on: cell) }
    }

    /// A list; the rows with cells stand inside it.
    public override var accessibilityDefaults: AccessibilityDefaults { AccessibilityDefaults(role: .list) }
    /// A reader says the list takes several rows.
    public override var accessibilityExtraStates: AccessibilityStates {
        allowsSelection && selectsSeveral ? .multiselectable : []
    }

    /// Its elements are its header view's, its cells, its headers' titles, its section index
    /// and its refresh control while they show, and its footer view's, in the tree's order (top
    /// to bottom, then left to right): a cell's index is how many of them come before it
    /// (counted, not made: one is asked as each cell is reused). Any other element (a header's
    /// title, a subview of its header) is found among the elements made.
    public override func accessibilityIndex(ofChild child: View, in window: Window) -> Int {
        // A header's title, the refresh control, an app's own subview: found among the elements
        // made (a few at once).
        guard child.superview === self, child is ListCell else {
            return super.accessibilityIndex(ofChild: child, in: window)
        }
        guard !child.isHidden, !child.accessibilityElementsHidden else { return -1 }
        /// Where an element stands, as the tree sorts: a header's by its title's place.
        func place(_ v: View) -> (Double, Double) {
            guard let header = v as? ListSectionHeader else { return (v.frame.minY, v.frame.minX) }
            let title = header.textLabel.frame
            return (header.frame.minY + title.minY, header.frame.minX + title.minX)
        }
        let key = place(child)
        // The header view's elements come before every row's.
        let above =
            listHeaderView.map { $0.superview === self ? $0.accessibilityNodes(in: window, depth: 0).count : 0 } ?? 0
        return subviews.reduce(above) { n, v in
            let element = v is ListCell || v is ListSectionHeader || v is RefreshControl || v is SectionIndexView
            let shown = !v.isHidden && !v.accessibilityElementsHidden
            return n + (v !== child && shown && element && place(v) < key ? 1 : 0)
        }
    }

    /// Which rows `offset` shows: "Rows 21 to 40 of 100000".
    public override func accessibilityScrollStatus(at offset: Point) -> String {
        guard count > 0 else { return "No rows" }
        let visible = Rect(origin: offset, size: bounds.size).inset(by: adjustedContentInset)
        let first = row(at: max(0, visible.minY))
        let last = max(first, row(at: max(0, visible.maxY - 1)))
        return "Rows \(first + 1) to \(last + 1) of \(count)"
    }
    /// The height of section headers, unless the data source gives a section its own
    /// (`heightForHeaderInSection`); `ListView.automaticDimension`: each as high as its title
    /// needs (none for an empty title). A new height asks the data source again.
    @exclusivity(unchecked) public var sectionHeaderHeight = 32.0 {
        didSet {
            guard sectionHeaderHeight != oldValue else { return }
            keepingRowsInViewStill(mutate: {}, newIndex: { $0 })
        }
    }
    /// The height of section footers (UITableView's `sectionFooterHeight`), unless the data
    /// source gives a section its own (`heightForFooterInSection`); 0, the default: no
    /// footers; `ListView.automaticDimension`: each as high as its text needs, wrapped (none
    /// for an empty text). Any other negative or non-finite height is 0.
    @exclusivity(unchecked) public var sectionFooterHeight = 0.0 {
        didSet {
            if !(sectionFooterHeight >= 0 && sectionFooterHeight.isFinite)
                && sectionFooterHeight != Self.automaticDimension
            {
                sectionFooterHeight = 0
            }
            guard sectionFooterHeight != oldValue else { return }
            keepingRowsInViewStill(mutate: {}, newIndex: { $0 })
        }
    }
    /// Whether the footer of the section at the bottom stays pinned there while it scrolls (as
    /// in UITableView's plain style, on by default).
    @exclusivity(unchecked) public var pinsSectionFooters = true { didSet { updateVisibleRows() } }
    /// Titles measured for `automaticDimension` bands, at the list's width.
    private(set) var bandMeasurer = BandMeasurer()
    /// Footers by section, for the sections that show one.
    public internal(set) var visibleFooters: [Int: ListSectionFooter] = [:]
    var footerPool: [ListSectionFooter] = []
    /// The sections `updateFooters` wants shown, its storage kept between frames.
    var wantedFooters: [Int] = []
    /// A view above the rows (UITableView's `tableHeaderView`): a search field, a profile, a
    /// summary. It scrolls with them, as wide as the list and as tall as its frame when set
    /// (set it again after changing its height, as in UIKit); a section's header pins below it
    /// while it shows, at the top once it has gone. Setting one moves the rows, not the offset.
    public var listHeaderView: View? {
        didSet { listViewChanged(from: oldValue, to: listHeaderView) }
    }
    /// A view after the last row (UITableView's `tableFooterView`): a count, a "Load more"
    /// button. As wide as the list and as tall as its frame when set.
    public var listFooterView: View? {
        didSet { listViewChanged(from: oldValue, to: listFooterView) }
    }

    private func listViewChanged(from old: View?, to new: View?) {
        if old !== new, old?.superview === self { old?.removeFromSuperview() }
        // Behind the rows' headers, which pin over it.
        if let new, new.superview !== self { insertSubview(new, at: 0) }
        // The rows move, the offset stays (not anchored), as with any change to the rows.
        keepingRowsInViewStill(mutate: { setListViewHeights() }, newIndex: { $0 }, anchored: false)
    }

    /// The layout takes the header and footer views' heights as they are now.
    private func setListViewHeights() {
        layout.setListViews(
            headerHeight: listHeaderView?.frame.height ?? 0, footerHeight: listFooterView?.frame.height ?? 0)
    }

    /// The header view at the top of the content, the footer view after the last row.
    private func placeListViews() {
        if let header = listHeaderView {
            let rect = Rect(x: 0, y: 0, width: bounds.width, height: layout.listHeaderHeight)
            if header.frame != rect { header.frame = rect }
        }
        if let footer = listFooterView {
            let rect = Rect(x: 0, y: layout.footerTop, width: bounds.width, height: layout.listFooterHeight)
            if footer.frame != rect { footer.frame = rect }
        }
    }

    /// Whether the header of the section at the top stays pinned there while it scrolls.
    @exclusivity(unchecked) public var pinsSectionHeaders = true { didSet { updateVisibleRows() } }
    /// Makes a section header when none waits to be reused (UITableView's registered header
    /// view class): the grey band with its title by default; a `ListSectionHeader` subclass
    /// brings views of its own, configured for each section in the data source's
    /// `list(_:willDisplayHeader:forSection:)`. A new one lets the bands made before go.
    public var sectionHeaderFactory: () -> ListSectionHeader = { ListSectionHeader() } {
        didSet { bandFactoriesChanged() }
    }
    /// Makes a section footer, as `sectionHeaderFactory` makes headers.
    public var sectionFooterFactory: () -> ListSectionFooter = { ListSectionFooter() } {
        didSet { bandFactoriesChanged() }
    }
    /// Headers by section, for the sections that show one.
    public private(set) var visibleHeaders: [Int: ListSectionHeader] = [:]
    private var headerPool: [ListSectionHeader] = []
    /// The sections `updateHeaders` wants shown, its storage kept between frames.
    private var wantedHeaders: [Int] = []
    /// Each section's first row, by the data source's section index, clamped to 0…rowCount
    /// (rowCount: after the last row, an empty section at the end).
    private(set) var sectionStarts: [Int] = []
    /// The sections in header order: by first row, then by index (sections before the last of
    /// those starting at one row are empty, and their headers stack above it).
    private(set) var headerOrder: [Int] = []
    /// Each section's place in `headerOrder`.
    private(set) var headerPosition: [Int] = []
    /// Each section's place among the headers stacked above its first row.
    private var headerSlot: [Int] = []

    private var pool = ReusePool<ListCell>()
    /// Reused cells (and headers) kept per identifier beyond those in view, between updates.
    public static let poolLimit = 4
    /// Cells by row, for the rows that have one.
    public internal(set) var visibleCells: [Int: ListCell] = [:] { didSet { rowsByCell = nil } }
    /// `visibleCells` the other way round, made when first asked after a change (a screen
    /// reader asks each row's place, and a scan per row would be quadratic).
    private var rowsByCell: [ObjectIdentifier: Int]?
    /// How many cells were ever made (a test of reuse).
    public var cellsCreated: Int { pool.created }
    var layout = RowLayout(
        count: 0, sectionStartRows: [], estimate: ListView.defaultEstimatedRowHeight, headerHeight: 32
    ) {
        didSet { layoutGeneration &+= 1 }
    }
    /// Bumped by every change to `layout` (a measurement, an estimate, an insert or delete).
    @exclusivity(unchecked) private var layoutGeneration = 0
    /// What the last full `updateVisibleRows` left: its rows in view, the layout and width it
    /// placed them with. A scroll that keeps those rows (most frames of a fling) only moves the
    /// pinned header.
    @exclusivity(unchecked) private var placed: (rows: ClosedRange<Int>, generation: Int, width: Double)?
    /// The rows the last update measured and gave cells to (nil after a change that renumbers
    /// or re-measures rows): a motion's next frame measures every row from there to its own.
    @exclusivity(unchecked) private var lastRows: ClosedRange<Int>?
    /// The row an edit or a new width keeps still on screen, while `keepingRowsInViewStill`
    /// runs: the updates it makes correct the offset for the rows measured above it, not for
    /// it. Found again from the offset, a row whose estimate was shorter than it is could end
    /// above the viewport's top and be counted as above itself (a resize then moved every row
    /// in view by the difference, for good).
    @exclusivity(unchecked) private var keptRow: Int?
    /// The focused row whose cell is kept while the row is away (`recycleCells`), as the last
    /// recycling found it.
    @exclusivity(unchecked) private var focusKeptRow: Int?
    var count: Int { layout.count }
    @exclusivity(unchecked) private(set) var isUpdating = false
    /// Whether `reloadData` has read the data source.
    private var hasLoaded = false
    /// An update was refused during a pass (`refuseUpdate`): the pass stops asking for rows and
    /// the list reloads when it ends.
    private var reloadPending = false
    var follower: RowScrollFollower?
    /// Animated updates under way (ListView+RowAnimations.swift).
    var rowAnimationsRunning = 0
    /// The calls of the `performBatchUpdates` running (ListView+Batch.swift), nil when none is.
    var rowBatch: RowBatch?
    /// Rows `reconfigureRows(at:)` named inside a batch, for once it is applied.
    var reconfigureAfterBatch: [Int] = []

    public func register(_ identifier: String, _ make: @escaping () -> ListCell) { pool.register(identifier, make) }

    /// A cell from the pool, or a new one from the registered factory; while a row is
    /// reconfigured (`reconfigureRows(at:)`), that row's own cell, as it is.
    public func dequeueReusableCell(withIdentifier identifier: String) -> ListCell { pool.dequeue(identifier) }

    /// Has the data source configure these rows' cells again, in place (UITableView's
    /// `reconfigureRows(at:)`): while it is asked for a row, `dequeueReusableCell` hands back
    /// that row's own cell, not prepared for reuse, so nothing is swapped or animated and what
    /// the cell holds besides its content stays (the focus, the selection, a swipe open). Each
    /// row is measured again, the rows in view kept still on screen. Rows without a cell (out
    /// of view) have nothing to do: they are asked for as they come in. A row the data source
    /// answers with another cell (of another identifier) is reloaded instead.
    ///
    /// Inside `performBatchUpdates` the request is made once the batch is applied, the rows
    /// named as they are after it.
    public func reconfigureRows(at rows: [Int]) {
        if rowBatch != nil { return reconfigureAfterBatch.append(contentsOf: rows) }
        guard let dataSource else { return }
        if isUpdating { return refuseUpdate("reconfigureRows: made while the list asks for rows") }
        // The rows are named in the data source's new order when a reader's move is pending.
        showReaderMove()
        var swapped: [Int] = []
        var heights: [(row: Int, height: Double)] = []
        isUpdating = true
        // An update from the data source's `cellForRow` (refused: a reload waits) stops the
        // asking: its model no longer has the rows as the list names them.
        for r in Set(rows).sorted() where !reloadPending {
            guard let cell = visibleCells[r] else { continue }
            pool.handingBack = cell
            let answer = dataSource.list(self, cellForRow: movement?.dataRow(r) ?? r)
            pool.handingBack = nil
            guard answer === cell else {
                pool.put(answer, identifier: answer.reuseIdentifier)
                swapped.append(r)
                continue
            }
            showEditing(of: r, on: cell)
            heights.append((r, wantedHeight(of: cell)))
        }
        isUpdating = false
        if reloadPending {
            reloadPending = false
            return reloadData()
        }
        // Heights are kept quantized: an unchanged row's measure, compared raw, read as changed.
        let changed = heights.filter { layout.height($0.row) != RowLayout.quantized($0.height) }
        if !changed.isEmpty {
            keepingRowsInViewStill(mutate: { for (r, h) in changed { layout.setHeight(r, h) } }, newIndex: { $0 })
            swipeActions?.openRowResized()
        }
        if !swapped.isEmpty { reloadRows(at: swapped) }
    }

    /// A row's swipe actions as the cell's accessibility actions (a screen reader's way to
    /// them), and "Move up" and "Move down" for a row a long press could lift (a reader
    /// cannot drag it), found by row when performed (inserts and deletes renumber cells).
    func offerActions(of row: Int, on cell: ListCell) {
        let moves = (reordersRowsOnLongPress || editingRows) && dataSource?.list(self, canMoveRow: row) == true
        guard swipeActions != nil || moves else {
            if !cell.accessibilityCustomActions.isEmpty { cell.accessibilityCustomActions = [] }
            return
        }
        // While editing, the row's change, not its swipe actions (it is not swiped then).
        var offered = editingRows ? editingActions(forRow: row, on: cell) : []
        offered += (editingRows ? [] : actions(forRow: row)).map { action in
            AccessibilityCustomAction(name: action.title) { [weak self, weak cell] in
                guard let self, let cell, let row = self.row(for: cell) else { return false }
                self.closeSwipeActions(animated: false)
                action.handler(row)
                return true
            }
        }
        if moves {
            for (name, step) in [("Move up", -1), ("Move down", 1)] {
                offered.append(
                    AccessibilityCustomAction(name: name) { [weak self, weak cell] in
                        guard let self, let cell else { return false }
                        return self.moveForReader(cell, by: step)
                    })
            }
        }
        cell.accessibilityCustomActions = offered
    }

    /// Reloads everything from the data source; the selection is cleared, as UITableView's is.
    public func reloadData() {
        hasLoaded = true
        readerMoveToShow = nil
        closeSwipeActions(animated: false)
        dropMovement()
        setSelection([])
        follower?.list = nil
        follower = nil
        // The rows' numbers may name other data now: what was asked is forgotten, not cancelled.
        prefetch.forget()
        for (_, cell) in visibleCells { recycle(cell) }
        visibleCells.removeAll()
        recycleHeadersAndFooters()
        let rows = max(0, dataSource?.numberOfRows(in: self) ?? 0)
        // The sections first, so the layout's tree is built once, with its headers.
        readSections(rows: rows)
        let heights = sectionHeights()
        layout = RowLayout(
            count: rows, estimate: estimatedRowHeight, sectionStarts: headerOrder.map { sectionStarts[$0] },
            headerHeights: heights.headers, footerHeights: heights.footers)
        setListViewHeights()
        lastRows = nil
        // Before the rows are measured: a cell's text is laid out short of the index.
        loadSectionIndex()
        updateContentSize()
        updateVisibleRows()
    }

    /// The number of rows.
    public var rowCount: Int { count }

    /// The row a cell in view currently shows (nil for a cell not in view).
    public func row(for cell: ListCell) -> Int? {
        if rowsByCell == nil {
            rowsByCell = Dictionary(uniqueKeysWithValues: visibleCells.map { (ObjectIdentifier($0.value), $0.key) })
        }
        return rowsByCell?[ObjectIdentifier(cell)]
    }

    /// The number of sections (0 without sections), empty ones included.
    public var numberOfSections: Int { sectionStarts.count }

    /// The section `row` belongs to (nil without sections or above the first): the last of
    /// those starting at or above it.
    public func section(containingRow row: Int) -> Int? {
        lastHeader { sectionStarts[$0] <= row }.map { headerOrder[$0] }
    }

    /// The last position in `headerOrder` whose section passes `isAtOrAbove`, which holds for a
    /// leading run of the order (binary search).
    private func lastHeader(where isAtOrAbove: (Int) -> Bool) -> Int? {
        var lo = 0
        var hi = headerOrder.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if isAtOrAbove(headerOrder[mid]) { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? nil : lo - 1
    }

    /// The last position in `headerOrder` whose header's natural top is at or above `y`.
    ///
    /// Found from the row at `y` (one walk down the layout's tree): the headers of sections
    /// starting above that row are all above `y`, so only those of the row and the one after
    /// it have their tops worked out. A binary search over the headers summed the rows above
    /// each header it tried instead, a dozen walks of the tree for the demo's 4,000 sections,
    /// twice a frame. The tops ascend along `headerOrder`, so the header after the one found
    /// must lie below `y`; if the tree's rounding put the row elsewhere, the search decides.
    func lastHeader(atOrAbove y: Double) -> Int? {
        guard !headerOrder.isEmpty, !y.isNaN else { return nil }
        let near = layout.row(at: y) + 1
        var found = lastHeader { sectionStarts[$0] <= near }
        while let i = found, headerTop(headerOrder[i]) > y { found = i > 0 ? i - 1 : nil }
        let next = (found ?? -1) + 1
        if next < headerOrder.count, headerTop(headerOrder[next]) <= y { return lastHeader { headerTop($0) <= y } }
        return found
    }

    /// The natural top of section `section`'s header (`rectForHeader`'s, without the rect).
    func headerTop(_ section: Int) -> Double {
        layout.headerTop(row: sectionStarts[section], slot: headerSlot[section])
    }

    /// The rect of section `section`'s header where the content puts it (before pinning): the
    /// headers of empty sections stack above the next section's, as UITableView's do.
    public func rectForHeader(inSection section: Int) -> Rect {
        precondition(
            section >= 0 && section < sectionStarts.count, "section \(section) out of 0..<\(sectionStarts.count)")
        return Rect(x: 0, y: headerTop(section), width: bounds.width, height: headerHeight(section))
    }

    /// Section `section`'s header height (0: it has none).
    func headerHeight(_ section: Int) -> Double { layout.headerHeight(at: headerPosition[section]) }
    /// Section `section`'s footer height (0: it has none).
    func footerHeight(_ section: Int) -> Double { layout.footerHeight(at: headerPosition[section]) }

    /// Sections as the data source gives them, in header order, set in the layout with their
    /// heights. Not before the first `reloadData`: a list not loaded yet has no rows and asks
    /// its data source nothing (a band height or a width set first would have read the
    /// sections of a model the app may not have yet).
    private func loadSections() {
        guard hasLoaded else { return }
        readSections(rows: count)
        let heights = sectionHeights()
        layout.setSections(
            starts: headerOrder.map { sectionStarts[$0] }, headerHeights: heights.headers,
            footerHeights: heights.footers)
    }

    /// Reads the data source's sections for a list of `rows` rows, and orders their headers.
    private func readSections(rows: Int) {
        sectionStarts = (dataSource?.sectionStarts(in: self) ?? []).map { min(max(0, $0), rows) }
        // A row lifted away from its place: the data source's sections, which have not heard of
        // it, are where its rows stand in the list now.
        if let movement, movement.current != movement.original {
            sectionStarts = sectionStarts.map { movement.listStart(ofSectionStartingAt: $0) }
        }
        headerOrder = sectionStarts.indices.sorted { (sectionStarts[$0], $0) < (sectionStarts[$1], $1) }
        headerPosition = Array(repeating: 0, count: sectionStarts.count)
        for (i, s) in headerOrder.enumerated() { headerPosition[s] = i }
        headerSlot = Array(repeating: 0, count: sectionStarts.count)
        for (i, s) in headerOrder.enumerated() where i > 0 && sectionStarts[headerOrder[i - 1]] == sectionStarts[s] {
            headerSlot[s] = headerSlot[headerOrder[i - 1]] + 1
        }
    }

    /// The rect of `row` in content coordinates (estimated until measured).
    public func rectForRow(_ row: Int) -> Rect {
        precondition(row >= 0 && row < count, "row \(row) out of 0..<\(count)")
        return Rect(x: 0, y: layout.top(row), width: bounds.width, height: layout.height(row))
    }

    /// Whether `row`'s height has been measured (otherwise its rect uses the estimate).
    public func isRowMeasured(_ row: Int) -> Bool { row >= 0 && row < count && layout.isMeasured(row) }

    /// A rect in content coordinates, made visible with the least scroll. Rows measured on the
    /// way move the rect with the row it starts in, so it lands exactly: a row's own rect
    /// (`rectForRow`) follows the row's measured height, any other rect keeps its height.
    public override func scrollRectToVisible(_ rect: Rect, animated: Bool) {
        guard count > 0, rect.isFinite else { return super.scrollRectToVisible(rect, animated: animated) }
        let row = layout.row(at: max(0, rect.minY))
        let r = rectForRow(row)
        let isRowRect = abs(rect.minY - r.minY) < 1e-6 && abs(rect.height - r.height) < 1e-6
        // x is not measured: the plain scroll view's least distance decides it, from where the
        // list stands once a running zoom or motion has stopped.
        settleZoomAnimation()
        stopMotion()
        let x = leastDistanceOffset(toShow: rect).x
        scroll(
            to: RowTarget(
                row: row, offset: isRowRect ? nil : rect.minY - r.minY, height: isRowRect ? nil : rect.height, x: x),
            animated: animated)
    }

    /// An update that names rows the list does not have, or that the data source's count does
    /// not agree with (the app changed its model after the call, or by another amount), is not
    /// applied: it is logged, naming the rows and counts, and the list reloads from the data
    /// source, so it shows what the app has. UIKit raises "Invalid update" there; an app that
    /// inserted before updating its model crashed in its own `cellForRow`, and one whose counts
    /// disagreed the other way showed the wrong number of rows.
    ///
    /// Refused while the list places its cells (the app's `cellForRow` changed its model and
    /// told the list), the reload waits for the pass to end, which stops asking for rows: a
    /// reload there left the pass measuring rows the new layout did not have, and it trapped.
    func refuseUpdate(_ what: String) {
        log.error("ListView: \(what); reloaded from the data source instead")
        if isUpdating {
            reloadPending = true
        } else {
            reloadData()
        }
    }

    /// The data source's row count when it is not `expected` (nil when it agrees, or when there
    /// is no data source to ask).
    func dataSourceHas(_ expected: Int) -> Int? {
        guard let rows = dataSource?.numberOfRows(in: self), rows != expected else { return nil }
        return rows
    }

    /// Inserts rows (indices after the insertion); the rows in view stay where they are on
    /// screen, whatever is inserted above them, unless the list is at its top, where rows
    /// inserted above show. The data source must already have them. With an `animation`, the
    /// new rows come in that way as the rows after them slide to make room
    /// (ListView+RowAnimations.swift); without, at once.
    public func insertRows(at rows: [Int], with animation: RowAnimation = .none) {
        if rowBatch != nil { return rowBatch!.insert(rows, animation) }
        var one = RowBatch()
        one.insert(rows, animation)
        commit(one, name: "insertRows")
    }

    /// Deletes rows (indices before the deletion); the rows in view stay where they are on
    /// screen, whatever is deleted above them. The data source must no longer have them. With
    /// an `animation`, the rows go out that way as the rows after them slide up.
    public func deleteRows(at rows: [Int], with animation: RowAnimation = .none) {
        if rowBatch != nil { return rowBatch!.delete(rows, animation) }
        var one = RowBatch()
        one.delete(rows, animation)
        commit(one, name: "deleteRows")
    }

    /// Asks the data source again for these rows (their content changed): rows with cells get
    /// new ones, and every listed row is measured again when in view. The first row in view
    /// stays where it is on screen, whatever heights change above it. The data source's count
    /// must be the list's (UIKit's batch checks it: a reload changes no count). With an
    /// `animation`, a row's old cell goes out that way as its new one comes in, and the rows
    /// after it slide to its new height.
    public func reloadRows(at rows: [Int], with animation: RowAnimation = .none) {
        if rowBatch != nil { return rowBatch!.reload(rows, animation) }
        var one = RowBatch()
        one.reload(rows, animation)
        commit(one, name: "reloadRows")
    }

    /// Moves a row (UITableView's `moveRow(at:to:)`; `to` is its index after the move): its
    /// cell and its measured height go with it, the rows between move one place, and the
    /// offset stays (the heights add up to the same), so only the rows between move on screen.
    /// The data source must have the row at `to` already; its sections are read again.
    /// `animated`, the rows slide to their new places (UITableView's always do).
    public func moveRow(at from: Int, to: Int, animated: Bool = false) {
        if rowBatch != nil { return rowBatch!.move(from, to, animated ? .automatic : .none) }
        if isUpdating { return refuseUpdate("moveRow: made while the list asks for rows") }
        abandonMovementForUpdate()
        if let r = [from, to].first(where: { $0 < 0 || $0 >= count }) {
            return refuseUpdate("moveRow: row \(r) is outside 0..<\(count)")
        }
        if let rows = dataSourceHas(count) {
            return refuseUpdate("moveRow: the data source has \(rows) rows, where the list has \(count)")
        }
        guard from != to else { return }
        moveInLayout(from: from, to: to, animated: animated)
    }

    /// An update from the app while a row is lifted (`insertRows`, `deleteRows`, `reloadRows`,
    /// `moveRow`): the movement ends with no word to the data source, as a cancel does, its
    /// row put back in the layout and the cells renumbered, but no row is asked for here: the
    /// data source already has the update (the calls ask for it first), and a cancel's update
    /// asked it for rows by their old indices (the wrong items in view after an insert, and
    /// rows it no longer had after a delete).
    func abandonMovementForUpdate() {
        showReaderMove()
        guard let movement else { return }
        let (from, to) = (movement.current, movement.original)
        dropMovement()
        guard from != to else { return }
        moveWithoutAsking(from: from, to: to)
    }

    /// A screen reader's move the data source is hearing of (`readerMoveToShow`) made in the
    /// list, so its rows are in the model's new order.
    func showReaderMove() {
        guard let move = readerMoveToShow else { return }
        readerMoveToShow = nil
        moveWithoutAsking(from: move.from, to: move.to)
    }

    /// The row at `from` to `to` in the layout, the cells and the selection, no row asked for.
    private func moveWithoutAsking(from: Int, to: Int) {
        layout.move(from: from, to: to)
        var renumbered: [Int: ListCell] = [:]
        for (r, cell) in visibleCells { renumbered[Self.index(of: r, afterMoving: from, to: to)] = cell }
        visibleCells = renumbered
        selection = Set(selection.map { Self.index(of: $0, afterMoving: from, to: to) })
    }

    /// The row at `from` to `to` in the layout and the cells, the offset kept; `animated`, the
    /// rows slide to their new places from where they stand (`animatingRows`).
    func moveInLayout(from: Int, to: Int, animated: Bool) {
        let newIndex = { Self.index(of: $0, afterMoving: from, to: to) }
        animatingRows(animated ? .automatic : .none, departing: [], arriving: [], newIndex: newIndex) {
            keepingRowsInViewStill(mutate: { layout.move(from: from, to: to) }, newIndex: newIndex, anchored: false)
        }
    }

    /// The height `cell` wants at the list's width (its text wrapped, its editing controls'
    /// room left).
    func wantedHeight(of cell: ListCell) -> Double {
        cell.sizeThatFits(Size(width: bounds.width, height: .greatestFiniteMagnitude)).height
    }

    /// The data source's sections read again, the rows and the offset where they are.
    func sectionsMayHaveChanged() { keepingRowsInViewStill(mutate: {}, newIndex: { $0 }, anchored: false) }

    /// Where row `row` is after the row at `from` moved to `to`.
    static func index(of row: Int, afterMoving from: Int, to: Int) -> Int {
        if row == from { return to }
        if from < to, row > from, row <= to { return row - 1 }
        if to < from, row >= to, row < from { return row + 1 }
        return row
    }

    /// Applies a change to the rows, renumbers the cells in view by `newIndex` (nil: the row is
    /// gone, its cell recycled), then moves the offset by however far the first row in view (or
    /// the first that survives and is not among the `moved`: a row moved away does not take
    /// the view with it) moved, so nothing in view jumps. If that would leave a resting list
    /// outside its range (the rows above it were deleted), it rests at the edge. Not
    /// `anchored` (a move), the offset stays.
    ///
    /// A list at its top (or pulled past it), or with its header view at the top of the
    /// viewport, keeps its offset instead, as UIKit's does: rows inserted there show, as a new
    /// message arrives at the top of an inbox read from the top, where keeping the first row
    /// still had hidden them above the screen.
    func keepingRowsInViewStill(
        mutate: () -> Void, newIndex: (Int) -> Int?, anchored: Bool = true, moved: Set<Int> = []
    ) {
        follower?.list = nil  // its row number is stale now
        lastRows = nil
        var reference: (old: Double, new: Int)?
        // The header view at the top of the viewport stands above every row: it keeps its
        // place, as a list at its top does.
        let headerAtTop = bounds.minY < layout.listHeaderHeight
        if anchored, count > 0, contentOffset.y > verticalRange.lowerBound, !headerAtTop {
            var r = row(at: max(0, bounds.minY))
            while r < count, newIndex(r) == nil || moved.contains(r) { r += 1 }
            if r < count, let n = newIndex(r) { reference = (rectForRow(r).minY, n) }
        }
        let wasInRange = isOffsetInRange
        mutate()
        // Renumbered first, recycled after: recycling cancels touches, which runs app code that
        // may edit the list again, and must find it consistent.
        var renumbered: [Int: ListCell] = [:]
        var gone: [ListCell] = []
        for (r, cell) in visibleCells {
            if let n = newIndex(r) { renumbered[n] = cell } else { gone.append(cell) }
        }
        visibleCells = renumbered
        if !selection.isEmpty { selection = Set(selection.compactMap(newIndex)) }
        // Rows asked for keep their data under their new numbers; a deleted one is the app's.
        prefetch.renumber(newIndex)
        // A cell's actions are its row's (a row's swipe actions, whether it may move): a cell
        // with a new row is offered the new row's. Only in a list that offers any.
        if swipeActions != nil || reordersRowsOnLongPress {
            for (r, cell) in renumbered {
                // A row whose control or grip came or went with its new number (the data
                // source answers by row) has another width for its text: measured again.
                let room = (cell.editingLead, cell.editingTrail)
                showEditing(of: r, on: cell)
                if room != (cell.editingLead, cell.editingTrail) { layout.setHeight(r, wantedHeight(of: cell)) }
                offerActions(of: r, on: cell)
            }
        }
        for cell in gone { recycle(cell) }
        loadSections()
        recycleHeadersAndFooters()
        updateContentSize()
        // The updates this runs (the shift's own, the last) measure around the kept row.
        defer { keptRow = nil }
        if let reference, reference.new < count {
            keptRow = reference.new
            editShifted(by: rectForRow(reference.new).minY - reference.old, ifInRange: wasInRange)
        }
        keepOffsetInRangeAtRest(ifItWas: wasInRange)
        updateVisibleRows()
    }

    // MARK: Layout

    /// Every touch in a list may be cancelled to scroll, a row's button's too (UITableView's
    /// override of UIScrollView's default, which keeps a control's touch).
    public override func touchesShouldCancel(in view: View) -> Bool { true }

    /// The pinned header and footer stand inside the adjusted inset: a keyboard coming up moves
    /// the footer above it, and a new top inset the header below it, without a scroll.
    public override func adjustedContentInsetDidChange() {
        super.adjustedContentInsetDidChange()
        updateVisibleRows()
    }

    public override func didChangeBounds(from old: Rect) {
        super.didChangeBounds(from: old)
        if old.width != bounds.width {
            // Without rows, the sections' bands still fit their titles at the new width.
            if count > 0 { remeasureForNewWidth() } else { keepingRowsInViewStill(mutate: {}, newIndex: { $0 }) }
        } else if old != bounds {
            updateVisibleRows()
        }
    }

    /// Text is measured in device pixels, so heights measured at one scale are stale at
    /// another (a window moved to an output of another scale): measured again, as for a new
    /// width.
    public override func windowScaleDidChange() {
        super.windowScaleDidChange()
        if count > 0 { remeasureForNewWidth() } else { keepingRowsInViewStill(mutate: {}, newIndex: { $0 }) }
    }

    /// A new width (a resized window) wraps text differently, so every measured height is
    /// stale: all rows go back to estimates and the rows in view are measured again, with the
    /// first row in view kept where it was on screen (as inserts and deletes keep it).
    private func remeasureForNewWidth() {
        keepingRowsInViewStill(
            mutate: {
                layout.forgetMeasurements()
                for (_, cell) in visibleCells { recycle(cell) }
                visibleCells.removeAll()
            },
            newIndex: { $0 })
    }

    private func updateContentSize() {
        contentSize = Size(width: bounds.width, height: layout.totalHeight)
        placeListViews()
    }

    /// The row whose span (its header band included) holds `y`.
    func row(at y: Double) -> Int { layout.row(at: y) }

    /// The rows that want cells now: those meeting the viewport plus the margin.
    private func rowsInView() -> ClosedRange<Int> {
        row(at: max(0, bounds.minY - margin))...row(at: max(0, bounds.maxY + margin))
    }

    /// Gives cells to the rows in view (+ margin), measures them, recycles the rest. Cells that
    /// left go to the pool first, so a jump (scrollToRow, a resize) reuses them instead of
    /// making a second screenful; the pool is trimmed to `poolLimit` afterwards.
    func updateVisibleRows() {
        guard !isUpdating, let dataSource else { return }
        isUpdating = true
        defer {
            isUpdating = false
            if reloadPending {
                reloadPending = false
                reloadData()
            } else {
                prefetchAhead()
            }
        }
        guard count > 0 else {
            lastRows = nil
            for (_, cell) in visibleCells { recycle(cell) }
            visibleCells.removeAll()
            updateHeaders()  // empty sections still show theirs
            trimPools()
            return
        }
        let inView = rowsInView()
        // The focused row's cell, kept while its row is away, is one cell more than the rows.
        let kept = focusKeptRow.map { inView.contains($0) ? 0 : 1 } ?? 0
        if let placed, placed.rows == inView, placed.generation == layoutGeneration, placed.width == bounds.width,
            visibleCells.count == inView.count + kept
        {
            // The same rows, measured and placed with this layout, each with its cell.
            updateHeaders()
            return
        }
        recycleCells(outside: inView)
        if let lastRows, !isIdle, !isHeadingForRows { measureRowsPassed(since: lastRows, dataSource: dataSource) }
        // Measure the rows newly in view, top to bottom. A correction above the first row in
        // view moves the offset with it (contentShifted), so what is in view stays still; the
        // rows below it move with the viewport, so the bottom limit moves by the same amount.
        // A shrinking correction can bring rows in at the top: measure again (rarely twice).
        for _ in 0..<4 {
            let anchor = keptRow.map { min($0, count - 1) } ?? row(at: max(0, bounds.minY))
            var correctionAbove = 0.0
            var measuredAny = false
            var r = row(at: max(0, bounds.minY - margin))
            while r < count, !reloadPending, layout.prefix(r) <= bounds.maxY + margin + correctionAbove {
                if !layout.isMeasured(r) {
                    let (cell, delta) = measure(r, dataSource: dataSource)
                    if r < anchor { correctionAbove += delta }
                    measuredAny = true
                    place(cell, row: r)
                }
                r += 1
            }
            guard measuredAny else { break }
            updateContentSize()
            if correctionAbove != 0 {
                contentShifted(by: correctionAbove)
                // What is in view stays still, rows going out too.
                for view in departingViews { view.moveWithAnimation(by: Point(x: 0, y: correctionAbove)) }
            }
        }
        let rows = rowsInView()
        recycleCells(outside: rows)
        // Cells of rows above the first one whose rect changed since the last placement keep
        // their frames (at the same width): a fling's frame that measures the row it brings in
        // below the others sets that one's frame only (`place`), not every cell's in view.
        let moved = placed?.width == bounds.width ? layout.firstMovedRow : 0
        for r in rows where !reloadPending {
            if let cell = visibleCells[r] {
                if r >= moved { move(cell, to: rectForRow(r)) }
            } else {
                place(dataSource.list(self, cellForRow: movement?.dataRow(r) ?? r), row: r)
            }
        }
        // The kept focused row follows its row while away (rows above it measured, inserted or
        // deleted), so it comes back where it belongs.
        if let r = focusKeptRow, !rows.contains(r), let cell = visibleCells[r] { cell.frame = rectForRow(r) }
        updateHeaders()
        trimPools()
        // Before `placed` takes the generation: marking bumps it.
        layout.markPlaced()
        placed = (rows, layoutGeneration, bounds.width)
        lastRows = rows
    }

    private var isIdle: Bool {
        if case .idle = motion { return true }
        return false
    }

    /// Asks the prefetch data source for the rows a screen beyond those with cells, in the way
    /// the list last moved (down at first), and cancels those asked for that fell out of reach
    /// unshown. Runs after each placement of the rows; costs nothing while the rows in reach
    /// are the same, and nothing at all without a prefetch data source. Not while a row is
    /// moved by hand (the rows' numbers are the list's own then).
    private func prefetchAhead() {
        guard let source = prefetchDataSource, movement == nil else { return }
        prefetch.moved(to: bounds.minY)
        var window: ClosedRange<Int>?
        let reach = margin + bounds.height
        if isPrefetchingEnabled, count > 0, let rows = lastRows {
            if prefetch.forward, rows.upperBound + 1 < count {
                let first = rows.upperBound + 1
                window = first...max(first, row(at: bounds.maxY + reach))
            } else if !prefetch.forward, rows.lowerBound > 0 {
                let last = rows.lowerBound - 1
                window = min(last, row(at: max(0, bounds.minY - reach)))...last
            }
        }
        guard window != prefetchWindow || prefetch.isStale else { return }
        prefetchWindow = window
        let ordered: [Int] = window.map { prefetch.forward ? Array($0) : $0.reversed() } ?? []
        let (asked, cancelled) = prefetch.update(window: ordered) { visibleCells[$0] != nil }
        if !cancelled.isEmpty { source.list(self, cancelPrefetchingForRowsAt: cancelled) }
        if !asked.isEmpty { source.list(self, prefetchRowsAt: asked) }
    }

    /// Whether the motion heads for a place the rows define rather than an offset: an edge
    /// (End, Home, scroll to top) or a row (an animated `scrollToRow`, re-aimed by its
    /// follower). Where such a motion rests shows the same rows however many it measured on
    /// the way, so it skips the rows it passes unseen: End across 100,000 rows costs what
    /// its frames show, not a text layout for every row between.
    private var isHeadingForRows: Bool {
        if let goal = state.animation?.goal, goal != .offset { return true }
        return follower?.isLeading == true
    }

    /// Row `r`'s cell from the data source, and how far its measured height moved the rows
    /// below it.
    private func measure(_ r: Int, dataSource: ListDataSource) -> (ListCell, Double) {
        let cell = dataSource.list(self, cellForRow: movement?.dataRow(r) ?? r)
        // Measured with its editing controls' room.
        showEditing(of: r, on: cell)
        // Measured in the window, at its scale: text is measured in device pixels, and a cell
        // out of the tree (new, or waiting out of it) measured its labels at 1, so at 1.5 a
        // paragraph a line longer than at 1 was cut. It waits hidden until placed (`place`
        // shows it, and tells a reader it came).
        if cell.superview !== self {
            cell.isHidden = true
            insertSubview(cell, at: 0)
        }
        return (cell, layout.setHeight(r, wantedHeight(of: cell)))
    }

    /// A motion's frame (a fling, the wheel, an animation) moved the viewport on from `last`,
    /// the rows the previous update measured: every row between is measured as frames a pixel
    /// apart would have measured it, in the order they would have come in. Moving down, rows
    /// come in below the viewport: nothing in view moves and the motion keeps its target.
    /// Moving up, they come in above it: the offset (and the motion's target) move with them.
    /// So the rows measured, the content's height and where the motion rests depend on the
    /// motion's path only, not on which frames were drawn (the refresh rate, a compositor's
    /// timing). A frame that moves less than a screenful measures just what it newly shows,
    /// as before; a faster one also pays for the rows it passes without showing.
    private func measureRowsPassed(since last: ClosedRange<Int>, dataSource: ListDataSource) {
        guard last.upperBound < count else { return }
        var measuredAny = false
        // Down: the rows after the last update's, until the bottom of the viewport plus the margin.
        var r = last.upperBound + 1
        while r < count, !reloadPending, layout.prefix(r) <= bounds.maxY + margin {
            if !layout.isMeasured(r) {
                keep(measure(r, dataSource: dataSource).0, row: r, shift: 0)
                measuredAny = true
            }
            r += 1
        }
        // Up: the rows before the last update's, until the top of the viewport less the margin,
        // which moves down with every correction above it.
        var shift = 0.0
        r = last.lowerBound - 1
        while r >= 0, !reloadPending, layout.prefix(r + 1) > bounds.minY + shift - margin {
            if !layout.isMeasured(r) {
                let (cell, delta) = measure(r, dataSource: dataSource)
                shift += delta
                keep(cell, row: r, shift: shift)
                measuredAny = true
            }
            r -= 1
        }
        guard measuredAny else { return }
        updateContentSize()
        if shift != 0 {
            contentShifted(by: shift)
            for view in departingViews { view.moveWithAnimation(by: Point(x: 0, y: shift)) }
        }
    }

    /// A cell made to measure a passed row: placed if the row meets the viewport plus the
    /// margin (the offset to move by `shift`), else back to the pool.
    private func keep(_ cell: ListCell, row r: Int, shift: Double) {
        let top = bounds.minY + shift - margin
        let bottom = bounds.maxY + shift + margin
        if layout.prefix(r + 1) > top && layout.prefix(r) <= bottom {
            place(cell, row: r)
        } else {
            recycle(cell)
        }
    }

    private func recycleCells(outside rows: ClosedRange<Int>) {
        // The rows first, then the removals: removing while iterating the dictionary would
        // copy all of it at the first removal (the iteration holds it), every scrolled frame.
        // A loop, not `filter`: this view's closures check their actor once per element.
        // The focused row keeps its cell wherever it scrolls (GTK 4's list keeps its focused
        // item too): the keyboard's next Down goes on from it, and a screen reader's focus
        // stays on that row instead of on a cell that now shows another.
        var leaving: [Int] = []
        focusKeptRow = nil
        // The focus may be the cell's or a control's inside it (a switch in a settings row).
        let focused = window?.focusedView
        for (r, cell) in visibleCells where !rows.contains(r) {
            if let focused, focused.isDescendant(of: cell) { focusKeptRow = r } else { leaving.append(r) }
        }
        for r in leaving {
            if let cell = visibleCells.removeValue(forKey: r) { recycle(cell) }
        }
    }

    /// Headers for the sections starting among the rows with cells, and for the section at
    /// the top (pinned); the rest go back to the pool.
    private func updateHeaders() {
        guard let dataSource else { return }
        let pin = bounds.minY + adjustedContentInset.top
        // The headers whose natural place meets the viewport plus the margin (where rows get
        // cells), and the section whose header's natural top is at or above the pin line.
        // A few sections at most: an array, sorted and without repeats (a set would allocate
        // and hash every frame of a scroll).
        // Its storage is kept from frame to frame (`wantedHeaders`).
        var wanted = wantedHeaders
        wantedHeaders = []
        defer { wantedHeaders = wanted }
        wanted.removeAll(keepingCapacity: true)
        let from = bounds.minY - margin
        if let last = lastHeader(atOrAbove: bounds.maxY + margin) {
            // Upwards until a header ends above the range (a section without one has none).
            var i = last
            while i >= 0 {
                let (s, height) = (headerOrder[i], headerHeight(headerOrder[i]))
                if headerTop(s) + height <= from { break }
                if height > 0 { wanted.append(s) }
                i -= 1
            }
        }
        let topIndex = pinsSectionHeaders ? lastHeader(atOrAbove: max(0, pin)) : nil
        // A section without a header has none pinned.
        let top = topIndex.map { headerOrder[$0] }.flatMap { headerHeight($0) > 0 ? $0 : nil }
        if let top, !wanted.contains(top) { wanted.append(top) }
        wanted.sort()
        recycleBands(\.visibleHeaders, keeping: wanted)
        placeSectionIndex()
        // In front of every cell, behind the section index and the scroll indicators.
        let front = headersFront
        for s in wanted {
            var rect = rectForHeader(inSection: s)
            if s == top {
                // Pushed up by what follows its section: its own footer (the header never
                // covers it, as the pinned footer never covers its header), else the next header.
                let next =
                    layout.hasFooters
                    ? footerTop(s)
                    : topIndex.flatMap { $0 + 1 < headerOrder.count ? headerOrder[$0 + 1] : nil }
                        .map { headerTop($0) } ?? .infinity
                rect.origin.y = min(max(rect.minY, pin), next - rect.height)
            }
            showBand(
                s, at: rect, in: \.visibleHeaders, pool: \.headerPool, front: front, pinned: s == top,
                make: sectionHeaderFactory
            ) { band, s in
                band.textLabel.text = dataSource.list(self, titleForSection: s)
                dataSource.list(self, willDisplayHeader: band, forSection: s)
            }
        }
        updateFooters()
        // A row moved by hand floats in front of the rows and headers, where the finger is.
        if movement != nil { placeLiftedCell() }
    }

    /// Bands of another kind from now on: those shown and pooled go, the heights that fit a
    /// title are measured again with the new kind, and the sections are read again.
    private func bandFactoriesChanged() {
        recycleHeadersAndFooters()
        headerPool = []
        footerPool = []
        bandMeasurer = BandMeasurer()
        keepingRowsInViewStill(mutate: {}, newIndex: { $0 })
    }

    /// Every header and footer back to its pool (the sections changed).
    private func recycleHeadersAndFooters() {
        recycleBands(\.visibleHeaders, keeping: [])
        recycleBands(\.visibleFooters, keeping: [])
    }

    /// The bands (`visibleHeaders` or `visibleFooters`) of the sections not in `wanted` go
    /// back to their pool.
    func recycleBands<Band: ListSectionHeader>(
        _ bands: ReferenceWritableKeyPath<ListView, [Int: Band]>, keeping wanted: [Int]
    ) {
        guard !self[keyPath: bands].isEmpty else { return }
        var leaving: [Int] = []
        for s in self[keyPath: bands].keys where !wanted.contains(s) { leaving.append(s) }
        for s in leaving {
            if let band = self[keyPath: bands].removeValue(forKey: s) { recycle(band) }
        }
    }

    /// Section `s`'s band (a header or a footer) at `rect`: the one shown, else one from
    /// `pool` (or `make`) given its section by `prepare` (its title, the app's configuration).
    /// A new one goes in at `front` (in front of every cell, behind the section index and the
    /// indicators) and a reader hears its title come; a `pinned` one is brought in front of
    /// the others. The key paths are read and written a step at a time, never across `make`
    /// and `prepare` (app code that may read the list).
    func showBand<Band: ListSectionHeader>(
        _ s: Int, at rect: Rect, in bands: ReferenceWritableKeyPath<ListView, [Int: Band]>,
        pool: ReferenceWritableKeyPath<ListView, [Band]>, front: Int, pinned: Bool, make: () -> Band,
        prepare: (Band, Int) -> Void
    ) {
        let band = SectionBands.band(s, of: self, in: bands, pool: pool, make: make, prepare: prepare)
        band.frame = rect
        if band.superview !== self {
            insertSubview(band, at: front)
            // Its title is one of the list's elements (a reader hears it come).
            window?.postAccessibilityNotification(.elementAdded(band.textLabel, container: self))
        } else if pinned {
            bringSubviewBelowIndicators(band)
        }
    }

    func bringSubviewBelowIndicators(_ view: View) {
        guard let i = subviews.index(ofIdentical: view) else { return }
        let front = headersFront
        if i != front - 1 { insertSubview(view, at: front - 1) }
    }

    /// Where headers go in `subviews`: below the section index, which stands just below the
    /// scroll indicators (`loadSectionIndex`).
    var headersFront: Int {
        let front = indicatorsFront
        if let index = sectionIndex, front > 0, subviews[front - 1] === index { return front - 1 }
        return front
    }

    /// A header or a footer leaves; a reader hears its title go.
    func recycle(_ header: ListSectionHeader) {
        window?.postAccessibilityNotification(.elementRemoved(header.textLabel, container: self))
        header.removeFromSuperview()
        if let footer = header as? ListSectionFooter { footerPool.append(footer) } else { headerPool.append(header) }
    }

    /// Puts a cell in view at its row's new rect; one sliding to its place after an animated
    /// update goes on sliding as far as it had left, to the new place.
    private func move(_ cell: ListCell, to rect: Rect) {
        guard rowAnimationsRunning > 0, cell.bounds.size == rect.size,
            cell.moveSlide(endingAt: Point(x: rect.midX, y: rect.midY))
        else {
            cell.frame = rect
            return
        }
    }

    private func place(_ cell: ListCell, row: Int) {
        if let old = visibleCells[row], old !== cell { recycle(old) }
        visibleCells[row] = cell
        // A cell reused while rows animate may still be on its way in or out for its last row.
        if rowAnimationsRunning > 0 { cell.removeAllAnimations() }
        cell.frame = rectForRow(row)
        showEditing(of: row, on: cell)
        // The row is looked up at tap time: inserts and deletes renumber cells in view.
        // The cell owns the closure, so it is alive whenever the closure runs: unowned (a weak
        // reference would give every cell a side table, slowing each retain of it).
        cell.onTap = { [weak self, unowned cell] in
            guard let self, let row = self.row(for: cell) else { return }
            self.rowTapped(row)
        }
        cell.isSelected = !selection.isEmpty && selection.contains(row)
        cell.selectsOnKeys = onSelectRow != nil
        offerActions(of: row, on: cell)
        if cell.joinRowsInView(of: self) {
            window?.postAccessibilityNotification(.elementAdded(cell, container: self))
        }
    }

    func recycle(_ cell: ListCell) {
        retire(cell)
        shelve(cell)
    }

    /// A cell leaves its row: it gives up the focus, its open actions and a movement, and a
    /// reader hears it go. A cell recycled with the focus, its own or a control's inside it
    /// (its row deleted, the data reloaded), gives it up: it is about to show another row,
    /// which must not inherit it. (Scrolling away keeps the focused row's cell:
    /// `recycleCells`.)
    func retire(_ cell: ListCell) {
        if let focused = window?.focusedView, focused.isDescendant(of: cell) { focused.resignFocus() }
        swipeActions?.cellWillRecycle(cell)
        if movement?.cell === cell { dropMovement() }
        window?.postAccessibilityNotification(.elementRemoved(cell, container: self))
    }

    /// A retired cell goes to the pool: at once, or once it has animated out
    /// (ListView+RowAnimations.swift).
    func shelve(_ cell: ListCell) {
        // A cell sliding for its row is put at its end while still in the window: out of it,
        // the slide would wait for the next frame to end, and a row given the cell before
        // then at the place where it stands would see it slide on to its last row's place.
        if rowAnimationsRunning > 0 { cell.removeAllAnimations() }
        cell.leaveRowsInView()
        cell.onTap = nil
        pool.put(cell, identifier: cell.reuseIdentifier)
    }

    /// Keeps at most `poolLimit` spare cells per identifier (and headers) between updates.
    private func trimPools() {
        pool.trim(to: Self.poolLimit, waitingIn: self)
        if headerPool.count > Self.poolLimit { headerPool.removeLast(headerPool.count - Self.poolLimit) }
        if footerPool.count > Self.poolLimit { footerPool.removeLast(footerPool.count - Self.poolLimit) }
    }
}
