import ScrollwayGeometry

/// When a host draws the next frame, so that input reaches the screen at the first repaint it
/// can: as late as still meets the compositor's next repaint, not as soon as the last one is
/// done.
///
/// A frame callback's `done` comes when the compositor repaints with our last commit, and its
/// next repaint comes one period later. A frame drawn at `done` (the usual loop) is shown at that
/// next repaint with the input it had at `done`; input arriving after it waits a whole period
/// more, 1.5 refreshes on average. Drawn at `next − (drawing cost + margin)` instead, it takes
/// in whatever arrived until then, and is still shown at the same repaint: input waits half a
/// refresh on average, and no more frames are drawn than before (one per repaint). With the
/// compositor idle (its expected repaint passed with nothing from us), a frame is drawn at once:
/// an idle compositor repaints as soon as a commit comes.
///
/// The margin adapts: a repaint that comes a period later than the one aimed at (the commit missed
/// it) widens it by a millisecond, up to the whole period, where a frame is drawn when the callback
/// comes as a plain loop draws it; frames that make their repaint narrow it, down to
/// `minimumMargin`, every `narrowAfter` of them, by a quarter of what it has above the minimum (at
/// least half a millisecond: a margin widened by a slow spell comes back in a few steps), and by
/// half a millisecond once a narrowing has missed. `narrowAfter` starts at 120 frames and doubles
/// (up to `longestNarrowAfter`) each time one of the first `probeFrames` frames after a narrowing
/// misses, so a compositor whose deadline lies well ahead of its repaint (KWin composites several
/// milliseconds before it) is aimed at with the margin its deadline needs, and the narrowings that
/// probe whether it still needs it cost a missed repaint ever more seldom. It is back to 120 frames
/// when the margin is back at its minimum. A deadline that moves is followed either way; the
/// scheduler never stops aiming (docs/decisions.md, Latency 0.15.2).
///
/// The period is learned only from intervals within a fifth of the output's refresh, and a miss
/// is judged against that refresh: a compositor that composites well before its repaint (KWin)
/// makes every aimed frame miss, and the longer intervals that follow, counted into the period,
/// would stretch it until the misses no longer looked like misses, and the window would draw
/// every other repaint for good (docs/decisions.md, Latency 0.15.0).
///
/// Pure: times are seconds on one monotonic clock, given by the host.
public struct FrameScheduler: Sendable {
    /// The interval between the compositor's repaints, as observed (starts at the refresh).
    public private(set) var period: Double
    /// When the last frame callback came: the compositor's last repaint with our commit.
    public private(set) var lastRepaint: Double?
    /// Added to the drawing cost when aiming at a repaint.
    public private(set) var margin: Double
    /// The dearest of the last few frames' drawing, s.
    public var drawCost: Double { costs.max() ?? 0 }

    /// The least margin: a compositor's deadline lies before the `done` we aim at by its
    /// repaint's own time (weston sends `done` after compositing), and a frame drawn later than
    /// aimed (a timer that wakes late, a frame dearer than the last few) must still meet it; a
    /// margin narrowed to within a few tenths of a millisecond of the deadline missed it on such
    /// frames, each a refresh of latency for the input in it (docs/decisions.md, Latency 0.15.28).
    public static let minimumMargin = 0.003
    /// Frames that make their repaint before the margin first narrows, and after it is back at
    /// its minimum.
    public static let firstNarrowAfter = 120
    /// The most frames `narrowAfter` grows to: about two minutes of frames at 60 Hz.
    public static let longestNarrowAfter = 120 * 64
    /// Frames that must make their repaint in a row before the margin narrows.
    public private(set) var narrowAfter = FrameScheduler.firstNarrowAfter
    private var costs: [Double] = []
    private var costIndex = 0
    private var aimedAt: Double?
    private var madeIt = 0
    /// The margin narrowed since the last miss (`madeIt` then counts the frames since): a miss
    /// within `probeFrames` of a narrowing says the narrowing went too far.
    private var narrowedSinceMiss = false
    /// How soon after a narrowing a miss is taken for its doing: a deadline the narrowed margin
    /// no longer meets is missed by the first frames; a miss later is the machine's or the
    /// compositor's (a slow spell), and does not slow the narrowing down.
    public static let probeFrames = 8

