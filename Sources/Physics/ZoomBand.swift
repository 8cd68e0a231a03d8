import RealModule

/// Zoom works in log space, `u = ln(s/s_limit)`, so doubling and halving feel alike. Past a
/// limit the scale is rubber-banded on u with d = ln 2, and springs back with ω = 10.
public enum ZoomBand {
    public static let dimension = Double.log(2.0)

    /// The scale shown for a requested scale `s`, given the limits.
    public static func shownScale(_ s: Double, minimum lo: Double, maximum hi: Double, bounces: Bool = true) -> Double {
        guard s > 0, s.isFinite else { return lo }
        if s >= lo && s <= hi { return s }
        let limit = s > hi ? hi : lo
        guard bounces else { return limit }
        let u = Double.log(s / limit)
        return limit * Double.exp(RubberBand.displacement(overscroll: u, dimension: dimension))
    }

    /// The requested scale that shows as `shown` (the inverse, for catching a bouncing zoom).
    public static func requestedScale(showing shown: Double, minimum lo: Double, maximum hi: Double) -> Double {
        guard shown > 0, shown.isFinite else { return lo }
        if shown >= lo && shown <= hi { return shown }
        let limit = shown > hi ? hi : lo
        let b = Double.log(shown / limit)
        return limit * Double.exp(RubberBand.overscroll(displacement: b, dimension: dimension))
    }

    /// The spring that brings a scale back inside the limits, in u-space (rest 0 = the limit).
    public static func springBack(
        from shown: Double, minimum lo: Double, maximum hi: Double
    ) -> (limit: Double, spring: Spring)? {
        guard shown < lo || shown > hi else { return nil }
        let limit = shown > hi ? hi : lo
        return (limit, Spring(from: Double.log(shown / limit), to: 0, omega: Spring.bounceOmega))
    }

    /// The scale at `u` in the log space of `limit`: `limit·e^u`.
    public static func scale(at u: Double, limit: Double) -> Double { limit * Double.exp(u) }

    /// `ln(s/limit)`.
    public static func logScale(_ s: Double, limit: Double) -> Double { Double.log(s / limit) }

    /// The zoom that keeps a pinch centre fixed: `offset' = (offset + a)·s'/s − a`, where `a`
    /// is the centre in the scroll view's visible coordinates (relative to its bounds origin).
    public static func offsetKeepingAnchor(offset: Double, anchor a: Double, from s: Double, to s2: Double) -> Double {
        (offset + a) * s2 / s - a
    }

}
