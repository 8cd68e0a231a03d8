import ScrollwayGeometry
import ScrollwayPhysics
import ScrollwayViews

/// Why a spring runs: it decides the phase and the delegate call at its end.
enum SpringKind {
    /// setContentOffset(animated:), scrollRectToVisible, keys: ends with didEndScrollingAnimation.
    case programmatic
    /// Settling on a page after a release (a deceleration for the delegate).
    case paging
}

/// Both axes of a released fling.
struct FlingMotion {
    var x: FlingCurve
    var y: FlingCurve
    var start: Double

    func position(at t: Double) -> Point { Point(x: x.position(at: t - start), y: y.position(at: t - start)) }
    func velocity(at t: Double) -> Point { Point(x: x.velocity(at: t - start), y: y.velocity(at: t - start)) }
    func isFinished(at t: Double) -> Bool { x.isFinished(at: t - start) && y.isFinished(at: t - start) }
    var restingPoint: Point { Point(x: x.restingPoint, y: y.restingPoint) }

    func phase(at t: Double) -> ScrollView.Phase {
        x.phase(at: t - start) == .bouncing || y.phase(at: t - start) == .bouncing ? .bouncing : .decelerating
    }
}

/// What moves the offset between frames.
enum Motion {
    case idle
    case fling(FlingMotion)
    case spring(x: Spring, y: Spring, start: Double, kind: SpringKind)
    case wheel(x: WheelAnimation, y: WheelAnimation)
    case zoom(ZoomMotion)
}

extension ScrollView: FrameAnimation {
    /// Evaluates the running curve at the frame's time. Every curve is closed-form, so the
    /// offset at a given time does not depend on how many frames came before.
    public func advance(to t: Double) -> Bool {
        switch motion {
        case .idle:
            return false
        case .fling(let f):
            if f.isFinished(at: t) {
                contentOffset = f.restingPoint
                finishMotion()
            } else {
                contentOffset = f.position(at: t)
            }
        case .spring(let sx, let sy, let start, _):
            let dt = t - start
            if sx.isSettled(at: dt, scale: deviceScale) && sy.isSettled(at: dt, scale: deviceScale) {
                let generation = motionGeneration
                contentOffset = Point(x: sx.rest, y: sy.rest)
                // Rows measured where it lands can move its goal (a list's end) and re-aim it
                // (restAfterRangeChange): then it goes on, to the goal as it is now.
                if motionGeneration == generation { finishMotion() }
            } else {
                // Programmatic and paging moves never overscroll: they stay within the range
                // (widened to where they started, if that was outside it).
                contentOffset = Point(
                    x: Self.hull(sx.position(at: dt), sx, horizontalRange),
                    y: Self.hull(sy.position(at: dt), sy, verticalRange))
            }
        case .wheel(let wx, let wy):
            if wx.isFinished(at: t, scale: deviceScale) && wy.isFinished(at: t, scale: deviceScale) {
                contentOffset = Point(x: wx.target, y: wy.target)
                // Wheel steps end silently (no delegate call), as a wheel's scrolling does.
                transition(to: state.withoutMotion)
            } else {
                contentOffset = Point(x: wx.position(at: t), y: wy.position(at: t))
            }
        case .zoom(let z):
            advanceZoom(z, to: t)
        }
        if case .idle = motion {
            scheduleIndicatorFade()
            return false
        }
        return true
    }

    static func hull(_ x: Double, _ s: Spring, _ r: ClosedRange<Double>) -> Double {
        let start = s.rest + s.y0
        return min(max(x, min(r.lowerBound, start, s.rest)), max(r.upperBound, start, s.rest))
    }

    /// A running motion's velocity handed to a new animation, capped at the fling maximum
    /// (a long ω = 14 move can peak far faster than any finger).
    func inheritedVelocity(at t: Double) -> Point {
        let v = currentVelocity(at: t)
        let cap = VelocityTracker.maximumSpeed
        return Point(x: min(max(v.x, -cap), cap), y: min(max(v.y, -cap), cap))
    }

    /// The offset velocity (px/s) of the running motion at `t`.
    func currentVelocity(at t: Double) -> Point {
        switch motion {
        case .fling(let f): return f.velocity(at: t)
        case .spring(let sx, let sy, let start, _):
            return Point(x: sx.velocity(at: t - start), y: sy.velocity(at: t - start))
        default: return .zero
        }
    }

