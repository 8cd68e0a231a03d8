import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayPhysics
import ScrollwayViews

/// Two fingers (or a touchpad pinch) zooming.
struct PinchState {
    var firstID: Int
    var secondID: Int
    var first: Point
    var second: Point
    var tracker: PinchTracker?
    var startScale: Double
    var lastCenter: Point
    var active: Bool
    /// The offset before rubber-banding: anchor scaling and centroid panning move this, and the
    /// shown offset is its banded image, so no finger motion can carry content past the band.
    var unbanded: Point
    /// The offset this pinch last showed; if anything else moved the content since, the
    /// unbanded offset is taken afresh from where it is.
    var lastShown: Point?
    /// Whether the zoom has begun. Two fingers on the screen begin it only once their distance
    /// changes by more than the slop or their centroid crosses it (they pan together, where the
    /// view can move their way: else `handOffTwoFingerSwipe`), as UIKit's pinch begins: two
    /// fingers that land and lift still are no zoom. A touchpad pinch has begun from its first
    /// event.
    var began = true
    /// When the second finger landed (the pinch's fingers were both down).
    var landed = 0.0
    /// Fingers beyond the two that landed while the zoom had not begun, by id: they take no
    /// part in it, and go with the two if those are handed on as a swipe.
    var others: [Int: Point] = [:]
}

/// A zoom animation in log space around a fixed anchor (viewport coordinates).
struct ZoomMotion {
    /// u = ln(s/target); rests at 0.
    var spring: Spring
    var target: Double
    var anchor: Point
    var start: Double
    /// A bounce back from beyond a limit (isZoomBouncing), or a programmatic zoom.
    var bouncing: Bool
}

extension ScrollView {
    /// The delegate's view for zooming, if zooming is possible.
    var zoomView: View? {
        guard maximumZoomScale > minimumZoomScale || zoomScaleStorage != 1 else { return nil }
        return delegate?.viewForZooming(in: self)
    }

    /// Sets the zoom scale (clamped to the limits), about the viewport's centre.
    public func setZoomScale(_ scale: Double, animated: Bool) {
        guard scale.isFinite, scale > 0 else { return }
        let target = min(max(scale, minimumZoomScale), maximumZoomScale)
        let anchor = Point(x: bounds.width / 2, y: bounds.height / 2)
        // Without a view to zoom there is nothing to scale: the scale stays (UIKit's stays 1).
        guard zoomView != nil else { return }
        zoom(toScale: target, anchor: anchor, animated: animated)
    }

    /// Zooms so that `rect` (in the zoom view's own coordinates) fills the viewport, centred.
    public func zoom(to rect: Rect, animated: Bool) {
        guard zoomView != nil, !rect.isEmpty, rect.isFinite else { return }
        let s = zoomScaleStorage
        let target = min(
            max(min(bounds.width / rect.width, bounds.height / rect.height), minimumZoomScale), maximumZoomScale)
        let k = target / s
        // Rect centre at the current scale, relative to the viewport.
        let c = Point(x: rect.midX * s - contentOffset.x, y: rect.midY * s - contentOffset.y)
        let m = Point(x: bounds.width / 2, y: bounds.height / 2)
        guard abs(1 - k) > 1e-9 else {
            setContentOffset(clampedOffset(contentOffset + c - m), animated: animated)
            return
        }
        // The fixed anchor a that carries c to m: (c − a)·k + a = m.
        let a = Point(x: (m.x - c.x * k) / (1 - k), y: (m.y - c.y * k) / (1 - k))
        zoom(toScale: target, anchor: a, animated: animated)
    }

    func zoom(toScale target: Double, anchor: Point, animated: Bool) {
        let t = window?.now ?? 0
        stopMotion(at: t)
        // A jump (the zoomScale setter, setZoomScale or zoom(to:) without animation) is not a
        // zoom gesture: as in UIKit, the delegate hears only didZoom.
        guard animated else {
            applyZoom(target, anchor: anchor)
            bounceBackIfNeeded(at: t)
            return
        }
        // An animated zoom (a double tap, zoom(to:animated:), setZoomScale(animated: true)) is
        // announced like a pinch, so its didEndZooming always has a willBeginZooming before it
        // (UIKit sends both for an animated zoomToRect; the fuzzer found the end arriving alone).
        notify(.willBeginZooming)
        // While fingers hold the content (a drag, a pinch), the zoom applies at once.
        guard window != nil, !isHeldByGesture else {
            applyZoom(target, anchor: anchor)
            notify(.didEndZooming(scale: zoomScaleStorage))
            bounceBackIfNeeded(at: t)
            return
        }
        let u0 = ZoomBand.logScale(zoomScaleStorage, limit: target)
        run(
            .animating(
                ScrollAnimation(
                    motion: .zoom(
                        ZoomMotion(
                            spring: Spring(from: u0, to: 0, omega: Spring.animationOmega), target: target,
                            anchor: anchor, start: t, bouncing: false)), goal: .offset)))
    }

