import Logging
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayLayout
import ScrollwayRaster
import ScrollwayViews

/// Supplies a collection's items (UICollectionViewDataSource's role).
@MainActor
public protocol CollectionViewDataSource: AnyObject {
    func numberOfSections(in collectionView: CollectionView) -> Int
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
    /// A configured cell for `path`; get one with `dequeueReusableCell(withIdentifier:)`.
    func collectionView(_ collectionView: CollectionView, cellForItemAt path: ItemPath) -> CollectionCell
    /// The title shown in a section's header (when the layout has headers).
    func collectionView(_ collectionView: CollectionView, titleForSection section: Int) -> String
    /// The text shown in a section's footer (when the layout has footers: a flow layout's
    /// `footerHeight`). Empty by default.
    func collectionView(_ collectionView: CollectionView, titleForFooterInSection section: Int) -> String
    /// A section's own header height in a flow layout (UICollectionViewDelegateFlowLayout's
    /// `referenceSizeForHeaderInSection`): `layout.headerHeight` by default; 0: none. Asked
    /// for every section whenever the layout is prepared (a reload, an update,
    /// `invalidateLayout()`). Negative or not finite: 0.
    func collectionView(
        _ collectionView: CollectionView, layout: FlowLayout, heightForHeaderInSection section: Int
    ) -> Double
    /// A section's own footer height in a flow layout (`referenceSizeForFooterInSection`), as
    /// the header's: `layout.footerHeight` by default; 0: none.
    func collectionView(
        _ collectionView: CollectionView, layout: FlowLayout, heightForFooterInSection section: Int
    ) -> Double
    /// A header is about to show section `section`, its title set (UICollectionViewDelegate's
    /// `willDisplaySupplementaryView`): a band of the app's own
    /// (`CollectionView.sectionHeaderFactory`) is configured for the section here. Nothing by
    /// default.
    func collectionView(
        _ collectionView: CollectionView, willDisplayHeader header: ListSectionHeader, forSection section: Int)
    /// A footer is about to show section `section`, as `willDisplayHeader`.
    func collectionView(
        _ collectionView: CollectionView, willDisplayFooter footer: ListSectionFooter, forSection section: Int)
}

extension CollectionViewDataSource {
    public func numberOfSections(in collectionView: CollectionView) -> Int { 1 }
    public func collectionView(_ collectionView: CollectionView, titleForSection section: Int) -> String { "" }
    public func collectionView(_ collectionView: CollectionView, titleForFooterInSection section: Int) -> String {
        ""
    }
    public func collectionView(
        _ collectionView: CollectionView, layout: FlowLayout, heightForHeaderInSection section: Int
    ) -> Double { layout.headerHeight }
    public func collectionView(
        _ collectionView: CollectionView, layout: FlowLayout, heightForFooterInSection section: Int
    ) -> Double { layout.footerHeight }
    public func collectionView(
        _ collectionView: CollectionView, willDisplayHeader header: ListSectionHeader, forSection section: Int
    ) {}
    public func collectionView(
        _ collectionView: CollectionView, willDisplayFooter footer: ListSectionFooter, forSection section: Int
    ) {}
}

/// An item's view in a collection. Reused: when its item scrolls away it waits in the pool for
/// the next item that needs one with its identifier. Content goes in `contentView` (by frames
/// or constraints); a self-sizing layout asks `preferredHeight(forWidth:)`.
open class CollectionCell: ReusableCell {
    /// Where the cell's content goes; it fills the cell.
    public let contentView = View()
    /// Its item is selected (`CollectionView.selectedItems`): drawn in `selectedColor`, and a
    /// reader hears it.
    public internal(set) var isSelected = false { didSet { if isSelected != oldValue { appearanceDidChange() } } }
    public var normalColor: Color? = nil { didSet { appearanceDidChange() } }
    public var highlightColor: Color? = Color(rgb: 210, 220, 235) { didSet { appearanceDidChange() } }
    public var selectedColor: Color? = Color(rgb: 190, 210, 240) { didSet { appearanceDidChange() } }
    var onMove: ((CollectionDirection) -> Void)?

    public override init(reuseIdentifier: String) {
        super.init(reuseIdentifier: reuseIdentifier)
        contentView.fillsSuperview = true
        contentView.isUserInteractionEnabled = false
        addSubview(contentView)
        appearanceDidChange()
    }

    open override func appearanceDidChange() {
        backgroundColor = isHighlighted ? highlightColor ?? normalColor : isSelected ? selectedColor : normalColor
    }

    open override var accessibilityExtraStates: AccessibilityStates { isSelected ? [.selected] : [] }

    /// An item is one element, named by the labels its content view holds (unless the app
    /// names it: `accessibilityLabel`).
    open override var accessibilityDefaults: AccessibilityDefaults {
        AccessibilityDefaults(role: .listItem, label: contentView.accessibilityLabelOfContents, isElement: true)
    }

    open override var accessibilityPosition: (index: Int, count: Int)? {
        guard let collection = superview as? CollectionView, let path = collection.itemPath(for: self) else {
            return nil
        }
        return (collection.flatIndex(of: path) + 1, collection.totalItems)
    }

    /// The height the cell's content needs at `width`: its constraints' (`systemLayoutSizeFitting`
    /// of the content view) when it has any, else `sizeThatFits`.
    open func preferredHeight(forWidth width: Double) -> Double {
        if !contentView.constraintsInSubtree.isEmpty {
            return contentView.systemLayoutSizeFitting(
                Size(width: width, height: 0), horizontalFittingPriority: .required
            ).height
        }
        return sizeThatFits(Size(width: width, height: .greatestFiniteMagnitude)).height
    }

    /// A focused cell: Space and Return select it (or, among several, deselect it, as a tap
    /// does) while its collection allows selection, else they scroll it; the arrows move the
    /// focus through the grid.
    open override func handleInput(_ event: InputEvent) -> Bool {
        guard isFocused, case .key(let key, let pressed, let modifiers) = event.kind,
            modifiers.isDisjoint(with: [.control, .alt, .logo])
        else { return false }
        let direction: CollectionDirection
        switch key {
        case .space, .enter:
            guard let onTap, (superview as? CollectionView)?.allowsSelection != false else { return false }
            if pressed { onTap() }
            return true
        case .up: direction = .up
        case .down: direction = .down
        case .left: direction = .left
        case .right: direction = .right
        default: return false
        }
        if pressed { onMove?(direction) }
        return true
    }
}

