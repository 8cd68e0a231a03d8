import Testing

@testable import ScrollwayViews

/// When a host draws: as late as still meets the next repaint, at once when there is none to
/// aim at, with a margin that widens on a miss and narrows after 120 frames that made it.
@Suite struct FrameSchedulerTests {
    let refresh = 1.0 / 60
    let m = FrameScheduler.minimumMargin

    @Test func aFrameIsDrawnAsLateAsTheNextRepaintAllows() {
        var s = FrameScheduler(refresh: refresh)
        // Nothing seen yet: at once.
        #expect(s.drawTime(now: 5) == 5)
        s.repainted(at: 10, refresh: refresh)
        // A frame drawn in 1 ms: aimed 1 ms + the margin (at its minimum, 3 ms) before 10 + 1/60.
        s.drew(from: 10.001, to: 10.002)
        #expect(FrameScheduler.minimumMargin == 0.003)
        #expect(abs(s.drawTime(now: 10.003) - (10 + refresh - 0.001 - 0.003)) < 1e-12)
        // Past that moment: now. Past the expected repaint (the compositor idles): now.
        #expect(s.drawTime(now: 10.015) == 10.015)
        #expect(s.drawTime(now: 10.5) == 10.5)
    }

    @Test func theMarginWidensOnAMissAndNarrowsAfterFramesThatMadeIt() {
        var c = Repaints(refresh: refresh)
        // Committed before the next repaint, but the callback came two periods on: a miss.
        c.frames(drawnAfter: 0.013, periods: 2)
        #expect(abs(c.s.margin - (m + 0.001)) < 1e-12)
        // The period is not taken from the gap of a miss.
        #expect(abs(c.s.period - refresh) < 1e-12)
        c.frames(120, drawnAfter: 0.012)
        #expect(abs(c.s.margin - (m + 0.0005)) < 1e-12)
        // It never goes below the minimum.
        c.frames(600, drawnAfter: 0.012)
        #expect(c.s.margin == FrameScheduler.minimumMargin)
        // Misses widen it past a third of the period, up to the whole period: a frame is then
        // drawn when the callback comes, as a plain loop draws it.
        c.frames(20, drawnAfter: 0.01, periods: 2)
        #expect(abs(c.s.margin - refresh) < 1e-12)
        #expect(c.s.drawTime(now: c.t + 0.001) == c.t + 0.001)
        // And frames that make it narrow it again: it never stops aiming for good (after 240 of
        // them: the narrowing to the minimum was followed by a miss).
        #expect(c.s.narrowAfter == 240)
        c.frames(240, drawnAfter: 0.001, cost: 0.0001)
        #expect(abs(c.s.margin - (refresh - 0.0005)) < 1e-12)
        // A frame costing 0.1 ms is drawn 0.4 ms after `done` now.
        #expect(abs(c.s.drawTime(now: c.t) - (c.t + 0.0004)) < 1e-9)
    }

    /// A narrowing that a miss follows went too far: the next comes after twice as many frames
    /// (up to `longestNarrowAfter`), and back after 120 at the minimum margin.
    @Test func aNarrowingThatMissesWaitsTwiceAsLongForTheNext() {
        var c = Repaints(refresh: refresh)
        // A miss with no narrowing before it: a millisecond more, still 120 frames to the next narrowing.
        c.frames(drawnAfter: 0.013, periods: 2)
        #expect(abs(c.s.margin - (m + 0.001)) < 1e-12)
        #expect(c.s.narrowAfter == 120)
        c.frames(120, drawnAfter: 0.005)
        #expect(abs(c.s.margin - (m + 0.0005)) < 1e-12)
        // That narrowing missed: 240 frames to the next.
        c.frames(drawnAfter: 0.013, periods: 2)
        #expect(abs(c.s.margin - (m + 0.0015)) < 1e-12)
        #expect(c.s.narrowAfter == 240)
        c.frames(239, drawnAfter: 0.005)
        #expect(abs(c.s.margin - (m + 0.0015)) < 1e-12)
        c.frames(drawnAfter: 0.005)
        #expect(abs(c.s.margin - (m + 0.001)) < 1e-12)
        c.frames(drawnAfter: 0.013, periods: 2)
        #expect(c.s.narrowAfter == 480)
        // Narrowing back to the minimum takes 480 frames a step, then it is 120 again.
        c.frames(480 * 4, drawnAfter: 0.005)
        #expect(c.s.margin == FrameScheduler.minimumMargin)
        #expect(c.s.narrowAfter == FrameScheduler.firstNarrowAfter)
        // However often a narrowing misses, the wait stops growing at its longest.
        for _ in 0..<10 {
            c.frames(c.s.narrowAfter, drawnAfter: 0.005)
            c.frames(drawnAfter: 0.013, periods: 2)
        }
        #expect(c.s.narrowAfter == FrameScheduler.longestNarrowAfter)
    }

