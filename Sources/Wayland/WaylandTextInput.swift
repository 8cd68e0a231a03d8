import ScrollwayCSystem
import ScrollwayCWaylandClient
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayViews
import ScrollwayWaylandProtocols

/// The seat's zwp_text_input_v3: the system keyboard and input methods (squeekboard on Phosh,
/// an IME on a desktop) type into the focused text field through it. This side only translates;
/// the editing rules are `TextEditing`'s, offscreen-tested.
///
/// What it sends: while the compositor's text-input focus is on our surface (enter) and a field
/// that takes text has the window's focus, enable (again for each newly focused field, as the
/// protocol asks), then the field's surrounding text, content type and caret rectangle, then
/// commit. It compares the field's state after every frame with what it last committed and
/// sends only a change, so a field carried by a scrolling view moves the input method's
/// candidate box along, and typing keeps the surrounding text current. Focus leaving fields:
/// disable and commit.
///
/// What it receives: preedit, commit and deletion, buffered until done, then handed to the
/// window as one `InputEvent.Kind.textInput` update. The done's serial is not used to hold back
/// state: each frame after the update resends what changed, which is what a matching serial
/// would ask for, and a compositor that counts commits sees every one.
@MainActor
final class WaylandTextInput: WindowObserver {
    unowned let input: WaylandInput
    private var proxy: OpaquePointer?
    private weak var window: Window?
    /// Whether the text-input focus is on our surface.
    private(set) var entered = false
    /// The field an enable was committed for, nil while disabled.
    private weak var enabledFor: View?
    private var enabled = false
    /// What the last commit carried; nil after an enable (everything is resent).
    private var sent: TextInputState?
    /// Commit requests made, the serial a current done carries.
    private(set) var commits: UInt32 = 0
    private var pending = TextInputUpdate()

    init(input: WaylandInput, manager: OpaquePointer, seat: OpaquePointer) {
        self.input = input
        proxy = zwp_text_input_manager_v3_get_text_input(manager, seat)
        zwp_text_input_v3_add_listener(proxy, Listeners.textInput, Unmanaged.passUnretained(self).toOpaque())
    }

    func release() {
        if let proxy { zwp_text_input_v3_destroy(proxy) }
        proxy = nil
        window?.removeObserver(self)
    }

    /// Follows `window`'s focus and frames, and tells it a system input method exists (an
    /// in-app keyboard under `systemWhenAvailable` stays down).
    func attach(to window: Window) {
        guard self.window !== window else { return }
        self.window?.removeObserver(self)
        self.window = window
        window.hasSystemInputMethod = true
        window.addObserver(self)
        sync()
    }

    // MARK: Window observer

    func window(_ window: Window, focusDidChangeTo view: View?, byTouch: Bool) { sync() }
    func window(_ window: Window, didPrepareFrameAt time: Double) { sync() }

    // MARK: Events (through the trampolines)

    func enter() {
        entered = true
        // After enter every piece of state is invalid and resent.
        enabled = false
        enabledFor = nil
        sent = nil
        sync()
    }

    func leave() {
        entered = false
        enabled = false
        enabledFor = nil
        sent = nil
        pending = TextInputUpdate()
        // The protocol: the client resets any preedit on leave.
        if let field = window?.focusedView as? TextEditingView, !field.editing.preedit.isEmpty {
            deliver(TextInputUpdate())
        }
    }

    func preedit(_ text: String?, begin: Int32, end: Int32) {
        pending.preedit = text ?? ""
        pending.preeditCursor = begin == -1 && end == -1 ? nil : .init(begin: Int(max(0, begin)), end: Int(max(0, end)))
    }

    func commitString(_ text: String?) { pending.commit = text ?? "" }

    func deleteSurrounding(before: UInt32, after: UInt32) {
        pending.deleteBefore = Int(before)
        pending.deleteAfter = Int(after)
    }

    func done(serial: UInt32) {
        let update = pending
        pending = TextInputUpdate()
        deliver(update)
        sync()
    }

    private func deliver(_ update: TextInputUpdate) {
        guard let window else { return }
        window.handle(InputEvent(time: max(window.now, sw_monotonic_seconds()), .textInput(update)))
    }

    // MARK: Requests

    /// Sends what changed since the last commit, and commits it.
    private func sync() {
        guard let proxy, let window, entered else { return }
        guard let state = window.textInputState, let field = window.focusedView else {
            if enabled {
                zwp_text_input_v3_disable(proxy)
                commit()
                enabled = false
                enabledFor = nil
                sent = nil
            }
            return
        }
        if !enabled || enabledFor !== field {
            // A newly focused field: enable again, which resets the compositor's state.
            zwp_text_input_v3_enable(proxy)
            enabled = true
            enabledFor = field
            sent = nil
        }
        guard state != sent else { return }
        zwp_text_input_v3_set_surrounding_text(proxy, state.surroundingText, Int32(state.cursor), Int32(state.anchor))
        zwp_text_input_v3_set_content_type(proxy, state.contentType.hints.rawValue, state.contentType.purpose.rawValue)
        let r = state.cursorRectangle
        let x = r.minX.rounded(.down)
        let y = r.minY.rounded(.down)
        zwp_text_input_v3_set_cursor_rectangle(
            proxy, Self.int(x), Self.int(y), Self.int((r.maxX - x).rounded(.up)), Self.int((r.maxY - y).rounded(.up)))
        commit()
        sent = state
    }

    private func commit() {
        guard let proxy else { return }
        zwp_text_input_v3_commit(proxy)
        commits &+= 1
    }

    private static func int(_ v: Double) -> Int32 {
        v.isFinite ? Int32(clamping: Int(max(-1e9, min(1e9, v)))) : 0
    }
}
