import ScrollwayGeometry
import ScrollwayRaster
import Testing

@testable import ScrollwayViews

/// A view's last few text layouts: what it keeps, and what it gives back.
@Suite struct TextLayoutCacheTests {
    /// Full, a new layout takes the slot of the one made longest ago, and a hit changes
    /// nothing: a label measured and then drawn keeps the row it shows.
    @Test func aNewLayoutReplacesTheOldestAndHitsKeepTheirPlaces() throws {
        let font = try #require(Font.standard)
        var cache = TextLayoutCache(capacity: 2)
        func lay(_ text: String, _ width: Double? = nil) -> TextLayout {
            cache.layout(text, font: font, maxWidth: width, maxLines: 0, scale: 1)
        }
        _ = lay("Row 1")
        _ = lay("Row 2")
        #expect(cache.texts == ["Row 1", "Row 2"])
        // A hit, measured without a width and drawn at one the text fits in.
        #expect(lay("Row 1", 300) == font.layout("Row 1", maxWidth: nil, maxLines: 0, scale: 1))
        #expect(cache.texts == ["Row 1", "Row 2"])
        _ = lay("Row 3")
        #expect(cache.texts == ["Row 3", "Row 2"])
        _ = lay("Row 4")
        #expect(cache.texts == ["Row 3", "Row 4"])
        _ = lay("Row 5")
        #expect(cache.texts == ["Row 5", "Row 4"])
        // A width that cuts the text is another layout, made and kept.
        let narrow = lay("Row 5 and a longer tail", 40)
        #expect(narrow == font.layout("Row 5 and a longer tail", maxWidth: 40, maxLines: 0, scale: 1))
        #expect(narrow.lines.count > 1)
        #expect(cache.texts == ["Row 5", "Row 5 and a longer tail"])
        cache.removeAll()
        #expect(cache.texts.isEmpty)
        _ = lay("Row 6")
        _ = lay("Row 7")
        _ = lay("Row 8")
        #expect(cache.texts == ["Row 8", "Row 7"])
    }

    /// Canonically equivalent texts ("é" and "e" + U+0301, equal Strings) are different bytes
    /// and different glyphs: the cache lays each out, and gives neither for the other.
    @Test func canonicallyEquivalentTextsAreLaidOutApart() throws {
        let font = try #require(Font.standard)
        var cache = TextLayoutCache(capacity: 2)
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed)
        let a = cache.layout(composed, font: font, maxWidth: nil, maxLines: 1, scale: 1)
        let b = cache.layout(decomposed, font: font, maxWidth: nil, maxLines: 1, scale: 1)
        #expect(a.lines[0].text.unicodeScalars.count == 4)
        #expect(b.lines[0].text.unicodeScalars.count == 5)
        #expect(cache.texts.map { $0.unicodeScalars.count } == [4, 5])
    }

    /// A label given a canonically equivalent text draws it: the text's bytes changed, and so do
    /// its glyphs. The same bytes again draw nothing.
    @MainActor
    @Test func aLabelGivenACanonicallyEquivalentTextDrawsIt() throws {
        let label = Label(text: "caf\u{E9}", frame: Rect(x: 0, y: 0, width: 200, height: 30))
        let window = Window(size: Size(width: 200, height: 30), scale: 1)
        window.addSubview(label)
        let canvas = try Canvas(size: window.bounds.size, scale: 1)
        try window.render(into: canvas)
        #expect(label.textLayout(scale: 1)?.lines[0].text.unicodeScalars.count == 4)
        label.text = "caf\u{E9}"
        #expect(!label.needsDisplay)
        label.text = "cafe\u{301}"
        #expect(label.needsDisplay)
        try window.render(into: canvas)
        #expect(label.textLayout(scale: 1)?.lines[0].text.unicodeScalars.count == 5)
    }
}
