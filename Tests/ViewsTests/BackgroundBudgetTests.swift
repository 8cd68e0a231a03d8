import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayViews
import Testing

/// The token bucket background work keeps to under a CPU quota (`CPUPacer`), on an injected clock.
struct BackgroundBudgetTests {
    /// Workers that always have work, each piece taking `cost` CPU-seconds, for `seconds` of
    /// simulated time: how much CPU they spent in total, starting each piece when the pacer lets
    /// them (one worker: pieces run back to back with the waits between them).
    private func run(_ pacer: inout CPUPacer, cost: Double, seconds: Double) -> (spent: Double, pieces: Int) {
        var now = 0.0
        var spent = 0.0
        var pieces = 0
        // Bounded: a pacer that kept asking for waits too short to move the clock would
        // otherwise never end the test.
        for _ in 0..<100_000 where now < seconds {
            guard let reserved = pacer.start(at: now) else {
                now += pacer.delay(at: now)
                continue
            }
            now += cost
            pacer.finish(reserved: reserved, spent: cost, at: now)
            spent += cost
            pieces += 1
        }
        #expect(now >= seconds, "the pacer stalled at \(now) s")
        return (spent, pieces)
    }

    @Test func busyWorkKeepsToTheRateOverTime() {
        // 2.5% of a core, saved up for at most a 100 ms period: 2.5 ms.
        var pacer = CPUPacer(rate: 0.025, burst: 0.0025)
        let (spent, pieces) = run(&pacer, cost: 0.004, seconds: 10)
        // At most rate · t + burst + one piece's overdraw, and (busy all along) no less than
        // rate · t less one piece: 0.25 s of 10.
        #expect(spent <= 0.025 * 10 + 0.0025 + 0.004)
        #expect(spent >= 0.025 * 10 - 0.004)
        #expect(pieces >= 61 && pieces <= 64)
    }

    @Test func idleTimeSavesUpOnlyTheBurst() throws {
        var pacer = CPUPacer(rate: 0.05, burst: 0.005)
        #expect(pacer.delay(at: 0) == 0)
        // An hour idle saves up 5 ms, not 180 s. A 3 ms piece (none before it: expected to cost
        // nothing) and then another (expected to cost 3 ms) start at once, on a positive
        // balance; the third waits until the 1 ms they overdrew and the 3 ms it is expected
        // to take are paid back: 80 ms at 5%.
        let firstStart = pacer.start(at: 3600)
        let first = try #require(firstStart)
        #expect(first == 0)
        pacer.finish(reserved: first, spent: 0.003, at: 3600)
        let secondStart = pacer.start(at: 3600)
        let second = try #require(secondStart)
        #expect(second == 0.003)
        pacer.finish(reserved: second, spent: 0.003, at: 3600)
        let refused = pacer.start(at: 3600)
        #expect(refused == nil)
        #expect(abs(pacer.delay(at: 3600) - 0.020) < 1e-9)
        let thirdStart = pacer.start(at: 3600.020 + 1e-6)
        let third = try #require(thirdStart)
        #expect(third == 0.003)
        #expect(abs(pacer.delay(at: 3600.020 + 1e-6) - 0.060) < 1e-4)
    }

    @Test func aSecondWorkerSeesWhatTheFirstIsExpectedToTake() throws {
        var pacer = CPUPacer(rate: 0.05, burst: 0.005)
        // Learn a 4 ms piece, then wait until the balance is back to its burst.
        let rStart = pacer.start(at: 0)
        let r = try #require(rStart)
        pacer.finish(reserved: r, spent: 0.004, at: 0.004)
        let a = pacer.start(at: 1)  // 5 ms saved up: takes 4
        let b = pacer.start(at: 1)  // 1 ms left: may start, takes 4 more
        let c = pacer.start(at: 1)  // 3 ms short: a third waits, 60 ms
        #expect(a == 0.004 && b == 0.004 && c == nil)
        #expect(abs(pacer.delay(at: 1) - 0.060) < 1e-9)
    }

