import ScrollwayGeometry
import ScrollwayPhysics
import ScrollwayRaster

extension View {
    /// Animates the changes `animations` makes to the views of this view's window
    /// (UIView.animate's role; any view of the window serves, the window too): each view's
    /// `center`, `bounds`, `frame` (its center and bounds), `transform`, `alpha` and
    /// `backgroundColor` that the closure leaves different moves there from where it stood
    /// over `duration` seconds, after `delay`, along `curve` (UIKit's default, ease-in-out).
    /// Only re-composited: a view moved or faded draws nothing again, and one resized draws at
    /// its new sizes as any resize does.
    ///
    /// Unlike UIKit's, whose properties read their final values at once while a presentation
    /// layer shows the way there, a view's properties read what is on screen: each frame sets
    /// them along the way (`animationTargets` gives the ends). Layout the closure asks for
    /// (`setNeedsLayout`) runs at the next frame, after it, and is not animated unless the
    /// closure runs it (`layoutIfNeeded()`), as in UIKit.
    ///
    /// A property animated again starts from where it stands, and its earlier animation ends
    /// unfinished; a property set outside an animation while one runs keeps the value set, and
    /// its animation ends unfinished; a view that leaves the window is put at its ends.
    /// `completion` runs once every property it animated has ended, with whether all of them
    /// reached their ends; with nothing to animate, at the next frame, finished. Outside a
    /// window the changes are made and `completion` runs at once, finished.
    ///
    /// `options` may make it repeat (for good, until set otherwise or removed: its completion
    /// then hears it did not finish) and go back the way it came each time (`.autoreverse`); an
    /// animation that goes there and back once ends, as UIKit's does, at the values the closure
    /// set.
    public func animate(
        withDuration duration: Double, delay: Double = 0, options: AnimationOptions = [],
        curve: TimingCurve = .easeInOut, animations: () -> Void, completion: ((Bool) -> Void)? = nil
    ) {
        startAnimation(duration, delay, options, .curve(curve), animations, completion)
    }

    /// `animate(withDuration:)` on a spring (UIKit's
    /// `animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:)`): each
    /// property follows `SpringTiming` with damping ratio `dampingRatio` (1: no overshoot;
    /// lower: it overshoots and rings) and initial velocity `velocity` (in whole ways a
    /// second), settled as the duration ends.
    public func animate(
        withDuration duration: Double, delay: Double = 0, usingSpringWithDamping dampingRatio: Double,
        initialSpringVelocity velocity: Double = 0, options: AnimationOptions = [], animations: () -> Void,
        completion: ((Bool) -> Void)? = nil
    ) {
        let spring = SpringTiming(dampingRatio: dampingRatio, initialVelocity: velocity, duration: duration)
        startAnimation(duration, delay, options, .spring(spring), animations, completion)
    }

    private func startAnimation(
        _ duration: Double, _ delay: Double, _ options: AnimationOptions, _ timing: AnimationTiming,
        _ animations: () -> Void, _ completion: ((Bool) -> Void)?
    ) {
        guard let window else {
            animations()
            completion?(true)
            return
        }
        let start = window.now + (delay.isFinite ? max(0, delay) : 0)
        let group = ViewAnimationGroup(
            start: start, duration: duration.isFinite ? max(0, duration) : 0, timing: timing, completion: completion)
        group.options = options
        let animator = window.animator
        animator.record(animations, into: group)
        animator.groups.append(group)
        window.addAnimation(animator)
    }

    /// Ends the animation of this view's center, if one runs, where the view stands (its
    /// completion hears it did not finish): a view put at a new place that happens to be where
    /// it stands on its way elsewhere stays there, where setting its center to the value it
    /// has would leave it on its way.
    package func removeCenterAnimation() {
        window?.viewAnimator?.stop(self, .center)
    }

    /// Moves the view by `delta` and its running slide with it, if one runs: both its ends move,
    /// so it goes on sliding as far as it had left, now to a place `delta` away (a row whose
    /// place a measurement moved while it slid; a row going out whose neighbours moved).
    package func moveWithAnimation(by delta: Point) {
        guard delta != .zero else { return }
        if let animator = window?.viewAnimator, animator.shift(self, by: { _ in delta }) { return }
        center = center + delta
    }