    /// Stops whatever moves the offset, leaving it where it is now. Returns the speed it had at
    /// `t` (the input's time: whether a touch stops a glide or taps through it is decided as
    /// offscreen).
    ///
    /// "Now" is never before the window's clock (`Window.now`): under a compositor a frame is
    /// drawn for the time it is predicted to be shown at, ahead of the input that comes while
    /// it waits, and stopped at the input's own time the offset went back by the motion's speed
    /// times that lead: on screen, a fling caught by a finger jumped back before it stopped.
    /// UIKit's stays where its display link last put it, the frame on its way to the screen.
    @discardableResult
    func stopMotion(at t: Double? = nil) -> Double {
        let time = [t, window?.now].compactMap { $0 }.max() ?? 0
        if case .idle = motion { return 0 }
        motionGeneration &+= 1
        if case .zoom(let z) = motion {
            // An interrupted zoom animation completes at once: its scale is where it was heading.
            transition(to: state.withoutMotion)
            applyZoom(z.target, anchor: z.anchor)
            notify(.didEndZooming(scale: zoomScaleStorage))
            return 0
        }
        let v = currentVelocity(at: t ?? time)
        // Place the offset exactly where the curve is at this time (the last frame may be older).
        _ = advance(to: time)
        let stopsAnimation = isScrollAnimating
        // Stopped, not finished: no delegate call (UIKit sends none when a touch stops a glide).
        transition(to: state.withoutMotion)
        if stopsAnimation { notifyAnimationStoppedShort() }
        return v.length
    }

    /// A curve reached its end: the state it ran in decides the delegate call. A programmatic
    /// spring ends with didEndScrollingAnimation (and didScrollToTop, for the scroll-to-top
    /// gesture's), a glide after a release with didEndDecelerating, a bounce with none.
    private func finishMotion() {
        let ended = state
        transition(to: state.withoutMotion)
        switch ended {
        case .animating(let a), .tracking(_, let a?):
            notify(.didEndScrollingAnimation)
            if a.goal == .top(announces: true) { notify(.didScrollToTop) }
        case .decelerating:
            notify(.didEndDecelerating)
        default:
            cameToRestUnheard()
        }
    }

    /// Completes a running motion at once: the offset goes where the curve rests (in range, on
    /// a page when paging), a zoom to its scale, with the delegate's end call
    /// (`willLeaveWindow`: outside a window nothing drives a curve, and the view is not seen).
    func completeMotion() {
        // The offset set at the rest can re-aim the motion (rows measured there move a list's
        // end, `restAfterRangeChange`): completed again, a few rounds at most.
        for _ in 0..<8 {
            if case .idle = motion { return }
            completeMotionOnce()
        }
    }

    private func completeMotionOnce() {
        switch motion {
        case .idle:
            return
        case .zoom:
            _ = stopMotion()
        case .fling(let f):
            let generation = motionGeneration
            contentOffset = f.restingPoint
            if motionGeneration == generation { finishMotion() }
        case .spring(let sx, let sy, _, _):
            let generation = motionGeneration
            contentOffset = Point(x: sx.rest, y: sy.rest)
            if motionGeneration == generation { finishMotion() }
        case .wheel(let wx, let wy):
            contentOffset = Point(x: wx.target, y: wy.target)
            // Wheel steps end silently, as when they run out.
            transition(to: state.withoutMotion)
        }
    }

    // MARK: Release

