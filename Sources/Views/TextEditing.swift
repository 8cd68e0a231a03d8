import ScrollwayGestures

/// An editor's text, caret, selection and input-method preedit, and the rules that change
/// them: the one copy of the editing logic that a text field and a text view share, and the
/// platform-neutral half of the system keyboard (zwp_text_input_v3 on Wayland), kept apart from
/// drawing and from the protocol so that offscreen tests pin it down.
///
/// The caret counts characters (what the arrow keys step over); the input method counts UTF-8
/// bytes, so every byte offset it sends is moved onto a character boundary here, never into the
/// middle of one.
public struct TextEditing: Equatable, Sendable {
    public var text: String
    /// The caret, in characters: the moving end of the selection.
    public var caret: Int
    /// The selection's fixed end, in characters: the caret itself when nothing is selected.
    public var anchor: Int
    /// The composing text shown at the caret, not part of `text` until committed.
    public var preedit = ""
    /// The caret inside the preedit (bytes of it), nil when hidden.
    public var preeditCursor: TextInputUpdate.ClosedByteRange?

    public init(text: String = "", caret: Int? = nil) {
        self.text = text
        self.caret = min(max(0, caret ?? text.count), text.count)
        self.anchor = self.caret
    }

    /// The text as shown: the preedit, while composing, at the caret.
    public var shownText: String {
        guard !preedit.isEmpty else { return text }
        let chars = Array(text)
        return String(chars[..<caret]) + preedit + String(chars[caret...])
    }

    /// Where text index `i` is in the shown text (past the caret, the preedit comes first).
    public func shownIndex(_ i: Int) -> Int { i > caret ? i + preedit.count : i }

    /// The text index for shown index `i` (`shownIndex`'s inverse; inside the preedit: the caret).
    public func textIndex(forShown i: Int) -> Int {
        if i <= caret { return i }
        return i < caret + preedit.count ? caret : i - preedit.count
    }

    /// Characters of the preedit before its byte offset `bytes`.
    public func preeditCharacters(beforeByte bytes: Int) -> Int {
        String(decoding: preedit.utf8.prefix(bytes), as: UTF8.self).count
    }

    /// The caret in the shown text: inside the preedit at its cursor while composing.
    public var shownCaret: Int {
        guard !preedit.isEmpty else { return caret }
        return caret + preeditCharacters(beforeByte: preeditCursor?.begin ?? preedit.utf8.count)
    }

    /// The selected characters (empty: a plain caret).
    public var selection: Range<Int> { min(anchor, caret)..<max(anchor, caret) }
    public var selectedText: String { String(Array(text)[selection]) }

    /// Moves the caret to `index` (clamped); `extending` keeps the anchor (Shift held), else
    /// the selection collapses onto the caret.
    public mutating func moveCaret(to index: Int, extending: Bool = false) {
        caret = min(max(0, index), text.count)
        if !extending { anchor = caret }
    }

    /// Puts the text and caret back inside each other after `text` was set from outside.
    public mutating func clamp() {
        caret = min(max(0, caret), text.count)
        anchor = min(max(0, anchor), text.count)
    }

    /// Types `s`: it replaces the selection, and the caret follows it.
    public mutating func replaceSelection(with s: String) {
        let chars = Array(text)
        let r = selection
        let head = String(chars[..<r.lowerBound])
        text = head + s + String(chars[r.upperBound...])
        // Counted on the result: typed text that starts with a combining mark joins the
        // character before it.
        moveCaret(to: characterIndex(atByte: head.utf8.count + s.utf8.count, roundingUp: true))
    }

    /// Backspace: the selection, else the character before the caret.
    public mutating func deleteBackward() {
        if selection.isEmpty { anchor = max(0, caret - 1) }
        replaceSelection(with: "")
    }

    /// Delete: the selection, else the character after the caret.
    public mutating func deleteForward() {
        if selection.isEmpty { anchor = min(text.count, caret + 1) }
        replaceSelection(with: "")
    }

