import ScrollwayGeometry
import ScrollwayGestures

/// A drag (UIKit's `UIPanGestureRecognizer`). Continuous: begins when the centroid of
/// between `minimumNumberOfTouches` and `maximumNumberOfTouches` fingers crosses the slop
/// (10 px for fingers, 4 px for the mouse, as the scroll view's drag: `PanTracker`); changes
/// as they move; ends when the last lifts, or when fewer than the minimum remain.
///
/// `translation(in:)` is the centroid's travel since the pan began, `velocity(in:)` its speed
/// now (px/s) from the same velocity tracker as a fling. A finger joining or leaving moves the
/// centroid but not the translation.
open class PanGestureRecognizer: GestureRecognizer {
    public var minimumNumberOfTouches = 1
    public var maximumNumberOfTouches = Int.max

    /// The centroid's track: a scroll view that drives its own pan sets it from its drag.
    package var tracker: PanTracker?
    /// What `setTranslation` added, so that the translation reads as the app set it.
    private var translationOffset = Point.zero

    /// The centroid's travel since the pan began, in `view`'s coordinates (only its scale and
    /// direction matter: a translation is a difference of points).
    public func translation(in view: View?) -> Point {
        let t = (tracker?.translation ?? .zero) + translationOffset
        guard let view else { return t }
        return view.convert(t, from: nil) - view.convert(.zero, from: nil)
    }

    /// Makes the translation read `translation` from now on (an app that applies each change
    /// and resets it to zero).
    public func setTranslation(_ translation: Point, in view: View?) {
        let wanted = view.map { $0.convert(translation, to: nil) - $0.convert(.zero, to: nil) } ?? translation
        translationOffset = wanted - (tracker?.translation ?? .zero)
    }

    /// The centroid's velocity now (px/s), in `view`'s coordinates.
    public func velocity(in view: View?) -> Point {
        guard let tracker else { return .zero }
        let v = tracker.velocity(at: now)
        guard let view else { return v }
        return view.convert(v, from: nil) - view.convert(.zero, from: nil)
    }

    open override func touchesBegan(_ touches: [Touch]) {
        let c = location(in: nil)
        let t = touches[0].timestamp
        let landed = touches.map { (id: $0.id, position: $0.location) }
        if tracker == nil {
            let slop = touches[0].source == .mouse ? PanTracker.mouseSlop : PanTracker.touchSlop
            tracker = PanTracker(at: c, time: t, slop: slop)
            if landed.count > 1 { tracker?.land(landed, alone: nil, centroid: c, time: t) }
        } else {
            // The centroid jumps as a finger joins: not a motion.
            // The finger it followed by itself until now, if it did.
            let before = self.touches.filter { t in !landed.contains { $0.id == t.id } }
            tracker?.land(landed, alone: before.count == 1 ? before[0].id : nil, centroid: c, time: t)
        }
        if numberOfTouches > maximumNumberOfTouches, state == .possible { state = .failed }
    }

    open override func touchesMoved(_ touches: [Touch]) {
        guard var tracker else { return }
        for t in touches { tracker.note(finger: t.id, at: t.location, time: t.timestamp) }
        let crossed = tracker.move(to: location(in: nil), time: touches[0].timestamp)
        self.tracker = tracker
        switch state {
        case .possible:
            guard tracker.isDragging, (minimumNumberOfTouches...maximumNumberOfTouches).contains(numberOfTouches) else {
                return
            }
            if !crossed {
                // The slop was crossed with too few fingers: the pan starts from here.
                translationOffset = .zero - tracker.translation
            }
            state = .began
        case .began, .changed:
            state = .changed
        default:
            break
        }
    }

    open override func touchesEnded(_ touches: [Touch]) { fingersLeft(touches, cancelled: false) }
    open override func touchesCancelled(_ touches: [Touch]) { fingersLeft(touches, cancelled: true) }

    private func fingersLeft(_ touches: [Touch], cancelled: Bool) {
        switch state {
        case .began, .changed:
            if cancelled {
                state = .cancelled
            } else if numberOfTouches < minimumNumberOfTouches {
                state = .ended
            } else {
                fingersLifted(touches)
            }
        case .possible:
            if numberOfTouches == 0 {
                state = .failed
            } else {
                fingersLifted(touches)
            }
        default:
            break
        }
    }

    /// Some fingers lifted, others stay: the pan goes on from their centroid, and the last one
    /// left throws its own motion (`PanTracker.lift`).
    private func fingersLifted(_ lifted: [Touch]) {
        let last = numberOfTouches == 1 ? self.touches[0].id : nil
        tracker?.lift(lifted.map(\.id), last: last, centroid: location(in: nil), time: lifted[0].timestamp)
    }

    open override func reset() {
        super.reset()
        tracker = nil
        translationOffset = .zero
    }
}

/// The window edges an edge pan may start from.
public struct RectEdges: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let top = RectEdges(rawValue: 1)
    public static let left = RectEdges(rawValue: 2)
    public static let bottom = RectEdges(rawValue: 4)
    public static let right = RectEdges(rawValue: 8)
    public static let all: RectEdges = [.top, .left, .bottom, .right]
}

/// A pan that starts at an edge of the window and moves away from it (UIKit's
/// `UIScreenEdgePanGestureRecognizer`): the first finger must land within `edgeWidth` of one
/// of `edges`, and the pan begins only if, at the slop, it moves inwards from that edge more
/// than along it.
open class ScreenEdgePanGestureRecognizer: PanGestureRecognizer {
    public var edges: RectEdges = []
    /// How near an edge (px) the finger must land.
    public var edgeWidth = 20.0

