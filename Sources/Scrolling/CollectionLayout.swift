import ScrollwayGeometry

/// An item's place in a collection: its section and its index there (UIKit's `IndexPath` of
/// two; not named so, to stay clear of Foundation's).
public struct ItemPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var section: Int
    public var item: Int

    public init(item: Int, section: Int = 0) {
        self.item = item
        self.section = section
    }

    public static func < (a: ItemPath, b: ItemPath) -> Bool { (a.section, a.item) < (b.section, b.item) }

    /// Whether the path names an item of sections holding `counts` items.
    func isItem(in counts: [Int]) -> Bool {
        section >= 0 && section < counts.count && item >= 0 && item < counts[section]
    }
    public var description: String { "\(section).\(item)" }
}

/// Where a collection view's items and section headers go (UICollectionViewLayout's role). A
/// layout answers in content coordinates; `prepare` runs when the data or the collection
/// view's width changes, and `items(in:)` must cost what the rect holds, not what the
/// collection does (a 100,000-item grid asks for a screenful every frame).
@MainActor
public protocol CollectionViewLayout: AnyObject {
    /// Reads the counts (`numberOfItems(inSection:)`) and the width, and places everything.
    func prepare(for collectionView: CollectionView)
    var contentSize: Size { get }
    /// Whether a right-to-left collection shows this layout mirrored (see the default).
    var flipsHorizontallyInOppositeLayoutDirection: Bool { get }
    /// The items whose frames meet `rect`, in order.
    func items(in rect: Rect) -> [ItemPath]
    func frameForItem(at path: ItemPath) -> Rect
    /// The sections whose headers meet `rect`.
    func headers(in rect: Rect) -> [Int]
    func frameForHeader(inSection section: Int) -> Rect?
    /// The sections whose footers meet `rect` (none by default).
    func footers(in rect: Rect) -> [Int]
    func frameForFooter(inSection section: Int) -> Rect?
    /// For self-sizing items: the width an item is measured at; nil when the layout sizes items.
    func measuringWidth(forItemAt path: ItemPath) -> Double?
    /// Whether `path`'s size is measured (or needs no measuring).
    func isMeasured(_ path: ItemPath) -> Bool
    /// A measured height for `path`; returns how far the content below its row moved.
    func setMeasuredHeight(_ height: Double, forItemAt path: ItemPath) -> Double
    /// The item an arrow key moves to from `path` (nil: none that way).
    func item(from path: ItemPath, toward direction: CollectionDirection) -> ItemPath?
    /// Items or sections were inserted, deleted, moved or reloaded (`CollectionView.insertItems(at:)`
    /// and the rest; a batch's calls all in one update) at the width `prepare` last saw: the
    /// counts are the new ones. A layout that keeps state by item (measured sizes) carries it
    /// to the items' new paths and returns true; false (the default) has the collection call
    /// `prepare` again, which places every item anew (and forgets what it measured).
    func prepare(forUpdate update: CollectionUpdate, for collectionView: CollectionView) -> Bool
}

/// What an update did to a collection's items, for a layout carrying its state over
/// (`CollectionViewLayout.prepare(forUpdate:for:)`): where each item went, and which items'
/// contents changed. One update is one batch (`CollectionView.performBatchUpdates(_:completion:)`,
/// or a single call on its own), read with UIKit's index rules: deletions, reloads and the
/// sources of moves name items and sections before the update, insertions and the
/// destinations of moves after it. The sections and items that stay (neither deleted nor
/// moved) keep their order, and fill, in that order, the places the insertions and the moves'
/// destinations leave free.
public struct CollectionUpdate: Sendable {
    /// Each section before the update: its index after (nil: deleted).
    private let newSections: [Int?]
    /// Sections moved (before): their items go with them, but not in the order the others keep.
    private let movedSections: Set<Int>
    /// Sections reloaded (after), and their item counts: every item of one is reloaded, the
    /// item at each index taking the place of the one there before (if the section still has
    /// that many).
    private let reloadedSections: [Int: Int]
    /// Items leaving their section (deleted or moved from it), before, ascending, by section
    /// (before).
    private let itemsLeaving: [Int: [Int]]
    /// Items arriving in their section (inserted or moved to it), after, less the arrivals
    /// before each, ascending, by section (after): an item that stays, the k-th of those left
    /// in its section, goes after every arrival at or below k.
    private let itemsArrivingBefore: [Int: [Int]]
    /// Items moved: where each goes (before to after).
    private let movedItems: [ItemPath: ItemPath]
    /// Items whose content changed (after the update; they are there before it too): what was
    /// measured of them is stale. The items of a reloaded section are too (`reloads(_:)`).
    public private(set) var reloadedItems: Set<ItemPath> = []
    /// Whether sections come, go, move or are reloaded (their headers' indices or titles change).
    let changesSections: Bool
    /// The sections (after) that were there before: the others are inserted.
    private let sectionsFromBefore: Set<Int>
    /// Items inserted (after), by section (after): arrivals that are no move's destination.
    private let insertedItems: [Int: Set<Int>]

