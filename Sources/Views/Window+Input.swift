import ScrollwayGeometry
import ScrollwayGestures

/// Where one touch's events go: the view it landed on, and the view (if any) that intercepts it
/// (`TouchInterceptor`: a scroll view) and decides when, and whether, that view hears of it.
struct TouchRoute {
    weak var target: View?
    weak var interceptor: (any View & TouchInterceptor)?
    /// Whether a view intercepted the touch: if that view is gone, the touch is dropped
    /// rather than delivered to a target that never heard it begin.
    let intercepted: Bool
    let source: Touch.Source
    /// Where the touch was last seen (wl_touch.up carries no position).
    var location: Point
}

extension Window {
    /// The touch id used for the mouse's left button, which acts as a finger on views (buttons
    /// click) and, where enabled, drags scroll views.
    public static let mouseTouchID = -1

    /// Dispatches one platform-neutral event: touches to the hit view (through an intercepting
    /// scroll view), pointer buttons as a mouse "touch", axis/pinch/hold to the views under the
    /// pointer (innermost first), keys to the focused view (Tab, if it declines, moves the
    /// focus), then under the pointer, then to the first scroll view in the tree.
    public func handle(_ event: InputEvent) {
        notifyObservers { $0.window(self, willHandle: event) }
        advanceClock(to: event.time)
        let t = event.time
        // A press that comes straight after the window became key is the click (or tap) that
        // activated it; one after the pointer moved or a key was typed in it is not.
        switch event.kind {
        case .touchDown, .pointerButton(_, pressed: true):
            isActivatingPress = becameKeyAwaitingPress
            becameKeyAwaitingPress = false
        case .pointerMotion, .key:
            becameKeyAwaitingPress = false
            isActivatingPress = false
        default:
            break
        }
        switch event.kind {
        case .touchDown(let id, let p):
            beginTouch(Touch(id: id, location: p, timestamp: t, source: .finger))
        case .touchMotion(let id, let p):
            moveTouch(id: id, to: p, time: t)
        case .touchUp(let id):
            endTouch(id: id, time: t)
        case .touchCancel:
            for id in touchRoutes.keys.sorted() where id != Self.mouseTouchID { cancelTouch(id: id, time: t) }
        case .touchFrame, .pointerFrame:
            break
        case .pointerEnter(let p), .pointerMotion(let p):
            pointerPosition = p
            if touchRoutes[Self.mouseTouchID] != nil {
                moveTouch(id: Self.mouseTouchID, to: p, time: t)
            } else {
                bubble(event, from: pointerPosition)
            }
        case .pointerLeave:
            let last = pointerPosition
            pointerPosition = nil
            // The views under where it was hear that it left (a scroll bar it widened narrows).
            if let last { bubble(event, from: last) }
            // A compositor holds the pointer on the surface a button was pressed on until it is
            // released; a leave with the button down means the pointer was taken away (a grab
            // of the compositor's or another client's, a rig parking it for a capture), and the
            // release will not come here. The mouse's drag is cancelled, as a touch the
            // compositor cancels is: left held, the next plain motion after the pointer came
            // back dragged the content. What the press stopped still hears a release.
            if touchRoutes[Self.mouseTouchID] != nil { cancelTouch(id: Self.mouseTouchID, time: t) }
        case .pointerButton(let button, let pressed):
            // Any button stops touchpad momentum and wheel animations under the pointer; the
            // release goes to the chain the press went to, so what a press stopped (a bounce)
            // hears the release even if the pointer left the window (found by the fuzzer).
            if pressed {
                pointerPressView = pointerPosition.flatMap { hitTest($0) }
                bubble(event, from: pointerPosition)
            } else {
                if let pressedOn = pointerPressView, pressedOn.window === self {
                    bubble(event, fromView: pressedOn)
                } else {
                    bubble(event, from: pointerPosition)
                }
                pointerPressView = nil
            }
            guard button == .left else { return }
            if pressed {
                if let p = pointerPosition {
                    beginTouch(Touch(id: Self.mouseTouchID, location: p, timestamp: t, source: .mouse))
                }
            } else {
                endTouch(id: Self.mouseTouchID, time: t)
            }
        case .axis(let axis, _, .finger, _):
            // A touchpad scroll goes where its first event went until its fingers lift, whatever
            // slides under the pointer meanwhile (the on-screen keyboard rising over it: the
            // fuzzer found the scroll's axis_stop going to a key and the list dragging forever).
            if let latch = touchpadLatch, latch.window === self {
                bubble(event, fromView: latch)
            } else {
                touchpadLatch = pointerPosition.flatMap { hitTest($0) }
                bubble(event, fromView: touchpadLatch)
            }
            touchpadAxes.insert(axis)
        case .axisStop(let axis):
            if let latch = touchpadLatch, latch.window === self {
                bubble(event, fromView: latch)
            } else {
                bubble(event, from: pointerPosition)
            }
            touchpadAxes.remove(axis)
            if touchpadAxes.isEmpty { touchpadLatch = nil }
        case .pinchBegin, .pinchUpdate, .pinchEnd:
            if recognizersTakeTouchpadPinch(event) { return }
            bubble(event, from: pointerPosition)
        case .axis, .holdBegin, .holdEnd:
            bubble(event, from: pointerPosition)
        case .key(_, _, let mods):
            modifiers = mods
            dispatchKey(event)
        case .modifiers(let mods):
            modifiers = mods
        case .text:
            dispatchKey(event)
        case .textInput:
            // An input method talks to the focused field only: with none, the update is moot.
            _ = focusedView?.handleInput(event)
        }
    }

