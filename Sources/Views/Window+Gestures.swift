import ScrollwayGeometry
import ScrollwayGestures

/// What the window keeps of gesture recognizers between events: which recognizers follow each
/// touch, and what the views under the touches are still owed.
struct GestureArena {
    /// The recognizers told of each touch now down, by touch id: the hit view's first, then
    /// each ancestor's, each view's in the order they were added.
    var byTouch: [Int: [GestureRecognizer]] = [:]
    /// Every recognizer that has heard of a touch since its last reset (arbitration looks here).
    var involved: [GestureRecognizer] = []
    /// The touch ids each involved recognizer has followed since its reset: recognizers that
    /// share one arbitrate against each other.
    var seen: [ObjectIdentifier: Set<Int>] = [:]
    /// What each live touch's view has been told, by touch id.
    var viewTouches: [Int: ViewTouch] = [:]
    /// Touch ends held for the views while a recognizer may still recognize (`delaysTouchesEnded`).
    var heldEnds: [HeldEnd] = []
    /// The pinch recognizer following the touchpad's pinch, from its begin to its end.
    weak var touchpadPinch: PinchGestureRecognizer?

    /// One touch as its view sees it.
    struct ViewTouch {
        weak var view: View?
        /// The touch as last delivered (or held): a cancel says where it was.
        var last: Touch
        /// The view has had its began (so it is owed an end or a cancel).
        var began = false
        /// A began held while a recognizer with `delaysTouchesBegan` may recognize.
        var heldBegin: Touch?
        /// A recognizer took the touch (`cancelsTouchesInView`): the view hears no more of it.
        var claimed = false
    }

    struct HeldEnd {
        let touch: Touch
        weak var view: View?
        /// A began that was held too (`delaysTouchesBegan`): the view has not had it yet.
        var began: Touch?
        /// The recognizers that may still recognize it.
        var waitingOn: [Weak<GestureRecognizer>]
    }
}

/// The phases of a touch as a view hears them.
public enum TouchPhase: Hashable, Sendable { case began, moved, ended, cancelled }

extension Window {
    // MARK: Touches to recognizers

    /// Tells the recognizers of the views from `hit` up to the window of a new touch.
    /// `interceptor` is the scroll view (if any) that takes the touch: its own recognizers
    /// take part in arbitration, those of a scroll view that does not take it do not.
    func recognizersBegin(_ touch: Touch, hit: View?, interceptor: View?) {
        var found: [GestureRecognizer] = []
        var v = hit
        while let current = v {
            // One that finished waits for its touches to lift before it hears of new ones.
            for g in current.gestureRecognizers where g.isEnabled && !g.isFinished {
                if g.isDrivenByOwner {
                    guard let owner = interceptor, current === owner || owner.isDescendant(of: current),
                        (current as? any TouchInterceptor)?.interceptsTouches(from: touch.source) == true
                    else { continue }
                }
                guard g.allowedTouchSources.contains(touch.source),
                    g.delegate?.gestureRecognizer(g, shouldReceive: touch) != false
                else { continue }
                found.append(g)
            }
            v = current.superview
        }
        guard !found.isEmpty else { return }
        gestureArena.byTouch[touch.id] = found
        for g in found {
            if !g.isInvolved { gestureArena.involved.append(g) }
            gestureArena.seen[ObjectIdentifier(g), default: []].insert(touch.id)
            g.deliverBegan([touch])
        }
    }

    func recognizersMove(_ touch: Touch) {
        guard let list = gestureArena.byTouch[touch.id] else { return }
        for g in list where g.touches.contains(where: { $0.id == touch.id }) && !g.isFinished {
            g.deliverMoved([touch])
        }
    }

    func recognizersEnd(_ touch: Touch, cancelled: Bool) {
        guard let list = gestureArena.byTouch.removeValue(forKey: touch.id) else { return }
        for g in list where g.touches.contains(where: { $0.id == touch.id }) {
            g.deliverEnded([touch], cancelled: cancelled)
        }
        forgetResetRecognizers()
    }

