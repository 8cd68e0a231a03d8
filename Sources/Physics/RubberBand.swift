/// How overscroll shows past an edge. A finger `o` px past the edge moves the content
/// `b = d·(1 − 1/(0.55·o/d + 1))`, where d is the viewport size on that axis: resistance grows
/// the further it goes and b never reaches d.
public enum RubberBand {
    /// UIKit's rubber-band constant.
    public static let coefficient = 0.55

    /// The shown displacement for an overscroll `o` (sign kept).
    public static func displacement(overscroll o: Double, dimension d: Double) -> Double {
        guard d > 0, o.isFinite else { return 0 }
        let m = abs(o)
        let b = d * (1 - 1 / (coefficient * m / d + 1))
        return o < 0 ? -b : b
    }

    /// The inverse, for catching a bouncing view: `o = b·d / (0.55·(d − b))` (sign kept).
    public static func overscroll(displacement b: Double, dimension d: Double) -> Double {
        guard d > 0, b.isFinite else { return 0 }
        let m = min(abs(b), d * 0.999_999)
        let o = m * d / (coefficient * (d - m))
        return b < 0 ? -o : o
    }

    /// A position on one axis with the part outside `min...max` rubber-banded.
    public static func clamp(_ x: Double, min lo: Double, max hi: Double, dimension d: Double) -> Double {
        if x < lo { return lo + displacement(overscroll: x - lo, dimension: d) }
        if x > hi { return hi + displacement(overscroll: x - hi, dimension: d) }
        return x
    }

    /// The inverse of `clamp`: the unbanded position that shows at `x`.
    public static func unclamp(_ x: Double, min lo: Double, max hi: Double, dimension d: Double) -> Double {
        if x < lo { return lo + overscroll(displacement: x - lo, dimension: d) }
        if x > hi { return hi + overscroll(displacement: x - hi, dimension: d) }
        return x
    }
}
