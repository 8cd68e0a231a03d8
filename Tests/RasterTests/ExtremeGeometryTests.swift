import ScrollwayGeometry
import ScrollwayRaster
import Testing

/// Geometry at the edges of what pixman's integers hold: drawn, clipped or skipped, never a
/// trap in a conversion (found by a scan of every floating-to-integer conversion).
@Suite struct ExtremeGeometryTests {
    @Test func imagesShrunkOrEnlargedBeyondPixmanAreSkippedNotTrapped() throws {
        let canvas = try Canvas(width: 64, height: 64)
        canvas.clear(.white)
        let image = try Canvas(width: 4096, height: 8)
        image.clear(Color(rgb: 208, 2, 27))
        // 4096 px into a tenth of a pixel: an inverse scale of 40960, beyond 16.16 fixed point.
        canvas.draw(image, in: Rect(x: 10, y: 10, width: 0.1, height: 8))
        // A 1-px image enlarged to a billion: its source origin leaves Int32.
        let dot = try Canvas(width: 1, height: 1)
        dot.clear(Color(rgb: 0, 0, 255))
        canvas.draw(dot, in: Rect(x: -5e9, y: -5e9, width: 1e10, height: 1e10))
        // Shapes far beyond the canvas.
        canvas.fillEllipse(in: Rect(x: -1e15, y: -1e15, width: 2e15, height: 2e15), color: .black)
        canvas.fillRoundedRect(Rect(x: 0, y: 0, width: 1e12, height: 1e12), radius: 1e11, color: .black)
        canvas.fillLinearGradient(
            Rect(x: 0, y: 0, width: 64, height: 64), from: Point(x: -1e9, y: 0), to: Point(x: 1e9, y: 0),
            stops: [(0, .white), (1, .black)])
        // Still a canvas with pixels on it.
        #expect(canvas.pixel(x: 32, y: 32) >> 24 == 0xFF)
        #expect("\(Color(red: .infinity, green: .nan, blue: 2, alpha: 1))" == "rgba(0, 0, 255, 1.0)")
    }

    @Test func aPNGClaimingAMillionPixelsASideIsRefusedBeforeAllocating() throws {
        var png = try PNG.encode(try Canvas(width: 2, height: 2))
        // IHDR's width and height are the big-endian words at bytes 16–23.
        png.replaceSubrange(16..<24, with: [0x00, 0x0F, 0x42, 0x40, 0x00, 0x0F, 0x42, 0x40])
        #expect(throws: (any Error).self) { _ = try PNG.decode(png) }
    }
}
