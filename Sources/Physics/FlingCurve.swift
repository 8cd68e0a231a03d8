/// A released axis, from the release to rest, in closed form: deceleration inside the allowed
/// range, and where it would cross an edge, a spring at that edge launched with the impact speed
/// (capped at 5000 px/s, and so that the overshoot peaks at no more than 0.15·d). Released past
/// an edge, it springs back (ω = 10) unless thrown inwards hard enough to glide back in.
public struct FlingCurve: Hashable, Sendable {
    public enum Phase: Sendable { case decelerating, bouncing }

    /// The largest speed handed to the edge spring.
    public static let maxBounceSpeed = 5000.0
    /// The largest overshoot past an edge, as a fraction of the viewport.
    public static let maxOvershootFraction = 0.15

    public let deceleration: Deceleration?
    /// When the deceleration hands over to the spring (∞: never).
    public let handover: Double
    public let spring: Spring?
    public let scale: Double

    /// - Parameters:
    ///   - x0: the offset at the release (px).
    ///   - v0: the release velocity (px/s), positive towards larger offsets.
    ///   - k: the deceleration constant, `k = −1000·ln(r)` for the deceleration rate `r`.
    ///   - lo: the smallest offset the range allows.
    ///   - hi: the largest offset the range allows (`lo` when it is smaller).
    ///   - d: the viewport's size on this axis, which caps the overshoot past an edge (0.15·d).
    ///   - scale: device pixels per logical pixel: the rest lands on a whole device pixel.
    ///   - bounces: whether an edge is met with the spring launched at the impact speed; false
    ///     stops there (the spring starts at rest).
    ///   - target: when given (a delegate's `targetContentOffset`), the deceleration is
    ///     re-solved to land exactly there (clamped to the range): `v0 = k·(target − x0)`;
    ///     released past an edge, a spring carries it there.
    ///   - glidesIn: past an edge and moving inwards, whether a velocity that would glide to
    ///     rest inside does (a throw back in); false springs to the edge whatever the velocity
    ///     (a spring back re-aimed at an edge that moved keeps its speed, not a throw's glide).
    public init(
        position x0: Double, velocity v0: Double, k: Double, min lo: Double, max hi: Double, dimension d: Double,
        scale: Double = 1, bounces: Bool = true, target: Double? = nil, glidesIn: Bool = true
    ) {
        self.scale = scale
        let hi = max(lo, hi)
        if let target, x0 >= lo, x0 <= hi {
            deceleration = Deceleration(from: x0, velocity: 0, k: k).landing(on: min(max(target, lo), hi))
            handover = .infinity
            spring = nil
            return
        }
        let outside = x0 < lo || x0 > hi
        if outside, let target {
            // Released in the band with a delegate's target: a spring from the banded offset onto
            // the target (clamped to the range), never past it (`Spring.onto`); an outward
            // velocity is dropped.
            let dest = min(max(target, lo), hi)
            let inward = (dest - x0) * v0 > 0
            deceleration = nil
            handover = 0
            spring = Spring.onto(dest, from: x0, velocity: inward ? v0 : 0, omega: Spring.bounceOmega)
            return
        }
        if outside {
            let edge = x0 < lo ? lo : hi
            let inward = (x0 < lo && v0 > 0) || (x0 > hi && v0 < 0)
            let glide = Deceleration(from: x0, velocity: v0, k: k)
            if glidesIn && inward && glide.restingPoint >= lo && glide.restingPoint <= hi {
                // Thrown back in hard enough: glide to a device pixel inside the range.
                let dest = min(max((glide.restingPoint * scale).rounded() / scale, lo), hi)
                deceleration = glide.landing(on: dest)
                handover = .infinity
                spring = nil
            } else {
                // Thrown further out: the speed capped as an edge impact's (a spring launched at
                // the edge with it peaks 0.15·d out), so it carries on out a little and comes
                // back. It starts past the edge, so its peak lies further out than an impact's,
                // by about where it was released.
                let cap = min(Self.maxBounceSpeed, Spring.launchSpeed(peakingAt: Self.maxOvershootFraction * d))
                let v = inward ? v0 : (v0 < 0 ? -min(-v0, cap) : min(v0, cap))
                deceleration = nil
                handover = 0
                spring = Spring(from: x0, to: edge, velocity: bounces ? v : 0, omega: Spring.bounceOmega)
            }
            return
        }
        let natural = Deceleration(from: x0, velocity: v0, k: k)
        let rest = natural.restingPoint
        if rest >= lo && rest <= hi {
            let dest = min(max((rest * scale).rounded() / scale, lo), hi)
            deceleration = natural.landing(on: dest)
            handover = .infinity
            spring = nil
            return
        }
        let edge = rest < lo ? lo : hi
        guard let hit = natural.impact(at: edge) else {
            deceleration = natural.landing(on: edge)
            handover = .infinity
            spring = nil
            return
        }
        deceleration = natural
        handover = hit.time
        let cap = min(Self.maxBounceSpeed, Spring.launchSpeed(peakingAt: Self.maxOvershootFraction * d))
        let speed = bounces ? min(abs(hit.velocity), cap) : 0
        spring = Spring(from: edge, to: edge, velocity: hit.velocity < 0 ? -speed : speed, omega: Spring.bounceOmega)
    }

    public func position(at t: Double) -> Double {
        if t < handover, let d = deceleration { return d.position(at: t) }
        return spring?.position(at: t - handover) ?? deceleration?.restingPoint ?? 0
    }

    public func velocity(at t: Double) -> Double {
        if t < handover, let d = deceleration { return d.velocity(at: t) }
        return spring?.velocity(at: t - handover) ?? 0
    }

    public func phase(at t: Double) -> Phase { t < handover ? .decelerating : .bouncing }

    /// Where the motion ends.
    public var restingPoint: Double { spring?.rest ?? deceleration?.restingPoint ?? 0 }

    /// Whether this curve, launched again from its point `x` with its velocity there, into the
    /// range `lo...hi` with rate constant `k` at this scale, would be this same curve (up to the
    /// last bits of its rest): a glide from inside the range that meets no edge and rests on a
    /// device pixel inside it. A deceleration forgets where it began (`x0 + v0·(1 − e^(−kt))/k`
    /// started again at `t1` from `x(t1)` with `v(t1) = v0·e^(−k·t1)` is the same path), and a
    /// rest already on a device pixel rounds to itself; a rest that was clamped to an edge, or
    /// aimed off the pixel grid by a target, would round elsewhere.
    public func glidesAlike(from x: Double, within lo: Double, _ hi: Double, k: Double, scale: Double) -> Bool {
        guard spring == nil, let d = deceleration, d.k == k, scale == self.scale else { return false }
        let rest = d.restingPoint
        let pixels = rest * scale
        return x >= lo && x <= hi && rest >= lo && rest <= hi && abs(pixels - pixels.rounded()) < 1e-6
    }

    /// Less than 0.5 device px to go (and, on a spring, slow enough).
    public func isFinished(at t: Double) -> Bool {
        if t < handover, let d = deceleration { return d.isFinished(at: t, threshold: 0.5 / scale) && spring == nil }
        if let s = spring { return s.isSettled(at: t - handover, scale: scale) }
        return true
    }
}
