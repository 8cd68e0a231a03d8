import Foundation
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

    public init() {}

    /// Makes `ms` due now (a script's start: its events are due at their `t` from here).
    public func begin(at ms: Double = 0) {
        base = (ms, Deadline.now)
    }

    /// Waits until `ms` is due; `step` gets the longest it may block, in seconds (a client's
    /// event loop turn, or a sleep).
    public func wait(until ms: Double, step: (Double) throws -> Void) throws {
        guard let base, ms >= base.ms else {
            begin(at: ms)
            return
        }
        let due = base.at + (ms - base.ms) / 1000
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
        let whole = min(seconds.rounded(.down), Double(Int32.max))
        let nanoseconds = whole < seconds.rounded(.down) ? 0 : Int((seconds - whole) * 1e9)
        var request = timespec(tv_sec: Int(whole), tv_nsec: nanoseconds)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
