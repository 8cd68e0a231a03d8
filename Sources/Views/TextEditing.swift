import ScrollwayGestures

/// A one-line editor's text, caret and input-method preedit, and the rules that change them:
/// the platform-neutral half of the system keyboard (zwp_text_input_v3 on Wayland), kept apart
/// from drawing and from the protocol so that offscreen tests pin it down.
///
/// The caret counts characters (what the arrow keys step over); the input method counts UTF-8
/// bytes, so every byte offset it sends is moved onto a character boundary here, never into the
/// middle of one.
public struct TextEditing: Equatable, Sendable {
    public var text: String
    /// The caret, in characters.
    public var caret: Int
    /// The composing text shown at the caret, not part of `text` until committed.
    public var preedit = ""
    /// The caret inside the preedit (bytes of it), nil when hidden.
    public var preeditCursor: TextInputUpdate.ClosedByteRange?

    public init(text: String = "", caret: Int? = nil) {
        self.text = text
        self.caret = min(max(0, caret ?? text.count), text.count)
    }

    /// Applies one input-method update in zwp_text_input_v3's order: (1) the old preedit goes,
    /// (2) `deleteBefore`/`deleteAfter` bytes around the caret are deleted, (3) the commit string
    /// goes in with the caret after it, (4) the surrounding text is what remains, (5, 6) the new
    /// preedit shows at the caret with its own cursor.
    public mutating func apply(_ update: TextInputUpdate) {
        preedit = ""
        preeditCursor = nil
        let caretByte = byteOffset(ofCharacter: caret)
        if update.deleteBefore > 0 || update.deleteAfter > 0 {
            let start = characterIndex(atByte: caretByte - max(0, update.deleteBefore), roundingUp: false)
            let end = characterIndex(atByte: caretByte + max(0, update.deleteAfter), roundingUp: true)
            let chars = Array(text)
            text = String(chars[..<start]) + String(chars[end...])
            caret = start
        }
        if !update.commit.isEmpty {
            let chars = Array(text)
            text = String(chars[..<caret]) + update.commit + String(chars[caret...])
            // Counted on the result: a commit that starts with a combining mark joins the
            // character before it.
            caret = characterIndex(atByte: byteOffset(ofCharacter: caret) + update.commit.utf8.count, roundingUp: true)
        }
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
    /// caret's byte offset inside what is sent (the anchor is the caret: a field has no
    /// selection). The preedit is not part of it, as the protocol says.
    public func surrounding(limit: Int = surroundingLimit) -> (text: String, cursor: Int, anchor: Int) {
        let total = text.utf8.count
        let caretByte = byteOffset(ofCharacter: caret)
        guard total > limit else { return (text, caretByte, caretByte) }
        var lo = max(0, caretByte - limit / 2)
        lo = min(lo, total - limit)
        let first = characterIndex(atByte: lo, roundingUp: true)
        let last = characterIndex(atByte: byteOffset(ofCharacter: first) + limit, roundingUp: false)
        let chars = Array(text)
        let window = String(chars[first..<max(first, last)])
        let cursor = caretByte - byteOffset(ofCharacter: first)
        return (window, cursor, cursor)
    }
}