    /// Moves the view's running slide, with the view, so that it ends at `end`; false (nothing
    /// moved) when its center is not animated.
    package func moveSlide(endingAt end: Point) -> Bool {
        window?.viewAnimator?.shift(self, by: { end - $0 }) ?? false
    }

    /// The values this view's animated properties are heading for, nil when none is animated.
    public var animationTargets: AnimatableState? {
        guard let animator = window?.viewAnimator else { return nil }
        return animator.targets(of: self)
    }

    /// Ends this view's animations with their properties at their ends (UIKit's
    /// `layer.removeAllAnimations()`, after which a view shows its final values); their
    /// completions hear they did not finish.
    public func removeAllAnimations() {
        window?.viewAnimator?.finish(self)
    }
}

extension Window {
    /// The window's animator, made when first asked for.
    var animator: ViewAnimator {
        if let animator = viewAnimator { return animator }
        let animator = ViewAnimator(window: self)
        viewAnimator = animator
        return animator
    }

    /// Whether any view of this window is animated (`View.animate(withDuration:)`), an
    /// animation waits for its delay or its completion, or a `ViewPropertyAnimator` is active
    /// (paused ones too, which ask for no frames).
    public var hasViewAnimations: Bool { !(viewAnimator?.groups.isEmpty ?? true) }
}

/// The properties of a view that `View.animate(withDuration:)` animates.
public struct AnimatableState: Equatable, Sendable {
    public var center: Point
    public var bounds: Rect
    public var transform: AffineTransform
    public var alpha: Double
    public var backgroundColor: Color?

    @MainActor init(of view: View) {
        center = view.center
        bounds = view.bounds
        transform = view.transform
        alpha = view.alpha
        backgroundColor = view.backgroundColor
    }

    /// Every view of the window's tree and its state: what an animation compares with.
    @MainActor static func snapshot(of window: Window) -> [(View, AnimatableState)] {
        var out: [(View, AnimatableState)] = []
        var stack: [View] = [window]
        while let view = stack.popLast() {
            out.append((view, AnimatableState(of: view)))
            stack.append(contentsOf: view.subviews)
        }
        return out
    }
}

/// What `View.animate` does besides going there once (UIKit's `UIView.AnimationOptions`' own).
public struct AnimationOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Over and over, until the animation is removed or its properties set or animated anew.
    public static let `repeat` = AnimationOptions(rawValue: 1 << 0)
    /// Back the way it came after each way there (its time doubled).
    public static let autoreverse = AnimationOptions(rawValue: 1 << 1)
}

/// How an animation's progress follows its time.
enum AnimationTiming {
    case curve(TimingCurve)
    case spring(SpringTiming)
}

/// One `animate` call: its timing, and its completion once its tracks have ended; or a
/// property animator's tracks, whose progress the animator sets (`driver`).
@MainActor
final class ViewAnimationGroup {
    let start: Double
    let duration: Double
    let timing: AnimationTiming
    let completion: ((Bool) -> Void)?
    /// The property animator that moves this group, nil for `animate`'s, which its time moves.
    /// Held strongly, as UIKit holds a running animator the app let go of; the animator lets
    /// go of the group when it becomes inactive.
    let driver: ViewPropertyAnimator?
    var options: AnimationOptions = []
    var tracks = 0
    var finished = true

    init(
        start: Double, duration: Double, timing: AnimationTiming, completion: ((Bool) -> Void)?,
        driver: ViewPropertyAnimator? = nil
    ) {
        self.start = start
        self.duration = duration
        self.timing = timing
        self.completion = completion
        self.driver = driver
    }

    /// How far along the curve the group is at `time` (0 before its start, 1 from its end):
    /// for one that repeats, along its current way there (or back, autoreversed).
    func progress(at time: Double) -> Double {
        guard duration > 0 else { return time >= start ? 1 : 0 }
        var f = (time - start) / duration
        let ways = options.contains(.autoreverse) ? 2.0 : 1.0
        if options.contains(.repeat), f > 0 {
            f = f.truncatingRemainder(dividingBy: ways)
        }
        if ways == 2, f > 1 { f = max(0, 2 - f) }
        switch timing {
        case .curve(let curve): return curve.progress(at: f)
        case .spring(let spring): return spring.progress(at: f)
        }
    }

