import ScrollwayGeometry

/// Taps, double taps and long presses from one finger: the finger must stay within the slop.
public struct TapTracker: Sendable {
    /// A tap lifts within this time.
    public static let maxTapDuration = 0.35
    /// A second tap within this time and distance makes a double tap.
    public static let doubleTapInterval = 0.30
    public static let doubleTapDistance = 40.0
    /// A long press holds this long.
    public static let longPressDuration = 0.50

    public enum Result: Hashable, Sendable { case none, tap(count: Int), longPress }

    public let slop: Double
    private var down: (point: Point, time: Double)?
    private var moved = false
    private var firedLongPress = false
    private var lastTap: (point: Point, time: Double, count: Int)?

    public init(slop: Double = 10) { self.slop = slop }

    public mutating func touchDown(at p: Point, time: Double) {
        down = (p, time)
        moved = false
        firedLongPress = false
    }

    public mutating func touchMoved(to p: Point) {
        guard let d = down else { return }
        if (p - d.point).length > slop { moved = true }
    }

    /// When a long press would fire (the owner's timer), nil when none is pending.
    public var longPressDeadline: Double? {
        guard let d = down, !moved, !firedLongPress else { return nil }
        return d.time + Self.longPressDuration
    }

    public mutating func timerFired(time: Double) -> Result {
        guard let deadline = longPressDeadline, time >= deadline - 1e-9 else { return .none }
        firedLongPress = true
        return .longPress
    }

    public mutating func touchUp(at p: Point, time: Double) -> Result {
        defer { down = nil }
        guard let d = down, !moved, !firedLongPress, time - d.time <= Self.maxTapDuration else { return .none }
        var count = 1
        if let last = lastTap, time - last.time <= Self.doubleTapInterval,
            (p - last.point).length <= Self.doubleTapDistance
        {
            count = last.count + 1
        }
        lastTap = (p, time, count)
        return .tap(count: count)
    }

    public mutating func cancel() {
        down = nil
        lastTap = nil
    }
}