    /// Ends a drag (touch, mouse or touchpad) with the content's velocity in px/s: asks the
    /// delegate for the target, then decelerates, pages or bounces, in UIKit's order.
    func endDragging(velocity raw: Point, at t: Double, momentum: Bool = true) {
        guard case .releasing(let dragStart) = state else {
            assertionFailure("a release needs a drag whose fingers lifted, not \(state)")
            return
        }
        let v = Point(
            x: scrollsHorizontally && momentum ? raw.x : 0, y: scrollsVertically && momentum ? raw.y : 0)
        let pos = contentOffset
        let hr = horizontalRange
        let vr = verticalRange
        var target: Point
        if isPagingEnabled {
            target = pagingTarget(position: pos, velocity: v, dragStart: dragStart)
        } else {
            target = Point(
                x: curve(pos.x, v.x, hr, bounds.width, bounces: bouncesHorizontally).restingPoint,
                y: curve(pos.y, v.y, vr, bounds.height, bounces: bouncesVertically).restingPoint)
        }
        let proposed = target
        // A view's own resting places (a picker's rows) before the delegate's say.
        if !isPagingEnabled { target = restingOffset(forProposed: target, velocity: v) }
        notifyWillEndDragging(velocity: Point(x: v.x / 1000, y: v.y / 1000), target: &target)
        // A target that is not a number is no target: the proposed one stands (a NaN rest
        // would never settle).
        if !target.x.isFinite { target.x = proposed.x }
        if !target.y.isFinite { target.y = proposed.y }
        transition(to: .idle)
        refreshControl?.updateFromScroll()
        if keyboardDismissMode == .interactive { window?.reportInteractiveKeyboardDrag(fingerY: nil) }

        let m: Motion
        if isPagingEnabled {
            // A delegate's target is a page offset like any other: inside the range.
            target = clampedOffset(target)
            m = .spring(
                x: Paging.settle(from: pos.x, to: target.x, velocity: v.x, range: hr),
                y: Paging.settle(from: pos.y, to: target.y, velocity: v.y, range: vr), start: t,
                kind: .paging)
        } else {
            let retarget = target != proposed
            m = .fling(
                FlingMotion(
                    x: curve(
                        pos.x, v.x, hr, bounds.width, bounces: bouncesHorizontally, target: retarget ? target.x : nil),
                    y: curve(
                        pos.y, v.y, vr, bounds.height, bounces: bouncesVertically, target: retarget ? target.y : nil),
                    start: t))
        }
        let moves: Bool
        switch m {
        case .fling(let f):
            // A still release inside the range only rounds the offset to the device pixel (a
            // finger's position is fractional): that is done at once, and the drag ends without
            // a deceleration, as UIKit's does when the finger stopped before lifting.
            let pixel = 1 / deviceScale
            let snapsOnly =
                v == .zero && target == proposed && hr.contains(pos.x) && vr.contains(pos.y)
                && abs(f.restingPoint.x - pos.x) < pixel && abs(f.restingPoint.y - pos.y) < pixel
            moves = !snapsOnly && (!f.isFinished(at: t) || f.restingPoint != pos)
        case .spring(let sx, let sy, _, _):
            moves = !(sx.isSettled(at: 0, scale: deviceScale) && sy.isSettled(at: 0, scale: deviceScale))
        default: moves = false
        }
        notify(.didEndDragging(willDecelerate: moves))
        guard moves else {
            // Already there to within half a device pixel: it is put exactly there.
            switch m {
            case .fling(let f): contentOffset = f.restingPoint
            case .spring(let sx, let sy, _, _): contentOffset = Point(x: sx.rest, y: sy.rest)
            default: break
            }
            scheduleIndicatorFade()
            return
        }
        run(.decelerating(m))
        notify(.willBeginDecelerating)
        if window == nil { completeMotion() }
    }

    /// A fling on one axis; `bounces` is that axis's setting.
    func curve(
        _ x: Double, _ v: Double, _ r: ClosedRange<Double>, _ d: Double, bounces: Bool, target: Double? = nil,
        glidesIn: Bool = true
    ) -> FlingCurve {
        FlingCurve(
            position: x, velocity: v, k: decelerationRate.k, min: r.lowerBound, max: r.upperBound, dimension: d,
            scale: deviceScale, bounces: bounces, target: target, glidesIn: glidesIn)
    }

    /// Pages are multiples of the bounds size ("the scroll view stops on multiples of the scroll
    /// view's bounds", the reference says), counted from offset 0 whatever the insets, and
    /// clamped to the range (the last page may be short).
    func pagingTarget(position pos: Point, velocity v: Point, dragStart: Point?) -> Point {
        let k = decelerationRate.k
        func axis(_ x: Double, _ v: Double, _ page: Double, _ start: Double, _ r: ClosedRange<Double>) -> Double {
            guard page > 0 else { return x }
            // At most a million pages (a page under 1 px of a billion-pixel range is no page).
            let pages = (max(r.upperBound, 0) / page).rounded(.up)
            let count = pages.isFinite ? Int(clamping: pages, in: 0...1_000_000) + 1 : 1
            let startPage = Int(clamping: start / page, rounding: .toNearestOrAwayFromZero, in: -1...count)
            let p = Paging.targetPage(
                position: x, velocity: v, pageSize: page, k: k, startPage: startPage, pageCount: count)
            return min(max(Double(p) * page, r.lowerBound), r.upperBound)
        }
        let start = dragStart ?? pos
        return Point(
            x: axis(pos.x, v.x, bounds.width, start.x, horizontalRange),
            y: axis(pos.y, v.y, bounds.height, start.y, verticalRange))
    }