    /// Applies a scale about `anchor` (viewport coordinates): the zoom view is scaled with its
    /// frame origin kept at (0, 0), `contentSize` follows it, and the anchor stays fixed:
    /// `offset' = (offset + a)·s'/s − a`.
    func applyZoom(_ newScale: Double, anchor a: Point) {
        let s = zoomScaleStorage
        guard setZoomGeometry(newScale) else { return }
        contentOffset = Self.zoomedOffset(contentOffset, anchor: a, from: s, to: newScale)
        rebaseGesturesToCurrentOffset()
        notify(.didZoom)
        if case .zoom = motion {} else { restAfterRangeChange() }
    }

    /// A drag or touchpad scroll running while the scale or the range changes continues from the
    /// offset shown now (its anchor belonged to the old scale or edges), so nothing jumps.
    func rebaseGesturesToCurrentOffset() {
        if var state = touchState, isDragging {
            state.anchor = unbandedOffset(contentOffset) + state.pan.translation
            touchState = state
        }
        if touchpad != nil { touchpad!.unbanded = unbandedOffset(contentOffset) }
    }

    /// Scales the zoom view (frame origin kept at 0,0) and sets `contentSize` to follow it.
    /// The caller sets the matching offset next; `contentSize` does not react to the range
    /// change in between (see `finishZoomStep`).
    private func setZoomGeometry(_ newScale: Double) -> Bool {
        guard let view = zoomView, newScale.isFinite, newScale > 0 else { return false }
        let size = view.bounds.size
        view.transform = AffineTransform(scale: newScale)
        view.center = Point(x: size.width * newScale / 2, y: size.height * newScale / 2)
        zoomScaleStorage = newScale
        isApplyingZoom = true
        contentSize = Size(width: size.width * newScale, height: size.height * newScale)
        isApplyingZoom = false
        return true
    }

    static func zoomedOffset(_ o: Point, anchor a: Point, from s: Double, to s2: Double) -> Point {
        Point(
            x: ZoomBand.offsetKeepingAnchor(offset: o.x, anchor: a.x, from: s, to: s2),
            y: ZoomBand.offsetKeepingAnchor(offset: o.y, anchor: a.y, from: s, to: s2))
    }

    /// One pinch step: the scale about `anchor`, then the centroid's pan, on the unbanded
    /// offset; the shown offset is rubber-banded on both axes.
    private func pinchStep(_ p: inout PinchState, scale shown: Double, anchor a: Point, pan delta: Point) {
        // The fingers own the content: nothing else animates it during a pinch.
        if case .idle = motion {} else { stopMotion() }
        if p.lastShown != contentOffset { p.unbanded = unbandedOffset(contentOffset) }
        let s = zoomScaleStorage
        guard setZoomGeometry(shown) else { return }
        p.unbanded = Self.zoomedOffset(p.unbanded, anchor: a, from: s, to: shown) - delta
        let h = horizontalRange
        let v = verticalRange
        contentOffset = Point(
            x: RubberBand.clamp(p.unbanded.x, min: h.lowerBound, max: h.upperBound, dimension: bounds.width),
            y: RubberBand.clamp(p.unbanded.y, min: v.lowerBound, max: v.upperBound, dimension: bounds.height))
        p.lastShown = contentOffset
        rebaseGesturesToCurrentOffset()
        notify(.didZoom)
    }

    func advanceZoom(_ z: ZoomMotion, to t: Double) {
        let dt = t - z.start
        // The spring works in u = ln(s/target): a point d px from the anchor is off by about
        // |u|·d, so it settles once |u| puts the farthest point in view (the viewport's
        // diagonal away at most) within half a device pixel, as an offset's spring does.
        let reach = max(1, (bounds.width * bounds.width + bounds.height * bounds.height).squareRoot())
        if z.spring.isSettled(at: dt, scale: deviceScale * reach) {
            applyZoom(z.target, anchor: z.anchor)
            transition(to: state.withoutMotion)
            notify(.didEndZooming(scale: zoomScaleStorage))
            bounceBackIfNeeded(at: t)
        } else {
            applyZoom(ZoomBand.scale(at: z.spring.position(at: dt), limit: z.target), anchor: z.anchor)
        }
    }

    // MARK: Pinch sources