    init(
        newSections: [Int?], insertsSections: Bool, movedSections: Set<Int>, reloadedSections: [Int: Int],
        itemsLeaving: [Int: [Int]],
        itemsArriving: [Int: [Int]], movedItems: [ItemPath: ItemPath], reloadedItems: Set<ItemPath>
    ) {
        self.newSections = newSections
        self.movedSections = movedSections
        self.reloadedSections = reloadedSections
        self.itemsLeaving = itemsLeaving
        itemsArrivingBefore = itemsArriving.mapValues { $0.enumerated().map { $1 - $0 } }
        self.movedItems = movedItems
        sectionsFromBefore = Set(newSections.compactMap { $0 })
        let destinations = Set(movedItems.values)
        insertedItems = itemsArriving.mapValues { items in Set(items) }.reduce(into: [:]) { out, entry in
            out[entry.key] = entry.value.filter { !destinations.contains(ItemPath(item: $0, section: entry.key)) }
        }
        changesSections =
            insertsSections || !movedSections.isEmpty || !reloadedSections.isEmpty || newSections.contains(nil)
        // Named before the update, found after it (none is deleted or moved).
        self.reloadedItems = Set(reloadedItems.compactMap { newPath(for: $0) })
    }

    /// Where the item at `old` is after the update; nil when it was deleted (or its section).
    public func newPath(for old: ItemPath) -> ItemPath? {
        guard old.section >= 0 && old.section < newSections.count, let section = newSections[old.section] else {
            return nil
        }
        if let moved = movedItems[old] { return moved }
        if let count = reloadedSections[section] {
            return old.item < count ? ItemPath(item: old.item, section: section) : nil
        }
        var item = old.item
        if let leaving = itemsLeaving[old.section] {
            if Self.contains(item, in: leaving) { return nil }
            item -= leaving.countBelow(item)
        }
        if let arriving = itemsArrivingBefore[section] { item += arriving.countBelow(item + 1) }
        return ItemPath(item: item, section: section)
    }

    /// Whether the item at `new` (after the update) is reloaded: named by `reloadItems`, or in
    /// a section `reloadSections` named. Its cell and what was measured of it are stale.
    public func reloads(_ new: ItemPath) -> Bool {
        reloadedSections[new.section] != nil || reloadedItems.contains(new)
    }

    /// Whether the item at `new` (after the update) is new to the collection: inserted, in an
    /// inserted section, or reloaded (its content new). A moved item is not: it was there.
    public func arrives(_ new: ItemPath) -> Bool {
        reloads(new) || !sectionsFromBefore.contains(new.section)
            || insertedItems[new.section]?.contains(new.item) == true
    }

    /// Whether section `s` (before) stays in the order of the sections (neither deleted nor
    /// moved).
    func keepsInOrder(section s: Int) -> Bool {
        s >= 0 && s < newSections.count && newSections[s] != nil && !movedSections.contains(s)
    }

    /// Whether the item at `old` stays in the order of the items (neither deleted nor moved,
    /// its section neither): the update only renumbers it, and the items around it in view stay
    /// around it.
    func keepsInOrder(_ old: ItemPath) -> Bool {
        keepsInOrder(section: old.section) && movedItems[old] == nil && newPath(for: old) != nil
    }

    private static func contains(_ value: Int, in values: [Int]) -> Bool {
        let i = values.countBelow(value)
        return i < values.count && values[i] == value
    }
}
/// Which way an arrow key moves the focus in a collection.
public enum CollectionDirection: Sendable { case up, down, left, right }

