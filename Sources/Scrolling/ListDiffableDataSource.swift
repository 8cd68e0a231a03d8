import Logging
import ScrollwayViews

/// A list's data source that shows snapshots (UIKit's `UITableViewDiffableDataSource`): the
/// app says what the list holds, sections and items by identifier
/// (`DataSourceSnapshot`), and `apply` works out and makes the update from what it showed
/// before, so the app writes no index arithmetic and no batch can disagree with its model.
/// Items that stay keep their cells, moved ones slide, new ones come in and gone ones go
/// (`defaultRowAnimation`), and the rows in view stay where they are on screen.
///
/// The list's rows are every section's items in order; a section with a header title
/// (`titleForHeader`) gets a header of `list.sectionHeaderHeight`, one with a footer title
/// (`titleForFooter`) a footer of `list.sectionFooterHeight`. Made with a list, it becomes the
/// list's data source; the list holds it weakly, as UIKit's does, so the app keeps it.
///
/// Open, as UIKit's is: a subclass answers what the closures do not (an index of every letter,
/// some of which lead to the next section), overriding the `ListDataSource` methods; the rows,
/// their cells, the sections' starts and a hand move's record are the snapshot's (final).
@MainActor
open class ListDiffableDataSource<SectionID: Hashable, ItemID: Hashable>: ListDataSource {
    public typealias Snapshot = DataSourceSnapshot<SectionID, ItemID>
    /// Makes the cell for an item: `list.dequeueReusableCell(withIdentifier:)`, configured for
    /// the item (the row is its index among all the rows). Configure it from the item, not
    /// from the row in the app's model: the list may ask (a reload, a new width) while the
    /// model is ahead of the snapshot it shows.
    public typealias CellProvider = @MainActor (_ list: ListView, _ row: Int, _ item: ItemID) -> ListCell

    public private(set) weak var list: ListView?
    private let cellProvider: CellProvider
    /// What the list shows.
    private var current = Snapshot()
    /// The rows' items, and each section's first row: read at every frame that brings a row.
    private var rows: [ItemID] = []
    private var starts: [Int] = []
    /// The rows' items by place, made when a row is first looked up after an apply, so that
    /// lookups do not each search every row.
    private var rowTable: PositionTable<ItemID>?
    private let log = Logger(label: "scrollway.list.diffable")

    /// How rows come and go in an animated `apply` (UITableViewDiffableDataSource's
    /// `defaultRowAnimation`); moved rows slide.
    public var defaultRowAnimation = RowAnimation.automatic
    /// A section's header title; nil (the default, or for a section): no header.
    public var titleForHeader: (@MainActor (SectionID) -> String?)?
    /// A section's footer title; nil: no footer.
    public var titleForFooter: (@MainActor (SectionID) -> String?)?
    /// A band of the app's own (`ListView.sectionHeaderFactory`) is configured for a section.
    public var willDisplayHeader: (@MainActor (ListSectionHeader, SectionID) -> Void)?
    /// A footer band of the app's own is configured for a section.
    public var willDisplayFooter: (@MainActor (ListSectionFooter, SectionID) -> Void)?
    /// A section's title in the section index down the list's edge (nil: none for it; unset:
    /// no index). A title leads to its section.
    public var sectionIndexTitle: (@MainActor (SectionID) -> String?)? {
        didSet { list?.reloadSectionIndexTitles() }
    }
    /// Whether a long press may lift an item's row to move it (`ListView.reordersRowsOnLongPress`);
    /// unset: no row moves.
    public var canMoveItem: (@MainActor (ItemID) -> Bool)?
    /// A row moved by hand was dropped: the data source's snapshot already holds the move
    /// (the item in the section the list showed it in), and the app's model follows here
    /// (UIKit's `reorderingHandlers.didReorder`).
    public var didReorder: (@MainActor (_ item: ItemID, _ snapshot: Snapshot) -> Void)?

