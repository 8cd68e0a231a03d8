import ScrollwayGeometry
import ScrollwayGestures

/// The one mapping from script events to input events: the offscreen player, the frame driver
/// (tests, the bench) and anything else that feeds a script to a window go through it, so a
/// script means the same everywhere. It keeps the modifiers a script holds down, as a seat's
/// keymap does: a `Shift_L` press makes the keys after it shifted until its release.
public struct ScriptInput {
    /// The modifier keys held down by the script so far.
    public private(set) var modifiers: Modifiers = []

    public init() {}

    /// The input event `kind` stands for, or nil for what is not input (a window resize, a
    /// screenshot, the on-screen keyboard shown or hidden): those act on the window itself.
    public mutating func inputKind(for kind: ScriptEvent.Kind) -> InputEvent.Kind? {
        switch kind {
        case .touchDown(let id, let x, let y): return .touchDown(id: id, position: Point(x: x, y: y))
        case .touchMotion(let id, let x, let y): return .touchMotion(id: id, position: Point(x: x, y: y))
        case .touchUp(let id): return .touchUp(id: id)
        case .touchFrame: return .touchFrame
        case .touchCancel: return .touchCancel
        case .pointerMotion(let x, let y): return .pointerMotion(position: Point(x: x, y: y))
        case .pointerButton(let b, let pressed): return .pointerButton(b, pressed: pressed)
        case .pointerAxis(let axis, let value, let source, let value120):
            return .axis(axis, value: value, source: source, value120: value120)
        case .pointerAxisStop(let axis): return .axisStop(axis)
        case .pointerLeave: return .pointerLeave
        case .pointerFrame: return .pointerFrame
        // The script format has two-finger pinches only (what weston's touchpads send).
        case .pinchBegin: return .pinchBegin(fingers: 2)
        case .pinchUpdate(let scale, let dx, let dy): return .pinchUpdate(scale: scale, dx: dx, dy: dy)
        case .pinchEnd(let cancelled): return .pinchEnd(cancelled: cancelled)
        case .key(let name, let pressed):
            if let m = Self.modifier(name) {
                if pressed { modifiers.insert(m) } else { modifiers.remove(m) }
            }
            return .key(Key(keysymName: name), pressed: pressed, modifiers: modifiers)
        case .text(let text): return .text(text)
        // Each input-method line is one zwp_text_input_v3 `done`: what it does not set is reset
        // (a commit or a deletion ends the preedit, as an input method's own would).
        case .preedit(let text, let cursor):
            return .textInput(
                TextInputUpdate(
                    preedit: text, preeditCursor: cursor.map { .init(begin: $0.lowerBound, end: $0.upperBound) }))
        case .commitText(let text): return .textInput(TextInputUpdate(commit: text))
        case .deleteSurrounding(let before, let after):
            return .textInput(TextInputUpdate(deleteBefore: before, deleteAfter: after))
        case .windowResize, .screenshot, .keyboardShow, .keyboardHide: return nil
        }
    }

    /// The modifier a keysym holds down, if it is one.
    public static func modifier(_ keysym: String) -> Modifiers? {
        switch keysym {
        case "Shift_L", "Shift_R": return .shift
        case "Control_L", "Control_R": return .control
        case "Alt_L", "Alt_R": return .alt
        case "Super_L", "Super_R": return .logo
        default: return nil
        }
    }
}