extension CollectionViewLayout {
    /// Whether the collection lays this layout out mirrored in a right-to-left layout (UIKit's
    /// `flipsHorizontallyInOppositeLayoutDirection`): a layout's frames are worked out left to
    /// right, and one that says yes has them mirrored across the content's width there, its
    /// left and right arrows swapped with them. No, unless a layout says otherwise.
    public var flipsHorizontallyInOppositeLayoutDirection: Bool { false }
    public func measuringWidth(forItemAt path: ItemPath) -> Double? { nil }
    public func isMeasured(_ path: ItemPath) -> Bool { true }
    public func setMeasuredHeight(_ height: Double, forItemAt path: ItemPath) -> Double { 0 }
    public func headers(in rect: Rect) -> [Int] { [] }
    public func frameForHeader(inSection section: Int) -> Rect? { nil }
    public func footers(in rect: Rect) -> [Int] { [] }
    public func frameForFooter(inSection section: Int) -> Rect? { nil }
    public func prepare(forUpdate update: CollectionUpdate, for collectionView: CollectionView) -> Bool { false }
}

/// A grid in sections (UICollectionViewFlowLayout, vertical): each section a header band, then
/// rows of items `itemSize.width` wide, as many to a row as fit between the section insets with
/// at least `minimumInteritemSpacing` between them; the room left over widens the spacing, so
/// every row's items stand in the same columns (a contact sheet's). Rows are
/// `minimumLineSpacing` apart. With `columnCount` set, every row holds that many items instead,
/// as wide as the collection's width allows, so they widen and narrow with the window (a feed's
/// full-width cards; UIKit's compositional layout's fractional widths).
///
/// Rows are kept as the list's rows are, in a Fenwick tree of their heights (`RowLayout`, the
/// header band and the top inset as each section's lead, the line spacing or the bottom inset
/// folded into each row's height): finding the rows in a rect, an item's top, or recording a
/// measured row costs O(log rows), whatever the number of items.
///
/// Self-sizing (`estimatedItemHeight` set): items are measured at their width as they come into
/// view (`CollectionCell.preferredHeight(forWidth:)`), and a row is as tall as its tallest
/// measured item; every item of a row gets the row's height.
@MainActor
public final class FlowLayout: CollectionViewLayout {
    /// A grid reads from the right in a right-to-left collection, as UIKit's flow layout does:
    /// its first item at the top right.
    public var flipsHorizontallyInOppositeLayoutDirection: Bool { true }
    /// A size with a part not finite, or negative, is ignored (the last good one stays): NaN
    /// frames drew nothing.
    public var itemSize = Size(width: 100, height: 100) {
        didSet {
            if !(itemSize.width >= 0 && itemSize.height >= 0 && itemSize.width.isFinite && itemSize.height.isFinite) {
                itemSize = oldValue
            }
            invalidate()
        }
    }
    /// nil: as many items `itemSize.width` wide as fit in a row. A number (at least 1): that many
    /// in every row, each `(width − section insets − (n − 1) × minimumInteritemSpacing) ÷ n`
    /// wide, recomputed whenever the collection's width changes (`itemSize.width` is unused).
    public var columnCount: Int? { didSet { invalidate() } }
    /// nil: every item is `itemSize`; a value: items are measured, this stands in until then.
    /// Zero, as UIKit's zero `estimatedItemSize`, turns measuring off (nil), and so does a
    /// negative or non-finite value: an estimate of 0 put every row at one place, and the
    /// collection showed nothing.
    public var estimatedItemHeight: Double? {
        didSet {
            if let e = estimatedItemHeight, !(e > 0 && e.isFinite) { estimatedItemHeight = nil }
            invalidate()
        }
    }
    /// The least room between two items of a row (a negative one is none). Spacings, insets and
    /// the header height that are not finite are ignored, as a scroll view's insets are.
    public var minimumInteritemSpacing = 8.0 {
        didSet {
            if !minimumInteritemSpacing.isFinite { minimumInteritemSpacing = oldValue }
            invalidate()
        }
    }
    public var minimumLineSpacing = 8.0 {
        didSet {
            if !minimumLineSpacing.isFinite { minimumLineSpacing = oldValue }
            invalidate()
        }
    }
    public var sectionInset = EdgeInsets.zero {
        didSet {
            let e = sectionInset
            if !(e.top.isFinite && e.left.isFinite && e.bottom.isFinite && e.right.isFinite) { sectionInset = oldValue }
            invalidate()
        }
    }
    /// A section's header or footer height that fits its title (UICollectionViewFlowLayout's
    /// `automaticSize`), from the data source's `heightForHeaderInSection` or
    /// `heightForFooterInSection`, or as the layout's `headerHeight` or `footerHeight`: the
    /// title wrapped at the collection's width, with the band's padding (none for an empty
    /// title), as a list's `ListView.automaticDimension`.
    public static let automaticDimension = ListView.automaticDimension

