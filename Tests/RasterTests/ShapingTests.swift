import ScrollwayGeometry
import Testing

@testable import ScrollwayRaster

/// Shaped text through fcft's HarfBuzz text runs, drawn offscreen with DejaVu Sans (Latin,
/// Hebrew and Arabic; fonts-dejavu-core), against the same text drawn one code point at a time
/// (`Shaping.character`, what Scrollway drew before shaping).
@Suite struct ShapingTests {
    let font: Font
    let unshaped: Font

    init() throws {
        font = try Font.system(size: 24)
        unshaped = try Font(family: "DejaVu Sans", size: 24, shaping: .character)
    }

    /// The text drawn black on white, left-aligned (or as `alignment` says) in a box.
    func pixels(_ text: String, font: Font, width: Int = 200, alignment: TextAlignment = .left) throws -> [UInt32] {
        let c = try Canvas(width: width, height: 40)
        let box = Rect(x: 0, y: 0, width: Double(width), height: 40)
        c.fill(box, color: .white)
        c.drawText(font.layout(text, scale: 1), font: font, in: box, color: .black, alignment: alignment)
        return c.withPixels { Array($0) }
    }

    /// The columns that have ink, in a canvas `width` wide.
    func inkedColumns(_ pixels: [UInt32], width: Int) -> ClosedRange<Int>? {
        let columns = pixels.indices.filter { pixels[$0] != 0xFFFF_FFFF }.map { $0 % width }
        guard let lo = columns.min(), let hi = columns.max() else { return nil }
        return lo...hi
    }

    @Test func theBestShapingIsTextRunsOnDebian12() {
        // Debian 12's libfcft4 (3.1.5) is built with HarfBuzz and utf8proc.
        #expect(Shaping.best == .textRun)
    }

    @Test func aCombiningAccentDrawsLikeThePrecomposedLetter() throws {
        let combining = try pixels("Caf" + "e\u{301}", font: font)
        let precomposed = try pixels("Caf\u{E9}", font: font)
        let different = zip(combining, precomposed).filter { $0 != $1 }.count
        #expect(different <= 4, "\(different) pixels differ")
        #expect(font.width(of: "Caf" + "e\u{301}") == font.width(of: "Caf\u{E9}"))
        // One code point at a time the accent is fcft's spacing-less mark drawn after the "e",
        // not where the font's precomposed letter has it.
        let naive = try pixels("Caf" + "e\u{301}", font: unshaped)
        #expect(zip(naive, precomposed).filter { $0 != $1 }.count > 10)
    }

    @Test func anArabicWordIsJoined() throws {
        let word = "\u{633}\u{644}\u{627}\u{645}"  // سلام
        let joined = try pixels(word, font: font)
        let isolated = try pixels(word, font: unshaped)
        #expect(zip(joined, isolated).filter { $0 != $1 }.count > 50)
        // Joined forms (and the lam-alef ligature) are narrower than the isolated letters.
        let shapedWidth = font.width(of: word)
        let isolatedWidth = unshaped.width(of: word)
        #expect(shapedWidth > 10)
        #expect(shapedWidth < isolatedWidth - 4, "joined \(shapedWidth), isolated \(isolatedWidth)")
        // And it reads right to left: the first letter (seen) is at the right end.
        let layout = font.layout(word)
        #expect(layout.lines[0].isRightToLeft)
        #expect(layout.caretX(forCharacterOffset: 0) == layout.lines[0].width)
        #expect(layout.caretX(forCharacterOffset: 4) == 0)
    }

