import ScrollwayDBus
import ScrollwayGeometry
import ScrollwayViews

/// `org.a11y.atspi.Text` and `EditableText` for the views that edit text (`TextEditingView`):
/// a screen reader reads the text and the caret, and types, replaces and deletes through them.
/// A label has `Text` too, read-only, its caret at 0 (a reader reads it line by line).
///
/// AT-SPI counts offsets in Unicode code points; `TextEditing` counts characters (grapheme
/// clusters, what the arrow keys step over). Offsets are converted at this seam: a code point
/// inside a character (a combining mark) goes to the character's start.
extension AtSpiBridge {
    /// Whether the element edits text.
    static func editor(_ node: AccessibilityNode) -> (any TextEditingView)? { node.view as? (any TextEditingView) }

    /// The text an element reads as `Text`, its caret and its selection (characters): an
    /// editor's, or a label's own words.
    static func readable(_ node: AccessibilityNode) -> (text: String, caret: Int, selection: Range<Int>)? {
        if let editor = editor(node) { return (editor.editing.text, editor.editing.caret, editor.editing.selection) }
        return node.role == .staticText ? (node.label, 0, 0..<0) : nil
    }

    func text(_ call: DBusCall, _ object: Object) -> DBusAnswer {
        guard case .element(let node, _, _) = object, let (text, _, selection) = Self.readable(node) else {
            return .unhandled
        }
        let scalars = Array(text.unicodeScalars)
        func slice(_ start: Int, _ end: Int) -> String {
            let lo = min(max(0, start), scalars.count)
            let hi = end < 0 ? scalars.count : min(max(lo, end), scalars.count)
            var s = String.UnicodeScalarView()
            s.append(contentsOf: scalars[lo..<hi])
            return String(s)
        }
        switch call.member {
        case "GetText":
            guard let start = call.int32(at: 0), let end = call.int32(at: 1) else { return invalid(call) }
            return .reply([.string(slice(start, end))])
        case "GetCharacterAtOffset":
            guard let offset = call.int32(at: 0) else { return invalid(call) }
            return .reply([.int32(scalars.indices.contains(offset) ? Int32(bitPattern: scalars[offset].value) : 0)])
        case "SetCaretOffset":
            guard let offset = call.int32(at: 0) else { return invalid(call) }
            guard let editor = Self.editor(node) else { return .reply([.bool(false)]) }
            editor.editing.moveCaret(to: Self.character(atScalar: offset, in: text))
            return .reply([.bool(true)])
        case "GetNSelections":
            return .reply([.int32(selection.isEmpty ? 0 : 1)])
        case "GetSelection":
            let r = selection
            return .reply([
                .int32(Int32(clamping: Self.scalar(atCharacter: r.lowerBound, in: text))),
                .int32(Int32(clamping: Self.scalar(atCharacter: r.upperBound, in: text))),
            ])
        case "GetTextAtOffset", "GetStringAtOffset":
            // The whole line around the offset for a line boundary or granularity; else the
            // character there (what a reader asks as the caret moves).
            guard let offset = call.int32(at: 0), case .uint32(let kind)? = call.arguments.last else {
                return invalid(call)
            }
            let line = call.member == "GetTextAtOffset" ? kind == 5 || kind == 6 : kind == 3
            if line {
                var lo = min(max(0, offset), scalars.count)
                while lo > 0 && scalars[lo - 1] != "\n" { lo -= 1 }
                var hi = min(max(0, offset), scalars.count)
                while hi < scalars.count && scalars[hi] != "\n" { hi += 1 }
                return .reply([.string(slice(lo, hi)), .int32(Int32(clamping: lo)), .int32(Int32(clamping: hi))])
            }
            let lo = min(max(0, offset), scalars.count)
            let hi = min(lo + 1, scalars.count)
            return .reply([.string(slice(lo, hi)), .int32(Int32(clamping: lo)), .int32(Int32(clamping: hi))])
        default: return .unhandled
        }
    }

    func editableText(_ call: DBusCall, _ object: Object) -> DBusAnswer {
        guard case .element(let node, _, _) = object, let editor = Self.editor(node) else { return .unhandled }
        let text = editor.editing.text
        switch call.member {
        case "SetTextContents":
            guard let s = call.arguments.first?.stringValue else { return invalid(call) }
            editor.editing.selectAll()
            editor.editing.replaceSelection(with: s)
            return .reply([.bool(true)])
        case "InsertText":
            guard let position = call.int32(at: 0), call.arguments.count == 3, let s = call.arguments[1].stringValue,
                let length = call.int32(at: 2)
            else { return invalid(call) }
            let inserted = length < 0 ? s : String(String.UnicodeScalarView(s.unicodeScalars.prefix(length)))
            editor.editing.moveCaret(to: Self.character(atScalar: position, in: text))
            editor.editing.replaceSelection(with: inserted)
            return .reply([.bool(true)])
        case "DeleteText":
            guard let start = call.int32(at: 0), let end = call.int32(at: 1) else { return invalid(call) }
            editor.editing.moveCaret(to: Self.character(atScalar: start, in: text))
            editor.editing.moveCaret(to: Self.character(atScalar: end < 0 ? Int.max : end, in: text), extending: true)
            editor.editing.replaceSelection(with: "")
            return .reply([.bool(true)])
        default: return .unhandled
        }
    }

    /// `Text`'s properties.
    func textProperty(_ name: String, _ object: Object) -> DBusValue? {
        guard case .element(let node, _, _) = object, let (text, caret, _) = Self.readable(node) else { return nil }
        switch name {
        case "CharacterCount": return .int32(Int32(clamping: text.unicodeScalars.count))
        case "CaretOffset": return .int32(Int32(clamping: Self.scalar(atCharacter: caret, in: text)))
        default: return nil
        }
    }

    /// The code point offset where character `index` starts.
    static func scalar(atCharacter index: Int, in text: String) -> Int {
        text.prefix(max(0, index)).unicodeScalars.count
    }

    /// The character that code point `offset` belongs to (its start, for one inside it).
    static func character(atScalar offset: Int, in text: String) -> Int {
        var scalars = 0
        var characters = 0
        for c in text {
            let next = scalars + c.unicodeScalars.count
            if next > offset { return characters }
            scalars = next
            characters += 1
        }
        return characters
    }
}
