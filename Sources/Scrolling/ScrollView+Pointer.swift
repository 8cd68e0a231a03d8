import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayPhysics
import ScrollwayViews

/// A touchpad scroll in progress (finger axis events until axis_stop).
struct TouchpadState {
    /// Unbanded offset, moved 1:1 (× multiplier) by the fingers.
    var unbanded: Point
    /// Offset samples for the momentum velocity (the last 150 ms).
    var tracker = VelocityTracker(window: 0.150)
    /// The axes this scroll has had events on: it ends once each has had its axis_stop.
    var axes: Set<Axis> = []
    /// The clamped offset when the scroll began (a paging release moves at most ±1 page).
    var dragStart: Point?

    /// How long after the last motion the axis_stop may come and still throw. The stop comes
    /// when libinput sees the fingers lift, a few of the pad's frames after the last motion even
    /// in a fast swipe: the contact fades over frames that move little or nothing. This is many
    /// such frames (their intervals are in docs/decisions.md, "A finger scroll is held until its
    /// stop"), past any lift's lag; fingers still that long before lifting were stopped, and
    /// throw nothing.
    static let liftStillness = 0.100
}

extension ScrollView {
    /// Keyboard steps: arrows move 40 px; a page is the viewport less 40 px.
    public static let arrowStep = 40.0
    public static let pageOverlap = 40.0

    func handleScrollInput(_ event: InputEvent) -> Bool {
        let t = event.time
        switch event.kind {
        case .axis(let axis, let value, let source, let value120):
            return handleAxis(axis, value: value, source: source, value120: value120, at: t)
        case .axisStop(let axis):
            // Never "handled": the fingers left the touchpad for every view scrolling under
            // them, so an ancestor that took the scroll over at this view's edge ends its own
            // too (the fuzzer found the outer view's drag left open when the inner took the stop).
            guard var pad = touchpad else { return false }
            // The scroll is this view's on every axis (latched): it ends with its last axis.
            pad.axes.remove(axis)
            guard pad.axes.isEmpty else {
                touchpad = pad
                return false
            }
            transition(to: .releasing(dragStart: pad.dragStart))
            // The motions' velocity over the tracker's window; the stop is no sample of its own.
            let v = pad.tracker.velocity(endingAt: t, stillness: TouchpadState.liftStillness)
            endDragging(velocity: v, at: t)
            return false
        case .holdBegin:
            // Fingers resting on the touchpad stop its momentum.
            if isDecelerating { stopMotion(at: t) }
            return isScrollEnabled
        case .holdEnd(let cancelled):
            // They lift: what their hold stopped between pages (or a view's own resting
            // places) settles as after a touch. A hold cancelled became a scroll, whose own
            // end settles it.
            if !cancelled, case .idle = motion { settleAfterTouch(at: t) }
            return false
        case .pointerButton(_, let pressed):
            // A click stops a glide, as a touch does; when it lets go without a drag having
            // taken over, whatever it stopped outside the range (or between pages) settles
            // back, as after a touch (the fuzzer found a click that left a bounce 72 px out).
            if pressed {
                if isDecelerating || isWheelAnimating { stopMotion(at: t) }
            } else if !isHeldByGesture, case .idle = motion {
                settleAfterTouch(at: t)
            }
            return false
        case .key(let key, let pressed, let modifiers):
            guard pressed, isScrollEnabled, allowsKeyboardScrolling else { return false }
            // While fingers hold the content (drag, pinch), keys do not fight them for it.
            if isHeldByGesture { return true }
            return handleKey(key, modifiers: modifiers, at: t)
        case .pinchBegin, .pinchUpdate, .pinchEnd:
            return handleTouchpadPinch(event)
        case .pointerMotion(let p):
            return handleIndicatorHover(at: p)
        case .pointerLeave:
            // Every scroll view under where the pointer was hears it (never handled).
            pointerDidLeave()
            return false
        default:
            return false
        }
    }

    var isWheelAnimating: Bool {
        if case .wheel = motion { return true }
        return false
    }

