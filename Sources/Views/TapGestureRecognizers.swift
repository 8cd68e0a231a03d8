import ScrollwayGeometry
import ScrollwayGestures

/// Taps (UIKit's `UITapGestureRecognizer`): `numberOfTapsRequired` taps of
/// `numberOfTouchesRequired` fingers each. Discrete: recognized as the last finger of the last
/// tap lifts.
///
/// A tap fails if a finger moves more than `allowableMovement` from where it landed, if more
/// fingers land than required, if it lasts longer than `maximumTapDuration` (first finger down
/// to last finger up), or, for several taps, if the next tap does not end within
/// `maximumIntervalBetweenTaps` of the previous one's end, or lands further than
/// `maximumDistanceBetweenTaps` from it. The defaults are the scroll view's double-tap rules
/// (`TapTiming`).
open class TapGestureRecognizer: GestureRecognizer {
    public var numberOfTapsRequired = 1
    public var numberOfTouchesRequired = 1
    public var allowableMovement = PanTracker.touchSlop
    public var maximumTapDuration = TapTiming.maxTapDuration
    public var maximumIntervalBetweenTaps = TapTiming.doubleTapInterval
    public var maximumDistanceBetweenTaps = TapTiming.doubleTapDistance

    /// Taps completed so far in this sequence.
    public private(set) var tapsCompleted = 0
    /// Where each finger of the current tap landed.
    private var landed: [Int: Point] = [:]
    /// Where each finger of the current tap was last seen, the lifted ones too.
    private var lastSeen: [Int: Point] = [:]
    /// The centroid of the last tap's fingers as they lifted: where a tap of several fingers
    /// was (the last finger alone, which is all that is left as the tap ends, is not).
    private var tapPoint: Point?
    private var mostFingers = 0
    private var tapStart = 0.0
    /// The previous tap's end: the next must land near it and end in time.
    private var previousTap: (point: Point, time: Double)?

    open override func touchesBegan(_ touches: [Touch]) {
        if landed.isEmpty {
            tapStart = touches[0].timestamp
            mostFingers = 0
            lastSeen = [:]
            if let previous = previousTap, (touches[0].location - previous.point).length > maximumDistanceBetweenTaps {
                state = .failed
                return
            }
        }
        for t in touches {
            landed[t.id] = t.location
            lastSeen[t.id] = t.location
        }
        mostFingers = max(mostFingers, landed.count)
        if mostFingers > numberOfTouchesRequired { state = .failed }
    }

    open override func touchesMoved(_ touches: [Touch]) {
        for t in touches {
            if lastSeen[t.id] != nil { lastSeen[t.id] = t.location }
            if let start = landed[t.id], (t.location - start).length > allowableMovement {
                state = .failed
                return
            }
        }
    }

    open override func touchesEnded(_ touches: [Touch]) {
        guard state == .possible else { return }
        let t = touches[0].timestamp
        for touch in touches where lastSeen[touch.id] != nil { lastSeen[touch.id] = touch.location }
        // The tap is over when every finger of it has lifted.
        guard self.touches.isEmpty else { return }
        let point =
            lastSeen.isEmpty
            ? lastLocation : lastSeen.values.reduce(Point.zero, +) * (1 / Double(lastSeen.count))
        tapPoint = point
        landed = [:]
        guard mostFingers == numberOfTouchesRequired, t - tapStart <= maximumTapDuration + 1e-9 else {
            state = .failed
            return
        }
        if let previous = previousTap, t - previous.time > maximumIntervalBetweenTaps + 1e-9 {
            state = .failed
            return
        }
        tapsCompleted += 1
        if tapsCompleted >= numberOfTapsRequired {
            state = .recognized
            return
        }
        previousTap = (point, t)
        // No next tap ending in time: the sequence fails then (each tap sets the deadline anew).
        cancelScheduledTimers()
        schedule(at: t + maximumIntervalBetweenTaps) { [weak self] in
            guard let self, self.state == .possible else { return }
            self.state = .failed
        }
    }

    open override func touchesCancelled(_ touches: [Touch]) { state = .failed }

    open override var waitsForMoreTouches: Bool { tapsCompleted > 0 && hasPendingTimer }

    /// While fingers are down, their centroid; after a tap, the centroid of its fingers as they
    /// lifted (UIKit's tap location), not the last finger's alone.
    open override func location(in view: View?) -> Point {
        guard touches.isEmpty, let p = tapPoint else { return super.location(in: view) }
        return view?.convert(p, from: nil) ?? p
    }

    /// A single tap of one finger is what a button's press is.
    open override var overlapsControlActions: Bool { numberOfTapsRequired == 1 && numberOfTouchesRequired == 1 }

