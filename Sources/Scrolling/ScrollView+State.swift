import ScrollwayGeometry
import ScrollwayPhysics
import ScrollwayViews

/// A programmatic animation: the curve, and what it is heading for when the range changes on
/// the way (rows measured as they come into view move the end and the content).
struct ScrollAnimation {
    var motion: Motion
    var goal: Goal

    enum Goal: Equatable {
        /// A given offset (`setContentOffset`, arrow and page keys, the wheel, a zoom): it
        /// follows the content if the content shifts, and stays inside the range.
        case offset
        /// The end (the End key): it follows the end as the range changes.
        case end
        /// The top (Home, scroll to top): it keeps aiming at the top; `announces` sends
        /// `scrollViewDidScrollToTop` when it arrives (the scroll-to-top gesture does).
        case top(announces: Bool)
    }
}

/// What a scroll view is doing, as one value. Each case carries what that state needs and
/// nothing else, so states that cannot exist together cannot be written (a drag and a
/// fling, a pinch and a touchpad scroll). `ScrollView.transition(to:)` is the only place it
/// changes; the `is*` properties and `phase` are read from it.
///
/// Whatever holds the content (fingers, the touchpad) excludes whatever moves it on its own
/// (a curve), with one exception UIKit also has: a programmatic animation (an app's
/// `setContentOffset(animated:)`, a key, the wheel) may run while a finger rests on the view
/// without dragging; the drag, if one begins, stops it.
enum ScrollState {
    /// Nothing holds or moves the content.
    case idle
    /// A finger (or the mouse, in kiosk mode) is down and has not crossed the slop: the content
    /// may still get the touch. A pinch that began from it is inside the touch state.
    case tracking(TouchState, animation: ScrollAnimation?)
    /// A finger or mouse drag moves the content (`anchor − translation`, banded).
    case dragging(TouchState)
    /// Touchpad fingers move the content (axis events until every axis has stopped).
    case touchpadScrolling(TouchpadState)
    /// A touchpad pinch (pointer gestures).
    case touchpadPinching(PinchState)
    /// The fingers of a drag lifted: the release is being decided (`willEndDragging` is asked;
    /// `isDragging` is still true, as in UIKit). `dragStart` bounds a paging release to ±1 page.
    case releasing(dragStart: Point?)
    /// Gliding after a release, told to the delegate: a fling (it may bounce at an edge on the
    /// way) or the spring onto a page. Ends with `didEndDecelerating`.
    case decelerating(Motion)
    /// Springing back inside the range, or onto the nearest page, when nothing released it (a
    /// touch that lifted without dragging, a range that changed): no delegate calls.
    case bouncing(Motion)
    /// A programmatic animation: a spring, wheel steps, or a zoom. Springs end with
    /// `didEndScrollingAnimation`, zooms with `didEndZooming`; wheel steps end silently.
    case animating(ScrollAnimation)
    /// The zoom springing back from beyond a limit after a pinch (`isZoomBouncing`).
    case zoomBouncing(ZoomMotion)

    /// The curve that moves the offset, if any.
    var motion: Motion {
        switch self {
        case .tracking(_, let a): return a?.motion ?? .idle
        case .decelerating(let m), .bouncing(let m): return m
        case .animating(let a): return a.motion
        case .zoomBouncing(let z): return .zoom(z)
        case .idle, .dragging, .touchpadScrolling, .touchpadPinching, .releasing: return .idle
        }
    }

    /// The same state with its curve replaced (a re-aim keeps the state and the goal).
    func withMotion(_ m: Motion) -> ScrollState {
        switch self {
        case .tracking(let s, let a?): return .tracking(s, animation: ScrollAnimation(motion: m, goal: a.goal))
        case .decelerating: return .decelerating(m)
        case .bouncing: return .bouncing(m)
        case .animating(let a): return .animating(ScrollAnimation(motion: m, goal: a.goal))
        case .zoomBouncing:
            if case .zoom(let z) = m { return .zoomBouncing(z) }
            return .bouncing(m)
        default: return self
        }
    }

