import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayViews

/// Nested scrolling: scroll views inside scroll views (horizontal pages in a vertical list, a
/// text box inside a page). A touch lands on the innermost scroll view under it, and the
/// gesture stays there while that view can move in the gesture's direction:
///
/// - At the slop crossing, if the inner view cannot move in the gesture's direction (the
///   locked axis, or the dominant one), the nearest ancestor that can takes the whole gesture;
///   the inner view never begins dragging. If the inner view does not scroll on that axis at
///   all, the nearest ancestor that does takes it even at its edge (and rubber-bands).
/// - Mid-drag, when the inner view reaches its edge and the finger goes on, the inner view
///   stops exactly at the edge and the ancestor continues with the finger's travel beyond that
///   point, so the content under the finger never jumps and no travel is lost. A view that
///   scrolls both ways hands off only once every axis the gesture moves along is past its edge.
/// - Once passed outwards, the gesture stays with the ancestor until the fingers lift (it
///   latches, as browsers and UIKit do: reversing does not hand it back), with the ancestor's
///   directional-lock setting. With no ancestor able to move that way, the inner view
///   rubber-bands as usual.
/// - A touch on an inner view while an ancestor decelerates goes to that ancestor: it stops
///   the moving content, as touching any moving scroll view does. If the drag then goes where
///   the ancestor cannot move, the scroll view under the finger that can takes it.
/// - A touch on an inner view while an ancestor tracks fingers (its own, or a gesture handed
///   off to it) joins the ancestor's gesture as one more finger (a two-finger pan, or a pinch
///   when it zooms), as a pan recogniser on the ancestor would take every touch in its view.
/// - Two fingers that swipe together on a zoomable inner view that cannot move their way (at
///   its smallest scale) are no pinch: they go where one finger would, as a two-finger pan.
/// - An inner view that gives up its gesture without having dragged (the touch stopped its
///   bounce or page turn, then went outwards) settles as after a lift: back in range, on a page.
///
/// The ancestor adopts the finger's pan tracker, so the release velocity includes the travel
/// before the hand-off (it is the finger's velocity either way).
extension ScrollView {
    /// Whether the offset can move by `delta` (offset space, i.e. against the finger). A view
    /// that scrolls on one axis only counts that axis when it is the dominant one (at least as
    /// large as the other), so a mostly vertical gesture is never taken by a view that only
    /// scrolls horizontally; a view that scrolls on both counts an axis whose component is at
    /// least half the other's (the directional-lock ratio), and can move if either axis can.
    public func canScroll(toward delta: Point) -> Bool {
        guard isScrollEnabled, !isZooming else { return false }
        let eps = 0.5 / deviceScale
        let ratio = scrollsHorizontally && scrollsVertically ? PanTracker.lockRatio : 1
        let o = contentOffset
        if delta.x != 0, abs(delta.x) >= ratio * abs(delta.y), scrollsHorizontally {
            let h = horizontalRange
            if delta.x > 0 ? o.x < h.upperBound - eps : o.x > h.lowerBound + eps { return true }
        }
        if delta.y != 0, abs(delta.y) >= ratio * abs(delta.x), scrollsVertically {
            let v = verticalRange
            if delta.y > 0 ? o.y < v.upperBound - eps : o.y > v.lowerBound + eps { return true }
        }
        return false
    }

    /// Whether this view scrolls on the dominant axis of `delta` (either, on a tie), wherever
    /// its offset is: at its edge it still takes the gesture, to rubber-band.
    func scrollsOnAxis(of delta: Point) -> Bool {
        guard isScrollEnabled, delta != .zero else { return false }
        return (abs(delta.x) >= abs(delta.y) && scrollsHorizontally)
            || (abs(delta.y) >= abs(delta.x) && scrollsVertically)
    }

    /// The nearest enclosing scroll view that takes touches from `source` (any, for nil), is
    /// not already tracking other fingers and can move by `delta` (or, `evenAtItsEdge`,
    /// scrolls on the dominant axis of `delta` at all).
    func enclosingScrollView(toward delta: Point, source: Touch.Source?, evenAtItsEdge: Bool = false) -> ScrollView? {
        var v = superview
        while let current = v {
            if let s = current as? ScrollView, s.touchState == nil,
                source.map({ s.interceptsTouches(from: $0) }) ?? true,
                evenAtItsEdge ? s.scrollsOnAxis(of: delta) : s.canScroll(toward: delta)
            {
                return s
            }
            v = current.superview
        }
        return nil
    }

    /// The innermost scroll view between `content` (the view under the finger) and this one
    /// that takes touches from `source`, is not tracking fingers and can move by `delta`: the
    /// one the finger would have dragged had this view not taken the touch (it was moving).
    func scrollView(under content: View?, toward delta: Point, source: Touch.Source) -> ScrollView? {
        var v = content
        while let current = v, current !== self {
            if let s = current as? ScrollView, s.touchState == nil, s.interceptsTouches(from: source),
                s.canScroll(toward: delta)
            {
                return s
            }
            v = current.superview
        }
        return nil
    }

