import Glibc

/// How a thread that draws in the background (a tiled view's workers) is scheduled.
public enum BackgroundThread {
    /// Linux's `SCHED_BATCH` (not exported by the Glibc module: it is a GNU extension).
    private static let batchPolicy: Int32 = 3

    /// Makes the calling thread a batch thread (`SCHED_BATCH`): the same share of the CPU as
    /// any other thread of its niceness, but waking it never preempts the thread running where
    /// it wakes (the kernel's fair scheduler lets only `SCHED_NORMAL` threads preempt on
    /// wakeup); it runs when that thread sleeps, or at the next tick.
    ///
    /// Why: the main thread wakes a worker each time it queues tiles, in the middle of a frame.
    /// With the compositor busy on the other core of a small machine, the worker woke on the
    /// main thread's core and took it at once, and the frame waited for it: its wall time, which
    /// decides whether it meets the compositor's repaint, several times its CPU time
    /// (docs/decisions.md, "Tile workers that wait for the frame"). Returns whether the policy
    /// was taken (a seccomp filter may refuse it; the thread then runs as before).
    @discardableResult
    public static func yieldOnWake() -> Bool {
        var param = sched_param(sched_priority: 0)
        return sched_setscheduler(0, batchPolicy, &param) == 0
    }

    /// Whether the calling thread is a batch thread (`yieldOnWake`).
    public static var yieldsOnWake: Bool { sched_getscheduler(0) == batchPolicy }
}