/// A scrolling collection of items placed by a `CollectionViewLayout` (a `FlowLayout` grid by
/// default), UICollectionView's model: the data source configures cells dequeued from a reuse
/// pool, only the items meeting the viewport plus `margin` have cells, and a frame of a fling
/// costs what it shows, not what the collection holds (the layout finds the rows in view in
/// O(log n)). Tapping an item selects it (or, with `allowsMultipleSelection`, adds it to the
/// selection or takes it out); with the keyboard, the arrows move the focus from item to item
/// and Space or Return do what a tap does.
///
/// Items and sections are inserted, deleted, moved and reloaded as UIKit's are
/// (`insertItems(at:)`, `deleteItems(at:)`, `reloadItems(at:)`, `moveItem(at:to:)` and the
/// sections' kin), one at a time or many as one update (`performBatchUpdates(_:completion:)`):
/// the cells in view keep their items, what is on screen stays still, and the selection and
/// the keyboard focus follow their items.
public final class CollectionView: ScrollView {
    public weak var dataSource: CollectionViewDataSource?
    /// The app's part in getting items ready a screen ahead (UICollectionView's
    /// `prefetchDataSource`).
    public weak var prefetchDataSource: CollectionPrefetchDataSource? {
        didSet {
            guard prefetchDataSource !== oldValue else { return }
            prefetch.forget()
            updateVisibleItems()
        }
    }
    /// Whether `prefetchDataSource` is asked (on by default, as UIKit's). Off, what was asked
    /// and not shown is cancelled.
    public var isPrefetchingEnabled = true {
        didSet { if isPrefetchingEnabled != oldValue { prefetchAhead() } }
    }
    /// What the prefetch data source was asked for and not yet shown or cancelled.
    var prefetch = PrefetchBook<ItemPath>()
    public let layout: CollectionViewLayout
    /// How far beyond the viewport items get cells.
    public var margin = 100.0 { didSet { updateVisibleItems() } }
    /// Called when a tap (or Space or Return on a focused item) selects an item
    /// (UICollectionView's `didSelectItemAt`).
    public var onSelectItem: ((ItemPath) -> Void)?
    /// Called when a tap deselects an item (`allowsMultipleSelection`: a second tap; UIKit's
    /// `didDeselectItemAt`).
    public var onDeselectItem: ((ItemPath) -> Void)?
    /// Whether a tap selects its item (UICollectionView's `allowsSelection`, on by default):
    /// the item stays selected, drawn in its cell's `selectedColor`, until another is selected
    /// or the app deselects it. Off, a tap neither selects nor calls `onSelectItem`, Space and
    /// Return scroll, and what was selected is deselected.
    public var allowsSelection = true {
        didSet { if !allowsSelection { setSelection([]) } }
    }
    /// Whether several items may be selected at once (UICollectionView's, off by default): a
    /// tap then selects its item, or deselects it if it was, as in a photo picker. Off,
    /// selecting an item deselects the others; turned off, the first selected stays.
    public var allowsMultipleSelection = false {
        didSet { if !allowsMultipleSelection, let first = selection.min() { setSelection([first]) } }
    }
    /// The selected items. They follow their items through updates (a deleted item leaves
    /// it, a reloaded one stays in it), and a reload keeps those that still name an item.
    var selection = Set<ItemPath>()
    /// The first selected item (nil: none).
    public var selectedItem: ItemPath? { selection.min() }
    /// The selected items, in order (UICollectionView's `indexPathsForSelectedItems`).
    public var selectedItems: [ItemPath] { selection.sorted() }
    public private(set) var visibleCells: [ItemPath: CollectionCell] = [:]
    /// How updates animate (UICollectionView animates every update): `.none` (the default)
    /// puts everything in its new place at the next frame; another animation has the items
    /// that stay slide from where they stood on screen to their new places over
    /// `ListView.rowAnimationDuration`, the inserted and reloaded ones come in that way and the
    /// deleted ones, and the old cells of reloaded ones, go out that way (`ChangeAnimation`).
    /// A batch's completion then runs when its animation is over.
    public var updateAnimation = RowAnimation.none
    /// Whether an animated update is under way.
    public var hasUpdateAnimations: Bool { updateAnimationsRunning > 0 }
    private var updateAnimationsRunning = 0
    public var cellsCreated: Int { pool.created }
    public static let poolLimit = 8

    private var pool = ReusePool<CollectionCell>()
    private var headers: [Int: ListSectionHeader] = [:]
    private var headerPool: [ListSectionHeader] = []
    private var footers: [Int: ListSectionFooter] = [:]
    private var footerPool: [ListSectionFooter] = []
    /// Makes a section header when none waits to be reused (UICollectionView's registered
    /// supplementary view class): the grey band with its title by default; a
    /// `ListSectionHeader` subclass brings views of its own, configured for each section in the
    /// data source's `collectionView(_:willDisplayHeader:forSection:)`. A new one lets the
    /// bands made before go.
    public var sectionHeaderFactory: () -> ListSectionHeader = { ListSectionHeader() } {
        didSet { bandFactoriesChanged() }
    }
    /// Makes a section footer, as `sectionHeaderFactory` makes headers.
    public var sectionFooterFactory: () -> ListSectionFooter = { ListSectionFooter() } {
        didSet { bandFactoriesChanged() }
    }
    /// Titles measured for `FlowLayout.automaticDimension` bands.
    private var bandMeasurer = BandMeasurer()
    /// Each section's item count, as the collection last read or updated them.
    private(set) var counts: [Int] = []
    private var needsPrepare = true
    private var preparedWidth: Double?
    /// The window's scale changed since the last `prepare`: the items are measured again.
    private var scaleChanged = false
    private var isUpdating = false
    /// The rect the last update gave cells to, and whether anything changed since.
    private var placedRect: Rect?
    /// Bumped by every change to the items (an update, a reload): a pass of asking for cells
    /// that sees it move (the data source's `cellForItemAt` updated the collection) stops
    /// asking for the paths it had, and places the cells again once it is over.
    private var itemsGeneration = 0
    /// An update was refused during a pass (`refuseUpdate`): the pass stops asking for items
    /// and the collection reloads when it ends.
    private var reloadPending = false
    /// The calls of the `performBatchUpdates` running (nil: none is): a call made in it is
    /// added here, and they are applied together when it ends.
    private var batch: CollectionBatch?
    /// Items `reconfigureItems(at:)` named inside a batch, for once it is applied.
    private var reconfigureAfterBatch: [ItemPath] = []
    /// Where the collection says what it refused (an update the data source does not agree
    /// with); a test routes it into memory.
    var log = Logger(label: "scrollway.collection")

