import CWaylandClient
import Foundation
import Glibc
import WaylandProtocols

/// One connection to a compositor, used only on the thread that created it. Owns the globals,
/// the seat's input and the outputs; windows are created from it.
///
/// Versions: each global is bound at the lower of what the compositor offers and what this code
/// handles, because libwayland aborts on an event whose listener entry is missing.
public final class WaylandConnection {
    let display: OpaquePointer
    private var registry: OpaquePointer?
    private(set) var compositor: OpaquePointer?
    private(set) var shm: OpaquePointer?
    private(set) var wmBase: OpaquePointer?
    private(set) var seat: OpaquePointer?
    /// wp_presentation, when offered: presentation feedback predicts frame times.
    private(set) var presentation: OpaquePointer?
    /// The clock wp_presentation's timestamps use (CLOCK_MONOTONIC_RAW on weston 10 headless).
    var presentationClock: UInt32?
    /// wp_viewporter and wp_fractional_scale_manager_v1, when offered: fractional scaling.
    private(set) var viewporter: OpaquePointer?
    private(set) var fractionalScaleManager: OpaquePointer?
    /// zxdg_decoration_manager_v1, when offered: server-side decorations are preferred.
    private(set) var decorationManager: OpaquePointer?
    /// zwp_pointer_gestures_v1, when offered: touchpad pinch and hold.
    private(set) var pointerGestures: OpaquePointer?
    private(set) var globals: [String: (name: UInt32, version: UInt32)] = [:]
    private var outputs: [(proxy: OpaquePointer, scale: Int, refresh: Int)] = []
    /// The seat's input, turned into InputEvents for the window.
    public private(set) var input: WaylandInput!
    weak var window: WaylandWindow?
    /// A failure inside a callback (where Swift cannot throw); the event loop rethrows it.
    private(set) var failure: Error?

    func fail(_ error: Error) { if failure == nil { failure = error } }

    /// The highest version of each global this code handles.
    static let handledVersions: [String: UInt32] = [
        "wl_compositor": 4, "wl_shm": 1, "xdg_wm_base": 3, "wl_seat": 8, "wl_output": 3, "wp_presentation": 1,
        "zwp_pointer_gestures_v1": 3, "zxdg_decoration_manager_v1": 1,
        "wp_viewporter": 1, "wp_fractional_scale_manager_v1": 1,
    ]