    /// How long before the expected repaint a frame that replaces a waiting one (input drawn at
    /// once) must be committed to be shown at it, as the replacements so far say: a miss raises
    /// it to `replaceLeadAboveMiss` above the lead that missed; a replacement shown at its
    /// repaint with less than `replaceLeadNearMiss` to spare takes `replaceLeadProbe` off, so the
    /// deadline is probed again after a few such, and a deadline that moves later is followed.
    /// A replacement that would come later is not drawn: it would be shown a repaint late, when
    /// the next aimed frame is shown with newer input anyway.
    public private(set) var replaceLead = 0.0
    public static let replaceLeadAboveMiss = 0.0005
    public static let replaceLeadNearMiss = 0.001
    public static let replaceLeadProbe = 0.000_05

    public init(refresh: Double) {
        period = refresh
        margin = Self.minimumMargin
    }

    /// A frame's presentation as the compositor reported it (wp_presentation_feedback's
    /// `presented`), on the host's clock.
    public struct Presentation: Sendable, Equatable {
        /// When the frame was shown, s.
        public var time: Double
        /// The refresh the compositor reported with it, s; 0: none (a variable refresh rate).
        public var refresh: Double
        /// Whether the display's vertical retrace timed it (the `vsync` flag): then its refresh
        /// is the hardware's, and later repaints fall on its grid.
        public var synchronized: Bool

        public init(time: Double, refresh: Double, synchronized: Bool) {
            self.time = time
            self.refresh = refresh
            self.synchronized = synchronized
        }
    }

    /// The last presentation reported (`presented`).
    public private(set) var lastPresentation: Presentation?
    /// How many repaint intervals after the first point of the presentation grid past the
    /// moment it is drawn (`predictedPresentation`) a frame aimed at the next repaint is shown, as the
    /// compositor's reports say: where a frame is shown after the repaint that composites it
    /// depends on the compositor (weston composites some milliseconds before the vertical
    /// retrace; its headless backend reports a frame shown a whole interval after the repaint).
    public private(set) var presentationLag = 0
    /// A lag the last report suggested, adopted when the next agrees (one frame that missed its
    /// repaint is not a lag).
    private var suggestedLag: Int?
    /// The most intervals of lag learned: a report further off than this is a slow spell (or a
    /// clock gone wrong), not a lag, and teaches nothing.
    public static let longestPresentationLag = 3

    /// The compositor reported a presentation: of a frame drawn for `frameTime`
    /// (`predictedPresentation`) when it aimed at a repaint (`aims`), whose error teaches the
    /// lag; nil for any other.
    public mutating func presented(_ presentation: Presentation, drawnFor frameTime: Double? = nil) {
        lastPresentation = presentation
        guard let frameTime else { return }
        let off = ((presentation.time - frameTime) / presentationInterval).rounded()
        guard off.isFinite, off != 0, abs(off) <= Double(Self.longestPresentationLag) else {
            suggestedLag = nil
            return
        }
        let lag = min(
            Self.longestPresentationLag,
            max(0, presentationLag + Int(clamping: off, rounding: .toNearestOrAwayFromZero, in: -3...3)))
        if lag == suggestedLag {
            presentationLag = lag
            suggestedLag = nil
        } else {
            suggestedLag = lag
        }
    }

    /// The interval between the repaints a frame is predicted to be shown at: the reported
    /// refresh when a vertical retrace timed the last presentation, else the period observed
    /// between repaints. A compositor that repaints on a timer of its own may report the output
    /// mode's refresh all the same (weston's headless backend repaints more slowly than the
    /// refresh it reports), and a grid of that refresh drifts off the repaints by most of a
    /// frame between two presentations, then jumps back: animations drawn for its times lag
    /// the frames shown, then skip a frame's worth (docs/decisions.md, Latency 0.15.33).
    public var presentationInterval: Double {
        guard let last = lastPresentation, last.synchronized, last.refresh > 0 else { return period }
        return last.refresh
    }