    private func dispatchKey(_ event: InputEvent) {
        var v = focusedView
        while let current = v {
            if current.handleInput(event) { return }
            v = current.superview
        }
        // Tab and Shift+Tab, not taken by the focused view, move the focus.
        if case .key(.tab, let pressed, let mods) = event.kind, mods.isDisjoint(with: [.control, .alt, .logo]) {
            if pressed { moveFocus(backwards: mods.contains(.shift)) }
            return
        }
        if bubble(event, from: pointerPosition) { return }
        _ = firstInputHandler()?.handleInput(event)
    }

    /// Hands the rest of touch `id` to another intercepting view: its later moves, its end or
    /// its cancel go there. Nested scroll views use it to pass a gesture outwards (the inner one
    /// cannot move in the gesture's direction, or reached its edge); the hit view stays the same.
    public func rerouteTouch(id: Int, to interceptor: any View & TouchInterceptor) {
        touchRoutes[id]?.interceptor = interceptor
    }

    private func beginTouch(_ touch: Touch) {
        if touchRoutes[touch.id] != nil { cancelTouch(id: touch.id, time: touch.timestamp) }
        let hit = hitTest(touch.location)
        var interceptor: (any View & TouchInterceptor)?
        var v = hit
        while let c = v {
            if let i = c as? any View & TouchInterceptor, i.interceptsTouches(from: touch.source) {
                interceptor = i
                break
            }
            v = c.superview
        }
        touchRoutes[touch.id] = TouchRoute(
            target: hit, interceptor: interceptor, intercepted: interceptor != nil, source: touch.source,
            location: touch.location)
        // Recognizers hear of a touch before the views do (as in UIKit).
        startTouchSerial(for: touch.id)
        let serial = gestureArena.serials[touch.id]
        recognizersBegin(touch, hit: hit, interceptor: interceptor)
        // A recognizer's action may have ended the touch (it removed the views under it).
        guard gestureArena.serials[touch.id] == serial, let route = touchRoutes[touch.id] else { return }
        if let interceptor = route.interceptor {
            interceptor.interceptedTouchBegan(touch, target: route.target)
        } else if let hit = route.target {
            deliverTouch(.began, touch, to: hit)
        }
    }

