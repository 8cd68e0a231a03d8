import ScrollwayGeometry

/// Estimates a finger's release velocity: a weighted least-squares line through the samples of
/// the last 100 ms (newer samples weigh more), per axis.
///
/// A gap of more than 40 ms (between samples, or between the last sample and the release) means
/// the finger had stopped: only what follows the gap counts, and a stale finger gives zero.
/// |v| < 50 px/s counts as 0 and |v| is capped at 8000 px/s, per axis.
public struct VelocityTracker: Sendable {
    public static let window = 0.100
    public static let maxGap = 0.040
    public static let minimumSpeed = 50.0
    public static let maximumSpeed = 8000.0
    /// How far apart two times may be and still count as equal at the window's and the gap's
    /// edges (a microsecond, far below any device's clock step). Event times are whole
    /// milliseconds, so a sample often lies exactly a window before the release; the seconds
    /// they become carry rounding that depends on the times themselves (4.150 − 4.000 is just
    /// over 0.15, 1.150 − 1.000 just under), so without the tolerance the same gesture played
    /// a millisecond later kept or lost that sample and rested elsewhere (docs/decisions.md,
    /// 0.15.32).
    public static let timeTolerance = 1e-6

    private var samples: [(t: Double, p: Point)] = []
    /// How far back samples count (100 ms for fingers; the touchpad's momentum uses 150 ms).
    public let window: Double

    public init(window: Double = VelocityTracker.window) {
        precondition(window > 0, "the velocity window must be positive")
        self.window = window
    }

    /// A tracker whose first sample is `position` at `time` (a finger as it lands).
    public init(time: Double, position: Point, window: Double = VelocityTracker.window) {
        self.init(window: window)
        add(time: time, position: position)
    }

    /// Adds a sample (seconds, position). Out-of-order or non-finite samples are ignored.
    public mutating func add(time t: Double, position p: Point) {
        guard t.isFinite, p.isFinite else { return }
        if let last = samples.last, t < last.t { return }
        samples.append((t, p))
        // Keep a little more than the window; older samples never count.
        if let newest = samples.last?.t { samples.removeAll { newest - $0.t > window * 2 + Self.timeTolerance } }
    }

    public mutating func reset() { samples.removeAll() }

    /// Moves every sample by `d`: the same motion, measured from a point that jumped (a
    /// centroid when a finger joins or lifts).
    public mutating func shift(by d: Point) {
        guard d.isFinite else { return }
        for i in samples.indices { samples[i].p = samples[i].p + d }
    }

    public var isEmpty: Bool { samples.isEmpty }

    /// The velocity of a motion that ends with an event of its own rather than a last sample
    /// (a touchpad's `axis_stop`), at time `end`: the samples' velocity as of the newest one
    /// (its window counted back from that sample, not from the end), or zero when the end comes
    /// more than `stillness` after it (the motion had stopped before it ended). The end is not
    /// a sample: a still one would make the wait before it read as slowing down, and past
    /// `maxGap` as a stop.
    public func velocity(endingAt end: Double, stillness: Double) -> Point {
        guard let last = samples.last, end - last.t <= stillness + Self.timeTolerance else { return .zero }
        return velocity(at: last.t)
    }

    /// Velocity in px/s as of time `now` (usually the release time).
    public func velocity(at now: Double) -> Point {
        let tolerance = Self.timeTolerance
        guard let last = samples.last, now - last.t <= Self.maxGap + tolerance else { return .zero }
        // Walk back from the newest sample while within the window and without a gap.
        var used: [(t: Double, p: Point)] = [last]
        for s in samples.dropLast().reversed() {
            guard now - s.t <= window + tolerance, used.last!.t - s.t <= Self.maxGap + tolerance else { break }
            used.append(s)
        }
        guard used.count >= 2 else { return .zero }
        // Weights fall linearly from 1 (now) to 0.25 (a window ago).
        let w = used.map { 1 - 0.75 * min(1, max(0, (now - $0.t) / window)) }
        let sw = w.reduce(0, +)
        let tMean = zip(w, used).reduce(0) { $0 + $1.0 * $1.1.t } / sw
        let xMean = zip(w, used).reduce(0) { $0 + $1.0 * $1.1.p.x } / sw
        let yMean = zip(w, used).reduce(0) { $0 + $1.0 * $1.1.p.y } / sw
        var stt = 0.0
        var stx = 0.0
        var sty = 0.0
        for (wi, s) in zip(w, used) {
            let dt = s.t - tMean
            stt += wi * dt * dt
            stx += wi * dt * (s.p.x - xMean)
            sty += wi * dt * (s.p.y - yMean)
        }
        guard stt > 1e-12 else { return .zero }
        return Point(x: Self.limit(stx / stt), y: Self.limit(sty / stt))
    }

    /// Applies the dead zone and the cap.
    public static func limit(_ v: Double) -> Double {
        guard v.isFinite, abs(v) >= minimumSpeed else { return 0 }
        return min(max(v, -maximumSpeed), maximumSpeed)
    }
}
