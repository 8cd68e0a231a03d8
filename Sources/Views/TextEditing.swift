import ScrollwayGestures
import ScrollwayRaster

/// An editor's text, caret, selection and input-method preedit, and the rules that change
/// them: the one copy of the editing logic that a text field and a text view share, and the
/// platform-neutral half of the system keyboard (zwp_text_input_v3 on Wayland), kept apart from
/// drawing and from the protocol so that offscreen tests pin it down.
///
/// The caret counts characters (what the arrow keys step over); the input method counts UTF-8
/// bytes, so every byte offset it sends is moved onto a character boundary here, never into the
/// middle of one.
///
/// Swift finds a character offset by walking the characters before it, so the model keeps where
/// its caret is in `text` and how many characters `text` has (`Memo`) and walks only from
/// there: an edit, a caret move or a field's window costs the characters it covers, not the
/// whole text (docs/decisions.md, "Typing into long text"). Setting `text` from outside counts
/// it afresh and puts the caret and anchor back inside it.
///
/// Every public setter keeps the caret and the anchor inside the text: an app sets them as it
/// likes, and an edit after a caret set past the end had walked off the text and trapped.
public struct TextEditing: Equatable, Sendable {
    /// Set from outside, the caret and anchor are clamped to the new text (`clamp()`).
    public var text: String {
        get { storedText }
        set {
            storedText = newValue
            memo = nil
            clamp()
        }
    }
    private var storedText: String
    /// The caret, in characters: the moving end of the selection. Set, it is clamped to the
    /// text (0...`characterCount`) and the anchor stays.
    public var caret: Int {
        get { storedCaret }
        set { storedCaret = min(max(0, newValue), characterCount) }
    }
    /// The selection's fixed end, in characters: the caret itself when nothing is selected.
    /// Set, it is clamped to the text.
    public var anchor: Int {
        get { storedAnchor }
        set { storedAnchor = min(max(0, newValue), characterCount) }
    }
    private var storedCaret: Int
    private var storedAnchor: Int
    /// A character offset into `text` with its index, and `text`'s character count, as the
    /// mutating methods last left them (setting `text` from outside counts it afresh).
    private struct Memo: Sendable {
        var offset: Int
        var index: String.Index
        var count: Int
    }
    private var memo: Memo?

    /// The same text, caret, selection and preedit (what the memo knows is not compared). The
    /// texts byte for byte: an edit that turns "é" into "e" + U+0301 (equal to `String`'s `==`)
    /// changes the glyphs shown, so a view told nothing changed would keep the old ones.
    public static func == (a: TextEditing, b: TextEditing) -> Bool {
        a.caret == b.caret && a.anchor == b.anchor && a.preeditCursor == b.preeditCursor
            && a.preedit.isLiterally(b.preedit) && a.text.isLiterally(b.text)
    }
    /// The composing text shown at the caret, not part of `text` until committed.
    public var preedit = ""
    /// The caret inside the preedit (bytes of it), nil when hidden.
    public var preeditCursor: TextInputUpdate.ClosedByteRange?

    public init(text: String = "", caret: Int? = nil) {
        storedText = text
        let count = text.count
        storedCaret = min(max(0, caret ?? count), count)
        storedAnchor = storedCaret
        memo = Memo(offset: count, index: text.endIndex, count: count)
    }

    /// How many characters `text` has (from the memo when it holds).
    public var characterCount: Int { memo?.count ?? text.count }

    /// The index of character `i` (clamped to the text), walked from the memo's offset when it
    /// is nearer than the start.
    func index(ofCharacter i: Int) -> String.Index {
        let i = max(0, i)
        guard let m = memo else {
            return text.index(text.startIndex, offsetBy: i, limitedBy: text.endIndex) ?? text.endIndex
        }
        if i >= m.count { return text.endIndex }
        if i < m.offset - i { return text.index(text.startIndex, offsetBy: i) }
        return text.index(m.index, offsetBy: i - m.offset)
    }

    /// Remembers where the caret is and how many characters there are (`count`, or counted).
    private mutating func remember(count: Int? = nil) {
        let count = count ?? characterCount
        if memo == nil { memo = Memo(offset: count, index: text.endIndex, count: count) }
        memo = Memo(offset: caret, index: index(ofCharacter: caret), count: count)
    }