    func isOver(at time: Double) -> Bool {
        guard !options.contains(.repeat) || duration == 0 else { return false }
        return time >= start + duration * (options.contains(.autoreverse) ? 2 : 1)
    }
}

/// The window's running property animations, advanced as one frame animation.
@MainActor
final class ViewAnimator: FrameAnimation {
    /// A property of one view on its way, and the value the animation last gave it: a value
    /// found different was set by someone else.
    struct Track {
        /// Held until the track ends (at the latest the frame after the view leaves the
        /// window): a weak reference would give every animated view a side table for good.
        let view: View
        let key: AnimatableKey
        let from: AnimatableValue
        let to: AnimatableValue
        var applied: AnimatableValue
        let group: ViewAnimationGroup
        /// The progress of a property animator at which this track leaves `from` (one added
        /// while the animator ran starts where the animator stands): the track covers the rest.
        let base: Double

        /// How far along the way the track is when its group is `progress` along: the rest of
        /// the way after `base`, `from` before it.
        func fraction(at progress: Double) -> Double {
            guard base > 0 else { return progress }
            guard base < 1 else { return progress >= 1 ? 1 : 0 }
            return max(0, (progress - base) / (1 - base))
        }
    }

    unowned let window: Window
    var tracks: [Track] = []
    var groups: [ViewAnimationGroup] = []

    init(window: Window) { self.window = window }

    /// Sets a value on its way; a view the constraints place keeps its place in their solution
    /// (`LayoutEngine.animating`).
    private func set(_ key: AnimatableKey, _ value: AnimatableValue, on view: View) {
        if view.isInLayoutEngine, let engine = window.layoutEngineIfCreated {
            engine.animating(view) { key.apply(value, to: view) }
        } else {
            key.apply(value, to: view)
        }
    }

    /// Runs `animations` and gives `group` a track for each property of the window's views that
    /// they change, each view put back where it stood; a running animation of such a property
    /// ends where it stands, the new one starting there.
    func record(_ animations: () -> Void, into group: ViewAnimationGroup, base: Double = 0) {
        let before = AnimatableState.snapshot(of: window)
        animations()
        for (view, old) in before where view.window === window {
            let new = AnimatableState(of: view)
            guard new != old else { continue }
            add(view: view, from: old, to: new, group: group, base: base)
        }
    }

    /// Tracks for each property that differs between `old` and `new`, the view put back at
    /// `old` for now.
    func add(
        view: View, from old: AnimatableState, to new: AnimatableState, group: ViewAnimationGroup, base: Double = 0
    ) {
        var added: [AnimatableKey] = []
        for key in AnimatableKey.allCases {
            let (from, to) = (key.value(in: old), key.value(in: new))
            guard from != to else { continue }
            added.append(key)
            // Whatever animated this property before ends here, unfinished.
            if let i = tracks.firstIndex(where: { $0.view === view && $0.key == key }) {
                end(tracks.remove(at: i), finished: false)
            }
            tracks.append(Track(view: view, key: key, from: from, to: to, applied: from, group: group, base: base))
            group.tracks += 1
        }
        // Back where it stood; the frames take it on from there.
        for key in added { set(key, key.value(in: old), on: view) }
    }

    private func end(_ track: Track, finished: Bool) {
        track.group.tracks -= 1
        if !finished { track.group.finished = false }
    }

    func targets(of view: View) -> AnimatableState? {
        var state = AnimatableState(of: view)
        var any = false
        for track in tracks where track.view === view {
            let reversed = track.group.driver?.isReversed ?? false
            track.key.set(reversed ? track.from : track.to, in: &state)
            any = true
        }
        return any ? state : nil
    }

    /// Moves `view` and both ends of its center's track by `delta` of the track's end; false
    /// when its center has no track.
    func shift(_ view: View, by delta: (_ end: Point) -> Point) -> Bool {
        guard let i = tracks.firstIndex(where: { $0.view === view && $0.key == .center }),
            case .point(let from) = tracks[i].from, case .point(let to) = tracks[i].to
        else { return false }
        let delta = delta(to)
        guard delta != .zero else { return true }
        let track = tracks[i]
        let moved = Track(
            view: view, key: .center, from: .point(from + delta), to: .point(to + delta), applied: track.applied,
            group: track.group, base: track.base)
        set(.center, .point(view.center + delta), on: view)
        tracks[i] = moved
        tracks[i].applied = AnimatableKey.center.value(of: view)
        window.setNeedsFrame()
        return true
    }

