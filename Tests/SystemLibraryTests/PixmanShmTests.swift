import Glibc
import ScrollwayCPixman
import ScrollwayCSystem
import ScrollwayCWaylandClient
import ScrollwayGeometry
import Testing

/// pixman drawing straight into a sealed memfd mapping: the exact path a wl_shm buffer takes.
@Suite struct PixmanShmTests {
    @Test func fillsAMemfdMappingAndReadsItBack() throws {
        let width: Int32 = 64
        let height: Int32 = 32
        let stride = Int(width) * 4
        let size = stride * Int(height)

        let fd = sw_memfd_create("scrollway-smoke")
        try #require(fd >= 0, "memfd_create failed: errno \(errno)")
        defer { close(fd) }
        try #require(ftruncate(fd, off_t(size)) == 0)
        try #require(sw_memfd_seal_size(fd) == 0, "sealing failed: errno \(errno)")
        let seals = sw_memfd_get_seals(fd)
        #expect(seals & SW_SEAL_SHRINK != 0 && seals & SW_SEAL_GROW != 0)
        // A sealed pool cannot be shrunk under the compositor's feet.
        #expect(ftruncate(fd, 0) == -1)

        let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        try #require(map != MAP_FAILED)
        defer { munmap(map, size) }
        let pixels = map!.bindMemory(to: UInt32.self, capacity: size / 4)
        pixels.update(repeating: 0, count: size / 4)

        let image = try #require(pixman_image_create_bits(PIXMAN_a8r8g8b8, width, height, pixels, Int32(stride)))
        defer { pixman_image_unref(image) }
        // rgb(208, 2, 27) from the bounds article, as 16-bit pixman channels.
        var red = pixman_color_t(red: 208 * 257, green: 2 * 257, blue: 27 * 257, alpha: 0xffff)
        var box = pixman_rectangle16_t(x: 10, y: 5, width: 20, height: 10)
        #expect(pixman_image_fill_rectangles(PIXMAN_OP_SRC, image, &red, 1, &box) != 0)

        func pixel(_ x: Int, _ y: Int) -> UInt32 { pixels[y * Int(width) + x] }
        #expect(pixel(10, 5) == 0xFFD0_021B)
        #expect(pixel(29, 14) == 0xFFD0_021B)
        #expect(pixel(9, 5) == 0)
        #expect(pixel(30, 14) == 0)
        #expect(pixel(10, 15) == 0)
        var count = 0
        for y in 0..<Int(height) { for x in 0..<Int(width) where pixel(x, y) != 0 { count += 1 } }
        #expect(count == 200)
    }
}
