import Dispatch
import ScrollwayGeometry
import Synchronization
import Testing

@testable import ScrollwayRaster

@Suite struct TextTests {
    let font: Font

    init() throws { font = try Font.system(size: 16) }

    @Test func metricsAndWidthArePlausible() {
        let m = font.metrics()
        #expect(m.ascent > 10 && m.ascent < 20)
        #expect(m.lineHeight >= m.ascent + m.descent - 1)
        let w = font.width(of: "Hello")
        #expect(w > 25 && w < 60)
        #expect(font.width(of: "Hello, World") > w)
        #expect(font.width(of: "") == 0)
    }

    @Test func wrapsToTheWidthAndTruncatesWithAnEllipsis() {
        let text = "The quick brown fox jumps over the lazy dog again and again"
        let wrapped = font.layout(text, maxWidth: 120)
        #expect(wrapped.lines.count > 2)
        #expect(wrapped.lines.allSatisfy { $0.width <= 120 })
        #expect(wrapped.lines.map(\.text).joined(separator: " ") == text)

        let one = font.layout(text, maxWidth: 120, maxLines: 1)
        #expect(one.lines.count == 1)
        #expect(one.lines[0].text.hasSuffix("\u{2026}"))
        #expect(one.lines[0].width <= 120)

        let two = font.layout(text, maxWidth: 120, maxLines: 2)
        #expect(two.lines.count == 2)
        #expect(two.lines[1].text.hasSuffix("\u{2026}"))
    }