    /// Offers a touchpad pinch event to the pinch recognizers of the views under the pointer
    /// (innermost first); the one that takes the begin gets the rest. Returns whether one did.
    func recognizersTakeTouchpadPinch(_ event: InputEvent) -> Bool {
        if case .pinchBegin = event.kind {
            var v = pointerPosition.flatMap { hitTest($0) }
            while let current = v {
                for case let g as PinchGestureRecognizer in current.gestureRecognizers
                where g.isEnabled && !g.isDrivenByOwner && g.handleTouchpadPinch(event.kind, at: event.time) {
                    gestureArena.touchpadPinch = g
                    return true
                }
                v = current.superview
            }
            return false
        }
        guard let g = gestureArena.touchpadPinch else { return false }
        if case .pinchEnd = event.kind { gestureArena.touchpadPinch = nil }
        return g.handleTouchpadPinch(event.kind, at: event.time)
    }

    /// Whether any recognizer still follows touches or waits (a tap waiting for its second).
    public var hasGesturesInProgress: Bool { !gestureArena.involved.isEmpty }

    // MARK: Touches to views

    /// Gives a view its touch, as the recognizers allow: a touch a recognizer took is dropped
    /// (its view had a cancel), a began or an end a recognizer delays is held until that
    /// recognizer fails. Scroll views deliver their content's touches through here too, so
    /// recognizers treat content under a scroll view like any other view.
    public func deliverTouch(_ phase: TouchPhase, _ touch: Touch, to view: View) {
        // A touch a recognizer took stays taken until the window's touch ends, even if a view
        // is offered it late (a scroll view's held content touch).
        if gestureArena.viewTouches[touch.id]?.claimed == true { return }
        var vt = GestureArena.ViewTouch(view: view, last: touch)
        if let existing = gestureArena.viewTouches[touch.id], existing.view === view, phase != .began {
            vt = existing
        }
        vt.last = touch
        switch phase {
        case .began:
            if delayingRecognizers(for: touch.id, began: true).isEmpty {
                vt.began = true
                gestureArena.viewTouches[touch.id] = vt
                view.touchesBegan([touch])
            } else {
                vt.heldBegin = touch
                gestureArena.viewTouches[touch.id] = vt
            }
        case .moved:
            gestureArena.viewTouches[touch.id] = vt
            if vt.heldBegin != nil {
                vt.heldBegin?.location = touch.location
                gestureArena.viewTouches[touch.id] = vt
            } else if vt.began {
                view.touchesMoved([touch])
            }
        case .ended:
            gestureArena.viewTouches[touch.id] = nil
            let waiting =
                delayingRecognizers(for: touch.id, began: vt.heldBegin != nil)
                + delayingRecognizers(for: touch.id, began: false)
            if let held = vt.heldBegin {
                if waiting.isEmpty {
                    view.touchesBegan([held])
                    view.touchesEnded([touch])
                } else {
                    gestureArena.heldEnds.append(
                        .init(touch: touch, view: view, began: held, waitingOn: waiting.map(Weak.init)))
                }
            } else if vt.began {
                if waiting.isEmpty {
                    view.touchesEnded([touch])
                } else {
                    gestureArena.heldEnds.append(.init(touch: touch, view: view, waitingOn: waiting.map(Weak.init)))
                }
            }
        case .cancelled:
            gestureArena.viewTouches[touch.id] = nil
            if vt.began { view.touchesCancelled([touch]) }
        }
    }

    /// The app recognizers following touch `id` that may still recognize and hold its view's
    /// began (`began`) or end.
    private func delayingRecognizers(for id: Int, began: Bool) -> [GestureRecognizer] {
        (gestureArena.byTouch[id]
            ?? gestureArena.involved.filter { gestureArena.seen[ObjectIdentifier($0)]?.contains(id) == true })
            .filter { g in
                !g.isDrivenByOwner && g.storedState == .possible && g.isInvolved
                    && (began ? g.delaysTouchesBegan : g.delaysTouchesEnded)
            }
    }