    @Test func aHebrewLineStartsAtTheRight() throws {
        let text = "\u{5E9}\u{5DC}\u{5D5}\u{5DD} \u{5E2}\u{5D5}\u{5DC}\u{5DD}"  // שלום עולם
        let layout = font.layout(text)
        #expect(layout.lines[0].isRightToLeft)
        let natural = try pixels(text, font: font, width: 400, alignment: .natural)
        let ink = try #require(inkedColumns(natural, width: 400))
        #expect(ink.upperBound >= 395, "ink ends at \(ink.upperBound)")
        #expect(ink.lowerBound > 200, "ink starts at \(ink.lowerBound)")
        // Left to right text with natural alignment stays at the left.
        let latin = try #require(
            inkedColumns(try pixels("Shalom", font: font, width: 400, alignment: .natural), width: 400))
        #expect(latin.lowerBound < 5)
        // The first word (shin…) is the rightmost: its caret is right of the second word's.
        #expect(layout.caretX(forCharacterOffset: 0) > layout.caretX(forCharacterOffset: 5))
    }

    @Test func latinInARightToLeftParagraphKeepsItsOrder() {
        // "שלום abc": a right-to-left paragraph with a left-to-right run at its (visual) left.
        let layout = font.layout("\u{5E9}\u{5DC}\u{5D5}\u{5DD} abc")
        #expect(layout.lines[0].isRightToLeft)
        let a = layout.caretX(forCharacterOffset: 5)
        let b = layout.caretX(forCharacterOffset: 6)
        let c = layout.caretX(forCharacterOffset: 7)
        let shin = layout.caretX(forCharacterOffset: 0)
        #expect(a < b && b < c, "abc left to right: \(a) \(b) \(c)")
        #expect(c < shin)
    }

    /// A paragraph's direction is its first strong letter's outside any isolate (UAX #9 rules
    /// P2–P3), left to right when it has none.
    @Test func aParagraphsDirectionIsItsFirstStrongLetters() {
        #expect(TextDirection.of("123 \u{5E9}\u{5DC}\u{5D5}\u{5DD} abc") == .rightToLeft)
        #expect(TextDirection.of("«abc» \u{5E9}") == .leftToRight)
        #expect(TextDirection.of("\u{627}\u{644}") == .rightToLeft)  // Arabic letters (AL)
        // An isolate's letters do not count (RLI … PDI around Latin, then Hebrew), nor an
        // unclosed one's.
        #expect(TextDirection.of("\u{2067}abc\u{2069}\u{5E9}") == .rightToLeft)
        #expect(TextDirection.of("\u{2068}\u{5E9}") == .leftToRight)
        #expect(TextDirection.of("") == .leftToRight && TextDirection.firstStrong(in: "12 + 3") == nil)
        #expect(TextDirection.firstStrong(in: "12 é") == .leftToRight)
    }

    /// A paragraph given a direction is laid out in it, whatever its own first letter: Latin in a
    /// right-to-left paragraph (a wrapped line of a Hebrew one) keeps its order, with the
    /// paragraph's closing "!" at its left, and the line says it runs right to left.
    @Test func aParagraphGivenADirectionRunsInIt() {
        let natural = font.layout("abc!")
        let given = font.layout("abc!", direction: .rightToLeft)
        #expect(!natural.lines[0].isRightToLeft && given.lines[0].isRightToLeft)
        let a = given.caretX(forCharacterOffset: 0)
        let c = given.caretX(forCharacterOffset: 2)
        let bang = given.spans(forCharacters: 3..<4, line: 0)
        let abc = given.spans(forCharacters: 0..<3, line: 0)
        #expect(a < c, "abc left to right: \(a) \(c)")
        #expect(bang.count == 1 && abc.count == 1 && bang[0].right <= abc[0].left + 1e-9, "\(bang) \(abc)")
        #expect(
            natural.spans(forCharacters: 3..<4, line: 0)[0].left >= natural.spans(forCharacters: 0..<3, line: 0)[0]
                .right - 1e-9)
        // Hebrew made to run left to right: its letters keep their right-to-left order inside.
        let hebrew = font.layout("\u{5E9}\u{5DC}", direction: .leftToRight)
        #expect(!hebrew.lines[0].isRightToLeft)
        #expect(hebrew.caretX(forCharacterOffset: 0) > hebrew.caretX(forCharacterOffset: 1))
        // Its own direction given is the cached, natural layout.
        let same = font.layout("\u{5E9}\u{5DC}", direction: .rightToLeft)
        #expect(same.lines == font.layout("\u{5E9}\u{5DC}").lines)
    }

    @Test func bracketsInRightToLeftTextAreMirrored() throws {
        // "שלום (abc)": the brackets take the paragraph's direction (rule N0) and are drawn
        // mirrored (L4), so the visual line reads "(abc) שלום": "(" leftmost, shin rightmost.
        let layout = font.layout("\u{5E9}\u{5DC}\u{5D5}\u{5DD} (abc)")
        let instance = try font.instance(scale: 1)
        let glyphs = layout.lines[0].glyphs.sorted { $0.x < $1.x }
        #expect(glyphs.first?.pix == instance.glyph("(")?.pointee.pix)
        #expect(glyphs.last?.pix == instance.glyph("\u{5E9}")?.pointee.pix)
        #expect(glyphs.contains { $0.pix == instance.glyph(")")?.pointee.pix })
    }

    @Test func latinTextIsDrawnAsItWasUnshaped() throws {
        // Without ligatures, shaping leaves every glyph alone: the same pixels and widths as one
        // code point at a time, with fcft's hinted advances and kerning ("AV", "Wa", "To").
        let text = "AVATAR Water, Tokyo 12:30"
        let shaped = try pixels(text, font: font, width: 400)
        let naive = try pixels(text, font: unshaped, width: 400)
        #expect(zip(shaped, naive).filter { $0 != $1 }.count == 0)
        #expect(font.width(of: text) == unshaped.width(of: text))
    }

    /// Kerning between printable ASCII characters is kept once asked (text is shaped in
    /// segments, and every segment edge asks again): a pair asked in any order, once or again,
    /// gets fcft's value, at two scales of one font.
    @Test func keptKerningIsFcftsKerning() throws {
        let ascii = (0x20...0x7E).compactMap(Unicode.Scalar.init)
        for scale in [1.0, 2.0] {
            let instance = try font.instance(scale: scale)
            var kerned = 0
            for left in ascii.reversed() {
                for right in ascii {
                    let expected = instance.fcftKerning(left, right)
                    let first = instance.kerning(left, right)
                    let again = instance.kerning(left, right)
                    let other = instance.kerning(right, left)
                    #expect(first == expected && again == expected, "\(left)\(right) at \(scale)")
                    #expect(other == instance.fcftKerning(right, left), "\(right)\(left) at \(scale)")
                    if expected != 0 { kerned += 1 }
                }
            }
            // DejaVu Sans kerns many pairs ("AV", "To", "Wa"), more of them at twice the size.
            #expect(kerned > 50, "\(kerned) kerned pairs at \(scale)")
            #expect(instance.kerning("A", "V") < 0)
        }
    }

    @Test func ligaturesAreShaped() throws {
        // DejaVu Sans has "fi" and "ffl" ligatures.
        let shaped = try pixels("fifflo", font: font)
        let naive = try pixels("fifflo", font: unshaped)
        #expect(zip(shaped, naive).filter { $0 != $1 }.count > 10)
    }

    @Test func theCaretStepsOverACombiningMark() {
        let layout = font.layout("e\u{301}x")
        let e = font.width(of: "\u{E9}")
        #expect(layout.caretX(forCharacterOffset: 0) == 0)
        #expect(layout.caretX(forCharacterOffset: 1) == e)
        #expect(layout.caretX(forCharacterOffset: 2) == layout.lines[0].width)
        #expect(layout.caretX(forCharacterOffset: 9) == layout.lines[0].width)
    }

    @Test func theCacheTellsCanonicallyEquivalentTextsApart() throws {
        let instance = try font.instance(scale: 1)
        let precomposed = instance.segment(Array("Caf\u{E9}".unicodeScalars))
        let combining = instance.segment(Array(("Caf" + "e\u{301}").unicodeScalars))
        #expect(precomposed !== combining)
        #expect(precomposed.clusters.last?.scalars == 3..<4)
        #expect(combining.clusters.last?.scalars == 3..<5)
    }

    @Test func shapedWordsAreCachedPerFontInstance() throws {
        let instance = try font.instance(scale: 1)
        let first = instance.segment(Array("Scrolling".unicodeScalars))
        _ = font.layout("Scrolling lists")
        #expect(instance.segment(Array("Scrolling".unicodeScalars)) === first)
        // A layout holds the shaped segments it draws.
        let layout = font.layout("Scrolling lists")
        #expect(layout.lines[0].segments.contains { $0 === first })
    }

    /// One ASCII code point (a digit, a space) is found by code point, not by hashing an array,
    /// and is the segment every layout of it uses; a line holds its segments in the order its
    /// clusters use them, and an ellipsis it ends in.
    @Test func singleCodePointsAreCachedByCodePoint() throws {
        let instance = try font.instance(scale: 1)
        let seven = instance.segment(ascii: "7")
        #expect(instance.segment(ascii: "7") === seven)
        #expect(seven.clusters.count == 1 && seven.clusters[0].nominal == "7")
        let line = font.layout("Row 77 of 7").lines[0]
        let space = instance.segment(ascii: " ")
        let expected =
            [instance.segment(Array("Row".unicodeScalars)), space, seven, seven, space]
            + [instance.segment(Array("of".unicodeScalars)), space, seven]
        #expect(line.segments.count == expected.count)
        #expect(zip(line.segments, expected).allSatisfy { $0 === $1 })
        let cut = font.layout("Row 77 of 7 and more words", maxWidth: 60, maxLines: 1).lines[0]
        #expect(cut.text.hasSuffix("\u{2026}"))
        let shown = cut.text.dropLast()
        #expect(!shown.isEmpty && "Row 77 of 7 and more words".hasPrefix(shown))
        #expect(cut.characterRange == 0..<shown.count)
        #expect(cut.segments.last === instance.segment(Array("\u{2026}".unicodeScalars)))
    }

    /// Paragraphs are cut at every line break, as `split` at `Character.isNewline` with empty
    /// pieces kept cuts them ("\r\n" is one `Character`, and one break).
    @Test func paragraphsAreCutAtEveryLineBreak() {
        for text in [
            "", "a", "\n", "a\n", "\na", "a\n\nb", "Row 1\nA second line\nand a third", "é\nשלום\n\n", "\r\n\r\n",
            "a\r\nb\n\rc", "\r", "\n\r", "\r\r\n", "é\r\n", "\n\n\n", "a\u{85}b\u{2028}\u{2029}c\u{0B}\u{0C}",
            "\u{2027}\u{202A}\u{C2}\u{84}", "x\u{E2}\u{80}",
        ] {
            #expect(
                Font.paragraphs(text) == text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline),
                "\(Array(text.unicodeScalars))")
        }
    }
}

