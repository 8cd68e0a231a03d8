import ScrollwayCSystem

/// A moment on the monotonic clock by which something must have happened: the one clock every
/// wait of the platform, the rig, the bench and the tests measures against. Wall-clock time
/// (`Date`) jumps when the system's time is set; a wait measured with it can end at once or
/// never.
public struct Deadline: Sendable {
    /// Seconds on the monotonic clock (`CLOCK_MONOTONIC`, the clock frame times use).
    public let seconds: Double

    /// `timeout` seconds from now.
    public init(in timeout: Double) { seconds = Self.now + timeout }

    /// Now on the monotonic clock, in seconds.
    public static var now: Double { sw_monotonic_seconds() }

    /// Seconds left (zero or less once passed).
    public var remaining: Double { seconds - Self.now }

    public var hasPassed: Bool { remaining <= 0 }
}
