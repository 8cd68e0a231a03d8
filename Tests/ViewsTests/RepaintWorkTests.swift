import ScrollwayGeometry
import ScrollwayRaster
import Testing

@testable import ScrollwayViews

/// What a recentred buffer costs to composite again against copying it
/// (`Window.repaintWork`, `CompositeWork.bytesMoved`): bytes per pixel as `Canvas.Traffic`
/// weighs them, on a window whose every part is known.
@MainActor
@Suite struct RepaintWorkTests {
    /// A 400×300 window (opaque white clear colour): an opaque grey row across the top
    /// 100 px, a 50×20 image at (10, 10) on it, a half-transparent band across y 200–250.
    func makeWindow() throws -> Window {
        let window = Window(size: Size(width: 400, height: 300))
        let row = View(frame: Rect(x: 0, y: 0, width: 400, height: 100))
        row.backgroundColor = Color(rgb: 128, 128, 128)
        row.addSubview(CountingView(frame: Rect(x: 10, y: 10, width: 50, height: 20), color: BoundsScene.red))
        let band = View(frame: Rect(x: 0, y: 200, width: 400, height: 50))
        band.backgroundColor = BoundsScene.blue.withAlpha(0.5)
        window.addSubview(row)
        window.addSubview(band)
        try window.prepareFrame()  // draws the image
        return window
    }

    func canvas(streaming: Bool) throws -> Canvas {
        let canvas = try Canvas(width: 400, height: 300)
        canvas.streamsFills = streaming
        return canvas
    }

    static let whole = PixelRect(x: 0, y: 0, width: 400, height: 300)

    @Test func theBytesOfEachPartOfAComposite() throws {
        let window = try makeWindow()
        let work = window.compositeWork(PixelRegion(Self.whole), scale: 1)
        // The clear colour fills all but the opaque row (the band is translucent): 400×200 px;
        // the row's background 400×100 px; the image 50×20 px and the band 400×50 px blend.
        let blended = (50 * 20 + 400 * 50) * 12
        #expect(
            work.bytesMoved(within: PixelRegion(Self.whole), into: try canvas(streaming: true))
                == (400 * 200 + 400 * 100) * 4 + blended)
        #expect(
            work.bytesMoved(within: PixelRegion(Self.whole), into: try canvas(streaming: false))
                == (400 * 200 + 400 * 100) * 8 + blended)
        // Within a 100 px wide column every fill's rows are too short to stream.
        let column = PixelRegion(PixelRect(x: 0, y: 0, width: 100, height: 300))
        #expect(
            work.bytesMoved(within: column, into: try canvas(streaming: true))
                == (100 * 200 + 100 * 100) * 8 + (50 * 20 + 100 * 50) * 12)
        // Within the band's rows: the clear colour under it and the band itself.
        let band = PixelRegion(PixelRect(x: 0, y: 200, width: 400, height: 50))
        #expect(work.bytesMoved(within: band, into: try canvas(streaming: true)) == 400 * 50 * (4 + 12))
    }

    @Test func aRepaintIsChosenOnlyWhenItMovesFewerBytesThanTheCopy() throws {
        let window = try makeWindow()
        // All but a 40 px strip copied: 400×260 px at 8 bytes (832,000) against a composite of
        // 400×160 px of streamed fills, the image and the band (256,000 + 252,000).
        let strip = PixelRect(x: 0, y: 260, width: 400, height: 40)
        let copied = PixelRegion(Self.whole).subtracting(strip)
        let streamed = try canvas(streaming: true)
        let work = try #require(window.repaintWork(insteadOf: copied, window: Self.whole, canvas: streamed))
        // The work is the whole window's: painted, it is the full composite.
        let expected = try canvas(streaming: false)
        window.composite(into: expected)
        window.paint(work, into: streamed)
        for y in stride(from: 0, to: 300, by: 5) {
            for x in stride(from: 0, to: 400, by: 5) where streamed.pixel(x: x, y: y) != expected.pixel(x: x, y: y) {
                Issue.record("(\(x), \(y)): \(streamed.pixel(x: x, y: y)) against \(expected.pixel(x: x, y: y))")
                return
            }
        }
        // Fills that read each line in never move fewer bytes than a copy.
        #expect(
            window.repaintWork(insteadOf: copied, window: Self.whole, canvas: try canvas(streaming: false)) == nil)
        // Only the band's rows copied: 400×50 px at 8 bytes against 16 composited.
        let band = PixelRegion(PixelRect(x: 0, y: 200, width: 400, height: 50))
        #expect(window.repaintWork(insteadOf: band, window: Self.whole, canvas: streamed) == nil)
    }

    /// An opaque image over the whole window (a map's tiles) is drawn by pixman, which reads
    /// the destination in: 12 bytes a pixel against the copy's 8, even in a streaming buffer.
    @Test func anOpaqueImageOverTheWindowIsCopiedNotRepainted() throws {
        let window = Window(size: Size(width: 400, height: 300))
        let tile = CountingView(frame: Rect(x: 0, y: 0, width: 400, height: 300), color: BoundsScene.green)
        tile.isOpaque = true
        window.addSubview(tile)
        try window.prepareFrame()
        let streamed = try canvas(streaming: true)
        let work = window.compositeWork(PixelRegion(Self.whole), scale: 1)
        #expect(work.bytesMoved(within: PixelRegion(Self.whole), into: streamed) == 400 * 300 * 12)
        #expect(
            window.repaintWork(insteadOf: PixelRegion(Self.whole), window: Self.whole, canvas: streamed) == nil)
    }
}