    private func handleAxis(_ axis: Axis, value: Double, source: AxisSource, value120: Double?, at t: Double) -> Bool {
        guard isScrollEnabled, value.isFinite else { return false }
        let mods = window?.modifiers ?? []
        if mods.contains(.control), source == .wheel || source == .wheelTilt {
            return handleControlWheel(value: value, value120: value120, at: t)
        }
        // Shift swaps the axes of a wheel.
        var axis = axis
        if mods.contains(.shift), source == .wheel { axis = axis == .vertical ? .horizontal : .vertical }
        let vertical = axis == .vertical
        let scrollsOnAxis = vertical ? scrollsVertically : scrollsHorizontally
        // Touchpad fingers move the content directly, × touchpadMultiplier.
        let fingerDelta =
            vertical ? Point(x: 0, y: value * touchpadMultiplier) : Point(x: value * touchpadMultiplier, y: 0)
        // A touchpad scroll latches to the view that took its first event: the rest of it, on
        // either axis, is this view's until the fingers lift (a diagonal swipe on a horizontal
        // pager does not scroll the list around it too).
        if source == .finger, touchpad != nil {
            touchpad?.axes.insert(axis)
            if scrollsOnAxis {
                touchpadMove(fingerDelta, at: t)
                showIndicatorsIfScrolling()
            }
            return true
        }
        guard scrollsOnAxis else { return false }
        if source == .wheel || source == .wheelTilt || source == .finger,
            passesAxisOutwards(vertical ? Point(x: 0, y: value) : Point(x: value, y: 0))
        {
            return false
        }
        // Any new axis event ends touchpad momentum.
        if isDecelerating { stopMotion(at: t) }
        // What holds the content keeps it: a drag or pinch, a touchpad scroll against a wheel,
        // and fingers on the screen against the touchpad (one gesture at a time).
        switch state {
        case .dragging, .releasing, .touchpadPinching, .touchpadScrolling: return true
        case .tracking(let s, _) where s.pinch != nil || source == .finger: return true
        default: break
        }
        switch source {
        case .wheel, .wheelTilt:
            // Detents: value120, else the legacy discrete step ×120 (the platform folds that into
            // value120), else value/10 detents.
            let detents120 = value120 ?? value / 10 * 120
            if isPagingEnabled {
                pageByWheel(detents120: detents120, vertical: vertical)
                return true
            }
            let step = WheelAnimation.step(viewport: vertical ? bounds.height : bounds.width, value120: detents120)
            wheelStep(vertical ? Point(x: 0, y: step) : Point(x: step, y: 0), at: t)
        case .finger:
            touchpadMove(fingerDelta, at: t)
            touchpad?.axes.insert(axis)
        case .continuous:
            stopMotion(at: t)
            let d = vertical ? Point(x: 0, y: value) : Point(x: value, y: 0)
            contentOffset = clampedOffset(contentOffset + d)
        }
        showIndicatorsIfScrolling()
        return true
    }

    /// One wheel detent (or part): re-aims the wheel animation; never past the edges.
    private func wheelStep(_ delta: Point, at t: Double) {
        let h = horizontalRange
        let v = verticalRange
        var wx: WheelAnimation
        var wy: WheelAnimation
        if case .wheel(let x, let y) = motion {
            wx = x
            wy = y
        } else {
            stopMotion(at: t)
            wx = WheelAnimation(from: contentOffset.x, to: contentOffset.x, at: t)
            wy = WheelAnimation(from: contentOffset.y, to: contentOffset.y, at: t)
        }
        wx.retarget(by: delta.x, at: t, within: h.lowerBound, h.upperBound)
        wy.retarget(by: delta.y, at: t, within: v.lowerBound, v.upperBound)
        run(.animating(ScrollAnimation(motion: .wheel(x: wx, y: wy), goal: .offset)))
    }

    /// A wheel over a paging view turns a page a detent, animated as keys page (a step of the
    /// viewport's ⅔ power left it resting between pages): parts of a detent (a high-resolution
    /// wheel's) add up until they make one, and a turn the other way, or on the other axis,
    /// starts the count afresh.
    private func pageByWheel(detents120: Double, vertical: Bool) {
        var credit = pagingWheelCredit.vertical == vertical ? pagingWheelCredit.detents120 : 0
        if credit != 0, (credit > 0) != (detents120 > 0) { credit = 0 }
        credit += detents120
        let pages = (credit / 120).rounded(.towardZero)
        pagingWheelCredit = (vertical, credit - pages * 120)
        guard pages != 0 else { return }
        turnPages(vertical ? Point(x: 0, y: pages) : Point(x: pages, y: 0))
    }