    /// The editing control an item's row shows while the list edits (`ListView.setEditing`,
    /// UITableViewDiffableDataSource's `canEditRowAt` with the delegate's style); unset: none.
    public var editingStyleForItem: (@MainActor (ItemID) -> RowEditingStyle)?
    /// The user asked for an item's change while the list edits (its Delete tapped, its
    /// insert control): the app changes its model and applies a snapshot without the item (or
    /// with the new one), as UIKit's `commit editingStyle` does.
    public var commitEditing: (@MainActor (_ style: RowEditingStyle, _ item: ItemID) -> Void)?

    /// What an outline's row does as it opens and closes (UIKit's
    /// `SectionSnapshotHandlers`): each may refuse, hear, or (`snapshotForExpandingParent`)
    /// supply the children a parent opens onto (a folder's contents, loaded as it opens).
    public struct SectionSnapshotHandlers {
        /// Whether the item may open; unset: it may.
        public var shouldExpandItem: (@MainActor (ItemID) -> Bool)?
        /// The item is about to open.
        public var willExpandItem: (@MainActor (ItemID) -> Void)?
        /// Whether the item may close; unset: it may.
        public var shouldCollapseItem: (@MainActor (ItemID) -> Bool)?
        /// The item is about to close.
        public var willCollapseItem: (@MainActor (ItemID) -> Void)?
        /// The children the opening item shows, given the ones it has (an outline of them, the
        /// item not in it): they replace its descendants, and must hold neither the item nor
        /// any item outside it (refused and logged, the item left closed). Unset: it keeps its
        /// own.
        public var snapshotForExpandingParent:
            (@MainActor (_ parent: ItemID, _ children: SectionSnapshot<ItemID>) -> SectionSnapshot<ItemID>)?

        public init() {}
    }
    /// How outline rows open and close.
    public var sectionSnapshotHandlers = SectionSnapshotHandlers()
    /// The sections shown as outlines: the section snapshot last applied to each, while the
    /// section shows its visible items.
    private var outlines: [SectionID: SectionSnapshot<ItemID>] = [:]

    /// Becomes `list`'s data source.
    public init(list: ListView, cellProvider: @escaping CellProvider) {
        self.list = list
        self.cellProvider = cellProvider
        list.dataSource = self
    }

    /// The snapshot the list shows: edit a copy and apply it.
    public func snapshot() -> Snapshot { current }

    /// The item on `row` (nil: no such row).
    public func itemIdentifier(forRow row: Int) -> ItemID? { rows.indices.contains(row) ? rows[row] : nil }

    /// The row showing `item` (nil: not in the list).
    public func row(for item: ItemID) -> Int? {
        if rowTable == nil { rowTable = PositionTable(rows) }
        return rowTable?.position(of: item)
    }

    /// The section at `index` (nil: no such section).
    public func sectionIdentifier(forSection index: Int) -> SectionID? {
        current.sectionIdentifiers.indices.contains(index) ? current.sectionIdentifiers[index] : nil
    }

    /// Shows `snapshot`: the rows it no longer has are deleted, those it adds inserted, those
    /// whose order changed moved (the fewest moves: the longest run of rows still in order
    /// stays), and those it marks reloaded asked for again, in one batch
    /// (`performBatchUpdates`), animated by `defaultRowAnimation` when `animatingDifferences`.
    /// The first snapshot of an empty list, unless animated in a window, loads the list at
    /// once. `completion` runs once the rows are in their places.
    public func apply(_ snapshot: Snapshot, animatingDifferences: Bool = true, completion: (() -> Void)? = nil) {
        keepOutlines(matching: snapshot)
        show(snapshot, animatingDifferences: animatingDifferences, completion: completion)
    }

    /// Shows `section` as the outline `sectionSnapshot` (UIKit's `apply(_:to:animatingDifferences:)`):
    /// its rows become the outline's visible items, depth first, each indented by its level,
    /// a parent's row with a chevron that opens and closes it (`expand(_:)`, `collapse(_:)`).
    /// The section is added after the last when the list has none by that name; the other
    /// sections stay as they are. Refused (logged, nothing changed) when one of the outline's
    /// items, shown or hidden under a closed parent, is in another section or another outline.
    public func apply(
        _ sectionSnapshot: SectionSnapshot<ItemID>, to section: SectionID, animatingDifferences: Bool = true,
        completion: (() -> Void)? = nil
    ) {
        if !show(sectionSnapshot, in: section, animatingDifferences: animatingDifferences, completion: completion) {
            completion?()
        }
    }