    /// Whether nothing moves the offset but the app: no finger, glide or animation.
    var restsWhereSet: Bool { !isTracking && !isDragging && !isDecelerating && animationTarget == nil }

    /// An edit's shift that keeps what is in view still (`contentShifted(by:)`): for an offset
    /// at rest that was in its range, one that would carry it past an edge (items below
    /// deleted) stops at the edge at once, where `keepOffsetInRangeAtRest` would put it next;
    /// the items it passed on the way out and back were recycled and asked for again.
    func editShifted(by dy: Double, ifInRange wasInRange: Bool) {
        var shift = dy
        if wasInRange, restsWhereSet { shift = clampedOffset(contentOffset + Point(x: 0, y: dy)).y - contentOffset.y }
        if shift != 0 { contentShifted(by: shift) }
    }

    /// Content that changed under an offset at rest (an edit, rows measured, a reflow at a new
    /// width) can leave it outside the range it was in: it goes straight back inside, with no
    /// bounce, as UITableView's does. An offset in motion (held, flung, animated) is left to its
    /// motion, which ends inside. `wasInRange`: whether it was inside before the change. A bounce
    /// running now was started by the change itself (the new content size found the offset
    /// outside, `restAfterRangeChange`; an offset inside its range has nothing to spring back
    /// from): it stops, or the next frame would spring out past the edge and back. Moving the
    /// offset can bring rows into view that a list measures at once, changing the range (and
    /// starting a bounce) again: a few rounds settle it.
    func keepOffsetInRangeAtRest(ifItWas wasInRange: Bool) {
        guard wasInRange, !isOffsetInRange, restsWhereSet else { return }
        for _ in 0..<4 where !isOffsetInRange {
            if case .bouncing = state { stopMotion() }
            contentOffset = clampedOffset(contentOffset)
        }
        if case .bouncing = state, isOffsetInRange { stopMotion() }
    }

    /// Springs back inside the range (ω = 10) if the offset is outside it and nothing holds it.
    /// The same curve as a release: an outward velocity is capped like an edge impact, an
    /// inward throw glides back in. A bounce that takes over from a glide the delegate was told
    /// of (`decelerating`, or a deceleration still running) continues it: it ends with
    /// didEndDecelerating.
    func bounceBackIfNeeded(
        at t: Double, velocity: Point = .zero, decelerating: Bool = false,
        glidesIn: (x: Bool, y: Bool) = (true, true)
    ) {
        guard !isOffsetInRange, !holdsContent else { return }
        let m = Motion.fling(
            FlingMotion(
                x: curve(
                    contentOffset.x, velocity.x, horizontalRange, bounds.width, bounces: bouncesHorizontally,
                    glidesIn: glidesIn.x),
                y: curve(
                    contentOffset.y, velocity.y, verticalRange, bounds.height, bounces: bouncesVertically,
                    glidesIn: glidesIn.y),
                start: t))
        run(decelerating || isDecelerating ? .decelerating(m) : .bouncing(m))
    }

    /// The touch that held the content is gone without a drag releasing it (it lifted without
    /// dragging, or its gesture went to an enclosing scroll view): a banded offset springs back
    /// inside the range, and a paging view that the touch stopped between pages settles on
    /// the nearest page (the paging spring, ω = 14), as it would after a slow release; a view
    /// with resting places of its own (`restingOffset`) on the nearest of them.
    func settleAfterTouch(at t: Double) {
        guard !holdsContent else { return }
        let target: Point
        if isPagingEnabled {
            target = nearestPageOffset()
        } else {
            // Out of range it bounces back to the edge; inside, to its own resting place if it
            // has one (a picker's row), as a page does.
            guard isOffsetInRange else { return bounceBackIfNeeded(at: t) }
            target = restingOffset(forProposed: contentOffset, velocity: .zero)
        }
        guard target != contentOffset else { return cameToRestUnheard() }
        run(
            .bouncing(
                .spring(
                    x: Spring(from: contentOffset.x, to: target.x, velocity: 0, omega: Spring.animationOmega),
                    y: Spring(from: contentOffset.y, to: target.y, velocity: 0, omega: Spring.animationOmega),
                    start: t, kind: .paging)))
    }