    // MARK: Arbitration

    /// A recognizer asks for `new` (its subclass set `state`).
    func gestureRecognizer(_ g: GestureRecognizer, requests new: GestureRecognizer.State) {
        let old = g.storedState
        switch (old, new) {
        case (.possible, .began), (.possible, .ended):
            switch decision(for: g) {
            case .fail:
                fail(g)
            case .wait:
                g.pendingState = new
            case .proceed:
                g.applyState(new)
                didRecognize(g)
                if new == .ended { finish(g) }
            }
        case (.possible, .failed), (.possible, .cancelled):
            fail(g)
        case (.began, .changed), (.changed, .changed):
            g.applyState(.changed)
        case (.began, .ended), (.changed, .ended), (.began, .cancelled), (.changed, .cancelled):
            g.applyState(new)
            finish(g)
        default:
            // Any other change (back to possible, or out of a finished state) is not a
            // transition UIKit allows; the state stays.
            break
        }
    }

    /// Whether `g` may recognize now: it fails if its delegate says no, if a recognizer it
    /// shares touches with is already recognizing and may not recognize with it, or if one it
    /// waits for recognized; it waits while one it waits for may still recognize.
    public func decision(for g: GestureRecognizer) -> RecognitionDecision {
        guard g.isEnabled, g.delegate?.gestureRecognizerShouldBegin(g) != false else { return .fail }
        let peers = self.peers(of: g)
        for p in peers where p.storedState == .began || p.storedState == .changed {
            if !mayCoexist(g, p), p.canPrevent(g), g.canBePrevented(by: p) { return .fail }
        }
        var wait = false
        for r in gestureArena.involved where r !== g && g.waits(for: r) {
            switch r.storedState {
            case .began, .changed, .ended: return .fail
            case .possible: wait = true
            case .failed, .cancelled: break
            }
        }
        return wait ? .wait : .proceed
    }

    /// The recognizers that have followed a touch `g` has (since each was reset).
    private func peers(of g: GestureRecognizer) -> [GestureRecognizer] {
        let mine = gestureArena.seen[ObjectIdentifier(g)] ?? []
        return gestureArena.involved.filter { p in
            p !== g && !(gestureArena.seen[ObjectIdentifier(p)] ?? []).isDisjoint(with: mine)
        }
    }

    /// Whether two recognizers may both recognize: a delegate allows it, or both belong to the
    /// views that drive them (a scroll view's pan and pinch, nested scroll views' pans: the
    /// scroll views settle that among themselves).
    private func mayCoexist(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        (a.isDrivenByOwner && b.isDrivenByOwner) || a.recognizesSimultaneously(with: b)
    }

    /// `g` began or recognized: those sharing its touches that may not recognize with it fail,
    /// those waiting for its failure fail, and the views under its touches lose them.
    private func didRecognize(_ g: GestureRecognizer) {
        for p in peers(of: g) where p.storedState == .possible && p.isInvolved {
            if !mayCoexist(g, p), g.canPrevent(p), p.canBePrevented(by: g) { fail(p) }
        }
        for p in gestureArena.involved where p !== g && p.storedState == .possible && p.waits(for: g) { fail(p) }
        guard g.cancelsTouchesInView, !g.isDrivenByOwner else { return }
        let ids = gestureArena.seen[ObjectIdentifier(g)] ?? []
        for id in ids.sorted() {
            // A live touch no view has had yet (a scroll view holds it) is taken all the same.
            guard
                var vt = gestureArena.viewTouches[id]
                    ?? touchRoutes[id].map({ route in
                        GestureArena.ViewTouch(
                            view: nil,
                            last: Touch(id: id, location: route.location, timestamp: now, source: route.source))
                    })
            else { continue }
            vt.claimed = true
            vt.heldBegin = nil
            let owed = vt.began
            vt.began = false
            gestureArena.viewTouches[id] = vt
            if owed, let view = vt.view {
                var last = vt.last
                last.timestamp = now
                view.touchesCancelled([last])
            }
        }
        // Ends held for this recognizer become cancels: the view had the began.
        var kept: [GestureArena.HeldEnd] = []
        for h in gestureArena.heldEnds {
            if h.waitingOn.contains(where: { $0.value === g }) {
                if h.began == nil { h.view?.touchesCancelled([h.touch]) }
            } else {
                kept.append(h)
            }
        }
        gestureArena.heldEnds = kept
    }

