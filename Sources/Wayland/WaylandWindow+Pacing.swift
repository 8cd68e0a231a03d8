import ScrollwayCSystem
import ScrollwayCWaylandClient
import ScrollwayViews
import ScrollwayWaylandProtocols

// Frame pacing: at most one frame callback in flight; a wanted frame is drawn as late as still
// meets the compositor's next repaint (`FrameScheduler`), at once when the compositor is idle,
// for the predicted presentation time (wp_presentation feedback, asked for now and then, gives
// the refresh grid).

extension WaylandWindow {
    func setNeedsFrame() {
        wantsFrame = true
        // With no callback in flight the next frame can be drawn now (the loop calls us).
    }

    /// The content asked for a frame: noted, and drawn by the loop's next turn or the next frame
    /// callback (never from here: the request can come from inside a frame being prepared).
    public func windowNeedsFrame(_ window: Window) { setNeedsFrame() }

    /// Draws a frame if one is wanted and allowed (configured, no callback in flight) and it is
    /// time (`FrameScheduler.drawTime`; `immediately`: a configure, answered at once); else
    /// notes when (`scheduledDraw`, which the loop wakes for).
    func renderIfPossible(immediately: Bool = false) {
        guard configured, wantsFrame, frameCallback == nil else {
            scheduledDraw = nil
            return
        }
        let now = sw_monotonic_seconds()
        let at = immediately ? now : scheduler.drawTime(now: now)
        // Within a fifth of a millisecond is now: the loop's timer would wake no sooner.
        guard at <= now + 0.0002 else {
            scheduledDraw = at
            return
        }
        scheduledDraw = nil
        render(at: predictedPresentation())
    }

    func frameDone(callback: OpaquePointer?, time: UInt32) {
        precondition(callback == frameCallback, "a frame callback we did not request")
        wl_callback_destroy(callback)
        frameCallback = nil
        scheduler.repainted(at: sw_monotonic_seconds(), refresh: connection.refreshInterval)
        if content.hasActiveAnimations { wantsFrame = true }
        renderIfPossible()
    }

    /// When the frame drawn now will most likely reach the screen: the next multiple of the
    /// refresh after the last presentation (wp_presentation feedback), else now + one refresh.
    func predictedPresentation() -> Double {
        let now = sw_monotonic_seconds()
        guard let last = lastPresentation, last.refresh > 0, now - last.time < 1 else {
            return now + connection.refreshInterval
        }
        let periods = ((now - last.time) / last.refresh).rounded(.down) + 1
        return last.time + periods * last.refresh
    }

    /// How old the last presentation may be before a commit asks for another. The prediction
    /// needs the refresh grid's phase and period, which an output keeps; each feedback costs a
    /// wake-up of its own (weston sends it apart from the frame callback), about a sixth of a
    /// zero-work client's time per frame when asked for every frame.
    static let presentationFeedbackInterval = 0.25

    /// How long a feedback may go unanswered before it is given up and another asked for. A
    /// compositor answers each with `presented` or `discarded`, but sway 1.7's headless output
    /// was seen to leave one unanswered for good, which, with one feedback out at a time, ended
    /// all feedback for the window.
    static let presentationFeedbackTimeout = 1.0

    /// Whether this commit asks for presentation feedback: none is out, and there has been no
    /// presentation yet or the last is older than `presentationFeedbackInterval` (well inside
    /// the second within which `predictedPresentation` trusts it).
    func wantsPresentationFeedback() -> Bool {
        if !feedbacks.isEmpty {
            guard let asked = feedbackAskedAt, sw_monotonic_seconds() - asked >= Self.presentationFeedbackTimeout
            else { return false }
            // Never answered: given up (the proxies go; a late answer is dropped by libwayland),
            // so one lost feedback does not end them all.
            for f in feedbacks { wp_presentation_feedback_destroy(f) }
            feedbacks.removeAll()
        }
        guard let last = lastPresentation else { return true }
        return sw_monotonic_seconds() - last.time >= Self.presentationFeedbackInterval
    }

    /// Asks for feedback on the coming commit when `wantsPresentationFeedback` says so, or
    /// (`replacingOutstanding`) when none has come yet and one is out: the compositor discards
    /// the feedback of a commit that a later one replaces before it is shown.
    func askForPresentationFeedback(replacingOutstanding: Bool = false) {
        let wanted = wantsPresentationFeedback() || (replacingOutstanding && lastPresentation == nil)
        guard wanted, let presentation = connection.presentation,
            let feedback = wp_presentation_feedback(presentation, surface)
        else { return }
        wp_presentation_feedback_add_listener(
            feedback, Listeners.presentationFeedback, Unmanaged.passUnretained(self).toOpaque())
        if feedbacks.isEmpty { feedbackAskedAt = sw_monotonic_seconds() }
        feedbacks.append(feedback)
    }

    /// wp_presentation_feedback: presented (on the announced clock) or discarded (nil).
    func presented(feedback: OpaquePointer?, at seconds: Double?, refreshNanoseconds: UInt32) {
        if let feedback {
            wp_presentation_feedback_destroy(feedback)
            feedbacks.removeAll { $0 == feedback }
        }
        guard let seconds, let clock = connection.presentationClock else { return }
        // Move the timestamp onto our monotonic clock through "now" on both clocks.
        let theirNow = sw_clock_seconds(clock)
        guard theirNow >= 0 else { return }
        let ours = sw_monotonic_seconds() - (theirNow - seconds)
        let refresh = refreshNanoseconds > 0 ? Double(refreshNanoseconds) / 1e9 : connection.refreshInterval
        lastPresentation = (ours, refresh)
    }
}
