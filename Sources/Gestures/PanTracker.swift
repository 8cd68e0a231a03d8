import ScrollwayGeometry
import ScrollwayPhysics

/// Follows a finger (or the centroid of several) for a pan: the slop test, the directional
/// lock, the translation since the drag began, and the release velocity.
///
/// The slop is radial (10 px for touch, 4 px for a mouse-button drag). The drag starts from
/// the point where the slop was crossed, so content does not jump by the slop when it begins.
public struct PanTracker: Sendable {
    public enum Lock: Hashable, Sendable { case none, horizontal, vertical }

    public static let touchSlop = 10.0
    public static let mouseSlop = 4.0
    /// Lock to the major axis when |minor| < 0.5·|major| at slop crossing.
    public static let lockRatio = 0.5

    public let slop: Double
    public private(set) var directionalLock: Bool
    public private(set) var start: Point
    public private(set) var current: Point
    /// Where the slop was crossed (nil until then).
    public private(set) var dragOrigin: Point?
    public private(set) var lock: Lock = .none
    /// The time of the latest sample.
    public private(set) var time: Double
    private var tracker = VelocityTracker()
    /// Each finger's own recent motion while several are down, by id (empty with one finger,
    /// whose motion is `tracker`'s): when all but one have lifted, the drag throws what that
    /// finger did (`lift`). The centroid's motion is the lifted fingers' too: two fingers
    /// swiped and lifted together throw their speed either way, but a thumb resting while
    /// another finger swiped, lifted just after it, was thrown at half the swipe's speed.
    private var fingers: [Int: VelocityTracker] = [:]

    public init(at point: Point, time: Double, slop: Double = PanTracker.touchSlop, directionalLock: Bool = false) {
        self.slop = slop
        self.directionalLock = directionalLock
        start = point
        current = point
        self.time = time
        tracker.add(time: time, position: point)
    }

    public var isDragging: Bool { dragOrigin != nil }

    /// Records a move. Returns true when this move crossed the slop (the drag begins now).
    @discardableResult
    public mutating func move(to point: Point, time: Double) -> Bool {
        guard point.isFinite else { return false }
        current = point
        self.time = time
        tracker.add(time: time, position: point)
        guard dragOrigin == nil, (point - start).length > slop else { return false }
        // The crossing point on the segment from start, at exactly the slop distance.
        let d = point - start
        let crossing = start + d * (slop / d.length)
        dragOrigin = crossing
        if directionalLock { lock = Self.lock(for: d) }
        return true
    }

    /// The lock for a slop crossing along `d`: the major axis if |minor| < 0.5·|major|.
    static func lock(for d: Point) -> Lock {
        if abs(d.y) < lockRatio * abs(d.x) { return .horizontal }
        if abs(d.x) < lockRatio * abs(d.y) { return .vertical }
        return .none
    }

    /// Switches the directional lock on or off for a pan under way (a gesture that passes to
    /// another scroll view follows that view's setting): the lock is decided again from the
    /// slop crossing's direction, as if the setting had held from the start.
    public mutating func setDirectionalLock(_ enabled: Bool) {
        directionalLock = enabled
        guard enabled, let origin = dragOrigin else {
            lock = .none
            return
        }
        lock = Self.lock(for: origin - start)
    }

    /// Finger travel since the drag began (zero before), with the lock applied.
    public var translation: Point {
        guard let origin = dragOrigin else { return .zero }
        return applyLock(current - origin)
    }

    /// Finger travel since touch-down (the slop included), with the lock applied: the
    /// gesture's direction when the slop is crossed, which nested scroll views use to decide
    /// which of them takes it.
    public var motion: Point { applyLock(current - start) }

    /// The release velocity (px/s) at `time`, with the lock applied.
    public func velocity(at time: Double) -> Point { applyLock(tracker.velocity(at: time)) }

    /// Re-bases the drag at the current point (e.g. after a second finger joins, so the
    /// centroid's jump is not taken as motion). The fingers' recent motion moves with it
    /// (`keepsVelocity`), so a finger joining or lifting beside others does not cut the
    /// centroid's throw short, where a tracker started afresh had one sample and threw nothing;
    /// the last finger of several takes its own motion (`lift`). A drag that is another
    /// gesture's continuation (the finger left after a pinch) starts afresh.
    public mutating func rebase(at point: Point, time: Double, keepsVelocity: Bool = true) {
        let shift = shiftBase(to: point, time: time)
        if keepsVelocity, !tracker.isEmpty {
            tracker.shift(by: shift)
        } else {
            tracker.reset()
            tracker.add(time: time, position: point)
            fingers = [:]
        }
    }

    /// Fingers land (`landed`: id and position) beside those the pan follows; `alone` is the
    /// finger it followed by itself until now, if it did (its motion so far is the drag's).
    /// The centroid jumps to `centroid` without motion.
    public mutating func land(_ landed: [(id: Int, position: Point)], alone: Int?, centroid: Point, time: Double) {
        if let alone, fingers.isEmpty { fingers[alone] = tracker }
        for f in landed { fingers[f.id] = VelocityTracker(time: time, position: f.position) }
        rebase(at: centroid, time: time)
    }

    /// A finger of several moved to `position` (its own motion; the pan itself moves with
    /// the centroid, `move(to:time:)`).
    public mutating func note(finger id: Int, at position: Point, time: Double) {
        fingers[id]?.add(time: time, position: position)
    }

    /// Fingers lifted from several: the centroid of those left is `centroid`. With one left
    /// (`last`, its id), the drag's motion becomes that finger's own, so its release throws
    /// what it did; with more, the centroid's motion moves with the jump.
    public mutating func lift(_ lifted: [Int], last: Int?, centroid: Point, time: Double) {
        for id in lifted { fingers[id] = nil }
        guard let last else { return rebase(at: centroid, time: time) }
        shiftBase(to: centroid, time: time)
        tracker = fingers[last] ?? VelocityTracker(time: time, position: centroid)
        fingers = [:]
    }

    /// Moves the drag's points so that it is at `point` now, without motion: the translation
    /// is kept. Returns the shift.
    @discardableResult
    private mutating func shiftBase(to point: Point, time: Double) -> Point {
        let shift = point - current
        current = point
        if let origin = dragOrigin { dragOrigin = origin + shift }
        start = start + shift
        self.time = time
        return shift
    }

    private func applyLock(_ p: Point) -> Point {
        switch lock {
        case .none: return p
        case .horizontal: return Point(x: p.x, y: 0)
        case .vertical: return Point(x: 0, y: p.y)
        }
    }
}
