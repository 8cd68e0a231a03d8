import Testing

@testable import ScrollwayViews

/// When a host draws: as late as still meets the next repaint, at once when there is none to
/// aim at, with a margin that widens on a miss and narrows after 120 frames that made it.
@Suite struct FrameSchedulerTests {
    let refresh = 1.0 / 60

    @Test func aFrameIsDrawnAsLateAsTheNextRepaintAllows() {
        var s = FrameScheduler(refresh: refresh)
        // Nothing seen yet: at once.
        #expect(s.drawTime(now: 5) == 5)
        s.repainted(at: 10, refresh: refresh)
        // A frame drawn in 1 ms: aimed 1 ms + the 2 ms margin before 10 + 1/60.
        s.drew(from: 10.001, to: 10.002)
        #expect(abs(s.drawTime(now: 10.003) - (10 + refresh - 0.001 - 0.002)) < 1e-12)
        // Past that moment: now. Past the expected repaint (the compositor idles): now.
        #expect(s.drawTime(now: 10.015) == 10.015)
        #expect(s.drawTime(now: 10.5) == 10.5)
    }

    @Test func theMarginWidensOnAMissAndNarrowsAfterFramesThatMadeIt() {
        var s = FrameScheduler(refresh: refresh)
        var t = 1.0
        s.repainted(at: t, refresh: refresh)
        // Committed before the next repaint, but the callback came two periods on: a miss.
        s.drew(from: t + 0.013, to: t + 0.014)
        t += 2 * refresh
        s.repainted(at: t, refresh: refresh)
        #expect(abs(s.margin - 0.003) < 1e-12)
        // The period is not taken from the gap of a miss.
        #expect(abs(s.period - refresh) < 1e-12)
        for _ in 0..<120 {
            s.drew(from: t + 0.012, to: t + 0.013)
            t += refresh
            s.repainted(at: t, refresh: refresh)
        }
        #expect(abs(s.margin - 0.0025) < 1e-12)
        // It never goes below the minimum, nor above a third of the period.
        for _ in 0..<600 {
            s.drew(from: t + 0.012, to: t + 0.013)
            t += refresh
            s.repainted(at: t, refresh: refresh)
        }
        #expect(s.margin == FrameScheduler.minimumMargin)
        // Four misses take it from 2 ms to its widest, a third of the period (5.6 ms).
        for _ in 0..<4 {
            s.drew(from: t + 0.01, to: t + 0.011)
            t += 2 * refresh
            s.repainted(at: t, refresh: refresh)
        }
        #expect(abs(s.margin - refresh / 3) < 1e-12)
        // Missing still at the widest margin (the fourth miss was the first there): eight in a
        // row and it stops aiming.
        #expect(s.aiming)
        for _ in 0..<(FrameScheduler.missesBeforeGivingUp - 1) {
            s.drew(from: t + 0.01, to: t + 0.011)
            t += 2 * refresh
            s.repainted(at: t, refresh: refresh)
        }
        #expect(!s.aiming)
        #expect(s.drawTime(now: t + 0.001) == t + 0.001)
    }

    /// On a fast display a third of the period is under the minimum margin: a miss never
    /// narrows the margin.
    @Test func aMissOnAFastDisplayNeverNarrowsTheMargin() {
        let fast = 1.0 / 240
        var s = FrameScheduler(refresh: fast)
        s.repainted(at: 1, refresh: fast)
        s.drew(from: 1.001, to: 1.002)
        s.repainted(at: 1 + 2 * fast, refresh: fast)
        #expect(s.margin == FrameScheduler.minimumMargin)
    }

    /// A compositor that takes commits 9 ms before its repaint (KWin 5.27) and shows a missed
    /// frame one or one and a half refreshes later (its callbacks came 25–33 ms apart): the
    /// misses are seen as misses (the period is not stretched by them), the scheduler stops
    /// aiming, and from then on every frame, drawn at `done`, makes the next repaint.
    @Test func aCompositorWithAnEarlyDeadlineGetsFramesAtDoneAndEveryRepaint() {
        let refresh = 1.0 / 60
        let lead = 0.009
        var s = FrameScheduler(refresh: refresh)
        var done = 1.0
        var shownAfter: [Double] = []
        for i in 0..<60 {
            s.repainted(at: done, refresh: refresh)
            let start = s.drawTime(now: done)
            let commit = start + 0.0005
            s.drew(from: start, to: commit)
            // The first repaint whose deadline the commit meets; every third miss waits half a
            // refresh more (the 25 ms intervals that once counted as a period).
            let first = (commit / refresh).rounded(.down) + 1
            var k = first
            while k * refresh - lead < commit { k += 1 }
            let next = k * refresh + (k > first && i % 3 == 0 ? refresh / 2 : 0)
            shownAfter.append(next - done)
            done = next
        }
        #expect(!s.aiming)
        #expect(abs(s.period - refresh) < 0.001, "the period was stretched to \(s.period)")
        // The last 20 frames each at the next repaint.
        #expect(shownAfter.suffix(20).allSatisfy { $0 < 1.2 * refresh }, "\(shownAfter.suffix(20))")
    }
}