    private func fail(_ g: GestureRecognizer) {
        g.applyState(.failed)
        // Recognizers waiting for it may go ahead.
        for p in gestureArena.involved where p !== g && p.waits(for: g) {
            guard let pending = p.pendingState, p.storedState == .possible else { continue }
            p.pendingState = nil
            gestureRecognizer(p, requests: pending)
        }
        releaseHeldTouches()
        g.resetIfFinished()
        forgetResetRecognizers()
    }

    private func finish(_ g: GestureRecognizer) {
        releaseHeldTouches()
        g.resetIfFinished()
        forgetResetRecognizers()
    }

    /// Delivers held begins and ends whose recognizers have all failed (or were reset).
    private func releaseHeldTouches() {
        for (id, vt) in gestureArena.viewTouches.sorted(by: { $0.key < $1.key }) {
            guard let held = vt.heldBegin, let view = vt.view, delayingRecognizers(for: id, began: true).isEmpty
            else { continue }
            var now = vt
            now.heldBegin = nil
            now.began = true
            gestureArena.viewTouches[id] = now
            view.touchesBegan([held])
        }
        var kept: [GestureArena.HeldEnd] = []
        for h in gestureArena.heldEnds {
            let still = h.waitingOn.contains { w in
                guard let g = w.value else { return false }
                return g.storedState == .possible && g.isInvolved
            }
            if still {
                kept.append(h)
            } else if let view = h.view {
                if let began = h.began { view.touchesBegan([began]) }
                view.touchesEnded([h.touch])
            }
        }
        gestureArena.heldEnds = kept
    }

    /// Drops recognizers that were reset from the arbitration lists.
    private func forgetResetRecognizers() {
        let gone = gestureArena.involved.filter { !$0.isInvolved }
        guard !gone.isEmpty else { return }
        for g in gone { gestureArena.seen[ObjectIdentifier(g)] = nil }
        gestureArena.involved.removeAll { !$0.isInvolved }
    }

    /// A recognizer's state changed: observers (a trace) hear of it.
    func gestureRecognizerDidChangeState(_ g: GestureRecognizer) {
        notifyObservers { $0.window(self, gestureRecognizer: g, didChangeTo: g.storedState) }
    }

    /// Before `view` leaves the window: its recognizers (and its subviews') stop, as their
    /// touches will never reach them again.
    func abandonRecognizers(leaving view: View) {
        guard !gestureArena.involved.isEmpty else { return }
        for g in gestureArena.involved {
            guard let v = g.view, v === view || v.isDescendant(of: view) else { continue }
            abandon(g)
        }
    }

    /// Stops `g` following anything (it leaves the window or its view).
    func abandon(_ g: GestureRecognizer) {
        guard g.isInvolved else { return }
        for id in gestureArena.byTouch.keys.sorted() { gestureArena.byTouch[id]?.removeAll { $0 === g } }
        g.abandon()
        forgetResetRecognizers()
        releaseHeldTouches()
    }
}

/// What the window says to a recognizer that would recognize (`Window.decision(for:)`).
public enum RecognitionDecision: Hashable, Sendable {
    /// It may recognize now.
    case proceed
    /// It must wait: a recognizer it requires to fail may still recognize.
    case wait
    /// It must fail: its delegate said no, another has the touches, or one it waits for
    /// recognized.
    case fail
}

extension GestureRecognizer {
    /// Whether it ended, failed or was cancelled (and is waiting for its touches to go).
    var isFinished: Bool { storedState == .ended || storedState == .cancelled || storedState == .failed }
}
