import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayViews

/// The scroll view's own gestures as recognizer objects (UIKit's `panGestureRecognizer` and
/// `pinchGestureRecognizer`). The scroll view still tracks the fingers itself (the touch
/// arbiter, the hold, directional lock, paging, nested hand-off), and these report what it
/// does: the pan begins as a touch drag begins, changes as it moves, ends as it is released;
/// the pinch begins with a two-finger zoom (or a touchpad pinch). Through them an app
/// coordinates its own recognizers with scrolling, as in UIKit:
///
/// - `panGestureRecognizer.minimumNumberOfTouches = 2`: one finger goes to the content (a
///   drawing canvas), two scroll;
/// - `panGestureRecognizer.require(toFail: mine)`: the scroll waits until the app's gesture
///   fails, and does not happen if it recognizes;
/// - an app recognizer in the content that begins first (a row's horizontal swipe) makes the
///   pan fail for that touch; one that may recognize simultaneously (its delegate says so)
///   leaves it be;
/// - `isEnabled = false` on the pan: the scroll view does not drag with touches.
///
/// The window arbitrates them with the app's recognizers but does not feed them touches; the
/// scroll views' own recognizers never make each other fail (nested scroll views settle a
/// gesture between themselves by handing it on).
extension ScrollView {
    /// Whether the pan may begin a drag of `state`'s fingers now: the pan's own settings
    /// (enabled, the number of touches) and the window's arbitration with other recognizers
    /// (which may make it wait, or fail) and with the views under the fingers (a slider's thumb
    /// keeps a drag along its track). Those asked read the fingers' motion from the pan.
    func panDecision(_ state: TouchState) -> RecognitionDecision {
        let pan = panGestureRecognizer
        let fingers = 1 + state.extra.count
        guard pan.isEnabled, pan.state == .possible, pan.allowedTouchSources.contains(state.source) else {
            return .fail
        }
        guard fingers >= pan.minimumNumberOfTouches, fingers <= pan.maximumNumberOfTouches else { return .wait }
        pan.tracker = state.pan
        let decision = window?.decision(for: pan) ?? .proceed
        if decision == .fail { pan.state = .failed }
        return decision
    }

    /// A touch drag began: the pan begins (the app's recognizers sharing the touches that may
    /// not recognize with it fail).
    func panDidBegin(_ state: TouchState) {
        let pan = panGestureRecognizer
        pan.tracker = state.pan
        if pan.state == .possible { drivingOwnRecognizers { pan.state = .began } }
    }

    /// The drag moved the content.
    func panDidChange(_ state: TouchState) {
        let pan = panGestureRecognizer
        guard pan.state == .began || pan.state == .changed else { return }
        pan.tracker = state.pan
        drivingOwnRecognizers { pan.state = .changed }
    }

    /// The drag ended (the fingers lifted or were handed on) or was cancelled.
    func panDidEnd(cancelled: Bool) {
        let pan = panGestureRecognizer
        guard pan.state == .began || pan.state == .changed else { return }
        drivingOwnRecognizers { pan.state = cancelled ? .cancelled : .ended }
    }

    /// Changes the scroll view makes to its own recognizers' states, told apart from changes
    /// made to them from outside (an app turning the pan off mid-drag).
    private func drivingOwnRecognizers(_ body: () -> Void) {
        let was = isDrivingOwnRecognizers
        isDrivingOwnRecognizers = true
        body()
        isDrivingOwnRecognizers = was
    }

    /// Watches its own recognizers for changes made from outside: the pan or the pinch turned
    /// off (`isEnabled = false`) while the fingers drag or zoom cancels them, and the scroll view
    /// lets go as the compositor's cancel would make it (no momentum, a bounce back).
    func watchOwnRecognizers() {
        let cancel: @MainActor (GestureRecognizer) -> Void = { [weak self] g in
            guard let self, !self.isDrivingOwnRecognizers, g.state == .cancelled else { return }
            let t = self.window?.now ?? 0
            if self.touchState != nil {
                self.cancelTracking(at: t)
            } else {
                self.endTouchpadGestures(at: t)
            }
        }
        panGestureRecognizer.addAction(cancel)
        ownPinch.addAction(cancel)
        ownPinch.ownerTakesTouchpadPinch = { [weak self] in
            guard let self else { return false }
            return self.zoomView != nil && self.pinchMayBegin
        }
    }

    /// A zoom gesture began (two fingers past the threshold, or a touchpad pinch), the
    /// fingers' scale since they landed `scale`.
    func pinchDidBegin(at t: Double, scale: Double = 1) {
        let pinch = ownPinch
        guard pinch.isEnabled, pinch.state == .possible else { return }
        pinch.ownerReports(scale: scale, at: t)
        drivingOwnRecognizers { pinch.state = .began }
    }

    /// Whether a second finger may start a zoom now: the pinch is on and nothing it must defer
    /// to stands in its way (otherwise the fingers pan together).
    var pinchMayBegin: Bool {
        ownPinch.isEnabled && ownPinch.state == .possible && (window?.decision(for: ownPinch) ?? .proceed) == .proceed
    }

    /// The fingers' (or the touchpad's) scale since the zoom began.
    func pinchDidChange(scale: Double, at t: Double) {
        let pinch = ownPinch
        guard pinch.state == .began || pinch.state == .changed else { return }
        pinch.ownerReports(scale: scale, at: t)
        drivingOwnRecognizers { pinch.state = .changed }
    }

    func pinchDidEnd(cancelled: Bool) {
        let pinch = ownPinch
        guard pinch.state == .began || pinch.state == .changed else { return }
        drivingOwnRecognizers { pinch.state = cancelled ? .cancelled : .ended }
    }

    /// The zoom scene's (and any app's) double tap: a two-tap recognizer on the scroll view
    /// that takes what the scroll view takes (fingers, the mouse where it drags), recognizes
    /// alongside the pan and pinch, and leaves the content's touches alone.
    func updateDoubleTapRecognizer() {
        if doubleTapZooms, doubleTapRecognizer == nil {
            let tap = DoubleTapToZoom(scrollView: self)
            doubleTapRecognizer = tap
            addGestureRecognizer(tap)
        } else if !doubleTapZooms, let tap = doubleTapRecognizer {
            removeGestureRecognizer(tap)
            doubleTapRecognizer = nil
        }
    }

    /// The double tap recognized at `point` (window coordinates): the zoom happens once the
    /// scroll view has let go of the touch, if it still holds it (its release settles first,
    /// as when it counted taps itself).
    func doubleTapRecognized(at point: Point) {
        if touchState != nil {
            pendingDoubleTap = point
        } else {
            handleDoubleTap(at: point)
        }
    }
}

/// The recognizer behind `doubleTapZooms`.
final class DoubleTapToZoom: TapGestureRecognizer, GestureRecognizerDelegate {
    weak var scrollView: ScrollView?

    init(scrollView: ScrollView) {
        self.scrollView = scrollView
        super.init()
        numberOfTapsRequired = 2
        cancelsTouchesInView = false
        delaysTouchesEnded = false
        delegate = self
        addAction { [weak self] g in
            guard let self, let sv = self.scrollView else { return }
            sv.doubleTapRecognized(at: g.location(in: nil))
        }
    }

    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
        scrollView?.interceptsTouches(from: touch.source) == true
    }

    func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool {
        other === scrollView?.panGestureRecognizer || other === scrollView?.ownPinch
    }
}
