import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayPhysics
import ScrollwayViews

/// One finger (or the mouse) held on the scroll view.
struct TouchState {
    var id: Int
    var source: Touch.Source
    var pan: PanTracker
    var arbiter: TouchArbiter
    weak var target: View?
    var timer: TimerToken?
    /// The unbanded offset the drag moves from (a caught bounce is converted back).
    var anchor: Point = .zero
    /// The first finger's location (the one the content may get).
    var location: Point
    /// Further fingers panning together with the first (no zoom view): by id.
    var extra: [Int: Point] = [:]
    /// The clamped offset when the drag began (a paging release moves at most ±1 page from it).
    var dragStart: Point?
    /// The slop was crossed but the pan could not begin yet (too few fingers, or a recognizer
    /// it waits for may still recognize): each move asks again.
    var panWaiting = false
    /// A second finger zooming with this one (a zoom view is set).
    var pinch: PinchState?

    /// The pan follows the centroid of all fingers, as UIKit's pan does.
    var centroid: Point {
        let all = [location] + extra.keys.sorted().map { extra[$0]! }
        let sum = all.reduce(Point.zero) { $0 + $1 }
        return sum * (1 / Double(all.count))
    }
}

extension ScrollView {
    func scrollTouchBegan(_ touch: Touch, target: View?) {
        let t = touch.timestamp
        if var existing = touchState, existing.id != touch.id {
            if zoomView != nil && pinch == nil && existing.extra.isEmpty && pinchMayBegin {
                // The zoom takes the fingers: content that had the first one is cancelled as the
                // second lands (UIKit's pinch cancels touches in view when it recognizes; two
                // fingers here are the zoom's or the pan's, never a tap's), content still
                // waiting never hears of it.
                window?.cancelTimer(existing.timer)
                existing.timer = nil
                let actions = existing.arbiter.cancelled()
                touchState = existing
                apply(
                    actions,
                    touch: Touch(id: existing.id, location: existing.location, timestamp: t, source: existing.source),
                    target: existing.target)
                beginPinch(with: touch)
            } else if pinch == nil {
                // Another finger joins the pan: follow the new centroid without a jump.
                let alone = existing.extra.isEmpty ? existing.id : nil
                existing.extra[touch.id] = touch.location
                // The rebase keeps the translation, so the drag's anchor stays valid.
                existing.pan.land([(touch.id, touch.location)], alone: alone, centroid: existing.centroid, time: t)
                touchState = existing
            } else if pinch?.began == false {
                // A zoom uses two fingers; one more, while it has not begun, goes with them if
                // they turn out to be a swipe another view takes (`handOffTwoFingerSwipe`).
                pinch?.others[touch.id] = touch.location
            }
            return
        }
        if touchState == nil,
            let outer = enclosingScrollViewTakingNewTouches(for: touch.source)
                ?? enclosingDeceleratingScrollView(for: touch.source)
        {
            window?.rerouteTouch(id: touch.id, to: outer)
            outer.scrollTouchBegan(touch, target: target)
            return
        }
        // A touch takes the content from the touchpad (its scroll ends without momentum, its
        // pinch ends), and stops any motion; a fast one makes this touch a "stop", never a tap.
        endTouchpadGestures(at: t)
        let speed = stopMotion(at: t)
        let state = beginTracking(touch, content: (target === self) ? nil : target, stoppedSpeed: speed)
        apply(state.arbiter.initialActions, touch: touch, target: state.target)
        showIndicatorsIfScrolling()
    }

