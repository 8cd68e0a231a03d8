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
