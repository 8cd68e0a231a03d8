import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews
import Testing

/// A label's backing image is as large as its text, not its frame, and shows the same pixels
/// as a frame-sized one would.
@MainActor
@Suite struct LabelImageTests {
    @MainActor
    /// A label that draws into a frame-sized image (what every label did before).
    final class WholeLabel: Label {
        override func drawnRect(scale: Double) -> Rect? { nil }
    }

    @Test(
        arguments: [TextAlignment.left, .center, .right], [1.0, 2.0, 1.5])
    func aLabelsImageIsAsWideAsItsTextAndLooksTheSame(alignment: TextAlignment, scale: Double) throws {
        func render(_ label: Label) throws -> (Canvas, Label) {
            label.text = "Row 12\nA second line"
            label.numberOfLines = 0
            label.textAlignment = alignment
            label.frame = Rect(x: 16.5, y: 10, width: 700, height: 60)
            let window = Window(size: Size(width: 760, height: 90), scale: scale)
            window.addSubview(label)
            let canvas = try Canvas(size: window.bounds.size, scale: scale)
            try window.render(into: canvas)
            return (canvas, label)
        }
        let (cropped, label) = try render(Label())
        let (whole, reference) = try render(WholeLabel())
        let image = try #require(label.backingImage)
        #expect(try #require(reference.backingImage).width == Int(clamping: 700 * scale, rounding: .up))
        #expect(
            image.width > Int(clamping: 90 * scale) && image.width < Int(clamping: 200 * scale),
            "image \(image.width) px wide")
        #expect(image.height <= Int(clamping: 60 * scale, rounding: .up))
        let same = cropped.withPixels { a in whole.withPixels { b in a.elementsEqual(b) } }
        #expect(same)
        // And there is text in it.
        let inked = cropped.withPixels { $0.contains { $0 != 0xFFFF_FFFF } }
        #expect(inked)
    }

    /// A label's alignment is natural by default: Hebrew text sits at the right of the label,
    /// Latin at the left, and the cropped image still shows what a frame-sized one would.
    @Test(arguments: [1.0, 2.0])
    func aHebrewLabelSitsAtTheRight(scale: Double) throws {
        func render(_ label: Label) throws -> Canvas {
            label.text = "\u{5E9}\u{5DC}\u{5D5}\u{5DD} \u{5E2}\u{5D5}\u{5DC}\u{5DD}\nRow 12"
            label.numberOfLines = 0
            label.frame = Rect(x: 20, y: 10, width: 300, height: 60)
            let window = Window(size: Size(width: 340, height: 80), scale: scale)
            window.addSubview(label)
            let canvas = try Canvas(size: window.bounds.size, scale: scale)
            try window.render(into: canvas)
            return canvas
        }
        let canvas = try render(Label())
        let whole = try render(WholeLabel())
        #expect(canvas.withPixels { a in whole.withPixels { b in a.elementsEqual(b) } })
        // Ink columns (logical) of the Hebrew line (top half) and the Latin line (bottom half).
        func ink(rows: Range<Int>) -> ClosedRange<Double>? {
            let w = canvas.width
            var lo = Int.max
            var hi = Int.min
            canvas.withPixels { px in
                for y in rows { for x in 0..<w where px[y * w + x] != 0xFFFF_FFFF { lo = min(lo, x); hi = max(hi, x) } }
            }
            return lo <= hi ? Double(lo) / scale...Double(hi) / scale : nil
        }
        let h = canvas.height
        let hebrew = try #require(ink(rows: 0..<(h / 2)))
        let latin = try #require(ink(rows: (h / 2)..<h))
        #expect(hebrew.upperBound > 310, "Hebrew ink ends at \(hebrew.upperBound)")
        #expect(hebrew.lowerBound > 150, "Hebrew ink starts at \(hebrew.lowerBound)")
        #expect(latin.lowerBound < 25, "Latin ink starts at \(latin.lowerBound)")
    }
}
