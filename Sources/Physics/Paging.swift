import ScrollwayGeometry

/// Where a paging scroll view settles after a release.
public enum Paging {
    /// A release faster than this (px/s) moves at least one page in its direction.
    public static let flickVelocity = 300.0

    /// Target page = round((x + v/k)/page), clamped to the drag's start page ±1 and to
    /// `0...pageCount−1`; with |v| > 300 px/s it moves at least one page in v's direction.
    public static func targetPage(
        position x: Double, velocity v: Double, pageSize: Double, k: Double, startPage: Int, pageCount: Int
    ) -> Int {
        guard pageSize > 0, pageCount > 0 else { return 0 }
        // Page numbers are worked out as doubles and kept within the pages there are (±1)
        // before becoming integers: a tiny page or a deceleration rate near 1 projects far.
        let bound = Double(pageCount) + 1
        func pageNumber(_ d: Double) -> Int {
            d.isFinite ? Int(clamping: min(max(d, -1), bound)) : (d > 0 ? pageCount : 0)
        }
        let projected = x + v / k
        var page = pageNumber((projected / pageSize).rounded())
        let current = x / pageSize
        if v > flickVelocity { page = max(page, pageNumber(current.rounded(.down)) + 1) }
        if v < -flickVelocity { page = min(page, pageNumber(current.rounded(.up)) - 1) }
        page = min(max(page, startPage - 1), startPage + 1)
        return min(max(page, 0), pageCount - 1)
    }

    /// The spring that carries a released page view from `x` onto the page at `target`, on one
    /// axis, with the release velocity `v` (px/s), inside `range` (the offset's).
    ///
    /// ω = 14 from the release velocity, with two exceptions, so that it never passes the page
    /// it is thrown towards and never stalls:
    /// - Thrown towards the page faster than ω·|d| (d the distance left), a critically damped
    ///   spring would pass the page and come back, showing the next page's edge: it is
    ///   `Spring.onto`'s, which leaves at the release velocity and slows onto the page, as
    ///   UIKit's paging does.
    /// - Released at or past an end of the range and moving further out (a flick out at the
    ///   first or last page), it heads straight back: a spring thrown outwards from there would
    ///   leave the range still further, and the scroll view holds such moves inside the range
    ///   widened to where they started, so it stood still there until it turned.
    public static func settle(
        from x: Double, to target: Double, velocity v: Double, range: ClosedRange<Double>
    ) -> Spring {
        var v = v.isFinite ? v : 0
        if (x >= range.upperBound && v > 0) || (x <= range.lowerBound && v < 0) { v = 0 }
        return Spring.onto(target, from: x, velocity: v, omega: Spring.animationOmega)
    }
}
