import Foundation
import ScrollwayGeometry
import ScrollwayWaylandCore

/// Injects a gesture in real time, as a compositor delivers one: an event stamped `ms` is due
/// as much wall time after the base (`begin`, else the first paced event) as the stamps say. A
/// client's platform maps compositor timestamps onto its own clock and re-bases any that run
/// ahead of it (Scrollway's by more than 50 ms), so events sent early would lose their spacing
/// and, with it, their velocities. Waiting is a condition (the due time reached), with the
/// client stepped meanwhile; events sent late keep their spacing. The rig's script players and
/// the weston tests all pace through it.
public final class RealTimePacer {
    private var base: (ms: Double, at: Double)?
    /// Until when lateness is excused (a screenshot's capture, which takes real time).
    private var excusedUntil = -Double.infinity

    /// Who held the events up.
    public enum Laggard: String, Sendable {
        /// The compositor: it held the caller's roundtrip, and the times after it came late.
        case compositor
        /// The client: it left what the compositor sent it unread (`client`).
        case client
    }

    /// The latest any time was reached past its due moment since `begin`: how late (seconds),
    /// which script time (ms) and who held it up.
    public private(set) var worstLateness: (seconds: Double, ms: Double, laggard: Laggard)?

    /// The client whose reading is watched as events fall due (a rig's launched client; nil when
    /// the client is this process, whose own lateness is the pacer's).
    public var client: ClientBacklog?

    /// Since when (and from which script time) the client has been seen not reading.
    private var clientBehindSince: (at: Double, ms: Double)?

    /// Lateness above this (a few frames) is a stall worth reporting.
    public static let stallThreshold = 0.1

    public init() {}

    /// Makes `ms` due now (a script's start: its events are due at their `t` from here).
    public func begin(at ms: Double = 0) {
        base = (ms, Deadline.now)
        worstLateness = nil
        excusedUntil = -.infinity
        clientBehindSince = nil
    }

    /// The time spent so far in something slow on purpose (a capture) does not count as
    /// lateness for the times that fell due during it.
    public func excuseUntilNow() { excusedUntil = Deadline.now }

    /// The worst lateness when it passes `stallThreshold`, as a sentence: how far behind, at
    /// which script time (nil when nothing stalled).
    public var stall: String? {
        guard let w = worstLateness, w.seconds > Self.stallThreshold else { return nil }
        let ms = Int(clamping: w.seconds * 1000, rounding: .toNearestOrAwayFromZero)
        let who =
            switch w.laggard {
            case .compositor: "the compositor stalled"
            case .client: "the client stalled, leaving what the compositor sent it unread"
            }
        return "events fell \(ms) ms behind their script times (at t = \(w.ms.messageText) ms): \(who)"
    }

    private func note(_ seconds: Double, at ms: Double, _ laggard: Laggard) {
        if seconds > (worstLateness?.seconds ?? 0) { worstLateness = (seconds, ms, laggard) }
    }

    /// With `ms` due: a client that has input unread gets up to `stallThreshold` to read it
    /// (one that keeps up does within a frame), and the wait is its lateness, not the
    /// compositor's. One that does not is behind from then until it is next seen caught up,
    /// and is not waited for again meanwhile (the events go on at their times).
    private func keepUpWithClient(at ms: Double) {
        guard let client else { return }
        if let since = clientBehindSince {
            note(Deadline.now - since.at, at: since.ms, .client)
            if (client.unread() ?? 0) == 0 { clientBehindSince = nil }
            return
        }
        let start = Deadline.now
        let (waited, left) = client.waitUntilRead(limit: Self.stallThreshold)
        guard waited > 0 else { return }
        note(waited, at: ms, .client)
        excuseUntilNow()
        if left > 0 { clientBehindSince = (start, ms) }
    }

    /// Before a screenshot or the end of a script (script time `ms`): waits up to `limit`
    /// seconds for the client to read everything the compositor sent it, so that the picture
    /// shows what the events did; a client that does not is recorded as behind since it was
    /// first seen so. The wait is excused for the compositor.
    public func waitForClient(at ms: Double, limit: Double = 2) {
        guard let client else { return }
        let start = Deadline.now
        let (waited, left) = client.waitUntilRead(limit: limit)
        let since = clientBehindSince ?? (start, ms)
        if waited > 0 || clientBehindSince != nil { note(Deadline.now - since.at, at: since.ms, .client) }
        clientBehindSince = left > 0 ? since : nil
        excuseUntilNow()
    }

    /// Waits until `ms` is due; `step` gets the longest it may block, in seconds (a client's
    /// event loop turn, or a sleep).
    public func wait(until ms: Double, step: (Double) throws -> Void) throws {
        guard let base, ms >= base.ms else {
            begin(at: ms)
            return
        }
        let due = base.at + (ms - base.ms) / 1000
        note(Deadline.now - max(due, excusedUntil), at: ms, .compositor)
        while Deadline.now < due {
            try step(max(0, due - Deadline.now))
        }
        keepUpWithClient(at: ms)
    }

    public func wait(until ms: UInt32, step: (Double) throws -> Void) throws {
        try wait(until: Double(ms), step: step)
    }

    /// Sleeps for `seconds` (any finite non-negative amount), resuming after signals, with no
    /// integer conversion that a long wait could overflow: the step of `wait(until:step:)` when
    /// the client's loop is not ours to run (`scrollway rig`), and any other plain wait.
    public static func sleep(_ seconds: Double) {
        guard seconds > 0, seconds.isFinite else { return }
        let whole = Int(clamping: seconds, rounding: .down, in: 0...Int(Int32.max))
        let nanoseconds =
            Double(whole) < seconds.rounded(.down)
            ? 0 : Int(clamping: (seconds - Double(whole)) * 1e9, in: 0...999_999_999)
        var request = timespec(tv_sec: whole, tv_nsec: nanoseconds)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