    /// Ctrl+A: the caret at the end, the anchor at the start.
    public mutating func selectAll() {
        anchor = 0
        caret = text.count
    }

    /// Drops the input method's composing text (never part of the text until committed).
    public mutating func cancelPreedit() {
        preedit = ""
        preeditCursor = nil
    }

    /// Applies one input-method update in zwp_text_input_v3's order: (1) the old preedit goes,
    /// (2) `deleteBefore`/`deleteAfter` bytes around the caret are deleted, (3) the commit string
    /// goes in with the caret after it, (4) the surrounding text is what remains, (5, 6) the new
    /// preedit shows at the caret with its own cursor.
    ///
    /// A selection goes first when the update types or composes (as typing replaces it); an
    /// update that only deletes collapses it onto the caret and deletes around that.
    public mutating func apply(_ update: TextInputUpdate) {
        preedit = ""
        preeditCursor = nil
        if !selection.isEmpty && (!update.commit.isEmpty || !update.preedit.isEmpty) { replaceSelection(with: "") }
        anchor = caret
        if update.deleteBefore > 0 || update.deleteAfter > 0 {
            let caretByte = byteOffset(ofCharacter: caret)
            anchor = characterIndex(atByte: caretByte - max(0, update.deleteBefore), roundingUp: false)
            caret = characterIndex(atByte: caretByte + max(0, update.deleteAfter), roundingUp: true)
            replaceSelection(with: "")
        }
        if !update.commit.isEmpty { replaceSelection(with: update.commit) }
        guard !update.preedit.isEmpty else { return }
        preedit = update.preedit
        if let c = update.preeditCursor, c.begin >= 0, c.end >= 0 {
            let n = update.preedit.utf8.count
            preeditCursor = .init(begin: min(c.begin, n), end: min(max(c.begin, c.end), n))
        }
    }

    /// The UTF-8 offset of the character boundary before character `index`.
    public func byteOffset(ofCharacter index: Int) -> Int {
        text.prefix(max(0, index)).utf8.count
    }

    /// The character whose boundary is at `byte`; a byte inside a character rounds down (or up).
    public func characterIndex(atByte byte: Int, roundingUp: Bool) -> Int {
        guard byte > 0 else { return 0 }
        var bytes = 0
        for (i, ch) in text.enumerated() {
            let next = bytes + ch.utf8.count
            if next > byte { return roundingUp && byte > bytes ? i + 1 : i }
            bytes = next
        }
        return text.count
    }

    /// The most bytes of surrounding text one set_surrounding_text may carry (the protocol's
    /// limit: a Wayland message holds 4096 bytes, header and the other arguments included).
    public static let surroundingLimit = 4000

    /// The surrounding text an input method is told of: the whole text when it fits in `limit`
    /// bytes, else a window of it centred on the caret and cut at character boundaries, with the
    /// caret's and the selection anchor's byte offsets inside what is sent (an anchor outside
    /// the window is pulled to its edge). The preedit is not part of it, as the protocol says.
    public func surrounding(limit: Int = surroundingLimit) -> (text: String, cursor: Int, anchor: Int) {
        let total = text.utf8.count
        let caretByte = byteOffset(ofCharacter: caret)
        let anchorByte = byteOffset(ofCharacter: anchor)
        guard total > limit else { return (text, caretByte, anchorByte) }
        var lo = max(0, caretByte - limit / 2)
        lo = min(lo, total - limit)
        let first = characterIndex(atByte: lo, roundingUp: true)
        let last = characterIndex(atByte: byteOffset(ofCharacter: first) + limit, roundingUp: false)
        let chars = Array(text)
        let window = String(chars[first..<max(first, last)])
        let base = byteOffset(ofCharacter: first)
        let cursor = caretByte - base
        return (window, cursor, min(max(0, anchorByte - base), window.utf8.count))
    }
}