    /// The header band above each section (0: none; a negative one is none), unless the data
    /// source gives a section its own (`heightForHeaderInSection`).
    public var headerHeight = 0.0 {
        didSet {
            if !headerHeight.isFinite { headerHeight = oldValue }
            invalidate()
        }
    }
    /// Whether the header of the section at the top of the view stays there while the section
    /// scrolls under it, pushed up by the section's end (UIKit's
    /// `sectionHeadersPinToVisibleBounds`, off by default): a photo library's date over its
    /// photos. The top is inside the collection's adjusted inset.
    public var sectionHeadersPinToVisibleBounds = false { didSet { invalidate() } }
    /// Whether the footer of the section at the bottom of the view stays there while the
    /// section runs on below it, pushed down by the section's header (UIKit's
    /// `sectionFootersPinToVisibleBounds`, off by default). The bottom is inside the
    /// collection's adjusted inset.
    public var sectionFootersPinToVisibleBounds = false { didSet { invalidate() } }
    /// The footer band below each section, after its bottom inset (UIKit's
    /// `footerReferenceSize.height`; 0: none, a negative one is none), unless the data source
    /// gives a section its own (`heightForFooterInSection`). An empty section's stands under
    /// its header band.
    public var footerHeight = 0.0 {
        didSet {
            if !footerHeight.isFinite { footerHeight = oldValue }
            invalidate()
        }
    }

    private weak var collectionView: CollectionView?
    private var rows = RowLayout(count: 0, sectionStartRows: [], estimate: 0, headerHeight: 0)
    /// Per section: its item count, its first row, and its header's and footer's heights (0:
    /// none).
    private var itemCounts: [Int] = []
    private var firstRows: [Int] = []
    private var headerHeights: [Double] = []
    private var footerHeights: [Double] = []
    /// Whether any section has a header, or a footer: a frame of a scroll asks.
    private var hasHeaders = false
    private var hasFooters = false
    private(set) var columns = 1
    /// The distance from one column's left edge to the next's.
    private(set) var pitch = 0.0
    /// Each item's width: `itemSize.width`, or the share of the row `columnCount` gives it.
    private(set) var itemWidth = 0.0
    private var width = 0.0
    /// Items measured (self-sizing), and their heights: kept by item, so an update that moves
    /// items to other rows (an insertion reflows the rest of its section) keeps what was
    /// measured of those that stay.
    private var measuredItems: [ItemPath: Double] = [:]
    /// Rows with an item measured, and each one's tallest measured item.
    private var measuredRows: [Int: Double] = [:]

    public init() {}

    private func invalidate() { collectionView?.invalidateLayout() }

    public func prepare(for collectionView: CollectionView) {
        self.collectionView = collectionView
        width = collectionView.bounds.width
        let inner = max(0, width - sectionInset.horizontal)
        if let count = columnCount {
            columns = min(max(1, count), 100_000)
            let spacing = max(0, minimumInteritemSpacing)
            itemWidth = max(0, (inner - Double(columns - 1) * spacing) / Double(columns))
            pitch = itemWidth + spacing
        } else {
            let w = max(1, itemSize.width)
            // A negative spacing is none, as with `columnCount`: one of −itemSize.width made a
            // zero pitch, and 100,000 columns of items drawn over each other.
            let spacing = max(0, minimumInteritemSpacing)
            columns = max(
                1,
                Int(clamping: ((inner + spacing) / (w + spacing)).rounded(.down), rounding: .down, in: 1...100_000))
            pitch = columns > 1 ? w + (inner - Double(columns) * w) / Double(columns - 1) : w
            itemWidth = itemSize.width
        }
        measuredItems = [:]
        placeRows(of: collectionView)
    }

