import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRigs
import ScrollwayScripts
import ScrollwayWaylandCore
import ScrollwayWestonHarness

/// The name the weston rig's injector had before every compositor had a rig.
public typealias WestonSeatInjector = SeatInjector

/// Sends script input into a rig's seat, whatever the compositor (`CompositorRig`): touch,
/// pointer, wheel, keys (through the rig's us keymap) and the input method's text. It reaches any
/// Wayland client in the rig (`scrollway rig` plays scripts into clients that are not
/// Scrollway's); what needs the app itself (pinch, the on-screen keyboard, a resize) or the screen
/// (a screenshot) is the caller's. What the rig's compositor cannot take (touch on sway) is
/// refused with the line and the reason.
public struct SeatInjector {
    public let rig: any CompositorRig
    /// What the script holds down: the left button (the one a window drags with) and Shift.
    private let held = HeldInput()

    public init(rig: any CompositorRig) { self.rig = rig }

    /// Whether the script holds the left pointer button down. A capture then leaves the pointer
    /// where it is: parking it makes the compositor send the window a `leave`, which ends the
    /// drag the button holds (the release that follows would find none).
    public var holdsAButton: Bool { held.down }

    private final class HeldInput {
        var down = false
        /// Shift keys the script holds down (`Shift_L`, `Shift_R`).
        var shifts: Set<String> = []
    }

    /// Script event types no compositor's seat carries: they need the app, not the compositor.
    public static let appEventTypes = [
        "pinch.begin", "pinch.update", "pinch.end", "keyboard.show", "keyboard.hide", "window.resize",
    ]

    /// Refuses, up front, an event type the seat cannot carry, naming its line.
    public static func checkSupported(type: String, line: Int) throws {
        if let why = refusal(of: type, on: nil) { throw ReplayError("line \(line): \(why)") }
    }

    /// The same, and what this compositor's seat cannot take (`Compositor.features`).
    public static func checkSupported(type: String, line: Int, on compositor: Compositor) throws {
        if let why = refusal(of: type, on: compositor) { throw ReplayError("line \(line): \(why)") }
    }

    /// Why a script event of `type` cannot go through `compositor`'s seat (through any seat,
    /// when nil), or nil when it can: for a caller that names the file and line its own way.
    public static func refusal(of type: String, on compositor: Compositor?) -> String? {
        if appEventTypes.contains(type) {
            return "'\(type)' needs the app, not the compositor's seat "
                + "(no compositor injects pointer gestures or window sizes); play it offscreen with `scrollway play`"
        }
        if let compositor, let feature = requiredFeature(type), let why = compositor.missing(feature) {
            return "'\(type)': \(why)"
        }
        return nil
    }

    /// The rig feature a script event type needs beyond the common ground.
    static func requiredFeature(_ type: String) -> RigFeature? {
        if type == ScriptEvent.Kind.partialDetents { return .partialDetents }
        if type == "pointer.axis" || type == "pointer.axis_stop" { return .axisSources }
        if type.hasPrefix("touch.") { return .touch }
        if type.hasPrefix("pointer.") { return .pointer }
        if type == "key" || type == "text" { return .keyboard }
        if type == "screenshot" { return .capture }
        if ["preedit", "commit_text", "delete_surrounding"].contains(type) { return .inputMethod }
        return nil
    }

    /// Why this rig's seat cannot play all of `script` (the first event it cannot take), nil
    /// when it can: a caller that plays optional parts leaves such a part out.
    public func refusal(of script: GestureScript) -> String? {
        for e in script.events {
            for name in e.kind.summaryNames {
                if let feature = Self.requiredFeature(name), let why = rig.missing(feature) { return why }
            }
        }
        return nil
    }

    /// Injects `e` when it is due (`waitUntilDue`): for clients whose loop is not ours to step.
    public func play(_ e: ScriptEvent) throws {
        try waitUntilDue(e.t)
        try inject(e)
    }

    /// Plays the gesture `build` lays out into whatever client has the seat's focus, each event
    /// when due, its times in ms from script time `start`; returns the script time of its last
    /// event. `ScriptTarget.send(from:_:)` is the same for a Scrollway app this process runs.
    @discardableResult
    public func send(from start: Double, _ build: (inout ScriptBuilder) -> Void) throws -> Double {
        var b = ScriptBuilder()
        build(&b)
        for e in b.script.events {
            try play(ScriptEvent(t: start + e.t, line: e.line, e.kind))
        }
        try rig.seat.flush()
        return start + b.end
    }

    /// Sends what was injected so far and waits until the compositor has handled it (a stalled
    /// compositor holds this, and the pacer sees the next time come late), then sleeps until
    /// script time `t` is due on the rig's pacer (begun at the script's start).
    public func waitUntilDue(_ t: Double) throws {
        try rig.seat.roundtrip()
        try rig.pacer.wait(until: t) { try sleepWatchingCompositor($0) }
    }

    /// How often a long wait asks the compositor whether it is still there.
    public static let livenessStep = 0.25

    /// Sleeps `seconds`, asking the compositor every `livenessStep` whether it is still there
    /// (a roundtrip of the seat's connection): one that died in a long wait (a script's pause of
    /// a minute, the settle after its last event) is named then, not at the next event, a minute
    /// on. Counted against the clock: the roundtrips' time, added up over a long wait, made its
    /// end late.
    public func sleepWatchingCompositor(_ seconds: Double) throws {
        let end = Deadline(in: seconds)
        while end.remaining > Self.livenessStep {
            RealTimePacer.sleep(Self.livenessStep)
            try rig.seat.roundtrip()
        }
        RealTimePacer.sleep(end.remaining)
    }