    /// A second finger joined: pan and pinch together from here.
    func beginPinch(with touch: Touch) {
        guard let first = touchState, pinch == nil, zoomView != nil else { return }
        // The fingers own the content from here: an animation a key started stops.
        stopMotion(at: touch.timestamp)
        var p = PinchState(
            firstID: first.id, secondID: touch.id, first: first.location, second: touch.location,
            tracker: PinchTracker(first.location, touch.location), startScale: zoomScaleStorage,
            lastCenter: Point(
                x: (first.location.x + touch.location.x) / 2, y: (first.location.y + touch.location.y) / 2),
            active: true, unbanded: unbandedOffset(contentOffset), began: false, landed: touch.timestamp)
        if p.tracker == nil { p.active = false }
        pinch = p
    }

    func updatePinch(with touch: Touch) {
        guard var p = pinch else { return }
        if touch.id == p.firstID { p.first = touch.location } else { p.second = touch.location }
        p.tracker?.update(p.first, p.second)
        guard let tracker = p.tracker else { return }
        if !p.began {
            // Nothing zooms until the fingers spread, close or move together past the
            // threshold; then the scale and the pan count from where they landed, so the content
            // point under them stays under them (the pinch's scale is the distance over the
            // distance at landing).
            let spread = abs(tracker.scale - 1) * tracker.startDistance
            let moved = (tracker.center - tracker.startCenter).length
            guard spread > PanTracker.touchSlop || moved > PanTracker.touchSlop else {
                pinch = p
                return
            }
            if spread <= PanTracker.touchSlop, handOffTwoFingerSwipe(p, tracker: tracker, at: touch.timestamp) {
                return
            }
            p.began = true
            // The scale may have changed since the fingers landed (an app's zoom): the pinch
            // scales what is shown when it begins.
            p.startScale = zoomScaleStorage
            p.unbanded = unbandedOffset(contentOffset)
            pinch = p
            notify(.willBeginZooming)
            pinchDidBegin(at: touch.timestamp, scale: tracker.scale)
        }
        let requested = p.startScale * tracker.scale
        let shown = ZoomBand.shownScale(
            requested, minimum: minimumZoomScale, maximum: maximumZoomScale, bounces: bouncesZoom)
        // Pan and pinch together: zoom about the previous centroid, then pan by its motion, so
        // the content point under the fingers stays under them: o' = (o + C0)·k − C1.
        let delta = tracker.center - p.lastCenter
        let anchor = viewportPoint(p.lastCenter)
        p.lastCenter = tracker.center
        pinchStep(&p, scale: shown, anchor: anchor, pan: delta)
        pinch = p
        pinchDidChange(scale: tracker.scale, at: touch.timestamp)
    }

    /// A pinch finger lifted (or was cancelled): the zoom ends (springing back beyond a limit).
    /// The other finger, if it stays, goes on as one finger on the view, as UIKit's pan goes on
    /// with the finger left: a drag under way goes on with it, and a finger that had not
    /// dragged drags past the slop. Returns whether the touch belonged to the pinch.
    func endPinch(touch: Touch, cancelled: Bool = false) -> Bool {
        guard let p = pinch, let first = touchState, touch.id == p.firstID || touch.id == p.secondID else {
            return false
        }
        let t = touch.timestamp
        // The finger left, where it is (the first finger's moves update the pinch only while it
        // can scale: fingers that landed on one point have no distance to scale).
        let left =
            touch.id == p.firstID
            ? (id: p.secondID, location: p.second) : (id: p.firstID, location: p.active ? p.first : first.location)
        let back = ZoomBand.springBack(from: zoomScaleStorage, minimum: minimumZoomScale, maximum: maximumZoomScale)
        let springsBack = p.began && back != nil
        if !cancelled, !springsBack, case .dragging = state {
            // The drag goes on with the finger left, from where the content is now.
            window?.cancelTimer(first.timer)
            var s = first
            s.timer = nil
            s.pinch = nil
            s.id = left.id
            s.location = left.location
            s.extra = [:]
            s.pan.rebase(at: left.location, time: t, keepsVelocity: false)
            touchState = s
            rebaseGesturesToCurrentOffset()
            if p.began {
                // Within the limits (no spring back): didEndZooming, the drag holding the offset.
                pinchDidEnd(cancelled: false)
                finishZoomGesture(anchor: viewportPoint(p.lastCenter), at: t)
            }
            return true
        }
        window?.cancelTimer(first.timer)
        if endTouch(cancelled: cancelled) { endDragging(velocity: .zero, at: t) }
        if p.began {
            pinchDidEnd(cancelled: cancelled)
            finishZoomGesture(anchor: viewportPoint(p.lastCenter), at: t)
        }
        guard !cancelled, !isZoomBouncing, !isDecelerating else {
            // Cancelled (the other touch goes too), springing back from past a zoom limit, or a
            // release gliding: the finger left is not tracked. Still fingers, cancelled, leave
            // the content to rest where it is.
            if !p.began { settleAfterTouch(at: t) }
            return true
        }
        // A finger that had not dragged: tracked from here, as a finger that lands now, catching
        // a spring back the zoom's end began; a programmatic animation runs on under it.
        let animation = state.animation
        if animation == nil { stopMotion(at: t) }
        beginTracking(
            Touch(id: left.id, location: left.location, timestamp: t, source: first.source), content: nil,
            stoppedSpeed: 0, animation: animation)
        return true
    }

