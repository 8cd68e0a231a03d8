import ScrollwayDBus
import ScrollwayGeometry
import ScrollwayRaster
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
        case "GetTextAtOffset", "GetTextBeforeOffset", "GetTextAfterOffset":
            guard call.arguments.count == 2, let offset = call.int32(at: 0), case .uint32(let kind) = call.arguments[1],
                let boundary = TextSegments.Boundary(rawValue: kind)
            else { return invalid(call) }
            let segments = TextSegments(text)
            let piece =
                switch call.member {
                case "GetTextBeforeOffset": segments.piece(before: offset, boundary)
                case "GetTextAfterOffset": segments.piece(after: offset, boundary)
                default: segments.piece(at: offset, boundary)
                }
            return Self.reply(piece, in: segments)
        case "GetStringAtOffset":
            guard call.arguments.count == 2, let offset = call.int32(at: 0), case .uint32(let kind) = call.arguments[1],
                let granularity = TextSegments.Granularity(rawValue: kind)
            else { return invalid(call) }
            let segments = TextSegments(text)
            return Self.reply(segments.string(at: offset, granularity), in: segments)
        case "GetDefaultAttributes", "GetDefaultAttributeSet":
            return .reply([Self.attributeDictionary(Self.attributes(node))])
        case "GetAttributes", "GetAttributeRun":
            // One run: the text has one style throughout. Without defaults (a run's own
            // attributes, the second argument false) there are none.
            guard let offset = call.int32(at: 0) else { return invalid(call) }
            let count = text.unicodeScalars.count
            let withDefaults = call.member == "GetAttributes" || call.arguments.last == .bool(true)
            guard (0...count).contains(offset) else {
                return .reply([Self.attributeDictionary([]), .int32(-1), .int32(-1)])
            }
            return .reply([
                Self.attributeDictionary(withDefaults ? Self.attributes(node) : []), .int32(0),
                .int32(Int32(clamping: count)),
            ])
        case "GetAttributeValue":
            guard call.arguments.count == 2, let name = call.arguments[1].stringValue else { return invalid(call) }
            return .reply([.string(Self.attributes(node).first { $0.0 == name }?.1 ?? "")])
        case "GetCharacterExtents", "GetRangeExtents":
            // Where characters are drawn (window coordinates, or the parent element's): a
            // magnifier follows the caret by them. Nothing known (a label's text, characters a
            // long field does not show): all zeros, as GTK answers.
            let one = call.member == "GetCharacterExtents"
            guard call.arguments.count == (one ? 2 : 3), let start = call.int32(at: 0),
                case .uint32(let type) = call.arguments.last
            else { return invalid(call) }
            let end = one ? start + 1 : (call.int32(at: 1) ?? start)
            var box: Rect?
            if let editor = Self.editor(node), start < end {
                let first = Self.character(atScalar: start, in: text)
                let last = Self.character(atScalar: end - 1, in: text)
                for i in first...max(first, min(last, first + 4096)) {
                    guard let r = editor.characterRect(at: i) else { continue }
                    let shown = editor.convert(r, to: nil)
                    box = box.map { $0.union(shown) } ?? shown
                }
            }
            return .reply(
                box.map { Self.rectangle($0, inCoordinates: type, for: node) } ?? Array(repeating: .int32(0), count: 4))
        case "GetOffsetAtPoint":
            guard call.arguments.count == 3, let x = call.int32(at: 0), let y = call.int32(at: 1),
                case .uint32(let type) = call.arguments[2]
            else { return invalid(call) }
            let origin = Self.origin(ofCoordinates: type, for: node)
            let p = Point(x: Double(x) + origin.x, y: Double(y) + origin.y)
            guard let editor = Self.editor(node), node.frame.contains(p) else { return .reply([.int32(-1)]) }
            // The character the point is on (its right half too), not the caret gap nearest it.
            let local = editor.convert(p, from: nil)
            var index = editor.textIndex(at: local)
            if index > 0, let box = editor.characterRect(at: index - 1), box.minX <= local.x, local.x < box.maxX,
                box.minY <= local.y, local.y < box.maxY
            {
                index -= 1
            }
            return .reply([.int32(Int32(clamping: Self.scalar(atCharacter: index, in: text)))])
        case "AddSelection", "SetSelection":
            // One selection at most: adding one replaces it, as GTK's single-selection text does.
            let first = call.member == "SetSelection" ? 1 : 0
            guard call.arguments.count == first + 2, let start = call.int32(at: first),
                let end = call.int32(at: first + 1)
            else { return invalid(call) }
            if call.member == "SetSelection", call.int32(at: 0) != 0 { return .reply([.bool(false)]) }
            guard let editor = Self.editor(node) else { return .reply([.bool(false)]) }
            editor.editing.moveCaret(to: Self.character(atScalar: max(0, start), in: text))
            editor.editing.moveCaret(to: Self.character(atScalar: end < 0 ? Int.max : end, in: text), extending: true)
            return .reply([.bool(true)])
        case "RemoveSelection":
            guard let number = call.int32(at: 0) else { return invalid(call) }
            guard number == 0, let editor = Self.editor(node), !editor.editing.selection.isEmpty else {
                return .reply([.bool(false)])
            }
            editor.editing.moveCaret(to: editor.editing.caret)
            return .reply([.bool(true)])
        default: return .unhandled
        }
    }

    /// A piece of text as `Text`'s methods answer it: the string, its start and its end.
    static func reply(_ piece: TextSegments.Piece, in segments: TextSegments) -> DBusAnswer {
        .reply([
            .string(segments.text(piece)), .int32(Int32(clamping: piece.lowerBound)),
            .int32(Int32(clamping: piece.upperBound)),
        ])
    }

    /// The text's attributes in ATK's names (what Orca reads with "read attributes" and checks
    /// words with): the font's family, its size in points (at 96 px an inch, as GTK reports
    /// it) and its weight.
    static func attributes(_ node: AccessibilityNode) -> [(String, String)] {
        let font = (node.view as? Label)?.font ?? editor(node)?.font ?? Font.standard
        guard let font else { return [] }
        let points = font.size * 0.75
        let size = Int(exactly: points).map(String.init) ?? String(points)
        let weight = font.attributes.contains("bold") ? "700" : "400"
        return [("family-name", font.family), ("size", size), ("weight", weight)]
    }

    static func attributeDictionary(_ entries: [(String, String)]) -> DBusValue {
        .array(element: "{ss}", entries.map { .dictEntry(.string($0.0), .string($0.1)) })
    }

    func editableText(_ call: DBusCall, _ object: Object) -> DBusAnswer {
        guard case .element(let node, _, _) = object, let editor = Self.editor(node) else { return .unhandled }
        // A disabled field is not edited, by a reader either.
        if !node.states.contains(.enabled), ["SetTextContents", "InsertText", "DeleteText"].contains(call.member) {
            return .reply([.bool(false)])
        }
        let text = editor.editing.text
        // A reader's edit of a field without the focus is told at once (the focused field's
        // changes are told after the frame, whatever made them).
        defer {
            if !editor.isFocused, Self.differ(editor.editing.text, text) {
                textChanged(on: editor, from: text, to: editor.editing.text)
            }
        }
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
