import ScrollwayPhysics

/// An animation an app can start, pause, scrub, reverse, stop and finish (UIKit's
/// `UIViewPropertyAnimator`): the interactive kind, where a page follows a finger
/// (`fractionComplete` set as it moves) and then goes on by itself to one end or back to the
/// other (`isReversed`, `continueAnimation`).
///
/// Its animations are closures that change views, as `View.animate`'s: each property they
/// change (center, bounds, frame, transform, alpha, background colour) moves from where it stood
/// to where they left it, the same tracks and the same rules (a property animated again or set
/// meanwhile leaves this animator's track). The closures run when the animator first becomes
/// active (`startAnimation`, `pauseAnimation`, or `fractionComplete` set), on the window of the
/// view it was made for; outside a window their changes are made at once and the animator
/// completes at its end.
///
/// Its progress is the share of the way its properties stand from start (0) to end (1), so
/// pausing, reading `fractionComplete` and scrubbing never jump. It runs along its curve
/// (`fractionComplete` reads where the curve is); scrubbed, the properties follow the fraction
/// set, linearly (UIKit's `scrubsLinearly`, its default); run again after a scrub, a reversal
/// or a new timing, it starts a new stretch of its curve from where it stands to the end it
/// heads for, over the share of its duration that is left (where UIKit's reversal runs the
/// same curve back).
@MainActor
public final class ViewPropertyAnimator {
    /// UIKit's `UIViewAnimatingState`.
    public enum State: Sendable {
        /// Not started, or over: its animations are not yet run, or done with.
        case inactive
        /// Its animations are running or paused.
        case active
        /// Stopped by `stopAnimation(false)`: the properties stay where they stood, waiting for
        /// `finishAnimation(at:)`.
        case stopped
    }

    /// UIKit's `UIViewAnimatingPosition`: where the animation ended.
    public enum Position: Sendable {
        case end, start, current
    }

    /// How a stretch of the animation follows its time.
    enum Timing {
        case curve(TimingCurve)
        /// A spring settled as its stretch ends (`SpringTiming`).
        case spring(dampingRatio: Double, initialVelocity: Double)
    }

    /// A stretch of the animation: from progress `from` to `to` over `duration` seconds from
    /// `start`, along `timing`.
    struct Stretch {
        let start: Double
        let from: Double
        let to: Double
        let duration: Double
        let timing: AnimationTiming

        /// Where the stretch stands at `time`, and whether it is over.
        func progress(at time: Double) -> (Double, over: Bool) {
            guard duration > 0 else { return (to, time >= start) }
            let f = (time - start) / duration
            if f >= 1 { return (to, true) }
            let eased: Double
            switch timing {
            case .curve(let curve): eased = curve.progress(at: f)
            case .spring(let spring): eased = spring.progress(at: f)
            }
            return (from + (to - from) * eased, false)
        }
    }

    /// The whole animation's length in seconds.
    public let duration: Double
    public private(set) var state: State = .inactive
    /// Whether the animation is moving by itself: started and neither paused nor over.
    public private(set) var isRunning = false
    /// When set, the animation stays active and paused at its end (or its start, reversed)
    /// rather than completing: an app may scrub it back or reverse it from there. Completions
    /// then wait for `stopAnimation(false)` and `finishAnimation(at:)`.
    public var pausesOnCompletion = false
    /// Each animation's progress where the curve stands, shown: 0 at the start, 1 at the end.
    var progress = 0.0

    private let timing: Timing
    private weak var view: View?
    private weak var window: Window?
    /// The animations not run yet, each with the share of the way it waits before it begins.
    private var pending: [(animations: () -> Void, delayFactor: Double)] = []
    private var completions: [(Position) -> Void] = []
    private var group: ViewAnimationGroup?
    /// Its tracks once stopped, for `finishAnimation(at:)` to put at an end.
    private var stoppedTracks: [ViewAnimator.Track] = []
    /// The stretch it runs on, or ran on until paused there.
    private var stretch: Stretch?
    /// The time into `stretch` at which it was paused, when it may run on along it.
    private var pausedInto: Double?

    /// An animator along `curve` (UIKit's default, ease-in-out) for the views of `view`'s window,
    /// with `animations` if given (more with `addAnimations`).
    public init(
        duration: Double, curve: TimingCurve = .easeInOut, for view: View, animations: (() -> Void)? = nil
    ) {
        self.duration = duration.isFinite ? max(0, duration) : 0
        timing = .curve(curve)
        self.view = view
        if let animations { pending.append((animations, 0)) }
    }

