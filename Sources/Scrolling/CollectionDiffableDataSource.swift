import ScrollwayViews

/// A collection's data source that shows snapshots (UIKit's
/// `UICollectionViewDiffableDataSource`): the app says what the collection holds, sections
/// and items by identifier (`DataSourceSnapshot`), and `apply` works out and makes the update
/// from what it showed before, sections and items alike. Items that stay keep their cells,
/// moved ones (across sections too) go with theirs, and the first item in view stays where it
/// is on screen; animated by `defaultItemAnimation`.
///
/// A section with a header title (`titleForHeader`) gets a header of the flow layout's
/// `headerHeight`, one with a footer title a footer of its `footerHeight`; a layout of the
/// app's own places its bands itself. Made with a collection, it becomes the collection's
/// data source; the collection holds it weakly, as UIKit's does, so the app keeps it. Open, as
/// the list's is, for what the closures do not answer; its sections, items and cells are the
/// snapshot's.
@MainActor
open class CollectionDiffableDataSource<SectionID: Hashable, ItemID: Hashable>: CollectionViewDataSource {
    public typealias Snapshot = DataSourceSnapshot<SectionID, ItemID>
    /// Makes the cell for an item: `collection.dequeueReusableCell(withIdentifier:)`,
    /// configured for the item at `path`: from the item, as the list's provider (the model may
    /// be ahead of the snapshot shown).
    public typealias CellProvider =
        @MainActor (_ collection: CollectionView, _ path: ItemPath, _ item: ItemID) -> CollectionCell

    public private(set) weak var collectionView: CollectionView?
    private let cellProvider: CellProvider
    private var current = Snapshot() { didSet { pathTable = nil } }
    /// The items by place and their paths, made when an item is first looked up after an apply,
    /// so that lookups do not each search every item.
    private var pathTable: (PositionTable<ItemID>, [ItemPath])?

    /// How items come and go in an animated `apply` (as UITableViewDiffableDataSource's
    /// `defaultRowAnimation`; UIKit's collection fades them); moved items slide.
    public var defaultItemAnimation = RowAnimation.automatic
    /// A section's header title; nil (the default, or for a section): no header in a flow
    /// layout. "" gives a band with no title, for `willDisplayHeader` to fill.
    public var titleForHeader: (@MainActor (SectionID) -> String?)?
    /// A section's footer title; nil: no footer in a flow layout.
    public var titleForFooter: (@MainActor (SectionID) -> String?)?
    /// A band of the app's own (`CollectionView.sectionHeaderFactory`) is configured for a
    /// section.
    public var willDisplayHeader: (@MainActor (ListSectionHeader, SectionID) -> Void)?
    /// A footer band of the app's own is configured for a section.
    public var willDisplayFooter: (@MainActor (ListSectionFooter, SectionID) -> Void)?

    /// Becomes `collectionView`'s data source.
    public init(collectionView: CollectionView, cellProvider: @escaping CellProvider) {
        self.collectionView = collectionView
        self.cellProvider = cellProvider
        collectionView.dataSource = self
    }

    /// The snapshot the collection shows: edit a copy and apply it.
    public func snapshot() -> Snapshot { current }

    /// The item at `path` (nil: no such item).
    public func itemIdentifier(for path: ItemPath) -> ItemID? {
        guard current.sectionIdentifiers.indices.contains(path.section) else { return nil }
        let items = current.items(inSectionAt: path.section)
        return items.indices.contains(path.item) ? items[path.item] : nil
    }

    /// Where `item` is shown (nil: not in the collection).
    public func path(for item: ItemID) -> ItemPath? {
        if pathTable == nil {
            let (items, paths) = current.itemsWithPaths()
            pathTable = (PositionTable(items), paths)
        }
        return pathTable.flatMap { table, paths in table.position(of: item).map { paths[$0] } }
    }

    /// The section at `index` (nil: no such section).
    public func sectionIdentifier(forSection index: Int) -> SectionID? {
        current.sectionIdentifiers.indices.contains(index) ? current.sectionIdentifiers[index] : nil
    }

