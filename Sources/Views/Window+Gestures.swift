import ScrollwayGeometry
import ScrollwayGestures

/// What the window keeps of gesture recognizers between events: which recognizers follow each
/// touch, and what the views under the touches are still owed.
///
/// Touches are known here by a serial the window gives each one as it lands, not by its id: a
/// compositor reuses ids (the first finger is 0 every time), and a recognizer still waiting on
/// one tap (a double tap's second) must not take another touch that happens to share its id.
struct GestureArena {
    /// Each live touch's serial, by touch id.
    var serials: [Int: Int] = [:]
    var nextSerial = 0
    /// The recognizers told of each live touch, by serial: the hit view's first, then each
    /// ancestor's, each view's in the order added. Kept until the touch's view has had its end.
    var byTouch: [Int: [GestureRecognizer]] = [:]
    /// Every recognizer that has heard of a touch (or changed state) since its last reset:
    /// arbitration looks here.
    var involved: [GestureRecognizer] = []
    /// The touches (serials) each involved recognizer has followed since its reset: recognizers
    /// that share one arbitrate against each other.
    var seen: [ObjectIdentifier: Set<Int>] = [:]
    /// What each live touch's view has been told, by serial.
    var viewTouches: [Int: ViewTouch] = [:]
    /// The view each live touch landed on (hit-tested), by serial: asked, with the views
    /// above it, whether a recognizer following the touch may begin.
    var hitViews: [Int: Weak<View>] = [:]
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
        let serial: Int
        let touch: Touch
        weak var view: View?
        /// A began that was held too (`delaysTouchesBegan`): the view has not had it yet.
        var began: Touch?
        /// The recognizers that may still recognize it.
        var waitingOn: [Weak<GestureRecognizer>]
    }

    func hasSeen(_ g: GestureRecognizer, _ serial: Int) -> Bool { seen[ObjectIdentifier(g)]?.contains(serial) == true }
}

/// The phases of a touch as a view hears them.
public enum TouchPhase: Hashable, Sendable { case began, moved, ended, cancelled }

/// A view's touch the window delivers once its own bookkeeping is done (so a view that changes
/// the tree, or the recognizers, from its touch methods finds everything consistent).
private struct Delivery {
    let phase: TouchPhase
    let touch: Touch
    weak var view: View?

    @MainActor func run() {
        guard let view else { return }
        switch phase {
        case .began: view.touchesBegan([touch])
        case .moved: view.touchesMoved([touch])
        case .ended: view.touchesEnded([touch])
        case .cancelled: view.touchesCancelled([touch])
        }
    }
}

extension Window {
    // MARK: Touches to recognizers

    /// Gives a new touch (id `touch.id`) its serial.
    func startTouchSerial(for id: Int) {
        gestureArena.nextSerial += 1
        gestureArena.serials[id] = gestureArena.nextSerial
    }

    /// The touch with this id is over and its view has had its end: forget it.
    func finishTouchSerial(for id: Int) {
        guard let serial = gestureArena.serials.removeValue(forKey: id) else { return }
        gestureArena.byTouch[serial] = nil
        gestureArena.viewTouches[serial] = nil
        gestureArena.hitViews[serial] = nil
    }