    /// `apply(_:to:)`, saying whether it was made.
    private func show(
        _ sectionSnapshot: SectionSnapshot<ItemID>, in section: SectionID, animatingDifferences: Bool,
        completion: (() -> Void)?
    ) -> Bool {
        let call = "apply(_:to:)"
        // The items of the other sections, and those hidden in their outlines, asked of this
        // outline: what is elsewhere is usually a few rows beside a large tree, not the tree.
        for other in current.sectionIdentifiers where other != section {
            let items = outlines[other]?.items ?? current.itemIdentifiers(inSection: other)
            guard let item = items.first(where: sectionSnapshot.contains) else { continue }
            log.error("\(call): item \(item) is already in section \(other); the list is left as it was")
            return false
        }
        var snapshot = current
        snapshot.setItems(sectionSnapshot.visibleItems, inSection: section, call: call)
        outlines[section] = sectionSnapshot
        show(snapshot, animatingDifferences: animatingDifferences, completion: completion)
        return true
    }

    /// `section`'s outline: the section snapshot last applied to it, or its items at the top of
    /// one (empty when there is no such section). Edit it and apply it to the section.
    public func snapshot(for section: SectionID) -> SectionSnapshot<ItemID> {
        if let outline = outlines[section] { return outline }
        var flat = SectionSnapshot<ItemID>()
        flat.append(current.itemIdentifiers(inSection: section))
        return flat
    }

    /// Opens `item`'s row in its section's outline, as its chevron does: its children (or
    /// those `snapshotForExpandingParent` gives) are inserted below it. An item hidden under a
    /// closed parent is marked open, to show so when the parent opens. False when it is in no
    /// outline, already open, `shouldExpandItem` refused, or the children
    /// `snapshotForExpandingParent` gave could not go in (logged).
    ///
    /// The handlers may change the data source (open another row, show a row of their own):
    /// the outline is read again after each.
    @discardableResult
    public func expand(_ item: ItemID, animatingDifferences: Bool = true) -> Bool {
        open(item, row: nil, animatingDifferences: animatingDifferences)
    }

    /// `expand(_:)`, `row` the item's row when the list asked (nil: to be found).
    private func open(_ item: ItemID, row: Int?, animatingDifferences: Bool) -> Bool {
        // No copy of the outline held (`let outline = ...`) past this: the edits below are in
        // place only while the data source's is the one reference to its storage.
        guard let section = outlineSection(holding: item), outlines[section]?.isExpanded(item) == false,
            sectionSnapshotHandlers.shouldExpandItem?(item) ?? true
        else { return false }
        sectionSnapshotHandlers.willExpandItem?(item)
        var given: SectionSnapshot<ItemID>?
        if let supply = sectionSnapshotHandlers.snapshotForExpandingParent {
            guard let children = outlines[section]?.snapshot(of: item) else { return false }
            given = supply(item, children)
        }
        guard outlines[section]?.contains(item) == true else { return false }
        // What its row shows below it now: nothing, unless a handler opened it already.
        let shown = shownBelow(item, in: section)
        if let given {
            if let (clash, other) = elsewhere(given, than: section) {
                log.error("expand: item \(clash) is already in section \(other); \(item) is left closed")
                return false
            }
            // In place: the outline's storage is the data source's alone (unless the app kept
            // a copy of it), so an opening costs the folder, not the outline.
            guard outlines[section]!.replace(childrenOf: item, using: given) else { return false }
        }
        outlines[section]!.expand([item])
        showToggle(of: item, in: section, row: row, removing: shown, animatingDifferences: animatingDifferences)
        return true
    }