@Suite struct LineBreakTests {
    let font: Font

    init() throws { font = try Font.system(size: 16) }

    func breaks(_ text: String) -> [Int] {
        let scalars = Array(text.unicodeScalars)
        return LineBreaks.opportunities(scalars).indices.filter { LineBreaks.opportunities(scalars)[$0] }
    }

    /// Lines of `text` wrapped just wide enough for `fits` (and not for `fits` plus more).
    func wrapped(_ text: String, toFit fits: String) -> [String] {
        font.layout(text, maxWidth: font.width(of: fits) + 0.5).lines.map(\.text)
    }

    @Test func opportunities() {
        #expect(breaks("ab cd") == [3])
        #expect(breaks("well-known") == [5])
        #expect(breaks("a -5") == [2])  // after the space; not between "-" and "5"
        #expect(breaks("foo\u{200B}bar") == [4])
        #expect(breaks("Stop !") == [])
        #expect(breaks("(a) b") == [4])
        #expect(breaks("a\u{A0}b c") == [4])  // no break at a no-break space
        #expect(breaks("\u{6F22}\u{5B57}\u{304B}\u{306A}") == [1, 2, 3])  // 漢字かな
        #expect(breaks("\u{6F22}\u{3002}\u{5B57}") == [2])  // never before 。
        #expect(breaks("\u{300C}\u{6F22}\u{300D}\u{5B57}") == [3])  // 「漢」字: not after 「, not before 」
        #expect(breaks("\u{30AB}\u{30FC}\u{30C9}") == [2])  // カード: not before ー
    }

