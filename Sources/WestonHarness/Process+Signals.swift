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
        let program = executableURL?.path
        if let code = ProcessResources.threadRefusal() { throw ProcessStartFailure(code: code, program: program) }
        var none = sigset_t()
        var saved = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        do {
            try run()
        } catch {
            throw ProcessStartFailure(error, program: program)
        }
    }
}

/// Why a process could not be started, as the system said it: Foundation's `Process` wraps the
/// error of `posix_spawn` in one whose text says only "The operation could not be completed".
/// It says "cannot start PROGRAM: REASON", so that every caller names the program alike.
public struct ProcessStartFailure: Error, LocalizedError, CustomStringConvertible {
    /// The system's error number, when Foundation kept it.
    public let code: Int32?
    /// The program that could not be started, when known.
    public let program: String?
    /// The system's reason alone (the limit named for EAGAIN).
    public let reason: String

    public init(_ error: any Error, program: String? = nil) {
        let thrown = error as NSError
        let posix = [thrown.userInfo[NSUnderlyingErrorKey] as? NSError, thrown].lazy.compactMap { $0 }
            .first { $0.domain == NSPOSIXErrorDomain }
        code = posix.map { Int32(clamping: $0.code) }
        self.program = program
        reason = code.map(ProcessResources.startRefusal) ?? error.localizedDescription
    }

    /// A refusal the system gave before the process was asked for (`ProcessResources.threadRefusal`).
    public init(code: Int32, program: String? = nil) {
        self.code = code
        self.program = program
        reason = ProcessResources.startRefusal(code)
    }

    public var description: String { program.map { "cannot start \($0): \(reason)" } ?? reason }
    public var errorDescription: String? { description }
}
