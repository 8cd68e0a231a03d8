import RealModule

/// How quickly a fling slows: the fraction of velocity kept per millisecond (UIKit's
/// `decelerationRate`). `k = −1000·ln(r)` per second.
public struct DecelerationRate: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Double

    public init(_ r: Double) {
        precondition(r > 0 && r < 1, "a deceleration rate is in (0, 1)")
        rawValue = r
    }

    /// UIKit's normal rate, 0.998 (k ≈ 2.002/s).
    public static let normal = DecelerationRate(0.998)
    /// UIKit's fast rate, 0.99 (k ≈ 10.05/s).
    public static let fast = DecelerationRate(0.99)

    /// The decay constant per second: `k = −1000·ln(r)`.
    public var k: Double { -1000 * Double.log(rawValue) }

    public var description: String {
        self == .normal ? "normal" : self == .fast ? "fast" : "\(rawValue)"
    }
}

/// One axis of a fling, in closed form:
/// `v(t) = v0·e^(−kt)`, `x(t) = x0 + v0·(1 − e^(−kt))/k`, resting at `x0 + v0/k`.
///
/// Evaluated at any time, not integrated per frame, so 60, 120 and 144 Hz land on the same pixel.
public struct Deceleration: Hashable, Sendable {
    public let x0: Double
    /// px/s.
    public let v0: Double
    /// 1/s.
    public let k: Double

    public init(from x0: Double, velocity v0: Double, rate: DecelerationRate = .normal) {
        self.init(from: x0, velocity: v0, k: rate.k)
    }

    public init(from x0: Double, velocity v0: Double, k: Double) {
        precondition(k > 0 && k.isFinite, "k must be positive")
        self.x0 = x0
        self.v0 = v0.isFinite ? v0 : 0
        self.k = k
    }

    /// Where the fling comes to rest: `x0 + v0/k`.
    public var restingPoint: Double { x0 + v0 / k }

    public func position(at t: Double) -> Double { x0 + v0 * (1 - Double.exp(-k * max(0, t))) / k }
    public func velocity(at t: Double) -> Double { v0 * Double.exp(-k * max(0, t)) }

    /// The same fling re-aimed to rest exactly at `destination`: `v0 = k·(dest − x0)`.
    public func landing(on destination: Double) -> Deceleration {
        Deceleration(from: x0, velocity: k * (destination - x0), k: k)
    }

    /// The fling re-aimed to rest on the nearest device pixel of its natural resting point.
    public func landingOnDevicePixel(scale: Double) -> Deceleration {
        landing(on: (restingPoint * scale).rounded() / scale)
    }

    /// When less than `threshold` px remains (0.5 device px by default): the fling is over.
    /// Remaining distance is `|v0/k|·e^(−kt)`.
    public func duration(threshold: Double = 0.5) -> Double {
        let total = abs(v0 / k)
        guard total > threshold else { return 0 }
        return Double.log(total / threshold) / k
    }

    /// Whether the fling is over at `t` (less than `threshold` px to go).
    public func isFinished(at t: Double, threshold: Double = 0.5) -> Bool {
        abs(restingPoint - position(at: t)) < threshold
    }

    /// When and how fast the fling crosses `edge`, if its path reaches it:
    /// `tb = −ln(1 − k·(e − x0)/v0)/k`, `vb = v0 − k·(e − x0)`.
    public func impact(at edge: Double) -> (time: Double, velocity: Double)? {
        guard v0 != 0 else { return nil }
        let distance = edge - x0
        // The edge must lie ahead, in the direction of motion, and before the resting point.
        guard distance.sign == v0.sign || distance == 0 else { return nil }
        let fraction = k * distance / v0
        guard fraction < 1 else { return nil }
        let tb = -Double.log(1 - fraction) / k
        return (tb, v0 - k * distance)
    }
}