    /// Whether a frame drawn at `now` aims at a repaint the compositor is expected to make: one
    /// has been seen, and the next has not passed (else the compositor idles, and repaints when
    /// a commit comes).
    public func aims(now: Double) -> Bool { lastRepaint.map { now < $0 + period } ?? false }

    /// When a frame drawn at `now` will most likely be shown, on the grid of the last
    /// presentation (`presentationInterval` apart). Aimed at a repaint (`aims`): the first point
    /// after `now`, `presentationLag` intervals on. (Counted from the last repaint instead, a
    /// frame aimed right after one drawn for an idle compositor, whose grid had restarted, could
    /// be put on that frame's own point and show nothing new: docs/decisions.md, Latency
    /// 0.15.33.) For an idle compositor, which takes a commit when it comes whatever lag its
    /// repaint loop has: the first point the frame, once drawn, still reaches with the margin
    /// (one a fraction of a millisecond ahead would have the frame show the first fraction of a
    /// millisecond of an animation just begun, often nothing, and be shown later anyway). With
    /// no presentation in the last second, an interval after `now`.
    ///
    /// For an idle compositor, never sooner than a repaint after the last frame committed
    /// (`lastCommittedFrameTime`): the compositor shows commits in order, a repaint apart, and a
    /// frame for an idle compositor right after one aimed with the lag was put before it (its
    /// animations drawn for a time before the frame ahead of it, and traces went back in time).
    /// That is the first grid point more than half an interval after it: a repaint after it when
    /// it lies on the grid, while one off the grid (a first frame's, predicted with no
    /// presentation known) is not carried on. Not for aimed frames, one a repaint: each is a grid
    /// point on from the last already, and spaced from the last commit, a lag learnt too long
    /// once would hold every frame after it ahead until the animation ended. Never before the
    /// last frame drawn either (`lastFrameTime`; one that showed nothing new was not committed):
    /// the window's animations never go back. `replacing`: the frame is shown instead of the
    /// last commit (drawn over a replacement that missed its repaint), so it is not spaced from
    /// it.
    public func predictedPresentation(now: Double, replacing: Bool = false) -> Double {
        let interval = presentationInterval
        var predicted = gridPresentation(now: now)
        // A time further ahead than the longest lag is a clock gone wrong: not followed.
        let horizon = now + Double(Self.longestPresentationLag + 1) * interval
        if !replacing, !aims(now: now), let committed = lastCommittedFrameTime, committed <= horizon {
            let steps = ((committed + interval / 2 - predicted) / interval).rounded(.up)
            if steps > 0 { predicted += steps * interval }
        }
        if let drawn = lastFrameTime, drawn <= horizon { predicted = max(predicted, drawn) }
        return predicted
    }

    /// The next point on the presentation grid a frame drawn at `now` can be shown at
    /// (`predictedPresentation`, without the last frame's time).
    func gridPresentation(now: Double) -> Double {
        let interval = presentationInterval
        let aimed = aims(now: now)
        let from = aimed ? now : now + drawCost + margin
        guard let last = lastPresentation, from - last.time < 1 else { return now + interval }
        let intervals = ((from - last.time) / interval).rounded(.down) + 1
        return last.time + (intervals + (aimed ? Double(presentationLag) : 0)) * interval
    }

    /// The presentation time the last frame was drawn for (`prepared(frameFor:)`).
    public private(set) var lastFrameTime: Double?
    /// The presentation time the last frame committed was drawn for (`committed(frameFor:)`).
    public private(set) var lastCommittedFrameTime: Double?

    /// A frame was drawn for `time` (a replacement too): the window's animations stand at it,
    /// whether it showed anything new or not.
    public mutating func prepared(frameFor time: Double) { lastFrameTime = time }

    /// A frame drawn for `time` was committed (a replacement too).
    public mutating func committed(frameFor time: Double) { lastCommittedFrameTime = time }