    /// A miss that comes long after a narrowing is a slow spell's, not the narrowing's: the wait
    /// does not grow. And a margin a spell widened to the whole period comes back in a quarter
    /// steps, twenty seconds of frames at 60 Hz, not the minute half-millisecond steps would take.
    @Test func aSpellsMissesDoNotSlowTheNarrowingAndItsMarginComesBackSoon() {
        var c = Repaints(refresh: refresh)
        c.frames(drawnAfter: 0.013, periods: 2)
        c.frames(120, drawnAfter: 0.005)
        #expect(abs(c.s.margin - (m + 0.0005)) < 1e-12)
        // The ninth frame after the narrowing misses: not the narrowing's doing.
        c.frames(FrameScheduler.probeFrames, drawnAfter: 0.005)
        c.frames(drawnAfter: 0.013, periods: 2)
        #expect(c.s.narrowAfter == FrameScheduler.firstNarrowAfter)
        // A spell: misses take the margin to the whole period.
        c.frames(20, drawnAfter: 0.013, periods: 2)
        #expect(abs(c.s.margin - refresh) < 1e-12)
        // 1,200 frames that make it: ten narrowings, each a quarter of what lies above the minimum.
        c.frames(1200, drawnAfter: 0.001, cost: 0.0001)
        var expected = refresh
        for _ in 0..<10 { expected -= max(0.0005, (expected - FrameScheduler.minimumMargin) / 4) }
        #expect(abs(c.s.margin - expected) < 1e-12)
        #expect(c.s.margin < m + 0.001)
    }

    /// On a fast display the minimum margin is a good part of the period: misses widen it up to
    /// the whole period and no further.
    @Test func aMissOnAFastDisplayWidensTheMarginUpToThePeriod() {
        let fast = 1.0 / 240
        var c = Repaints(refresh: fast)
        c.frames(drawnAfter: 0.001, periods: 2)
        #expect(abs(c.s.margin - (m + 0.001)) < 1e-12)
        c.frames(5, drawnAfter: 0.001, periods: 2)
        #expect(abs(c.s.margin - fast) < 1e-12)
    }

