import Geometry
import Raster
import Testing

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
