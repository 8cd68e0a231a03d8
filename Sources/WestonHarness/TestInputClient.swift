import Foundation
import ScrollwayCWaylandClient
import ScrollwayRaster
import ScrollwayWaylandCore
import ScrollwayWaylandProtocols

/// The rig's own Wayland connection: it binds scrollway_test_input_v1 (served by the
/// WestonTestInput module) and wl_shm, injects input and captures the output.
///
/// Used from one thread (the one that created it), like every Wayland connection here.
public final class TestInputClient {
    private let core: WaylandDisplay
    private var input: OpaquePointer?
    private var shm: OpaquePointer?
    /// How long any wait for the compositor may take before it is an error (a stopped or
    /// deadlocked weston must not hang a test).
    public let timeout: Double
    /// The output captures read, in buffer pixels.
    public private(set) var outputWidth = 0
    public private(set) var outputHeight = 0
    public private(set) var outputScale = 1
    /// How many idle inhibitors clients of the rig hold now (the module serves
    /// zwp_idle_inhibit_manager_v1, which weston 10 lacks); current after a `roundtrip()`.
    public internal(set) var idleInhibitors = 0
    /// What the rig's clients last committed on their text inputs (the module serves
    /// zwp_text_input_manager_v3, which weston 10 lacks, and plays the input method); current
    /// after a `roundtrip()`. Nil until a client commits one.
    public internal(set) var textInput: TextInputSnapshot?
    /// Every commit reported so far, oldest first (a test looks back at the sequence).
    public internal(set) var textInputHistory: [TextInputSnapshot] = []
    /// Whether a client's text input has the text-input focus (enter without leave since).
    public internal(set) var textInputEntered = false

    /// Connects to the socket at `socketPath` (absolute) and binds the injector.
    public init(socketPath: String, timeout: Double = 10) throws {
        self.timeout = timeout
        do {
            core = try WaylandDisplay(socket: socketPath)
        } catch {
            throw RigError.connectionLost("cannot connect to \(socketPath): \(RigError(error).description)")
        }
        try roundtrip()
        guard core.globals["scrollway_test_input_v1"] != nil else {
            throw RigError.missingGlobal("scrollway_test_input_v1")
        }
        guard core.globals["wl_shm"] != nil else { throw RigError.missingGlobal("wl_shm") }
        input = core.bind("scrollway_test_input_v1", sw_scrollway_test_input_v1_interface(), handled: 4)
        scrollway_test_input_v1_add_listener(input, Listeners.testInput, Unmanaged.passUnretained(self).toOpaque())
        shm = core.bind("wl_shm", sw_wl_shm_interface(), handled: 1)
        let deadline = Deadline(in: timeout)
        while outputWidth == 0 {
            try dispatch(until: deadline)
        }
    }

    deinit {
        if let input { scrollway_test_input_v1_destroy(input) }
        if let shm { wl_shm_destroy(shm) }
    }

    // MARK: Trampoline targets

    func outputInfo(width: Int, height: Int, scale: Int) {
        outputWidth = width
        outputHeight = height
        outputScale = scale
    }

    func textInputCommitted(_ snapshot: TextInputSnapshot) {
        textInput = snapshot
        textInputHistory.append(snapshot)
    }

    // MARK: Connection

    /// Sends everything queued and waits until the compositor has processed it, at most
    /// `timeout` seconds.
    public func roundtrip() throws {
        do { try core.roundtrip(timeout: timeout) } catch { throw RigError(error) }
    }

    /// Sends everything queued without waiting.
    public func flush() throws {
        do { try core.flush() } catch { throw RigError(error) }
    }

    /// Reads and dispatches events, waiting at most until `deadline`.
    func dispatch(until deadline: Deadline) throws {
        let remaining = deadline.remaining
        guard remaining > 0 else { throw RigError.connectionLost("timed out waiting for the compositor") }
        do { try core.dispatch(timeout: min(remaining, 1)) } catch { throw RigError(error) }
    }

    // MARK: Injection (times in milliseconds, coordinates global logical pixels)

