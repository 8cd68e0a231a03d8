import Glibc
import ScrollwayCSystem

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

    /// Runs `body` on a new thread of its own (detached), named `name` (at most 15 bytes are
    /// kept), or says why there is none: 0, or the system's error number (EAGAIN: the limit on
    /// processes, `ulimit -u` or a cgroup's `pids.max`, is reached). Why not Foundation's
    /// `Thread`: its `start` has no answer when the system refuses the thread, and a caller
    /// waiting for work that thread would do waits forever (a tiled view's tiles never came,
    /// docs/decisions.md, Hostile input).
    public static func start(named name: String, _ body: @escaping @Sendable () -> Void) -> Int32 {
        let context = Unmanaged.passRetained(Body(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(truncatingIfNeeded: PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, Listeners.threadStart, context)
        if result != 0 { Unmanaged<Body>.fromOpaque(context).release() }
        return result
    }

    /// What a thread `start` makes runs: its name, then its body.
    final class Body: Sendable {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }

        func run() {
            _ = sw_set_thread_name(name)
            body()
        }
    }
}
