import CWaylandClient
import Glibc
import Views

/// A window on a compositor and the loop that runs it.
///
/// The loop polls the display fd with a timeout that comes from the window's own timers (touch
/// hold, key repeat, indicator fades) and, while an animation runs without a frame callback in
/// flight, the refresh interval. When nothing is wanted it blocks: no frames, no CPU.
public final class WaylandApp {
    public let connection: WaylandConnection
    public let window: WaylandWindow

    /// Connects (to `socket`, or $WAYLAND_DISPLAY) and maps `content` as a toplevel.
    public init(
        content: Window, title: String, socket: String? = nil, appID: String = "scrollway", fullscreen: Bool = false
    )
        throws
    {
        connection = try WaylandConnection(socket: socket)
        window = try WaylandWindow(
            connection: connection, content: content, title: title, appID: appID, fullscreen: fullscreen)
    }

    /// Runs until the compositor closes the window or `stop` says so. A lost connection or a
    /// protocol error is thrown as one WaylandError.
    public func run(until stop: () -> Bool = { false }) throws {
        while !window.closeRequested && !stop() {
            try step(maxWait: .infinity)
        }
    }

    /// One turn of the loop: fire due timers, draw if a frame is wanted and allowed, then wait
    /// for events at most `maxWait` seconds.
    public func step(maxWait: Double) throws {
        if let failure = connection.failure { throw failure }
        let now = sw_monotonic_seconds()
        window.content.advanceClock(to: now)
        window.renderIfPossible()
        try connection.flush()
        var timeout = maxWait
        if let deadline = window.content.nextTimerDeadline { timeout = min(timeout, max(0, deadline - now)) }
        if window.content.hasActiveAnimations && !window.isWaitingForFrame {
            timeout = min(timeout, connection.refreshInterval)
        }
        try connection.dispatch(timeout: timeout)
        if let failure = connection.failure { throw failure }
    }

    /// Steps for `seconds` (tests drive the app this way between injections).
    public func pump(for seconds: Double) throws {
        let end = sw_monotonic_seconds() + seconds
        while sw_monotonic_seconds() < end {
            try step(maxWait: max(0, end - sw_monotonic_seconds()))
        }
    }
}
