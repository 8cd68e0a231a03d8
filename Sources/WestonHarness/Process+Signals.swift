import Foundation
import Glibc
import ScrollwayWaylandCore

extension Process {
    /// Starts the process with no signal blocked. A child inherits the signal mask of the thread
    /// that starts it, and the threads of Swift's concurrency pool and of libdispatch block every
    /// signal: a compositor or client started from one ignores SIGTERM (the rig's stop, the
    /// bench's) until the SIGKILL that follows, and never runs its clean exit (the GTK4 peer
    /// wrote no statistics). The calling thread's mask is cleared only while it spawns.
    ///
    /// A process that cannot be started throws `ProcessStartFailure`, which says why in the
    /// system's words (Foundation's own error says "The operation could not be completed").
    /// When no thread can start (a limit on processes reached), it throws before `run`:
    /// Foundation starts a manager thread on the first run and waits for it forever when the
    /// system refuses it, and the child would be refused the same way.
    public func runWithSignalsUnblocked() throws {
        if let code = ProcessResources.threadRefusal() { throw ProcessStartFailure(code: code) }
        var none = sigset_t()
        var saved = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        do {
            try run()
        } catch {
            throw ProcessStartFailure(error)
        }
    }
}

/// Why a process could not be started, as the system said it: Foundation's `Process` wraps the
/// error of `posix_spawn` in one whose text says only "The operation could not be completed".
public struct ProcessStartFailure: Error, LocalizedError, CustomStringConvertible {
    /// The system's error number, when Foundation kept it.
    public let code: Int32?
    public let description: String

    public init(_ error: any Error) {
        let thrown = error as NSError
        let posix = [thrown.userInfo[NSUnderlyingErrorKey] as? NSError, thrown].lazy.compactMap { $0 }
            .first { $0.domain == NSPOSIXErrorDomain }
        code = posix.map { Int32(clamping: $0.code) }
        description = code.map(ProcessResources.startRefusal) ?? error.localizedDescription
    }

    /// A refusal the system gave before the process was asked for (`ProcessResources.threadRefusal`).
    public init(code: Int32) {
        self.code = code
        description = ProcessResources.startRefusal(code)
    }

    public var errorDescription: String? { description }
}