    public func pointerMotion(x: Double, y: Double, time: UInt32) {
        scrollway_test_input_v1_pointer_motion_absolute(input, time, wl_fixed_from_double(x), wl_fixed_from_double(y))
    }

    /// Takes the pointer away from every surface (its cursor disappears from captures).
    public func pointerHide() { scrollway_test_input_v1_pointer_hide(input) }

    /// `button` is an evdev code (BTN_LEFT 0x110, BTN_RIGHT 0x111, BTN_MIDDLE 0x112).
    public func pointerButton(_ button: UInt32, pressed: Bool, time: UInt32) {
        scrollway_test_input_v1_pointer_button(input, time, button, pressed ? 1 : 0)
    }

    /// wl_pointer.axis_source: wheel 0, finger 1, continuous 2, wheel_tilt 3.
    public func axisSource(_ source: UInt32) { scrollway_test_input_v1_pointer_axis_source(input, source) }

    /// axis: vertical 0, horizontal 1.
    public func axis(_ axis: UInt32, value: Double, discrete: Int32 = 0, value120: Int32 = 0, time: UInt32) {
        scrollway_test_input_v1_pointer_axis(input, time, axis, wl_fixed_from_double(value), discrete, value120)
    }

    public func axisStop(_ axis: UInt32, time: UInt32) { scrollway_test_input_v1_pointer_axis_stop(input, time, axis) }
    public func pointerFrame() { scrollway_test_input_v1_pointer_frame(input) }

    public func touchDown(id: Int32, x: Double, y: Double, time: UInt32) {
        scrollway_test_input_v1_touch_down(input, time, id, wl_fixed_from_double(x), wl_fixed_from_double(y))
    }

    public func touchMotion(id: Int32, x: Double, y: Double, time: UInt32) {
        scrollway_test_input_v1_touch_motion(input, time, id, wl_fixed_from_double(x), wl_fixed_from_double(y))
    }

    public func touchUp(id: Int32, time: UInt32) { scrollway_test_input_v1_touch_up(input, time, id) }
    public func touchFrame() { scrollway_test_input_v1_touch_frame(input) }
    public func touchCancel() { scrollway_test_input_v1_touch_cancel(input) }

    /// `key` is an evdev code (KEY_A 30, KEY_PAGEDOWN 109, ...).
    public func key(_ key: UInt32, pressed: Bool, time: UInt32) {
        scrollway_test_input_v1_key(input, time, key, pressed ? 1 : 0)
    }

    // MARK: Input method (the module's zwp_text_input_v3 side)

    /// Sets the composing text the next `textInputDone()` delivers; the cursor is a byte range
    /// of `text`, nil to hide it (-1, -1 on the wire).
    public func textInputPreedit(_ text: String, cursor: ClosedRange<Int>?) {
        scrollway_test_input_v1_text_input_preedit(
            input, text, Int32(clamping: cursor?.lowerBound ?? -1), Int32(clamping: cursor?.upperBound ?? -1))
    }

    /// Sets the text the next `textInputDone()` commits.
    public func textInputCommit(_ text: String) { scrollway_test_input_v1_text_input_commit_string(input, text) }

    /// Sets the bytes around the cursor the next `textInputDone()` deletes.
    public func textInputDeleteSurrounding(before: Int, after: Int) {
        scrollway_test_input_v1_text_input_delete_surrounding(
            input, UInt32(clamping: max(0, before)), UInt32(clamping: max(0, after)))
    }

    /// Delivers what was set, then done, to the enabled text input on the focused surface.
    public func textInputDone() { scrollway_test_input_v1_text_input_done(input) }

    /// Configures the toplevel with keyboard focus to `width`×`height`, as a shell making room
    /// for a system keyboard does.
    public func resizeFocused(width: Int, height: Int) {
        scrollway_test_input_v1_resize_focused(input, Int32(clamping: width), Int32(clamping: height))
    }

