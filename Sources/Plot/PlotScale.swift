import RealModule
import ScrollwayGeometry

/// A linear map from values (ms, px, px/s) to picture coordinates: `domain.lowerBound` goes to
/// `start` and `domain.upperBound` to `end` (for a vertical axis `start` is the bottom, so larger
/// values are higher). Plots and their tests use the same one, so a test can ask where a value
/// was drawn instead of guessing it.
public struct PlotScale: Equatable, Sendable {
    public let domain: ClosedRange<Double>
    public let start: Double
    public let end: Double

    public init(domain: ClosedRange<Double>, start: Double, end: Double) {
        precondition(domain.upperBound > domain.lowerBound, "a scale needs a domain of positive width")
        self.domain = domain
        self.start = start
        self.end = end
    }

    /// The coordinate of `value`.
    public func callAsFunction(_ value: Double) -> Double {
        start + (value - domain.lowerBound) / (domain.upperBound - domain.lowerBound) * (end - start)
    }

    /// The value at a coordinate (the inverse).
    public func value(at coordinate: Double) -> Double {
        domain.lowerBound + (coordinate - start) / (end - start) * (domain.upperBound - domain.lowerBound)
    }

    /// Tick values inside the domain at a "nice" step (1, 2 or 5 × 10ⁿ), about `count` of them.
    public func ticks(count: Int) -> [Double] {
        let step = Self.niceStep(domain.upperBound - domain.lowerBound, count: count)
        var t = (domain.lowerBound / step).rounded(.up)
        var ticks: [Double] = []
        while t * step <= domain.upperBound + step * 1e-9, ticks.count < 1000 {
            ticks.append(t * step == 0 ? 0 : t * step)
            t += 1
        }
        return ticks
    }

    /// The tick step `ticks(count:)` uses.
    public func tickStep(count: Int) -> Double { Self.niceStep(domain.upperBound - domain.lowerBound, count: count) }

    /// 1, 2 or 5 × 10ⁿ, the smallest such step that cuts `span` into at most about `count` parts.
    public static func niceStep(_ span: Double, count: Int) -> Double {
        let raw = span / Double(max(1, count))
        guard raw > 0, raw.isFinite else { return 1 }
        let magnitude = Double.pow(10, Double.log10(raw).rounded(.down))
        for m in [1.0, 2, 5, 10] where m * magnitude >= raw * (1 - 1e-9) { return m * magnitude }
        return 10 * magnitude
    }

    public typealias Domain = ClosedRange<Double>

    /// A domain covering `lo…hi` with 5% room either side, so a curve never runs along the
    /// panel's frame. It is not widened to whole tick steps: that could waste up to a step of
    /// the panel on nothing. A flat series gets ±`minimumHalfSpan`.
    public static func paddedDomain(covering lo: Double, _ hi: Double, minimumHalfSpan: Double = 5) -> Domain {
        // At a large magnitude ±5 would vanish in rounding (1e17 + 5 is 1e17): the least half
        // span grows with the values.
        let least = max(minimumHalfSpan, max(abs(lo), abs(hi)) * 1e-9)
        guard hi - lo >= 1e-9 else { return (lo - least)...(hi + least) }
        let pad = (hi - lo) * 0.05
        return (lo - pad)...(hi + pad)
    }

    /// The ticks with their labels; the largest one also names the unit ("400 px"), so an axis
    /// says what it measures without a caption over the data.
    public func tickLabels(count: Int, unit: String) -> [(value: Double, text: String)] {
        let step = tickStep(count: count)
        let ticks = self.ticks(count: count)
        return ticks.enumerated().map { i, t in
            (t, Self.label(t, step: step) + (i == ticks.count - 1 ? " " + unit : ""))
        }
    }

    /// `value` as a tick label with as many decimals as `step` needs, and a real minus sign.
    public static func label(_ value: Double, step: Double) -> String {
        let decimals = step >= 1 ? 0 : Int(clamping: -Double.log10(step), rounding: .up, in: 0...6)
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 1e15 else { return value < 0 ? "−\(abs(value))" : "\(value)" }
        let n = Int64(clamping: scaled)
        var text = String(n / Int64(clamping: scale))
        if decimals > 0 {
            let frac = String(n % Int64(clamping: scale))
            text += "." + String(repeating: "0", count: decimals - frac.count) + frac
        }
        return value < 0 && n != 0 ? "−" + text : text
    }
}
