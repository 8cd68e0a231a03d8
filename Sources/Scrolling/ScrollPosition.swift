/// Where a list or a collection puts the row or item it scrolls to (UITableView's
/// `ScrollPosition`; UICollectionView's `.top`, `.centeredVertically` and `.bottom`).
public enum ScrollPosition: Sendable, Hashable {
    /// The least scroll that brings it fully into view, and none when it is.
    case none
    /// Its top at the top of the view (inside the adjusted inset, below a pinned header).
    case top
    /// Its middle at the middle of the view (inside the adjusted inset).
    case middle
    /// Its bottom at the bottom of the view (inside the adjusted inset, above a pinned footer).
    case bottom
}