    /// Wheel and touchpad scrolling chain outwards too: an axis event this view cannot move by
    /// (at its edge) goes to the enclosing scroll view that can, and while an enclosing view
    /// runs a touchpad scroll, the rest of that scroll is its own (latching, as browsers do).
    func passesAxisOutwards(_ delta: Point) -> Bool {
        guard touchpad == nil else { return false }
        var v = superview
        while let current = v {
            if let s = current as? ScrollView, s.touchpad != nil { return true }
            v = current.superview
        }
        // At this view's edge, unless it keeps scrolls on that axis to itself.
        let transfers =
            abs(delta.x) >= abs(delta.y) ? transfersHorizontalScrollingToParent : transfersVerticalScrollingToParent
        return transfers && !canScroll(toward: delta) && enclosingScrollView(toward: delta, source: nil) != nil
    }

    /// The nearest enclosing scroll view already tracking fingers from the same kind of source
    /// (a new touch joins its gesture). Mouse buttons never join: one pointer, one gesture.
    func enclosingScrollViewTakingNewTouches(for source: Touch.Source) -> ScrollView? {
        guard source != .mouse else { return nil }
        var v = superview
        while let current = v {
            if let s = current as? ScrollView, let state = s.touchState, state.source == source,
                s.interceptsTouches(from: source)
            {
                return s
            }
            v = current.superview
        }
        return nil
    }

    /// The nearest enclosing scroll view that is decelerating (a new touch belongs to it).
    func enclosingDeceleratingScrollView(for source: Touch.Source) -> ScrollView? {
        var v = superview
        while let current = v {
            if let s = current as? ScrollView, s.touchState == nil, s.isDecelerating, s.interceptsTouches(from: source)
            {
                return s
            }
            v = current.superview
        }
        return nil
    }

    /// At the slop crossing: if this view cannot move in the gesture's direction, the content's
    /// touch is settled as a scroll would settle it and another scroll view takes the gesture:
    /// a scroll view under the finger inside this one that can move that way (this view took
    /// the touch because it was moving), else the nearest ancestor that can, else, when this
    /// view does not scroll on the gesture's axis at all, the nearest ancestor that does, at
    /// its edge or not (it rubber-bands, as a drag on any other content of it would). Returns
    /// true when it handed the gesture on.
    func handOffAtSlopCrossing(_ state: inout TouchState, touch: Touch) -> Bool {
        guard pinch == nil else { return false }
        let direction = Point(x: -state.pan.motion.x, y: -state.pan.motion.y)
        guard !canScroll(toward: direction), let next = handOffTarget(toward: direction, state) else { return false }
        var arbiter = state.arbiter
        let actions = arbiter.moved(
            crossedSlop: true, scrollEnabled: true,
            contentAllowsCancel: state.target.map { touchesShouldCancel(in: $0) } ?? true)
        // Content that keeps its touch (canCancelContentTouches off) keeps the gesture too.
        guard actions.contains(.beginScrolling) else { return false }
        state.arbiter = arbiter
        touchState = state
        for action in actions where action == .cancelContent {
            if let target = state.target {
                deliverToContent(
                    .cancelled,
                    Touch(id: state.id, location: state.location, timestamp: touch.timestamp, source: state.source),
                    target)
            }
        }
        handOff(to: next, beyond: nil, at: touch.timestamp)
        return true
    }

    /// The scroll view a gesture moving this view's offset by `direction`, which this view
    /// cannot follow, goes to: one under the finger inside this view that can move that way,
    /// else the nearest ancestor that can (along an axis this view does not scroll, always, as
    /// UIKit; at this view's edge on an axis it scrolls, only when it hands drags off at its
    /// edges), else, along an axis this view does not scroll, the nearest ancestor that scrolls
    /// on it at all. Whichever it is, its pan must take the fingers now.
    private func handOffTarget(toward direction: Point, _ state: TouchState) -> ScrollView? {
        let outwards: ScrollView?
        if scrollsOnAxis(of: direction) {
            outwards = handsOffDragsAtEdges ? enclosingScrollView(toward: direction, source: state.source) : nil
        } else {
            outwards =
                enclosingScrollView(toward: direction, source: state.source)
                ?? enclosingScrollView(toward: direction, source: state.source, evenAtItsEdge: true)
        }
        let next = scrollView(under: state.target, toward: direction, source: state.source) ?? outwards
        // The other view's pan decides too: off, waiting or declining, it does not take it.
        guard let next, next.panDecision(state) == .proceed else {
            return nil
        }
        return next
    }