    @Test func wrapsAfterAHyphen() {
        #expect(wrapped("well-known words", toFit: "well-kno") == ["well-", "known", "words"])
    }

    @Test func wrapsAtAZeroWidthSpace() {
        let lines = wrapped("alpha\u{200B}beta", toFit: "alphabe")
        #expect(lines.count == 2)
        #expect(lines.last == "beta")
    }

    @Test func neverBreaksBeforeClosingPunctuation() {
        // Not even after a space (French puts one before "!"), nor after an ideograph.
        #expect(wrapped("go now !", toFit: "go now") == ["go", "now !"])
        #expect(wrapped("\u{6F22}\u{5B57}\u{3002}", toFit: "\u{6F22}\u{5B57}") == ["\u{6F22}", "\u{5B57}\u{3002}"])
    }

    @Test func wrapsBetweenIdeographs() {
        // DejaVu has no CJK: fcft draws its missing-glyph box, which still has an advance.
        let text = "\u{6F22}\u{5B57}\u{6F22}\u{5B57}"
        let one = font.width(of: "\u{6F22}")
        try? #require(one > 0)
        let lines = font.layout(text, maxWidth: one * 2 + 0.5).lines.map(\.text)
        #expect(lines == ["\u{6F22}\u{5B57}", "\u{6F22}\u{5B57}"])
    }

    @Test func aLongWordBreaksBetweenGraphemeClustersOnly() {
        let word = String(repeating: "e\u{301}", count: 12)
        let lines = font.layout(word, maxWidth: font.width(of: "\u{E9}\u{E9}\u{E9}") + 0.5).lines
        #expect(lines.count == 4)
        for line in lines {
            #expect(line.text.unicodeScalars.first == "e")
            #expect(line.text.count == 3)
        }
    }
}