    /// The text as shown: the preedit, while composing, at the caret.
    public var shownText: String {
        guard !preedit.isEmpty else { return text }
        let at = index(ofCharacter: caret)
        return String(text[..<at]) + preedit + text[at...]
    }

    /// How many characters the shown text has (the text's and the preedit's).
    public var shownCount: Int { characterCount + preedit.count }

    /// The shown text's characters in `range` (clamped to it), made from the text and the
    /// preedit without building the whole shown text: the part of a long text a one-line field
    /// shows.
    public func shownText(in range: Range<Int>) -> String {
        func slice(_ r: Range<Int>) -> Substring {
            let lo = index(ofCharacter: r.lowerBound)
            let hi = text.index(lo, offsetBy: max(0, r.count), limitedBy: text.endIndex) ?? text.endIndex
            return text[lo..<hi]
        }
        guard !preedit.isEmpty else { return String(slice(range)) }
        let p = preedit.count
        let before = range.clamped(to: 0..<caret)
        let inside = range.clamped(to: caret..<(caret + p))
        let after = range.clamped(to: (caret + p)..<Int.max)
        let composing = preedit.dropFirst(inside.lowerBound - caret).prefix(inside.count)
        return String(slice(before)) + composing + slice((after.lowerBound - p)..<(after.upperBound - p))
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
    public var selectedText: String {
        let lo = index(ofCharacter: selection.lowerBound)
        return String(text[lo..<(text.index(lo, offsetBy: selection.count, limitedBy: text.endIndex) ?? text.endIndex)])
    }

    /// Moves the caret to `index` (clamped); `extending` keeps the anchor (Shift held), else
    /// the selection collapses onto the caret.
    public mutating func moveCaret(to index: Int, extending: Bool = false) {
        storedCaret = min(max(0, index), characterCount)
        if !extending { storedAnchor = caret }
        remember()
    }

    /// Puts the caret and anchor back inside the text and remembers where the caret is (setting
    /// `text` does it).
    public mutating func clamp() {
        let count = characterCount
        storedCaret = min(max(0, caret), count)
        storedAnchor = min(max(0, anchor), count)
        remember(count: count)
    }

    /// Types `s`: it replaces the selection, and the caret follows it. Only the selection, `s`
    /// and the characters next to them are walked: the character before may take in what is
    /// typed (a combining mark joins it), and what is typed may take in the ones after.
    public mutating func replaceSelection(with s: String) {
        let r = selection
        let count = characterCount
        let lo = index(ofCharacter: r.lowerBound)
        let hi = text.index(lo, offsetBy: r.count, limitedBy: text.endIndex) ?? text.endIndex
        let from = r.lowerBound > 0 ? text.index(before: lo) : lo
        let fromCharacter = max(0, r.lowerBound - 1)
        let fromByte = text.utf8.distance(from: text.startIndex, to: from)
        let tailBytes = text.utf8.distance(from: hi, to: text.endIndex)
        // The end of the tail's first few characters, in bytes before the text's end: past
        // them, the tail's characters are what they were.
        var settled = hi
        var settledCharacters = 0
        while settled < text.endIndex && settledCharacters < 4 {
            settled = text.index(after: settled)
            settledCharacters += 1
        }
        let settledBytes = text.utf8.distance(from: settled, to: text.endIndex)
        storedText.replaceSubrange(lo..<hi, with: s)
        // Counted on the result: the caret after what was typed, rounding up into a character
        // it joined.
        let typedEnd = text.utf8.index(text.utf8.endIndex, offsetBy: -tailBytes)
        var i = text.utf8.index(text.utf8.startIndex, offsetBy: fromByte)
        var k = fromCharacter
        while i < typedEnd {
            i = text.index(after: i)
            k += 1
        }
        let settledEnd = text.utf8.index(text.utf8.endIndex, offsetBy: -settledBytes)
        let newCount = k + text[i..<max(i, settledEnd)].count + (count - r.upperBound - settledCharacters)
        storedCaret = k
        storedAnchor = k
        memo = Memo(offset: k, index: i, count: newCount)
    }

    /// Backspace: the selection, else the character before the caret.
    public mutating func deleteBackward() {
        if selection.isEmpty { storedAnchor = max(0, caret - 1) }
        replaceSelection(with: "")
    }

    /// Delete: the selection, else the character after the caret.
    public mutating func deleteForward() {
        if selection.isEmpty { storedAnchor = min(characterCount, caret + 1) }
        replaceSelection(with: "")
    }

    /// Where Ctrl+Left takes the caret from `index`: back over what is not a word, then to the
    /// start of the word there (0 when there is none), as GTK's and Qt's fields do.
    public func wordStart(before index: Int) -> Int {
        var i = min(max(0, index), characterCount)
        var at = self.index(ofCharacter: i)
        var inWord = false
        while i > 0 {
            let previous = text.index(before: at)
            let c = text[previous]
            let joins =
                inWord && Self.joinsWords(c) && previous > text.startIndex
                && Self.isWordCharacter(text[text.index(before: previous)])
            if Self.isWordCharacter(c) || joins {
                inWord = true
            } else if inWord {
                break
            }
            at = previous
            i -= 1
        }
        return i
    }

    /// Where Ctrl+Right takes the caret from `index`: over what is not a word, then to the end
    /// of the word there (the text's end when there is none).
    public func wordEnd(after index: Int) -> Int {
        let count = characterCount
        var i = min(max(0, index), count)
        var at = self.index(ofCharacter: i)
        var inWord = false
        while i < count {
            let c = text[at]
            let next = text.index(after: at)
            let joins = inWord && Self.joinsWords(c) && next < text.endIndex && Self.isWordCharacter(text[next])
            if Self.isWordCharacter(c) || joins {
                inWord = true
            } else if inWord {
                break
            }
            at = next
            i += 1
        }
        return i
    }

    /// Letters, digits, marks and connectors (`_`) make words; a character is a word's when
    /// its first code point is one of those.
    public static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
            .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation:
            return true
        default: return false
        }
    }

    static func isWordCharacter(_ c: Character) -> Bool { c.unicodeScalars.first.map(isWordScalar) ?? false }

    /// An apostrophe or a hyphen between two word characters joins them into one word:
    /// "don't", "e-mail".
    public static func joinsWords(_ c: Character) -> Bool { ["'", "\u{2019}", "-", "\u{2010}"].contains(c) }

    /// Ctrl+A: the caret at the end, the anchor at the start.
    public mutating func selectAll() {
        storedAnchor = 0
        storedCaret = characterCount
        remember()
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
        storedAnchor = caret
        if update.deleteBefore > 0 || update.deleteAfter > 0 {
            let caretByte = byteOffset(ofCharacter: caret)
            storedAnchor = characterIndex(atByte: caretByte - max(0, update.deleteBefore), roundingUp: false)
            storedCaret = characterIndex(atByte: caretByte + max(0, update.deleteAfter), roundingUp: true)
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
        text.utf8.distance(from: text.startIndex, to: self.index(ofCharacter: index))
    }

    /// The character whose boundary is at `byte`; a byte inside a character rounds down (or up).
    /// Walked from the memo's offset when the byte is past it, else from the start.
    public func characterIndex(atByte byte: Int, roundingUp: Bool) -> Int {
        guard byte > 0 else { return 0 }
        guard byte < text.utf8.count else { return characterCount }
        let target = text.utf8.index(text.utf8.startIndex, offsetBy: byte)
        var (k, i) = (0, text.startIndex)
        if let m = memo, m.index <= target { (k, i) = (m.offset, m.index) }
        while i < target {
            let next = text.index(after: i)
            if next > target { return roundingUp ? k + 1 : k }
            i = next
            k += 1
        }
        return k
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
        let firstIndex = index(ofCharacter: first)
        let lastIndex =
            text.index(firstIndex, offsetBy: max(0, last - first), limitedBy: text.endIndex) ?? text.endIndex
        let window = String(text[firstIndex..<lastIndex])
        let base = byteOffset(ofCharacter: first)
        let cursor = caretByte - base
        return (window, cursor, min(max(0, anchorByte - base), window.utf8.count))
    }
}