    /// What the seat's keymap cannot type of `kind` (`ScriptParser.seatRefusal`): the field and
    /// why, or nil. Found up front, the script is refused before anything runs (found as it
    /// played, it stopped a run half-applied).
    public static func keymapRefusal(of kind: ScriptEvent.Kind, keys: KeyCodes) -> (field: String, reason: String)? {
        switch kind {
        case .key(let name, _):
            guard keys.stroke(forKeysymNamed: name) == nil else { return nil }
            return ("key", "no key of the us keymap produces \(ScriptText.quoted(name, quote: "'")) \(keymapNote)")
        case .text(let text):
            guard let scalar = text.unicodeScalars.first(where: { keys.stroke(for: $0) == nil }) else { return nil }
            return (
                "text",
                "the us keymap cannot type \(ScriptText.quoted(String(Character(scalar)), quote: "'")) \(keymapNote); "
                    + "an input method's commit_text can"
            )
        default:
            return nil
        }
    }

    static let keymapNote = "(a rig types through its seat's us keymap; `scrollway play` offscreen types any)"

    /// Injects one event now, stamped with its script time.
    public func inject(_ e: ScriptEvent) throws {
        if let feature = Self.requiredFeature(e.kind.typeName), let why = rig.missing(feature) {
            throw ReplayError("line \(e.line): '\(e.kind.typeName)': \(why)")
        }
        let i = rig.seat
        let time = UInt32(clamping: e.t, rounding: .toNearestOrAwayFromZero)
        switch e.kind {
        case .touchDown(let id, let x, let y): i.touchDown(id: Int32(id), x: x, y: y, time: time)
        case .touchMotion(let id, let x, let y): i.touchMotion(id: Int32(id), x: x, y: y, time: time)
        case .touchUp(let id): i.touchUp(id: Int32(id), time: time)
        case .touchFrame: i.touchFrame()
        case .touchCancel: i.touchCancel()
        case .pointerMotion(let x, let y): i.pointerMotion(x: x, y: y, time: time)
        case .pointerButton(let button, let pressed):
            let code: UInt32 = button == .left ? 0x110 : button == .right ? 0x111 : 0x112
            i.pointerButton(code, pressed: pressed, time: time)
            if button == .left { held.down = pressed }
        case .pointerAxis(let axis, let value, let source, let value120):
            i.axisSource(Self.sourceCode(source))
            // The parser bounds value120 to Int32; clamped again here for events built in code.
            let v120 = min(max((value120 ?? 0).rounded(), Double(Int32.min)), Double(Int32.max))
            i.axis(
                axis == .vertical ? 0 : 1, value: value, discrete: Int32(clamping: v120 / 120, rounding: .towardZero),
                value120: Int32(clamping: v120), time: time)
        case .pointerAxisStop(let axis): i.axisStop(axis == .vertical ? 0 : 1, time: time)
        // Where the rig can take the pointer off the client (`CompositorRig.parkPointer`). A
        // compositor keeps the pointer on the surface a button was pressed on until its release
        // (weston's test module takes it away regardless, as a grab of the compositor's does).
        case .pointerLeave: try rig.parkPointer()
        case .pointerFrame: i.pointerFrame()
        case .key(let name, let pressed):
            guard let stroke = rig.keys.stroke(forKeysymNamed: name) else {
                throw ReplayError("line \(e.line): \(Self.keymapRefusal(of: e.kind, keys: rig.keys)!.reason)")
            }
            if name == "Shift_L" || name == "Shift_R" {
                if pressed { held.shifts.insert(name) } else { held.shifts.remove(name) }
            }
            // A keysym on the shifted level ("A", "exclam") is pressed with Shift, as offscreen
            // types it (`KeyCodes.typedText`), unless the script holds Shift itself; let go
            // after the press, so the keys after it are not shifted.
            let shifts = pressed && stroke.shift && held.shifts.isEmpty
            if shifts { i.key(KeyCodes.leftShift, pressed: true, time: time) }
            i.key(stroke.evdev, pressed: pressed, time: time)
            if shifts { i.key(KeyCodes.leftShift, pressed: false, time: time) }
        case .text(let text):
            for scalar in text.unicodeScalars {
                guard let stroke = rig.keys.stroke(for: scalar) else {
                    throw ReplayError("line \(e.line): \(Self.keymapRefusal(of: e.kind, keys: rig.keys)!.reason)")
                }
                if stroke.shift { i.key(KeyCodes.leftShift, pressed: true, time: time) }
                i.key(stroke.evdev, pressed: true, time: time)
                i.key(stroke.evdev, pressed: false, time: time)
                if stroke.shift { i.key(KeyCodes.leftShift, pressed: false, time: time) }
            }
        // The module plays the input method: what a line sets goes out with its own done, to the
        // text input of the focused client (none enabled: nothing happens, as with a real one).
        case .preedit(let text, let cursor):
            i.textInputPreedit(text, cursor: cursor)
            i.textInputDone()
        case .commitText(let text):
            i.textInputCommit(text)
            i.textInputDone()
        case .deleteSurrounding(let before, let after):
            i.textInputDeleteSurrounding(before: before, after: after)
            i.textInputDone()
        case .screenshot:
            throw ReplayError("line \(e.line): a screenshot reads the screen; the player takes it, not the seat")
        case .pinchBegin, .pinchUpdate, .pinchEnd, .keyboardShow, .keyboardHide, .windowResize:
            try Self.checkSupported(type: e.kind.typeName, line: e.line)
        }
        try i.flush()
    }

    /// The wl_pointer axis source of a script's wheel event.
    public static func sourceCode(_ s: AxisSource) -> UInt32 {
        switch s {
        case .wheel: return 0
        case .finger: return 1
        case .continuous: return 2
        case .wheelTilt: return 3
        }
    }
}
