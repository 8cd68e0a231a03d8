import Foundation
import Glibc
import ScrollwayCWaylandClient
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayWaylandCore
import ScrollwayWaylandProtocols

/// One connection to a compositor, used only on the thread that created it. Owns the globals,
/// the seat's input and the outputs; windows are created from it.
///
/// Versions: each global is bound at the lower of what the compositor offers and what this code
/// handles, because libwayland aborts on an event whose listener entry is missing.
@MainActor
public final class WaylandConnection {
    /// The connection itself: registry, dispatch and errors (shared with the test harness).
    let core: WaylandDisplay
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
    /// zwp_idle_inhibit_manager_v1, when offered: a window can keep the screen from blanking.
    private(set) var idleInhibitManager: OpaquePointer?
    /// zwp_text_input_manager_v3, when offered: a system keyboard or input method types.
    private(set) var textInputManager: OpaquePointer?
    /// wl_data_device_manager, when offered: the desktop's clipboard.
    private(set) var dataDeviceManager: OpaquePointer?
    /// Each bound wl_output, with its registry name: wl_registry.global_remove names an output
    /// only by that.
    private var outputs:
        [(
            name: UInt32, proxy: OpaquePointer, scale: Int, refresh: Int, mode: (width: Int, height: Int),
            quarterTurned: Bool
        )] = []
    /// The seat's input, turned into InputEvents for the window.
    public private(set) var input: WaylandInput!
    weak var window: WaylandWindow?
    /// A failure inside a callback (where Swift cannot throw); the event loop rethrows it.
    private(set) var failure: Error?

    func fail(_ error: Error) { if failure == nil { failure = error } }

    /// The highest version of each global this code handles.
    static let handledVersions: [String: UInt32] = [
        "wl_compositor": 4, "wl_shm": 1, "xdg_wm_base": 4, "wl_seat": 8, "wl_output": 3, "wp_presentation": 1,
        "zwp_pointer_gestures_v1": 3, "zxdg_decoration_manager_v1": 1,
        "wp_viewporter": 1, "wp_fractional_scale_manager_v1": 1, "zwp_idle_inhibit_manager_v1": 1,
        "zwp_text_input_manager_v3": 1, "wl_data_device_manager": 3,
    ]

    /// What an optional global's absence costs, for the diagnostics.
    static let missingMeans: [String: String] = [
        "wp_presentation": "frame times are predicted from frame callbacks only",
        "wp_viewporter": "no fractional scaling", "wp_fractional_scale_manager_v1": "no fractional scaling",
        "zxdg_decoration_manager_v1": "the window draws its own title bar",
        "zwp_pointer_gestures_v1": "no touchpad pinch or hold",
        "zwp_idle_inhibit_manager_v1": "a kiosk's screen may blank", "wl_seat": "no input at all",
        "zwp_text_input_manager_v3": "no system keyboard or input method (an in-app keyboard types)",
        "wl_data_device_manager": "copy and paste stay inside the app",
    ]

