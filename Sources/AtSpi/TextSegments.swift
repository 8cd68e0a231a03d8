import ScrollwayViews

/// The pieces of a text a screen reader reads by, in AT-SPI's terms (`org.a11y.atspi.Text`'s
/// `GetTextAtOffset`, `GetTextBeforeOffset`, `GetTextAfterOffset` and `GetStringAtOffset`),
/// over code point offsets. Orca reads a word as the caret moves by word, a sentence for
/// say-all, a line as it moves by line; each asks for the piece at, before or after an offset.
///
/// A boundary type cuts the text at positions, and the piece at an offset runs from the last
/// cut at or before it to the next cut (ATK's and at-spi2-core's definition):
/// - `char`: between every two code points.
/// - `wordStart`: where each word begins, so a piece is a word and the spaces after it;
///   `wordEnd`: where each word ends, so a piece is the spaces before a word and the word.
/// - `sentenceStart`: where each sentence begins (a piece keeps the spaces after it);
///   `sentenceEnd`: where each ends (a piece starts with the spaces before it).
/// - `lineStart`: after each line break (a piece ends with its break); `lineEnd`: at each
///   break (a piece begins with the previous line's). Lines are the text's own (its breaks:
///   a line feed, "\r\n", and every other a text view breaks at), not where it wraps.
///
/// A word is what Ctrl+Left and Ctrl+Right step over in a field (`TextEditing.wordStart`): a
/// run of letters, digits and marks, with an apostrophe or a hyphen inside it ("don't",
/// "e-mail"). A sentence ends after `.`, `!`, `?` or `…` (and any closing quotes or
/// brackets after them) that whitespace or the end follows, and at a line break.
public struct TextSegments: Sendable {
    /// AT-SPI's `AtspiTextBoundaryType`, in its order.
    public enum Boundary: UInt32, Sendable, CaseIterable {
        case char = 0, wordStart, wordEnd, sentenceStart, sentenceEnd, lineStart, lineEnd
    }

    /// AT-SPI's `AtspiTextGranularity` (`GetStringAtOffset`), in its order.
    public enum Granularity: UInt32, Sendable, CaseIterable {
        case char = 0, word, sentence, line, paragraph
    }

    /// A piece: its code point range.
    public typealias Piece = Range<Int>

    let scalars: [Unicode.Scalar]

    /// A text's pieces are found as a call asks for them (one boundary a call), not all made
    /// for every call.
    public init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// The line breaks, in order: where each begins and where the line after it does ("\r\n"
    /// is one break of two code points). Every break a text view breaks a line at
    /// (`Character.isNewline`: "\n", "\r", a vertical tab, a form feed, NEL, U+2028, U+2029).
    private var lineBreaks: [(start: Int, end: Int)] {
        var breaks: [(start: Int, end: Int)] = []
        var i = 0
        while i < scalars.count {
            if Self.isLineBreak(scalars[i]) {
                let crlf = scalars[i] == "\r" && i + 1 < scalars.count && scalars[i + 1] == "\n"
                breaks.append((i, i + (crlf ? 2 : 1)))
                i += crlf ? 2 : 1
            } else {
                i += 1
            }
        }
        return breaks
    }

