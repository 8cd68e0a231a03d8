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
        #expect(try #require(reference.backingImage).width == Int((700 * scale).rounded(.up)))
        #expect(image.width > Int(90 * scale) && image.width < Int(200 * scale), "image \(image.width) px wide")
        #expect(image.height <= Int((60 * scale).rounded(.up)))
        let same = cropped.withPixels { a in whole.withPixels { b in a.elementsEqual(b) } }
        #expect(same)
        // And there is text in it.
        let inked = cropped.withPixels { $0.contains { $0 != 0xFFFF_FFFF } }
        #expect(inked)
    }
}