    public init(frame: Rect = .zero, layout: CollectionViewLayout = FlowLayout()) {
        self.layout = layout
        super.init(frame: frame)
        alwaysBounceVertical = true
    }

    public override var accessibilityDefaults: AccessibilityDefaults { AccessibilityDefaults(role: .list) }
    /// A reader says a photo picker's grid takes several.
    public override var accessibilityExtraStates: AccessibilityStates {
        allowsSelection && allowsMultipleSelection ? .multiselectable : []
    }

    public func register(_ identifier: String, _ make: @escaping () -> CollectionCell) {
        pool.register(identifier, make)
    }

    /// A cell from the pool, or a new one from the registered factory.
    public func dequeueReusableCell(withIdentifier identifier: String) -> CollectionCell {
        pool.dequeue(identifier)
    }

    /// Has the data source configure these items' cells again, in place (UICollectionView's
    /// `reconfigureItems(at:)`): while it is asked for an item, `dequeueReusableCell` hands
    /// back that item's own cell, not prepared for reuse, so nothing is swapped or animated
    /// and the focus and the selection stay. A self-sizing layout measures each again, the
    /// items in view kept still on screen. Items without a cell (out of view) have nothing to
    /// do; one the data source answers with another cell is reloaded instead. Inside
    /// `performBatchUpdates` the request is made once the batch is applied, the items named
    /// as they are after it.
    public func reconfigureItems(at paths: [ItemPath]) {
        if batch != nil { return reconfigureAfterBatch.append(contentsOf: paths) }
        guard let dataSource else { return }
        if isUpdating { return refuseUpdate("reconfigureItems: made while the collection asks for items") }
        var swapped: [ItemPath] = []
        var shift = 0.0
        let wasInRange = isOffsetInRange
        isUpdating = true
        for path in Set(paths).sorted() {
            guard let cell = visibleCells[path] else { continue }
            pool.handingBack = cell
            let answer = dataSource.collectionView(self, cellForItemAt: path)
            pool.handingBack = nil
            guard answer === cell else {
                pool.put(answer, identifier: answer.reuseIdentifier)
                swapped.append(path)
                continue
            }
            if let width = layout.measuringWidth(forItemAt: path) {
                let above = layout.frameForItem(at: path).maxY <= bounds.minY + 1e-9
                let moved = layout.setMeasuredHeight(cell.preferredHeight(forWidth: width), forItemAt: path)
                if above { shift += moved }
            }
        }
        isUpdating = false
        if reloadPending {
            reloadPending = false
            return reloadData()
        }
        if contentSize != layout.contentSize { contentSize = layout.contentSize }
        editShifted(by: shift, ifInRange: wasInRange)
        // Items at the end that shrank leave the offset at rest in the range, as a list's do.
        keepOffsetInRangeAtRest(ifItWas: wasInRange)
        placedRect = nil
        updateVisibleItems()
        if !swapped.isEmpty { reloadItems(at: swapped) }
    }

    public var numberOfSections: Int { counts.count }
    public func numberOfItems(inSection section: Int) -> Int {
        section >= 0 && section < counts.count ? counts[section] : 0
    }
    public var totalItems: Int { counts.reduce(0, +) }

    /// The item's position counting every item before it, from 0 (a reader's "item 5 of 100").
    func flatIndex(of path: ItemPath) -> Int { counts.prefix(path.section).reduce(0, +) + path.item }

    /// Reads the data source again and places everything anew.
    public func reloadData() {
        itemsGeneration &+= 1
        // The paths may name other data now: what was asked is forgotten, not cancelled.
        prefetch.forget()
        for (_, cell) in visibleCells { recycle(cell) }
        visibleCells.removeAll()
        // Headers and footers too: their titles are read again.
        takeDownHeadersAndFooters()
        guard let dataSource else {
            counts = []
            invalidateLayout()
            return
        }
        let sections = max(0, dataSource.numberOfSections(in: self))
        counts = (0..<sections).map { max(0, dataSource.collectionView(self, numberOfItemsInSection: $0)) }
        selection = selection.filter { $0.isItem(in: counts) }
        invalidateLayout()
    }

    // MARK: Updates

    /// Inserts items (paths after the insertion, as UIKit's); the data source must already
    /// have them. The cells in view keep their items, and the first item in view stays where
    /// it is on screen, whatever is inserted above it, unless the collection is at its top,
    /// where what is inserted above shows (as UIKit keeps the offset).
    public func insertItems(at paths: [ItemPath]) {
        record("insertItems") { $0.insertedItems.formUnion(paths) }
    }

    /// Deletes items (paths before the deletion, as UIKit's); the data source must no longer
    /// have them. Their cells are recycled, the selection and the keyboard focus on one of them
    /// are cleared, and the first item in view that stays keeps its place on screen.
    public func deleteItems(at paths: [ItemPath]) {
        record("deleteItems") { $0.deletedItems.formUnion(paths) }
    }

    /// Asks the data source again for these items (their content changed): those with cells
    /// get new ones, and a self-sizing layout measures them again. The selection and the
    /// keyboard focus stay on them; the first item in view stays where it is on screen.
    public func reloadItems(at paths: [ItemPath]) {
        record("reloadItems") { $0.reloadedItems.formUnion(paths) }
    }

    /// Moves an item from `path` (before the update) to `newPath` (after it), as UIKit's
    /// `moveItem(at:to:)`, in its section or into another; the data source must already have
    /// it there. Its cell goes with it (the same cell shows it), and so do the selection, the
    /// keyboard focus and what a self-sizing layout measured of it. The items between close
    /// up or make room; the first item in view that stays in order keeps its place on screen
    /// (a moved one does not hold the view: the view does not follow it away).
    public func moveItem(at path: ItemPath, to newPath: ItemPath) {
        record("moveItem") { $0.movedItems.append((path, newPath)) }
    }

