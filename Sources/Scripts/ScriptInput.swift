import ScrollwayGeometry
import ScrollwayGestures

/// The one mapping from script events to input events: the offscreen player, the frame driver
/// (tests, the bench) and anything else that feeds a script to a window go through it, so a
/// script means the same everywhere. It keeps the modifiers a script holds down, as a seat's
/// keymap does: a `Shift_L` press makes the keys after it shifted until its release.
public struct ScriptInput {
    /// The modifier keys held down by the script so far.
    public private(set) var modifiers: Modifiers = []
    /// What a key press types, and whether its key needs Shift, by its keysym and the modifiers
    /// held, as a platform's keymap says: Wayland's xkb sends a pressed key's text as well, so a
    /// script's `key a` types "a" in a compositor, and a rig presses Shift for a keysym on the
    /// shifted level (`A`, `ISO_Left_Tab`), which the window sees held. Supplied by the caller
    /// (keysyms are xkbcommon's); without it, a key press types nothing and holds no Shift.
    public var keyPress: (String, Modifiers) -> KeyPress

    /// What a key press types (nil: nothing) and whether the keymap's key for it needs Shift.
    public struct KeyPress: Equatable, Sendable {
        public var text: String?
        public var shift: Bool

        public init(text: String? = nil, shift: Bool = false) {
            self.text = text
            self.shift = shift
        }
    }

    public init(keyPress: @escaping (String, Modifiers) -> KeyPress = { _, _ in KeyPress() }) {
        self.keyPress = keyPress
    }

    /// Every input event `kind` stands for, in order (`inputKind(for:)` gives the first): a key
    /// press (with Shift when its key needs it) and the text it types (`keyPress`); a `text`
    /// line as the keyboard types it, its tabs, line feeds, carriage returns, backspaces, escapes
    /// and deletes as those keys (a compositor's keymap types them so: a tab in a field's text
    /// moved the focus in weston and went in as a character offscreen), the rest as text.
    public mutating func inputKinds(for kind: ScriptEvent.Kind) -> [InputEvent.Kind] {
        switch kind {
        case .key(let name, true):
            guard case .key(let key, _, let held)? = inputKind(for: kind) else { return [] }
            let press = keyPress(name, modifiers)
            let event = InputEvent.Kind.key(key, pressed: true, modifiers: press.shift ? held.union(.shift) : held)
            return press.text.map { [event, .text($0)] } ?? [event]
        case .text(let text):
            var kinds: [InputEvent.Kind] = []
            var run = ""
            for scalar in text.unicodeScalars {
                guard let key = Self.typedKey(scalar) else {
                    run.unicodeScalars.append(scalar)
                    continue
                }
                if !run.isEmpty { kinds.append(.text(run)) }
                run = ""
                kinds.append(.key(key, pressed: true, modifiers: modifiers))
                kinds.append(.key(key, pressed: false, modifiers: modifiers))
            }
            if !run.isEmpty { kinds.append(.text(run)) }
            return kinds
        default:
            return inputKind(for: kind).map { [$0] } ?? []
        }
    }

    /// The key a keyboard types a control character with (xkb's keysym for it), or nil for one
    /// that is text.
    static func typedKey(_ scalar: Unicode.Scalar) -> Key? {
        switch scalar {
        case "\t": return .tab
        case "\n", "\r": return .enter
        case "\u{8}": return .backspace
        case "\u{1B}": return .escape
        case "\u{7F}": return .other("Delete")
        default: return nil
        }
    }

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