    /// Tracks `touch` from where it is now: its slop, its hold timer, whether its content may
    /// get it; `animation`, a programmatic one, runs on under it. Returns the state it is
    /// tracked with.
    @discardableResult
    func beginTracking(
        _ touch: Touch, content: View?, stoppedSpeed speed: Double, animation: ScrollAnimation? = nil
    ) -> TouchState {
        let t = touch.timestamp
        var state = TouchState(
            id: touch.id, source: touch.source,
            pan: PanTracker(
                at: touch.location, time: t, slop: touch.source == .mouse ? PanTracker.mouseSlop : PanTracker.touchSlop,
                directionalLock: isDirectionalLockEnabled),
            arbiter: TouchArbiter(
                time: t, delaysContentTouches: touch.source == .mouse ? false : delaysContentTouches,
                canCancelContentTouches: canCancelContentTouches,
                contentWantsTouch: content != nil,
                stoppedSpeed: speed > 0 ? speed : nil),
            target: content, location: touch.location)
        if let deadline = state.arbiter.deadline, let window {
            state.timer = window.schedule(at: deadline) { [weak self] in self?.holdTimerFired(at: deadline) }
        }
        transition(to: .tracking(state, animation: animation))
        return state
    }

    func scrollTouchMoved(_ touch: Touch) {
        if let p = pinch, p.secondID == touch.id || touchState?.id == touch.id, p.active {
            updatePinch(with: touch)
            return
        }
        guard var state = touchState, state.id == touch.id || state.extra[touch.id] != nil else {
            if pinch?.secondID == touch.id { pinch?.second = touch.location }
            if pinch?.others[touch.id] != nil { pinch?.others[touch.id] = touch.location }
            return
        }
        if state.id == touch.id { state.location = touch.location } else { state.extra[touch.id] = touch.location }
        state.pan.note(finger: touch.id, at: touch.location, time: touch.timestamp)
        let crossed = state.pan.move(to: state.centroid, time: touch.timestamp)
        // The pan is asked when the slop is crossed, and again on each move while it waits.
        var begins = false
        var late = false
        var failed: [TouchArbiter.Action] = []
        if crossed || state.panWaiting {
            switch panDecision(state) {
            case .proceed:
                begins = true
                late = state.panWaiting
                state.panWaiting = false
            case .wait:
                state.panWaiting = true
            case .fail:
                state.panWaiting = false
                failed = state.arbiter.panFailed()
            }
        }
        if begins, !late, handOffAtSlopCrossing(&state, touch: touch) { return }
        if !failed.isEmpty { window?.cancelTimer(state.timer) }
        // A touch the pan gave up goes to the content now (`failed`), then this move.
        var actions = failed
        actions += state.arbiter.moved(
            crossedSlop: begins, scrollEnabled: isScrollEnabled,
            contentAllowsCancel: state.target.map { touchesShouldCancel(in: $0) } ?? true)
        touchState = state
        // The content only ever has the first finger: another's move is not its news, and a
        // cancel is of the first finger's touch.
        if touch.id != state.id { actions.removeAll { $0 == .moveContent } }
        apply(
            actions,
            touch: Touch(id: state.id, location: state.location, timestamp: touch.timestamp, source: state.source),
            target: state.target)
        // A pan that begins after the slop starts from where the fingers are: no jump.
        if late, isDragging, var s = touchState {
            s.anchor = s.anchor + s.pan.translation
            touchState = s
        }
        if isDragging, let s = touchState { updateDrag(s) }
    }

    func scrollTouchEnded(_ touch: Touch) {
        // Written back only when there is a pinch: a write through the optional chain would set
        // the touch state even when no touch is tracked.
        if var p = pinch, p.others.removeValue(forKey: touch.id) != nil {
            pinch = p
            return
        }
        if pinch != nil, endPinch(touch: touch) { return }
        // A double tap recognized on this touch zooms once the touch is let go, unless the
        // touch dragged (the tap allows more movement than a mouse's slop).
        let doubleTap = pendingDoubleTap
        pendingDoubleTap = nil
        guard var state = touchState else { return }
        if state.extra[touch.id] != nil || (state.id == touch.id && !state.extra.isEmpty) {
            liftOneOfSeveralFingers(touch, state: &state)
            return
        }
        guard state.id == touch.id else { return }
        window?.cancelTimer(state.timer)
        let actions = state.arbiter.lifted()
        let dragging = endTouch()
        apply(
            actions,
            touch: Touch(id: touch.id, location: state.location, timestamp: touch.timestamp, source: touch.source),
            target: state.target)
        if dragging {
            let finger = state.pan.velocity(at: touch.timestamp)
            let momentum = state.source == .finger || mouseDragMomentum
            endDragging(velocity: Point(x: -finger.x, y: -finger.y), at: touch.timestamp, momentum: momentum)
        } else {
            if let p = doubleTap { handleDoubleTap(at: p) }
            settleAfterTouch(at: touch.timestamp)
            scheduleIndicatorFade()
        }
    }