    /// Two fingers on a zoomable view that move together before they spread or close past the
    /// slop (a two-finger swipe) are no pinch where this view cannot move their way: UIKit's
    /// pinch does not begin on a swipe, and the pan of the scroll view that can move takes both
    /// fingers. The gesture goes where one finger's would (`handOffTarget`), as a two-finger
    /// pan dragging from the slop's crossing by the fingers' centroid (a pager's page turns),
    /// with any finger that landed beside them meanwhile.
    /// Where this view can move their way (zoomed in), the pinch begins as before: panning
    /// and zooming together. Returns true when it handed the fingers on.
    func handOffTwoFingerSwipe(_ p: PinchState, tracker: PinchTracker, at t: Double) -> Bool {
        guard !p.began, var state = touchState, state.extra.isEmpty else { return false }
        let direction = tracker.startCenter - tracker.center
        state.location = p.first
        state.extra = p.others.merging([p.secondID: p.second]) { $1 }
        guard !canScroll(toward: direction), let next = handOffTarget(toward: direction, state) else { return false }
        var pan = PanTracker(at: tracker.startCenter, time: p.landed, slop: state.pan.slop)
        pan.move(to: tracker.center, time: t)
        // Each finger's own motion is followed from here; any further fingers join the pan
        // where they are: the centroid moves, the content not.
        let fingers = [(state.id, state.location)] + state.extra.keys.sorted().map { ($0, state.extra[$0]!) }
        pan.land(fingers, alone: nil, centroid: state.centroid, time: t)
        state.pan = pan
        state.pinch = nil
        touchState = state
        handOff(to: next, beyond: nil, at: t)
        return true
    }

    /// Mid-drag: if `unbanded` passes the range on an axis this view scrolls, and an ancestor
    /// can move that way, this view stops at its edge and the ancestor continues. Returns true
    /// when it did. A view already banded past its edge (a caught bounce) keeps the gesture.
    func handOffAtEdge(_ state: TouchState, unbanded: Point) -> Bool {
        guard handsOffDragsAtEdges, pinch == nil, isOffsetInRange else { return false }
        let h = horizontalRange
        let v = verticalRange
        var beyond = Point.zero
        if scrollsHorizontally {
            beyond.x = unbanded.x > h.upperBound ? unbanded.x - h.upperBound : min(0, unbanded.x - h.lowerBound)
        }
        if scrollsVertically {
            beyond.y = unbanded.y > v.upperBound ? unbanded.y - v.upperBound : min(0, unbanded.y - v.lowerBound)
        }
        guard beyond != .zero else { return false }
        // A view that scrolls on both axes keeps the gesture while it can still follow the
        // finger on an axis the gesture moves along (after the lock): it hands off only once
        // each such axis is past its edge.
        if scrollsHorizontally && scrollsVertically {
            let tr = state.pan.translation
            let ratio = PanTracker.lockRatio
            if tr.x != 0, abs(tr.x) >= ratio * abs(tr.y), beyond.x == 0 { return false }
            if tr.y != 0, abs(tr.y) >= ratio * abs(tr.x), beyond.y == 0 { return false }
        }
        guard let outer = enclosingScrollView(toward: beyond, source: state.source),
            outer.panDecision(state) == .proceed
        else { return false }
        contentOffset = clampedOffset(unbanded)
        handOff(to: outer, beyond: beyond, at: state.pan.time)
        return true
    }

    /// Ends this view's part of the gesture (a drag ends without momentum, at its edge) and
    /// gives the fingers to `next` (an ancestor, or a scroll view under the finger inside this
    /// one); `beyond` is how far past this view's edge the finger's travel went (nil at the
    /// slop crossing).
    private func handOff(to next: ScrollView, beyond: Point?, at t: Double) {
        guard let state = touchState else { return }
        window?.cancelTimer(state.timer)
        if endTouch() {
            endDragging(velocity: .zero, at: t, momentum: false)
        } else {
            settleAfterTouch(at: t)
            scheduleIndicatorFade()
        }
        for id in [state.id] + state.extra.keys.sorted() { window?.rerouteTouch(id: id, to: next) }
        next.adoptGesture(state, beyond: beyond, at: t)
    }

    /// Takes over a gesture another scroll view passed on: dragging begins at once, with this
    /// view's directional-lock setting, from the finger's travel beyond what the other view
    /// used up (all of it at the slop crossing; mid-drag, the travel up to its edge).
    private func adoptGesture(_ other: TouchState, beyond: Point?, at t: Double) {
        stopMotion(at: t)
        var arbiter = TouchArbiter(time: t, delaysContentTouches: false, contentWantsTouch: false)
        _ = arbiter.moved(crossedSlop: true)
        var pan = other.pan
        pan.setDirectionalLock(isDirectionalLockEnabled)
        endTouchpadGestures(at: t)
        transition(
            to: .tracking(
                TouchState(
                    id: other.id, source: other.source, pan: pan, arbiter: arbiter, target: nil,
                    location: other.location, extra: other.extra), animation: nil))
        beginDragging()
        guard var state = touchState else { return }
        // The other view met its edge where unbanded = anchor − translation and
        // edge = unbanded − beyond: the travel it used up is translation + beyond.
        if let beyond { state.anchor = state.anchor + pan.translation + beyond }
        touchState = state
        updateDrag(state)
        showIndicatorsIfScrolling()
    }
}