    /// The view's track of `key`, if any, ended where it stands.
    func stop(_ view: View, _ key: AnimatableKey) {
        guard let i = tracks.firstIndex(where: { $0.view === view && $0.key == key }) else { return }
        end(tracks.remove(at: i), finished: false)
        window.setNeedsFrame()
    }

    /// The view's tracks ended at their ends.
    func finish(_ view: View) {
        // Asked of every cell placed while rows animate: most have nothing running.
        guard tracks.contains(where: { $0.view === view }) else { return }
        var kept: [Track] = []
        for track in tracks {
            if track.view === view {
                set(track.key, track.to, on: view)
                end(track, finished: false)
            } else {
                kept.append(track)
            }
        }
        tracks = kept
        window.setNeedsFrame()
    }

    /// Sets each track of `group` (a property animator's) at `progress`, now; a property set by
    /// someone else while the animator was paused keeps that value, its track ended.
    func apply(_ group: ViewAnimationGroup, at progress: Double) {
        var kept: [Track] = []
        kept.reserveCapacity(tracks.count)
        for var track in tracks {
            guard track.group === group else {
                kept.append(track)
                continue
            }
            if track.key.value(of: track.view) != track.applied {
                end(track, finished: false)
                continue
            }
            let value = AnimatableValue.interpolate(track.from, track.to, track.fraction(at: progress))
            set(track.key, value, on: track.view)
            track.applied = track.key.value(of: track.view)
            kept.append(track)
        }
        tracks = kept
        window.setNeedsFrame()
    }

    /// Takes `group`'s tracks out, for its property animator to put at an end or leave as they are.
    func removeTracks(of group: ViewAnimationGroup) -> [Track] {
        let out = tracks.filter { $0.group === group }
        tracks.removeAll { $0.group === group }
        groups.removeAll { $0 === group }
        return out
    }

    /// Sets each of `tracks` at its start or its end.
    func put(_ tracks: [Track], atEnd: Bool) {
        for track in tracks where track.view.window === window {
            set(track.key, atEnd ? track.to : track.from, on: track.view)
        }
        window.setNeedsFrame()
    }

    func advance(to time: Double) -> Bool {
        // The property animators first: where each stands at this time, and which arrived.
        var arrived: [ViewPropertyAnimator] = []
        for group in groups {
            if let driver = group.driver, driver.isRunning, driver.advance(to: time) { arrived.append(driver) }
        }
        var kept: [Track] = []
        kept.reserveCapacity(tracks.count)
        for var track in tracks {
            let view = track.view
            if view.window !== window {
                // Left the window: at its end, as it would show if added again.
                set(track.key, track.to, on: view)
                end(track, finished: false)
                continue
            }
            if track.key.value(of: view) != track.applied {
                // Set by someone else meanwhile: that value stands.
                end(track, finished: false)
                continue
            }
            let group = track.group
            if let driver = group.driver {
                if driver.isRunning {
                    let value = AnimatableValue.interpolate(track.from, track.to, track.fraction(at: driver.progress))
                    set(track.key, value, on: view)
                    track.applied = track.key.value(of: view)
                }
                kept.append(track)
                continue
            }
            if group.isOver(at: time) {
                set(track.key, track.to, on: view)
                end(track, finished: true)
                continue
            }
            let value = AnimatableValue.interpolate(track.from, track.to, group.progress(at: time))
            set(track.key, value, on: view)
            // Read back: a view may adjust what it is given (a scroll view's bounds).
            track.applied = track.key.value(of: view)
            kept.append(track)
        }
        tracks = kept
        // Completions last, in the order the animations were made: one may start another.
        // A group's tracks end at its end, or earlier unfinished; one with none made nothing move.
        // A property animator's group lasts as long as the animator is active.
        let over = groups.filter { $0.tracks == 0 && $0.driver == nil }
        groups.removeAll { g in over.contains { $0 === g } }
        for group in over { group.completion?(group.finished) }
        for driver in arrived { driver.arrive() }
        // A paused animator's tracks need no frames until it runs again (it asks for them).
        return groups.contains { $0.driver?.isRunning ?? true }
    }
}

