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
    /// else the integer scale of the outputs the surface is on
    /// (`WaylandConnection.bufferScale(entered:all:)`).
    var renderScale: Double { fractionalScale ?? Double(connection.bufferScale(entered: enteredOutputs)) }

    /// An output's scale changed, or the surface entered, left or lost an output: the next
    /// frame is drawn at the scale that now applies (`drawFrame` makes buffers of that scale).
    func outputsChanged() {
        content.scale = renderScale
        setNeedsFrame()
    }

    /// wl_surface.enter: the surface is now shown (in part) on `output`.
    func surfaceEntered(_ output: OpaquePointer?) {
        guard let output, !enteredOutputs.contains(output) else { return }
        enteredOutputs.append(output)
        outputsChanged()
    }

    /// wl_surface.leave: the surface is no longer shown on `output`.
    func surfaceLeft(_ output: OpaquePointer?) {
        guard let i = enteredOutputs.firstIndex(where: { $0 == output }) else { return }
        enteredOutputs.remove(at: i)
        outputsChanged()
    }

    /// The connection forgot `output` (wl_registry.global_remove) before it is destroyed; no
    /// leave may come for it.
    func outputRemoved(_ output: OpaquePointer) {
        enteredOutputs.removeAll { $0 == output }
        outputsChanged()
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
