import Foundation
import Glibc

extension Process {
    /// Starts the process with no signal blocked. A child inherits the signal mask of the thread
    /// that starts it, and the threads of Swift's concurrency pool and of libdispatch block every
    /// signal: a compositor or client started from one ignores SIGTERM (the rig's stop, the
    /// bench's) until the SIGKILL that follows, and never runs its clean exit (the GTK4 peer
    /// wrote no statistics). The calling thread's mask is cleared only while it spawns.
    public func runWithSignalsUnblocked() throws {
        var none = sigset_t()
        var saved = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        try run()
    }
}
