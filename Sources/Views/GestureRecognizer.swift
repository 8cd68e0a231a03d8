import ScrollwayGeometry

/// What an app says about its recognizers' coordination (UIKit's
/// `UIGestureRecognizerDelegate`). Every method has a default: begin, receive every touch, and
/// neither recognize together with nor wait for another recognizer.
@MainActor
public protocol GestureRecognizerDelegate: AnyObject {
    /// Asked when `recognizer` would leave `.possible` for `.began` (or `.recognized`): no makes
    /// it fail instead.
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool
    /// Whether `recognizer` and `other` may both recognize the same touches. Either side's
    /// delegate saying yes is enough (as in UIKit).
    func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool
    /// Whether `recognizer` waits for `other` to fail before it recognizes (asked each time it
    /// would recognize; `require(toFail:)` is the fixed form).
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool
    /// Whether `other` waits for `recognizer` to fail before it recognizes.
    func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer
    )
        -> Bool
    /// Whether `recognizer` is told of `touch` at all (asked once, when the touch lands).
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool
}

extension GestureRecognizerDelegate {
    public func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { true }
    public func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool { false }
    public func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer
    )
        -> Bool
    { false }
    public func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer
    )
        -> Bool
    { false }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool { true }
}

/// A gesture as an object, with UIKit's model (`UIGestureRecognizer`): attached to a view, it
/// is told of every touch that lands in that view or its subviews before the view is, decides
/// in its own time what the touches mean, and the window arbitrates between the recognizers
/// that share touches.
///
/// - A **discrete** recognizer (tap, swipe) goes from `.possible` to `.recognized` (or
///   `.failed`) once; a **continuous** one (pan, pinch, long press) to `.began`, `.changed`…,
///   then `.ended` or `.cancelled`. Actions run on every state but `.possible` and `.failed`.
/// - The first recognizer to begin makes the others sharing its touches fail, unless a delegate
///   lets the two recognize simultaneously; `require(toFail:)` makes one wait until another
///   fails (and fail if it recognizes).
/// - `cancelsTouchesInView`: when it recognizes, the views under its touches get a cancel and
///   hear no more of them. `delaysTouchesBegan` holds the views' began while it may still
///   recognize; `delaysTouchesEnded` holds their end while it may (a tap waiting for a second).
/// - Once its touches are gone and it ended, failed or was cancelled, it is reset to
///   `.possible`.
///
/// Subclasses set `state` from the touch methods, as UIKit's subclasses do; time comes only
/// from the touches' timestamps and the window's timers (`schedule(at:_:)`), so scripts replay
/// them exactly.
@MainActor
open class GestureRecognizer {
    public enum State: String, Hashable, Sendable {
        case possible, began, changed, ended, cancelled, failed
        /// A discrete recognizer's success: the same state as `.ended`, as in UIKit.
        public static let recognized = State.ended
    }

    /// The recognizer's state. Subclasses set it as the touches decide; setting it does what
    /// UIKit does: `gestureRecognizerShouldBegin` is asked on leaving `.possible`, a recognizer
    /// that must wait for another's failure waits (it stays `.possible` until then), others
    /// that share the touches fail, the views' touches are cancelled, and the actions run.
    public var state: State {
        get { storedState }
        set { requestState(newValue) }
    }
    var storedState: State = .possible

    /// The view it is attached to (`View.addGestureRecognizer`).
    public internal(set) weak var view: View?
    public weak var delegate: (any GestureRecognizerDelegate)?
    /// A name for traces (`recognizer` records) and for finding it; nil is not traced.
    public var name: String?
    /// Off: it is told of no touches, and one in progress is cancelled (or fails).
    public var isEnabled = true {
        didSet {
            guard !isEnabled, oldValue else { return }
            switch storedState {
            case .began, .changed: requestState(.cancelled)
            case .possible where isInvolved: requestState(.failed)
            default: break
            }
        }
    }
    /// Which touches it hears of (UIKit's `allowedTouchTypes`): fingers and the mouse's left
    /// button by default; a kiosk's staff gesture takes fingers only.
    public var allowedTouchSources: Set<Touch.Source> = [.finger, .mouse]
    /// Whether the views under its touches get a cancel when it recognizes (UIKit: true).
    public var cancelsTouchesInView = true
    /// Whether the views' began is held while it may still recognize (UIKit: false).
    public var delaysTouchesBegan = false
    /// Whether the views' end is held while it may still recognize (UIKit: true).
    public var delaysTouchesEnded = true