    /// Inserts sections (indices after the insertion), their items read from the data source,
    /// which must already have them; the first item in view stays where it is on screen (at
    /// the top, the offset, so that sections inserted there show).
    public func insertSections(_ sections: [Int]) {
        record("insertSections") { $0.insertedSections.formUnion(sections) }
    }

    /// Deletes sections (indices before the deletion) and their items; the data source must no
    /// longer have them. The first item in view that stays keeps its place on screen.
    public func deleteSections(_ sections: [Int]) {
        record("deleteSections") { $0.deletedSections.formUnion(sections) }
    }

    /// Moves a section from `section` (before the update) to `newSection` (after it), with its
    /// items, as UIKit's `moveSection(_:toSection:)`: their cells, the selection and the focus
    /// go with them, and the headers are read again.
    public func moveSection(_ section: Int, toSection newSection: Int) {
        record("moveSection") { $0.movedSections.append((section, newSection)) }
    }

    /// Reads sections (indices before the update) again, their item counts too, as UIKit's
    /// `reloadSections(_:)`: every item of them gets a new cell and is measured again, and
    /// their headers are read again. As with `reloadItems(at:)`, the selection and the focus
    /// stay at their index in the section, if it still has that many items.
    public func reloadSections(_ sections: [Int]) {
        record("reloadSections") { $0.reloadedSections.formUnion(sections) }
    }

    /// Makes the updates `updates` calls (`insertItems(at:)`, `deleteItems(at:)`,
    /// `reloadItems(at:)`, `moveItem(at:to:)` and the sections' kin) one update, as UIKit's:
    /// they are collected, not applied, and applied together when `updates` returns, read with
    /// UIKit's index rules (deletions, reloads and the sources of moves name indices before the
    /// batch; insertions and the destinations of moves, after it), so the data source changes
    /// its model once, in the closure, for all of them. The data source's counts after must be
    /// those before, less the deletions, plus the insertions, per section (a move counted out
    /// of its source and into its destination); a batch they do not agree with, or one that
    /// deletes and moves one item or reloads a moved one, is refused as a single update is:
    /// logged, and the collection reloads (UIKit raises "Invalid update").
    ///
    /// A batch inside the closure joins this one (its completion waits for this one's end).
    /// `completion` is called once the batch is applied, or once its animation is over
    /// (`updateAnimation`), with whether its items ran to their places (as UIKit's: false when
    /// a later update or the app took an item's animation over on the way); with false for a
    /// batch refused (reloaded instead).
    public func performBatchUpdates(_ updates: () -> Void, completion: ((Bool) -> Void)? = nil) {
        guard batch == nil else {
            updates()
            if let completion { batch?.completions.append(completion) }
            return
        }
        batch = CollectionBatch(name: "performBatchUpdates")
        updates()
        guard var collected = batch else { return }
        batch = nil
        if let completion { collected.completions.append(completion) }
        let completions = collected.completions
        if !commit(collected, done: { finished in for done in completions { done(finished) } }) {
            for done in completions { done(false) }
        }
        if !reconfigureAfterBatch.isEmpty {
            let paths = reconfigureAfterBatch
            reconfigureAfterBatch = []
            reconfigureItems(at: paths.filter { $0.isItem(in: counts) })
        }
    }

    /// A single call: added to the batch running, else applied as a batch of its own (nothing,
    /// when it names nothing).
    private func record(_ name: String, _ change: (inout CollectionBatch) -> Void) {
        if batch != nil {
            change(&batch!)
            return
        }
        var single = CollectionBatch(name: name)
        change(&single)
        if !single.isEmpty { _ = commit(single, done: { _ in }) }
    }

    /// Checks a batch against the collection and the data source, and applies it; a batch
    /// they do not agree with is refused. Whether it was applied; `done` runs once it is over
    /// (its animation ended), if it was.
    private func commit(_ batch: CollectionBatch, done: @escaping (_ finished: Bool) -> Void) -> Bool {
        let source = dataSource.map { dataSource in
            CollectionBatch.Source(
                sections: dataSource.numberOfSections(in: self),
                items: { dataSource.collectionView(self, numberOfItemsInSection: $0) })
        }
        do throws(CollectionBatch.Refusal) {
            let (update, newCounts) = try batch.resolve(counts: counts, source: source)
            if batch.isEmpty { done(true) } else { apply(update, counts: newCounts, done: done) }
            return true
        } catch {
            refuseUpdate("\(batch.name): \(error.reason)")
            return false
        }
    }

    /// An update that names items or sections the collection does not have, or that the data
    /// source's counts do not agree with (the app changed its model after the call, or by
    /// another amount), is not applied: it is logged, naming the paths and counts, and the
    /// collection reloads from the data source, so it shows what the app has. UIKit raises
    /// "Invalid update" there; a layout indexing its arrays with such a path would trap, and
    /// counts that disagreed would show the wrong items.
    ///
    /// Refused while the collection asks for cells (the app's `cellForItemAt` changed its model
    /// and told the collection), the reload waits for the pass to end, which stops asking for
    /// items: the paths it had may name none now.
    private func refuseUpdate(_ what: String) {
        log.error("CollectionView: \(what); reloaded from the data source instead")
        if isUpdating {
            reloadPending = true
            itemsGeneration &+= 1
        } else {
            reloadData()
        }
    }

