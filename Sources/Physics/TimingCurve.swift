/// How an animation of a fixed duration moves from its start to its end: the fraction of the
/// way done at each fraction of the time (UIKit's `UIView.AnimationCurve` and
/// `UICubicTimingParameters`, CSS's `cubic-bezier`).
///
/// A cubic Bézier from (0, 0) to (1, 1) with control points P1 = (x1, y1) and P2 = (x2, y2):
/// `x(s) = 3(1 − s)²s·x1 + 3(1 − s)s²·x2 + s³`, the same for y. For a time fraction p, the
/// curve's parameter s solves `x(s) = p` (x rises monotonically while x1 and x2 lie in [0, 1])
/// and the progress is `y(s)`. y1 and y2 may leave [0, 1] for an overshoot.
public struct TimingCurve: Hashable, Sendable {
    public let x1: Double
    public let y1: Double
    public let x2: Double
    public let y2: Double

    /// A curve through the control points (x1, y1) and (x2, y2). x1 and x2 are clamped to
    /// [0, 1], where time runs one way only; a non-finite value makes the curve linear.
    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        guard [x1, y1, x2, y2].allSatisfy(\.isFinite) else {
            (self.x1, self.y1, self.x2, self.y2) = (0, 0, 1, 1)
            return
        }
        self.x1 = min(max(x1, 0), 1)
        self.y1 = y1
        self.x2 = min(max(x2, 0), 1)
        self.y2 = y2
    }

    /// The same speed throughout.
    public static let linear = TimingCurve(x1: 0, y1: 0, x2: 1, y2: 1)
    /// Slow at the start (UIKit's `.easeIn`, CSS's `ease-in`).
    public static let easeIn = TimingCurve(x1: 0.42, y1: 0, x2: 1, y2: 1)
    /// Slow at the end (UIKit's `.easeOut`, CSS's `ease-out`).
    public static let easeOut = TimingCurve(x1: 0, y1: 0, x2: 0.58, y2: 1)
    /// Slow at both ends: UIKit's default for `UIView.animate` (`.easeInOut`, CSS's
    /// `ease-in-out`).
    public static let easeInOut = TimingCurve(x1: 0.42, y1: 0, x2: 0.58, y2: 1)

    /// The fraction of the way done at time fraction `p` (clamped to [0, 1]): 0 at 0, 1 at 1.
    public func progress(at p: Double) -> Double {
        guard p.isFinite else { return p > 0 ? 1 : 0 }
        if p <= 0 { return 0 }
        if p >= 1 { return 1 }
        return Self.bezier(parameter(forX: p), y1, y2)
    }

    /// One coordinate of the curve at parameter s, from its two inner control values.
    static func bezier(_ s: Double, _ c1: Double, _ c2: Double) -> Double {
        // Horner's form of 3(1 − s)²s·c1 + 3(1 − s)s²·c2 + s³.
        let c = 3 * c1
        let b = 3 * (c2 - c1) - c
        let a = 1 - c - b
        return ((a * s + b) * s + c) * s
    }

    /// dx/ds at s.
    private func slopeX(_ s: Double) -> Double {
        let c = 3 * x1
        let b = 3 * (x2 - x1) - c
        let a = 1 - c - b
        return (3 * a * s + 2 * b) * s + c
    }

    /// The parameter s with x(s) = x: Newton's steps from s = x, which converge in a few for
    /// the usual curves, and bisection (x is monotonic in s) where a slope near zero would send
    /// them astray, to within 1e-12 of x.
    private func parameter(forX x: Double) -> Double {
        var s = x
        for _ in 0..<8 {
            let error = Self.bezier(s, x1, x2) - x
            if abs(error) < 1e-12 { return s }
            let slope = slopeX(s)
            guard abs(slope) > 1e-9 else { break }
            let next = s - error / slope
            guard next >= 0, next <= 1 else { break }
            s = next
        }
        var (low, high) = (0.0, 1.0)
        s = x
        for _ in 0..<64 {
            let value = Self.bezier(s, x1, x2)
            if abs(value - x) < 1e-12 { break }
            if value < x { low = s } else { high = s }
            s = (low + high) / 2
        }
        return s
    }
}
