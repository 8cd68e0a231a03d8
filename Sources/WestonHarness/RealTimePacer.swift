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

    /// The latest any time was reached past its due moment since `begin`: how late (seconds) and
    /// which script time (ms). A compositor that stalls holds the caller's roundtrip, and the
    /// times after it come late by the stall.
    public private(set) var worstLateness: (seconds: Double, ms: Double)?

    /// Lateness above this (a few frames) is a stall worth reporting.
    public static let stallThreshold = 0.1

    public init() {}

    /// Makes `ms` due now (a script's start: its events are due at their `t` from here).
    public func begin(at ms: Double = 0) {
        base = (ms, Deadline.now)
        worstLateness = nil
        excusedUntil = -.infinity
    }

    /// The time spent so far in something slow on purpose (a capture) does not count as
    /// lateness for the times that fell due during it.
    public func excuseUntilNow() { excusedUntil = Deadline.now }

    /// The worst lateness when it passes `stallThreshold`, as a sentence: how far behind, at
    /// which script time (nil when nothing stalled).
    public var stall: String? {
        guard let w = worstLateness, w.seconds > Self.stallThreshold else { return nil }
        let ms = Int(clamping: w.seconds * 1000, rounding: .toNearestOrAwayFromZero)
        return "events fell \(ms) ms behind their script times (at t = \(w.ms.messageText) ms): the compositor stalled"
    }

    /// Waits until `ms` is due; `step` gets the longest it may block, in seconds (a client's
    /// event loop turn, or a sleep).
    public func wait(until ms: Double, step: (Double) throws -> Void) throws {
        guard let base, ms >= base.ms else {
            begin(at: ms)
            return
        }
        let due = base.at + (ms - base.ms) / 1000
        let late = Deadline.now - max(due, excusedUntil)
        if late > (worstLateness?.seconds ?? 0) { worstLateness = (late, ms) }
        while Deadline.now < due {
            try step(max(0, due - Deadline.now))
        }
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