    /// One finger of several lifted: the pan continues with the others from their centroid.
    /// If it was the first finger, the content's touch (if any) is cancelled and another finger
    /// becomes the first.
    private func liftOneOfSeveralFingers(_ touch: Touch, state: inout TouchState) {
        let t = touch.timestamp
        if state.id == touch.id {
            let next = state.extra.keys.sorted()[0]
            let actions = state.arbiter.cancelled()
            apply(
                actions, touch: Touch(id: state.id, location: state.location, timestamp: t, source: state.source),
                target: state.target)
            window?.cancelTimer(state.timer)
            state.timer = nil
            state.id = next
            state.location = state.extra.removeValue(forKey: next)!
        } else {
            state.extra.removeValue(forKey: touch.id)
        }
        state.pan.lift([touch.id], last: state.extra.isEmpty ? state.id : nil, centroid: state.centroid, time: t)
        touchState = state
    }

    func scrollTouchCancelled(_ touch: Touch) {
        if pinch != nil, endPinch(touch: touch, cancelled: true) { return }
        guard let state = touchState, state.id == touch.id || state.extra[touch.id] != nil else { return }
        cancelTracking(at: touch.timestamp)
    }

    /// The content view under the finger is leaving the window (a recycled row): if it had
    /// been given the touch, it gets a cancel; either way it hears no more of it (not even a
    /// held touch's delayed begin), while the scroll view keeps tracking the finger.
    func scrollTouchTargetWillLeave(_ touch: Touch) {
        guard var state = touchState, state.id == touch.id, let target = state.target else { return }
        if state.arbiter.state == .content { deliverToContent(.cancelled, touch, target) }
        state.target = nil
        touchState = state
    }

    /// The compositor (or stopScrollingAndZooming) took the touch: content is cancelled, a drag
    /// ends without momentum.
    func cancelTracking(at t: Double) {
        pendingDoubleTap = nil
        guard var state = touchState else { return }
        window?.cancelTimer(state.timer)
        let actions = state.arbiter.cancelled()
        let dragging = endTouch(cancelled: true)
        apply(
            actions, touch: Touch(id: state.id, location: state.location, timestamp: t, source: state.source),
            target: state.target)
        if dragging { endDragging(velocity: .zero, at: t) }
        // A pinch riding on the touch ends with it (springing back beyond a zoom limit); one
        // whose zoom had not begun has nothing to end.
        if let p = state.pinch, p.began {
            pinchDidEnd(cancelled: true)
            finishZoomGesture(anchor: viewportPoint(p.lastCenter), at: t)
        } else if !dragging {
            settleAfterTouch(at: t)
        }
    }

    /// A touch arrived while the touchpad held the content: its scroll ends as if the fingers
    /// lifted without momentum, its pinch ends as if released.
    func endTouchpadGestures(at t: Double) {
        switch state {
        case .touchpadScrolling(let pad):
            transition(to: .releasing(dragStart: pad.dragStart))
            endDragging(velocity: .zero, at: t, momentum: false)
        case .touchpadPinching:
            let anchor = viewportPoint(window?.pointerPosition ?? Point(x: bounds.midX, y: bounds.midY))
            transition(to: .idle)
            pinchDidEnd(cancelled: true)
            finishZoomGesture(anchor: anchor, at: t)
        default:
            break
        }
    }

    private func holdTimerFired(at t: Double) {
        guard var state = touchState else { return }
        state.timer = nil
        let actions = state.arbiter.timerFired(time: t)
        touchState = state
        apply(
            actions, touch: Touch(id: state.id, location: state.location, timestamp: t, source: state.source),
            target: state.target)
    }

