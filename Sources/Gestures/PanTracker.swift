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
    /// the last finger of several takes its own motion (`rebase(at:time:history:)`). A drag
    /// that is another gesture's continuation (the finger left after a pinch) starts afresh.
    public mutating func rebase(at point: Point, time: Double, keepsVelocity: Bool = true) {
        let shift = shiftBase(to: point, time: time)
        if keepsVelocity, !tracker.isEmpty {
            tracker.shift(by: shift)
        } else {
            tracker.reset()
            tracker.add(time: time, position: point)
        }
    }

    /// Re-bases the drag at `point`, the one finger left of several, whose own recent motion
    /// (`history`, in the same coordinates) becomes the drag's: its release throws what that
    /// finger did, not what the centroid did while fingers since lifted moved it (a thumb
    /// resting while another finger swiped would have been thrown at half the swipe's speed).
    public mutating func rebase(at point: Point, time: Double, history: VelocityTracker) {
        shiftBase(to: point, time: time)
        tracker = history
    }

    /// The recent motion the release velocity is worked out from (no lock applied).
    public var history: VelocityTracker { tracker }

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
