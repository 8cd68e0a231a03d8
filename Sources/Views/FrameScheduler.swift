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
/// The margin adapts: a repaint that comes a period later than the one aimed at (the commit
/// missed it) widens it by a millisecond, up to a third of the period (never below
/// `minimumMargin`); every 120 frames that make their repaint narrow it by half a millisecond,
/// down to `minimumMargin`. A compositor whose deadline lies further ahead than that (eight
/// misses in a row at the widest margin) gets its frames when the callback comes, as before.
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

    public static let minimumMargin = 0.002
    /// Misses in a row with the margin at its widest before the scheduler stops aiming.
    public static let missesBeforeGivingUp = 8
    /// False once aiming has failed `missesBeforeGivingUp` times in a row at the widest margin:
    /// frames are then drawn when the callback comes, as a plain loop draws them.
    public private(set) var aiming = true
    private var missedAtCap = 0
    private var costs: [Double] = []
    private var costIndex = 0
    private var aimedAt: Double?
    private var madeIt = 0

    public init(refresh: Double) {
        period = refresh
        margin = Self.minimumMargin
    }

    /// When to draw a frame wanted at `now`: `now` itself when there is no repaint to aim at
    /// (none seen yet, or the expected one has passed: the compositor idles until a commit),
    /// else the latest moment that still meets it.
    public func drawTime(now: Double) -> Double {
        guard aiming, let last = lastRepaint else { return now }
        let next = last + period
        guard now < next else { return now }
        return max(now, next - drawCost - margin)
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
                margin = min(margin + 0.001, max(Self.minimumMargin, period / 3))
                madeIt = 0
                missedAtCap = margin >= max(Self.minimumMargin, period / 3) ? missedAtCap + 1 : 0
                if missedAtCap >= Self.missesBeforeGivingUp {
                    // Aiming does not work with this compositor (its deadline is further ahead
                    // than a third of a period): draw at `done` again rather than every other repaint.
                    aiming = false
                }
            } else {
                missedAtCap = 0
                madeIt += 1
                if madeIt >= 120 {
                    margin = max(Self.minimumMargin, margin - 0.0005)
                    madeIt = 0
                }
            }
        }
        aimedAt = nil
        lastRepaint = now
    }
}
