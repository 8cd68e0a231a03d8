import ScrollwayRaster

/// Where a baseline stands in a view: `heightFraction × height + offset` below its top edge.
/// A function of the height, not a number, so that the layout engine solves it with the view's
/// size: text centred vertically moves down by half of any height the view gains, and a
/// constraint on a baseline can then size the view as one on its centre can.
public struct BaselinePosition: Equatable, Sendable {
    public var heightFraction: Double
    public var offset: Double

    public init(heightFraction: Double, offset: Double) {
        self.heightFraction = heightFraction
        self.offset = offset
    }

    /// The baseline's distance below the top of a view `height` tall.
    public func distance(forHeight height: Double) -> Double { heightFraction * height + offset }

    /// The bottom edge: where a view without text has its baselines, as UIKit's do.
    public static let bottom = BaselinePosition(heightFraction: 1, offset: 0)
}

/// A view's first and last baselines (`View.baselines(forWidth:)`), what its
/// `firstBaselineAnchor` and `lastBaselineAnchor` stand for.
public struct Baselines: Equatable, Sendable {
    public var first: BaselinePosition
    public var last: BaselinePosition

    public init(first: BaselinePosition, last: BaselinePosition) {
        self.first = first
        self.last = last
    }

    /// Both at the bottom edge: a view without text.
    public static let bottom = Baselines(first: .bottom, last: .bottom)

    /// `count` lines of text in a font of `metrics`, their band (`count` line heights)
    /// centred vertically in the view, as a label, a field and a button draw theirs: line `i`'s
    /// baseline is the band's top plus the ascent plus `i` line heights. No line counts as one,
    /// so that an empty label's baselines stand where its first line's will, and a baseline
    /// constraint does not jump when text arrives.
    public static func centred(lines count: Int, metrics: FontMetrics) -> Baselines {
        let lines = Double(max(1, count))
        let top = metrics.ascent - lines * metrics.lineHeight / 2
        return Baselines(
            first: BaselinePosition(heightFraction: 0.5, offset: top),
            last: BaselinePosition(heightFraction: 0.5, offset: top + (lines - 1) * metrics.lineHeight))
    }
}
