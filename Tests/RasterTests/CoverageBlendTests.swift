import ScrollwayCPixman
import ScrollwayGeometry
import ScrollwayTestSupport
import Testing

@testable import ScrollwayRaster

/// `CoverageBlend` stands in for pixman's `over_n_8_8888` when text is drawn: it must give
/// pixman's pixels exactly, or text would change by a rounding wherever the two meet.
@Suite struct CoverageBlendTests {
    /// A premultiplied source: channels at most its alpha, with the ends (0, 255) common.
    private static func source(_ random: inout SeededRandom) -> UInt32 {
        let alphas: [UInt32] = [255, 255, 0, 1, 128, UInt32(random.next() % 256)]
        let a = alphas[Int(random.next() % UInt64(alphas.count))]
        func channel() -> UInt32 { a == 0 ? 0 : UInt32(random.next() % UInt64(a + 1)) }
        return a << 24 | channel() << 16 | channel() << 8 | channel()
    }

    @Test func blendingThroughCoverageGivesPixmansPixelsBitForBit() throws {
        var random = SeededRandom(state: 0xC0FE_B1E0)
        let (w, h) = (37, 23)
        for round in 0..<60 {
            // Coverage with runs of 0 and 255 as glyphs have, and every value between.
            var mask = [UInt8](repeating: 0, count: w * h)
            for i in mask.indices {
                switch random.next() % 4 {
                case 0: mask[i] = 0
                case 1: mask[i] = 255
                default: mask[i] = UInt8(random.next() % 256)
                }
            }
            // Destinations premultiplied or not (saturation is part of the arithmetic).
            let dest = (0..<(w * h)).map { _ in
                round % 2 == 0 ? Self.source(&random) : UInt32(truncatingIfNeeded: random.next())
            }
            let s = Self.source(&random)

            var ours = dest
            let covered = CoverageBlend.coveredSource(s)
            mask.withUnsafeBufferPointer { m in
                ours.withUnsafeMutableBufferPointer { d in
                    CoverageBlend.blend(
                        covered, mask: m.baseAddress!, maskStride: w, onto: d.baseAddress!, pixelStride: w, width: w,
                        height: h)
                }
            }

            var theirs = dest
            let maskStride = (w + 3) / 4 * 4
            var maskBits = [UInt32](repeating: 0, count: maskStride / 4 * h)
            maskBits.withUnsafeMutableBytes { bytes in
                for y in 0..<h {
                    for x in 0..<w { bytes[y * maskStride + x] = mask[y * w + x] }
                }
            }
            maskBits.withUnsafeMutableBufferPointer { m in
                theirs.withUnsafeMutableBufferPointer { d in
                    let maskImage = pixman_image_create_bits(
                        PIXMAN_a8, Int32(w), Int32(h), m.baseAddress, Int32(maskStride))!
                    let destImage = pixman_image_create_bits(
                        PIXMAN_a8r8g8b8, Int32(w), Int32(h), d.baseAddress, Int32(w * 4))!
                    func wide(_ shift: UInt32) -> UInt16 { UInt16((s >> shift) & 0xff) * 257 }
                    var color = pixman_color_t(red: wide(16), green: wide(8), blue: wide(0), alpha: wide(24))
                    let solid = pixman_image_create_solid_fill(&color)!
                    pixman_image_composite32(
                        PIXMAN_OP_OVER, solid, maskImage, destImage, 0, 0, 0, 0, 0, 0, Int32(w), Int32(h))
                    pixman_image_unref(solid)
                    pixman_image_unref(maskImage)
                    pixman_image_unref(destImage)
                }
            }
            let differing = (0..<(w * h)).filter { ours[$0] != theirs[$0] }
            let alike = differing.isEmpty
            #expect(
                alike,
                "round \(round), source \(String(s, radix: 16)): \(differing.count) pixels differ, first at \(differing.first ?? -1)"
            )
        }
    }

    /// Text drawn the two ways (a clip over the whole canvas sends it through pixman) gives the
    /// same pixels: translucent and opaque colours, on a background and on transparency, at
    /// fractional positions, scales and alignments, cut by its rect.
    @Test func textBlendedHereIsTheTextPixmanComposites() throws {
        let font = try Font.system(size: 15)
        let text = "Scrollway blends glyphs: fi ffl AVA Wa 0123 \u{00E9}\u{00DF} e\u{301} \u{5E9}\u{5DC}\u{5D5}\u{5DD}"
        let colors = [
            Color.black,
            Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.6),
            Color(red: 1, green: 0.3, blue: 0, alpha: 1),
        ]
        for scale in [1.0, 1.5, 2.0] {
            for (i, color) in colors.enumerated() {
                for (j, alignment) in [TextAlignment.left, .center, .right].enumerated() {
                    // Cut at the right (colour 2's narrow rect), at the bottom (colour 1's short
                    // one), and at the top and left by the canvas (a rect starting past its
                    // top-left corner: the first line's glyph tops, the lines' first letters).
                    let origin = [Point(x: 3.3, y: 2.6), Point(x: 9.5, y: 8.4), Point(x: -4.6, y: -6.2)][j]
                    let rect = Rect(origin: origin, size: Size(width: i == 2 ? 140 : 300, height: i == 1 ? 12 : 40))
                    func draw(clipped: Bool) throws -> [UInt32] {
                        let c = try Canvas(size: Size(width: 320, height: 48), scale: scale)
                        if i != 1 { c.fill(Rect(x: 0, y: 0, width: 320, height: 48), color: .white) }
                        let layout = font.layout(text, maxWidth: rect.width, maxLines: 2, scale: scale)
                        if clipped {
                            c.withClip([Rect(x: 0, y: 0, width: 320, height: 48)]) {
                                c.drawText(layout, font: font, in: rect, color: color, alignment: alignment)
                            }
                        } else {
                            c.drawText(layout, font: font, in: rect, color: color, alignment: alignment)
                        }
                        return c.withPixels { Array($0) }
                    }
                    let here = try draw(clipped: false)
                    let pixman = try draw(clipped: true)
                    #expect(here.contains { $0 != here[0] }, "nothing drawn at scale \(scale), colour \(i)")
                    let differing = here.indices.filter { here[$0] != pixman[$0] }
                    let alike = differing.isEmpty
                    #expect(
                        alike,
                        "scale \(scale), colour \(i), \(alignment): \(differing.count) pixels differ")
                }
            }
        }
    }
}