    /// Connects to `socket` (a name or an absolute path), or to $WAYLAND_DISPLAY.
    public init(socket: String? = nil) throws {
        let env = ProcessInfo.processInfo.environment
        guard let d = wl_display_connect(socket) else {
            let name = socket ?? env["WAYLAND_DISPLAY"] ?? "wayland-0"
            throw WaylandError.noCompositor(
                "cannot connect to '\(name)' (WAYLAND_DISPLAY=\(env["WAYLAND_DISPLAY"] ?? "unset"), "
                    + "XDG_RUNTIME_DIR=\(env["XDG_RUNTIME_DIR"] ?? "unset"))")
        }
        display = d
        input = WaylandInput(connection: self)
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, Listeners.registry, selfPointer)
        try roundtrip()
        for required in ["wl_compositor", "wl_shm", "xdg_wm_base"] where globals[required] == nil {
            throw WaylandError.missingGlobal(required)
        }
        compositor = bind("wl_compositor", sw_wl_compositor_interface())
        shm = bind("wl_shm", sw_wl_shm_interface())
        wmBase = bind("xdg_wm_base", sw_xdg_wm_base_interface())
        xdg_wm_base_add_listener(wmBase, Listeners.wmBase, nil)
        if globals["wp_presentation"] != nil {
            presentation = bind("wp_presentation", sw_wp_presentation_interface())
            wp_presentation_add_listener(presentation, Listeners.presentation, selfPointer)
        }
        if globals["wp_viewporter"] != nil {
            viewporter = bind("wp_viewporter", sw_wp_viewporter_interface())
        }
        if globals["wp_fractional_scale_manager_v1"] != nil {
            fractionalScaleManager = bind(
                "wp_fractional_scale_manager_v1", sw_wp_fractional_scale_manager_v1_interface())
        }
        if globals["zxdg_decoration_manager_v1"] != nil {
            decorationManager = bind("zxdg_decoration_manager_v1", sw_zxdg_decoration_manager_v1_interface())
        }
        if globals["zwp_pointer_gestures_v1"] != nil {
            pointerGestures = bind("zwp_pointer_gestures_v1", sw_zwp_pointer_gestures_v1_interface())
        }
        if globals["wl_seat"] != nil {
            seat = bind("wl_seat", sw_wl_seat_interface())
            wl_seat_add_listener(seat, Listeners.seat, selfPointer)
        }
        try roundtrip()  // seat capabilities, output modes
    }

    deinit {
        input.release()
        for o in outputs { wl_output_destroy(o.proxy) }
        if let seat { wl_seat_destroy(seat) }
        if let pointerGestures {
            if boundVersion("zwp_pointer_gestures_v1") ?? 1 >= 2 {
                zwp_pointer_gestures_v1_release(pointerGestures)
            } else {
                zwp_pointer_gestures_v1_destroy(pointerGestures)
            }
        }
        if let presentation { wp_presentation_destroy(presentation) }
        if let decorationManager { zxdg_decoration_manager_v1_destroy(decorationManager) }
        if let fractionalScaleManager { wp_fractional_scale_manager_v1_destroy(fractionalScaleManager) }
        if let viewporter { wp_viewporter_destroy(viewporter) }
        if let wmBase { xdg_wm_base_destroy(wmBase) }
        if let shm { wl_shm_destroy(shm) }
        if let compositor { wl_compositor_destroy(compositor) }
        if let registry { wl_registry_destroy(registry) }
        wl_display_flush(display)
        wl_display_disconnect(display)
    }

    var selfPointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private func bind(_ name: String, _ interface: UnsafePointer<wl_interface>) -> OpaquePointer? {
        guard let g = globals[name] else { return nil }
        let version = min(g.version, Self.handledVersions[name] ?? 1)
        return OpaquePointer(wl_registry_bind(registry, g.name, interface, version))
    }

    /// The version bound for a global (for tests: never above what we handle).
    public func boundVersion(_ name: String) -> UInt32? {
        globals[name].map { min($0.version, Self.handledVersions[name] ?? 1) }
    }

    // MARK: Trampoline targets

    func global(name: UInt32, interface: String, version: UInt32) {
        globals[interface] = (name, version)
        if interface == "wl_output" {
            let v = min(version, Self.handledVersions["wl_output"]!)
            if let proxy = OpaquePointer(wl_registry_bind(registry, name, sw_wl_output_interface(), v)) {
                outputs.append((proxy, 1, 60_000))
                wl_output_add_listener(proxy, Listeners.output, selfPointer)
            }
        }
    }

    func globalRemoved(name: UInt32) {
        globals = globals.filter { $0.value.name != name }
    }

    func outputScale(output: OpaquePointer?, scale: Int) {
        if let i = outputs.firstIndex(where: { $0.proxy == output }) { outputs[i].scale = max(1, scale) }
        window?.outputsChanged()
    }

    func outputRefresh(output: OpaquePointer?, millihertz: Int) {
        if let i = outputs.firstIndex(where: { $0.proxy == output }), millihertz > 0 { outputs[i].refresh = millihertz }
    }

    /// The integer buffer scale to use: the largest output scale.
    var bufferScale: Int { outputs.map(\.scale).max() ?? 1 }
    /// The refresh interval in seconds (the fastest output), 1/60 s if unknown.
    var refreshInterval: Double { 1000.0 / Double(outputs.map(\.refresh).max() ?? 60_000) }

    // MARK: Dispatch

    public var fileDescriptor: Int32 { wl_display_get_fd(display) }

    public func roundtrip() throws {
        if wl_display_roundtrip(display) < 0 { throw connectionError() }
    }

    public func flush() throws {
        if wl_display_flush(display) < 0 && errno != EAGAIN && errno != EPIPE { throw connectionError() }
        if wl_display_get_error(display) != 0 { throw connectionError() }
    }

    /// Prepares to read (dispatching what is queued first) and flushes: the first half of a
    /// poll turn. Pair with `finishRead(readable:)`.
    func beginRead() throws {
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { throw connectionError() }
        }
        if wl_display_flush(display) < 0 && errno != EAGAIN {
            wl_display_cancel_read(display)
            throw connectionError()
        }
    }

    /// Reads (if the fd was readable) or cancels, then dispatches: the second half of a turn.
    func finishRead(revents: Int16) throws {
        if revents & Int16(POLLIN) != 0 {
            if wl_display_read_events(display) < 0 { throw connectionError() }
        } else {
            wl_display_cancel_read(display)
            if revents & Int16(POLLHUP | POLLERR) != 0 { throw WaylandError.connectionLost("the compositor hung up") }
        }
        if wl_display_dispatch_pending(display) < 0 { throw connectionError() }
    }

    /// Reads and dispatches what arrives within `timeout` seconds (0: only what is there,
    /// infinity: block until something arrives).
    public func dispatch(timeout: Double) throws {
        try beginRead()
        var pfd = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        let ms: Int32 = timeout.isFinite ? Int32(min(max(0, timeout) * 1000, 60_000).rounded(.up)) : -1
        let ready = poll(&pfd, 1, ms)
        try finishRead(revents: ready > 0 ? pfd.revents : 0)
    }

    /// The connection's error, as one clear message: a protocol error names the interface.
    func connectionError() -> WaylandError {
        let code = wl_display_get_error(display)
        if code == EPROTO {
            var iface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let pcode = wl_display_get_protocol_error(display, &iface, &id)
            let name = iface.map { String(cString: $0.pointee.name) } ?? "unknown"
            return .protocolError(
                interface: "\(name)@\(id)", code: pcode, message: "see WAYLAND_DEBUG=1 for the request")
        }
        let why = code != 0 ? String(cString: strerror(code)) : "the compositor closed the connection"
        return .connectionLost(why)
    }
}