    private var fromEdge: RectEdges = []
    private var landing: Point?

    open override func touchesBegan(_ touches: [Touch]) {
        if landing == nil, let window = view?.window {
            let p = touches[0].location
            let b = window.bounds
            var near: RectEdges = []
            if p.x - b.minX <= edgeWidth { near.insert(.left) }
            if b.maxX - p.x <= edgeWidth { near.insert(.right) }
            if p.y - b.minY <= edgeWidth { near.insert(.top) }
            if b.maxY - p.y <= edgeWidth { near.insert(.bottom) }
            fromEdge = near.intersection(edges)
            landing = p
            if fromEdge.isEmpty {
                state = .failed
                return
            }
        }
        super.touchesBegan(touches)
    }

    open override func touchesMoved(_ touches: [Touch]) {
        if state == .possible, let landing, let tracker, !tracker.isDragging {
            var probe = tracker
            if probe.move(to: location(in: nil), time: touches[0].timestamp) {
                let d = location(in: nil) - landing
                let inward =
                    (fromEdge.contains(.left) && d.x > abs(d.y)) || (fromEdge.contains(.right) && -d.x > abs(d.y))
                    || (fromEdge.contains(.top) && d.y > abs(d.x)) || (fromEdge.contains(.bottom) && -d.y > abs(d.x))
                if !inward {
                    state = .failed
                    return
                }
            }
        }
        super.touchesMoved(touches)
    }

    open override func reset() {
        super.reset()
        fromEdge = []
        landing = nil
    }
}

/// Two fingers pinching (UIKit's `UIPinchGestureRecognizer`). Continuous: begins once the
/// distance between them has changed by more than the slop; `scale` is the distance over the
/// distance when the second finger landed, `velocity` its rate (per second). Ends when a finger
/// lifts. On a touchpad, the compositor's pinch (pointer gestures) drives it the same way over
/// the view under the pointer.
open class PinchGestureRecognizer: GestureRecognizer {
    /// The distance over the starting distance; an app may reset it (to 1) after applying it.
    public var scale = 1.0 {
        didSet { scaleBase = scale / max(rawScale, 1e-9) }
    }
    public private(set) var velocity = 0.0

    private var tracker: PinchTracker?
    /// The tracker's scale and when it was read: the velocity's last sample.
    private var rawScale = 1.0
    private var sampleTime = 0.0
    private var scaleBase = 1.0

    open override func touchesBegan(_ touches: [Touch]) {
        guard state == .possible else { return }
        if numberOfTouches > 2 {
            state = .failed
            return
        }
        if numberOfTouches == 2 {
            tracker = PinchTracker(self.touches[0].location, self.touches[1].location)
            sampleTime = touches[0].timestamp
        }
    }

    open override func touchesMoved(_ touches: [Touch]) {
        guard var tracker, numberOfTouches == 2 else { return }
        tracker.update(self.touches[0].location, self.touches[1].location)
        self.tracker = tracker
        let t = touches[0].timestamp
        update(raw: tracker.scale, at: t)
        switch state {
        case .possible:
            if abs(tracker.scale - 1) * tracker.startDistance > PanTracker.touchSlop { state = .began }
        case .began, .changed:
            state = .changed
        default:
            break
        }
    }

    /// Takes the pinch's raw scale at `t`: the velocity from the last sample, the app's scale.
    private func update(raw: Double, at t: Double) {
        if t > sampleTime { velocity = (raw - rawScale) * scaleBase / (t - sampleTime) }
        rawScale = raw
        sampleTime = t
        scale = raw * scaleBase
    }

    open override func touchesEnded(_ touches: [Touch]) { endPinch(cancelled: false) }
    open override func touchesCancelled(_ touches: [Touch]) { endPinch(cancelled: true) }

    private func endPinch(cancelled: Bool) {
        switch state {
        case .began, .changed: state = cancelled ? .cancelled : .ended
        case .possible where numberOfTouches < 2: state = .failed
        default: break
        }
    }

    /// A scroll view's own pinch: whether the scroll view zooms with a touchpad pinch over it
    /// now (it has a view to zoom), so that an ancestor's pinch recognizer does not take it.
    package var ownerTakesTouchpadPinch: (@MainActor () -> Bool)?

    /// A scroll view that drives its own pinch reports the fingers' scale (since they landed)
    /// at `time`.
    package func ownerReports(scale raw: Double, at time: Double) { update(raw: raw, at: time) }

    /// A touchpad pinch over its view (`InputEvent.pinchBegin/Update/End`): the compositor's
    /// cumulative scale drives it. Returns whether it took the event.
    func handleTouchpadPinch(_ kind: InputEvent.Kind, at time: Double) -> Bool {
        switch kind {
        case .pinchBegin:
            // Taken only if it may begin now: one that would have to wait leaves the pinch to
            // the views under it.
            guard state == .possible, !isInvolved, (view?.window?.decision(for: self) ?? .proceed) == .proceed else {
                return false
            }
            rawScale = 1
            scale = 1
            sampleTime = time
            state = .began
            return storedState == .began
        case .pinchUpdate(let s, _, _):
            guard storedState == .began || storedState == .changed else { return false }
            update(raw: s, at: time)
            state = .changed
            return true
        case .pinchEnd(let cancelled):
            guard storedState == .began || storedState == .changed else { return false }
            state = cancelled ? .cancelled : .ended
            return true
        default:
            return false
        }
    }

    open override func reset() {
        super.reset()
        tracker = nil
        velocity = 0
        rawScale = 1
        scale = 1
    }
}