    private func moveTouch(id: Int, to p: Point, time: Double) {
        guard var route = touchRoutes[id] else { return }
        route.location = p
        touchRoutes[id] = route
        let touch = Touch(id: id, location: p, timestamp: time, source: route.source)
        let serial = gestureArena.serials[id]
        recognizersMove(touch)
        guard gestureArena.serials[id] == serial, let current = touchRoutes[id] else { return }
        route = current
        if let i = route.interceptor {
            i.interceptedTouchMoved(touch)
        } else if route.intercepted {
            touchRoutes[id] = nil
            finishTouchSerial(for: id)
        } else if let target = route.target {
            deliverTouch(.moved, touch, to: target)
        }
    }

    private func endTouch(id: Int, time: Double) {
        guard let route = touchRoutes[id] else { return }
        let touch = Touch(id: id, location: route.location, timestamp: time, source: route.source)
        // Recognizers first, while the touch is still live: one that recognizes now takes it
        // from the views even if none has had it yet (a scroll view's held tap).
        let serial = gestureArena.serials[id]
        recognizersEnd(touch, cancelled: false)
        // A recognizer's action may have cancelled the touch meanwhile (it removed the views
        // under it): then it is over, and nothing more is said of it.
        guard gestureArena.serials[id] == serial, let route = touchRoutes.removeValue(forKey: id) else { return }
        if let i = route.interceptor {
            i.interceptedTouchEnded(touch)
        } else if !route.intercepted, let target = route.target {
            deliverTouch(.ended, touch, to: target)
        }
        finishTouchSerial(for: id)
    }

    private func cancelTouch(id: Int, time: Double) {
        guard let route = touchRoutes[id] else { return }
        let touch = Touch(id: id, location: route.location, timestamp: time, source: route.source)
        let serial = gestureArena.serials[id]
        recognizersEnd(touch, cancelled: true)
        guard gestureArena.serials[id] == serial, let route = touchRoutes.removeValue(forKey: id) else { return }
        if let i = route.interceptor {
            i.interceptedTouchCancelled(touch)
        } else if !route.intercepted, let target = route.target {
            deliverTouch(.cancelled, touch, to: target)
        }
        finishTouchSerial(for: id)
    }

    /// Before `view` leaves the window: cancels every touch whose intercepting view is in its
    /// subtree (a scroll view ends its drag as on a cancel: a pager settles on a page), and every
    /// unintercepted touch on a view in it. A touch whose intercepting view stays (a list whose
    /// row under the finger is recycled) goes on: that view still has the gesture, and only
    /// stops telling the leaving content view about it.
    func cancelTouches(leaving view: View) {
        // Called for every view that leaves (a list recycles rows all through a fling): with no
        // finger down there is nothing to look at.
        guard !touchRoutes.isEmpty else { return }
        for id in touchRoutes.keys.sorted() {
            guard var route = touchRoutes[id] else { continue }
            let leaves =
                route.interceptor.map { $0.isDescendant(of: view) }
                ?? (route.intercepted || route.target?.isDescendant(of: view) == true)
            if leaves {
                cancelTouch(id: id, time: now)
            } else if let interceptor = route.interceptor, route.target?.isDescendant(of: view) == true {
                interceptor.interceptedTouchTargetWillLeave(
                    Touch(id: id, location: route.location, timestamp: now, source: route.source))
                route.target = nil
                touchRoutes[id] = route
            }
        }
    }

    /// Offers `event` to the view under `point` and its ancestors, innermost first.
    @discardableResult
    private func bubble(_ event: InputEvent, from point: Point?) -> Bool {
        guard let point else { return false }
        return bubble(event, fromView: hitTest(point))
    }

    /// Offers `event` to `view` and then each of its ancestors until one handles it.
    @discardableResult
    private func bubble(_ event: InputEvent, fromView view: View?) -> Bool {
        var v = view
        while let current = v {
            if current.handleInput(event) { return true }
            v = current.superview
        }
        return false
    }

    /// The first view (nearest the root first) that takes keys without a hit
    /// (`KeyboardScrollTarget`): the scene's scroll view.
    private func firstInputHandler() -> View? {
        var queue: [View] = [self]
        while !queue.isEmpty {
            let v = queue.removeFirst()
            if (v as? KeyboardScrollTarget)?.acceptsKeyboardScrolling == true { return v }
            queue += v.subviews
        }
        return nil
    }
}
