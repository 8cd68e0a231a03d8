import ScrollwayGeometry

/// An app's part in preparing rows before they show (UITableViewDataSourcePrefetching): a list
/// asks it for the rows a screen ahead of those with cells, in the way the list last moved, so
/// that their data (an image from disk or the network) is on its way before the rows' cells are
/// made. Rows it was asked for that fall back out of reach without being shown (the list turned
/// round) are cancelled; rows that come into view are not (their cells were made).
@MainActor
public protocol ListPrefetchDataSource: AnyObject {
    /// Rows to get ready, nearest the view first.
    func list(_ list: ListView, prefetchRowsAt rows: [Int])
    /// Rows asked for that will not be shown soon after all (nothing by default).
    func list(_ list: ListView, cancelPrefetchingForRowsAt rows: [Int])
}

extension ListPrefetchDataSource {
    public func list(_ list: ListView, cancelPrefetchingForRowsAt rows: [Int]) {}
}

/// A collection's prefetching, as a list's (UICollectionViewDataSourcePrefetching): the items
/// a screen ahead of those with cells, in the way the collection last moved.
@MainActor
public protocol CollectionPrefetchDataSource: AnyObject {
    /// Items to get ready, nearest the view first.
    func collectionView(_ collectionView: CollectionView, prefetchItemsAt paths: [ItemPath])
    /// Items asked for that will not be shown soon after all (nothing by default).
    func collectionView(_ collectionView: CollectionView, cancelPrefetchingForItemsAt paths: [ItemPath])
}

extension CollectionPrefetchDataSource {
    public func collectionView(_ collectionView: CollectionView, cancelPrefetchingForItemsAt paths: [ItemPath]) {}
}

/// What an app has been asked to prefetch and not yet shown or cancelled, and the window of
/// keys (rows or items) it should have asked for now. Pure bookkeeping for a list and a
/// collection: they work out the window and call the app.
struct PrefetchBook<Key: Hashable & Comparable> {
    /// Asked for, not yet shown or cancelled.
    private(set) var asked: Set<Key> = []
    /// Whether the view last moved towards its end (down, or the way its content reads), the
    /// way the window reaches; true at first, so that the screen after the first is asked for.
    var forward = true
    /// The last position the direction was read at (the bounds' top).
    var lastPosition: Double?
    /// Whether what was asked no longer answers to the last window (renumbered, forgotten, or
    /// the asking turned on or off): the window is worked out and asked for again.
    var isStale = true

    /// Notes where the view is: a move of more than a hundredth of a point turns the window.
    mutating func moved(to position: Double) {
        if let last = lastPosition, abs(position - last) > 0.01 { forward = position > last }
        lastPosition = position
    }

    /// The window is now `window` (nearest the view first); `shown(key)` says which keys have
    /// cells. Returns the keys to ask for (in the window's order) and those to cancel (asked,
    /// now out of the window and not shown, in order). Keys shown leave the book silently.
    mutating func update(window: [Key], shown: (Key) -> Bool) -> (prefetch: [Key], cancel: [Key]) {
        isStale = false
        let wanted = Set(window)
        var cancel: [Key] = []
        for key in asked where !wanted.contains(key) {
            asked.remove(key)
            if !shown(key) { cancel.append(key) }
        }
        var prefetch: [Key] = []
        for key in window where !asked.contains(key) && !shown(key) {
            asked.insert(key)
            prefetch.append(key)
        }
        return (prefetch, cancel.sorted())
    }

    /// The keys asked for, renumbered by an update (`new(key)`, nil for one deleted, which
    /// leaves the book without a cancel: the app took it away).
    mutating func renumber(_ new: (Key) -> Key?) {
        asked = Set(asked.compactMap(new))
        isStale = true
    }

    /// Forgets what was asked (a reload: the numbers may name other data now).
    mutating func forget() {
        asked.removeAll()
        isStale = true
    }
}