    /// The page offset nearest the current one on each axis (multiples of the bounds' size from
    /// offset 0; the last one may be short), clamped to the range.
    func nearestPageOffset() -> Point {
        Point(
            x: Self.pageOffset(from: contentOffset.x, turning: 0, page: bounds.width, range: horizontalRange),
            y: Self.pageOffset(from: contentOffset.y, turning: 0, page: bounds.height, range: verticalRange))
    }

    /// The page offset `n` pages on from the one nearest `x`, on one axis. The pages are the
    /// multiples of `page` from 0, clamped to `range`, so a short last page is one of them: the
    /// range's end, not the page before it, is nearest an offset resting there (rounding the
    /// offset over the page size sent a pager resting on its short last page back a page).
    static func pageOffset(from x: Double, turning n: Double, page: Double, range r: ClosedRange<Double>) -> Double {
        guard page > 0 else { return min(max(x, r.lowerBound), r.upperBound) }
        let last = max(0, (r.upperBound / page).rounded(.up))
        func offset(_ i: Double) -> Double { min(max(i * page, r.lowerBound), r.upperBound) }
        let below = min(max((x / page).rounded(.down), 0), last)
        let above = min(below + 1, last)
        let current = abs(offset(above) - x) < abs(offset(below) - x) ? above : below
        return offset(min(max(current + n, 0), last))
    }

    /// After the range changed (insets, size): spring to the nearest edge if now outside it
    /// and nothing is touching; a running bounce re-aims at the new edge, and programmatic and
    /// wheel animations re-aim inside the new range.
    func restAfterRangeChange() {
        guard window != nil else { return }
        let t = window?.now ?? 0
        // Animations with a target re-aim inside the new range, whatever else is going on.
        switch motion {
        case .spring(let sx, let sy, let began, let kind):
            var target = clampedOffset(Point(x: sx.rest, y: sy.rest))
            switch state.animation?.goal {
            case .end: target.y = verticalRange.upperBound
            case .top: target.y = verticalRange.lowerBound
            default: break
            }
            guard target != Point(x: sx.rest, y: sy.rest) else { return }
            let dt = t - began
            // The same state and goal, aimed anew (a restart: whoever started it no longer owns it).
            motionGeneration &+= 1
            transition(
                to: state.withMotion(
                    .spring(
                        x: Spring(
                            from: sx.position(at: dt), to: target.x, velocity: sx.velocity(at: dt), omega: sx.omega),
                        y: Spring(
                            from: sy.position(at: dt), to: target.y, velocity: sy.velocity(at: dt), omega: sy.omega),
                        start: t, kind: kind)))
            return
        case .wheel(var wx, var wy):
            let h = horizontalRange
            let v = verticalRange
            wx.retarget(by: 0, at: t, within: h.lowerBound, h.upperBound)
            wy.retarget(by: 0, at: t, within: v.lowerBound, v.upperBound)
            motionGeneration &+= 1
            transition(to: state.withMotion(.wheel(x: wx, y: wy)))
            return
        default:
            break
        }
        // Springing back to an edge waits until nothing holds the content.
        guard !holdsContent else { return }
        switch motion {
        case .idle:
            bounceBackIfNeeded(at: t)
        case .fling:
            // The fling may end at this very time: then it ends here, once, with its delegate
            // call, and nothing is re-flung (the fuzzer found didEndDecelerating sent twice when
            // a list grew in the frame its glide ended).
            _ = advance(to: t)
            guard case .fling(let fling) = motion else {
                bounceBackIfNeeded(at: t)
                return
            }
            // A glide that stays inside the new range and already rests where a re-fling would
            // runs on as it is (a list that measures each row it brings in changes its size in
            // most frames of a fling), and so does an axis at an edge's spring that is inside the
            // new range and whose edge still is (a bounce at the top when the top inset grows).
            let h = horizontalRange
            let r = verticalRange
            let k = decelerationRate.k
            let scale = deviceScale
            let elapsed = t - fling.start
            func runsOn(_ c: FlingCurve, _ x: Double, _ range: ClosedRange<Double>) -> Bool {
                if c.phase(at: elapsed) == .bouncing { return range.contains(x) && range.contains(c.restingPoint) }
                return c.glidesAlike(from: x, within: range.lowerBound, range.upperBound, k: k, scale: scale)
            }
            if isDecelerating, runsOn(fling.x, contentOffset.x, h), runsOn(fling.y, contentOffset.y, r) {
                return
            }
            // An axis at an edge's spring moves at a spring's speed, not a throw's: carried into
            // a new curve as a throw, it glided past the new edge deep into the content (a
            // refresh ended while the pull's release sprang back rested 156 px down the list).
            let springing = (
                x: fling.x.phase(at: elapsed) == .bouncing, y: fling.y.phase(at: elapsed) == .bouncing
            )
            var v = currentVelocity(at: t)
            let wasDecelerating = isDecelerating
            stopMotion(at: t)
            if isOffsetInRange {
                if wasDecelerating {
                    // Re-fling from here so it still ends where it should, inside the new range;
                    // the delegate's deceleration goes on (one didEndDecelerating, at its end).
                    // An axis that was springing to an edge now outside the range stops here.
                    if springing.x { v.x = 0 }
                    if springing.y { v.y = 0 }
                    run(
                        .decelerating(
                            .fling(
                                FlingMotion(
                                    x: curve(
                                        contentOffset.x, v.x, horizontalRange, bounds.width,
                                        bounces: bouncesHorizontally),
                                    y: curve(
                                        contentOffset.y, v.y, verticalRange, bounds.height, bounces: bouncesVertically),
                                    start: t))))
                }
            } else {
                // A spring back follows the edge that moved, at its own speed: taken for a throw
                // back in, it glided past the edge and rested inside (the keyboard hiding at a
                // form's end, no release began it: docs/decisions.md, 0.15.31; a refresh ended
                // while a release's spring back ran). A glide that the new range cut short is
                // still a throw.
                bounceBackIfNeeded(
                    at: t, velocity: v, decelerating: wasDecelerating,
                    glidesIn: (wasDecelerating && !springing.x, wasDecelerating && !springing.y))
            }
        default:
            break
        }
    }

