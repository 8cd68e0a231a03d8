import Dispatch
import Synchronization

/// How much CPU time background work may spend, as a token bucket: `rate` CPU-seconds for each
/// second that passes, at most `burst` of it saved up. A piece of work may start while the
/// balance is positive; it takes what it is expected to cost (what the last piece took) as it
/// starts, so that a second worker looking at the same moment sees it, and the difference when
/// it ends. So over any stretch of `t` seconds the work started in it spends at most
/// `rate · t + burst` plus the misestimates of the pieces in flight (the first pieces, with no
/// estimate yet, one per worker).
///
/// Pure: times are seconds on one clock, given by the caller.
public struct CPUPacer: Sendable, Equatable {
    /// CPU-seconds per second.
    public let rate: Double
    /// The most CPU time saved up while nothing ran, seconds.
    public let burst: Double
    /// CPU-seconds available now (negative after an overdraw).
    public private(set) var balance: Double
    /// What the last piece took: what the next one is expected to.
    public private(set) var expectedCost = 0.0
    private var updated: Double?

    public init(rate: Double, burst: Double) {
        precondition(rate > 0 && burst > 0, "a pacer needs a positive rate and burst")
        self.rate = rate
        self.burst = burst
        balance = burst
    }

    /// Seconds from `now` until work may start (0: at once). A balance within a nanosecond of
    /// paid back counts as paid: rounding can leave one short by less than a clock's tick, and a
    /// wait that short would not move the clock it is measured on.
    public mutating func delay(at now: Double) -> Double {
        refill(to: now)
        return balance > -1e-9 ? 0 : -balance / rate
    }

    /// Starts a piece at `now` if the balance allows: takes its expected cost and returns it
    /// (to give to `finish`), or nil with nothing taken when it must wait (`delay` says how long).
    public mutating func start(at now: Double) -> Double? {
        guard delay(at: now) == 0 else { return nil }
        balance -= expectedCost
        return expectedCost
    }

    /// Ends a piece `start` began, which took `seconds` of CPU time: the rest of its cost is
    /// taken, and (when `learns`: it did the work it started for) it is what the next piece is
    /// expected to cost.
    public mutating func finish(reserved: Double, spent seconds: Double, at now: Double, learns: Bool = true) {
        refill(to: now)
        let spent = max(0, seconds)
        balance -= spent - reserved
        if learns { expectedCost = spent }
    }

    private mutating func refill(to now: Double) {
        guard let last = updated else {
            updated = now
            return
        }
        guard now > last else { return }
        balance = min(burst, balance + rate * (now - last))
        updated = now
    }
}

/// The share of the CPU that background work (tiles drawn on worker threads) may use, shared
/// by every worker pool of a process: a platform sets it on its window
/// (`Window.backgroundBudget`) when the process runs under a CPU quota.
///
/// Why: a quota (a cgroup's `cpu.max`, systemd's `CPUQuota=`, a kiosk service held to a share
/// of a small board) counts every thread of the process, and when the quota of a period is
/// spent, every thread stops until the next one, the main thread too. Unpaced, tile workers
/// drawing a zoom fling's new tiles spend a small quota early in each period and the fling gets
/// one frame per period (docs/decisions.md, "Background work under a CPU quota"). Paced to a
/// quarter of the quota, the workers leave the rest to the main thread: more frames come, and
/// tiles come in as the budget allows.
///
/// Workers call `startWork()` before taking a piece of work (it waits for their turn) and
/// `finish` after it.
public final class BackgroundBudget: Sendable {
    /// The fraction of one core's time background work may use.
    public let share: Double
    private let pacer: Mutex<CPUPacer>
    private let wallClock: @Sendable () -> Double
    private let threadCPUClock: @Sendable () -> Double
    /// Never signalled: a worker waits on it for its turn, with a timeout.
    private let pause = DispatchSemaphore(value: 0)

    /// `share` of one core, saved up for at most `period` seconds (the quota's period: a burst
    /// of more than the period's share would run into the throttling it is meant to avoid).
    /// The clocks are the platform's: monotonic seconds, and the calling thread's CPU seconds.
    public init(
        share: Double, period: Double, wallClock: @escaping @Sendable () -> Double,
        threadCPUClock: @escaping @Sendable () -> Double
    ) {
        precondition(share > 0 && period > 0, "a background budget needs a positive share and period")
        self.share = share
        pacer = Mutex(CPUPacer(rate: share, burst: share * period))
        self.wallClock = wallClock
        self.threadCPUClock = threadCPUClock
    }

    /// The budget for a process held to `quota` cores (a share of one, or several) on a machine
    /// of `processors`: a quarter of the quota for background work, three quarters kept for the
    /// main thread (a zoom fling's own frames over tiles not drawn yet need more than half; the
    /// shares tried are in docs/decisions.md); nil when the quota cannot hold the process back
    /// (at least one core per thread that may run: the main thread and a worker per core less
    /// one).
    public static func share(forQuota quota: Double, processors: Int) -> Double? {
        guard quota > 0, quota < Double(max(1, processors)) else { return nil }
        return quota / 4
    }

    /// One piece of background work under way: the CPU clock when it started and what the
    /// budget took for it then.
    public struct Work: Sendable {
        let cpuStart: Double
        let reserved: Double
    }

    /// Waits (blocking the calling worker thread) until the budget lets a piece of work start,
    /// and starts it: pass the result to `finish` when the work is done.
    public func startWork() -> Work {
        while true {
            let (reserved, wait) = pacer.withLock { p -> (Double?, Double) in
                let now = wallClock()
                if let r = p.start(at: now) { return (r, 0) }
                return (nil, p.delay(at: now))
            }
            if let reserved { return Work(cpuStart: threadCPUClock(), reserved: reserved) }
            _ = pause.wait(timeout: .now() + wait)
        }
    }

    /// Charges `work` what it took (on this thread: the one that started it); `learns` false
    /// when it found nothing to do, so that it does not teach the budget a piece costs nothing.
    public func finish(_ work: Work, learns: Bool = true) {
        let spent = threadCPUClock() - work.cpuStart
        pacer.withLock { $0.finish(reserved: work.reserved, spent: spent, at: wallClock(), learns: learns) }
    }
}