    open override func reset() {
        super.reset()
        tapsCompleted = 0
        landed = [:]
        lastSeen = [:]
        mostFingers = 0
        previousTap = nil
    }
}

/// A press held in place (UIKit's `UILongPressGestureRecognizer`). Continuous: begins once
/// `numberOfTouchesRequired` fingers have been down `minimumPressDuration` without moving more
/// than `allowableMovement`; then follows them (changed) until one lifts (ended). Lifting or
/// moving too far before then fails it.
open class LongPressGestureRecognizer: GestureRecognizer {
    public var minimumPressDuration = TapTiming.longPressDuration
    public var numberOfTouchesRequired = 1
    public var allowableMovement = PanTracker.touchSlop

    private var landed: [Int: Point] = [:]

    open override func touchesBegan(_ touches: [Touch]) {
        guard state == .possible else { return }
        for t in touches { landed[t.id] = t.location }
        if landed.count > numberOfTouchesRequired {
            state = .failed
            return
        }
        guard landed.count == numberOfTouchesRequired else { return }
        let due = touches[0].timestamp + minimumPressDuration
        schedule(at: due) { [weak self] in
            guard let self, self.state == .possible, self.numberOfTouches == self.numberOfTouchesRequired else {
                return
            }
            self.state = .began
        }
    }

    open override func touchesMoved(_ touches: [Touch]) {
        switch state {
        case .possible:
            for t in touches {
                if let start = landed[t.id], (t.location - start).length > allowableMovement {
                    state = .failed
                    return
                }
            }
        case .began, .changed:
            state = .changed
        default:
            break
        }
    }

    open override func touchesEnded(_ touches: [Touch]) {
        switch state {
        case .possible: state = .failed
        case .began, .changed: state = .ended
        default: break
        }
    }

    open override func touchesCancelled(_ touches: [Touch]) {
        switch state {
        case .possible: state = .failed
        case .began, .changed: state = .cancelled
        default: break
        }
    }

    open override func reset() {
        super.reset()
        landed = [:]
    }
}

/// The directions a swipe may go (and an edge pan may start from: `RectEdges`).
public struct SwipeDirection: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let right = SwipeDirection(rawValue: 1)
    public static let left = SwipeDirection(rawValue: 2)
    public static let up = SwipeDirection(rawValue: 4)
    public static let down = SwipeDirection(rawValue: 8)
}

/// A quick stroke in one direction (UIKit's `UISwipeGestureRecognizer`). Discrete: recognized
/// once the fingers' centroid has travelled `minimumDistance` along an allowed `direction`
/// within `maximumDuration` of landing, the stroke's other axis staying under half of it (the
/// scroll view's directional-lock ratio). A stroke that leaves the slop along another axis,
/// runs out of time or lifts short fails.
open class SwipeGestureRecognizer: GestureRecognizer {
    public var direction: SwipeDirection = .right
    public var numberOfTouchesRequired = 1
    public var minimumDistance = 50.0
    public var maximumDuration = 0.5

    private var start: Point?
    private var startTime = 0.0

    open override func touchesBegan(_ touches: [Touch]) {
        guard state == .possible else { return }
        if start == nil {
            startTime = touches[0].timestamp
            schedule(at: startTime + maximumDuration) { [weak self] in
                guard let self, self.state == .possible else { return }
                self.state = .failed
            }
        }
        if numberOfTouches > numberOfTouchesRequired {
            state = .failed
            return
        }
        // The stroke is measured from the centroid once every finger is down.
        start = location(in: nil)
    }

    open override func touchesMoved(_ touches: [Touch]) {
        guard state == .possible, let start, numberOfTouches == numberOfTouchesRequired else { return }
        let d = location(in: nil) - start
        let horizontal = abs(d.x) >= abs(d.y)
        let along = horizontal ? d.x : d.y
        let across = horizontal ? d.y : d.x
        let dir: SwipeDirection = horizontal ? (along > 0 ? .right : .left) : (along > 0 ? .down : .up)
        if d.length > PanTracker.touchSlop, !direction.contains(dir) || abs(across) >= PanTracker.lockRatio * abs(along)
        {
            state = .failed
            return
        }
        if abs(along) >= minimumDistance, touches[0].timestamp - startTime <= maximumDuration + 1e-9 {
            state = .recognized
        }
    }

    open override func touchesEnded(_ touches: [Touch]) { if state == .possible { state = .failed } }
    open override func touchesCancelled(_ touches: [Touch]) { if state == .possible { state = .failed } }

    open override func reset() {
        super.reset()
        start = nil
    }
}
