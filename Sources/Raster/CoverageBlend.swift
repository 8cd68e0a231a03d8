import ScrollwayGeometry

/// A solid colour drawn OVER premultiplied ARGB8888 pixels through an 8-bit coverage mask,
/// with pixman's own arithmetic (`over_n_8_8888`: `d = s·m + d·(1 − αs·m)`, each product
/// rounded as pixman's `MUL_UN8` rounds `x·a/255`, each sum saturated per channel), so a glyph
/// blended here is bit for bit the glyph pixman would composite.
///
/// Why not pixman: a label's glyphs are small (a few dozen to a few hundred pixels each), and
/// `pixman_image_composite32` spends much of each glyph on the call's set-up (the composite
/// region, the fast path's lookup) and blends a glyph's narrow rows mostly a pixel at a time
/// (their unaligned heads and tails) with the whole product; here an uncovered pixel costs a
/// compare, and one over transparency (a label's own image) a look-up in the covered colour's
/// table (docs/decisions.md has the counts). Pure: no C, no clock.
public enum CoverageBlend {
    /// `x` with each of its four channels multiplied by `a/255`, rounded as pixman does.
    @inline(__always)
    static func multiply(_ x: UInt32, by a: UInt32) -> UInt32 {
        var rb = (x & 0x00ff_00ff) &* a &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00ff_00ff)) >> 8) & 0x00ff_00ff
        var ag = ((x >> 8) & 0x00ff_00ff) &* a &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00ff_00ff)) & 0xff00_ff00
        return rb | ag
    }

    /// `x + y` per channel, each saturated at 255.
    @inline(__always)
    static func add(_ x: UInt32, _ y: UInt32) -> UInt32 {
        var rb = (x & 0x00ff_00ff) &+ (y & 0x00ff_00ff)
        rb = (rb | (0x1000_0100 &- ((rb >> 8) & 0x00ff_00ff))) & 0x00ff_00ff
        var ag = ((x >> 8) & 0x00ff_00ff) &+ ((y >> 8) & 0x00ff_00ff)
        ag = (ag | (0x1000_0100 &- ((ag >> 8) & 0x00ff_00ff))) & 0x00ff_00ff
        return rb | (ag << 8)
    }

    /// Blends `source` through `width`×`height` coverage bytes (`mask`, rows `maskStride` bytes
    /// apart) onto pixels (`pixels`, rows `pixelStride` pixels apart). `covered` holds
    /// `source` at each of the 256 coverages (`coveredSource`), made once for all of a text's
    /// glyphs: most of a small glyph's pixels are edges, partly covered.
    public static func blend(
        _ covered: UnsafePointer<UInt32>, mask: UnsafePointer<UInt8>, maskStride: Int,
        onto pixels: UnsafeMutablePointer<UInt32>, pixelStride: Int, width: Int, height: Int
    ) {
        for y in 0..<height {
            let m = mask + y * maskStride
            let d = pixels + y * pixelStride
            for x in 0..<width {
                let c = m[x]
                if c == 0 { continue }
                let s = covered[Int(c)]
                let under = d[x]
                // Over transparency (a label's own image, where glyphs do not meet) or under
                // an opaque source the destination's product is zero.
                d[x] = under == 0 || s >> 24 == 255 ? s : add(s, multiply(under, by: 255 - (s >> 24)))
            }
        }
    }

    /// `source` at each coverage 0...255 (`multiply`; at full coverage the source itself).
    public static func coveredSource(_ source: UInt32) -> [UInt32] {
        [UInt32](unsafeUninitializedCapacity: 256) { table, count in
            for m in 0..<255 { table[m] = multiply(source, by: UInt32(m)) }
            table[255] = source
            count = 256
        }
    }
}