    /// A compositor that takes commits 9 ms before its repaint (KWin 5.27) and shows a missed
    /// frame one or one and a half refreshes later (its callbacks came 25–33 ms apart): the
    /// misses are seen as misses (the period is not stretched by them), the margin widens to
    /// what the deadline needs, and from then on frames are drawn well after `done` and still
    /// make the next repaint, missing only as a narrowing probes, ever more seldom.
    @Test func aCompositorWithAnEarlyDeadlineIsAimedAtWithTheMarginItNeeds() {
        let refresh = 1.0 / 60
        let lead = 0.009
        var s = FrameScheduler(refresh: refresh)
        var done = 1.0
        var shownAfter: [Double] = []
        var drawnAfterDone: [Double] = []
        for i in 0..<4000 {
            s.repainted(at: done, refresh: refresh)
            let start = s.drawTime(now: done)
            let commit = start + 0.0005
            s.drew(from: start, to: commit)
            drawnAfterDone.append(start - done)
            // The first repaint whose deadline the commit meets; every third miss waits half a
            // refresh more (the 25 ms intervals that once counted as a period).
            let first = (commit / refresh).rounded(.down) + 1
            var k = first
            while k * refresh - lead < commit { k += 1 }
            let next = k * refresh + (k > first && i % 3 == 0 ? refresh / 2 : 0)
            shownAfter.append(next - done)
            done = next
        }
        #expect(abs(s.period - refresh) < 0.001, "the period was stretched to \(s.period)")
        // The margin the deadline needs: 9 ms less the half millisecond of drawing, give or
        // take a narrowing.
        #expect(s.margin > 0.008 && s.margin < 0.011, "margin \(s.margin)")
        // The first dozen frames find it; of the rest, a handful miss (the probes).
        let missed = shownAfter.dropFirst(12).filter { $0 > 1.2 * refresh }.count
        #expect(missed <= 6, "\(missed) missed repaints")
        // Frames are drawn about 7 ms after `done`, not at it: the input they show is 7 ms newer.
        let late = drawnAfterDone.suffix(1000).sorted()[500]
        #expect(late > 0.006 && late < 0.0075, "drawn \(late) s after done")
    }

    /// Replacements learn how close to the repaint they are still shown at it: against a
    /// compositor that takes commits up to 4 ms before its repaint, input arriving at every
    /// tenth of a millisecond of the period, twenty periods over, is replaced while it can make
    /// it; after the first miss, one replacement in a hundred or fewer misses (one a period: the
    /// probe), and almost every input with more than 0.6 ms to spare past the deadline is still
    /// replaced. When the compositor then takes commits up to 2 ms before, the lead follows.
    @Test func replacementsLearnHowCloseToTheRepaintTheyStillMakeIt() {
        var deadline = 0.004
        let cost = 0.001
        var s = FrameScheduler(refresh: refresh)
        s.repainted(at: 1, refresh: refresh)
        s.drew(from: 1.001, to: 1.001 + cost)
        #expect(s.replaceLead == 0)
        var missed = 0
        var made = 0
        var spareDeclined = 0
        var spare = 0
        for sweep in 0..<30 {
            if sweep == 20 {
                #expect(missed * 100 <= made, "\(missed) missed, \(made) made")
                #expect(spareDeclined * 50 <= spare, "\(spareDeclined) of \(spare) with time to spare not replaced")
                #expect(s.replaceLead > deadline - 0.0006 && s.replaceLead < deadline + 0.0006, "lead \(s.replaceLead)")
                deadline = 0.002
            }
            for step in 0..<160 {
                let now = 1 + Double(step) * 0.0001
                let lead = s.lead(committedAt: now + cost) ?? 0
                if lead >= deadline + 0.0006 { spare += 1 }
                guard s.replacementCanMakeIt(now: now) else {
                    if lead >= deadline + 0.0006 { spareDeclined += 1 }
                    continue
                }
                let shown = lead >= deadline
                s.replacement(lead: lead, made: shown)
                if shown { made += 1 } else if sweep > 0 { missed += 1 }
            }
        }
        #expect(abs(s.lead(committedAt: 1.002)! - (1 + refresh - 1.002)) < 1e-12)
        #expect(s.replaceLead > deadline - 0.0006 && s.replaceLead < deadline + 0.0006, "lead \(s.replaceLead)")
        // No repaint to aim at: a replacement is tried.
        #expect(FrameScheduler(refresh: refresh).replacementCanMakeIt(now: 3))
    }
}

/// When a frame drawn now will be shown (`predictedPresentation`): on the grid of the last
/// presentation, its interval the hardware's refresh when a vertical retrace timed it and the
/// repaints' own period when not, as many intervals on as the compositor's reports say.
@Suite struct PresentationPredictionTests {
    let refresh = 1.0 / 60
    /// Repaints more slowly than the refresh reported, as weston's headless backend's do.
    let repaints = 0.01747

