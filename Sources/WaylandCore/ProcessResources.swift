import Glibc
import ScrollwayCSystem

/// What a command does to its own process so that a tight resource limit is an error it can
/// report rather than a crash: Swift's runtime cannot recover from an allocation that fails (a
/// null pointer followed in its metadata cache ended `demo --headless` with SIGSEGV under
/// `ulimit -v 300M`), so the process must not reserve address space it does not use.
public enum ProcessResources {
    /// Caps glibc's malloc at two arenas. Every thread that allocates otherwise gets one of its
    /// own, its address space reserved, and a command running a compositor, tile workers and
    /// Foundation's threads has many (the measurement is in docs/decisions.md, "Hostile
    /// input"). Called first thing by a command, before its threads start; an app may call it
    /// the same way.
    public static func shareMallocArenas() {
        _ = sw_limit_malloc_arenas(2)
    }

    /// The soft limit on this process's open descriptors (`ulimit -n`), nil when unknown or
    /// unlimited. Work that would open files on a thread of its own beside the main thread's
    /// (fontconfig's start) asks first: under a limit of a few, two threads opening files at
    /// once can leave Foundation or Dispatch none, and they trap instead of failing.
    public static var openFileLimit: Int? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max
        else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// The fewest descriptors (`ulimit -n`) every command runs or fails with a message under.
    /// Below it libdispatch, on whose threads Swift's concurrency and Foundation run, cannot
    /// make its own epoll and eventfd descriptors and traps (SIGILL) before a command can say
    /// anything (docs/decisions.md, Hostile input 0.15.35).
    public static let fewestOpenFiles = 8

    /// Raises the soft limit on open descriptors to `fewestOpenFiles` where the hard limit
    /// allows; returns the limit when it stays below (the command must say so and stop before
    /// any thread starts), else nil.
    public static func openFileLimitBelowTheFewest() -> Int? {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(fewestOpenFiles) else { return nil }
        if limit.rlim_max >= rlim_t(fewestOpenFiles) {
            var raised = limit
            raised.rlim_cur = rlim_t(fewestOpenFiles)
            if setrlimit(resource, &raised) == 0 { return nil }
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// The fewest threads every command starts beside its main one: libdispatch's own (the main
    /// queue's worker, its event thread, a worker for the concurrency runtime's jobs) and the
    /// threads a command starts at once beside them.
    public static let fewestThreads = 8

    /// Whether `fewestThreads` threads can run at once in this process beside the calling one
    /// (a limit on processes, `ulimit -u`, or a cgroup's `pids.max`, may leave fewer): nil when
    /// they can, else how many could and what the command says (the system's reason, the limit
    /// named when it is that). Asked before any other thread starts: libdispatch, which Swift's
    /// concurrency and Foundation run on, retries a thread it cannot start forever, and a
    /// command hung before it could say anything (docs/decisions.md, Hostile input).
    public static func threadsBelowTheFewest() -> (started: Int, message: String)? {
        var error: Int32 = 0
        let started = Int(truncatingIfNeeded: sw_threads_startable(Int32(truncatingIfNeeded: fewestThreads), &error))
        guard started < fewestThreads else { return nil }
        let why = startRefusal(error)
        let needed = "only \(started) of the \(fewestThreads) threads it needs beside its main one could start"
        return (started, "\(needed): \(why)")
    }

    /// Why one more thread cannot start now (the system's error number), or nil when one can.
    /// Asked before, or while waiting for, work that needs a thread libdispatch or Foundation
    /// would start and then wait on forever when the system refuses it (a dispatch source's
    /// registration, the first `Process` run, which starts Foundation's manager thread): a
    /// limit on processes reached during a run, by this command or by other processes of its
    /// user, is then an error that names it instead of a hang. A child process needs the same
    /// room as a thread. It is a check before the start: a limit another process reaches in
    /// between still leaves the wait.
    public static func threadRefusal() -> Int32? {
        var error: Int32 = 0
        guard sw_threads_startable(1, &error) < 1 else { return nil }
        return error == 0 ? EAGAIN : error
    }

    /// Why a thread or a process could not be started, from the error number `pthread_create`
    /// or `posix_spawn` gave: the system's text, and for EAGAIN the limit that refused it named
    /// (the system's "Resource temporarily unavailable" says nothing of it).
    public static func startRefusal(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        guard code == EAGAIN else { return text }
        return text + " (the limit on processes, ulimit -u, or the cgroup's pids.max, is reached)"
    }

    /// Whether the descriptor limit leaves room for extras beside a command's own files (at
    /// least 64, or none): fontconfig's early start, the signal sources that clean up after an
    /// interrupted run. Under a limit of a few, the files the command needs come first.
    public static var hasDescriptorsToSpare: Bool { (openFileLimit ?? .max) >= 64 }
}