    /// Plugs in a headless output named `name`, `width`×`height` logical pixels at `scale`, its
    /// top-left corner at (`x`, `y`) (over another output: a mirrored monitor). Module version 4.
    /// Windows go onto it at `reassignViews()`.
    public func addOutput(name: String, x: Int, y: Int, width: Int, height: Int, scale: Int) {
        scrollway_test_input_v1_add_output(
            input, name, Int32(clamping: x), Int32(clamping: y), Int32(clamping: width), Int32(clamping: height),
            Int32(clamping: scale))
    }

    /// Puts every window on the outputs it overlaps now (weston 10 leaves a window where it was
    /// when an output is plugged in over it, or after an unplug moved the outputs left): send
    /// it once the clients have bound the outputs plugged in, which alone get wl_surface.enter.
    public func reassignViews() { scrollway_test_input_v1_reassign_views(input) }

    /// How an output is unplugged (`removeOutput`): weston's two orders.
    public enum OutputRemoval: UInt32, Sendable {
        /// The output destroyed: wl_surface.leave for it, then wl_registry.global_remove.
        case outputFirst = 0
        /// Its heads detached first: global_remove, and no leave ever.
        case headsFirst = 1
    }

    /// Unplugs the output named `name` (the rig's own is "headless"): its wl_output global goes.
    public func removeOutput(name: String, _ how: OutputRemoval = .outputFirst) {
        scrollway_test_input_v1_remove_output(input, name, how.rawValue)
    }

    // MARK: Capture

    /// What the output shows at its next repaint, as a canvas of the output's buffer size.
    public func capture() throws -> Canvas {
        let target = try CaptureBuffer(
            shm: shm, width: outputWidth, height: outputHeight, stride: outputWidth * 4,
            format: WL_SHM_FORMAT_ARGB8888.rawValue)
        let state = CaptureState()
        let capture = scrollway_test_input_v1_capture(input, target.buffer)
        defer { scrollway_test_capture_v1_destroy(capture) }
        scrollway_test_capture_v1_add_listener(capture, Listeners.capture, Unmanaged.passUnretained(state).toOpaque())
        let deadline = Deadline(in: timeout)
        while state.result == nil {
            try dispatch(until: deadline)
        }
        try state.result!.get()
        return try target.canvas(scale: Double(outputScale))
    }
}

extension RigError {
    /// The core's account of a broken connection, in the rig's words, naming the compositor.
    package init(_ error: DisplayError, compositor: String = "weston") {
        switch error {
        case .cannotConnect(let code): self = .connectionLost(String(cString: strerror(code)))
        case .protocolError(let object, let code): self = .connectionLost("protocol error \(code) on \(object)")
        case .connectionLost(let why): self = .connectionLost(why)
        case .timedOut(let seconds): self = .connectionLost("\(compositor) did not answer within \(seconds) s")
        }
    }
}

/// One text input's committed state, as the module reports it (zwp_text_input_v3's terms: byte
/// offsets, surface-local rectangle, the protocol's hint bits and purpose number).
public struct TextInputSnapshot: Equatable, Sendable {
    public var enabled: Bool
    /// Nil until the client sets surrounding text after enabling.
    public var surroundingText: String?
    public var cursor: Int
    public var anchor: Int
    public var hint: UInt32
    public var purpose: UInt32
    /// Nil until the client sets one after enabling.
    public var cursorRectangle: Rectangle?
    /// How many commits the text input had made (its done events carry this).
    public var serial: UInt32

    public init(
        enabled: Bool, surroundingText: String?, cursor: Int, anchor: Int, hint: UInt32, purpose: UInt32,
        cursorRectangle: Rectangle?, serial: UInt32
    ) {
        self.enabled = enabled
        self.surroundingText = surroundingText
        self.cursor = cursor
        self.anchor = anchor
        self.hint = hint
        self.purpose = purpose
        self.cursorRectangle = cursorRectangle
        self.serial = serial
    }

    /// A surface-local rectangle in whole pixels, as the protocol carries it.
    public struct Rectangle: Equatable, Sendable {
        public var x, y, width, height: Int
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }
}