    /// An animator on a spring (`SpringTiming`: damping ratio 1 does not overshoot; lower rings).
    public init(
        duration: Double, dampingRatio: Double, initialVelocity: Double = 0, for view: View,
        animations: (() -> Void)? = nil
    ) {
        self.duration = duration.isFinite ? max(0, duration) : 0
        timing = .spring(dampingRatio: dampingRatio, initialVelocity: initialVelocity)
        self.view = view
        if let animations { pending.append((animations, 0)) }
    }

    /// An animator started at once, after `delay` (UIKit's `runningPropertyAnimator`).
    @discardableResult
    public static func runningPropertyAnimator(
        withDuration duration: Double, delay: Double = 0, curve: TimingCurve = .easeInOut, for view: View,
        animations: @escaping () -> Void, completion: ((Position) -> Void)? = nil
    ) -> ViewPropertyAnimator {
        let animator = ViewPropertyAnimator(duration: duration, curve: curve, for: view, animations: animations)
        if let completion { animator.addCompletion(completion) }
        animator.startAnimation(afterDelay: delay)
        return animator
    }

    /// Adds animations: before the animator is active, run with the others when it starts;
    /// while it is active, run now, their properties covering the rest of the way from where
    /// they stand, beginning once `delayFactor` of the way left is behind (0: at once). A
    /// stopped animator takes none (UIKit raises).
    public func addAnimations(_ animations: @escaping () -> Void, delayFactor: Double = 0) {
        let delay = delayFactor.isFinite ? min(1, max(0, delayFactor)) : 0
        switch state {
        case .inactive:
            pending.append((animations, delay))
        case .active:
            guard let group, let window, view?.window === window else {
                animations()
                return
            }
            let here = min(1, max(0, progress))
            window.animator.record(animations, into: group, base: here + (1 - here) * delay)
        case .stopped:
            break
        }
    }

    /// Adds a block run as the animation ends, told where it ended.
    public func addCompletion(_ completion: @escaping (Position) -> Void) {
        completions.append(completion)
    }

    /// How far along the animation is, 0 to 1 (see the type's note). Set while the animator is
    /// paused or inactive (which makes it active and paused), its properties go there at once;
    /// set while it runs, it is ignored, as UIKit's.
    public var fractionComplete: Double {
        get { min(1, max(0, progress)) }
        set {
            guard newValue.isFinite else { return }
            if state == .inactive { pauseAnimation() }
            guard state == .active, !isRunning, let group, let window else { return }
            progress = min(1, max(0, newValue))
            pausedInto = nil
            window.animator.apply(group, at: progress)
        }
    }

    /// Whether the animation heads back to its start. Set while it runs, it turns there from
    /// where it stands, over the share of its duration that way takes.
    public var isReversed = false {
        didSet {
            guard isReversed != oldValue, state == .active else { return }
            pausedInto = nil
            if isRunning, let window { run(from: window.now, factor: 1, timing: nil) }
        }
    }

    /// Starts the animation, or runs it on from where it was paused (or scrubbed to).
    public func startAnimation() { startAnimation(afterDelay: 0) }

    /// `startAnimation()` after `delay` seconds.
    public func startAnimation(afterDelay delay: Double) {
        let wait = delay.isFinite ? max(0, delay) : 0
        guard becomeActive(), !isRunning, let window else { return }
        if let stretch, let into = pausedInto {
            // Paused and left alone: on along the same stretch, as if never paused.
            self.stretch = Stretch(
                start: window.now + wait - into, from: stretch.from, to: stretch.to, duration: stretch.duration,
                timing: stretch.timing)
            pausedInto = nil
            isRunning = true
            window.addAnimation(window.animator)
        } else {
            run(from: window.now + wait, factor: 1, timing: nil)
        }
    }

    /// Stops the animation where it stands, to run on later (`startAnimation`,
    /// `continueAnimation`) or be scrubbed (`fractionComplete`). An inactive animator becomes
    /// active, paused at its start.
    public func pauseAnimation() {
        guard state == .active else {
            _ = becomeActive()
            return
        }
        guard isRunning, let window else { return }
        if let stretch {
            let (here, _) = stretch.progress(at: window.now)
            progress = here
            pausedInto = max(0, window.now - stretch.start)
            // Shown where it is read to be (the last frame showed it a little way back).
            if let group { window.animator.apply(group, at: here) }
        }
        isRunning = false
    }

    /// Runs a paused or running animation on to the end it heads for (its start when
    /// reversed), along `curve` if given (else its own), over `durationFactor` times the share
    /// of its duration that is left.
    public func continueAnimation(withCurve curve: TimingCurve? = nil, durationFactor: Double = 1) {
        continueAnimation(curve.map(Timing.curve), durationFactor)
    }