    /// Closes `item`'s row in its section's outline, as its chevron does: the rows below it
    /// go. A focused row among them (or a control in one) gives the focus to `item`'s. False
    /// when it is in no outline, not open, or `shouldCollapseItem` refused.
    @discardableResult
    public func collapse(_ item: ItemID, animatingDifferences: Bool = true) -> Bool {
        close(item, row: nil, animatingDifferences: animatingDifferences)
    }

    /// `collapse(_:)`, `row` the item's row when the list asked (nil: to be found).
    private func close(_ item: ItemID, row: Int?, animatingDifferences: Bool) -> Bool {
        guard let section = outlineSection(holding: item), outlines[section]?.isExpanded(item) == true,
            sectionSnapshotHandlers.shouldCollapseItem?(item) ?? true
        else { return false }
        sectionSnapshotHandlers.willCollapseItem?(item)
        guard outlines[section]?.contains(item) == true else { return false }
        let focusedInside = focusedItem().map { f in
            var up = outlines[section]?.parent(of: f)
            while let p = up, p != item { up = outlines[section]?.parent(of: p) }
            return up == item
        }
        let shown = shownBelow(item, in: section)
        outlines[section]!.collapse([item])
        let at = showToggle(
            of: item, in: section, row: row, removing: shown, animatingDifferences: animatingDifferences)
        if focusedInside == true, let list, let at { list.focusRow(at) }
        return true
    }

    /// How many rows `item`'s row has below it from its subtree: its visible descendants
    /// while it is shown.
    private func shownBelow(_ item: ItemID, in section: SectionID) -> Int {
        guard outlines[section]?.isVisible(item) == true else { return 0 }
        return outlines[section]?.visibleItems(under: item).count ?? 0
    }

    /// The row in view that shows `item` (nil: none).
    private func rowInView(showing item: ItemID) -> Int? {
        list?.visibleCells.keys.first { rows.indices.contains($0) && rows[$0] == item }
    }

    /// The first of `outline`'s items that another section holds, shown or hidden in its
    /// outline, with that section: an item may stand in one place of the list only.
    private func elsewhere(_ outline: SectionSnapshot<ItemID>, than section: SectionID) -> (ItemID, SectionID)? {
        for item in outline.items {
            if let other = current.sectionIdentifier(containingItem: item), other != section { return (item, other) }
            if let other = outlines.first(where: { $0.key != section && $0.value.contains(item) })?.key {
                return (item, other)
            }
        }
        return nil
    }

    /// Shows `item` just opened or closed in `section`'s outline: the `removing` rows below
    /// its row (its visible descendants before) give way to those it shows now. The other rows
    /// are those the section showed, so only these come and go: the cost is the folder's (and
    /// moving the rows' arrays), not a difference of the whole list. Returns the item's row
    /// (nil: not shown, under a closed parent).
    @discardableResult
    private func showToggle(
        of item: ItemID, in section: SectionID, row hint: Int?, removing: Int, animatingDifferences: Bool
    ) -> Int? {
        guard let s = current.indexOfSection(section), current.sectionIdentifier(containingItem: item) == section,
            let outline = outlines[section]
        else { return nil }
        let start = starts[s]
        let end = start + current.numberOfItems(inSection: section)
        // The row the list named, or the item's: the table when it is made, else the rows in
        // view (the row opened is nearly always one the user sees), else a search of the
        // section alone (a table would hash every row).
        guard
            let row = hint.flatMap({ rows.indices.contains($0) && rows[$0] == item ? $0 : nil })
                ?? rowTable?.position(of: item) ?? rowInView(showing: item) ?? rows[start..<end].firstIndex(of: item)
        else { return nil }
        let added = outline.visibleItems(under: item)
        let below = row + 1
        rowTable = nil
        rows.replaceSubrange(below..<below + removing, with: added)
        current.replaceItems(inSectionAt: s, below - start..<below - start + removing, with: added)
        for k in starts.indices where k > s { starts[k] += added.count - removing }
        guard let list else { return row }
        defer { showOutlinesInView(animated: animatingDifferences) }
        guard list.count == rows.count - added.count + removing else {
            list.reloadData()
            return row
        }
        let animation = animatingDifferences ? defaultRowAnimation : .none
        list.performBatchUpdates {
            if removing > 0 { list.deleteRows(at: Array(below..<below + removing), with: animation) }
            if !added.isEmpty { list.insertRows(at: Array(below..<below + added.count), with: animation) }
        }
        return row
    }

