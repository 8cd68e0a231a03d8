import Glibc
import ScrollwayGeometry
import ScrollwayRaster
import Testing

/// Memory a canvas draws into that outlives it: what a tile's image is drawn in again.
@Suite struct PixelMemoryTests {
    @Test func aCanvasDrawsIntoTheMemoryAndClearingMakesItTransparent() throws {
        let memory = try #require(PixelMemory(width: 6, height: 4))
        #expect(memory.byteCount == 6 * 4 * 4)
        let first = try memory.canvas(scale: 2)
        #expect(first.width == 6 && first.height == 4 && first.stride == 24 && first.scale == 2)
        #expect(first.size == Size(width: 3, height: 2))
        // New memory is transparent, like a new canvas.
        #expect(first.pixel(x: 0, y: 0) == 0 && first.pixel(x: 5, y: 3) == 0)
        first.fill(Rect(x: 0, y: 0, width: 1, height: 1), color: Color(rgb: 255, 0, 0))  // 2×2 device px
        #expect(first.pixel(x: 1, y: 1) == 0xFFFF_0000 && first.pixel(x: 2, y: 1) == 0)
        // A second canvas on the same memory sees those pixels: the memory, not the canvas, holds them.
        let second = try memory.canvas(scale: 1)
        #expect(second.pixel(x: 1, y: 1) == 0xFFFF_0000 && second.pixel(x: 0, y: 2) == 0)
        memory.clear()
        #expect(second.pixel(x: 1, y: 1) == 0 && first.pixel(x: 0, y: 0) == 0)
    }

    @Test(arguments: [(0, 4), (4, 0), (32768, 1), (1, 32768), (-1, 4)])
    func noMemoryForASizeNoCanvasCanHave(width: Int, height: Int) {
        #expect(PixelMemory(width: width, height: height) == nil)
    }

    /// New memory is in place when it is handed out: its pages were faulted in together, not
    /// left for the first drawing to fault in one by one. At 2048×4200 (34.4 MB) the block is
    /// past the largest threshold malloc ever raises its own for mapping fresh pages, which it
    /// does not touch (they come zeroed), so without the prefault none of them would be there.
    @Test func newMemoryIsFaultedInWhenMade() throws {
        let memory = try #require(PixelMemory(width: 2048, height: 4200))
        let canvas = try memory.canvas(scale: 1)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let (resident, pages) = canvas.withPixels { pixels -> (Int, Int) in
            let start = Int(bitPattern: pixels.baseAddress)
            #expect(start != 0)
            let first = (start + page - 1) / page * page
            let end = (start + pixels.count * 4) / page * page
            let pages = (end - first) / page
            var vector = [UInt8](repeating: 0, count: pages)
            let status = mincore(UnsafeMutableRawPointer(bitPattern: first), end - first, &vector)
            #expect(status == 0, "mincore: errno \(errno)")
            return (vector.count { $0 & 1 != 0 }, pages)
        }
        #expect(pages == 2048 * 4200 * 4 / page - 1 || pages == 2048 * 4200 * 4 / page)
        #expect(resident == pages)
        // Still transparent, as new memory must be.
        #expect(canvas.pixel(x: 0, y: 0) == 0 && canvas.pixel(x: 2047, y: 4199) == 0)
    }

    @Test func theCanvasKeepsItsMemoryAlive() throws {
        var canvas: Canvas?
        do {
            let memory = try #require(PixelMemory(width: 2, height: 2))
            canvas = try memory.canvas(scale: 1)
        }
        canvas?.fill(Rect(x: 1, y: 1, width: 1, height: 1), color: Color(rgb: 0, 0, 255))
        #expect(canvas?.pixel(x: 1, y: 1) == 0xFF00_00FF && canvas?.pixel(x: 0, y: 0) == 0)
    }
}