    func finishZoomGesture(anchor: Point, at t: Double) {
        if let back = ZoomBand.springBack(from: zoomScaleStorage, minimum: minimumZoomScale, maximum: maximumZoomScale)
        {
            stopMotion(at: t)
            run(
                .zoomBouncing(
                    ZoomMotion(spring: back.spring, target: back.limit, anchor: anchor, start: t, bouncing: true)))
        } else {
            notify(.didEndZooming(scale: zoomScaleStorage))
            bounceBackIfNeeded(at: t)
        }
    }

    /// Touchpad pinch (pointer-gestures): cumulative scale, centroid motion in dx/dy.
    func handleTouchpadPinch(_ event: InputEvent) -> Bool {
        guard zoomView != nil else { return false }
        let anchor = viewportPoint(window?.pointerPosition ?? Point(x: bounds.midX, y: bounds.midY))
        switch event.kind {
        case .pinchBegin:
            // Fingers on the screen or a touchpad scroll already hold the content.
            guard !holdsContent else { return true }
            // The pinch recognizer decides (off, or waiting for another: not this scroll view's).
            guard pinchMayBegin else { return false }
            stopMotion(at: event.time)
            transition(
                to: .touchpadPinching(
                    PinchState(
                        firstID: Int.min, secondID: Int.min, first: .zero, second: .zero, tracker: nil,
                        startScale: zoomScaleStorage,
                        lastCenter: .zero, active: false, unbanded: unbandedOffset(contentOffset))))
            notify(.willBeginZooming)
            pinchDidBegin(at: event.time)
        case .pinchUpdate(let scale, let dx, let dy):
            guard var p = touchpadPinch, scale.isFinite, scale > 0 else { return true }
            let shown = ZoomBand.shownScale(
                p.startScale * scale, minimum: minimumZoomScale, maximum: maximumZoomScale, bounces: bouncesZoom)
            let pan = dx.isFinite && dy.isFinite ? Point(x: dx, y: dy) : .zero
            pinchStep(&p, scale: shown, anchor: anchor, pan: pan)
            touchpadPinch = p
            pinchDidChange(scale: scale, at: event.time)
        case .pinchEnd(let cancelled):
            guard touchpadPinch != nil else { return true }
            transition(to: .idle)
            pinchDidEnd(cancelled: cancelled)
            finishZoomGesture(anchor: anchor, at: event.time)
        default:
            return false
        }
        return true
    }

    /// Ctrl+wheel: ×1.1 per detent about the pointer, within the limits.
    func handleControlWheel(value: Double, value120: Double?, at t: Double) -> Bool {
        guard zoomView != nil else { return false }
        let detents = (value120 ?? value / 10 * 120) / 120
        // Wheel down (positive) zooms out, as in browsers.
        let target = min(max(zoomScaleStorage * pow11(-detents), minimumZoomScale), maximumZoomScale)
        let anchor = viewportPoint(window?.pointerPosition ?? Point(x: bounds.midX, y: bounds.midY))
        stopMotion(at: t)
        // Each detent is a step, not a gesture with a beginning and an end: didZoom only, as
        // for any zoom without animation.
        applyZoom(target, anchor: anchor)
        contentOffset = clampedOffset(contentOffset)
        return true
    }

    /// A double tap toggles between the minimum and twice it (within the maximum) at the tap.
    func handleDoubleTap(at windowPoint: Point) {
        guard doubleTapZooms, zoomView != nil else { return }
        let anchor = viewportPoint(windowPoint)
        let target =
            zoomScaleStorage > minimumZoomScale + 1e-6 ? minimumZoomScale : min(maximumZoomScale, 2 * minimumZoomScale)
        zoom(toScale: target, anchor: anchor, animated: true)
    }

    /// A window point in viewport coordinates (relative to the visible top-left).
    func viewportPoint(_ windowPoint: Point) -> Point { convert(windowPoint, from: nil) - contentOffset }

    private func pow11(_ n: Double) -> Double { ZoomBand.scale(at: n * ZoomBand.logScale(1.1, limit: 1), limit: 1) }
}
