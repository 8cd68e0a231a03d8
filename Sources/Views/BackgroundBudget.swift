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
    public private(set) var rate: Double
    /// The most CPU time saved up while nothing ran, seconds.
    public private(set) var burst: Double
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

    /// Changes the rate and the burst from `now` on: what was saved by then, at the old rate, is
    /// kept up to the new burst.
    public mutating func setRate(_ rate: Double, burst: Double, at now: Double) {
        precondition(rate > 0 && burst > 0, "a pacer needs a positive rate and burst")
        refill(to: now)
        self.rate = rate
        self.burst = burst
        balance = min(balance, burst)
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

/// The share of the CPU that background work (tiles drawn on worker threads, and a platform's
/// idle work between frames, such as buffer memory faulted in ahead) may use, shared by every
/// worker pool of a process: a platform sets it on its window (`Window.backgroundBudget`) when
/// the process runs under a CPU quota.
///
/// Why: a quota (a cgroup's `cpu.max`, systemd's `CPUQuota=`, a kiosk service held to a share
/// of a small board) counts every thread of the process, and when the quota of a period is
/// spent, every thread stops until the next one, the main thread too. Unpaced, tile workers
/// drawing a zoom fling's new tiles spend a small quota early in each period and the fling gets
/// one frame per period (docs/decisions.md, "Background work under a CPU quota"). Paced to a
/// quarter of the quota, the workers leave the rest to the main thread: more frames come, and
/// tiles come in as the budget allows.
///
/// Two shares: `share` while the window is busy (animations run, touches are down: the frames
/// the quota must keep coming) and a larger `restingShare` once it has been at rest for a quota
/// period, so that tiles asked for by a fling or a zoom come in sooner after it ends. The window
/// says when it is busy (`noteActivity`); frames that only show finished background work do not
/// count, or the tiles arriving would hold their own pace down.
///
/// Workers call `startWork()` before taking a piece of work (it waits for their turn) and
/// `finish` after it; a thread that must not wait calls `tryStartWork()`.
public final class BackgroundBudget: Sendable {
    /// The fraction of one core's time background work may use while the window is busy.
    public let share: Double
    /// The fraction it may use while the window is at rest.
    public let restingShare: Double
    /// The quota's period, seconds: the most saved up, and how long the window must be at rest
    /// before `restingShare` applies.
    public let period: Double
    private let state: Mutex<State>
    private let wallClock: @Sendable () -> Double
    private let threadCPUClock: @Sendable () -> Double
    /// Never signalled: a worker waits on it for its turn, with a timeout.
    private let pause = DispatchSemaphore(value: 0)

    /// The pacer, and whether the window is at rest: busy from `noteActivity` until a period
    /// has passed without one.
    private struct State {
        var pacer: CPUPacer
        var lastActivity: Double?
        var resting = true
    }

    /// `share` of one core while the window is busy and `restingShare` (at least `share`; the
    /// same when not given) while it rests, each saved up for at most `period` seconds (the
    /// quota's period: a burst of more than the period's share would run into the throttling
    /// it is meant to avoid). A new budget starts at rest. The clocks are the platform's:
    /// monotonic seconds, and the calling thread's CPU seconds.
    public init(
        share: Double, restingShare: Double? = nil, period: Double, wallClock: @escaping @Sendable () -> Double,
        threadCPUClock: @escaping @Sendable () -> Double
    ) {
        let resting = max(share, restingShare ?? share)
        precondition(share > 0 && period > 0, "a background budget needs a positive share and period")
        self.share = share
        self.restingShare = resting
        self.period = period
        state = Mutex(State(pacer: CPUPacer(rate: resting, burst: resting * period)))
        self.wallClock = wallClock
        self.threadCPUClock = threadCPUClock
    }

    /// The window is busy now (an animation ran, a touch is down): background work keeps to
    /// `share` until a period passes without another call.
    public func noteActivity() {
        let now = wallClock()
        state.withLock { s in
            s.lastActivity = now
            guard s.resting else { return }
            s.resting = false
            s.pacer.setRate(share, burst: share * period, at: now)
        }
    }

    /// The rate background work is held to now, CPU-seconds per second.
    public var currentShare: Double {
        let now = wallClock()
        return state.withLock { s in
            settle(&s, at: now)
            return s.pacer.rate
        }
    }

    /// Back to `restingShare` when the window has been at rest for a period by `now`.
    private func settle(_ s: inout State, at now: Double) {
        guard !s.resting, let last = s.lastActivity, now - last >= period else { return }
        s.resting = true
        // From when the rest began (or, if the pacer has been read since, from then).
        s.pacer.setRate(restingShare, burst: restingShare * period, at: last + period)
    }

    /// The shares for a process held to `quota` cores (a share of one, or several) on a
    /// machine of `processors`: while the window is busy, a quarter of the quota for background
    /// work and three quarters kept for the main thread (a zoom fling's own frames over tiles
    /// not drawn yet need more than half; the shares tried are in docs/decisions.md); at rest,
    /// half, the other half kept so that the first frames of a touch find quota left in the
    /// period it lands in. Nil when the quota cannot hold the process back (at least one core
    /// per thread that may run: the main thread and a worker per core less one).
    public static func shares(forQuota quota: Double, processors: Int) -> (busy: Double, resting: Double)? {
        guard quota > 0, quota < Double(max(1, processors)) else { return nil }
        return (quota / 4, quota / 2)
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
            let (work, wait) = tryStartWork()
            if let work { return work }
            // At most a period: the window may come to rest meanwhile, and the rate with it.
            _ = pause.wait(timeout: .now() + min(wait, period))
        }
    }

    /// Starts a piece of work if the budget lets one start now, without waiting: for a thread
    /// that must not block (the main thread's idle work, between its frames). Nil, with the
    /// seconds until one may start, when it must wait.
    public func tryStartWork() -> (work: Work?, wait: Double) {
        let (reserved, wait) = state.withLock { s -> (Double?, Double) in
            let now = wallClock()
            settle(&s, at: now)
            if let r = s.pacer.start(at: now) { return (r, 0) }
            return (nil, s.pacer.delay(at: now))
        }
        guard let reserved else { return (nil, wait) }
        return (Work(cpuStart: threadCPUClock(), reserved: reserved), 0)
    }

    /// Charges `work` what it took (on this thread: the one that started it) and `alsoSpent`
    /// seconds spent for it elsewhere (an event loop's turns that ran the pieces); `learns`
    /// false when it found nothing to do, so that it does not teach the budget a piece costs
    /// nothing. Returns what the work itself took and the seconds until the next piece may
    /// start (0: at once), so that a loop arms its timer for then instead of turning once more
    /// to ask.
    @discardableResult
    public func finish(_ work: Work, learns: Bool = true, alsoSpent: Double = 0) -> (spent: Double, wait: Double) {
        let spent = threadCPUClock() - work.cpuStart
        let now = wallClock()
        let wait = state.withLock { s in
            settle(&s, at: now)
            s.pacer.finish(reserved: work.reserved, spent: spent + max(0, alsoSpent), at: now, learns: learns)
            return s.pacer.delay(at: now)
        }
        return (spent, wait)
    }
}
