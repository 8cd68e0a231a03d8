/// The seeds' composition rule, in one place so Views, hit-testing and damage agree on it.
///
/// A view's image is drawn onto its superview's at `frame.origin − superview.bounds.origin`.
/// Moving a superview's bounds origin therefore moves every subview the other way on screen
/// without touching any frame: that is all a scroll view does (`contentOffset` IS
/// `bounds.origin`).
public enum Composition {
    /// Where a subview's top-left lands in its superview's image.
    public static func compositedPosition(frameOrigin: Point, superviewBoundsOrigin: Point) -> Point {
        frameOrigin - superviewBoundsOrigin
    }

    /// A subview's frame as it appears in its superview's image (same size, moved).
    public static func compositedRect(frame: Rect, superviewBoundsOrigin: Point) -> Rect {
        Rect(
            origin: compositedPosition(frameOrigin: frame.origin, superviewBoundsOrigin: superviewBoundsOrigin),
            size: frame.size)
    }
}