    /// A compositor repainting every `interval` from `t`, `n` times.
    func scheduler(repaintingEvery interval: Double, from t: Double = 1, _ n: Int = 40) -> FrameScheduler {
        var s = FrameScheduler(refresh: refresh)
        for k in 0..<n { s.repainted(at: t + Double(k) * interval, refresh: refresh) }
        return s
    }

    @Test func withoutAVerticalRetraceTheRepaintsOwnPeriodSpacesTheGrid() {
        var s = scheduler(repaintingEvery: repaints)
        #expect(abs(s.period - repaints) < 0.0002)
        let last = s.lastRepaint!
        s.presented(.init(time: last, refresh: refresh, synchronized: false))
        #expect(s.presentationInterval == s.period)
        // Fourteen repaints on (the next feedback comes a quarter of a second later), the
        // prediction is still within a fraction of a millisecond of the repaint it is drawn for;
        // a grid of the reported refresh would be 11 ms early, and a frame later a whole one.
        let now = last + 14 * repaints - 0.004
        let predicted = s.predictedPresentation(now: now)
        #expect(abs(predicted - (last + 14 * repaints)) < 0.0005, "predicted \(predicted - last)")
    }

    @Test func aVerticalRetracesRefreshSpacesTheGrid() {
        var s = scheduler(repaintingEvery: repaints)
        s.presented(.init(time: 2, refresh: refresh, synchronized: true))
        #expect(s.presentationInterval == refresh)
        #expect(abs(s.predictedPresentation(now: 2 + 3.5 * refresh) - (2 + 4 * refresh)) < 1e-12)
        // No refresh reported (a variable refresh rate): the repaints' period.
        s.presented(.init(time: 2, refresh: 0, synchronized: true))
        #expect(s.presentationInterval == s.period)
        // With no presentation in the last second: an interval after now.
        #expect(abs(s.predictedPresentation(now: 3.5) - (3.5 + s.period)) < 1e-12)
    }

    /// A compositor that reports each frame shown an interval after the grid point it was drawn
    /// for (weston's headless backend, which reports a frame an interval after the repaint that
    /// composited it) is learnt from two reports that agree, not from one (a missed repaint),
    /// and unlearnt the same way; a frame for an idle compositor is predicted without the lag.
    @Test func aLagIsLearntFromTwoReportsThatAgree() {
        var s = scheduler(repaintingEvery: refresh)
        let last = s.lastRepaint!
        s.presented(.init(time: last, refresh: refresh, synchronized: true))
        let now = last + refresh - 0.004
        let onGrid = last + refresh
        #expect(s.aims(now: now))
        #expect(abs(s.predictedPresentation(now: now) - onGrid) < 1e-12)
        // One frame shown an interval late: a miss, not a lag.
        s.presented(.init(time: onGrid + refresh, refresh: refresh, synchronized: true), drawnFor: onGrid)
        #expect(s.presentationLag == 0)
        // On time: the suggestion is forgotten; then two late in a row: the lag.
        s.presented(.init(time: onGrid, refresh: refresh, synchronized: true), drawnFor: onGrid)
        s.presented(.init(time: onGrid + refresh, refresh: refresh, synchronized: true), drawnFor: onGrid)
        #expect(s.presentationLag == 0)
        s.presented(.init(time: onGrid, refresh: refresh, synchronized: true), drawnFor: onGrid - refresh)
        #expect(s.presentationLag == 1)
        s.presented(.init(time: last, refresh: refresh, synchronized: true))
        #expect(abs(s.predictedPresentation(now: now) - (onGrid + refresh)) < 1e-12)
        // Once predicted with it, reports on time keep it.
        s.presented(.init(time: onGrid, refresh: refresh, synchronized: true), drawnFor: onGrid)
        s.presented(.init(time: onGrid, refresh: refresh, synchronized: true), drawnFor: onGrid)
        #expect(s.presentationLag == 1)
        // An idle compositor (its expected repaint passed): no lag, and a point the frame still
        // reaches with the margin: not one 1.7 ms ahead.
        let idle = last + 2.5 * refresh
        #expect(!s.aims(now: idle))
        #expect(abs(s.predictedPresentation(now: idle) - (last + 3 * refresh)) < 1e-12)
        #expect(abs(s.predictedPresentation(now: last + 2.9 * refresh) - (last + 4 * refresh)) < 1e-12)
        // Two reports an interval early: back to none. Reports further off than the longest lag
        // (a stall, a clock gone wrong: one 1e21 intervals off had trapped) teach nothing.
        s.presented(.init(time: onGrid - refresh, refresh: refresh, synchronized: true), drawnFor: onGrid)
        s.presented(.init(time: onGrid - refresh, refresh: refresh, synchronized: true), drawnFor: onGrid)
        #expect(s.presentationLag == 0)
        for off in [10.0, 10, 1e21, 1e21, -1e21, -1e21] {
            s.presented(.init(time: onGrid + off * refresh, refresh: refresh, synchronized: true), drawnFor: onGrid)
        }
        #expect(s.presentationLag == 0)
    }

