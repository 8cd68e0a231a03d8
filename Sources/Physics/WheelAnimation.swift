import RealModule

/// A mouse wheel's smooth step on one axis: `x(t) = target + (start − target)·e^(−(t − t0)/τ)`
/// with τ = 40 ms. Each new detent re-aims from wherever the animation is now, so fast wheel
/// spins accumulate without jumps. No overscroll, no momentum: the target is clamped.
public struct WheelAnimation: Hashable, Sendable {
    public static let tau = 0.040

    public private(set) var start: Double
    public private(set) var target: Double
    public private(set) var startTime: Double

    public init(from position: Double, to target: Double, at time: Double) {
        start = position
        self.target = target
        startTime = time
    }

    /// The step one detent moves: `viewport^(2/3)` scaled by `value120/120`.
    public static func step(viewport: Double, value120: Double) -> Double {
        guard viewport > 0 else { return 0 }
        return Double.pow(viewport, 2.0 / 3.0) * value120 / 120
    }

    public func position(at t: Double) -> Double {
        target + (start - target) * Double.exp(-max(0, t - startTime) / Self.tau)
    }

    /// Adds `delta` to the target at time `t`, clamped to `lo...hi`, starting from where the
    /// animation is at `t`.
    public mutating func retarget(by delta: Double, at t: Double, within lo: Double, _ hi: Double) {
        start = position(at: t)
        startTime = t
        target = min(max(target + delta, lo), max(lo, hi))
    }

    /// The same animation moved by `delta` (content above it grew or shrank).
    public func shifted(by delta: Double) -> WheelAnimation {
        var w = self
        w.start += delta
        w.target += delta
        return w
    }

    /// Done when less than 0.5 device px remains.
    public func isFinished(at t: Double, scale: Double = 1) -> Bool { abs(target - position(at: t)) < 0.5 / scale }
}
