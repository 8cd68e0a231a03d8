import ScrollwayCWaylandClient
import ScrollwayWaylandProtocols

// The optional globals a window uses when the compositor offers them: fractional scale (with a
// viewport) and idle inhibition. Without them the window works the same, at an integer scale and
// with the screen free to blank.

extension WaylandWindow {
    /// Whether an idle inhibitor exists for the surface now.
    public var isInhibitingIdle: Bool { idleInhibitor != nil }

    /// Whether the compositor offers idle inhibition (zwp_idle_inhibit_manager_v1).
    public var canInhibitIdle: Bool { connection.idleInhibitManager != nil }

    /// wp_fractional_scale_v1.preferred_scale, in 120ths. The buffer is then drawn at that scale
    /// and a wp_viewport maps it back onto the logical size (buffer_scale stays 1).
    func preferredFractionalScale(_ scale120: UInt32) {
        guard scale120 > 0, connection.viewporter != nil else { return }
        let s = Double(scale120) / 120
        guard s != fractionalScale else { return }
        fractionalScale = s
        content.scale = s
        setNeedsFrame()
    }

    /// The scale buffers are drawn at: the fractional one when the compositor prefers one,
    /// else the largest output's integer scale.
    var renderScale: Double { fractionalScale ?? Double(connection.bufferScale) }

    func outputsChanged() {
        content.scale = renderScale
        setNeedsFrame()
    }

    func updateIdleInhibitor() {
        if inhibitsIdle, idleInhibitor == nil, let manager = connection.idleInhibitManager {
            idleInhibitor = zwp_idle_inhibit_manager_v1_create_inhibitor(manager, surface)
        } else if !inhibitsIdle, let inhibitor = idleInhibitor {
            zwp_idle_inhibitor_v1_destroy(inhibitor)
            idleInhibitor = nil
        }
    }
}