    /// Frames are shown in the order they are committed, a repaint apart: a frame for an idle
    /// compositor right after one aimed with the lag is predicted a repaint after that one, not
    /// at the earlier grid point its own moment reaches (weston's traces went back in time in a
    /// fling's tail: decisions.md, 0.15.34). A last frame time further ahead than the longest lag
    /// is not followed.
    @Test func aFrameIsNeverPredictedBeforeARepaintAfterTheLastOne() {
        var s = scheduler(repaintingEvery: refresh)
        let last = s.lastRepaint!
        s.presented(.init(time: last, refresh: refresh, synchronized: true))
        s.presented(.init(time: last + refresh, refresh: refresh, synchronized: true), drawnFor: last)
        s.presented(.init(time: last + refresh, refresh: refresh, synchronized: true), drawnFor: last)
        s.presented(.init(time: last, refresh: refresh, synchronized: true))
        #expect(s.presentationLag == 1)
        // Aimed at the next repaint, with the lag: two points on.
        let aimedNow = last + 0.5 * refresh
        let aimed = s.predictedPresentation(now: aimedNow)
        #expect(abs(aimed - (last + 2 * refresh)) < 1e-12)
        s.committed(frameFor: aimed)
        // The compositor idles after it (its repaint passed): its own grid point would be
        // before the frame drawn ahead of it.
        let idle = last + 1.2 * refresh
        #expect(!s.aims(now: idle))
        #expect(abs(s.gridPresentation(now: idle) - (last + 2 * refresh)) < 1e-12)
        #expect(abs(s.predictedPresentation(now: idle) - (last + 3 * refresh)) < 1e-12)
        // A last frame time off the grid (a first frame's, drawn with no presentation known):
        // the first grid point more than half an interval after it, not its time plus one.
        s.committed(frameFor: last + 1.8 * refresh)
        #expect(abs(s.predictedPresentation(now: idle) - (last + 3 * refresh)) < 1e-12)
        s.committed(frameFor: last + 1.4 * refresh)
        #expect(abs(s.predictedPresentation(now: idle) - (last + 2 * refresh)) < 1e-12)
        // Drawn over the last commit (a replacement that missed its repaint), shown instead of
        // it: not spaced from it.
        #expect(abs(s.predictedPresentation(now: idle, replacing: true) - (last + 2 * refresh)) < 1e-12)
        // A last frame time from a clock gone wrong, a minute ahead: the grid.
        s.committed(frameFor: idle + 60)
        #expect(abs(s.predictedPresentation(now: idle) - (last + 2 * refresh)) < 1e-12)
        // A frame drawn that committed nothing (nothing new to show) is not a repaint's: the
        // next is not spaced from it, but never drawn for a time before it.
        s.prepared(frameFor: last + 2.2 * refresh)
        #expect(abs(s.predictedPresentation(now: idle) - (last + 2.2 * refresh)) < 1e-12)
        s.prepared(frameFor: last + 1.9 * refresh)
        #expect(abs(s.predictedPresentation(now: idle) - (last + 2 * refresh)) < 1e-12)
    }

