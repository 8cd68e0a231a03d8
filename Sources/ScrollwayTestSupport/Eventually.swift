import Foundation
import ScrollwayWaylandCore

/// What a test waited for and did not see in time.
public struct TimedOut: Error, CustomStringConvertible {
    public let description: String
}

/// Waits until `condition` holds, checking it every 10 ms, for at most `timeout` seconds (generous:
/// the machine is shared and slow); throws naming `what` when it never does. Tests wait for
/// conditions like this, never for a fixed time.
public func eventually(_ what: String, timeout: Double = 20, _ condition: () throws -> Bool) throws {
    let end = Deadline(in: timeout)
    while try !condition() {
        guard !end.hasPassed else { throw TimedOut(description: "timed out after \(timeout) s waiting for \(what)") }
        usleep(10_000)
    }
}