    /// The touches it is following now (window coordinates), in the order they landed.
    public private(set) var touches: [Touch] = []
    /// Recognizers that must fail before this one may recognize (`require(toFail:)`).
    var requiredToFail: [Weak<GestureRecognizer>] = []
    /// The state it asked for while waiting for a required recognizer to fail.
    var pendingState: State?
    /// Whether it has heard of a touch since it was last reset (it takes part in arbitration).
    public internal(set) var isInvolved = false
    /// Set by a view that feeds it touches itself (a scroll view's own pan and pinch): the
    /// window arbitrates it with the others but does not deliver touches to it.
    package var isDrivenByOwner = false
    private var actions: [(id: Int, body: @MainActor (GestureRecognizer) -> Void)] = []
    private var nextActionID = 0
    private var timers: [TimerToken] = []

    /// - Parameter action: run on each state change that matters (began, changed, ended,
    ///   cancelled; recognized for a discrete one).
    public init(action: (@MainActor (GestureRecognizer) -> Void)? = nil) {
        if let action { addAction(action) }
    }

    /// Adds an action; the token removes it (`removeAction`).
    @discardableResult
    public func addAction(_ body: @escaping @MainActor (GestureRecognizer) -> Void) -> Int {
        nextActionID += 1
        actions.append((nextActionID, body))
        return nextActionID
    }

    public func removeAction(_ token: Int) { actions.removeAll { $0.id == token } }

    /// This recognizer recognizes only once `other` has failed, and fails if `other`
    /// recognizes: a single tap that waits for a double tap, a scroll view's pan that waits
    /// for an app's own gesture.
    public func require(toFail other: GestureRecognizer) {
        precondition(other !== self, "a gesture recognizer cannot wait for its own failure")
        requiredToFail.removeAll { $0.value == nil || $0.value === other }
        requiredToFail.append(Weak(other))
    }

    /// The number of touches it follows.
    public var numberOfTouches: Int { touches.count }

    /// The centroid of its touches in `view`'s coordinates (nil: the window's).
    open func location(in view: View?) -> Point {
        guard !touches.isEmpty else { return view?.convert(lastLocation, from: nil) ?? lastLocation }
        let sum = touches.reduce(Point.zero) { $0 + $1.location }
        let centroid = sum * (1 / Double(touches.count))
        return view?.convert(centroid, from: nil) ?? centroid
    }

    /// Touch `index`'s location in `view`'s coordinates.
    public func location(ofTouch index: Int, in view: View?) -> Point {
        let p = touches[index].location
        return view?.convert(p, from: nil) ?? p
    }

    /// Where its touches were last seen together (the centroid when the last one lifted).
    public private(set) var lastLocation = Point.zero

    // MARK: For subclasses

    /// Touches landed in its view (or a subview).
    open func touchesBegan(_ touches: [Touch]) {}
    open func touchesMoved(_ touches: [Touch]) {}
    /// Touches lifted; they are no longer in `touches`.
    open func touchesEnded(_ touches: [Touch]) {}
    open func touchesCancelled(_ touches: [Touch]) {}
    /// Back to `.possible`: forget the gesture. Subclasses call super.
    open func reset() {}
    /// Whether this recognizer, recognizing, makes `other` fail (UIKit's `canPrevent`).
    open func canPrevent(_ other: GestureRecognizer) -> Bool { true }
    /// Whether `other`, recognizing, makes this one fail.
    open func canBePrevented(by other: GestureRecognizer) -> Bool { true }
    /// Whether this recognizer waits for `other` to fail (a subclass's own rule).
    open func shouldRequireFailure(of other: GestureRecognizer) -> Bool { false }
    /// Whether `other` waits for this recognizer to fail.
    open func shouldBeRequiredToFail(by other: GestureRecognizer) -> Bool { false }
    /// Whether it recognizes what a button's or a switch's own press does (a single one-finger
    /// tap): then a touch that lands on such a control below its view is the control's, not its
    /// (`Window.recognizersBegin`). A subclass that should take a control's taps too says false.
    open var overlapsControlActions: Bool { false }
    /// Whether, once its touches have all lifted in `.possible`, it still waits for more (a
    /// tap that needs a second tap, with its timer running); otherwise it fails then.
    open var waitsForMoreTouches: Bool { false }