    /// `continueAnimation` on a spring from where the animation stands: `initialVelocity` in
    /// ways a second of the way left (a finger's speed divided by the distance left), so a
    /// page let go of in motion runs on without a jump in speed.
    public func continueAnimation(
        withSpringDamping dampingRatio: Double, initialVelocity: Double = 0, durationFactor: Double = 1
    ) {
        continueAnimation(.spring(dampingRatio: dampingRatio, initialVelocity: initialVelocity), durationFactor)
    }

    private func continueAnimation(_ timing: Timing?, _ durationFactor: Double) {
        guard becomeActive(), let window else { return }
        if isRunning { pauseAnimation() }
        let factor = durationFactor.isFinite ? max(0, durationFactor) : 1
        run(from: window.now, factor: factor, timing: timing)
    }

    /// Stops the animation with its properties where they stand: their values now are theirs.
    /// `withoutFinishing` true ends it there (inactive; its completions are not called); false
    /// leaves it stopped, for `finishAnimation(at:)` to end.
    public func stopAnimation(_ withoutFinishing: Bool) {
        guard state == .active else { return }
        if isRunning { pauseAnimation() }
        let tracks = group.flatMap { g in window?.animator.removeTracks(of: g) } ?? []
        group = nil
        stretch = nil
        pausedInto = nil
        if withoutFinishing {
            state = .inactive
            completions = []
        } else {
            state = .stopped
            stoppedTracks = tracks
        }
    }

    /// Ends a stopped animation: its properties at its end, its start, or where they stand;
    /// its completions are told which. An active animator is stopped first (UIKit raises).
    public func finishAnimation(at position: Position) {
        if state == .active { stopAnimation(false) }
        guard state == .stopped else { return }
        let tracks = stoppedTracks
        stoppedTracks = []
        if let window, position != .current { window.animator.put(tracks, atEnd: position == .end) }
        if position != .current { progress = position == .end ? 1 : 0 }
        complete(at: position)
    }

    // MARK: The window's side

    /// Whether the animator is active, made so if it was inactive (its animations run then); a
    /// stopped one is not (UIKit raises), nor one whose view had no window to animate in.
    private func becomeActive() -> Bool {
        switch state {
        case .stopped: false
        case .inactive: activate()
        case .active: true
        }
    }

    /// Runs the pending animations into a group of its own on the view's window; outside a
    /// window they are made at once and the animator completes at its end.
    private func activate() -> Bool {
        guard let window = view?.window else {
            let run = pending
            pending = []
            for p in run { p.animations() }
            progress = 1
            complete(at: .end)
            return false
        }
        self.window = window
        let group = ViewAnimationGroup(
            start: window.now, duration: duration, timing: .curve(.linear), completion: nil, driver: self)
        self.group = group
        let animator = window.animator
        let run = pending
        pending = []
        for p in run { animator.record(p.animations, into: group, base: p.delayFactor) }
        animator.groups.append(group)
        state = .active
        progress = 0
        return true
    }

    /// Runs from where the animation stands to the end it heads for, from `time`.
    private func run(from time: Double, factor: Double, timing: Timing?) {
        guard let window else { return }
        let to = isReversed ? 0.0 : 1.0
        let length = duration * factor * abs(to - progress)
        let timing: AnimationTiming =
            switch timing ?? self.timing {
            case .curve(let curve): .curve(curve)
            case .spring(let ratio, let velocity):
                .spring(SpringTiming(dampingRatio: ratio, initialVelocity: velocity, duration: length))
            }
        stretch = Stretch(start: time, from: progress, to: to, duration: length, timing: timing)
        pausedInto = nil
        isRunning = true
        window.addAnimation(window.animator)
    }

    /// The window's animator's frame: where the animation stands at `time`; true once it has
    /// arrived at the end it heads for.
    func advance(to time: Double) -> Bool {
        guard let stretch else { return false }
        let (here, over) = stretch.progress(at: time)
        progress = here
        return over
    }

    /// Arrived at an end: paused there, or completed there with its properties at that end.
    func arrive() {
        // A completion run earlier in the frame may have paused it, or turned or continued it
        // on a new stretch: it has not arrived then.
        guard state == .active, isRunning, let stretch, let window, stretch.progress(at: window.now).over else {
            return
        }
        progress = stretch.to
        if pausesOnCompletion {
            isRunning = false
            pausedInto = nil
            if let group { window.animator.apply(group, at: progress) }
            return
        }
        let atEnd = stretch.to >= 1
        let tracks = group.flatMap { g in window.animator.removeTracks(of: g) } ?? []
        window.animator.put(tracks, atEnd: atEnd)
        group = nil
        self.stretch = nil
        complete(at: atEnd ? .end : .start)
    }

    private func complete(at position: Position) {
        state = .inactive
        isRunning = false
        let run = completions
        completions = []
        for completion in run { completion(position) }
    }
}