    /// The programmatic animation running, if any (its goal decides how it re-aims).
    var animation: ScrollAnimation? {
        switch self {
        case .tracking(_, let a): return a
        case .animating(let a): return a
        default: return nil
        }
    }

    /// The touch this view tracks (a finger or the mouse), dragging or not.
    var touch: TouchState? {
        switch self {
        case .tracking(let s, _), .dragging(let s): return s
        default: return nil
        }
    }

    /// The state left when the motion ends or stops: what holds the content stays.
    var withoutMotion: ScrollState {
        switch self {
        case .tracking(let s, _): return .tracking(s, animation: nil)
        case .decelerating, .bouncing, .animating, .zoomBouncing: return .idle
        default: return self
        }
    }
}

extension ScrollView {
    // MARK: Reading the state (UIKit's flags, all computed from `state`)

    /// A finger (or the mouse) is down on the view, dragging or not.
    public var isTracking: Bool { state.touch != nil }

    /// The content follows the fingers (touch or touchpad), up to the moment the release is
    /// decided.
    public var isDragging: Bool {
        switch state {
        case .dragging, .touchpadScrolling, .releasing: return true
        default: return false
        }
    }

    /// Gliding after a release (fling or page spring), until `didEndDecelerating`.
    public var isDecelerating: Bool {
        if case .decelerating = state { return true }
        return false
    }

    /// Two fingers or a touchpad pinch are zooming.
    public var isZooming: Bool {
        if case .touchpadPinching = state { return true }
        return state.touch?.pinch?.began == true
    }

    /// The zoom springs back from beyond a limit.
    public var isZoomBouncing: Bool {
        if case .zoomBouncing = state { return true }
        return false
    }

    /// A programmatic scroll animates the offset (`setContentOffset(_:animated: true)`,
    /// `scrollRectToVisible`, scroll to top, keys, wheel steps), until it ends or is stopped.
    public var isScrollAnimating: Bool {
        let animation: ScrollAnimation?
        switch state {
        case .animating(let a): animation = a
        case .tracking(_, let a): animation = a
        default: animation = nil
        }
        guard let animation else { return false }
        if case .zoom = animation.motion { return false }
        return true
    }

    /// A programmatic zoom animates the scale (a double tap, `zoom(to:animated: true)`,
    /// `setZoomScale(_:animated: true)`); the spring back after a pinch is `isZoomBouncing`.
    public var isZoomAnimating: Bool {
        if case .animating(let a) = state, case .zoom = a.motion { return true }
        return false
    }

    /// What moves the offset between frames.
    var motion: Motion { state.motion }

    /// A drag, touchpad scroll or pinch owns the offset right now (a resting finger does not;
    /// two fingers that may yet pinch do).
    var isHeldByGesture: Bool { isDragging || state.touch?.pinch != nil || isZooming }

    /// Fingers hold the content, resting or moving: it must not spring anywhere on its own.
    var holdsContent: Bool { isTracking || isHeldByGesture }

    /// The tracked touch, read and updated in place (its case stays). Setting it outside a
    /// touch state is a programming error: touches begin and end through transitions.
    var touchState: TouchState? {
        get { state.touch }
        set {
            guard let newValue else { preconditionFailure("a touch ends through endTouch()") }
            switch state {
            case .tracking(_, let a): transition(to: .tracking(newValue, animation: a))
            case .dragging: transition(to: .dragging(newValue))
            default: preconditionFailure("no touch to update in \(state)")
            }
        }
    }

    /// The two-finger pinch, which rides on the tracked touch.
    var pinch: PinchState? {
        get { state.touch?.pinch }
        set { touchState?.pinch = newValue }
    }

    /// The touchpad scroll in progress, updated in place.
    var touchpad: TouchpadState? {
        get {
            if case .touchpadScrolling(let pad) = state { return pad }
            return nil
        }
        set {
            guard let newValue, case .touchpadScrolling = state else {
                preconditionFailure("a touchpad scroll begins and ends through transitions")
            }
            transition(to: .touchpadScrolling(newValue))
        }
    }