    /// The same width, the items changed: the rows are placed again from the new counts, and
    /// the items measured (not reloaded) keep their heights at their new paths, a moved item
    /// its own, so only the items inserted or reloaded are measured again. O(items measured +
    /// rows).
    public func prepare(forUpdate update: CollectionUpdate, for collectionView: CollectionView) -> Bool {
        guard self.collectionView === collectionView, width == collectionView.bounds.width else { return false }
        var carried: [ItemPath: Double] = [:]
        for (old, height) in measuredItems {
            if let new = update.newPath(for: old), !update.reloads(new) { carried[new] = height }
        }
        measuredItems = carried
        placeRows(of: collectionView)
        return true
    }

    /// Reads the counts and places the rows: estimates, and the heights of the items measured.
    private func placeRows(of collectionView: CollectionView) {
        itemCounts = (0..<collectionView.numberOfSections).map { collectionView.numberOfItems(inSection: $0) }
        firstRows = []
        var total = 0
        for n in itemCounts {
            firstRows.append(total)
            total += (n + columns - 1) / columns
        }
        measuredRows = [:]
        for (path, height) in measuredItems {
            let r = row(of: path)
            measuredRows[r] = max(measuredRows[r] ?? 0, height)
        }
        readBandHeights(of: collectionView)
        let estimate = (estimatedItemHeight ?? itemSize.height) + minimumLineSpacing
        // A section's band: its header, then the top inset.
        rows = RowLayout(
            count: total, estimate: estimate, sectionStarts: firstRows,
            headerHeights: headerHeights.map { $0 + sectionInset.top }, footerHeights: footerHeights)
        // A section's last row ends with the bottom inset, not the line spacing.
        for (s, n) in itemCounts.enumerated() where n > 0 {
            rows.setHeight(lastRow(ofSection: s), rowContentEstimate + sectionInset.bottom)
        }
        for (r, tallest) in measuredRows {
            rows.setHeight(
                r, tallest + (r == lastRow(ofSection: section(ofRow: r)) ? sectionInset.bottom : minimumLineSpacing))
        }
    }

    private var rowContentEstimate: Double { estimatedItemHeight ?? itemSize.height }

    /// Each section's header and footer height, the data source's or the layout's; one that
    /// fits its title (`automaticDimension`) measured by the collection.
    private func readBandHeights(of collectionView: CollectionView) {
        let source = collectionView.dataSource
        let sections = itemCounts.indices
        headerHeights = sections.map {
            let h = source?.collectionView(collectionView, layout: self, heightForHeaderInSection: $0) ?? headerHeight
            return collectionView.bandHeight(h, section: $0, footer: false)
        }
        footerHeights = sections.map {
            let h = source?.collectionView(collectionView, layout: self, heightForFooterInSection: $0) ?? footerHeight
            return collectionView.bandHeight(h, section: $0, footer: true)
        }
        hasHeaders = headerHeights.contains { $0 > 0 }
        hasFooters = footerHeights.contains { $0 > 0 }
    }

    private func rowCount(ofSection s: Int) -> Int { (itemCounts[s] + columns - 1) / columns }
    private func lastRow(ofSection s: Int) -> Int { firstRows[s] + rowCount(ofSection: s) - 1 }