    @Test func aPieceThatOverrunsIsChargedWhenItEnds() throws {
        var pacer = CPUPacer(rate: 0.1, burst: 0.01)
        let rStart = pacer.start(at: 1)
        let r = try #require(rStart)
        pacer.finish(reserved: r, spent: 0.050, at: 1.05)  // 40 ms overdrawn (it was full)
        #expect(abs(pacer.balance - -0.040) < 1e-12)
        #expect(abs(pacer.delay(at: 1.05) - 0.4) < 1e-9)
        #expect(abs(pacer.delay(at: 1.25) - 0.2) < 1e-9)
        #expect(pacer.delay(at: 1.45 + 1e-9) == 0)
        // A turn that found nothing to do gives back what it took and teaches nothing.
        let againStart = pacer.start(at: 1.5)
        let again = try #require(againStart)
        #expect(again == 0.050)
        pacer.finish(reserved: again, spent: 0, at: 1.5, learns: false)
        #expect(pacer.expectedCost == 0.050)
    }

    @Test func aClockThatStepsBackChangesNothing() throws {
        var pacer = CPUPacer(rate: 0.1, burst: 0.01)
        let rStart = pacer.start(at: 5)
        let r = try #require(rStart)
        pacer.finish(reserved: r, spent: 0.02, at: 5)
        let before = pacer.delay(at: 5)
        #expect(pacer.delay(at: 4) == before)
        #expect(pacer.balance == -0.01)
    }

    @Test func aNewRateKeepsWhatWasSavedUpToItsBurst() {
        var pacer = CPUPacer(rate: 0.05, burst: 0.005)
        _ = pacer.delay(at: 0)
        let rStart = pacer.start(at: 0)
        #expect(rStart == 0)
        pacer.finish(reserved: 0, spent: 0.010, at: 0)
        // 5 ms overdrawn, 40 ms at 5%: 2 ms of it back. Then a quarter of that rate, with a smaller burst.
        pacer.setRate(0.0125, burst: 0.00125, at: 0.04)
        #expect(abs(pacer.balance - (-0.003)) < 1e-12)
        #expect(abs(pacer.delay(at: 0.04) - 0.24) < 1e-9)
        // Saved up at the new rate, never past its burst.
        _ = pacer.delay(at: 10)
        #expect(pacer.balance == 0.00125)
        pacer.setRate(0.05, burst: 0.005, at: 10)
        #expect(pacer.balance == 0.00125)
    }

    @Test func aQuarterOfTheQuotaWhileBusyAndHalfAtRestUnlessItCannotHoldTheProcessBack() {
        #expect(BackgroundBudget.shares(forQuota: 0.05, processors: 2)! == (0.0125, 0.025))
        #expect(BackgroundBudget.shares(forQuota: 1.5, processors: 4)! == (0.375, 0.75))
        // A quota of a core per thread that may run (main + one worker per core less one)
        // never throttles it.
        #expect(BackgroundBudget.shares(forQuota: 2, processors: 2) == nil)
        #expect(BackgroundBudget.shares(forQuota: 8, processors: 4) == nil)
        #expect(BackgroundBudget.shares(forQuota: 0, processors: 4) == nil)
    }
}

/// `BackgroundBudget`'s two shares, on an injected wall clock: busy from the window's note of
/// activity until a period passes without one.
struct BackgroundBudgetRestTests {
    final class Clock: @unchecked Sendable {
        var now = 0.0
    }

    @Test func busyFromActivityUntilAPeriodPassesWithoutIt() {
        let clock = Clock()
        let budget = BackgroundBudget(
            share: 0.0125, restingShare: 0.025, period: 0.1, wallClock: { clock.now }, threadCPUClock: { 0 })
        #expect(budget.currentShare == 0.025, "a new budget rests")
        clock.now = 1
        budget.noteActivity()
        #expect(budget.currentShare == 0.0125)
        clock.now = 1.09
        budget.noteActivity()
        clock.now = 1.18
        #expect(budget.currentShare == 0.0125, "90 ms after the last activity: still busy")
        clock.now = 1.2
        #expect(budget.currentShare == 0.025)
        clock.now = 2
        budget.noteActivity()
        #expect(budget.currentShare == 0.0125)
    }

    /// A thread that must not wait (the main thread's idle work) is told at once: a piece when
    /// the balance allows, else how long until it will, which is what the overdraw takes to pay
    /// back at the share.
    @Test func aTryNeverWaitsAndSaysHowLong() {
        let clock = Clock()
        let cpu = Clock()
        let budget = BackgroundBudget(
            share: 0.025, period: 0.1, wallClock: { clock.now }, threadCPUClock: { cpu.now })
        // A new budget has its burst (2.5 ms) saved up: a piece starts.
        let first = budget.tryStartWork()
        #expect(first.wait == 0)
        guard let work = first.work else {
            Issue.record("a new budget let nothing start")
            return
        }
        // It takes 10 ms: 7.5 ms overdrawn, paid back at 25 ms a second in 0.3 s.
        cpu.now = 0.01
        budget.finish(work)
        let second = budget.tryStartWork()
        #expect(second.work == nil)
        #expect(abs(second.wait - 0.3) < 1e-9)
        clock.now = 0.299
        #expect(budget.tryStartWork().work == nil)
        clock.now = 0.3
        #expect(budget.tryStartWork().work != nil)
    }

