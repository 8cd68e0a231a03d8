import Testing

@testable import ScrollwayRaster

/// A font's recent whole layouts (`RecentLayouts`): what it keeps, what it lets go of, and
/// that a kept layout is the one laying the text out again would make.
@Suite struct RecentLayoutsTests {
    /// A fresh font, so no other test's layouts are in its cache.
    let font: Font

    init() throws { font = try Font.system(size: 17) }

    func kept(_ text: String, limit: Int? = nil, maxLines: Int = 0, scale: Double = 1) -> TextLayout? {
        let key = RecentLayouts.Key(text: text, limit: limit, maxLines: maxLines, scale: scale, direction: .natural)
        return font.recentLayouts.withLock { $0.layout(for: key) }
    }

    /// Laid out again, a text comes back as it was made, under its exact limit, line count and
    /// scale only; a width that maps to the same device pixels is the same limit.
    @Test func aTextLaidOutAgainIsTheLayoutItWasMadeAs() throws {
        let text = "Row 1234\nA second line of text"
        let first = font.layout(text, maxWidth: 300.4, scale: 1)
        #expect(kept(text, limit: 300) == first)
        #expect(font.layout(text, maxWidth: 300.9, scale: 1) == first)
        #expect(font.recentLayouts.withLock { $0.count } == 1)
        // Another limit, line count or scale is another layout.
        let narrow = font.layout(text, maxWidth: 60, scale: 1)
        #expect(narrow.lines.count > first.lines.count)
        #expect(font.layout(text, maxWidth: 300.4, maxLines: 1, scale: 1).lines.count == 1)
        let doubled = font.layout(text, maxWidth: 300.4, scale: 2)
        #expect(doubled.scale == 2)
        #expect(font.recentLayouts.withLock { $0.count } == 4)
        // What a font with an empty cache makes of each.
        let fresh = try Font.system(size: 17)
        #expect(fresh.layout(text, maxWidth: 60, scale: 1) == narrow)
        #expect(fresh.layout(text, maxWidth: 300.4, scale: 2) == doubled)
    }

    /// "é" as one code point and as "e" + U+0301 are equal Strings but different text: each
    /// gets its own layout, with its own glyphs.
    @Test func canonicallyEquivalentTextsAreLaidOutApart() {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed)
        let a = font.layout(composed, scale: 1)
        let b = font.layout(decomposed, scale: 1)
        #expect(font.recentLayouts.withLock { $0.count } == 2)
        #expect(a.lines[0].text.unicodeScalars.count == 4)
        #expect(b.lines[0].text.unicodeScalars.count == 5)
        #expect(kept(decomposed)?.lines[0].text.unicodeScalars.count == 5)
    }

    /// Full, each new layout lets the oldest go, one for one, and a hit moves nothing; a text
    /// longer than `longestText` is laid out but not kept.
    @Test func theOldestGoesFirstOneForOne() throws {
        var cache = RecentLayouts(capacity: 3)
        let layouts = (0..<5).map { font.layout("Row \($0)", scale: 1) }
        func key(_ i: Int) -> RecentLayouts.Key {
            RecentLayouts.Key(text: "Row \(i)", limit: nil, maxLines: 0, scale: 1, direction: .natural)
        }
        for i in 0..<3 { #expect(cache.insert(layouts[i], for: key(i)) == nil) }
        // A hit moves nothing.
        #expect(cache.layout(for: key(0)) == layouts[0])
        #expect(cache.insert(layouts[3], for: key(3)) == layouts[0])
        #expect(cache.layout(for: key(0)) == nil)
        #expect(cache.insert(layouts[4], for: key(4)) == layouts[1])
        #expect(cache.count == 3)
        #expect((2...4).allSatisfy { cache.layout(for: key($0)) == layouts[$0] })
        // Stored again (two threads at once): one entry with two places in the order; the
        // first lets it go, the second then finds nothing.
        #expect(cache.insert(layouts[4], for: key(4)) == layouts[2])
        #expect(cache.count == 2)
        #expect(cache.insert(layouts[0], for: key(0)) == layouts[3])
        #expect(cache.insert(layouts[1], for: key(1)) == layouts[4])
        #expect(cache.count == 2)
        #expect(cache.insert(layouts[2], for: key(2)) == nil)
        #expect(cache.count == 3)
        #expect((0...2).allSatisfy { cache.layout(for: key($0)) == layouts[$0] })

        let long = String(repeating: "word ", count: RecentLayouts.longestText / 5 + 1)
        #expect(!RecentLayouts.keeps(long))
        let before = font.recentLayouts.withLock { $0.count }
        #expect(font.layout(long, maxWidth: 200, scale: 1).lines.count > 1)
        #expect(font.recentLayouts.withLock { $0.count } == before)
    }
}