    /// The section a row belongs to (the last section starting at or before it that has rows).
    private func section(ofRow row: Int) -> Int {
        var lo = 0
        var hi = firstRows.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if firstRows[mid] <= row { lo = mid } else { hi = mid - 1 }
        }
        // Empty sections share their first row with the next: the one that owns the row has items.
        while lo > 0 && itemCounts[lo] == 0 { lo -= 1 }
        while lo < itemCounts.count - 1 && rowCount(ofSection: lo) == 0 { lo += 1 }
        return lo
    }

    private func row(of path: ItemPath) -> Int { firstRows[path.section] + path.item / columns }

    /// Whether `path` names one of the items prepared.
    private func contains(_ path: ItemPath) -> Bool { path.isItem(in: itemCounts) }

    /// A row's items' height: its span less what follows it (line spacing or bottom inset).
    private func contentHeight(ofRow row: Int, section s: Int) -> Double {
        rows.height(row) - (row == lastRow(ofSection: s) ? sectionInset.bottom : minimumLineSpacing)
    }

    public var contentSize: Size {
        // Empty sections after the last row still show their header and top inset.
        Size(width: width, height: rows.totalHeight)
    }

    public func items(in rect: Rect) -> [ItemPath] {
        guard rows.count > 0, rect.maxY > 0, rect.minY < rows.totalHeight else { return [] }
        let first = rows.row(at: max(0, rect.minY))
        let last = rows.row(at: rect.maxY)
        var out: [ItemPath] = []
        for r in first...last {
            let s = section(ofRow: r)
            let start = (r - firstRows[s]) * columns
            for i in start..<min(itemCounts[s], start + columns) {
                let path = ItemPath(item: i, section: s)
                if frameForItem(at: path).intersects(rect) { out.append(path) }
            }
        }
        return out
    }

    public func frameForItem(at path: ItemPath) -> Rect {
        guard contains(path) else { return .zero }
        let r = row(of: path)
        let column = path.item % columns
        return Rect(
            x: sectionInset.left + Double(column) * pitch, y: rows.top(r), width: itemWidth,
            height: max(0, contentHeight(ofRow: r, section: path.section)))
    }

    /// The line headers pin to: the collection's visible top, inside its adjusted inset (nil
    /// while they do not pin).
    private var pinLine: Double? {
        guard sectionHeadersPinToVisibleBounds, let collectionView else { return nil }
        return collectionView.bounds.minY + collectionView.adjustedContentInset.top
    }

    /// Where section `s`'s items end: after its last row and its bottom inset, before its footer.
    private func sectionEnd(_ s: Int) -> Double { rows.footerTop(endingBefore: lastRow(ofSection: s) + 1) }

    private func naturalHeaderTop(_ section: Int) -> Double {
        let startRow = firstRows[section]
        return rows.headerTop(row: startRow, slot: section - firstSection(startingAtOrAfter: startRow))
    }

    /// The sections whose header bands meet `rect`: those starting at the rows the rect spans
    /// (a header band belongs to the row below it), found by binary search, not by looking at
    /// every section. Pinning, a header stands anywhere in its section's span (on the pin line,
    /// or pushed up to the section's end), so the section holding the rect's first row is
    /// looked at too, though it started above: its header may have come down into the rect.
    public func headers(in rect: Rect) -> [Int] {
        guard hasHeaders else { return [] }
        let pins = pinLine != nil
        return sections(meeting: rect, frame: frameForHeader(inSection:)) { first in
            pins ? self.firstRows[self.section(ofRow: first)] : first
        }
    }

    /// The sections whose band (`frame`) meets `rect`, walked in order from the first section
    /// starting at `from(first)` (`first`: the row at the rect's top) to the last starting at
    /// the rect's bottom row (or after the last row, where empty ones at the end start): a
    /// binary search and the sections in reach, not every section.
    private func sections(meeting rect: Rect, frame: (Int) -> Rect?, from: (Int) -> Int) -> [Int] {
        guard !firstRows.isEmpty, rect.maxY > 0 else { return [] }
        let first = rows.count > 0 ? rows.row(at: max(0, rect.minY)) : 0
        let last = rows.count > 0 ? rows.row(at: rect.maxY) : 0
        let upper = last == rows.count - 1 ? rows.count : last
        var out: [Int] = []
        var s = firstSection(startingAtOrAfter: rows.count > 0 ? from(first) : 0)
        while s < firstRows.count, firstRows[s] <= upper {
            if let f = frame(s), f.intersects(rect) { out.append(s) }
            s += 1
        }
        return out
    }

    /// The first section whose first row is `row` or later (`firstRows` ascends).
    private func firstSection(startingAtOrAfter row: Int) -> Int { firstRows.countBelow(row) }

    /// Where the content puts the header; pinning, a section's header below the pin line
    /// stays on it until the section's end pushes it up:
    /// `y = min(max(natural, pin), sectionEnd − headerHeight)`.
    public func frameForHeader(inSection section: Int) -> Rect? {
        guard section >= 0, section < firstRows.count, headerHeights[section] > 0 else { return nil }
        let height = headerHeights[section]
        var top = naturalHeaderTop(section)
        if let pin = pinLine, itemCounts[section] > 0, top < pin {
            top = max(top, min(pin, sectionEnd(section) - height))
        }
        return Rect(x: 0, y: top, width: width, height: height)
    }

    /// The sections whose footer bands meet `rect`: a footer ends its section, so those from
    /// the section before the rect's first row to the sections starting at its last, found as
    /// the headers are. A pinned footer's section is among them: its rows reach the bottom
    /// line, inside the rect.
    public func footers(in rect: Rect) -> [Int] {
        guard hasFooters else { return [] }
        // The band before `first` opens with the footer of the section ending above it.
        return sections(meeting: rect, frame: frameForFooter(inSection:)) { first in
            self.firstRows[self.section(ofRow: max(0, first - 1))]
        }
    }

    /// The line footers pin to: the collection's visible bottom, inside its adjusted inset (nil
    /// while they do not pin).
    private var bottomPinLine: Double? {
        guard sectionFootersPinToVisibleBounds, let collectionView else { return nil }
        return collectionView.bounds.maxY - collectionView.adjustedContentInset.bottom
    }

    /// A section with rows: its footer right after its last row's span (its bottom inset); an
    /// empty one: under its header band.
    public func frameForFooter(inSection section: Int) -> Rect? {
        guard section >= 0, section < firstRows.count, footerHeights[section] > 0 else { return nil }
        let height = footerHeights[section]
        var top: Double
        if itemCounts[section] > 0 {
            top = sectionEnd(section)
            // Pinned: on the bottom line, not above its header's bottom:
            // `y = max(min(natural, bottomPin − footerHeight), headerBottom)`.
            if let pin = bottomPinLine, top > pin - height {
                let floor = naturalHeaderTop(section) + headerHeights[section]
                top = max(min(top, pin - height), floor)
            }
        } else {
            top = naturalHeaderTop(section) + headerHeights[section] + sectionInset.top
        }
        return Rect(x: 0, y: top, width: width, height: height)
    }

    public func measuringWidth(forItemAt path: ItemPath) -> Double? {
        estimatedItemHeight == nil ? nil : itemWidth
    }

    /// By item: after an update a row can hold items measured and items not (one inserted).
    public func isMeasured(_ path: ItemPath) -> Bool {
        estimatedItemHeight == nil || measuredItems[path] != nil
    }

    /// A row is as tall as the tallest item measured in it; an item measured again shorter
    /// (reconfigured) that was the tallest lets its row shrink.
    public func setMeasuredHeight(_ height: Double, forItemAt path: ItemPath) -> Double {
        guard contains(path) else { return 0 }
        let was = measuredItems.updateValue(height, forKey: path)
        let r = row(of: path)
        var tallest = max(measuredRows[r] ?? 0, height)
        if let was, height < was, was >= tallest {
            let start = path.item / columns * columns
            tallest = (start..<min(itemCounts[path.section], start + columns)).reduce(height) { t, i in
                max(t, measuredItems[ItemPath(item: i, section: path.section)] ?? 0)
            }
        }
        measuredRows[r] = tallest
        let after = r == lastRow(ofSection: path.section) ? sectionInset.bottom : minimumLineSpacing
        let before = rows.height(r)
        rows.setHeight(r, tallest + after)
        return rows.height(r) - before
    }

    public func item(from path: ItemPath, toward direction: CollectionDirection) -> ItemPath? {
        guard contains(path) else { return nil }
        let n = itemCounts[path.section]
        switch direction {
        case .left:
            if path.item > 0 { return ItemPath(item: path.item - 1, section: path.section) }
            return previousSection(before: path.section).map { ItemPath(item: itemCounts[$0] - 1, section: $0) }
        case .right:
            if path.item + 1 < n { return ItemPath(item: path.item + 1, section: path.section) }
            return nextSection(after: path.section).map { ItemPath(item: 0, section: $0) }
        case .up:
            if path.item >= columns { return ItemPath(item: path.item - columns, section: path.section) }
            // Into the previous section's last row, the same column or its last item.
            return previousSection(before: path.section).map { s in
                let lastRowStart = (itemCounts[s] - 1) / columns * columns
                return ItemPath(item: min(itemCounts[s] - 1, lastRowStart + path.item % columns), section: s)
            }
        case .down:
            if path.item + columns < n { return ItemPath(item: path.item + columns, section: path.section) }
            // The next row of this section when it is short, else the next section's first row.
            if path.item / columns < (n - 1) / columns { return ItemPath(item: n - 1, section: path.section) }
            return nextSection(after: path.section).map { s in
                ItemPath(item: min(itemCounts[s] - 1, path.item % columns), section: s)
            }
        }
    }

    private func previousSection(before s: Int) -> Int? {
        (0..<s).last { itemCounts[$0] > 0 }
    }

    private func nextSection(after s: Int) -> Int? {
        (s + 1..<itemCounts.count).first { itemCounts[$0] > 0 }
    }
}