    /// Applies an update the data source agrees with: the layout brought up to date (keeping
    /// what it measured, or prepared again), the cells in view renumbered (those of items gone
    /// or reloaded recycled; a moved item's cell goes with it), the selection and the focus
    /// moved with their items, then the offset moved by however far the first item in view
    /// (or the first after it that stays in order) moved, so nothing in view jumps. If that
    /// would leave a resting collection outside its range (the items above it were deleted),
    /// it rests at the edge. A collection at its top (or pulled past it) keeps its offset, as
    /// UIKit's does and a list here does: items inserted above the first in view show.
    /// Animated by `updateAnimation`, the cells of items gone go out instead of being recycled
    /// at once; `done` runs once the animation is over.
    private func apply(
        _ update: CollectionUpdate, counts newCounts: [Int], done: @escaping (_ finished: Bool) -> Void
    ) {
        // The layout as the collection stands (a new width, a reload not yet placed) first:
        // the item kept still is found in it.
        prepareIfNeeded()
        itemsGeneration &+= 1
        var reference: (path: ItemPath, y: Double)?
        let inView = contentOffset.y > verticalRange.lowerBound ? layout.items(in: bounds) : []
        // Not a moved item: the view stays with the items around it, not with one taken away.
        if let first = inView.first(where: { update.keepsInOrder($0) })
            ?? inView.last.flatMap({ firstSurvivor(after: $0, of: update) })
        {
            reference = (first, layout.frameForItem(at: first).minY - bounds.minY)
        }
        let wasInRange = isOffsetInRange
        var change = ChangeAnimation(updateAnimation, in: self)
        let animates = change.animates
        var before: [ObjectIdentifier: ItemPath] = [:]
        if animates {
            for (path, cell) in visibleCells {
                change.noteCell(cell)
                before[ObjectIdentifier(cell)] = path
            }
            if !update.changesSections {
                for (s, header) in headers { change.noteHeader(header, section: s) }
                for (s, footer) in footers { change.noteFooter(footer, section: s) }
            }
        }
        counts = newCounts
        if !layout.prepare(forUpdate: update, for: self) { layout.prepare(for: self) }
        needsPrepare = false
        preparedWidth = bounds.width
        placedRect = nil
        // Renumbered first, recycled after: recycling runs app code (a touch cancelled) that
        // may update the collection again, and must find it consistent.
        let focused = window?.focusedView
        var refocus: ItemPath?
        var renumbered: [ItemPath: CollectionCell] = [:]
        var gone: [CollectionCell] = []
        for (path, cell) in visibleCells {
            let new = update.newPath(for: path)
            if let new, !update.reloads(new) {
                renumbered[new] = cell
            } else {
                gone.append(cell)
                if let new, let focused, focused.isDescendant(of: cell) { refocus = new }
            }
        }
        visibleCells = renumbered
        selection = Set(selection.compactMap { update.newPath(for: $0) })
        // Items asked for keep their data under their new paths; deleted and reloaded ones
        // are the app's doing.
        prefetch.renumber { path in update.newPath(for: path).flatMap { update.reloads($0) ? nil : $0 } }
        for cell in gone {
            if animates {
                retire(cell)
                change.noteLeaving(cell)
            } else {
                recycle(cell)
            }
        }
        // Their indices changed: taken down, their titles read again.
        if update.changesSections { takeDownHeadersAndFooters() }
        contentSize = layout.contentSize
        if let reference, let new = update.newPath(for: reference.path) {
            editShifted(by: layout.frameForItem(at: new).minY - bounds.minY - reference.y, ifInRange: wasInRange)
        }
        keepOffsetInRangeAtRest(ifItWas: wasInRange)
        updateVisibleItems()
        // A reloaded item keeps the focus: its new cell takes it (made here if the item is away).
        if let refocus, !isUpdating, let dataSource, contains(refocus) {
            if visibleCells[refocus] == nil {
                keep(dataSource.collectionView(self, cellForItemAt: refocus), at: refocus)
            }
            visibleCells[refocus]?.becomeFocused()
        }
        guard animates else { return done(true) }
        // Each cell's order: its item's index counting every item before it.
        var firsts: [Int] = []
        var total = 0
        for n in counts {
            firsts.append(total)
            total += n
        }
        let cells = visibleCells.map { path, cell -> (Int, View, ChangeAnimation.Past) in
            let order = path.section < firsts.count ? firsts[path.section] + path.item : total
            if update.arrives(path) { return (order, cell, .arrives) }
            let stayed = before[ObjectIdentifier(cell)].flatMap(update.newPath(for:)) == path
            return (order, cell, stayed ? .stayed : .cameIntoView)
        }
        updateAnimationsRunning += 1
        change.run(
            cells: cells,
            headers: update.changesSections ? nil : ChangeAnimation.bands(headers: headers, footers: footers),
            shelve: { [unowned self] in if let cell = $0 as? CollectionCell { shelve(cell) } }
        ) { [weak self] finished in
            self?.updateAnimationsRunning -= 1
            done(finished)
        }
    }

    /// The first item after `path` (in the old numbering) that `update` keeps in order.
    private func firstSurvivor(after path: ItemPath, of update: CollectionUpdate) -> ItemPath? {
        var s = path.section
        var i = path.item + 1
        while s < counts.count {
            if update.keepsInOrder(section: s) {
                while i < counts[s] {
                    let p = ItemPath(item: i, section: s)
                    if update.keepsInOrder(p) { return p }
                    i += 1
                }
            }
            s += 1
            i = 0
        }
        return nil
    }

    /// The layout's settings changed: it places everything again before the next frame.
    public func invalidateLayout() {
        needsPrepare = true
        placedRect = nil
        setNeedsLayout()
    }

    /// Where the item is in the content; `.zero` for a path that names no item (UIKit's
    /// `layoutAttributesForItem(at:)` answers nil).
    public func frameForItem(at path: ItemPath) -> Rect {
        prepareIfNeeded() && contains(path) ? itemFrame(path) : .zero
    }

    /// Whether the layout is shown mirrored: it says it flips, and the collection reads right
    /// to left.
    private var isFlipped: Bool {
        layout.flipsHorizontallyInOppositeLayoutDirection && effectiveUserInterfaceLayoutDirection == .rightToLeft
    }

    /// `isFlipped` as the placing pass under way found it: asked once a pass (it walks up the
    /// ancestors), not for each cell and header placed in it.
    private var placesFlipped = false

    /// `r`, from the layout, where it is shown: mirrored across the content's width when the
    /// layout is (`flipped`; the rects asked of the layout span the width, so they need no
    /// mirroring).
    private func shown(_ r: Rect, flipped: Bool) -> Rect {
        guard flipped else { return r }
        return Rect(x: layout.contentSize.width - r.maxX, y: r.minY, width: r.width, height: r.height)
    }

    private func itemFrame(_ path: ItemPath) -> Rect { shown(layout.frameForItem(at: path), flipped: isFlipped) }

