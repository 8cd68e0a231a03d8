import RealModule

/// A critically damped spring around a rest point, in closed form:
/// `y(t) = (y0 + (v0 + ω·y0)·t)·e^(−ωt)`, `y'(t) = (v0 − ω·(v0 + ω·y0)·t)·e^(−ωt)`,
/// where y is the displacement from rest. It never oscillates: it returns, at most overshooting
/// once when thrown towards the rest point.
///
/// ω = 10 rad/s bounces back and settles insets; ω = 14 animates programmatic moves, paging
/// and keyboard steps.
public struct Spring: Hashable, Sendable {
    public let rest: Double
    public let y0: Double
    public let v0: Double
    public let omega: Double

    /// ω for bounce-back and inset changes.
    public static let bounceOmega = 10.0
    /// ω for `setContentOffset(animated:)`, `scrollRectToVisible`, paging and keys.
    public static let animationOmega = 14.0

    /// A spring from `position` moving at `velocity` (px/s) towards `rest`.
    public init(from position: Double, to rest: Double, velocity: Double = 0, omega: Double = Spring.bounceOmega) {
        precondition(omega > 0 && omega.isFinite, "ω must be positive")
        self.rest = rest
        self.y0 = position - rest
        self.v0 = velocity.isFinite ? velocity : 0
        self.omega = omega
    }

    public func displacement(at t: Double) -> Double {
        let t = max(0, t)
        return (y0 + (v0 + omega * y0) * t) * Double.exp(-omega * t)
    }

    public func position(at t: Double) -> Double { rest + displacement(at: t) }

    public func velocity(at t: Double) -> Double {
        let t = max(0, t)
        return (v0 - omega * (v0 + omega * y0) * t) * Double.exp(-omega * t)
    }

    /// Done when |y| < 0.5 device px and |v| < ω·0.5 (px/s).
    public func isSettled(at t: Double, scale: Double = 1) -> Bool {
        abs(displacement(at: t)) < 0.5 / scale && abs(velocity(at: t)) < omega * 0.5
    }

    /// The largest |displacement| reached after t = 0 (at t = 1/ω − … when thrown outwards).
    /// For y0 = 0 it is `|v0|/(ω·e)`.
    public var peakDisplacement: Double {
        // y' = 0 at t* = v0 / (ω·(v0 + ω·y0)), when that is positive.
        let b = v0 + omega * y0
        var peak = abs(y0)
        if b != 0 {
            let tStar = v0 / (omega * b)
            if tStar > 0 { peak = max(peak, abs(displacement(at: tStar))) }
        }
        return peak
    }

    /// The stiffest spring `onto` makes (rad/s).
    public static let maximumOmega = 10_000.0

    /// A spring from `position` onto `rest`, thrown at `velocity`, that never passes its rest:
    /// thrown towards it faster than ω·|d| (d the distance to go), a critically damped spring
    /// would pass it and come back; with ω = |v|/|d| (at most `maximumOmega`: a rest a hair away
    /// would overflow it, and the overshoot that leaves is below any pixel) its displacement is
    /// `y0·e^(−ωt)` exactly, leaving at the velocity it was thrown at. Thrown away from its
    /// rest, it goes out and comes back as any spring does.
    public static func onto(
        _ rest: Double, from position: Double, velocity v: Double, omega: Double
    ) -> Spring {
        let d = rest - position
        var omega = omega
        if v * d > 0, abs(v) > omega * abs(d) { omega = min(abs(v) / abs(d), maximumOmega) }
        return Spring(from: position, to: rest, velocity: v, omega: omega)
    }

    /// The speed at which a spring starting at its rest point peaks at exactly `overshoot`:
    /// `v = overshoot·ω·e`. Used to cap a fling's bounce at 0.15·d.
    public static func launchSpeed(peakingAt overshoot: Double, omega: Double = Spring.bounceOmega) -> Double {
        overshoot * omega * Double.exp(1)
    }
}