    /// The touchpad pinch in progress, updated in place.
    var touchpadPinch: PinchState? {
        get {
            if case .touchpadPinching(let p) = state { return p }
            return nil
        }
        set {
            guard let newValue, case .touchpadPinching = state else {
                preconditionFailure("a touchpad pinch begins and ends through transitions")
            }
            transition(to: .touchpadPinching(newValue))
        }
    }

    // MARK: Transitions

    /// Starts driving a curve from the window's frames, in the state `next` names
    /// (`.decelerating`, `.bouncing`, `.animating`, `.zoomBouncing`). A programmatic animation
    /// started while a finger rests runs beside it; any other curve waits until nothing holds
    /// the content (its callers check).
    func run(_ next: ScrollState) {
        motionGeneration &+= 1
        if case .tracking(let s, _) = state {
            guard case .animating(let a) = next else {
                assertionFailure("only a programmatic animation runs under a resting finger, not \(next)")
                return
            }
            transition(to: .tracking(s, animation: a))
            return
        }
        assert(!holdsContent, "a curve cannot start while \(state) holds the content")
        transition(to: next)
    }

    /// The fingers of a touch left (lifted, cancelled, handed on): a drag becomes a release to
    /// decide, a resting finger's animation runs on alone. Returns whether it was dragging.
    /// The pan recognizer ends (or is cancelled) with a drag.
    @discardableResult
    func endTouch(cancelled: Bool = false) -> Bool {
        switch state {
        case .tracking(_, let a):
            transition(to: a.map { .animating($0) } ?? .idle)
            return false
        case .dragging(let s):
            transition(to: .releasing(dragStart: s.dragStart))
            panDidEnd(cancelled: cancelled)
            return true
        default:
            return false
        }
    }

    // MARK: Notifications

    /// Tells the observer (traces, tests) and then the delegate of one event: every delegate
    /// callback goes through here, so the two can never disagree.
    func notify(_ event: ScrollEvent) {
        eventObserver?(self, event)
        notifyEventObservers(event)
        if case .didEndDecelerating = event { announcePageIfTurned() }
        guard let delegate else { return }
        switch event {
        case .didScroll: delegate.scrollViewDidScroll(self)
        case .didZoom: delegate.scrollViewDidZoom(self)
        case .willBeginDragging: delegate.scrollViewWillBeginDragging(self)
        case .willEndDragging(let velocity, let target):
            var target = target
            delegate.scrollViewWillEndDragging(self, withVelocity: velocity, targetContentOffset: &target)
        case .didEndDragging(let decelerate): delegate.scrollViewDidEndDragging(self, willDecelerate: decelerate)
        case .willBeginDecelerating: delegate.scrollViewWillBeginDecelerating(self)
        case .didEndDecelerating: delegate.scrollViewDidEndDecelerating(self)
        case .didEndScrollingAnimation: delegate.scrollViewDidEndScrollingAnimation(self)
        case .willBeginZooming: delegate.scrollViewWillBeginZooming(self, with: zoomView)
        case .didEndZooming(let scale): delegate.scrollViewDidEndZooming(self, with: zoomView, atScale: scale)
        case .didScrollToTop: delegate.scrollViewDidScrollToTop(self)
        case .didChangeAdjustedContentInset: delegate.scrollViewDidChangeAdjustedContentInset(self)
        }
    }

    /// `willEndDragging`, whose target the delegate may change: the observer sees the proposed
    /// target, the release uses the delegate's.
    func notifyWillEndDragging(velocity: Point, target: inout Point) {
        let proposed = ScrollEvent.willEndDragging(velocity: velocity, targetContentOffset: target)
        eventObserver?(self, proposed)
        notifyEventObservers(proposed)
        delegate?.scrollViewWillEndDragging(self, withVelocity: velocity, targetContentOffset: &target)
    }
}