    /// Moves a paging view `pages` pages along each axis from the page it shows or is heading
    /// to (`pageOffset(from:turning:page:range:)`), animated, within the range.
    private func turnPages(_ pages: Point) {
        settleZoomAnimation()
        let base = animationTarget ?? contentOffset
        let target = Point(
            x: Self.pageOffset(from: base.x, turning: pages.x, page: bounds.width, range: horizontalRange),
            y: Self.pageOffset(from: base.y, turning: pages.y, page: bounds.height, range: verticalRange))
        setContentOffset(target, animated: true)
    }

    /// Touchpad fingers move the content directly (× the multiplier), rubber-banded; the first
    /// event begins a drag for the delegate.
    private func touchpadMove(_ delta: Point, at t: Double) {
        if touchpad == nil {
            stopMotion(at: t)
            transition(
                to: .touchpadScrolling(
                    TouchpadState(unbanded: unbandedOffset(contentOffset), dragStart: clampedOffset(contentOffset))))
            notify(.willBeginDragging)
        }
        touchpad!.unbanded += delta
        touchpad!.tracker.add(time: t, position: touchpad!.unbanded)
        contentOffset = bandedOffset(touchpad!.unbanded)
    }

    private func handleKey(_ key: Key, modifiers: Modifiers, at t: Double) -> Bool {
        if isPagingEnabled { return handlePagingKey(key, modifiers: modifiers, at: t) }
        // A key this view does not scroll by is not its business: it must not stop a bounce
        // on its way back into range (found by the event-stream fuzzer: Up in a horizontal
        // pager stopped the bounce and left the offset 20 px outside the range).
        switch key {
        case .left, .right: guard scrollsHorizontally else { return false }
        case .up, .down, .pageUp, .pageDown, .space, .home, .end: guard scrollsVertically else { return false }
        default: return false
        }
        settleZoomAnimation()
        if isDecelerating { stopMotion(at: t) }
        let base = animationTarget ?? contentOffset
        let page = max(0, bounds.height - Self.pageOverlap)
        var target = base
        switch key {
        case .up: target.y -= Self.arrowStep
        case .down: target.y += Self.arrowStep
        case .left: target.x -= Self.arrowStep
        case .right: target.x += Self.arrowStep
        case .pageUp: target.y -= page
        case .pageDown: target.y += page
        case .space: target.y += modifiers.contains(.shift) ? -page : page
        case .home: target.y = verticalRange.lowerBound
        case .end: target.y = verticalRange.upperBound
        default: return false
        }
        setContentOffset(
            clampedOffset(target), animated: true,
            goal: key == .end ? .end : key == .home ? .top(announces: false) : .offset)
        showIndicatorsIfScrolling()
        return true
    }

    /// Whether a scroll view around this one scrolls vertically: the page keys are its then (a
    /// carousel in a feed), not a sideways pager's.
    private var isInsideVerticalScroller: Bool {
        var v = superview
        while let current = v {
            if let s = current as? ScrollView, s.isScrollEnabled, s.scrollsVertically { return true }
            v = current.superview
        }
        return false
    }

    /// Keys in a paging view turn pages, so that it rests on one (40 px arrows and viewport less
    /// 40 px pages left it between two): the arrows a page along their axis; Page Up and Down,
    /// Space and Shift+Space a page, and Home and End to the first and last page, along the
    /// vertical axis, or the horizontal one in a pager that scrolls only sideways and sits in
    /// no vertically scrolling view.
    private func handlePagingKey(_ key: Key, modifiers: Modifiers, at t: Double) -> Bool {
        let pageAxisVertical = scrollsVertically || !scrollsHorizontally
        var pages = Point.zero
        switch key {
        case .left, .right:
            guard scrollsHorizontally else { return false }
            pages.x = key == .right ? 1 : -1
        case .up, .down:
            guard scrollsVertically else { return false }
            pages.y = key == .down ? 1 : -1
        case .pageUp, .pageDown, .space:
            guard scrollsVertically || (scrollsHorizontally && !isInsideVerticalScroller) else { return false }
            let n: Double = key == .pageDown || (key == .space && !modifiers.contains(.shift)) ? 1 : -1
            if pageAxisVertical { pages.y = n } else { pages.x = n }
        case .home, .end:
            guard scrollsVertically || (scrollsHorizontally && !isInsideVerticalScroller) else { return false }
            // Past every page: the range's clamp makes it the first or the last.
            let n = key == .end ? Double(Int32.max) : -Double(Int32.max)
            if pageAxisVertical { pages.y = n } else { pages.x = n }
        default:
            return false
        }
        if isDecelerating { stopMotion(at: t) }
        turnPages(pages)
        showIndicatorsIfScrolling()
        return true
    }
}