    /// Tells the recognizers of the views from `hit` up to the window of a new touch.
    /// `interceptor` is the scroll view (if any) that takes the touch: its own recognizers
    /// take part in arbitration, those of a scroll view that does not take it do not.
    ///
    /// A control's own action comes before an ancestor's recognizer for the same gesture (UIKit's
    /// rule since iOS 6): a touch that lands on a button or a switch is not given to a single
    /// one-finger tap recognizer of a view above it, so a "tap the background" recognizer
    /// leaves the form's buttons working. Recognizers of the control itself and other gestures
    /// (a double tap, a long press, a pan) still hear it.
    func recognizersBegin(_ touch: Touch, hit: View?, interceptor: View?) {
        guard let serial = gestureArena.serials[touch.id] else { return }
        if let hit { gestureArena.hitViews[serial] = Weak(hit) }
        var found: [GestureRecognizer] = []
        var control: PressableControl?
        var v = hit
        while let current = v {
            let aboveControl = control != nil
            if control == nil, let c = current as? PressableControl { control = c }
            // One that finished waits for its touches to lift before it hears of new ones.
            for g in current.gestureRecognizers where g.isEnabled && !g.isFinished {
                if aboveControl, g.overlapsControlActions { continue }
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
        gestureArena.byTouch[serial] = found
        for g in found {
            enlist(g)
            gestureArena.seen[ObjectIdentifier(g), default: []].insert(serial)
            g.deliverBegan([touch])
        }
    }

    func recognizersMove(_ touch: Touch) {
        guard let serial = gestureArena.serials[touch.id], let list = gestureArena.byTouch[serial] else { return }
        for g in list where g.touches.contains(where: { $0.id == touch.id }) && !g.isFinished {
            g.deliverMoved([touch])
        }
    }

    func recognizersEnd(_ touch: Touch, cancelled: Bool) {
        guard let serial = gestureArena.serials[touch.id], let list = gestureArena.byTouch[serial] else { return }
        for g in list where g.touches.contains(where: { $0.id == touch.id }) && gestureArena.hasSeen(g, serial) {
            g.deliverEnded([touch], cancelled: cancelled)
        }
        forgetResetRecognizers()
    }

    /// Puts `g` among the recognizers arbitration looks at (once).
    private func enlist(_ g: GestureRecognizer) {
        g.isInvolved = true
        if !gestureArena.involved.contains(where: { $0 === g }) { gestureArena.involved.append(g) }
    }

    /// Offers a touchpad pinch event to the pinch recognizers of the views under the pointer,
    /// innermost first, up to a scroll view that zooms with it itself; the one that takes the
    /// begin gets the rest. Returns whether one did.
    func recognizersTakeTouchpadPinch(_ event: InputEvent) -> Bool {
        if case .pinchBegin = event.kind {
            var v = pointerPosition.flatMap { hitTest($0) }
            while let current = v {
                for case let g as PinchGestureRecognizer in current.gestureRecognizers where g.isEnabled {
                    if g.isDrivenByOwner {
                        // The scroll view zooms with it: it is the innermost taker.
                        if g.ownerTakesTouchpadPinch?() == true { return false }
                        continue
                    }
                    if g.handleTouchpadPinch(event.kind, at: event.time) {
                        gestureArena.touchpadPinch = g
                        return true
                    }
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
        guard let serial = gestureArena.serials[touch.id] else {
            // Not a live touch of this window (a view told of one after it ended): as it is, to
            // a view still in this window.
            if view.window === self { Delivery(phase: phase, touch: touch, view: view).run() }
            return
        }
        // A touch a recognizer took stays taken until the window's touch ends, even if a view
        // is offered it late (a scroll view's held content touch).
        if gestureArena.viewTouches[serial]?.claimed == true { return }
        // A disabled control (or a view inside one) hears nothing; the touch stops there.
        if Control.isDisabled(view) { return }
        var vt = GestureArena.ViewTouch(view: view, last: touch)
        if let existing = gestureArena.viewTouches[serial], existing.view === view, phase != .began {
            vt = existing
        }
        vt.last = touch
        var deliveries: [Delivery] = []
        switch phase {
        case .began:
            if delayingRecognizers(for: serial, began: true).isEmpty {
                vt.began = true
                deliveries.append(Delivery(phase: .began, touch: touch, view: view))
            } else {
                vt.heldBegin = touch
            }
            gestureArena.viewTouches[serial] = vt
        case .moved:
            if vt.heldBegin != nil {
                vt.heldBegin?.location = touch.location
            } else if vt.began {
                deliveries.append(Delivery(phase: .moved, touch: touch, view: view))
            }
            gestureArena.viewTouches[serial] = vt
        case .ended:
            gestureArena.viewTouches[serial] = nil
            // An end waits on those that delay ends; a held began, on those that delay begins too.
            var waiting = delayingRecognizers(for: serial, began: false)
            if vt.heldBegin != nil {
                waiting += delayingRecognizers(for: serial, began: true).filter { g in !waiting.contains { $0 === g } }
            }
            if vt.heldBegin != nil || vt.began {
                if waiting.isEmpty {
                    if let held = vt.heldBegin { deliveries.append(Delivery(phase: .began, touch: held, view: view)) }
                    deliveries.append(Delivery(phase: .ended, touch: touch, view: view))
                } else {
                    gestureArena.heldEnds.append(
                        .init(
                            serial: serial, touch: touch, view: view, began: vt.heldBegin,
                            waitingOn: waiting.map(Weak.init)))
                }
            }
        case .cancelled:
            gestureArena.viewTouches[serial] = nil
            if vt.began { deliveries.append(Delivery(phase: .cancelled, touch: touch, view: view)) }
        }
        for d in deliveries { d.run() }
    }

    /// The app recognizers following touch `serial` that may still recognize and hold its
    /// view's began (`began`) or end.
    private func delayingRecognizers(for serial: Int, began: Bool) -> [GestureRecognizer] {
        (gestureArena.byTouch[serial] ?? []).filter { g in
            !g.isDrivenByOwner && g.storedState == .possible && g.isInvolved && gestureArena.hasSeen(g, serial)
                && (began ? g.delaysTouchesBegan : g.delaysTouchesEnded)
        }
    }

    // MARK: Arbitration

    /// A recognizer asks for `new` (its subclass set `state`).
    func gestureRecognizer(_ g: GestureRecognizer, requests new: GestureRecognizer.State) {
        let old = g.storedState
        // One that leaves `possible` without a touch (a touchpad pinch) is arbitrated too.
        if new != .possible, old == .possible { enlist(g) }
        switch (old, new) {
        case (.possible, .began), (.possible, .ended):
            switch decision(for: g) {
            case .fail:
                fail(g)
            case .wait:
                g.pendingState = new
            case .proceed:
                // What recognizing does to the others and to the views comes first; the app's
                // actions, which may change the tree, after.
                g.applyState(new, runsActions: false)
                didRecognize(g)
                g.runActions()
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

    /// Whether `g` may recognize now: it fails if it is off or its delegate says no, if a
    /// recognizer it shares touches with is already recognizing and may not recognize with it,
    /// or if one it waits for recognized; it waits while one it waits for may still recognize.
    public func decision(for g: GestureRecognizer) -> RecognitionDecision {
        guard g.isEnabled, g.delegate?.gestureRecognizerShouldBegin(g) != false, viewsLetBegin(g) else { return .fail }
        for p in peers(of: g) where p.storedState == .began || p.storedState == .changed {
            if !mayCoexist(g, p), p.canPrevent(g), g.canBePrevented(by: p) { return .fail }
        }
        var wait = false
        for r in gestureArena.involved where r !== g && r.isInvolved && g.waits(for: r) {
            switch r.storedState {
            case .began, .changed, .ended: return .fail
            case .possible: wait = true
            case .failed, .cancelled: break
            }
        }
        return wait ? .wait : .proceed
    }

    /// Whether the views under `g`'s touches let it begin (`View.gestureRecognizerShouldBegin`):
    /// each touch's hit view and the views above it, up to `g`'s own, are asked; one no is
    /// enough to stop it (a slider's thumb stops a pan along its track, whoever's pan it is).
    /// A hit view that has left the window since is not under the touch any more: not asked.
    private func viewsLetBegin(_ g: GestureRecognizer) -> Bool {
        for serial in (gestureArena.seen[ObjectIdentifier(g)] ?? []).sorted() {
            guard let hit = gestureArena.hitViews[serial]?.value, hit.window === self else { continue }
            var v: View? = hit
            while let current = v {
                if !current.gestureRecognizerShouldBegin(g) { return false }
                if current === g.view { break }
                v = current.superview
            }
        }
        return true
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
    /// those waiting for its failure fail, what was held for it is dropped (begins) or
    /// cancelled (ends), and with `cancelsTouchesInView` the views under its touches lose them.
    ///
    /// What was held for it is taken first: failing the others releases what is held for
    /// recognizers that can no longer recognize, and `g`, recognized, is one of them (a double
    /// tap's first tap reached its view as an end when the single tap waiting on it failed).
    private func didRecognize(_ g: GestureRecognizer) {
        let deliveries = g.isDrivenByOwner ? [] : takeTouches(for: g)
        for p in peers(of: g) where p.storedState == .possible && p.isInvolved {
            if !mayCoexist(g, p), g.canPrevent(p), p.canBePrevented(by: g) { fail(p) }
        }
        for p in gestureArena.involved where p !== g && p.storedState == .possible && p.isInvolved && p.waits(for: g) {
            fail(p)
        }
        for d in deliveries { d.run() }
    }

    /// What `g` recognizing does to the views' touches: begins held for it are dropped, ends
    /// held for it cancelled (or dropped, when the view never had the began), and with
    /// `cancelsTouchesInView` its touches taken from their views. Returns the cancels to deliver.
    private func takeTouches(for g: GestureRecognizer) -> [Delivery] {
        let serials = gestureArena.seen[ObjectIdentifier(g)] ?? []
        let live = Dictionary(gestureArena.serials.map { ($0.value, $0.key) }, uniquingKeysWith: { a, _ in a })
        var deliveries: [Delivery] = []
        for serial in serials.sorted() {
            // A began held for it is dropped: the view never hears of the touch.
            if g.delaysTouchesBegan, gestureArena.viewTouches[serial]?.heldBegin != nil {
                gestureArena.viewTouches[serial]?.heldBegin = nil
            }
            guard g.cancelsTouchesInView, let id = live[serial] else { continue }
            // A live touch no view has had yet (a scroll view holds it) is taken all the same.
            guard
                var vt = gestureArena.viewTouches[serial]
                    ?? touchRoutes[id].map({ route in
                        GestureArena.ViewTouch(
                            view: nil,
                            last: Touch(id: id, location: route.location, timestamp: now, source: route.source))
                    })
            else { continue }
            vt.claimed = true
            vt.heldBegin = nil
            if vt.began, let view = vt.view {
                var last = vt.last
                last.timestamp = now
                deliveries.append(Delivery(phase: .cancelled, touch: last, view: view))
            }
            vt.began = false
            gestureArena.viewTouches[serial] = vt
        }
        // Ends held for it are cancelled (the view had the began) or dropped (it had not).
        let mine = gestureArena.heldEnds.filter { h in h.waitingOn.contains { $0.value === g } }
        gestureArena.heldEnds.removeAll { h in h.waitingOn.contains { $0.value === g } }
        for h in mine where h.began == nil {
            deliveries.append(Delivery(phase: .cancelled, touch: h.touch, view: h.view))
        }
        return deliveries
    }

    private func fail(_ g: GestureRecognizer) {
        g.applyState(.failed)
        wakeWaiters(of: g)
        releaseHeldTouches()
        g.resetIfFinished()
        forgetResetRecognizers()
    }

    /// Recognizers that were waiting for `g` to fail (it failed, or left) may go ahead.
    private func wakeWaiters(of g: GestureRecognizer) {
        for p in gestureArena.involved where p !== g && p.waits(for: g) {
            guard let pending = p.pendingState, p.storedState == .possible else { continue }
            p.pendingState = nil
            gestureRecognizer(p, requests: pending)
        }
    }

    private func finish(_ g: GestureRecognizer) {
        releaseHeldTouches()
        g.resetIfFinished()
        forgetResetRecognizers()
    }

    /// Delivers held begins and ends whose recognizers have all failed (or were reset). What
    /// is delivered leaves the lists first: a view's touch method may come back here.
    private func releaseHeldTouches() {
        var deliveries: [Delivery] = []
        for (serial, vt) in gestureArena.viewTouches.sorted(by: { $0.key < $1.key }) {
            guard let held = vt.heldBegin, delayingRecognizers(for: serial, began: true).isEmpty else { continue }
            gestureArena.viewTouches[serial]?.heldBegin = nil
            gestureArena.viewTouches[serial]?.began = true
            deliveries.append(Delivery(phase: .began, touch: held, view: vt.view))
        }
        let ready = gestureArena.heldEnds.filter { h in !isWaiting(h) }
        gestureArena.heldEnds.removeAll { h in !isWaiting(h) }
        for h in ready {
            if let began = h.began { deliveries.append(Delivery(phase: .began, touch: began, view: h.view)) }
            deliveries.append(Delivery(phase: .ended, touch: h.touch, view: h.view))
        }
        for d in deliveries { d.run() }
    }

    /// Whether a held end still waits on a recognizer that may recognize.
    private func isWaiting(_ h: GestureArena.HeldEnd) -> Bool {
        h.waitingOn.contains { w in
            guard let g = w.value else { return false }
            return g.storedState == .possible && g.isInvolved && gestureArena.hasSeen(g, h.serial)
        }
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
    /// touches will never reach them again, and touches held for views in it are dropped (one
    /// whose view had the began gets a cancel, so a recycled cell never taps its next row).
    func abandonRecognizers(leaving view: View) {
        if !gestureArena.heldEnds.isEmpty {
            let leaving = gestureArena.heldEnds.filter { h in
                h.view.map { $0 === view || $0.isDescendant(of: view) } ?? true
            }
            gestureArena.heldEnds.removeAll { h in h.view.map { $0 === view || $0.isDescendant(of: view) } ?? true }
            for h in leaving where h.began == nil { Delivery(phase: .cancelled, touch: h.touch, view: h.view).run() }
        }
        guard !gestureArena.involved.isEmpty else { return }
        for g in gestureArena.involved {
            guard let v = g.view, v === view || v.isDescendant(of: view) else { continue }
            abandon(g)
        }
    }

    /// Stops `g` following anything (it leaves the window or its view); those waiting for its
    /// failure may go ahead.
    func abandon(_ g: GestureRecognizer) {
        if gestureArena.touchpadPinch === g { gestureArena.touchpadPinch = nil }
        guard g.isInvolved else { return }
        for serial in gestureArena.byTouch.keys.sorted() { gestureArena.byTouch[serial]?.removeAll { $0 === g } }
        g.abandon()
        forgetResetRecognizers()
        wakeWaiters(of: g)
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
