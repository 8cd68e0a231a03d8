import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster

/// A view that edits text with `TextEditing` (a text field, a text view): the keys, typed text,
/// input-method updates and clipboard shortcuts they share are handled here, once, and each view
/// says only what differs — whether Return breaks the line, and where line-wise keys go.
@MainActor
public protocol TextEditingView: TextInputClient {
    /// The text, caret, selection and preedit. The view redraws (and a text view lays out and
    /// keeps the caret in sight) when it changes.
    var editing: TextEditing { get set }
    /// Whether Return types a new line (a text view) rather than ending the edit (a field).
    var isMultiline: Bool { get }
    /// The font the text is drawn in (nil: `Font.standard`); a screen reader reads it among
    /// the text's attributes.
    var font: Font? { get }
    /// What it shows while empty; a screen reader gets it as the `placeholder-text` attribute.
    var placeholder: String { get }
    /// The box of character `index` of the text (from its caret position to the next), in the
    /// view's coordinates; nil for an index outside the text or a character not laid out (a
    /// long field shows only part of its text). What a magnifier follows the caret by.
    func characterRect(at index: Int) -> Rect?
    /// The character offset whose caret position is nearest `point` (the view's coordinates).
    func textIndex(at point: Point) -> Int
    /// Where a line-wise key (Up, Down, Page Up, Page Down, Home, End) takes the caret from
    /// `index`; nil when the key is not the view's (a field's Up and Down pass on to the form).
    func caretIndex(for key: Key, from index: Int) -> Int?
    /// Return pressed in a view that is not multi-line.
    func editingDidReturn()
    /// Whether the text around caret `index` runs right to left (its line's direction): Left
    /// and Right then step the other way through the text, so that they move the caret the way
    /// they point, as UIKit's and GTK's do.
    func runsRightToLeft(at index: Int) -> Bool
}

extension TextEditingView {
    /// Left to right, unless the view says otherwise.
    public func runsRightToLeft(at index: Int) -> Bool { false }

    /// Handles `event` if it edits text: typed text, input-method updates, and the keys a text
    /// view types or moves with, pressed and released alike, so that none of them also reaches
    /// the scroll view around it (Space would page the form while the text event that follows
    /// the same press types the space; arrows would scroll it). Tab (focus moves), Escape,
    /// shortcuts other than Ctrl+A/C/X/V, and line-wise keys the view declines pass on.
    /// Call it only while the view is focused.
    public func handleEditingInput(_ event: InputEvent) -> Bool {
        switch event.kind {
        case .textInput(let update):
            editing.apply(update)
            return true
        case .text(let s):
            editing.replaceSelection(with: isMultiline ? s : Self.oneLine(s))
            return true
        case .key(let key, let pressed, let modifiers):
            return handleEditingKey(key, pressed: pressed, modifiers: modifiers)
        default:
            return false
        }
    }

    /// Pasted or typed text for a one-line view: line breaks become spaces.
    static func oneLine(_ s: String) -> String {
        String(s.map { $0.isNewline ? " " : $0 })
    }

    private func handleEditingKey(_ key: Key, pressed: Bool, modifiers: Modifiers) -> Bool {
        if modifiers.contains(.control), modifiers.isDisjoint(with: [.alt, .logo]), case .other(let name) = key,
            ["a", "c", "x", "v"].contains(name.lowercased())
        {
            if pressed { perform(shortcut: name.lowercased()) }
            return true
        }
        let extending = modifiers.contains(.shift)
        var key = key
        if key == .left || key == .right, runsRightToLeft(at: editing.caret) { key = key == .left ? .right : .left }
        let target = caretIndex(for: key, from: editing.caret)
        let typing: Bool
        switch key {
        case .tab, .escape: typing = false
        case .up, .down, .pageUp, .pageDown, .home, .end: typing = target != nil
        case .other: typing = modifiers.isDisjoint(with: [.control, .alt, .logo])
        default: typing = true
        }
        guard pressed else { return typing }
        let selection = editing.selection
        // Ctrl steps by word: Left and Right to a word's start and end, Backspace and Delete
        // delete to there (a selection first, as without Ctrl).
        let byWord = modifiers.contains(.control)
        switch key {
        case .backspace:
            if byWord && selection.isEmpty { editing.anchor = editing.wordStart(before: editing.caret) }
            editing.deleteBackward()
        case .other("Delete"), .other("KP_Delete"):
            if byWord && selection.isEmpty { editing.anchor = editing.wordEnd(after: editing.caret) }
            editing.deleteForward()
        case .left:
            // With a selection and no Shift, Left and Right collapse it to that side, as every
            // editor does, rather than stepping from the caret (with Ctrl too, as GTK's fields).
            let to =
                !extending && !selection.isEmpty
                ? selection.lowerBound : byWord ? editing.wordStart(before: editing.caret) : editing.caret - 1
            editing.moveCaret(to: to, extending: extending)
        case .right:
            let to =
                !extending && !selection.isEmpty
                ? selection.upperBound : byWord ? editing.wordEnd(after: editing.caret) : editing.caret + 1
            editing.moveCaret(to: to, extending: extending)
        case .up, .down, .pageUp, .pageDown, .home, .end:
            guard let target else { return false }
            editing.moveCaret(to: target, extending: extending)
        case .enter:
            if isMultiline { editing.replaceSelection(with: "\n") } else { editingDidReturn() }
        default:
            return typing  // Space and printable keys type through the text event
        }
        return true
    }

    /// Ctrl+A selects all; Ctrl+C copies the selection, Ctrl+X cuts it, through the window's
    /// pasteboard; Ctrl+V replaces the selection with the pasteboard's text when it arrives
    /// (if this view still has the focus then).
    private func perform(shortcut: String) {
        switch shortcut {
        case "a":
            editing.selectAll()
        case "c", "x":
            guard !editing.selection.isEmpty, let window else { return }
            window.pasteboard.setText(editing.selectedText)
            if shortcut == "x" { editing.replaceSelection(with: "") }
        default:
            window?.pasteboard.requestText { [weak self] text in
                guard let self, let text, self.isFocused else { return }
                self.editing.replaceSelection(with: self.isMultiline ? text : Self.oneLine(text))
            }
        }
    }
}

extension TextEditing {
    /// The selection's highlight (and a preedit's selected range): the tint, see-through.
    public static let selectionColor = Color(rgb: 0, 122, 255, alpha: 0.25)

    /// The caret position in `start...end` whose x (`caretX`) is nearest `x`: where a click or
    /// a vertical caret move lands.
    public static func nearestIndex(from start: Int, to end: Int, toX x: Double, caretX: (Int) -> Double) -> Int {
        var best = start
        var bestDistance = abs(caretX(start) - x)
        for i in stride(from: start + 1, through: end, by: 1) {
            let d = abs(caretX(i) - x)
            if d < bestDistance {
                best = i
                bestDistance = d
            }
        }
        return best
    }
}
