import ScrollwayGeometry
import ScrollwayRaster
import Testing

/// PNG files of the kinds other programs write (grey, palette, 16-bit, grey with alpha, a bit or
/// two a sample, interlaced), made here byte by byte: each decodes to the pixels it holds,
/// premultiplied, in the canvas libpng writes them into.
@Suite struct PNGFormatTests {
    /// The straight colour (R, G, B, A) of pixel (`x`, `y`) in every test picture: each channel
    /// 0 or 255, alpha 255 or 0 where a format has it, or 128 where it holds half levels.
    static func color(_ x: Int, _ y: Int, alpha: Bool) -> [UInt8] {
        let on = { (bit: Int) -> UInt8 in (x + 2 * y) >> bit & 1 == 1 ? 255 : 0 }
        return [on(0), on(1), on(2), alpha ? [255, 0, 128][(x + y) % 3] : 255]
    }

    /// A PNG file of `w`×`h` with IHDR's `depth` and `colorType`, its samples for a pixel from
    /// `samples` (bits packed into bytes by `depth` for depths below 8), deflated as stored
    /// blocks, and `extra` chunks (PLTE, tRNS) before IDAT. Adam7 passes when `interlaced`.
    static func png(
        _ w: Int, _ h: Int, depth: Int, colorType: UInt8, interlaced: Bool = false,
        extra: [(String, [UInt8])] = [], samples: (Int, Int) -> [Int]
    ) -> [UInt8] {
        func row(_ xs: [Int], _ y: Int) -> [UInt8] {
            var out: [UInt8] = [0]  // filter: none
            if depth < 8 {
                var bits = 0
                var byte = 0
                for x in xs {
                    for s in samples(x, y) {
                        byte = byte << depth | s
                        bits += depth
                        if bits == 8 {
                            out.append(UInt8(byte))
                            (bits, byte) = (0, 0)
                        }
                    }
                }
                if bits > 0 { out.append(UInt8(byte << (8 - bits))) }
            } else {
                for x in xs {
                    for s in samples(x, y) {
                        out += depth == 16 ? [UInt8(s >> 8), UInt8(s & 0xFF)] : [UInt8(s)]
                    }
                }
            }
            return out
        }
        var raw: [UInt8] = []
        let passes =
            interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        for (x0, y0, dx, dy) in passes {
            let xs = Array(stride(from: x0, to: w, by: dx))
            guard !xs.isEmpty else { continue }
            for y in stride(from: y0, to: h, by: dy) { raw += row(xs, y) }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var rest = raw[...]
        repeat {
            let block = rest.prefix(65535)
            rest = rest.dropFirst(block.count)
            let n = block.count
            zlib += [rest.isEmpty ? 1 : 0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8 & 0xFF)]
            zlib += block
        } while !rest.isEmpty
        var (a, b) = (1, 0)
        for byte in raw { (a, b) = ((a + Int(byte)) % 65521, (b + (a + Int(byte)) % 65521) % 65521) }
        zlib += bigEndian(b << 16 | a)
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let header = bigEndian(w) + bigEndian(h) + [UInt8(depth), colorType, 0, 0, interlaced ? 1 : 0]
        for (type, data) in [("IHDR", header)] + extra + [("IDAT", zlib), ("IEND", [])] {
            let body = Array(type.utf8) + data
            file += bigEndian(data.count) + body + bigEndian(crc(body))
        }
        return file
    }

    static func bigEndian(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }

    static func crc(_ bytes: [UInt8]) -> Int {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return Int(c ^ 0xFFFF_FFFF)
    }

    /// `c` holds `expected(x, y)` (straight R, G, B, A) premultiplied at every pixel.
    static func holds(_ c: Canvas, _ w: Int, _ h: Int, _ expected: (Int, Int) -> [UInt8]) -> Bool {
        guard c.width == w, c.height == h else { return false }
        for y in 0..<h {
            for x in 0..<w {
                let e = expected(x, y).map(UInt32.init)
                let pre = { (v: UInt32) in (v * e[3] + 127) / 255 }
                let want = e[3] << 24 | pre(e[0]) << 16 | pre(e[1]) << 8 | pre(e[2])
                if c.pixel(x: x, y: y) != want { return false }
            }
        }
        return true
    }

    @Test(arguments: [false, true])
    func everyKindOfPNGDecodesToItsPixels(interlaced: Bool) throws {
        let (w, h) = (13, 11)
        let opaque = { (x: Int, y: Int) in Self.color(x, y, alpha: false) }
        let withAlpha = { (x: Int, y: Int) in Self.color(x, y, alpha: true) }
        // RGBA, 8 bits a sample.
        let rgba = Self.png(w, h, depth: 8, colorType: 6, interlaced: interlaced) { x, y in
            withAlpha(x, y).map(Int.init)
        }
        #expect(Self.holds(try PNG.decode(rgba), w, h, withAlpha))
        // RGB and RGBA, 16 bits a sample (levels 0 and 65535, alpha half as well: libpng takes
        // 16-bit samples as linear light). Interlaced, libpng's simplified API had scaled them
        // to 8 bits from stale rows (libpng issue 853): half the samples wrong.
        let rgb16 = Self.png(w, h, depth: 16, colorType: 2, interlaced: interlaced) { x, y in
            opaque(x, y).prefix(3).map { Int($0) * 257 }
        }
        #expect(Self.holds(try PNG.decode(rgb16), w, h, opaque))
        let rgba16 = Self.png(w, h, depth: 16, colorType: 6, interlaced: interlaced) { x, y in
            withAlpha(x, y).map { Int($0) * 257 }
        }
        #expect(Self.holds(try PNG.decode(rgba16), w, h, withAlpha))
        // Grey with alpha, 8 bits.
        let greyAlpha = { (x: Int, y: Int) -> [UInt8] in
            let c = withAlpha(x, y)
            return [c[0], c[0], c[0], c[3]]
        }
        let ga = Self.png(w, h, depth: 8, colorType: 4, interlaced: interlaced) { x, y in
            [Int(greyAlpha(x, y)[0]), Int(greyAlpha(x, y)[3])]
        }
        #expect(Self.holds(try PNG.decode(ga), w, h, greyAlpha))
        // Grey, one bit a pixel.
        let bw = { (x: Int, y: Int) -> [UInt8] in
            let c = opaque(x, y)
            return [c[0], c[0], c[0], 255]
        }
        let grey1 = Self.png(w, h, depth: 1, colorType: 0, interlaced: interlaced) { x, y in
            [bw(x, y)[0] == 255 ? 1 : 0]
        }
        #expect(Self.holds(try PNG.decode(grey1), w, h, bw))
        // A palette of four colours, two bits a pixel, the last one transparent (tRNS).
        let palette: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 0, 0]]
        let indexed = Self.png(
            w, h, depth: 2, colorType: 3, interlaced: interlaced,
            extra: [("PLTE", palette.flatMap { $0.prefix(3) }), ("tRNS", [255, 255, 255, 0])]
        ) { x, y in [(x + y) % 4] }
        #expect(Self.holds(try PNG.decode(indexed), w, h) { x, y in palette[(x + y) % 4] })
    }
}