    /// A loop that runs its pieces in turns arms its timer from what `finish` says, and the
    /// turns' own time, given with the next piece, is paid back like the pieces'.
    @Test func finishingSaysTheWaitAndChargesTheTurns() {
        let clock = Clock()
        let cpu = Clock()
        let budget = BackgroundBudget(
            share: 0.025, period: 0.1, wallClock: { clock.now }, threadCPUClock: { cpu.now })
        guard let first = budget.tryStartWork().work else {
            Issue.record("a new budget let nothing start")
            return
        }
        // 1 ms of work against 2.5 ms saved up: the next may start at once.
        cpu.now = 0.001
        let once = budget.finish(first)
        #expect(abs(once.spent - 0.001) < 1e-12)
        #expect(once.wait == 0)
        guard let second = budget.tryStartWork().work else {
            Issue.record("a budget with 1.5 ms left let nothing start")
            return
        }
        // 1 ms more, and 2 ms of the loop's turns: 1.5 ms overdrawn, paid back in 60 ms. What
        // the piece itself took is what comes back; the turns are charged all the same.
        cpu.now = 0.002
        let twice = budget.finish(second, alsoSpent: 0.002)
        #expect(abs(twice.spent - 0.001) < 1e-12)
        #expect(abs(twice.wait - 0.06) < 1e-9)
        let third = budget.tryStartWork()
        #expect(third.work == nil)
        #expect(abs(third.wait - 0.06) < 1e-9)
        clock.now = 0.06
        #expect(budget.tryStartWork().work != nil)
    }

    @Test func withoutARestingShareBothAreTheSame() {
        let clock = Clock()
        let budget = BackgroundBudget(share: 0.02, period: 0.1, wallClock: { clock.now }, threadCPUClock: { 0 })
        #expect(budget.restingShare == 0.02 && budget.currentShare == 0.02)
        budget.noteActivity()
        #expect(budget.currentShare == 0.02)
    }
}

/// The window tells its budget when it is busy: frames that run an animation or follow a touch
/// held down, not frames that only show what background work finished.
@MainActor
struct WindowBusyTests {
    @Test func animationsAndTouchesKeepTheBudgetBusy() throws {
        let clock = BackgroundBudgetRestTests.Clock()
        let budget = BackgroundBudget(
            share: 0.0125, restingShare: 0.025, period: 0.1, wallClock: { clock.now }, threadCPUClock: { 0 })
        let window = Window(size: Size(width: 400, height: 300))
        window.backgroundBudget = budget
        try window.prepareFrame(time: 0)
        #expect(budget.currentShare == 0.025, "a frame with nothing moving leaves it at rest")
        window.addAnimation(WindowHostTests.Countdown(frames: 3))
        clock.now = 1
        try window.prepareFrame(time: 1)
        #expect(budget.currentShare == 0.0125)
        // The animation ends within three frames; a period later the budget rests again.
        for t in [1.016, 1.033, 1.05] {
            clock.now = t
            try window.prepareFrame(time: t)
        }
        clock.now = 1.3
        try window.prepareFrame(time: 1.3)
        #expect(budget.currentShare == 0.025)
        // A touch held down keeps it busy, frame after frame, until it lifts.
        window.handle(InputEvent(time: 2, .touchDown(id: 1, position: Point(x: 100, y: 100))))
        window.handle(InputEvent(time: 2, .touchFrame))
        clock.now = 2
        try window.prepareFrame(time: 2)
        #expect(budget.currentShare == 0.0125)
        clock.now = 2.5
        try window.prepareFrame(time: 2.5)
        #expect(budget.currentShare == 0.0125, "the touch is still down")
        window.handle(InputEvent(time: 2.6, .touchUp(id: 1)))
        window.handle(InputEvent(time: 2.6, .touchFrame))
        clock.now = 2.6
        try window.prepareFrame(time: 2.6)
        clock.now = 2.8
        #expect(budget.currentShare == 0.025)
    }
}