    // MARK: Programmatic scrolling

    /// Sets the offset, or springs there (ω = 14) and ends with didEndScrollingAnimation.
    /// While a drag, a pinch or a touchpad scroll holds the content, the fingers own it: the
    /// offset is set at once instead of animating against them.
    public func setContentOffset(_ offset: Point, animated: Bool) {
        setContentOffset(offset, animated: animated, goal: .offset)
    }

    func setContentOffset(_ offset: Point, animated: Bool, goal: ScrollAnimation.Goal) {
        guard offset.isFinite else { return }
        // A spring over a distance near a Double's range overflows to NaN, and never ends.
        let offset = Self.withinLargestOffset(offset)
        let t = window?.now ?? 0
        let v = inheritedVelocity(at: t)
        stopMotion(at: t)
        guard animated, window != nil, offset != contentOffset, !isHeldByGesture else {
            contentOffset = offset
            return
        }
        run(
            .animating(
                ScrollAnimation(
                    motion: .spring(
                        x: Spring(from: contentOffset.x, to: offset.x, velocity: v.x, omega: Spring.animationOmega),
                        y: Spring(from: contentOffset.y, to: offset.y, velocity: v.y, omega: Spring.animationOmega),
                        start: t, kind: .programmatic), goal: goal)))
    }

    /// Where a running programmatic animation is heading (keys accumulate on it).
    var animationTarget: Point? {
        if case .spring(let sx, let sy, _, .programmatic) = motion { return Point(x: sx.rest, y: sy.rest) }
        return nil
    }

