import ScrollwayAtSpi
import Testing

/// The pieces `org.a11y.atspi.Text` answers with, against ATK's definitions: a piece runs from
/// the last cut at or before the offset to the next cut, for boundaries and granularities alike. Orca read "d" for the word at 16 of "hello brave world"
/// (one character for every word, sentence and paragraph) before these.
@Suite struct TextSegmentsTests {
    let text = TextSegments("Hello brave world. Don't stop!  Next\nSecond e-mail line\n")

    func at(_ offset: Int, _ boundary: TextSegments.Boundary) -> String { text.text(text.piece(at: offset, boundary)) }

    @Test func piecesAtAnOffsetForEachBoundary() {
        #expect(at(16, .char) == "d")
        #expect(at(16, .wordStart) == "world. ")
        #expect(at(16, .wordEnd) == " world")
        #expect(at(3, .wordStart) == "Hello ")
        #expect(at(4, .wordEnd) == "Hello")
        #expect(at(5, .wordEnd) == " brave")  // the cut after "Hello" begins the next piece
        #expect(at(6, .wordEnd) == " brave")
        #expect(at(20, .wordStart) == "Don't ")  // an apostrophe inside a word is the word's
        #expect(at(3, .sentenceStart) == "Hello brave world. ")
        #expect(at(19, .sentenceStart) == "Don't stop!  ")
        #expect(at(19, .sentenceEnd) == " Don't stop!")
        #expect(at(33, .sentenceStart) == "Next\n")
        #expect(at(3, .lineStart) == "Hello brave world. Don't stop!  Next\n")
        #expect(at(40, .lineStart) == "Second e-mail line\n")
        #expect(at(40, .lineEnd) == "\nSecond e-mail line")
        #expect(text.piece(at: 56, .lineStart) == 56..<56)  // the empty line after the last line feed
        #expect(text.piece(at: 56, .char) == 56..<56)
    }

    /// Lines end at every break a text view breaks at, "\r\n" one break of two code points:
    /// only line feeds cut lines, so a reader read "one\rtwo" or a line separator's two lines as
    /// one, and a sentence ran over the break.
    @Test func everyLineBreakCutsLines() {
        let t = TextSegments("one\r\ntwo\rthree\u{2028}four\u{85}five")
        func at(_ offset: Int, _ boundary: TextSegments.Boundary) -> String { t.text(t.piece(at: offset, boundary)) }
        #expect(at(1, .lineStart) == "one\r\n")
        #expect(at(5, .lineStart) == "two\r")
        #expect(at(6, .lineEnd) == "\r\ntwo")
        #expect(at(10, .lineStart) == "three\u{2028}")
        #expect(at(17, .lineStart) == "four\u{85}")
        #expect(at(23, .lineStart) == "five")
        #expect(at(10, .sentenceStart) == "three\u{2028}")
        #expect(t.piece(at: 24, .lineStart) == 20..<24)
        #expect(TextSegments("a\u{2029}").piece(at: 2, .lineStart) == 2..<2)  // the empty line after
    }

    @Test func piecesBeforeAndAfter() {
        #expect(text.text(text.piece(before: 16, .wordStart)) == "brave ")
        #expect(text.text(text.piece(after: 16, .wordStart)) == "Don't ")
        #expect(text.piece(before: 2, .wordStart) == 0..<0)
        #expect(text.text(text.piece(after: 3, .lineStart)) == "Second e-mail line\n")
        #expect(text.text(text.piece(before: 40, .sentenceStart)) == "Next\n")
        #expect(text.piece(after: 56, .lineStart) == 56..<56)
    }

    /// GetStringAtOffset as AtkTextGranularity defines it (GTK 4's answers): from the start of
    /// the word, sentence or line at or before the offset to the next one's start.
    @Test func stringsAtAnOffsetForEachGranularity() {
        func string(_ offset: Int, _ g: TextSegments.Granularity) -> String { text.text(text.string(at: offset, g)) }
        #expect(string(16, .char) == "d")
        #expect(string(16, .word) == "world. ")
        #expect(string(17, .word) == "world. ")  // between words: the one before, with what follows it
        #expect(string(44, .word) == "e-mail ")
        #expect(string(20, .sentence) == "Don't stop!  ")
        #expect(string(3, .line) == "Hello brave world. Don't stop!  Next\n")
        #expect(string(40, .paragraph) == "Second e-mail line\n")
        #expect(text.string(at: 56, .line) == 56..<56)
        #expect(TextSegments("  lead").string(at: 0, .word) == 0..<2)  // the spaces before the first word
    }

    @Test func emptyAndOutOfRangeOffsets() {
        let empty = TextSegments("")
        for b in TextSegments.Boundary.allCases {
            #expect(empty.piece(at: 0, b) == 0..<0)
            #expect(empty.piece(before: 0, b) == 0..<0 && empty.piece(after: 0, b) == 0..<0)
        }
        for g in TextSegments.Granularity.allCases { #expect(empty.string(at: 5, g) == 0..<0) }
        let word = TextSegments("word")
        #expect(word.piece(at: -3, .wordStart) == 0..<4 && word.piece(at: 99, .wordStart) == 0..<4)
        #expect(word.piece(at: 99, .char) == 4..<4)
    }
}
