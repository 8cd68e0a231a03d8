import Foundation
import Glibc
import ScrollwayCWaylandClient
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayRigProtocols
import ScrollwayWaylandCore
import ScrollwayWaylandProtocols
import ScrollwayWestonHarness

/// The rig's own connection to a wlroots compositor: a virtual pointer and keyboard on its seat
/// (zwlr_virtual_pointer_v1, zwp_virtual_keyboard_v1), an input method (zwp_input_method_v2:
/// the compositor relays it to the focused client's text-input-v3), and screencopy for captures.
/// What the compositor tells the input method (activate, surrounding text, content type) is the
/// rig's view of the client's text input.
public final class WlrootsSeat: SeatInput {
    private let core: WaylandDisplay
    private let compositorName: String
    public let timeout: Double
    private var seat: OpaquePointer?
    private var shm: OpaquePointer?
    /// The captured output (named `outputName`) and every output's name, mode and scale.
    private var outputObject: OpaquePointer?
    private var outputs: [OpaquePointer: (name: String, mode: (width: Int, height: Int), scale: Int)] = [:]
    private let outputName: String
    private var pointerManager: OpaquePointer?
    private var keyboardManager: OpaquePointer?
    private var inputMethodManager: OpaquePointer?
    private var screencopy: OpaquePointer?
    private var pointer: OpaquePointer?
    private var keyboard: OpaquePointer?
    private var inputMethod: OpaquePointer?
    /// The keys' modifiers, sent after each key that changes them (wlroots works none out).
    private var modifiers: ModifierState
    private let keys: KeyCodes
    /// The captured output's mode in device pixels and scale (wl_output).
    public var outputMode: (width: Int, height: Int) { outputObject.flatMap { outputs[$0]?.mode } ?? (0, 0) }
    public var outputScale: Int { outputObject.flatMap { outputs[$0]?.scale } ?? 1 }
    /// The output layout's size in logical pixels: absolute motion's extent.
    public let layoutSize: (width: Int, height: Int)
    /// How often starting up waited for the output's name and mode after its roundtrip: none
    /// when the roundtrip brought them (it does under sway and phoc, which send both as the
    /// output is bound).
    private(set) var outputWaits = 0

    // The input method's view of the focused text input, built up between its done events.
    private var pending = IMState()
    private var current = IMState()
    private var doneCount: UInt32 = 0
    /// The focused client's text input as the input method last saw it (after a done).
    public private(set) var textInput: TextInputSnapshot?
    public private(set) var textInputHistory: [TextInputSnapshot] = []
    /// Every activate (true) and deactivate (false) the input method received, in order: an
    /// activate starts a new text-input session (the input method resets).
    public private(set) var activations: [Bool] = []
    /// Text-change causes the client sent (0 input method, 1 other), in order.
    public private(set) var changeCauses: [UInt32] = []

    struct IMState {
        var active = false
        var surrounding: (text: String, cursor: Int, anchor: Int)?
        var hint: UInt32 = 0
        var purpose: UInt32 = 0
    }

