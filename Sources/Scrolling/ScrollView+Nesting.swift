import Geometry
import Gestures
import Views

/// Nested scrolling: scroll views inside scroll views (horizontal pages in a vertical list, a
/// text box inside a page). A touch lands on the innermost scroll view under it, and the
/// gesture stays there while that view can move in the gesture's direction:
///
/// - At the slop crossing, if the inner view cannot move in the gesture's direction (the
///   locked axis, or the dominant one), the nearest ancestor that can takes the whole gesture;
///   the inner view never begins dragging.
/// - Mid-drag, when the inner view reaches its edge and the finger goes on, the inner view
///   stops exactly at the edge and the ancestor continues with the finger's travel beyond that
///   point, so the content under the finger never jumps and no travel is lost.
/// - Once passed outwards, the gesture stays with the ancestor until the fingers lift (it
///   latches, as browsers and UIKit do: reversing does not hand it back). With no ancestor able
///   to move that way, the inner view rubber-bands as usual.
/// - A touch on an inner view while an ancestor decelerates goes to that ancestor: it stops
///   the moving content, as touching any moving scroll view does.
/// - A touch on an inner view while an ancestor tracks fingers (its own, or a gesture handed
///   off to it) joins the ancestor's gesture as one more finger (a two-finger pan, or a pinch
///   when it zooms), as a pan recogniser on the ancestor would take every touch in its view.
/// - An inner view that gives up its gesture without having dragged (the touch stopped its
///   bounce or page turn, then went outwards) settles as after a lift: back in range, on a page.
///
/// The ancestor adopts the finger's pan tracker, so the release velocity includes the travel
/// before the hand-off (it is the finger's velocity either way).
extension ScrollView {
    /// Whether the offset can move by `delta` (offset space, i.e. against the finger) along its
    /// dominant axis or axes: an axis counts when its component is at least half the other's
    /// (the directional-lock ratio), so a mostly vertical gesture is not taken by a view that
    /// only scrolls horizontally.
    public func canScroll(toward delta: Point) -> Bool {
        guard isScrollEnabled, pinch == nil, touchpadPinch == nil, !isZooming else { return false }
        let eps = 0.5 / deviceScale
        let ratio = PanTracker.lockRatio
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

    /// The nearest enclosing scroll view that takes touches from `source` (any, for nil), is
    /// not already tracking other fingers and can move by `delta`.
    func enclosingScrollView(toward delta: Point, source: Touch.Source?) -> ScrollView? {
        var v = superview
        while let current = v {
            if let s = current as? ScrollView, s.touchState == nil,
                source.map({ s.interceptsTouches(from: $0) }) ?? true,
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
        return !canScroll(toward: delta) && enclosingScrollView(toward: delta, source: nil) != nil
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

    /// At the slop crossing: if this view cannot move in the gesture's direction and an
    /// ancestor can, the content's touch is settled as a scroll would settle it and the
    /// ancestor takes the gesture. Returns true when it did.
    func handOffAtSlopCrossing(_ state: inout TouchState, touch: Touch) -> Bool {
        guard pinch == nil else { return false }
        let direction = Point(x: -state.pan.motion.x, y: -state.pan.motion.y)
        guard !canScroll(toward: direction),
            let outer = enclosingScrollView(toward: direction, source: state.source)
        else { return false }
        var arbiter = state.arbiter
        let actions = arbiter.moved(
            crossedSlop: true, scrollEnabled: true,
            contentAllowsCancel: state.target.map { touchesShouldCancel(in: $0) } ?? true)
        // Content that keeps its touch (canCancelContentTouches off) keeps the gesture too.
        guard actions.contains(.beginScrolling) else { return false }
        state.arbiter = arbiter
        touchState = state
        for action in actions where action == .cancelContent {
            state.target?.touchesCancelled([
                Touch(id: state.id, location: state.location, timestamp: touch.timestamp, source: state.source)
            ])
        }
        handOff(to: outer, consumed: .zero, at: touch.timestamp)
        return true
    }

    /// Mid-drag: if `unbanded` passes the range on an axis this view scrolls, and an ancestor
    /// can move that way, this view stops at its edge and the ancestor continues. Returns true
    /// when it did. A view already banded past its edge (a caught bounce) keeps the gesture.
    func handOffAtEdge(_ state: TouchState, unbanded: Point) -> Bool {
        guard pinch == nil, isOffsetInRange else { return false }
        let h = horizontalRange
        let v = verticalRange
        var beyond = Point.zero
        if scrollsHorizontally {
            beyond.x = unbanded.x > h.upperBound ? unbanded.x - h.upperBound : min(0, unbanded.x - h.lowerBound)
        }
        if scrollsVertically {
            beyond.y = unbanded.y > v.upperBound ? unbanded.y - v.upperBound : min(0, unbanded.y - v.lowerBound)
        }
        guard beyond != .zero, let outer = enclosingScrollView(toward: beyond, source: state.source) else {
            return false
        }
        contentOffset = clampedOffset(unbanded)
        // The finger travel this view used up is where it met its edge: unbanded = anchor − tr
        // and edge = unbanded − beyond, so that travel is tr + beyond.
        let tr = state.pan.translation
        handOff(to: outer, consumed: tr + beyond, at: state.pan.time)
        return true
    }

    /// Ends this view's part of the gesture (a drag ends without momentum, at its edge) and
    /// gives the fingers to `outer`.
    private func handOff(to outer: ScrollView, consumed: Point, at t: Double) {
        guard let state = touchState else { return }
        window?.cancelTimer(state.timer)
        touchState = nil
        isTracking = false
        if isDragging {
            endDragging(velocity: .zero, at: t, momentum: false)
        } else {
            settleAfterTouch(at: t)
            scheduleIndicatorFade()
        }
        for id in [state.id] + state.extra.keys.sorted() { window?.rerouteTouch(id: id, to: outer) }
        outer.adoptGesture(state, consumed: consumed, at: t)
    }

    /// Takes over a gesture an inner scroll view passed outwards: dragging begins at once,
    /// from the finger's travel beyond `consumed` (what the inner view used up).
    private func adoptGesture(_ inner: TouchState, consumed: Point, at t: Double) {
        stopMotion(at: t)
        var arbiter = TouchArbiter(time: t, delaysContentTouches: false, contentWantsTouch: false)
        _ = arbiter.moved(crossedSlop: true)
        touchState = TouchState(
            id: inner.id, source: inner.source, pan: inner.pan, arbiter: arbiter, target: nil,
            location: inner.location, extra: inner.extra)
        isTracking = true
        beginDragging()
        guard var state = touchState else { return }
        state.anchor = state.anchor + consumed
        touchState = state
        updateDrag(state)
        showIndicatorsIfScrolling()
    }
}
