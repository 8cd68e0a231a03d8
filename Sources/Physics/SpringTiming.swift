import RealModule

/// The timing of a spring animation of a fixed duration (UIKit's
/// `animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:)` and
/// `UISpringTimingParameters(dampingRatio:initialVelocity:)`): the fraction of the way done
/// `p(t)` of a damped spring released at 0 towards 1, at time t of a duration d.
///
/// With damping ratio ζ, natural frequency ω, damped frequency ω_d = ω·√(1 − ζ²) and initial
/// velocity v0 (in distances per second: 1 covers the whole way in a second, UIKit's unit):
/// `p(t) = 1 − e^(−ζωt)·(cos ω_d t + ((ζω − v0)/ω_d)·sin ω_d t)` below ζ = 1, and
/// `p(t) = 1 − e^(−ωt)·(1 + (ω − v0)·t)` at ζ = 1 (critically damped: no overshoot unless
/// thrown). UIKit does not say how it fits the spring to the duration; here ω makes the
/// envelope e^(−ζωt) fall to a thousandth of the way at t = d (ω = ln 1000 / (ζ·d)), so the
/// motion is within a thousandth of its end as the duration ends, where it is put. At ζ = 1 and
/// 0.5 s that is ω ≈ 13.8 rad/s, about `Spring.animationOmega`. ζ is kept within
/// [0.05, 1]: below, a spring within its duration would ring faster than frames can show.
public struct SpringTiming: Hashable, Sendable {
    public let dampingRatio: Double
    public let initialVelocity: Double
    public let duration: Double

    /// The least damping ratio taken (`dampingRatio` is clamped to [`minimumDampingRatio`, 1]).
    public static let minimumDampingRatio = 0.05

    public init(dampingRatio: Double, initialVelocity: Double = 0, duration: Double) {
        let ratio = dampingRatio.isFinite ? dampingRatio : 1
        self.dampingRatio = min(1, max(Self.minimumDampingRatio, ratio))
        self.initialVelocity = initialVelocity.isFinite ? initialVelocity : 0
        self.duration = duration.isFinite ? max(0, duration) : 0
    }

    /// The natural frequency ω (rad/s) that settles the spring within the duration.
    public var omega: Double {
        guard duration > 0 else { return .infinity }
        return Double.log(1000) / (dampingRatio * duration)
    }

    /// The fraction of the way done at time fraction `f` of the duration (clamped to [0, 1]):
    /// 0 at 0, exactly 1 at 1, past 1 on the way while it overshoots.
    public func progress(at f: Double) -> Double {
        guard f.isFinite else { return f > 0 ? 1 : 0 }
        if f <= 0 { return 0 }
        if f >= 1 || duration == 0 { return 1 }
        let t = f * duration
        let w = omega
        let zeta = dampingRatio
        let v0 = initialVelocity
        if zeta >= 1 {
            return 1 - Double.exp(-w * t) * (1 + (w - v0) * t)
        }
        let wd = w * (1 - zeta * zeta).squareRoot()
        let envelope = Double.exp(-zeta * w * t)
        return 1 - envelope * (Double.cos(wd * t) + (zeta * w - v0) / wd * Double.sin(wd * t))
    }
}