    /// Connects to `socketPath` and makes the virtual devices and (unless `inputMethod` is false:
    /// a compositor takes one input method, and squeekboard is phoc's) the input method; captures
    /// read the output named `output`, and pointer positions are in a layout of `layoutSize`.
    public init(
        socketPath: String, compositor: String, output: String, layoutSize: (width: Int, height: Int), keys: KeyCodes,
        inputMethod wantsInputMethod: Bool = true, timeout: Double = 10
    ) throws {
        self.compositorName = compositor
        self.timeout = timeout
        self.outputName = output
        self.layoutSize = layoutSize
        self.keys = keys
        self.modifiers = try keys.modifierState()
        var outputGlobals: [UInt32] = []
        do {
            core = try WaylandDisplay(socket: socketPath)
            core.onGlobal = { name, interface, _ in if interface == "wl_output" { outputGlobals.append(name) } }
            try core.roundtrip(timeout: timeout)
            core.onGlobal = nil
        } catch {
            throw RigError.connectionLost(
                "cannot connect to \(compositor) at \(socketPath): \(RigError(error, compositor: compositor))")
        }
        let required = [
            "wl_shm", "wl_output", "zwlr_virtual_pointer_manager_v1", "zwp_virtual_keyboard_manager_v1",
            "zwlr_screencopy_manager_v1",
        ]
        for name in required where core.globals[name] == nil {
            throw RigError.startupFailed(reason: "\(compositor) does not offer \(name)", log: "")
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        pointerManager = core.bind(
            "zwlr_virtual_pointer_manager_v1", sw_zwlr_virtual_pointer_manager_v1_interface(), handled: 2)
        if core.globals["wl_seat"] == nil {
            // phoc makes its seat for the first input device: a virtual pointer on no seat (the
            // protocol lets the compositor choose) brings the default one, which stays while the
            // pointer does.
            pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(pointerManager, nil)
            try roundtrip()
            guard core.globals["wl_seat"] != nil else {
                throw RigError.startupFailed(reason: "\(compositor) offers no wl_seat, even with a pointer", log: "")
            }
        }
        seat = core.bind("wl_seat", sw_wl_seat_interface(), handled: 1)
        shm = core.bind("wl_shm", sw_wl_shm_interface(), handled: 1)
        for global in outputGlobals {
            guard let o = core.bind(name: global, sw_wl_output_interface(), version: 4) else { continue }
            outputs[o] = ("", (0, 0), 1)
            wl_output_add_listener(o, Listeners.output, me)
        }
        keyboardManager = core.bind(
            "zwp_virtual_keyboard_manager_v1", sw_zwp_virtual_keyboard_manager_v1_interface(), handled: 1)
        inputMethodManager = core.bind(
            "zwp_input_method_manager_v2", sw_zwp_input_method_manager_v2_interface(), handled: 1)
        screencopy = core.bind("zwlr_screencopy_manager_v1", sw_zwlr_screencopy_manager_v1_interface(), handled: 3)
        if pointer == nil { plugPointer() }
        try plugKeyboard()
        if wantsInputMethod, let inputMethodManager {
            inputMethod = zwp_input_method_manager_v2_get_input_method(inputMethodManager, seat)
            zwp_input_method_v2_add_listener(inputMethod, Listeners.inputMethod, me)
        }
        try roundtrip()
        // The roundtrip has usually brought the output's name and mode already: wait for more
        // only while they are missing (a wait for events that have all come ends at its
        // timeout, a second for every rig).
        let deadline = Deadline(in: timeout)
        while true {
            outputObject = outputs.first { $0.value.name == output }?.key
            if outputObject != nil && outputMode.width != 0 { break }
            if deadline.hasPassed {
                let reason =
                    outputObject == nil
                    ? "\(compositor) has no output named \(output) (it has \(outputs.values.map(\.name)))"
                    : "\(compositor)'s output \(output) gave no mode within \(timeout) s"
                throw RigError.startupFailed(reason: reason, log: "")
            }
            outputWaits += 1
            try dispatch(until: deadline)
        }
    }

    deinit {
        if let pointer { zwlr_virtual_pointer_v1_destroy(pointer) }
        if let keyboard { zwp_virtual_keyboard_v1_destroy(keyboard) }
        if let inputMethod { zwp_input_method_v2_destroy(inputMethod) }
        if let pointerManager { zwlr_virtual_pointer_manager_v1_destroy(pointerManager) }
        if let keyboardManager { zwp_virtual_keyboard_manager_v1_destroy(keyboardManager) }
        if let inputMethodManager { zwp_input_method_manager_v2_destroy(inputMethodManager) }
        if let screencopy { zwlr_screencopy_manager_v1_destroy(screencopy) }
        for o in outputs.keys { wl_output_destroy(o) }
        if let shm { wl_shm_destroy(shm) }
        if let seat { wl_seat_destroy(seat) }
    }

    /// Whether the compositor offers an input method (zwp_input_method_manager_v2).
    public var hasInputMethod: Bool { inputMethod != nil }

    // MARK: Devices

    private func plugPointer() {
        pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(pointerManager, seat)
    }

    /// A virtual keyboard with the rig's keymap (sent in a sealed memfd, as the protocol asks).
    private func plugKeyboard() throws {
        let bytes = Array(keys.keymapText.utf8) + [0]
        let memory: SharedMemory
        do {
            memory = try SharedMemory(name: "scrollway-keymap", size: bytes.count)
        } catch {
            throw RigError.system("keymap for the virtual keyboard: \(error.description)")
        }
        bytes.withUnsafeBytes { memory.mapping.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        keyboard = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(keyboardManager, seat)
        zwp_virtual_keyboard_v1_keymap(keyboard, 1 /* xkb_v1 */, memory.fd, UInt32(bytes.count))
        try roundtrip()
        withExtendedLifetime(memory) {}
    }

    /// Unplugs the virtual keyboard (the seat loses its keyboard capability, having no other)
    /// and plugs a new one in: a USB keyboard replugged.
    public func replugKeyboard() throws {
        if let keyboard { zwp_virtual_keyboard_v1_destroy(keyboard) }
        keyboard = nil
        try roundtrip()
        modifiers = try keys.modifierState()  // a new keyboard holds no keys
        try plugKeyboard()
    }

    /// Unplugs the virtual pointer (the seat loses the capability, its cursor goes, and the
    /// client it was over gets a leave); the next pointer event plugs a new one in.
    public func unplugPointer() throws {
        if let pointer { zwlr_virtual_pointer_v1_destroy(pointer) }
        pointer = nil
        try roundtrip()
    }

    /// The pointer, plugged in again if `unplugPointer` took it away.
    private var livePointer: OpaquePointer? {
        if pointer == nil { plugPointer() }
        return pointer
    }

    /// The same for the pointer.
    public func replugPointer() throws {
        if let pointer { zwlr_virtual_pointer_v1_destroy(pointer) }
        pointer = nil
        try roundtrip()
        plugPointer()
        try roundtrip()
    }

    // MARK: SeatInput

    public func pointerMotion(x: Double, y: Double, time: UInt32) {
        // Absolute motion is a fraction of the layout: in 1/256 logical pixel steps.
        let ex = UInt32(clamping: max(1, layoutSize.width * 256))
        let ey = UInt32(clamping: max(1, layoutSize.height * 256))
        let px = UInt32(clamping: x * 256, in: 0...ex)
        let py = UInt32(clamping: y * 256, in: 0...ey)
        zwlr_virtual_pointer_v1_motion_absolute(livePointer, time, px, py, ex, ey)
    }

    public func pointerButton(_ button: UInt32, pressed: Bool, time: UInt32) {
        zwlr_virtual_pointer_v1_button(livePointer, time, button, pressed ? 1 : 0)
    }

    public func axisSource(_ source: UInt32) { zwlr_virtual_pointer_v1_axis_source(livePointer, source) }

    /// wlroots 0.15 carries whole detents (axis_discrete), not value120: a wheel step's
    /// value120 goes out as its detent count.
    public func axis(_ axis: UInt32, value: Double, discrete: Int32, value120: Int32, time: UInt32) {
        let detents = discrete != 0 ? discrete : value120 / 120
        if detents != 0 {
            zwlr_virtual_pointer_v1_axis_discrete(livePointer, time, axis, wl_fixed_from_double(value), detents)
        } else {
            zwlr_virtual_pointer_v1_axis(livePointer, time, axis, wl_fixed_from_double(value))
        }
    }

    public func axisStop(_ axis: UInt32, time: UInt32) {
        zwlr_virtual_pointer_v1_axis_stop(livePointer, time, axis)
    }
    public func pointerFrame() { zwlr_virtual_pointer_v1_frame(livePointer) }

    // wlroots 0.15 has no virtual touch device: the rig declares touch missing, and these are
    // never reached through `SeatInjector`.
    public func touchDown(id: Int32, x: Double, y: Double, time: UInt32) {}
    public func touchMotion(id: Int32, x: Double, y: Double, time: UInt32) {}
    public func touchUp(id: Int32, time: UInt32) {}
    public func touchFrame() {}
    public func touchCancel() {}

    public func key(_ key: UInt32, pressed: Bool, time: UInt32) {
        zwp_virtual_keyboard_v1_key(keyboard, time, key, pressed ? 1 : 0)
        if let m = modifiers.update(key: key, pressed: pressed) {
            zwp_virtual_keyboard_v1_modifiers(keyboard, m.depressed, m.latched, m.locked, m.group)
        }
    }

    public func textInputPreedit(_ text: String, cursor: ClosedRange<Int>?) {
        let begin = Int32(clamping: cursor?.lowerBound ?? -1)
        let end = Int32(clamping: cursor?.upperBound ?? -1)
        zwp_input_method_v2_set_preedit_string(inputMethod, text, begin, end)
    }

    public func textInputCommit(_ text: String) { zwp_input_method_v2_commit_string(inputMethod, text) }

    public func textInputDeleteSurrounding(before: Int, after: Int) {
        zwp_input_method_v2_delete_surrounding_text(inputMethod, UInt32(clamping: before), UInt32(clamping: after))
    }

    /// The input method's commit, with the number of done events seen (the protocol's serial).
    public func textInputDone() { zwp_input_method_v2_commit(inputMethod, doneCount) }

    public func flush() throws {
        do { try core.flush() } catch { throw RigError(error, compositor: compositorName) }
    }

    public func roundtrip() throws {
        do { try core.roundtrip(timeout: timeout) } catch { throw RigError(error, compositor: compositorName) }
    }

    private func dispatch(until deadline: Deadline) throws {
        let remaining = deadline.remaining
        guard remaining > 0 else { throw RigError.connectionLost("timed out waiting for \(compositorName)") }
        do { _ = try core.dispatch(timeout: min(remaining, 1)) } catch {
            throw RigError(error, compositor: compositorName)
        }
    }

    /// Dispatches what has arrived (the input method's events) without waiting.
    public func dispatchPending() throws {
        do { _ = try core.dispatch(timeout: 0) } catch { throw RigError(error, compositor: compositorName) }
    }

    // MARK: Trampoline targets

    func output(_ o: OpaquePointer?, mode width: Int32, _ height: Int32) {
        guard let o else { return }
        outputs[o]?.mode = (Int(width), Int(height))
    }
    func output(_ o: OpaquePointer?, scale: Int32) {
        guard let o else { return }
        outputs[o]?.scale = Int(scale)
    }
    func output(_ o: OpaquePointer?, name: String) {
        guard let o else { return }
        outputs[o]?.name = name
    }

    func inputMethodActivate(_ active: Bool) {
        activations.append(active)
        pending = IMState()
        pending.active = active
    }

    func inputMethodSurrounding(text: String, cursor: UInt32, anchor: UInt32) {
        pending.surrounding = (text, Int(cursor), Int(anchor))
    }

    func inputMethodContentType(hint: UInt32, purpose: UInt32) {
        pending.hint = hint
        pending.purpose = purpose
    }

    func inputMethodChangeCause(_ cause: UInt32) { changeCauses.append(cause) }

    /// done: the pending state applies (activate and deactivate reset it, as the protocol says).
    func inputMethodDone() {
        doneCount += 1
        current = pending
        let snapshot = TextInputSnapshot(
            enabled: current.active, surroundingText: current.surrounding?.text,
            cursor: current.surrounding?.cursor ?? 0,
            anchor: current.surrounding?.anchor ?? 0, hint: current.hint, purpose: current.purpose,
            cursorRectangle: nil,
            serial: doneCount)
        textInput = snapshot
        textInputHistory.append(snapshot)
    }

    // MARK: Capture

    /// The output as screencopy gives it (cursor not overlaid), as a canvas of its device size.
    public func capture() throws -> Canvas {
        guard let screencopy, let outputObject else { throw RigError.captureFailed("no screencopy") }
        let frame = CopyFrame()
        let proxy = zwlr_screencopy_manager_v1_capture_output(screencopy, 0, outputObject)
        defer { zwlr_screencopy_frame_v1_destroy(proxy) }
        zwlr_screencopy_frame_v1_add_listener(proxy, Listeners.copyFrame, Unmanaged.passUnretained(frame).toOpaque())
        let deadline = Deadline(in: timeout)
        // Version 3 lists every buffer type and then says done; earlier versions offer one shm
        // format and expect the copy at once.
        let v3 = zwlr_screencopy_frame_v1_get_version(proxy) >= 3
        while frame.shm == nil || (v3 && !frame.buffersDone) {
            if let failure = frame.failure { throw RigError.captureFailed(failure) }
            try dispatch(until: deadline)
        }
        let info = frame.shm!
        let target = try CaptureBuffer(
            shm: shm, width: Int(info.width), height: Int(info.height), stride: Int(info.stride), format: info.format)
        zwlr_screencopy_frame_v1_copy(proxy, target.buffer)
        while !frame.ready {
            if let failure = frame.failure { throw RigError.captureFailed("\(compositorName): \(failure)") }
            try dispatch(until: deadline)
        }
        return try target.canvas(scale: Double(outputScale), yInverted: frame.yInverted)
    }
}

/// One screencopy frame's progress, filled by the trampolines.
final class CopyFrame {
    var shm: (format: UInt32, width: UInt32, height: UInt32, stride: UInt32)?
    var buffersDone = false
    var yInverted = false
    var ready = false
    var failure: String?

    func offered(format: UInt32, width: UInt32, height: UInt32, stride: UInt32) {
        // The first 32-bit format we can read as ARGB words.
        guard shm == nil,
            format == WL_SHM_FORMAT_XRGB8888.rawValue || format == WL_SHM_FORMAT_ARGB8888.rawValue
        else { return }
        shm = (format, width, height, stride)
    }
}
