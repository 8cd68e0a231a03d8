import Foundation
import ScrollwayCPNG
import ScrollwayGeometry
import Testing

/// libpng's simplified API writes a BGRA image (pixman's a8r8g8b8 byte order on little endian).
@Suite struct PNGTests {
    @Test func writesA4x4PNGWithTheRightHeader() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scrollway-smoke-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var pixels = [UInt8](repeating: 0, count: 4 * 4 * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) { pixels[i..<i + 4] = [27, 2, 208, 255] }  // B G R A

        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = 4
        image.height = 4
        image.format = UInt32(PNG_FORMAT_BGRA)
        let ok = png_image_write_to_file(&image, path, 0, &pixels, 16, nil)
        let message = withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        try #require(ok != 0, "libpng: \(message)")

        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(data[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // The first chunk is IHDR: length 13, then width and height big-endian, depth 8, RGBA (6).
        #expect(Array(data[8..<16]) == [0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
        #expect(Array(data[16..<24]) == [0, 0, 0, 4, 0, 0, 0, 4])
        #expect(data[24] == 8 && data[25] == 6)
    }
}