    /// The section whose outline holds `item`, shown or hidden under a closed parent.
    private func outlineSection(holding item: ItemID) -> SectionID? {
        if let section = current.sectionIdentifier(containingItem: item) { return section }
        return outlines.first { $0.value.contains(item) }?.key
    }

    /// The item whose row has the window's focus, or a control in it.
    private func focusedItem() -> ItemID? {
        guard let list else { return nil }
        var view = list.window?.focusedView
        while let v = view, v.superview !== list { view = v.superview }
        guard let cell = view as? ListCell, let row = list.row(for: cell) else { return nil }
        return itemIdentifier(forRow: list.movement?.dataRow(row) ?? row)
    }

    /// The outlines whose sections `snapshot` shows as they were, and none of whose hidden
    /// items it puts elsewhere: the others' sections are flat lists now.
    ///
    /// An outline's section shows its visible items, so the section is compared with what it
    /// shows (an array the snapshot, taken from the data source, usually shares: no item
    /// compared). Its hidden items are in no section of the list, so only items new to the
    /// list can be among them: the sections that differ from those shown are the ones asked
    /// of the outline. Applying the data source's own snapshot again costs no walk of a tree.
    private func keepOutlines(matching snapshot: Snapshot) {
        guard !outlines.isEmpty else { return }
        let changed = snapshot.sectionIdentifiers.filter { s in
            snapshot.itemIdentifiers(inSection: s) != current.itemIdentifiers(inSection: s)
        }
        outlines = outlines.filter { section, outline in
            snapshot.indexOfSection(section) != nil
                && snapshot.itemIdentifiers(inSection: section) == current.itemIdentifiers(inSection: section)
                && !changed.contains { s in snapshot.itemIdentifiers(inSection: s).contains(where: outline.contains) }
        }
    }

    /// Makes the update from the snapshot shown to `snapshot`.
    private func show(_ snapshot: Snapshot, animatingDifferences: Bool, completion: (() -> Void)?) {
        defer { showOutlinesInView(animated: animatingDifferences) }
        let old = current
        let oldRows = rows
        setCurrent(snapshot)
        guard let list else {
            completion?()
            return
        }
        guard old.numberOfItems > 0 || (animatingDifferences && list.window != nil), list.count == old.numberOfItems
        else {
            list.reloadData()
            completion?()
            return
        }
        let reloaded = SnapshotDifference.reloadedItems(of: snapshot)
        let changes = SnapshotDifference.rows(from: oldRows, to: rows, reloaded: reloaded)
        let animation = animatingDifferences ? defaultRowAnimation : .none
        list.performBatchUpdates(
            {
                if !changes.deleted.isEmpty { list.deleteRows(at: changes.deleted, with: animation) }
                if !changes.inserted.isEmpty { list.insertRows(at: changes.inserted, with: animation) }
                if !changes.reloaded.isEmpty { list.reloadRows(at: changes.reloaded, with: animation) }
                for m in changes.moves { list.moveRow(at: m.from, to: m.to, animated: animatingDifferences) }
            },
            completion: { _ in completion?() })
        reconfigure(snapshot.reconfiguredItemIdentifiers.subtracting(reloaded), skipping: Set(changes.inserted))
    }

    /// The rows in view whose items are `marked` (not reloaded ones) and were not just
    /// inserted (their cells are new), configured again in their own cells.
    private func reconfigure(_ marked: Set<ItemID>, skipping new: Set<Int>) {
        guard !marked.isEmpty, let list else { return }
        // The list's rows in the snapshot's order: a reader's move made, and while a row is
        // moved by hand, each row the list shows read as the data source's row it stands for.
        if !list.isUpdating { list.showReaderMove() }
        let due = list.visibleCells.keys.filter { r in
            let d = list.movement?.dataRow(r) ?? r
            return d < rows.count && !new.contains(r) && marked.contains(rows[d])
        }
        if !due.isEmpty { list.reconfigureRows(at: due) }
    }

