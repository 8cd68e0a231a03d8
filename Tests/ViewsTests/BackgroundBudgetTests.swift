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

    @Test func aQuarterOfTheQuotaUnlessItCannotHoldTheProcessBack() {
        #expect(BackgroundBudget.share(forQuota: 0.05, processors: 2) == 0.0125)
        #expect(BackgroundBudget.share(forQuota: 1.5, processors: 4) == 0.375)
        // A quota of a core per thread that may run (main + one worker per core less one)
        // never throttles it.
        #expect(BackgroundBudget.share(forQuota: 2, processors: 2) == nil)
        #expect(BackgroundBudget.share(forQuota: 8, processors: 4) == nil)
        #expect(BackgroundBudget.share(forQuota: 0, processors: 4) == nil)
    }
}
