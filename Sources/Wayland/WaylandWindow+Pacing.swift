import ScrollwayCSystem
import ScrollwayCWaylandClient
import ScrollwayViews
import ScrollwayWaylandProtocols

// Frame pacing: one frame per repaint; a wanted frame is drawn as late as still meets the
// compositor's next repaint (`FrameScheduler`), at once when the compositor is idle, for the
// predicted presentation time (wp_presentation feedback, asked for now and then, gives the
// refresh grid); input that comes after that frame's commit, before the compositor repainted
// it, is drawn at once into a frame that replaces it (`replaceFrame`).

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
    /// notes when (`scheduledDraw`, which the loop wakes for). With a callback in flight, input
    /// since its commit is drawn into a frame that replaces it (`replaceFrame`).
    func renderIfPossible(immediately: Bool = false) {
        noteMissedReplacement()
        guard configured, wantsFrame else {
            // Input that changed nothing asks for no replacement.
            inputSinceCommit = false
            scheduledDraw = nil
            return
        }
        let now = sw_monotonic_seconds()
        guard frameCallback == nil else {
            scheduledDraw = nil
            if immediately { return }
            if newestCommit == .lateReplacement && replacedCallback == nil {
                // The frame the repaint after will show, aimed at as a frame after `done` is.
                let at = scheduler.drawTime(now: now)
                guard at <= now + 0.0002 else {
                    scheduledDraw = at
                    return
                }
                if pool?.hasReadyBuffer ?? false {
                    replaceFrame(at: scheduler.predictedPresentation(now: sw_monotonic_seconds(), replacing: true))
                }
                if newestCommit == .lateReplacement { newestCommit = .aimed }
            } else if canReplace(now: now) {
                replaceFrame()
            }
            return
        }
        let at = immediately ? now : scheduler.drawTime(now: now)
        // Within a fifth of a millisecond is now: the loop's timer would wake no sooner.
        guard at <= now + 0.0002 else {
            scheduledDraw = at
            return
        }
        scheduledDraw = nil
        render(at: predictedPresentation())
    }

    /// A replacement whose own callback did not come with the replaced frame's (the loop's turn
    /// after that one's came: the events of one repaint are read together) came too late for
    /// that repaint, and waits for the next, with its animations where they were to be at the
    /// one before. Noted once: the replacements' lead learns from it, and it may be drawn over,
    /// once, at the time a frame for the next repaint is aimed at (`.lateReplacement`).
    func noteMissedReplacement() {
        // The replaced frame's callback is cleared only by its `done`.
        guard case .replacement(let lead) = newestCommit, frameCallback != nil, replacedCallback == nil else { return }
        if let lead { scheduler.replacement(lead: lead, made: false) }
        replacementsShownLate += 1
        newestCommit = .lateReplacement
    }

    /// Input was handed to the window: if it changes the picture while the last commit waits for
    /// its repaint, the loop's next turn draws a frame that replaces it.
    func inputArrived() { inputSinceCommit = true }

    /// Whether input can be drawn now into a frame that replaces the one the compositor has not
    /// repainted yet: input came since that commit, nothing replaced it yet (one replacement a
    /// repaint, so a stream of input costs at most two frames a repaint), a buffer already made
    /// and faulted in is free (`BufferPool.hasReadyBuffer`), and it would still come soon enough
    /// for the repaint (`FrameScheduler.replacementCanMakeIt`). When both buffers are held, a
    /// third is made and faulted in while the window is idle, for the input after
    /// (`BufferPool.wantsSpare`): never inside a frame.
    /// Never for the floor client, which draws no input.
    func canReplace(now: Double) -> Bool {
        guard
            inputSinceCommit && frameCallback != nil && replacedCallback == nil && committedFrameTime != nil
                && presentMode != .flipOnly, let pool
        else { return false }
        guard pool.hasReadyBuffer else {
            pool.wantsSpare = true
            return false
        }
        return scheduler.replacementCanMakeIt(now: now)
    }

    /// Draws the input that came since the last commit into a frame for the same presentation
    /// time (`FrameScheduler.replacementTime`: the next one, when that time has passed), and
    /// commits it now, replacing the one the compositor has not repainted yet.
    ///
    /// A frame aimed at the next repaint is committed a margin before it; input arriving after
    /// that would wait a whole period more for the frame after (and a compositor's slow spell,
    /// or its deadline lying well ahead of its repaint, widens the margin to the whole period:
    /// a frame drawn at `done`, and input after it waits 1.5 refreshes on average). Committed at
    /// once, it is shown at the repaint the compositor has not reached yet, if its deadline has
    /// not passed. The replaced commit's callback still comes (the compositor moves it to the
    /// state it shows), at that repaint or, had the replacement come too late, the one before,
    /// where the replaced frame was shown; the replacement asks for its own, so the next frame
    /// is drawn only when the repaint that shows the replacement is done, and a commit is never
    /// queued behind another. Animations in it are at the replaced frame's presentation time,
    /// where they will be when it is shown; input that moved nothing commits nothing.
    ///
    /// `aimedAt`: instead, the frame aimed at the next repaint, drawn over a replacement that
    /// missed the last one (`noteMissedReplacement`): it is the frame that repaint would have
    /// had anyway, for its own presentation time, and the scheduler counts it as its aim.
    func replaceFrame(at aimedAt: Double? = nil) {
        precondition(
            frameCallback != nil && replacedCallback == nil, "a replacement replaces one waiting frame, once a repaint")
        guard
            let time = aimedAt
                ?? committedFrameTime.map({ scheduler.replacementTime(replacing: $0, now: sw_monotonic_seconds()) })
        else { return }
        let replaced = frameCallback
        frameCallback = nil
        render(at: time, replacing: aimedAt == nil)
        guard frameCallback != nil else {
            frameCallback = replaced  // nothing new: the waiting frame stands
            return
        }
        replacedCallback = replaced
        if aimedAt == nil {
            newestCommit = .replacement(lead: scheduler.lead(committedAt: sw_monotonic_seconds()))
            framesReplaced += 1
        } else {
            newestCommit = .aimed
            lateReplacementsDrawnOver += 1
        }
    }

    func frameDone(callback: OpaquePointer?, time: UInt32) {
        let newest = callback == frameCallback
        precondition(newest || callback == replacedCallback, "a frame callback we did not request")
        wl_callback_destroy(callback)
        if newest { frameCallback = nil } else { replacedCallback = nil }
        // A replaced frame's callback and its replacement's come at the same repaint when the
        // replacement made it: one repaint. Else the replaced one's came at the repaint before.
        // The protocol says in the order they were committed, as weston sends them; wlroots
        // sends the newer first, so the next frame never waits for the replaced one's.
        let now = sw_monotonic_seconds()
        if newest {
            // A replacement still unjudged was shown at the replaced frame's repaint: both
            // callbacks came at it (or the newer first, the replaced one's still to come).
            if case .replacement(let lead?) = newestCommit { scheduler.replacement(lead: lead, made: true) }
            newestCommit = .aimed
        }
        if now - (scheduler.lastRepaint ?? -.infinity) > connection.refreshInterval / 4 {
            scheduler.repainted(at: now, refresh: connection.refreshInterval)
        }
        guard newest else { return }
        if content.hasActiveAnimations { wantsFrame = true }
        renderIfPossible()
    }

    /// When the frame drawn now will most likely reach the screen
    /// (`FrameScheduler.predictedPresentation`): the next repaint on the grid of the last
    /// presentation (wp_presentation feedback), else now + one repaint interval.
    func predictedPresentation() -> Double { scheduler.predictedPresentation(now: sw_monotonic_seconds()) }

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
            for f in feedbacks { wp_presentation_feedback_destroy(f.proxy) }
            feedbacks.removeAll()
        }
        guard let last = lastPresentation else { return true }
        return sw_monotonic_seconds() - last.time >= Self.presentationFeedbackInterval
    }

    /// Asks for feedback on the coming commit when `wantsPresentationFeedback` says so, or
    /// (`replacingOutstanding`) when none has come yet and one is out: the compositor discards
    /// the feedback of a commit that a later one replaces before it is shown.
    func askForPresentationFeedback(frameTime: Double?, replacingOutstanding: Bool = false) {
        let wanted = wantsPresentationFeedback() || (replacingOutstanding && lastPresentation == nil)
        guard wanted, let presentation = connection.presentation,
            let feedback = wp_presentation_feedback(presentation, surface)
        else { return }
        wp_presentation_feedback_add_listener(
            feedback, Listeners.presentationFeedback, Unmanaged.passUnretained(self).toOpaque())
        if feedbacks.isEmpty { feedbackAskedAt = sw_monotonic_seconds() }
        feedbacks.append((feedback, frameTime))
    }

    /// wp_presentation_feedback: presented (on the announced clock) or discarded (nil).
    func presented(feedback: OpaquePointer?, at seconds: Double?, refreshNanoseconds: UInt32, flags: UInt32) {
        var frameTime: Double?
        if let feedback {
            wp_presentation_feedback_destroy(feedback)
            frameTime = feedbacks.first { $0.proxy == feedback }?.frameTime ?? nil
            feedbacks.removeAll { $0.proxy == feedback }
        }
        guard let seconds, let clock = connection.presentationClock else { return }
        // Move the timestamp onto our monotonic clock through "now" on both clocks.
        let theirNow = sw_clock_seconds(clock)
        guard theirNow >= 0 else { return }
        let ours = sw_monotonic_seconds() - (theirNow - seconds)
        scheduler.presented(
            FrameScheduler.Presentation(
                time: ours, refresh: Double(refreshNanoseconds) / 1e9,
                synchronized: flags & WP_PRESENTATION_FEEDBACK_KIND_VSYNC.rawValue != 0),
            drawnFor: frameTime)
        if let frameTime { lastPresentationError = ours - frameTime }
    }
}