    /// A new direction may mirror the layout (`isFlipped`): the items are placed again.
    public override func layoutDirectionDidChange() {
        super.layoutDirectionDidChange()
        placedRect = nil
    }

    /// Whether `path` names an item: a section there is, an item of it. Paths from outside (an
    /// app's, a reader's) are checked here before a layout sees them: a layout indexes its
    /// sections' arrays with them.
    public func contains(_ path: ItemPath) -> Bool { path.isItem(in: counts) }

    /// The item a cell in view shows.
    public func itemPath(for cell: CollectionCell) -> ItemPath? {
        visibleCells.first { $0.value === cell }?.key
    }

    public func cellForItem(at path: ItemPath) -> CollectionCell? { visibleCells[path] }

    /// Selects `path` as a tap does, without calling `onSelectItem` (as UIKit's
    /// `selectItem(at:animated:scrollPosition:)` does not call its delegate): with
    /// `allowsMultipleSelection` it joins the others, else it replaces them. nil deselects
    /// every item, as UIKit's; a path that names no item is ignored. Before the items are
    /// loaded any path not negative is kept, and the load keeps it if it names an item.
    public func selectItem(at path: ItemPath?, scrollsIntoView: Bool = false) {
        guard let path else { return setSelection([]) }
        guard path.section >= 0, path.item >= 0, counts.isEmpty || contains(path) else { return }
        setSelection(allowsMultipleSelection ? selection.union([path]) : [path])
        if scrollsIntoView { scrollToItem(at: path) }
    }

    /// Deselects `path` (nothing if it is not selected), without calling `onDeselectItem`.
    public func deselectItem(at path: ItemPath) {
        guard selection.contains(path) else { return }
        setSelection(selection.subtracting([path]))
    }

    /// A tap (or Space or Return) on `path`: selected, or, among several, deselected if it
    /// was; the app hears which.
    private func itemTapped(_ path: ItemPath) {
        guard allowsSelection else { return }
        if allowsMultipleSelection, selection.contains(path) {
            deselectItem(at: path)
            onDeselectItem?(path)
            return
        }
        selectItem(at: path)
        onSelectItem?(path)
    }

    /// The selection becomes `paths`; the cells in view whose state changed are redrawn, and a
    /// reader hears each change.
    private func setSelection(_ paths: Set<ItemPath>) {
        guard paths != selection else { return }
        for path in selection.symmetricDifference(paths) {
            guard let cell = visibleCells[path] else { continue }
            cell.isSelected = paths.contains(path)
            window?.postAccessibilityNotification(.stateChanged(cell, .selected, cell.isSelected))
        }
        selection = paths
    }

    /// Scrolls the least distance that brings the item fully into view; `position` (UIKit's
    /// `scrollToItem(at:at:animated:)`) puts it at the top, in the middle or at the bottom of the
    /// view instead (inside the adjusted inset, within the offsets the content allows).
    public func scrollToItem(at path: ItemPath, at position: ScrollPosition = .none, animated: Bool = false) {
        guard prepareIfNeeded(), contains(path) else { return }
        let r = itemFrame(path)
        guard position != .none else {
            scrollRectToVisible(r, animated: animated)
            updateVisibleItems()
            return
        }
        let inset = adjustedContentInset
        let y: Double =
            switch position {
            case .none, .top: r.minY - inset.top
            case .middle: r.midY - inset.top - max(0, bounds.height - inset.top - inset.bottom) / 2
            case .bottom: r.maxY - bounds.height + inset.bottom
            }
        settleZoomAnimation()
        stopMotion()
        let x = leastDistanceOffset(toShow: r).x
        setContentOffset(clampedOffset(Point(x: x, y: y)), animated: animated)
        updateVisibleItems()
    }

    /// Moves the keyboard focus from `path` one item `direction`, scrolling it into view.
    public func moveFocus(from path: ItemPath, toward direction: CollectionDirection) {
        // On screen the layout's left is the right when it is mirrored.
        let along: CollectionDirection =
            switch direction {
            case .left where isFlipped: .right
            case .right where isFlipped: .left
            default: direction
            }
        guard prepareIfNeeded(), contains(path), let next = layout.item(from: path, toward: along) else { return }
        scrollToItem(at: next)
        visibleCells[next]?.becomeFocused()
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        updateVisibleItems()
    }

    public override func didChangeBounds(from old: Rect) {
        super.didChangeBounds(from: old)
        if old.width != bounds.width { invalidateLayout() } else if old != bounds { updateVisibleItems() }
    }

    /// Text is measured in device pixels: items measured at one scale are not their size at
    /// another (a card's body a pixel taller per line at 1.5 than at 1 spills out of a card
    /// measured at 1). They are measured again, the first item in view kept where it is on
    /// screen, as for a new width.
    public override func windowScaleDidChange() {
        super.windowScaleDidChange()
        scaleChanged = true
        invalidateLayout()
    }

    /// Runs the layout's `prepare` after a change; false when there is nothing to lay out.
    @discardableResult
    private func prepareIfNeeded() -> Bool {
        if needsPrepare || preparedWidth != bounds.width {
            // A new width reflows the items (more or fewer columns, a taller or shorter
            // content): the first item in view stays where it was on screen, and whatever moves
            // the offset (a fling, an animation to the end) moves with it, as a list keeps its
            // top row through a resize. Left alone, the offset could be far past the new end.
            var anchor: (path: ItemPath, y: Double)?
            if let old = preparedWidth, old != bounds.width || scaleChanged, !counts.isEmpty,
                let first = layout.items(in: bounds).first
            {
                anchor = (first, layout.frameForItem(at: first).minY - bounds.minY)
            }
            needsPrepare = false
            scaleChanged = false
            preparedWidth = bounds.width
            layout.prepare(for: self)
            if let anchor, anchor.path.section < counts.count, anchor.path.item < counts[anchor.path.section] {
                contentShifted(by: layout.frameForItem(at: anchor.path).minY - anchor.y - bounds.minY)
            }
            contentSize = layout.contentSize
        }
        return !counts.isEmpty
    }