    /// Shows `snapshot`: sections and items it no longer has are deleted, those it adds
    /// inserted, those whose order changed moved (the fewest moves), and those it marks
    /// reloaded asked for again, in one batch (`performBatchUpdates`), animated by
    /// `defaultItemAnimation` when `animatingDifferences` (else at once). The first
    /// snapshot of an empty collection, unless animated in a window, loads it at once.
    /// `completion` runs once the items are in their places.
    public func apply(_ snapshot: Snapshot, animatingDifferences: Bool = true, completion: (() -> Void)? = nil) {
        let old = current
        current = snapshot.withoutReloads
        guard let collectionView else {
            completion?()
            return
        }
        let shown = old.sectionIdentifiers.map { old.numberOfItems(inSection: $0) }
        guard old.numberOfSections > 0 || (animatingDifferences && collectionView.window != nil),
            collectionView.counts == shown
        else {
            collectionView.reloadData()
            completion?()
            return
        }
        let changes = SnapshotDifference.paths(from: old, to: snapshot)
        // The collection's own animation is the app's, for its own updates: lent for this one.
        let own = collectionView.updateAnimation
        collectionView.updateAnimation = animatingDifferences ? defaultItemAnimation : .none
        defer { collectionView.updateAnimation = own }
        collectionView.performBatchUpdates(
            {
                if !changes.deletedSections.isEmpty { collectionView.deleteSections(changes.deletedSections) }
                if !changes.insertedSections.isEmpty { collectionView.insertSections(changes.insertedSections) }
                if !changes.reloadedSections.isEmpty { collectionView.reloadSections(changes.reloadedSections) }
                for m in changes.movedSections { collectionView.moveSection(m.from, toSection: m.to) }
                if !changes.deletedItems.isEmpty { collectionView.deleteItems(at: changes.deletedItems) }
                if !changes.insertedItems.isEmpty { collectionView.insertItems(at: changes.insertedItems) }
                if !changes.reloadedItems.isEmpty { collectionView.reloadItems(at: changes.reloadedItems) }
                for m in changes.movedItems { collectionView.moveItem(at: m.from, to: m.to) }
            },
            completion: { _ in completion?() })
        reconfigure(snapshot, skipping: Set(changes.insertedItems), in: collectionView)
    }

    /// The items in view that `snapshot` marks reconfigured (not those just inserted or
    /// reloaded, whose cells are new), configured again in their own cells.
    private func reconfigure(_ snapshot: Snapshot, skipping new: Set<ItemPath>, in collectionView: CollectionView) {
        let marked = snapshot.reconfiguredItemIdentifiers
        guard !marked.isEmpty else { return }
        let reloaded = SnapshotDifference.reloadedItems(of: snapshot)
        let due = collectionView.visibleCells.keys.filter { path in
            guard !new.contains(path), let item = itemIdentifier(for: path) else { return false }
            return marked.contains(item) && !reloaded.contains(item)
        }
        if !due.isEmpty { collectionView.reconfigureItems(at: due) }
    }

    /// Shows `snapshot` by reloading the collection (UIKit's
    /// `applySnapshotUsingReloadData`): nothing worked out or animated.
    public func applySnapshotUsingReloadData(_ snapshot: Snapshot) {
        current = snapshot.withoutReloads
        collectionView?.reloadData()
    }

    // MARK: CollectionViewDataSource

    public final func numberOfSections(in collectionView: CollectionView) -> Int { current.numberOfSections }

    public final func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        current.sectionIdentifiers.indices.contains(section) ? current.items(inSectionAt: section).count : 0
    }

    public final func collectionView(_ collectionView: CollectionView, cellForItemAt path: ItemPath) -> CollectionCell {
        cellProvider(collectionView, path, current.items(inSectionAt: path.section)[path.item])
    }

    open func collectionView(_ collectionView: CollectionView, titleForSection section: Int) -> String {
        sectionIdentifier(forSection: section).flatMap { titleForHeader?($0) } ?? ""
    }

    open func collectionView(_ collectionView: CollectionView, titleForFooterInSection section: Int) -> String {
        sectionIdentifier(forSection: section).flatMap { titleForFooter?($0) } ?? ""
    }

    open func collectionView(
        _ collectionView: CollectionView, layout: FlowLayout, heightForHeaderInSection section: Int
    ) -> Double {
        sectionIdentifier(forSection: section).flatMap { titleForHeader?($0) } == nil ? 0 : layout.headerHeight
    }

    open func collectionView(
        _ collectionView: CollectionView, layout: FlowLayout, heightForFooterInSection section: Int
    ) -> Double {
        sectionIdentifier(forSection: section).flatMap { titleForFooter?($0) } == nil ? 0 : layout.footerHeight
    }

    open func collectionView(
        _ collectionView: CollectionView, willDisplayHeader header: ListSectionHeader, forSection section: Int
    ) {
        if let id = sectionIdentifier(forSection: section) { willDisplayHeader?(header, id) }
    }

    open func collectionView(
        _ collectionView: CollectionView, willDisplayFooter footer: ListSectionFooter, forSection section: Int
    ) {
        if let id = sectionIdentifier(forSection: section) { willDisplayFooter?(footer, id) }
    }
}
