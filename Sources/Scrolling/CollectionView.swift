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
}

extension CollectionViewDataSource {
    public func numberOfSections(in collectionView: CollectionView) -> Int { 1 }
    public func collectionView(_ collectionView: CollectionView, titleForSection section: Int) -> String { "" }
}

/// An item's view in a collection. Reused: when its item scrolls away it waits in the pool for
/// the next item that needs one with its identifier. Content goes in `contentView` (by frames
/// or constraints); a self-sizing layout asks `preferredHeight(forWidth:)`.
open class CollectionCell: ReusableCell {
    /// Where the cell's content goes; it fills the cell.
    public let contentView = View()
    /// The collection's selected item is shown selected.
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

    /// A focused cell: Space and Return select it; the arrows move the focus through the grid.
    open override func handleInput(_ event: InputEvent) -> Bool {
        guard isFocused, case .key(let key, let pressed, let modifiers) = event.kind,
            modifiers.isDisjoint(with: [.control, .alt, .logo])
        else { return false }
        let direction: CollectionDirection
        switch key {
        case .space, .enter:
            guard let onTap else { return false }
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
/// O(log n)). Tapping an item selects it; with the keyboard, the arrows move the focus from
/// item to item and Space or Return select.
public final class CollectionView: ScrollView {
    public weak var dataSource: CollectionViewDataSource?
    public let layout: CollectionViewLayout
    /// How far beyond the viewport items get cells.
    public var margin = 100.0 { didSet { updateVisibleItems() } }
    /// Called when an item is selected (tapped, or Space or Return on a focused item).
    public var onSelectItem: ((ItemPath) -> Void)?
    public private(set) var selectedItem: ItemPath?
    public private(set) var visibleCells: [ItemPath: CollectionCell] = [:]
    public var cellsCreated: Int { pool.created }
    public static let poolLimit = 8

    private var pool = ReusePool<CollectionCell>()
    private var headers: [Int: ListSectionHeader] = [:]
    private var headerPool: [ListSectionHeader] = []
    private var counts: [Int] = []
    private var needsPrepare = true
    private var preparedWidth: Double?
    private var isUpdating = false
    /// The rect the last update gave cells to, and whether anything changed since.
    private var placedRect: Rect?

    public init(frame: Rect = .zero, layout: CollectionViewLayout = FlowLayout()) {
        self.layout = layout
        super.init(frame: frame)
        alwaysBounceVertical = true
    }

    public override var accessibilityDefaults: AccessibilityDefaults { AccessibilityDefaults(role: .list) }

    public func register(_ identifier: String, _ make: @escaping () -> CollectionCell) {
        pool.register(identifier, make)
    }

    /// A cell from the pool, or a new one from the registered factory.
    public func dequeueReusableCell(withIdentifier identifier: String) -> CollectionCell {
        pool.dequeue(identifier) { $0.prepareForReuse() }
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
        for (_, cell) in visibleCells { recycle(cell) }
        visibleCells.removeAll()
        // Headers too: their titles are read again.
        for (_, header) in headers {
            header.removeFromSuperview()
            headerPool.append(header)
        }
        headers.removeAll()
        guard let dataSource else {
            counts = []
            invalidateLayout()
            return
        }
        let sections = max(0, dataSource.numberOfSections(in: self))
        counts = (0..<sections).map { max(0, dataSource.collectionView(self, numberOfItemsInSection: $0)) }
        if let s = selectedItem, s.section >= counts.count || s.item >= counts[s.section] { selectedItem = nil }
        invalidateLayout()
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
        prepareIfNeeded() && contains(path) ? layout.frameForItem(at: path) : .zero
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

    /// Selects `path` (nil, or a path that names no item: none) as a tap does, without calling
    /// `onSelectItem`. Before the items are loaded any path not negative is kept, and the load
    /// keeps it if it names an item.
    public func selectItem(at path: ItemPath?, scrollsIntoView: Bool = false) {
        if let old = selectedItem { visibleCells[old]?.isSelected = false }
        let path = path.flatMap { p in
            p.section >= 0 && p.item >= 0 && (counts.isEmpty || contains(p)) ? p : nil
        }
        selectedItem = path
        if let path {
            visibleCells[path]?.isSelected = true
            if scrollsIntoView { scrollToItem(at: path) }
        }
    }

    /// Scrolls the least distance that brings the item fully into view.
    public func scrollToItem(at path: ItemPath, animated: Bool = false) {
        guard prepareIfNeeded(), contains(path) else { return }
        scrollRectToVisible(layout.frameForItem(at: path), animated: animated)
        updateVisibleItems()
    }

    /// Moves the keyboard focus from `path` one item `direction`, scrolling it into view.
    public func moveFocus(from path: ItemPath, toward direction: CollectionDirection) {
        guard prepareIfNeeded(), contains(path), let next = layout.item(from: path, toward: direction) else { return }
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

    /// Runs the layout's `prepare` after a change; false when there is nothing to lay out.
    @discardableResult
    private func prepareIfNeeded() -> Bool {
        if needsPrepare || preparedWidth != bounds.width {
            // A new width reflows the items (more or fewer columns, a taller or shorter
            // content): the first item in view stays where it was on screen, and whatever moves
            // the offset (a fling, an animation to the end) moves with it, as a list keeps its
            // top row through a resize. Left alone, the offset could be far past the new end.
            var anchor: (path: ItemPath, y: Double)?
            if let old = preparedWidth, old != bounds.width, !counts.isEmpty,
                let first = layout.items(in: bounds).first
            {
                anchor = (first, layout.frameForItem(at: first).minY - bounds.minY)
            }
            needsPrepare = false
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
    /// self-sizing layout has not measured), recycles the rest.
    func updateVisibleItems() {
        guard !isUpdating, let dataSource else { return }
        isUpdating = true
        defer { isUpdating = false }
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
                let cell = visibleCells[path] ?? dataSource.collectionView(self, cellForItemAt: path)
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
        let focused = window?.focusedView
        for (path, cell) in visibleCells where !wantedSet.contains(path) {
            if let focused, focused.isDescendant(of: cell) { continue }
            leaving.append(path)
        }
        for path in leaving {
            if let cell = visibleCells.removeValue(forKey: path) { recycle(cell) }
        }
        for path in wanted {
            let cell = visibleCells[path] ?? dataSource.collectionView(self, cellForItemAt: path)
            keep(cell, at: path)
        }
        updateHeaders(in: rect, dataSource: dataSource)
        trimPools()
        placedRect = rect
    }

    private func keep(_ cell: CollectionCell, at path: ItemPath) {
        if let old = visibleCells[path], old !== cell { recycle(old) }
        visibleCells[path] = cell
        let frame = layout.frameForItem(at: path)
        if cell.frame != frame { cell.frame = frame }
        cell.isSelected = path == selectedItem
        if cell.onTap == nil {
            cell.onTap = { [weak self, unowned cell] in
                guard let self, let path = self.itemPath(for: cell) else { return }
                self.selectItem(at: path)
                self.onSelectItem?(path)
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
        if let focused = window?.focusedView, focused.isDescendant(of: cell) { focused.resignFocus() }
        window?.postAccessibilityNotification(.elementRemoved(cell, container: self))
        cell.leaveRowsInView()
        cell.onTap = nil
        cell.onMove = nil
        pool.put(cell, identifier: cell.reuseIdentifier)
    }

    private func updateHeaders(in rect: Rect, dataSource: CollectionViewDataSource) {
        let wanted = layout.headers(in: rect)
        for s in headers.keys.filter({ !wanted.contains($0) }) {
            if let h = headers.removeValue(forKey: s) {
                h.removeFromSuperview()
                headerPool.append(h)
            }
        }
        for s in wanted {
            guard let frame = layout.frameForHeader(inSection: s) else { continue }
            let header = headers[s] ?? headerPool.popLast() ?? ListSectionHeader()
            if headers[s] == nil {
                header.textLabel.text = dataSource.collectionView(self, titleForSection: s)
                headers[s] = header
            }
            header.frame = frame
            if header.superview !== self { insertSubview(header, at: 0) }
        }
    }

    private func trimPools() {
        pool.trim(to: Self.poolLimit, waitingIn: self)
        if headerPool.count > Self.poolLimit { headerPool.removeLast(headerPool.count - Self.poolLimit) }
    }
}