    /// Gives cells to the items meeting the viewport plus the margin (measuring those a
    /// self-sizing layout has not measured), recycles the rest. An update from inside the pass
    /// (the data source's `cellForItemAt`) stops it; a refused one reloads when it ends; either
    /// way the pass runs again with the items as they are now.
    func updateVisibleItems() {
        // Not from inside a pass: its pending reload waits for that pass to end.
        guard !isUpdating, dataSource != nil else { return }
        defer { prefetchAhead() }
        placesFlipped = isFlipped
        for _ in 0..<4 {
            let generation = itemsGeneration
            placeItems()
            if reloadPending {
                reloadPending = false
                reloadData()
            }
            guard itemsGeneration != generation else { return }
            placedRect = nil
        }
    }

    /// Asks the prefetch data source for the items in the screen beyond the cells' reach, in
    /// the way the collection last moved (down at first), nearest first, and cancels those
    /// asked for that fell out of it unshown. Nothing at all without a prefetch data source.
    private func prefetchAhead() {
        guard let source = prefetchDataSource, !isUpdating else { return }
        prefetch.moved(to: bounds.minY)
        var window: [ItemPath] = []
        if isPrefetchingEnabled, dataSource != nil, bounds.height > 0 {
            let reach = bounds.height + margin
            let rect = bounds.offsetBy(dx: 0, dy: prefetch.forward ? reach : -reach)
            window = layout.items(in: rect)
            if !prefetch.forward { window.reverse() }
        }
        let (asked, cancelled) = prefetch.update(window: window) { visibleCells[$0] != nil }
        if !cancelled.isEmpty { source.collectionView(self, cancelPrefetchingForItemsAt: cancelled) }
        if !asked.isEmpty { source.collectionView(self, prefetchItemsAt: asked) }
    }

    /// One pass of `updateVisibleItems`: stops asking for items when they change under it.
    private func placeItems() {
        guard !isUpdating, let dataSource else { return }
        isUpdating = true
        defer { isUpdating = false }
        let generation = itemsGeneration
        /// A cell from the data source for `path`; nil when the data source changed the items
        /// while making it (the cell, made for a path that may now name another item, waits in
        /// the pool).
        func cell(for path: ItemPath) -> CollectionCell? {
            if let cell = visibleCells[path] { return cell }
            let cell = dataSource.collectionView(self, cellForItemAt: path)
            guard itemsGeneration == generation else {
                pool.put(cell, identifier: cell.reuseIdentifier)
                return nil
            }
            return cell
        }
        let wasInRange = isOffsetInRange
        prepareIfNeeded()
        var rect = bounds.insetBy(dx: 0, dy: -margin)
        if placedRect == rect { return }
        // Measure first: a row measured above the viewport moves what is in view, and the
        // offset moves with it so nothing on screen jumps. A row the viewport's top edge cuts
        // (the first in view after a new width) keeps its top where it is, as the width's
        // anchor placed it; what is below it moves.
        // Rows measured shorter than the estimate bring more rows into the rect: measure again
        // until every item in it is (a screenful of rows at most, in practice two rounds).
        for _ in 0..<16 {
            // Rows measured at the end (or a new width's reflow) can leave an offset at rest
            // past the range, as a list's edit can.
            keepOffsetInRangeAtRest(ifItWas: wasInRange)
            rect = bounds.insetBy(dx: 0, dy: -margin)
            // All of them first: measuring one item may mark its row measured (a row is as tall
            // as its tallest item, so every item of it is measured).
            let unmeasured = layout.items(in: rect).filter { !layout.isMeasured($0) }
            guard !unmeasured.isEmpty else { break }
            var shift = 0.0
            for path in unmeasured {
                guard let width = layout.measuringWidth(forItemAt: path) else { continue }
                guard let cell = cell(for: path) else { return }
                if visibleCells[path] == nil { keep(cell, at: path) }
                let above = layout.frameForItem(at: path).maxY <= bounds.minY + 1e-9
                let moved = layout.setMeasuredHeight(cell.preferredHeight(forWidth: width), forItemAt: path)
                if above { shift += moved }
            }
            if contentSize != layout.contentSize { contentSize = layout.contentSize }
            if shift != 0 { contentShifted(by: shift) }
        }
        rect = bounds.insetBy(dx: 0, dy: -margin)
        let wanted = layout.items(in: rect)
        let wantedSet = Set(wanted)
        // The focused item keeps its cell wherever it scrolls, as a list's focused row does.
        var leaving: [ItemPath] = []
        var away: [(ItemPath, CollectionCell)] = []
        let focused = window?.focusedView
        for (path, cell) in visibleCells where !wantedSet.contains(path) {
            if let focused, focused.isDescendant(of: cell) {
                away.append((path, cell))
                continue
            }
            leaving.append(path)
        }
        for path in leaving {
            if let cell = visibleCells.removeValue(forKey: path) { recycle(cell) }
        }
        // The focused item's cell kept while away follows its item (an update moved it).
        for (path, cell) in away { keep(cell, at: path) }
        for path in wanted {
            guard let cell = cell(for: path) else { return }
            keep(cell, at: path)
        }
        updateHeaders(in: rect, dataSource: dataSource)
        trimPools()
        placedRect = rect
    }

    private func keep(_ cell: CollectionCell, at path: ItemPath) {
        let old = visibleCells[path]
        if let old, old !== cell { recycle(old) }
        // A cell reused while items animate may still be on its way in or out for its last item.
        if updateAnimationsRunning > 0, old !== cell { cell.removeAllAnimations() }
        visibleCells[path] = cell
        let frame = shown(layout.frameForItem(at: path), flipped: placesFlipped)
        if cell.frame != frame { cell.frame = frame }
        cell.isSelected = selection.contains(path)
        if cell.onTap == nil {
            cell.onTap = { [weak self, unowned cell] in
                guard let self, let path = self.itemPath(for: cell) else { return }
                self.itemTapped(path)
            }
            cell.onMove = { [weak self, unowned cell] direction in
                guard let self, let path = self.itemPath(for: cell) else { return }
                self.moveFocus(from: path, toward: direction)
            }
        }
        if cell.joinRowsInView(of: self) {
            window?.postAccessibilityNotification(.elementAdded(cell, container: self))
        }
    }

    private func recycle(_ cell: CollectionCell) {
        retire(cell)
        shelve(cell)
    }