    /// The time a frame that replaces one drawn for `replaced` is drawn for, at `now`: the same,
    /// since it is shown at the repaint that one waits for; unless that time has passed (its
    /// prediction was early: a first frame, before the compositor's first repaint, or a slow
    /// spell), then the next point on the grid. A replacement drawn for the past had its
    /// animations behind the input it shows, and the trace went back in time.
    public func replacementTime(replacing replaced: Double, now: Double) -> Double {
        replaced >= now ? replaced : predictedPresentation(now: now, replacing: true)
    }

    /// When to draw a frame wanted at `now`: `now` itself when there is no repaint to aim at
    /// (none seen yet, or the expected one has passed: the compositor idles until a commit),
    /// else the latest moment that still meets it.
    public func drawTime(now: Double) -> Double {
        guard let last = lastRepaint else { return now }
        let next = last + period
        guard now < next else { return now }
        return max(now, next - drawCost - margin)
    }

    /// Whether a frame that replaces the waiting one, wanted at `now`, would still be committed
    /// `replaceLead` before the expected repaint; always when there is none to aim at (none
    /// seen yet, or it has passed: the waiting frame went to an idle compositor, which repaints
    /// when it can).
    public func replacementCanMakeIt(now: Double) -> Bool {
        guard let last = lastRepaint, now < last + period else { return true }
        return last + period - (now + drawCost) >= replaceLead
    }

    /// How long before the expected repaint a commit at `time` came (nil: there is none to aim
    /// at, and nothing to learn from the commit).
    public func lead(committedAt time: Double) -> Double? {
        guard let last = lastRepaint, time < last + period else { return nil }
        return last + period - time
    }

    /// A replacement committed `lead` before its expected repaint was shown at it (`made`) or
    /// only at the repaint after.
    public mutating func replacement(lead: Double, made: Bool) {
        if made {
            if lead < replaceLead + Self.replaceLeadNearMiss {
                replaceLead = max(0, replaceLead - Self.replaceLeadProbe)
            }
        } else {
            replaceLead = min(period, max(replaceLead, lead + Self.replaceLeadAboveMiss))
        }
    }

    /// A frame was drawn from `start` and committed at `end`.
    public mutating func drew(from start: Double, to end: Double) {
        let cost = max(0, end - start)
        if costs.count < 8 {
            costs.append(cost)
        } else {
            costs[costIndex] = cost
            costIndex = (costIndex + 1) % costs.count
        }
        // The repaint this commit aimed at: the next one, when it came before it.
        if let last = lastRepaint, end < last + period { aimedAt = last + period } else { aimedAt = nil }
    }

    /// The frame callback came at `now` (`refresh`: the output's, for bounds).
    public mutating func repainted(at now: Double, refresh: Double) {
        if let last = lastRepaint {
            let interval = now - last
            // Consecutive repaints only: a gap of several periods is idle time, not the period.
            if interval > 0.8 * refresh && interval < 1.2 * refresh { period += (interval - period) / 8 }
        }
        if let aimed = aimedAt {
            if now > aimed + refresh / 2 {
                margin = min(margin + 0.001, max(Self.minimumMargin, period))
                if narrowedSinceMiss && madeIt < Self.probeFrames {
                    narrowAfter = min(2 * narrowAfter, Self.longestNarrowAfter)
                }
                madeIt = 0
                narrowedSinceMiss = false
            } else {
                madeIt += 1
                if madeIt >= narrowAfter {
                    // Until a narrowing has missed, a quarter of what lies above the minimum;
                    // near a deadline a narrowing has found, half a millisecond.
                    let step =
                        narrowAfter == Self.firstNarrowAfter
                        ? max(0.0005, (margin - Self.minimumMargin) / 4) : 0.0005
                    margin = max(Self.minimumMargin, margin - step)
                    madeIt = 0
                    narrowedSinceMiss = true
                    if margin <= Self.minimumMargin { narrowAfter = Self.firstNarrowAfter }
                }
            }
        }
        aimedAt = nil
        lastRepaint = now
    }
}