/// The properties `View.animate(withDuration:)` animates, each read, written and kept in a state.
enum AnimatableKey: CaseIterable {
    case center, bounds, transform, alpha, backgroundColor

    func value(in state: AnimatableState) -> AnimatableValue {
        switch self {
        case .center: .point(state.center)
        case .bounds: .rect(state.bounds)
        case .transform: .transform(state.transform)
        case .alpha: .scalar(state.alpha)
        case .backgroundColor: .color(state.backgroundColor)
        }
    }

    func set(_ value: AnimatableValue, in state: inout AnimatableState) {
        switch (self, value) {
        case (.center, .point(let p)): state.center = p
        case (.bounds, .rect(let r)): state.bounds = r
        case (.transform, .transform(let t)): state.transform = t
        case (.alpha, .scalar(let a)): state.alpha = a
        case (.backgroundColor, .color(let c)): state.backgroundColor = c
        default: break
        }
    }

    @MainActor func value(of view: View) -> AnimatableValue {
        switch self {
        case .center: .point(view.center)
        case .bounds: .rect(view.bounds)
        case .transform: .transform(view.transform)
        case .alpha: .scalar(view.alpha)
        case .backgroundColor: .color(view.backgroundColor)
        }
    }

    @MainActor func apply(_ value: AnimatableValue, to view: View) {
        switch (self, value) {
        case (.center, .point(let p)): view.center = p
        case (.bounds, .rect(let r)): view.bounds = r
        case (.transform, .transform(let t)): view.transform = t
        case (.alpha, .scalar(let a)): view.alpha = a
        case (.backgroundColor, .color(let c)): view.backgroundColor = c
        default: break
        }
    }
}

/// A value on its way: each kind interpolated as what it is.
enum AnimatableValue: Equatable {
    case point(Point)
    case rect(Rect)
    case transform(AffineTransform)
    case scalar(Double)
    case color(Color?)

    /// `a` + (`b` − `a`)·f, componentwise. f may leave [0, 1] on a curve that overshoots: a
    /// size and an opacity are kept in their ranges; a colour is mixed premultiplied (a fade
    /// from clear shows the colour growing in, not black), nil standing for its other end
    /// made clear.
    static func interpolate(_ a: AnimatableValue, _ b: AnimatableValue, _ f: Double) -> AnimatableValue {
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * f }
        switch (a, b) {
        case (.point(let p), .point(let q)):
            return .point(Point(x: mix(p.x, q.x), y: mix(p.y, q.y)))
        case (.rect(let r), .rect(let s)):
            return .rect(
                Rect(
                    x: mix(r.minX, s.minX), y: mix(r.minY, s.minY), width: max(0, mix(r.width, s.width)),
                    height: max(0, mix(r.height, s.height))))
        case (.transform(let t), .transform(let u)):
            return .transform(
                AffineTransform(a: mix(t.a, u.a), d: mix(t.d, u.d), tx: mix(t.tx, u.tx), ty: mix(t.ty, u.ty)))
        case (.scalar(let x), .scalar(let y)):
            // The only scalar is an opacity.
            return .scalar(min(1, max(0, mix(x, y))))
        case (.color(let c), .color(let d)):
            guard let from = c ?? d.map({ Color(red: $0.red, green: $0.green, blue: $0.blue, alpha: 0) }),
                let to = d ?? c.map({ Color(red: $0.red, green: $0.green, blue: $0.blue, alpha: 0) })
            else { return b }
            if f >= 1 { return b }
            let alpha = min(1, max(0, mix(from.alpha, to.alpha)))
            guard alpha > 0 else { return .color(Color(red: to.red, green: to.green, blue: to.blue, alpha: 0)) }
            func channel(_ x: Double, _ y: Double) -> Double {
                min(1, max(0, (x * from.alpha + (y * to.alpha - x * from.alpha) * f) / alpha))
            }
            return .color(
                Color(
                    red: channel(from.red, to.red), green: channel(from.green, to.green),
                    blue: channel(from.blue, to.blue), alpha: alpha))
        default:
            return b
        }
    }
}
