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
/// that takes text has the window's focus, enable, then the field's surrounding text (with why it
/// changed), content type and caret rectangle, then commit. A newly focused field ends the old
/// session first (disable, commit), as the protocol asks, so the input method is reset and
/// starts over for it; the field that lost the focus drops what was being composed in it
/// (`Window.focusedView`). After every frame it sends what changed since its last commit, and
/// only that: a field carried by a scrolling view moves the input method's candidate box along
/// with one request, and typing keeps the surrounding text current. Focus leaving fields, and
/// the text-input focus leaving our surface: disable and commit (GTK does the same on leave: a
/// compositor that still counts us enabled would never activate its input method again on the
/// next enter).
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
    /// Whether the change being sent came from the input method's own update (its done): the
    /// text change cause.
    private var changedByInputMethod = false
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
        if enabled { disable() }
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
        changedByInputMethod = true
        sync()
        changedByInputMethod = false
    }

    private func deliver(_ update: TextInputUpdate) {
        guard let window else { return }
        window.handle(InputEvent(time: max(window.now, sw_monotonic_seconds()), .textInput(update)))
        input.connection.window?.inputArrived()
    }

    // MARK: Requests

    /// Sends what changed since the last commit, and commits it.
    private func sync() {
        guard let proxy, let window, entered else { return }
        guard let state = window.textInputState, let field = window.focusedView else {
            if enabled { disable() }
            return
        }
        // Another field: the old session ends before the new one begins.
        if enabled, enabledFor !== field { disable() }
        if !enabled {
            // Enabling resets the compositor's state: everything is sent again.
            zwp_text_input_v3_enable(proxy)
            enabled = true
            enabledFor = field
            sent = nil
        }
        guard state != sent else { return }
        if sent?.surroundingText != state.surroundingText || sent?.cursor != state.cursor
            || sent?.anchor != state.anchor
        {
            zwp_text_input_v3_set_surrounding_text(
                proxy, state.surroundingText, Int32(state.cursor), Int32(state.anchor))
            zwp_text_input_v3_set_text_change_cause(
                proxy,
                changedByInputMethod
                    ? ZWP_TEXT_INPUT_V3_CHANGE_CAUSE_INPUT_METHOD.rawValue
                    : ZWP_TEXT_INPUT_V3_CHANGE_CAUSE_OTHER.rawValue)
        }
        if sent?.contentType != state.contentType {
            zwp_text_input_v3_set_content_type(
                proxy, state.contentType.hints.rawValue, state.contentType.purpose.rawValue)
        }
        let rectangle = Self.pixelRectangle(state.cursorRectangle)
        if sent.map({ Self.pixelRectangle($0.cursorRectangle) == rectangle }) != true {
            zwp_text_input_v3_set_cursor_rectangle(proxy, rectangle.x, rectangle.y, rectangle.width, rectangle.height)
        }
        commit()
        sent = state
    }

    /// Ends the session: disable, committed.
    private func disable() {
        guard let proxy else { return }
        zwp_text_input_v3_disable(proxy)
        commit()
        enabled = false
        enabledFor = nil
        sent = nil
    }

    /// A caret rectangle in whole surface pixels, as the protocol carries it (what was sent is
    /// compared in these terms: a sub-pixel move sends nothing).
    private static func pixelRectangle(_ r: Rect) -> (x: Int32, y: Int32, width: Int32, height: Int32) {
        let x = r.minX.rounded(.down)
        let y = r.minY.rounded(.down)
        return (int(x), int(y), int((r.maxX - x).rounded(.up)), int((r.maxY - y).rounded(.up)))
    }

    private func commit() {
        guard let proxy else { return }
        zwp_text_input_v3_commit(proxy)
        commits &+= 1
    }

    private static func int(_ v: Double) -> Int32 {
        v.isFinite ? Int32(clamping: v, in: -1_000_000_000...1_000_000_000) : 0
    }
}