    /// Carries out the arbiter's decisions for the touch on `target` (the content view).
    private func apply(_ actions: [TouchArbiter.Action], touch: Touch, target: View?) {
        for action in actions {
            switch action {
            case .beginContent:
                // `touchesShouldBegin` is asked now, when the content would get the touch (after
                // the delay, or at once without it); a no keeps the touch for scrolling.
                guard let target, touchesShouldBegin([touch], in: target) else {
                    if touchState?.id == touch.id { touchState?.arbiter.contentDeclined() }
                    return
                }
                deliverToContent(.began, touch, target)
            case .moveContent: target.map { deliverToContent(.moved, touch, $0) }
            case .endContent: target.map { deliverToContent(.ended, touch, $0) }
            case .cancelContent: target.map { deliverToContent(.cancelled, touch, $0) }
            case .beginScrolling: beginDragging()
            }
        }
    }

    /// Gives the content its touch through the window, so that recognizers on the content
    /// (or above it) delay or take it as they would anywhere else.
    func deliverToContent(_ phase: TouchPhase, _ touch: Touch, _ target: View) {
        if let window {
            window.deliverTouch(phase, touch, to: target)
            return
        }
        switch phase {
        case .began: target.touchesBegan([touch])
        case .moved: target.touchesMoved([touch])
        case .ended: target.touchesEnded([touch])
        case .cancelled: target.touchesCancelled([touch])
        }
    }

    /// The drag begins at slop crossing: willBeginDragging, and the offset to move from.
    func beginDragging() {
        guard var state = touchState else { return }
        // The drag owns the offset: an animation a key started under the resting finger stops.
        stopMotion()
        state.anchor = unbandedOffset(contentOffset)
        state.dragStart = clampedOffset(contentOffset)
        transition(to: .dragging(state))
        panDidBegin(state)
        notify(.willBeginDragging)
        refreshControl?.updateFromScroll()
        if keyboardDismissMode == .onDrag { window?.focusedView = nil }
    }

    /// Moves the offset with the finger: `anchor − translation`, rubber-banded past the edges.
    func updateDrag(_ state: TouchState) {
        let tr = state.pan.translation
        let unbanded = Point(
            x: scrollsHorizontally ? state.anchor.x - tr.x : contentOffset.x,
            y: scrollsVertically ? state.anchor.y - tr.y : contentOffset.y)
        if handOffAtEdge(state, unbanded: unbanded) { return }
        contentOffset = bandedOffset(unbanded)
        panDidChange(state)
        if keyboardDismissMode == .interactive { window?.reportInteractiveKeyboardDrag(fingerY: state.location.y) }
    }

    /// The offset shown for an unbanded one: rubber band past the edges, or clamped.
    func bandedOffset(_ p: Point) -> Point {
        guard bouncesHorizontally || bouncesVertically else { return clampedOffset(p) }
        let h = horizontalRange
        let v = verticalRange
        let clamped = clampedOffset(p)
        return Point(
            x: !bouncesHorizontally
                ? clamped.x
                : scrollsHorizontally
                    ? RubberBand.clamp(p.x, min: h.lowerBound, max: h.upperBound, dimension: bounds.width) : p.x,
            y: !bouncesVertically
                ? clamped.y
                : scrollsVertically
                    ? RubberBand.clamp(p.y, min: v.lowerBound, max: v.upperBound, dimension: bounds.height) : p.y)
    }

    /// The unbanded offset that shows as `p` (catching a bounce keeps the finger on the content).
    func unbandedOffset(_ p: Point) -> Point {
        let h = horizontalRange
        let v = verticalRange
        return Point(
            x: RubberBand.unclamp(p.x, min: h.lowerBound, max: h.upperBound, dimension: bounds.width),
            y: RubberBand.unclamp(p.y, min: v.lowerBound, max: v.upperBound, dimension: bounds.height))
    }
}