    /// A paragraph shaped once serves every layout of the same text (the font keeps it), at any
    /// place in the laid-out text: its characters are counted from where it starts there.
    @Test func aRepeatedParagraphKeepsItsOwnCharacterOffsets() {
        let text = "e\u{301}t\u{E9} ab"  // 6 characters, 7 code points, no digits (those are not kept)
        for prefix in ["", "x", "longer first line", "שלום"] {
            let layout = font.layout(prefix + "\n" + text + "\n" + text)
            let base = prefix.count + 1
            #expect(
                layout.lines.map(\.characterRange) == [0..<prefix.count, base..<(base + 6), (base + 7)..<(base + 13)])
            #expect(layout.lines[1].glyphs == layout.lines[2].glyphs)
            #expect(layout.lines[2].clusters.map(\.characters.lowerBound).sorted().first == base + 7)
            // The same as the text laid out alone, moved by its place.
            let alone = font.layout(text).lines[0]
            #expect(
                layout.lines[2].clusters.map(\.characters)
                    == alone.clusters.map { $0.characters.lowerBound + base + 7..<$0.characters.upperBound + base + 7 })
            #expect(layout.caret(forCharacterOffset: base + 7 + 2).line == 2)
        }
    }

    /// A layout that says another width lays its text out alike is that layout (what lets a
    /// label measured at one width and drawn at another lay its text out once), and says so
    /// where nothing is cut: never once a line wrapped, was shortened or dropped, nor for a
    /// wrapped paragraph ending in spaces (a wrap trims them, no limit keeps them).
    @Test func aLayoutThatNoWidthCutsIsReusedAtAnyWidthThatDoesNotCutIt() {
        let texts = [
            "Row 12", "Row 123\nA second line of text\nand a third", "trailing spaces  ", "שלום עולם",
            "The quick brown fox jumps over the lazy dog", "",
        ]
        let widths: [Double?] = [nil, 30, 80, 160, 400, 1e9]
        var alike = 0
        for text in texts {
            for lines in [0, 1, 2] {
                for w0 in widths {
                    let made = font.layout(text, maxWidth: w0, maxLines: lines)
                    for w1 in widths where made.laysOutAlike(within: w1) {
                        #expect(
                            font.layout(text, maxWidth: w1, maxLines: lines) == made,
                            "\(text) \(lines) \(w0 ?? -1)→\(w1 ?? -1)")
                        alike += 1
                    }
                }
            }
        }
        #expect(alike > 100)
        let rows = font.layout("Row 123\nA second line of text\nand a third", maxWidth: 400)
        #expect(rows.laysOutAlike(within: 300) && rows.laysOutAlike(within: nil) && !rows.laysOutAlike(within: 30))
        #expect(!font.layout("Row 123\nA second line of text", maxWidth: 30).laysOutAlike(within: 400))  // wrapped
        #expect(!font.layout("a\nb\nc", maxLines: 2).laysOutAlike(within: nil))  // a line dropped
        #expect(!font.layout("spaces  ", maxWidth: 400).laysOutAlike(within: nil))  // a wrap trims them
        #expect(font.layout("spaces  ", maxWidth: 400, maxLines: 1).laysOutAlike(within: nil))  // one line keeps them
    }

    /// A paragraph whose whole fits is wrapped into that one line without its break
    /// opportunities worked out: the search over them gives the same lines at every limit,
    /// kerned pairs (AV, Wa, To), trailing and only spaces, right-to-left and marks included,
    /// and the shortcut is taken exactly where the whole fits.
    @Test func aWholeThatFitsWrapsAsTheBreakSearchWraps() throws {
        let f = try font.instance(scale: 1)
        let texts = [
            "AVAVAV WaWa To To.", "The quick brown fox jumps over the lazy dog", "trailing spaces   ", "   ",
            "x", "שלום עולם, and back", "e\u{301}te\u{301} fi ffl", "supercalifragilisticexpialidocious word",
        ]
        var shortcuts = 0
        for text in texts {
            let p = f.paragraph(Substring(text), characterBase: 0, scale: 1)
            let wholeWidth = p.width(p.trimmed(p.all))
            for limit in [0, 1, 5, 20, 40, 80, 120, 200, wholeWidth - 1, wholeWidth, wholeWidth + 1, 10_000] {
                #expect(p.wrap(limit: limit) == p.searchingBreaks(limit: limit), "\(text) at \(limit)")
                if wholeWidth <= limit {
                    #expect(p.wrap(limit: limit) == [p.trimmed(p.all)])
                    shortcuts += 1
                }
            }
        }
        #expect(shortcuts > 20)
    }

    /// Long words broken between clusters wrap as the plain search wraps them (the reference
    /// below: after each forced break it starts again at the cluster after the new line's
    /// start, which made every line of a word cost the rest of the word), and a cluster wider
    /// than the limit is a line of its own.
    @Test func longWordsBreakAsThePlainSearchBreaksThem() throws {
        let f = try font.instance(scale: 1)
        let texts = [
            String(repeating: "x", count: 300), "a " + String(repeating: "mw", count: 120) + " b c",
            String(repeating: "word ", count: 20) + String(repeating: "Q", count: 90) + " end",
            "שלום" + String(repeating: "ש", count: 80) + " x", "e\u{301}" + String(repeating: "e\u{301}", count: 60),
            "漢字かなカナ、漢字。" + String(repeating: "字", count: 40),
        ]
        for text in texts {
            let p = f.paragraph(Substring(text), characterBase: 0, scale: 1)
            for limit in [0, 1, 7, 30, 64, 100, 250] {
                #expect(p.searchingBreaks(limit: limit) == Self.plainSearch(p, limit: limit), "\(text) at \(limit)")
            }
        }
    }

    /// Every mandatory line break ends a line (Unicode's BK, CR, LF and NL: "\r\n" as one
    /// character, a lone "\r", a vertical tab, a form feed, NEL, U+2028, U+2029), and controls
    /// draw nothing but a tab, which draws a space: "\r\n" had been no break, since "\r\n" is
    /// one `Character` and paragraphs were cut at "\n", and the others drew the font's box for
    /// a missing glyph.
    @Test func everyLineBreakEndsALineAndControlsDrawNothing() throws {
        let text = "a\r\nbb\rc\u{0B}d\u{0C}e\u{85}f\u{2028}g\u{2029}h\ni"
        let layout = font.layout(text)
        #expect(layout.lines.map(\.text) == ["a", "bb", "c", "d", "e", "f", "g", "h", "i"])
        // Each break is one character of the text.
        #expect(
            layout.lines.map(\.characterRange) == [
                0..<1, 2..<4, 5..<6, 7..<8, 9..<10, 11..<12, 13..<14, 15..<16, 17..<18,
            ])
        #expect(text.count == 18)
        #expect(Font.paragraphs("x\r\n").map(String.init) == ["x", ""])
        #expect(Font.paragraphs("\u{E2}\u{80}").count == 1)  // â€: the lead bytes alone break nothing
        // A tab is a space's width; other controls none at all.
        #expect(font.width(of: "a\tb") == font.width(of: "a b"))
        #expect(font.width(of: "a\u{1}\u{7F}\u{9B}b") == font.width(of: "ab"))
        let c = try Canvas(width: 60, height: 30)
        c.drawText("\u{1}\u{1B}\u{7F}", font: font, in: Rect(x: 0, y: 0, width: 60, height: 30), color: .black)
        var inked = 0
        for y in 0..<30 { for x in 0..<60 where c.pixel(x: x, y: y) != 0 { inked += 1 } }
        #expect(inked == 0)
    }

    /// A selection's band is where its characters are drawn: across a change of direction a
    /// span per character from carets covered the wrong glyphs ("abc אבג" with only the space
    /// selected lit the whole Hebrew word, whose first caret sits at the line's end) and
    /// covered a whole selection's right-to-left run twice.
    @Test func spansAreWhereTheCharactersAreDrawn() throws {
        let layout = font.layout("abc אבג")
        let width = layout.lines[0].width
        let all = layout.spans(forCharacters: 0..<7, line: 0)
        #expect(all.count == 1 && abs(all[0].left) < 1e-9 && abs(all[0].right - width) < 1e-9, "\(all)")
        let space = layout.spans(forCharacters: 3..<4, line: 0)
        #expect(space.count == 1 && abs(space[0].right - space[0].left - font.width(of: " ")) < 1e-9, "\(space)")
        #expect(abs(space[0].left - layout.caretX(forCharacterOffset: 3)) < 1e-9)
        // א, the Hebrew word's first letter, is drawn at the line's right end.
        let alef = layout.spans(forCharacters: 4..<5, line: 0)
        #expect(alef.count == 1 && abs(alef[0].right - width) < 1e-9, "\(alef)")
        // The space and the whole word: one band from the space to the line's end.
        let across = layout.spans(forCharacters: 3..<7, line: 0)
        #expect(across.count == 1 && abs(across[0].left - space[0].left) < 1e-9, "\(across)")
        #expect(layout.spans(forCharacters: 2..<2, line: 0).isEmpty)
    }

    /// The greedy search as it was written first, correct and slow: the reference.
    static func plainSearch(_ p: ShapedParagraph, limit: Int) -> [Range<Int>] {
        let n = p.clusters.count
        guard n > 0 else { return [p.all] }
        let allowed = LineBreaks.opportunities(p.scalars)
        var lines: [Range<Int>] = []
        var start = 0
        var lastFit: Int?
        var i = 1
        while i <= n {
            if i < n && !allowed[p.clusters[i].scalars.lowerBound] {
                i += 1
                continue
            }
            if p.width(p.trimmed(start..<i)) <= limit {
                lastFit = i
                i += 1
                continue
            }
            if let fit = lastFit {
                lines.append(p.trimmed(start..<fit))
                start = fit
                lastFit = nil
                continue
            }
            var end = start + 1
            while end < i && p.width(start..<(end + 1)) <= limit { end += 1 }
            lines.append(start..<end)
            start = end
            i = start + 1
        }
        if start < n || lines.isEmpty { lines.append(p.trimmed(start..<n)) }
        return lines
    }

    @Test func drawsInsideItsRectOnly() throws {
        let c = try Canvas(width: 200, height: 60)
        let rect = Rect(x: 20, y: 10, width: 60, height: 30)
        c.drawText("Hello, World, and more words", font: font, in: rect, color: .black, maxLines: 1)
        var inked = 0
        for y in 0..<60 {
            for x in 0..<200 where c.pixel(x: x, y: y) != 0 {
                inked += 1
                #expect(rect.contains(Point(x: Double(x), y: Double(y))), "ink at (\(x), \(y)) outside \(rect)")
            }
        }
        #expect(inked > 50)
    }

    @Test func renderingAtScale2UsesTwiceThePixels() throws {
        let w1 = font.width(of: "Scrollway", scale: 1)
        let w2 = font.width(of: "Scrollway", scale: 2)
        // Hinting differs per size, but the logical widths stay within a pixel or two.
        #expect(abs(w1 - w2) < 2)
    }
}