    /// Content above the viewport grew (or shrank) by `dy`: the offset moves with it, and so does
    /// whatever moves the offset (a drag's anchor, a fling's curve, an animation's target), so
    /// what is in view stays exactly still. (A list measuring rows above the viewport uses it.)
    public func contentShifted(by dy: Double) {
        guard dy != 0, dy.isFinite else { return }
        let t = window?.now ?? 0
        switch motion {
        case .fling(let f):
            let p = f.position(at: t)
            let v = f.velocity(at: t)
            transition(
                to: state.withMotion(
                    .fling(
                        FlingMotion(
                            x: curve(p.x, v.x, horizontalRange, bounds.width, bounces: bouncesHorizontally),
                            y: curve(p.y + dy, v.y, verticalRange, bounds.height, bounces: bouncesVertically), start: t)
                    )))
            contentOffset = Point(x: p.x, y: p.y + dy)
        case .spring(let sx, let sy, let began, let kind):
            let dt = t - began
            // Content moved under the animation: its target moves with the content, except for
            // one heading for the top, which stays at the top; a programmatic target stays inside
            // the range (the fuzzer found Page Up in a list resting 12 px above the top once the
            // rows on the way measured shorter than their estimates).
            let v = verticalRange
            let headsForTop: Bool
            if case .top = state.animation?.goal { headsForTop = true } else { headsForTop = false }
            let to =
                kind != .programmatic
                ? sy.rest + dy : headsForTop ? v.lowerBound : min(max(sy.rest + dy, v.lowerBound), v.upperBound)
            transition(
                to: state.withMotion(
                    .spring(
                        x: sx,
                        y: Spring(
                            from: sy.position(at: dt) + dy, to: to, velocity: sy.velocity(at: dt), omega: sy.omega),
                        start: t, kind: kind)))
            contentOffset.y += dy
        case .wheel(let wx, let wy):
            transition(to: state.withMotion(.wheel(x: wx, y: wy.shifted(by: dy))))
            contentOffset.y += dy
        default:
            contentOffset.y += dy
        }
        rebaseGesturesToCurrentOffset()
    }

    /// Completes a running zoom animation, so that a target computed from the range next
    /// uses the range the zoom ends with.
    func settleZoomAnimation() {
        if case .zoom = motion { stopMotion() }
    }

    /// Scrolls the least distance that brings `rect` (content coordinates) inside the visible
    /// area (the bounds less the adjusted inset), clamped to the range: `scrollRectToVisible`'s
    /// behaviour for content whose layout does not change as it comes into view.
    func scrollLeastDistance(toShow rect: Rect, animated: Bool) {
        settleZoomAnimation()
        setContentOffset(leastDistanceOffset(toShow: rect), animated: animated)
    }

    /// The offset nearest the current one whose visible area holds `rect` (its start, when it
    /// is larger), clamped to the range.
    func leastDistanceOffset(toShow rect: Rect) -> Point {
        let visible = bounds.inset(by: adjustedContentInset)
        var o = contentOffset
        if rect.width >= visible.width || rect.minX < visible.minX {
            o.x += rect.minX - visible.minX
        } else if rect.maxX > visible.maxX {
            o.x += rect.maxX - visible.maxX
        }
        if rect.height >= visible.height || rect.minY < visible.minY {
            o.y += rect.minY - visible.minY
        } else if rect.maxY > visible.maxY {
            o.y += rect.maxY - visible.maxY
        }
        return clampedOffset(o)
    }

    /// Animates to the top, as the scroll-to-top gesture does, for an app's own control: no
    /// gesture, so none of the gesture's delegate calls (`scrollViewShouldScrollToTop`,
    /// `scrollViewDidScrollToTop`), and `scrollsToTop` does not apply.
    public func scrollToTop() {
        setContentOffset(
            Point(x: contentOffset.x, y: verticalRange.lowerBound), animated: true, goal: .top(announces: false))
    }

    /// The scroll-to-top gesture's scroll (a tap on the title bar, `Window.requestScrollToTop`):
    /// asked of the delegate, animated to the top, and `scrollViewDidScrollToTop` once it gets
    /// there, after `didEndScrollingAnimation`; already at the top, nothing scrolls and nothing
    /// is said (UIKit's).
    func scrollToTopForGesture() {
        guard scrollsToTop, delegate?.scrollViewShouldScrollToTop(self) ?? true else { return }
        setContentOffset(
            Point(x: contentOffset.x, y: verticalRange.lowerBound), animated: true, goal: .top(announces: true))
    }

    /// Stops any scrolling or zooming now; an overscrolled offset then springs back.
    public func stopScrollingAndZooming() {
        let t = window?.now ?? 0
        stopMotion(at: t)
        if isDragging || isTracking { cancelTracking(at: t) }
        bounceBackIfNeeded(at: t)
    }
}

extension ScrollView {
    /// What currently moves the offset, for diagnostics and failure messages.
    public var motionDescription: String {
        switch motion {
        case .idle: return "idle"
        case .fling(let f): return "fling(rest \(f.restingPoint), since \(f.start))"
        case .spring(let x, let y, let start, let kind):
            return "spring(\(kind), rest (\(x.rest), \(y.rest)), since \(start))"
        case .wheel(let x, let y): return "wheel(target (\(x.target), \(y.target)))"
        case .zoom(let z): return "zoom(target \(z.target), bouncing \(z.bouncing))"
        }
    }
}
