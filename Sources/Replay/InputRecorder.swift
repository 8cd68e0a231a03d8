import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayScripts
import ScrollwayViews

/// Writes down the input a window receives from its platform as a gesture script, so that what
/// happened on someone's touchpad or touch panel can be handed over and replayed
/// (`scrollway demo --record`, then `scrollway play`).
///
/// Times are the platform's event times (on Wayland, the compositor's timestamps with their
/// spacing kept) less `origin`, in ms. Every curve is a closed-form function of the event times
/// and positions, so an offscreen replay gives the same delegate calls and resting offsets as
/// the recorded run, whatever the frame times were.
///
/// Frames: a platform delivers the events of one `wl_touch.frame` (or `wl_pointer.frame`) one
/// by one, at the frame's time. The recorder closes a group with `touch.frame` / `pointer.frame`
/// when an event of another device or another time follows, and at `finish()`.
///
/// Pointer enter is written as a `pointer.motion` to where the pointer came in (a press that
/// follows it without a motion needs the position), and leave as `pointer.leave`: a leave with the
/// button down cancels the mouse's drag, and replayed without it the drag went on.
///
/// What a script cannot say is left out, on purpose:
/// - hold gestures and `modifiers` events (the modifier keys' own key events carry them);
/// - text that xkb derived from a key press at the same time (the key is recorded; replaying it
///   types it again, offscreen through the us keymap as in weston through the seat's).
@MainActor
public final class InputRecorder: WindowObserver {
    /// Receives each script line (JSON, no newline) as it is recorded; the format header first.
    public typealias Output = (String) -> Void

    private let window: Window
    private let origin: Double
    private let output: Output
    /// The last key press, whose derived text (same time) is not recorded.
    private var lastKeyPress: Double?
    private var lastTime = 0.0
    /// The device whose group of events is open (its frame not written yet), and their time.
    private var openGroup: (device: Device, time: Double)?
    private enum Device { case touch, pointer }
    /// How many events were written.
    public private(set) var eventCount = 0

    /// Starts recording `window`'s input; times are measured from `origin` (seconds, the
    /// platform's clock), and no event is written before it.
    public init(window: Window, origin: Double, output: @escaping Output) {
        self.window = window
        self.origin = origin
        self.output = output
        output("{\"format\": \"\(GestureScript.formatName)\", \"version\": \(GestureScript.currentVersion)}")
        window.addObserver(self)
    }

    public func window(_ window: Window, willHandle event: InputEvent) {
        if case .textInput(let update) = event.kind {
            let t = max(lastTime, max(0, (event.time - origin) * 1000))
            closeGroup()
            lastTime = t
            for kind in Self.inputMethodKinds(of: update) { write(ScriptEvent(t: t, kind)) }
            return
        }
        guard let kind = Self.scriptKind(of: event, lastKeyPress: &lastKeyPress) else { return }
        // Times never go back in a script (the platform's are monotonic; this keeps it so).
        let t = max(lastTime, max(0, (event.time - origin) * 1000))
        let device = Self.device(of: kind)
        if let open = openGroup, open.device != device || open.time != t { closeGroup() }
        lastTime = t
        write(ScriptEvent(t: t, kind))
        if let device { openGroup = (device, t) }
    }

    /// Closes the last group of touch or pointer events (call once the recording ends).
    public func finish() { closeGroup() }

    private func closeGroup() {
        guard let open = openGroup else { return }
        openGroup = nil
        write(ScriptEvent(t: open.time, open.device == .touch ? .touchFrame : .pointerFrame))
    }

    private func write(_ e: ScriptEvent) {
        output(ScriptWriter.line(e))
        eventCount += 1
    }

    private static func device(of kind: ScriptEvent.Kind) -> Device? {
        switch kind {
        case .touchDown, .touchMotion, .touchUp, .touchCancel: return .touch
        case .pointerMotion, .pointerButton, .pointerAxis, .pointerAxisStop, .pointerLeave: return .pointer
        default: return nil
        }
    }

    /// An input method's done as the script lines that replay it, in the protocol's order: the
    /// deletion, the commit, the preedit. Each line is a done of its own on replay, which ends
    /// in the same text, caret and preedit (each clears the preedit first, as the done did).
    static func inputMethodKinds(of u: TextInputUpdate) -> [ScriptEvent.Kind] {
        var kinds: [ScriptEvent.Kind] = []
        if u.deleteBefore > 0 || u.deleteAfter > 0 {
            kinds.append(.deleteSurrounding(before: u.deleteBefore, after: u.deleteAfter))
        }
        if !u.commit.isEmpty || (kinds.isEmpty && u.preedit.isEmpty) { kinds.append(.commitText(u.commit)) }
        if !u.preedit.isEmpty { kinds.append(.preedit(u.preedit, cursor: u.preeditCursor.map { $0.begin...$0.end })) }
        return kinds
    }

    /// The script event for an input event, or nil for what a script does not record.
    static func scriptKind(of event: InputEvent, lastKeyPress: inout Double?) -> ScriptEvent.Kind? {
        switch event.kind {
        case .touchDown(let id, let p): return .touchDown(id: id, x: p.x, y: p.y)
        case .touchMotion(let id, let p): return .touchMotion(id: id, x: p.x, y: p.y)
        case .touchUp(let id): return .touchUp(id: id)
        case .touchCancel: return .touchCancel
        case .pointerMotion(let p), .pointerEnter(let p): return .pointerMotion(x: p.x, y: p.y)
        case .pointerLeave: return .pointerLeave
        case .pointerButton(let b, let pressed): return .pointerButton(b, pressed: pressed)
        case .axis(let axis, let value, let source, let value120):
            return .pointerAxis(axis, value: value, source: source, value120: value120)
        case .axisStop(let axis): return .pointerAxisStop(axis)
        case .pinchBegin: return .pinchBegin
        case .pinchUpdate(let scale, let dx, let dy): return .pinchUpdate(scale: scale, dx: dx, dy: dy)
        case .pinchEnd(let cancelled): return .pinchEnd(cancelled: cancelled)
        case .key(let key, let pressed, _):
            lastKeyPress = pressed ? event.time : nil
            return .key(key.keysymName, pressed: pressed)
        case .text(let text):
            if lastKeyPress == event.time { return nil }
            return .text(text)
        case .textInput:
            return nil  // `inputMethodKinds`: one done may take several lines
        case .touchFrame, .pointerFrame:
            return nil  // the recorder writes its own, per group
        case .holdBegin, .holdEnd, .modifiers:
            return nil
        }
    }
}

extension Key {
    /// The xkb keysym name scripts write ("Page_Down"): `Key(keysymName:)` reads it back.
    public var keysymName: String {
        switch self {
        case .up: return "Up"
        case .down: return "Down"
        case .left: return "Left"
        case .right: return "Right"
        case .pageUp: return "Page_Up"
        case .pageDown: return "Page_Down"
        case .home: return "Home"
        case .end: return "End"
        case .space: return "space"
        case .tab: return "Tab"
        case .enter: return "Return"
        case .backspace: return "BackSpace"
        case .escape: return "Escape"
        case .other(let name): return name
        }
    }
}