    /// Runs `body` at `time` on the window's clock unless the recognizer is reset first.
    public func schedule(at time: Double, _ body: @escaping @MainActor () -> Void) {
        guard let window = view?.window else { return }
        var token: TimerToken?
        token = window.schedule(at: time) { [weak self] in
            guard let self else { return }
            self.timers.removeAll { $0 == token }
            body()
        }
        if let token { timers.append(token) }
    }

    /// Whether a timer it scheduled is still due.
    public var hasPendingTimer: Bool { !timers.isEmpty }

    /// Cancels the timers it scheduled (a tap sequence that goes on needs a new deadline).
    public func cancelScheduledTimers() {
        if let window = view?.window { for t in timers { window.cancelTimer(t) } }
        timers = []
    }

    /// The window's current time (seconds): the latest event's or frame's.
    public var now: Double { view?.window?.now ?? touches.last?.timestamp ?? 0 }

    // MARK: Plumbing (the window calls these)

    func deliverBegan(_ new: [Touch]) {
        isInvolved = true
        touches += new
        updateLastLocation()
        if !isDrivenByOwner { touchesBegan(new) }
    }

    func deliverMoved(_ moved: [Touch]) {
        for m in moved {
            if let i = touches.firstIndex(where: { $0.id == m.id }) { touches[i] = m }
        }
        updateLastLocation()
        if !isDrivenByOwner { touchesMoved(moved) }
    }

    func deliverEnded(_ ended: [Touch], cancelled: Bool) {
        updateLastLocation()
        touches.removeAll { t in ended.contains { $0.id == t.id } }
        if !isDrivenByOwner {
            if cancelled { touchesCancelled(ended) } else { touchesEnded(ended) }
        }
        guard touches.isEmpty else { return }
        // Still undecided with nothing left to wait for (and not just reset by recognizing).
        if isInvolved, storedState == .possible, pendingState == nil, !waitsForMoreTouches,
            !hasPendingTimer || cancelled
        {
            requestState(.failed)
        }
        resetIfFinished()
    }

    private func updateLastLocation() {
        guard !touches.isEmpty else { return }
        lastLocation = touches.reduce(Point.zero) { $0 + $1.location } * (1 / Double(touches.count))
    }

    /// Resets once it is over (ended, cancelled or failed) and its touches are gone.
    func resetIfFinished() {
        guard touches.isEmpty, storedState == .ended || storedState == .cancelled || storedState == .failed else {
            return
        }
        cancelScheduledTimers()
        pendingState = nil
        isInvolved = false
        storedState = .possible
        reset()
        view?.window?.gestureRecognizerDidChangeState(self)
    }

    /// Cuts its touches off at once (its view left the window, or it was removed from it).
    func abandon() {
        switch storedState {
        case .began, .changed: applyState(.cancelled)
        case .possible where isInvolved: applyState(.failed)
        default: break
        }
        touches = []
        resetIfFinished()
    }

    func requestState(_ new: State) {
        if let window = view?.window {
            window.gestureRecognizer(self, requests: new)
        } else {
            applyState(new)
            resetIfFinished()
        }
    }

    /// Sets the state and (unless told not to) runs the actions (the window has arbitrated).
    func applyState(_ new: State, runsActions: Bool = true) {
        guard new != storedState || new == .changed else { return }
        storedState = new
        if new != .failed { pendingState = nil }
        view?.window?.gestureRecognizerDidChangeState(self)
        if runsActions { runActions() }
    }

    /// Runs the actions for the current state (none for possible and failed).
    func runActions() {
        guard storedState != .possible, storedState != .failed else { return }
        for a in actions { a.body(self) }
    }

    /// Whether this recognizer may be recognized alongside `other` (either delegate says so).
    func recognizesSimultaneously(with other: GestureRecognizer) -> Bool {
        delegate?.gestureRecognizer(self, shouldRecognizeSimultaneouslyWith: other) == true
            || other.delegate?.gestureRecognizer(other, shouldRecognizeSimultaneouslyWith: self) == true
    }

    /// Whether this recognizer must wait for `other` to fail: `require(toFail:)`, the
    /// subclasses' rules, or either delegate.
    func waits(for other: GestureRecognizer) -> Bool {
        requiredToFail.contains { $0.value === other } || shouldRequireFailure(of: other)
            || other.shouldBeRequiredToFail(by: self)
            || delegate?.gestureRecognizer(self, shouldRequireFailureOf: other) == true
            || other.delegate?.gestureRecognizer(other, shouldBeRequiredToFailBy: self) == true
    }
}

/// A weak reference in a collection.
struct Weak<T: AnyObject> {
    weak var value: T?
    init(_ value: T) { self.value = value }
}