    /// Whether a code point is (or begins) a line break.
    static func isLineBreak(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// The number of code points.
    public var count: Int { scalars.count }

    /// The text of `piece`.
    public func text(_ piece: Piece) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[piece.clamped(to: 0..<count)])
        return String(view)
    }

    /// Where `boundary` cuts the text, ascending, 0 and the end among them.
    func cuts(_ boundary: Boundary) -> [Int] {
        let inner: [Int]
        switch boundary {
        case .char: return Array(0...count)
        case .wordStart: inner = Self.words(in: scalars).map(\.lowerBound)
        case .wordEnd: inner = Self.words(in: scalars).map(\.upperBound)
        case .sentenceStart: inner = Self.sentences(in: scalars).map(\.lowerBound)
        case .sentenceEnd: inner = Self.sentences(in: scalars).map(\.upperBound)
        case .lineStart: inner = lineBreaks.map(\.end)
        case .lineEnd: inner = lineBreaks.map(\.start)
        }
        var cuts = [0]
        for c in inner where c > cuts.last! && c < count { cuts.append(c) }
        if count > 0 { cuts.append(count) }
        return cuts
    }

    /// The index of the piece holding `offset` among the pieces `cuts` makes: an offset at the
    /// end (or past it) is in the last piece, except where the text ends with a cut that
    /// begins an empty last piece (the line after a final line feed).
    private func pieceIndex(_ offset: Int, _ cuts: [Int], _ boundary: Boundary) -> Int {
        let o = min(max(0, offset), count)
        // The last cut at or before o.
        var lo = 0
        var hi = cuts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if cuts[mid] <= o { lo = mid } else { hi = mid - 1 }
        }
        if lo == cuts.count - 1 && lo > 0 {
            let emptyLastLine = boundary == .lineStart && scalars.last.map(Self.isLineBreak) == true
            return emptyLastLine || boundary == .char ? lo : lo - 1
        }
        return lo
    }

    private func piece(_ index: Int, _ cuts: [Int]) -> Piece {
        guard index >= 0 else { return 0..<0 }
        guard index + 1 < cuts.count else { return count..<count }
        return cuts[index]..<cuts[index + 1]
    }

    /// The piece `boundary` makes around `offset` (`GetTextAtOffset`).
    public func piece(at offset: Int, _ boundary: Boundary) -> Piece {
        let cuts = cuts(boundary)
        return piece(pieceIndex(offset, cuts, boundary), cuts)
    }

    /// The piece before the one around `offset` (`GetTextBeforeOffset`); empty at 0 before the
    /// first.
    public func piece(before offset: Int, _ boundary: Boundary) -> Piece {
        let cuts = cuts(boundary)
        return piece(pieceIndex(offset, cuts, boundary) - 1, cuts)
    }

    /// The piece after the one around `offset` (`GetTextAfterOffset`); empty at the end after
    /// the last.
    public func piece(after offset: Int, _ boundary: Boundary) -> Piece {
        let cuts = cuts(boundary)
        return piece(pieceIndex(offset, cuts, boundary) + 1, cuts)
    }

    /// `GetStringAtOffset`, as AtkTextGranularity defines it and GTK 4 answers: the character
    /// at `offset`; a word from its start (the one at or before the offset) to the next word's
    /// start, the spaces after it included; a sentence the same way; a line or a paragraph
    /// (a line feed ends both) with its line feed.
    public func string(at offset: Int, _ granularity: Granularity) -> Piece {
        switch granularity {
        case .char: return piece(at: offset, .char)
        case .word: return piece(at: offset, .wordStart)
        case .sentence: return piece(at: offset, .sentenceStart)
        case .line, .paragraph: return piece(at: offset, .lineStart)
        }
    }

    static func words(in scalars: [Unicode.Scalar]) -> [Range<Int>] {
        var words: [Range<Int>] = []
        var i = 0
        while i < scalars.count {
            guard TextEditing.isWordScalar(scalars[i]) else {
                i += 1
                continue
            }
            let start = i
            while i < scalars.count {
                if TextEditing.isWordScalar(scalars[i]) {
                    i += 1
                } else if TextEditing.joinsWords(Character(scalars[i])), i + 1 < scalars.count,
                    TextEditing.isWordScalar(scalars[i + 1])
                {
                    i += 2
                } else {
                    break
                }
            }
            words.append(start..<i)
        }
        return words
    }

    static func sentences(in scalars: [Unicode.Scalar]) -> [Range<Int>] {
        func isSpace(_ s: Unicode.Scalar) -> Bool { s.properties.isWhitespace }
        let terminal: Set<Unicode.Scalar> = [".", "!", "?", "\u{2026}", "\u{3002}", "\u{FF01}", "\u{FF1F}"]
        let closing: Set<Unicode.Scalar> = ["\"", "'", ")", "]", "}", "\u{201D}", "\u{2019}", "\u{00BB}"]
        var sentences: [Range<Int>] = []
        var i = 0
        while i < scalars.count {
            while i < scalars.count && isSpace(scalars[i]) { i += 1 }
            guard i < scalars.count else { break }
            let start = i
            var end = scalars.count
            while i < scalars.count {
                let s = scalars[i]
                if Self.isLineBreak(s) {
                    end = i
                    break
                }
                if terminal.contains(s) {
                    var j = i + 1
                    while j < scalars.count && (terminal.contains(scalars[j]) || closing.contains(scalars[j])) {
                        j += 1
                    }
                    if j == scalars.count || isSpace(scalars[j]) {
                        end = j
                        i = j
                        break
                    }
                    i = j
                    continue
                }
                i += 1
            }
            // Trailing spaces before a line feed are not the sentence's.
            var e = min(end, scalars.count)
            while e > start && isSpace(scalars[e - 1]) { e -= 1 }
            sentences.append(start..<e)
            if end < scalars.count && Self.isLineBreak(scalars[end]) { i = end + 1 } else { i = max(i, end) }
        }
        return sentences
    }
}