    /// Aimed frames are not spaced from the last commit: each is a grid point on from the last
    /// already, and spaced, a lag learnt one interval too long (two late reports in a slow
    /// spell) held every frame after it an interval ahead until the animation ended, though the
    /// lag was unlearnt meanwhile.
    @Test func aLagUnlearntBringsAimedFramesBackToTheGrid() {
        var s = scheduler(repaintingEvery: refresh)
        let last = s.lastRepaint!
        s.presented(.init(time: last, refresh: refresh, synchronized: true))
        // Learnt: a lag of 2 (reports two intervals late).
        s.presented(.init(time: last + 3 * refresh, refresh: refresh, synchronized: true), drawnFor: last + refresh)
        s.presented(.init(time: last + 3 * refresh, refresh: refresh, synchronized: true), drawnFor: last + refresh)
        #expect(s.presentationLag == 2)
        s.presented(.init(time: last, refresh: refresh, synchronized: true))
        let now = last + 0.5 * refresh
        #expect(s.aims(now: now))
        let ahead = s.predictedPresentation(now: now)
        #expect(abs(ahead - (last + 3 * refresh)) < 1e-12)
        s.prepared(frameFor: ahead)
        s.committed(frameFor: ahead)
        // Unlearnt (two reports an interval early), while the animation runs on: the next
        // repaint's frame is back on the grid with the lag of 1 (at the last frame's time, which
        // it does not go back from; the one after moves on), not a repaint after the last.
        s.presented(.init(time: ahead - refresh, refresh: refresh, synchronized: true), drawnFor: ahead)
        s.presented(.init(time: ahead - refresh, refresh: refresh, synchronized: true), drawnFor: ahead)
        #expect(s.presentationLag == 1)
        s.presented(.init(time: last, refresh: refresh, synchronized: true))
        s.repainted(at: last + refresh, refresh: refresh)
        let next = s.predictedPresentation(now: last + 1.5 * refresh)
        #expect(abs(next - (last + 3 * refresh)) < 1e-12, "predicted \((next - last) / refresh) intervals on")
    }

    /// A replacement is drawn for the time of the frame it replaces, which waits for the same
    /// repaint; once that time has passed (a first frame predicted before the compositor's
    /// first repaint, which came late), for the next grid point: drawn for the past, its
    /// animations were behind the input it showed, and the trace went back before that input.
    @Test func aReplacementOfAFrameWhoseTimePassedIsDrawnForTheNextPoint() {
        var s = scheduler(repaintingEvery: refresh)
        let last = s.lastRepaint!
        s.presented(.init(time: last, refresh: refresh, synchronized: true))
        let waiting = last + 2 * refresh
        #expect(s.replacementTime(replacing: waiting, now: last + 1.5 * refresh) == waiting)
        let late = last + 2.3 * refresh
        let time = s.replacementTime(replacing: waiting, now: late)
        #expect(time > late && abs(time - (last + 3 * refresh)) < 1e-12)
        // No presentation in the last second: an interval after now.
        #expect(abs(s.replacementTime(replacing: waiting, now: last + 5) - (last + 5 + s.period)) < 1e-12)
    }
}

/// A compositor repainting on a fixed refresh, its callbacks played into a scheduler.
private struct Repaints {
    var s: FrameScheduler
    /// The last callback.
    var t = 1.0
    let refresh: Double

    init(refresh: Double) {
        self.refresh = refresh
        s = FrameScheduler(refresh: refresh)
        s.repainted(at: t, refresh: refresh)
    }

    /// `n` frames, each drawn `drawnAfter` s after the callback in `cost` s, and the next
    /// callback `periods` refreshes after the last (2: the frame missed its repaint).
    mutating func frames(_ n: Int = 1, drawnAfter: Double, cost: Double = 0.001, periods: Double = 1) {
        for _ in 0..<n {
            s.drew(from: t + drawnAfter, to: t + drawnAfter + cost)
            t += periods * refresh
            s.repainted(at: t, refresh: refresh)
        }
    }
}
