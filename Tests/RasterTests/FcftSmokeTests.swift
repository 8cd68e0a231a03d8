import ScrollwayCFcft
import ScrollwayCPixman
import ScrollwayGeometry
import ScrollwayRaster
import Testing

/// fcft rasterizes a real glyph from the DejaVu font through fontconfig and FreeType.
/// fcft keeps global state: it is initialised once per process through `FcftLibrary` (which
/// calls `fcft_init`) and never finalised while other suites may hold fonts.
@Suite struct FcftSmokeTests {
    @Test func rasterizesAGlyphWithCoverage() throws {
        try #require(FcftLibrary.ready, "fcft_init failed")
        let font = try "DejaVu Sans Mono:size=12".withCString { name in
            var names: [UnsafePointer<CChar>?] = [name]
            return try #require(fcft_from_name(1, &names, nil), "fcft found no font for DejaVu Sans Mono")
        }
        defer { fcft_destroy(font) }
        #expect(font.pointee.height > 10)

        let glyph = try #require(fcft_rasterize_char_utf32(font, UInt32(UnicodeScalar("A").value), FCFT_SUBPIXEL_NONE))
        let pix = try #require(glyph.pointee.pix)
        let width = Int(pixman_image_get_width(pix))
        let height = Int(pixman_image_get_height(pix))
        #expect(width > 0 && height > 0)
        #expect(glyph.pointee.advance.x > 0)
        // A plain glyph is an a8 coverage mask; count its covered pixels.
        #expect(pixman_image_get_format(pix) == PIXMAN_a8)
        let stride = Int(pixman_image_get_stride(pix))
        let bytes = try #require(pixman_image_get_data(pix)).withMemoryRebound(
            to: UInt8.self, capacity: stride * height
        ) { $0 }
        var covered = 0
        for y in 0..<height { for x in 0..<width where bytes[y * stride + x] > 0 { covered += 1 } }
        #expect(covered > 20, "an 'A' at 12 pt covers more than a handful of pixels")
        #expect(covered < width * height, "and not its whole box")
    }
}