    /// Shows `snapshot` by reloading the list (UIKit's `applySnapshotUsingReloadData`): no
    /// difference worked out, nothing animated, every row asked for again.
    public func applySnapshotUsingReloadData(_ snapshot: Snapshot) {
        keepOutlines(matching: snapshot)
        setCurrent(snapshot)
        list?.reloadData()
    }

    /// The cell of `item` shows its place in its section's outline: its level, and a
    /// chevron when it has children (turning, when `animated`, as it opens or closes). A cell
    /// of a flat section that showed one shows none.
    private func showOutline(of item: ItemID, in cell: ListCell, animated: Bool) {
        guard let section = current.sectionIdentifier(containingItem: item), let outline = outlines[section] else {
            if cell.outlineDisclosure != nil {
                cell.outlineDisclosure = nil
                cell.indentationLevel = 0
            }
            return
        }
        cell.indentationLevel = outline.level(of: item)
        let disclosure: OutlineDisclosure =
            outline.children(of: item).isEmpty ? .leaf : outline.isExpanded(item) ? .expanded : .collapsed
        cell.setOutlineDisclosure(disclosure, animated: animated)
    }

    /// The rows in view show their items' places after an update (a parent opened or closed,
    /// an item given children or taken under another parent, a section made flat); a row
    /// whose indentation changed is measured again, its text having another width.
    private func showOutlinesInView(animated: Bool) {
        guard let list, !outlines.isEmpty || list.visibleCells.values.contains(where: { $0.outlineDisclosure != nil })
        else { return }
        var indented: [Int] = []
        for (r, cell) in list.visibleCells {
            let d = list.movement?.dataRow(r) ?? r
            guard d < rows.count else { continue }
            let indent = cell.outlineIndent
            showOutline(of: rows[d], in: cell, animated: animated && list.window != nil)
            if cell.outlineIndent != indent { indented.append(r) }
        }
        if !indented.isEmpty { list.reconfigureRows(at: indented) }
    }

    private func setCurrent(_ snapshot: Snapshot) {
        current = snapshot.withoutReloads
        rows = current.itemIdentifiers
        rowTable = nil
        var row = 0
        starts = current.sectionIdentifiers.map { s in
            defer { row += current.numberOfItems(inSection: s) }
            return row
        }
    }

    // MARK: ListDataSource

    public final func numberOfRows(in list: ListView) -> Int { rows.count }

    public final func list(_ list: ListView, cellForRow row: Int) -> ListCell {
        let cell = cellProvider(list, row, rows[row])
        if !outlines.isEmpty || cell.outlineDisclosure != nil { showOutline(of: rows[row], in: cell, animated: false) }
        return cell
    }

    /// An outline's row opens or closes (`expand(_:)`, `collapse(_:)`).
    public final func list(_ list: ListView, setRow row: Int, expanded: Bool) -> Bool {
        guard let item = itemIdentifier(forRow: row) else { return false }
        return expanded
            ? open(item, row: row, animatingDifferences: true) : close(item, row: row, animatingDifferences: true)
    }

    public final func list(_ list: ListView, parentOfRow row: Int) -> Int? {
        guard let item = itemIdentifier(forRow: row), let section = current.sectionIdentifier(containingItem: item),
            let parent = outlines[section]?.parent(of: item)
        else { return nil }
        if let rowTable { return rowTable.position(of: parent) }
        // The parent's row is above, past its earlier children's: a walk up the rows costs the
        // folder, where making the table after a row opened or closed would cost every row.
        return rows[..<row].lastIndex(of: parent)
    }

    public final func list(_ list: ListView, siblingPositionOfRow row: Int) -> (index: Int, count: Int)? {
        guard let item = itemIdentifier(forRow: row), let section = current.sectionIdentifier(containingItem: item),
            let outline = outlines[section]
        else { return nil }
        let siblings = outline.parent(of: item).map { outline.children(of: $0) } ?? outline.rootItems
        return siblings.firstIndex(of: item).map { ($0 + 1, siblings.count) }
    }

