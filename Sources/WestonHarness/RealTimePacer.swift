import Foundation

/// Injects a gesture in real time, as a compositor delivers one: an event stamped `ms` is due as
/// much wall time after the first paced event as the stamps say. A client's platform maps
/// compositor timestamps onto its own clock and re-bases any that run ahead of it (Scrollway's
/// by more than 50 ms), so events sent early would lose their spacing and, with it, their
/// velocities. Waiting is a condition (the due time reached), with the client stepped meanwhile;
/// events sent late keep their spacing.
public final class RealTimePacer {
    private var base: (ms: UInt32, at: Double)?

    public init() {}

    /// Steps the client (`step` gets the longest it may block, in seconds) until `ms` is due.
    public func wait(until ms: UInt32, step: (Double) throws -> Void) throws {
        let now = ProcessInfo.processInfo.systemUptime
        guard let base, ms >= base.ms else {
            base = (ms, now)
            return
        }
        let due = base.at + Double(ms - base.ms) / 1000
        while ProcessInfo.processInfo.systemUptime < due {
            try step(max(0, due - ProcessInfo.processInfo.systemUptime))
        }
    }
}
