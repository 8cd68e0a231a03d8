import Scrollway
import ScrollwayGeometry
import Testing

/// The tile source of docs/library-guide.md ("Huge content: tiles and cell reuse"), verbatim.
final class Stripes: TileSource {
    func draw(_ rect: Rect, in canvas: Canvas) {
        let shade = UInt8(Int(clamping: rect.minY / 256) % 2 == 0 ? 230 : 200)
        canvas.fill(Rect(origin: .zero, size: rect.size), color: Color(rgb: shade, shade, 255))
    }
}

@MainActor
@Suite struct ReadmeTileExampleTests {
    @Test func theReadmeTiledViewExampleShowsItsStripes() throws {
        let window = Window(size: Size(width: 320, height: 480))
        let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        window.addSubview(scroll)

        let stripes = Stripes()  // tiled views hold their source weakly
        let tiled = TiledView(contentSize: Size(width: 100_000, height: 100_000))
        tiled.source = stripes
        tiled.rasterizesAsynchronously = true
        scroll.contentSize = tiled.bounds.size
        scroll.addSubview(tiled)
        // its tiles follow scrolling, zooming and resizing by themselves

        let canvas = try Offscreen.render(window)
        #expect(canvas.color(x: 10, y: 10) == Color(rgb: 230, 230, 255))
        #expect(canvas.color(x: 10, y: 300) == Color(rgb: 200, 200, 255))

        // Scrolled far, with nothing but the offset changed: the next frame asks for the tiles
        // it shows (a stripe boundary every 256 px: 50,000 is 80 px into an odd stripe).
        scroll.contentOffset = Point(x: 0, y: 50_000)
        let far = try Offscreen.render(window)
        #expect(tiled.coversVisibleRect)
        #expect(far.color(x: 10, y: 10) == Color(rgb: 200, 200, 255))
        #expect(far.color(x: 10, y: 200) == Color(rgb: 230, 230, 255))
    }

    /// A tiled view laid out before it had a window, then taken out and put back (a page pushed
    /// and popped), keeps following its frames.
    @Test func aTiledViewFollowsItsFramesWhereverItJoinsAWindow() throws {
        let window = Window(size: Size(width: 320, height: 480))
        let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        let stripes = Stripes()
        let tiled = TiledView(contentSize: Size(width: 1000, height: 100_000))
        tiled.source = stripes
        scroll.contentSize = tiled.bounds.size
        scroll.addSubview(tiled)
        scroll.layoutIfNeeded()  // laid out with no window
        window.addSubview(scroll)
        _ = try Offscreen.render(window)
        #expect(tiled.coversVisibleRect && tiled.tileCount > 0)
        scroll.removeFromSuperview()
        window.addSubview(scroll)
        scroll.contentOffset = Point(x: 0, y: 50_000)
        let far = try Offscreen.render(window)
        #expect(tiled.coversVisibleRect)
        #expect(far.color(x: 10, y: 10) == Color(rgb: 200, 200, 255))
    }
}