    public final func sectionStarts(in list: ListView) -> [Int] { starts }

    open func list(_ list: ListView, titleForSection section: Int) -> String {
        sectionIdentifier(forSection: section).flatMap { titleForHeader?($0) } ?? ""
    }

    open func list(_ list: ListView, titleForFooterInSection section: Int) -> String {
        sectionIdentifier(forSection: section).flatMap { titleForFooter?($0) } ?? ""
    }

    open func list(_ list: ListView, heightForHeaderInSection section: Int) -> Double {
        sectionIdentifier(forSection: section).flatMap { titleForHeader?($0) } == nil ? 0 : list.sectionHeaderHeight
    }

    open func list(_ list: ListView, heightForFooterInSection section: Int) -> Double {
        sectionIdentifier(forSection: section).flatMap { titleForFooter?($0) } == nil ? 0 : list.sectionFooterHeight
    }

    open func list(_ list: ListView, willDisplayHeader header: ListSectionHeader, forSection section: Int) {
        if let id = sectionIdentifier(forSection: section) { willDisplayHeader?(header, id) }
    }

    open func list(_ list: ListView, willDisplayFooter footer: ListSectionFooter, forSection section: Int) {
        if let id = sectionIdentifier(forSection: section) { willDisplayFooter?(footer, id) }
    }

    open func sectionIndexTitles(in list: ListView) -> [String] { indexTitles().map(\.title) }

    open func list(_ list: ListView, sectionForSectionIndexTitle title: String, at index: Int) -> Int {
        let titles = indexTitles()
        return titles.indices.contains(index) ? titles[index].section : 0
    }

    /// The index's titles and the section each leads to.
    private func indexTitles() -> [(title: String, section: Int)] {
        guard let sectionIndexTitle else { return [] }
        return current.sectionIdentifiers.enumerated().compactMap { s, id in sectionIndexTitle(id).map { ($0, s) } }
    }

    open func list(_ list: ListView, editingStyleForRow row: Int) -> RowEditingStyle {
        itemIdentifier(forRow: row).flatMap { editingStyleForItem?($0) } ?? .none
    }

    open func list(_ list: ListView, titleForDeleteConfirmationButtonForRow row: Int) -> String { "Delete" }

    open func list(_ list: ListView, commit style: RowEditingStyle, forRow row: Int) {
        guard let item = itemIdentifier(forRow: row) else { return }
        commitEditing?(style, item)
    }

    /// A row of an outline stays where its parent puts it: it does not move by hand.
    open func list(_ list: ListView, canMoveRow row: Int) -> Bool {
        guard let item = itemIdentifier(forRow: row) else { return false }
        if !outlines.isEmpty, let section = current.sectionIdentifier(containingItem: item), outlines[section] != nil {
            return false
        }
        return canMoveItem?(item) ?? false
    }

    /// A hand move, written into the snapshot: the row's item goes to its new place, in the
    /// section the list showed it in (a row dropped at a section's edge stays on the side it
    /// came from).
    public final func list(_ list: ListView, moveRowAt source: Int, to destination: Int) {
        guard rows.indices.contains(source), rows.indices.contains(destination) else {
            return log.error("moveRowAt: row \(source) or \(destination) is outside 0..<\(rows.count)")
        }
        var moved = rows
        let item = moved.remove(at: source)
        moved.insert(item, at: destination)
        let newStarts = starts.map { RowMovement.sectionStart($0, afterMovingRow: source, to: destination) }
        let sections = newStarts.indices.map { k in
            Array(moved[newStarts[k]..<(k + 1 < newStarts.count ? newStarts[k + 1] : moved.count)])
        }
        var snapshot = current
        snapshot.setItems(sections)
        // A row dropped into an outline's section makes it a flat list.
        keepOutlines(matching: snapshot)
        setCurrent(snapshot)
        showOutlinesInView(animated: false)
        didReorder?(item, current)
    }
}
