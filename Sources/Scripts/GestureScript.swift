import ScrollwayGestures

/// A gesture script: what a person, a recorder or a test wants to happen, with times. The
/// format is `docs/scripts-and-traces.md` (JSON Lines, a public interface).
public struct GestureScript: Equatable, Sendable {
    public static let formatName = "scrollway-script"
    public static let currentVersion = 1

    public var version: Int
    public var events: [ScriptEvent]

    public init(version: Int = GestureScript.currentVersion, events: [ScriptEvent]) {
        self.version = version
        self.events = events
    }

    /// The last event's time (ms), 0 for an empty script.
    public var duration: Double { events.last?.t ?? 0 }
}

/// One line of a script.
public struct ScriptEvent: Equatable, Sendable {
    /// Milliseconds from the start of the script.
    public var t: Double
    /// The 1-based line it came from (0 when built in code).
    public var line: Int
    public var kind: Kind

    public init(t: Double, line: Int = 0, _ kind: Kind) {
        self.t = t
        self.line = line
        self.kind = kind
    }

    public enum Kind: Equatable, Sendable {
        case touchDown(id: Int, x: Double, y: Double)
        case touchMotion(id: Int, x: Double, y: Double)
        case touchUp(id: Int)
        case touchFrame
        case touchCancel
        case pointerMotion(x: Double, y: Double)
        case pointerButton(PointerButton, pressed: Bool)
        case pointerAxis(Axis, value: Double, source: AxisSource, value120: Double?)
        case pointerAxisStop(Axis)
        /// The pointer leaves the window (wl_pointer.leave); the next `pointerMotion` brings it
        /// back.
        case pointerLeave
        case pointerFrame
        case pinchBegin
        case pinchUpdate(scale: Double, dx: Double, dy: Double)
        case pinchEnd(cancelled: Bool)
        /// An xkb keysym name ("Page_Down", "a").
        case key(String, pressed: Bool)
        case text(String)
        /// An input method's composing text, with its cursor as a byte range of it (nil: hidden,
        /// the protocol's -1, -1).
        case preedit(String, cursor: ClosedRange<Int>?)
        /// An input method's commit: the text goes in at the caret (and any preedit goes).
        case commitText(String)
        /// An input method deleting bytes before and after the caret.
        case deleteSurrounding(before: Int, after: Int)
        case keyboardShow
        case keyboardHide
        case windowResize(width: Double, height: Double)
        case screenshot(name: String)

        /// What a script's summary records of this event (`ScriptSummary.firstLine`): its
        /// type's name, and for a wheel event whose `value120` is not a whole number of detents,
        /// `partialDetents` too: no compositor's seat carries one (weston 10, sway and phoc
        /// speak wl_seat 7, whose clients get whole detents; mutter's and KWin's APIs take whole
        /// steps or plain values), so a rig refuses it before anything runs rather than change
        /// it; offscreen plays it as written.
        public var summaryNames: [String] {
            if case .pointerAxis(_, _, _, let v120?) = self, v120.remainder(dividingBy: 120) != 0 {
                return [typeName, Self.partialDetents]
            }
            return [typeName]
        }

        /// The summary's name for a wheel event between whole detents.
        public static let partialDetents = "pointer.axis with a value120 between whole detents"

        /// The script's name for this type.
        public var typeName: String {
            switch self {
            case .touchDown: return "touch.down"
            case .touchMotion: return "touch.motion"
            case .touchUp: return "touch.up"
            case .touchFrame: return "touch.frame"
            case .touchCancel: return "touch.cancel"
            case .pointerMotion: return "pointer.motion"
            case .pointerButton: return "pointer.button"
            case .pointerAxis: return "pointer.axis"
            case .pointerAxisStop: return "pointer.axis_stop"
            case .pointerLeave: return "pointer.leave"
            case .pointerFrame: return "pointer.frame"
            case .pinchBegin: return "pinch.begin"
            case .pinchUpdate: return "pinch.update"
            case .pinchEnd: return "pinch.end"
            case .key: return "key"
            case .text: return "text"
            case .preedit: return "preedit"
            case .commitText: return "commit_text"
            case .deleteSurrounding: return "delete_surrounding"
            case .keyboardShow: return "keyboard.show"
            case .keyboardHide: return "keyboard.hide"
            case .windowResize: return "window.resize"
            case .screenshot: return "screenshot"
            }
        }
    }
}

/// A script that does not fit the format: where (file, line, field) and what was expected.
public struct ScriptError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var field: String?
    public var message: String

    public init(file: String, line: Int, field: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.field = field
        self.message = message
    }

    public var description: String {
        // The file's name too: one holding an escape sequence would drive the terminal.
        let file = ScriptText.escaped(file, limit: .max)
        if line == 0 { return "\(file): \(message)" }
        let location = "\(file):\(line)"
        // A field name comes from the script: escaped like any script text in a message.
        if let field { return "\(location): field '\(ScriptText.escaped(field))': \(message)" }
        return "\(location): \(message)"
    }
}