/// Glyph images belong to fcft's instance, which fcft shares between equal patterns; the lock
/// that guards compositing them must be shared the same way (see `GlyphLocks`).
@Suite struct GlyphLockTests {
    @Test func fontsThatFcftSharesShareOneGlyphLock() throws {
        let a = try Font(family: "DejaVu Sans", size: 15)
        let b = try Font(family: "DejaVu Sans", size: 15)
        let doubled = try Font(family: "DejaVu Sans", size: 30)
        let ia = try a.instance(scale: 1)
        let ib = try b.instance(scale: 1)
        // fcft hands both the same instance, so their glyph images are the same images.
        #expect(ia.pointer == ib.pointer)
        #expect(GlyphLocks.lock(for: ia.pointer) === GlyphLocks.lock(for: ib.pointer))
        // 15 px at scale 2 is the pattern of 30 px at scale 1.
        let i2 = try a.instance(scale: 2)
        let i30 = try doubled.instance(scale: 1)
        #expect(i2.pointer == i30.pointer)
        #expect(GlyphLocks.lock(for: i2.pointer) === GlyphLocks.lock(for: i30.pointer))
    }

    @Test func drawingOneFontFromManyThreadsGivesTheSameImages() throws {
        // Separate Font objects with one fcft instance, drawing glyphs no one has drawn yet
        // (size 17.5 is used nowhere else, so each glyph image is still unvalidated): every image
        // must equal the one drawn alone afterwards. A race on pixman's lazy validation would
        // corrupt a glyph or crash.
        // Shaped text too: the combining accent, the ligature and the joined Arabic word are
        // glyph images of fcft text runs, which the cached segments share between threads.
        // Half the threads draw under a clip, which sends the glyphs through pixman (and its
        // lazy validation); the others blend them without pixman, reading the same images.
        let text = "Concurrent glyphs 0123 \u{00E9}\u{00F8}\u{00DF} e\u{301} fi \u{633}\u{644}\u{627}\u{645}"
        let box = Rect(x: 0, y: 0, width: 360, height: 26)
        let results = Mutex<[[UInt32]]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            guard let own = try? Font(family: "DejaVu Sans", size: 17.5),
                let c = try? Canvas(width: 360, height: 26)
            else { return }
            c.fill(box, color: .white)
            if i % 2 == 0 {
                c.withClip([box]) { c.drawText(text, font: own, in: box, color: .black) }
            } else {
                c.drawText(text, font: own, in: box, color: .black)
            }
            let px = c.withPixels { Array($0) }
            results.withLock { $0.append(px) }
        }
        let reference = try Canvas(width: 360, height: 26)
        reference.fill(box, color: .white)
        reference.drawText(text, font: try Font(family: "DejaVu Sans", size: 17.5), in: box, color: .black)
        let expected = reference.withPixels { Array($0) }
        #expect(expected.contains { $0 != expected[0] })  // something was drawn
        let all = results.withLock { $0 }
        #expect(all.count == 8)
        #expect(all.allSatisfy { $0 == expected })
    }
}
