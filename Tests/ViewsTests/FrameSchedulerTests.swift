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
        // Misses widen it past a third of the period, up to the whole period: a frame is then
        // drawn when the callback comes, as a plain loop draws it.
        for _ in 0..<20 {
            s.drew(from: t + 0.01, to: t + 0.011)
            t += 2 * refresh
            s.repainted(at: t, refresh: refresh)
        }
        #expect(abs(s.margin - refresh) < 1e-12)
        #expect(s.drawTime(now: t + 0.001) == t + 0.001)
        // And frames that make it narrow it again: it never stops aiming for good (after 240 of
        // them: the narrowing to the minimum was followed by a miss).
        #expect(s.narrowAfter == 240)
        for _ in 0..<240 {
            s.drew(from: t + 0.001, to: t + 0.0011)
            t += refresh
            s.repainted(at: t, refresh: refresh)
        }
        #expect(abs(s.margin - (refresh - 0.0005)) < 1e-12)
        // A frame costing 0.1 ms is drawn 0.4 ms after `done` now.
        #expect(abs(s.drawTime(now: t) - (t + 0.0004)) < 1e-9)
    }

    /// A narrowing that a miss follows went too far: the next comes after twice as many frames
    /// (up to `longestNarrowAfter`), and back after 120 at the minimum margin.
    @Test func aNarrowingThatMissesWaitsTwiceAsLongForTheNext() {
        var s = FrameScheduler(refresh: refresh)
        var t = 1.0
        s.repainted(at: t, refresh: refresh)
        func made(_ n: Int) {
            for _ in 0..<n {
                s.drew(from: t + 0.005, to: t + 0.006)
                t += refresh
                s.repainted(at: t, refresh: refresh)
            }
        }
        func missed() {
            s.drew(from: t + 0.013, to: t + 0.014)
            t += 2 * refresh
            s.repainted(at: t, refresh: refresh)
        }
        // A miss with no narrowing before it: 3 ms, still 120 frames to the next narrowing.
        missed()
        #expect(abs(s.margin - 0.003) < 1e-12)
        #expect(s.narrowAfter == 120)
        made(120)
        #expect(abs(s.margin - 0.0025) < 1e-12)
        // That narrowing missed: 240 frames to the next.
        missed()
        #expect(abs(s.margin - 0.0035) < 1e-12)
        #expect(s.narrowAfter == 240)
        made(239)
        #expect(abs(s.margin - 0.0035) < 1e-12)
        made(1)
        #expect(abs(s.margin - 0.003) < 1e-12)
        missed()
        #expect(s.narrowAfter == 480)
        // Narrowing back to the minimum takes 480 frames a step, then it is 120 again.
        made(480 * 4)
        #expect(s.margin == FrameScheduler.minimumMargin)
        #expect(s.narrowAfter == FrameScheduler.firstNarrowAfter)
        // However often a narrowing misses, the wait stops growing at its longest.
        for _ in 0..<10 {
            made(s.narrowAfter)
            missed()
        }
        #expect(s.narrowAfter == FrameScheduler.longestNarrowAfter)
    }

    /// On a fast display the minimum margin is a good part of the period: misses widen it up to
    /// the whole period and no further.
    @Test func aMissOnAFastDisplayWidensTheMarginUpToThePeriod() {
        let fast = 1.0 / 240
        var s = FrameScheduler(refresh: fast)
        var t = 1.0
        s.repainted(at: t, refresh: fast)
        s.drew(from: t + 0.001, to: t + 0.002)
        t += 2 * fast
        s.repainted(at: t, refresh: fast)
        #expect(abs(s.margin - 0.003) < 1e-12)
        for _ in 0..<5 {
            s.drew(from: t + 0.001, to: t + 0.002)
            t += 2 * fast
            s.repainted(at: t, refresh: fast)
        }
        #expect(abs(s.margin - fast) < 1e-12)
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
}