    /// A cell leaves its item: it gives up the focus, and a reader hears it go.
    private func retire(_ cell: CollectionCell) {
        if let focused = window?.focusedView, focused.isDescendant(of: cell) { focused.resignFocus() }
        window?.postAccessibilityNotification(.elementRemoved(cell, container: self))
    }

    /// A retired cell goes to the pool: at once, or once it has animated out.
    private func shelve(_ cell: CollectionCell) {
        cell.leaveRowsInView()
        cell.onTap = nil
        cell.onMove = nil
        pool.put(cell, identifier: cell.reuseIdentifier)
    }

    /// The headers and footers meeting `rect` (the layout's), each with its section's title.
    private func updateHeaders(in rect: Rect, dataSource: CollectionViewDataSource) {
        let flow = layout as? FlowLayout
        let wantedHeaders = layout.headers(in: rect)
        showBands(
            wantedHeaders, in: \.headers, pool: \.headerPool, frame: layout.frameForHeader(inSection:),
            pinning: flow?.sectionHeadersPinToVisibleBounds == true, frontmost: wantedHeaders.first,
            make: sectionHeaderFactory
        ) { band, s in
            band.textLabel.text = dataSource.collectionView(self, titleForSection: s)
            dataSource.collectionView(self, willDisplayHeader: band, forSection: s)
        }
        let wantedFooters = layout.footers(in: rect)
        showBands(
            wantedFooters, in: \.footers, pool: \.footerPool, frame: layout.frameForFooter(inSection:),
            pinning: flow?.sectionFootersPinToVisibleBounds == true, frontmost: wantedFooters.last,
            make: sectionFooterFactory
        ) { band, s in
            band.textLabel.text = dataSource.collectionView(self, titleForFooterInSection: s)
            dataSource.collectionView(self, willDisplayFooter: band, forSection: s)
        }
    }

    /// Bands of another kind from now on: those shown and pooled go, and the heights that
    /// fit a title are measured again with the new kind.
    private func bandFactoriesChanged() {
        takeDownHeadersAndFooters()
        headerPool = []
        footerPool = []
        bandMeasurer = BandMeasurer()
        invalidateLayout()
    }

    /// Section `section`'s band height as laid out, from the one its layout asked for: fitted
    /// to its title for `FlowLayout.automaticDimension` (`BandMeasurer.resolve`).
    func bandHeight(_ requested: Double, section: Int, footer: Bool) -> Double {
        bandMeasurer.resolve(
            requested, footer: footer,
            title: {
                guard let dataSource else { return "" }
                return footer
                    ? dataSource.collectionView(self, titleForFooterInSection: section)
                    : dataSource.collectionView(self, titleForSection: section)
            }, in: self, makeHeader: sectionHeaderFactory, makeFooter: sectionFooterFactory)
    }

    /// Shows the bands (headers or footers) of the sections in `wanted` where the layout puts
    /// them (`frame`): the one shown, else one from `pool` (or `make`) given its section by
    /// `prepare` (its title, the app's configuration); the others go back to `pool`. Behind the
    /// items; pinning, in front of them (the pinned one over the items that scroll under it;
    /// cells come in at the back), behind the indicators, the `frontmost` (the one that may be
    /// pinned) in front of the others. The key paths are read and written a step at a time,
    /// never across `make` and `prepare` (app code).
    private func showBands<Band: ListSectionHeader>(
        _ wanted: [Int], in bands: ReferenceWritableKeyPath<CollectionView, [Int: Band]>,
        pool: ReferenceWritableKeyPath<CollectionView, [Band]>, frame: (Int) -> Rect?, pinning: Bool,
        frontmost: Int?, make: () -> Band, prepare: (Band, Int) -> Void
    ) {
        putBack(bands, into: pool, keeping: wanted)
        for s in wanted {
            guard let r = frame(s) else { continue }
            let band = SectionBands.band(s, of: self, in: bands, pool: pool, make: make, prepare: prepare)
            band.frame = shown(r, flipped: placesFlipped)
            let arrives = band.superview !== self
            if pinning {
                if arrives {
                    insertSubview(band, at: indicatorsFront)
                } else if s == frontmost, subviews.index(ofIdentical: band) != indicatorsFront - 1 {
                    insertSubview(band, at: indicatorsFront - 1)
                }
            } else if arrives {
                insertSubview(band, at: 0)
            }
            // Its title is one of the grid's elements: a reader hears it come (a band reused
            // for another section comes back under its new title).
            if arrives { window?.postAccessibilityNotification(.elementAdded(band.textLabel, container: self)) }
        }
    }

    /// Pinned headers stand inside the adjusted inset: a new top inset moves them.
    public override func adjustedContentInsetDidChange() {
        super.adjustedContentInsetDidChange()
        placedRect = nil
        updateVisibleItems()
    }

    /// Every header and footer back to its pool.
    private func takeDownHeadersAndFooters() {
        putBack(\.headers, into: \.headerPool, keeping: [])
        putBack(\.footers, into: \.footerPool, keeping: [])
    }

    /// The bands of the sections not in `wanted` leave the view for `pool`; a reader hears
    /// their titles go.
    private func putBack<Band: ListSectionHeader>(
        _ bands: ReferenceWritableKeyPath<CollectionView, [Int: Band]>,
        into pool: ReferenceWritableKeyPath<CollectionView, [Band]>, keeping wanted: [Int]
    ) {
        for s in self[keyPath: bands].keys.filter({ !wanted.contains($0) }) {
            if let band = self[keyPath: bands].removeValue(forKey: s) {
                window?.postAccessibilityNotification(.elementRemoved(band.textLabel, container: self))
                band.removeFromSuperview()
                self[keyPath: pool].append(band)
            }
        }
    }

    /// The headers and the footers in view, by section.
    public var visibleHeaders: [Int: ListSectionHeader] { headers }
    public var visibleFooters: [Int: ListSectionFooter] { footers }

    private func trimPools() {
        pool.trim(to: Self.poolLimit, waitingIn: self)
        if headerPool.count > Self.poolLimit { headerPool.removeLast(headerPool.count - Self.poolLimit) }
        if footerPool.count > Self.poolLimit { footerPool.removeLast(footerPool.count - Self.poolLimit) }
    }
}