    /// Why the descriptor `WAYLAND_SOCKET` names cannot be a connection to a compositor, or nil.
    /// libwayland takes it without asking, and a wrong one failed as a connection to
    /// 'wayland-0' (WAYLAND_DISPLAY unset: not the variable that was wrong) or, given a file,
    /// as a lost connection at the first message.
    static func refusal(ofPassedSocket value: String) -> String? {
        guard let fd = Int32(value), fd >= 0 else { return "not a file descriptor's number" }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let reason = String(cString: strerror(errno))
            return "no descriptor \(fd) is open in this process (\(reason))"
        }
        return st.st_mode & S_IFMT == S_IFSOCK ? nil : "descriptor \(fd) is not a socket"
    }

    /// Connects to `socket` (a name or an absolute path; $WAYLAND_SOCKET is not looked at then),
    /// or through $WAYLAND_SOCKET (a socket its parent passed, as a compositor starting its own
    /// clients does), or to $WAYLAND_DISPLAY.
    public init(socket: String? = nil) throws {
        let env = ProcessInfo.processInfo.environment
        if socket == nil, let passed = env["WAYLAND_SOCKET"], let why = Self.refusal(ofPassedSocket: passed) {
            throw WaylandError.noCompositor("WAYLAND_SOCKET=\(passed.debugDescription): \(why)")
        }
        do {
            core = try WaylandDisplay(socket: socket)
        } catch {
            let name = socket ?? env["WAYLAND_DISPLAY"] ?? "wayland-0"
            throw WaylandError.noCompositor(
                "cannot connect to '\(name)' (WAYLAND_DISPLAY=\(env["WAYLAND_DISPLAY"] ?? "unset"), "
                    + "XDG_RUNTIME_DIR=\(env["XDG_RUNTIME_DIR"] ?? "unset"))")
        }
        input = WaylandInput(connection: self)
        core.onGlobal = { [unowned self] name, interface, version in
            if interface == "wl_output" { addOutput(name: name, version: version) }
        }
        core.onGlobalRemoved = { [unowned self] name in removeOutput(name: name) }
        try roundtrip()
        for required in ["wl_compositor", "wl_shm", "xdg_wm_base"] where core.globals[required] == nil {
            throw WaylandError.missingGlobal(required)
        }
        compositor = bind("wl_compositor", sw_wl_compositor_interface())
        shm = bind("wl_shm", sw_wl_shm_interface())
        wmBase = bind("xdg_wm_base", sw_xdg_wm_base_interface())
        xdg_wm_base_add_listener(wmBase, Listeners.wmBase, nil)
        if core.globals["wp_presentation"] != nil {
            presentation = bind("wp_presentation", sw_wp_presentation_interface())
            wp_presentation_add_listener(presentation, Listeners.presentation, selfPointer)
        }
        if core.globals["wp_viewporter"] != nil {
            viewporter = bind("wp_viewporter", sw_wp_viewporter_interface())
        }
        if core.globals["wp_fractional_scale_manager_v1"] != nil {
            fractionalScaleManager = bind(
                "wp_fractional_scale_manager_v1", sw_wp_fractional_scale_manager_v1_interface())
        }
        if core.globals["zxdg_decoration_manager_v1"] != nil {
            decorationManager = bind("zxdg_decoration_manager_v1", sw_zxdg_decoration_manager_v1_interface())
        }
        if core.globals["zwp_pointer_gestures_v1"] != nil {
            pointerGestures = bind("zwp_pointer_gestures_v1", sw_zwp_pointer_gestures_v1_interface())
        }
        if core.globals["zwp_idle_inhibit_manager_v1"] != nil {
            idleInhibitManager = bind("zwp_idle_inhibit_manager_v1", sw_zwp_idle_inhibit_manager_v1_interface())
        }
        if core.globals["wl_data_device_manager"] != nil {
            dataDeviceManager = bind("wl_data_device_manager", sw_wl_data_device_manager_interface())
        }
        if core.globals["zwp_text_input_manager_v3"] != nil {
            textInputManager = bind("zwp_text_input_manager_v3", sw_zwp_text_input_manager_v3_interface())
        }
        for name in Self.handledVersions.keys.sorted() where name != "wl_output" {
            if let v = boundVersion(name) {
                Diagnostics.wayland.debug(
                    "bound \(name) version \(v) (offered \(core.globals[name]!.version), handled \(Self.handledVersions[name]!))"
                )
            } else {
                Diagnostics.wayland.debug(
                    "the compositor offers no \(name)\(Self.missingMeans[name].map { ": \($0)" } ?? "")")
            }
        }
        if core.globals["wl_seat"] != nil {
            seat = bind("wl_seat", sw_wl_seat_interface())
            wl_seat_add_listener(seat, Listeners.seat, selfPointer)
        }
        try roundtrip()  // seat capabilities, output modes
    }

    isolated deinit {
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
        if let idleInhibitManager { zwp_idle_inhibit_manager_v1_destroy(idleInhibitManager) }
        if let textInputManager { zwp_text_input_manager_v3_destroy(textInputManager) }
        if let dataDeviceManager { wl_data_device_manager_destroy(dataDeviceManager) }
        if let wmBase { xdg_wm_base_destroy(wmBase) }
        if let shm { wl_shm_destroy(shm) }
        if let compositor { wl_compositor_destroy(compositor) }
    }

    var selfPointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private func bind(_ name: String, _ interface: UnsafePointer<wl_interface>) -> OpaquePointer? {
        core.bind(name, interface, handled: Self.handledVersions[name] ?? 1)
    }

    /// The version bound for a global (for tests: never above what we handle).
    public func boundVersion(_ name: String) -> UInt32? {
        core.globals[name].map { min($0.version, Self.handledVersions[name] ?? 1) }
    }

    private func addOutput(name: UInt32, version: UInt32) {
        let v = min(version, Self.handledVersions["wl_output"]!)
        if let proxy = core.bind(name: name, sw_wl_output_interface(), version: v) {
            outputs.append((name, proxy, 1, 60_000, (0, 0), false))
            wl_output_add_listener(proxy, Listeners.output, selfPointer)
        }
    }

    /// An output unplugged or disabled is forgotten: its scale would otherwise go on counting
    /// for every window (`bufferScale`), and a window on it is told, since a compositor need not
    /// send wl_surface.leave for an output it removes.
    private func removeOutput(name: UInt32) {
        guard let i = outputs.firstIndex(where: { $0.name == name }) else { return }
        let proxy = outputs.remove(at: i).proxy
        window?.outputRemoved(proxy)
        input?.outputsChanged(removing: proxy)
        if wl_output_get_version(proxy) >= 3 { wl_output_release(proxy) } else { wl_output_destroy(proxy) }
    }

    // MARK: Trampoline targets

    func outputScale(output: OpaquePointer?, scale: Int) {
        if let i = outputs.firstIndex(where: { $0.proxy == output }) { outputs[i].scale = max(1, scale) }
        window?.outputsChanged()
        input?.outputsChanged()
    }

    /// wl_output.geometry's transform: a panel turned a quarter (90° or 270°, flipped or not)
    /// shows its mode's width as its height.
    func outputTransform(output: OpaquePointer?, transform: Int32) {
        guard let i = outputs.firstIndex(where: { $0.proxy == output }) else { return }
        outputs[i].quarterTurned = transform % 2 == 1
    }

    func outputMode(output: OpaquePointer?, width: Int, height: Int, millihertz: Int) {
        guard let i = outputs.firstIndex(where: { $0.proxy == output }) else { return }
        if millihertz > 0 { outputs[i].refresh = millihertz }
        outputs[i].mode = (width, height)
    }

    /// The largest output's size in logical pixels (its mode over its scale, turned with the
    /// panel: a portrait panel's mode is landscape), nil before any output has told its mode:
    /// the room a window has where the compositor gives no bounds.
    var largestOutput: Size? {
        Self.largestOutput(
            of: outputs.map { (width: $0.mode.width, height: $0.mode.height, $0.scale, $0.quarterTurned) })
    }

    /// `largestOutput`'s rule, of outputs' modes, scales and turns.
    nonisolated static func largestOutput(
        of outputs: [(width: Int, height: Int, scale: Int, quarterTurned: Bool)]
    ) -> Size? {
        let sizes = outputs.filter { $0.width > 0 && $0.height > 0 }.map {
            let size = Size(width: Double($0.width / max(1, $0.scale)), height: Double($0.height / max(1, $0.scale)))
            return $0.quarterTurned ? Size(width: size.height, height: size.width) : size
        }
        return sizes.max { $0.width * $0.height < $1.width * $1.height }
    }

    /// How many wl_output globals are bound now (tests: an unplugged output's proxy is gone).
    var outputCount: Int { outputs.count }

    /// The largest scale of any output: a window's before it is on any.
    var bufferScale: Int { outputs.lazy.map(\.scale).max() ?? 1 }

    /// The integer buffer scale for a surface on the outputs `entered` (its wl_surface.enter
    /// events less its leaves), by `bufferScale(entered:all:)`.
    func bufferScale(entered: [OpaquePointer]) -> Int {
        Self.bufferScale(
            entered: outputs.filter { entered.contains($0.proxy) }.map(\.scale), all: outputs.map(\.scale))
    }

    /// The integer buffer scale for a surface, chosen as GTK 4 and Qt choose it: the largest
    /// scale among the outputs it is on (`entered`), so that a window on a 1× monitor does not
    /// draw four times the pixels because a 2× monitor is plugged in too. Before it is on any
    /// (its first frame, drawn before the compositor places it) the largest of every output's
    /// (`all`), so that frame is sharp wherever it lands. (wl_surface.preferred_buffer_scale
    /// would win over both, but it needs wl_compositor 6, and the libwayland this builds
    /// against has 5; a compositor's wp_fractional_scale_v1 does win: `renderScale`.)
    nonisolated static func bufferScale(entered: [Int], all: [Int]) -> Int {
        max((entered.isEmpty ? all : entered).max() ?? 1, 1)
    }

    /// The refresh interval in seconds (the fastest output), 1/60 s if unknown.
    var refreshInterval: Double { 1000.0 / Double(outputs.lazy.map(\.refresh).max() ?? 60_000) }

    // MARK: Dispatch

    public var fileDescriptor: Int32 { core.fileDescriptor }

    /// How long setup waits for the compositor to answer before calling it stuck.
    public static let answerTimeout = 10.0

    /// A roundtrip with a deadline: a compositor that stopped answering (stopped, deadlocked)
    /// is an error that says so, not an app that hangs before its first frame.
    public func roundtrip() throws(WaylandError) {
        do { try core.roundtrip(timeout: Self.answerTimeout) } catch { throw WaylandError(error) }
    }

    public func flush() throws(WaylandError) {
        do { try core.flush() } catch { throw WaylandError(error) }
    }

    /// The first half of a poll turn (`WaylandDisplay.beginRead`).
    func beginRead() throws(WaylandError) {
        do { try core.beginRead() } catch { throw WaylandError(error) }
    }

    /// The second half of a poll turn (`WaylandDisplay.finishRead`).
    func finishRead(revents: Int16) throws(WaylandError) {
        do { try core.finishRead(revents: revents) } catch { throw WaylandError(error) }
    }

    /// Reads and dispatches what arrives within `timeout` seconds (0: only what is there,
    /// infinity: block until something arrives).
    public func dispatch(timeout: Double) throws(WaylandError) {
        do { try core.dispatch(timeout: timeout) } catch { throw WaylandError(error) }
    }
}

extension WaylandError {
    /// The core's account of a broken connection, in the platform's words.
    init(_ error: DisplayError) {
        switch error {
        case .cannotConnect(let code): self = .noCompositor(String(cString: strerror(code)))
        case .protocolError(let object, let code):
            self = .protocolError(interface: object, code: code, message: "see WAYLAND_DEBUG=1 for the request")
        case .connectionLost(let why): self = .connectionLost(why)
        case .timedOut(let seconds): self = .connectionLost("the compositor did not answer within \(seconds) s")
        }
    }
}
