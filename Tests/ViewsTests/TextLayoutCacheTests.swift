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
}
