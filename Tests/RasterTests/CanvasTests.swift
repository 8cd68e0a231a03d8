import Glibc
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayTestSupport
import Testing

let red = Color(rgb: 208, 2, 27)
let white = Color.white

@Suite struct CanvasTests {
    @Test func fillsAreExactAndRespectTheClip() throws {
        let c = try Canvas(width: 40, height: 30)
        c.clear(white)
        #expect(c.pixel(x: 0, y: 0) == 0xFFFF_FFFF)
        c.fill(Rect(x: 5, y: 6, width: 10, height: 4), color: red)
        #expect(c.pixel(x: 5, y: 6) == 0xFFD0_021B)
        #expect(c.pixel(x: 14, y: 9) == 0xFFD0_021B)
        #expect(c.pixel(x: 15, y: 9) == 0xFFFF_FFFF)
        #expect(c.pixel(x: 5, y: 10) == 0xFFFF_FFFF)

        c.withClip([Rect(x: 20, y: 0, width: 5, height: 5)]) {
            c.fill(Rect(x: 0, y: 0, width: 40, height: 30), color: .black)
        }
        #expect(c.pixel(x: 20, y: 0) == 0xFF00_0000)
        #expect(c.pixel(x: 24, y: 4) == 0xFF00_0000)
        #expect(c.pixel(x: 25, y: 4) == 0xFFFF_FFFF)
        #expect(c.pixel(x: 19, y: 0) == 0xFFFF_FFFF)
    }

    /// What `scrollway rig` waits for a client's first frame with: a window that is black
    /// where samples of the output would fall (a kiosk's margins) still differs somewhere.
    @Test func theFirstDifferingPixelIsFoundAnywhereAndPaddingIsIgnored() throws {
        let empty = try Canvas(width: 80, height: 60)
        empty.clear(.black)
        let shown = try Canvas(width: 80, height: 60)
        shown.clear(.black)
        #expect(shown.firstPixel(differingFrom: empty) == nil)
        shown.fill(Rect(x: 79, y: 3, width: 1, height: 1), color: red)
        shown.fill(Rect(x: 2, y: 50, width: 1, height: 1), color: red)
        let first = shown.firstPixel(differingFrom: empty)
        #expect(first?.x == 79 && first?.y == 3)
        #expect(try Canvas(width: 80, height: 61).firstPixel(differingFrom: empty) != nil)

        // Rows wider than the image (a wrapped shm buffer's stride): what lies past the last
        // pixel of a row is not the image's.
        let stride = 96 * 4
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * 60, alignment: 16)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0xAB, count: stride * 60)
        let wrapped = try Canvas(wrapping: memory, width: 80, height: 60, stride: stride)
        wrapped.clear(.black)
        #expect(wrapped.firstPixel(differingFrom: empty) == nil)
        wrapped.fill(Rect(x: 40, y: 59, width: 1, height: 1), color: white)
        let last = wrapped.firstPixel(differingFrom: empty)
        #expect(last?.x == 40 && last?.y == 59)
    }

    @Test func logicalCoordinatesScaleToDevicePixels() throws {
        let c = try Canvas(size: Size(width: 10, height: 10), scale: 2)
        #expect(c.width == 20 && c.height == 20)
        c.fill(Rect(x: 1, y: 1, width: 2, height: 2), color: .black)
        #expect(c.pixel(x: 2, y: 2) == 0xFF00_0000)
        #expect(c.pixel(x: 5, y: 5) == 0xFF00_0000)
        #expect(c.pixel(x: 6, y: 5) == 0)
        #expect(c.pixel(x: 1, y: 2) == 0)
    }

    @Test func translucentFillBlendsOver() throws {
        let c = try Canvas(width: 4, height: 4)
        c.clear(white)
        c.fill(Rect(x: 0, y: 0, width: 4, height: 4), color: Color.black.withAlpha(0.5))
        // 255·(1 − 0.5) ≈ 127 or 128 depending on pixman's rounding of 0.5·255.
        let g = Int(c.pixel(x: 1, y: 1) & 0xff)
        #expect((127...128).contains(g))
        #expect(c.pixel(x: 1, y: 1) >> 24 == 0xff)
    }

    @Test func roundedRectIsSolidInsideAndAntialiasedAtCorners() throws {
        let c = try Canvas(width: 60, height: 40)
        c.fillRoundedRect(Rect(x: 10, y: 10, width: 40, height: 20), radius: 8, color: red)
        #expect(c.pixel(x: 30, y: 20) == 0xFFD0_021B)
        #expect(c.pixel(x: 10, y: 20) == 0xFFD0_021B)  // straight left edge, inside
        #expect(c.pixel(x: 10, y: 10) == 0)  // the corner is cut off
        #expect(c.pixel(x: 9, y: 20) == 0)
        // Somewhere along the arc there is partial coverage.
        let partial = (10..<18).contains { x in
            let a = c.pixel(x: x, y: 11) >> 24
            return a > 0 && a < 255
        }
        #expect(partial)
    }

    @Test func strokeRectPaintsOnlyTheOutline() throws {
        let c = try Canvas(width: 40, height: 40)
        c.strokeRect(Rect(x: 10, y: 10, width: 20, height: 20), lineWidth: 2, color: .black)
        #expect(c.pixel(x: 9, y: 20) == 0xFF00_0000)
        #expect(c.pixel(x: 10, y: 20) == 0xFF00_0000)
        #expect(c.pixel(x: 11, y: 20) == 0)
        #expect(c.pixel(x: 20, y: 20) == 0)
        #expect(c.pixel(x: 20, y: 9) == 0xFF00_0000)
        #expect(c.pixel(x: 8, y: 20) == 0)
    }

    @Test func linearGradientRunsBetweenItsStops() throws {
        let c = try Canvas(width: 101, height: 2)
        c.fillLinearGradient(
            Rect(x: 0, y: 0, width: 101, height: 2), from: Point(x: 0.5, y: 0), to: Point(x: 100.5, y: 0),
            stops: [(0, .black), (1, .white)])
        let values = (0..<101).map { Int(c.pixel(x: $0, y: 0) & 0xff) }
        #expect(values.first! <= 1)
        #expect(values.last! >= 254)
        #expect(abs(values[50] - 128) <= 2)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func compositesImagesWithAlphaAndClip() throws {
        let src = try Canvas(width: 10, height: 10)
        src.clear(red)
        let dst = try Canvas(width: 30, height: 30)
        dst.clear(white)
        dst.draw(src, at: Point(x: 5, y: 5), clip: Rect(x: 0, y: 0, width: 10, height: 30))
        #expect(dst.pixel(x: 5, y: 5) == 0xFFD0_021B)
        #expect(dst.pixel(x: 9, y: 14) == 0xFFD0_021B)
        #expect(dst.pixel(x: 10, y: 5) == 0xFFFF_FFFF)  // clipped
        dst.draw(src, at: Point(x: 20, y: 20), alpha: 0.5)
        let p = dst.color(x: 22, y: 22)
        #expect(abs(p.red * 255 - (208 + 255) / 2) <= 1.5)
        #expect(abs(p.green * 255 - (2 + 255) / 2) <= 1.5)
    }

    @Test func scaledDrawCoversTheDestination() throws {
        let src = try Canvas(width: 4, height: 4)
        src.clear(red)
        let dst = try Canvas(width: 20, height: 20)
        dst.draw(src, in: Rect(x: 2, y: 2, width: 8, height: 8))
        #expect(dst.pixel(x: 5, y: 5) == 0xFFD0_021B)
        #expect(dst.pixel(x: 1, y: 5) == 0)
        #expect(dst.pixel(x: 10, y: 5) == 0)
    }

    @Test func impossibleCanvasIsAClearError() {
        #expect(throws: RasterError.allocationFailed(width: 100_000, height: 10)) {
            try Canvas(width: 100_000, height: 10)
        }
    }
}

@Suite struct PNGRoundTripTests {
    @Test func encodesAndDecodesTheSamePixels() throws {
        let c = try Canvas(width: 8, height: 5)
        c.clear(white)
        c.fill(Rect(x: 2, y: 1, width: 3, height: 3), color: red)
        c.fill(Rect(x: 0, y: 4, width: 8, height: 1), color: .clear, blend: .copy)
        let bytes = try PNG.encode(c)
        #expect(Array(bytes.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        let back = try PNG.decode(bytes)
        #expect(back.width == 8 && back.height == 5)
        for y in 0..<5 { for x in 0..<8 { #expect(back.pixel(x: x, y: y) == c.pixel(x: x, y: y)) } }
    }

    /// What is wrong is said in a reader's words: a file that is not a PNG at all, or one cut
    /// short (libpng's own words were "read beyond end of data" for both).
    @Test func rejectsGarbageAndSaysWhy() throws {
        #expect(throws: RasterError.png("not a PNG file (it does not begin with the PNG signature)")) {
            try PNG.decode(Array("junk\n".utf8))
        }
        #expect(throws: RasterError.png("not a PNG file (it does not begin with the PNG signature)")) {
            try PNG.decode([])
        }
        let c = try Canvas(width: 8, height: 5)
        c.clear(red)
        let bytes = try PNG.encode(c)
        #expect(throws: RasterError.png("the data ends early (a file cut short?): read beyond end of data")) {
            try PNG.decode(Array(bytes.prefix(40)))
        }
    }

    /// `PNG.write(_:toFile:)` writes whole or not at all (issue 36: it wrote through fopen and
    /// never checked the close, so a full disk left a truncated picture and no error): the file
    /// decodes, no temporary is left beside it, a full device is an error naming it, and a
    /// failed write leaves what was under the name.
    @Test func aPictureIsWrittenWholeOrNotAtAll() throws {
        let c = try Canvas(width: 8, height: 5)
        c.clear(red)
        var template = Array("/tmp/scrollway-png-XXXXXX".utf8CString)
        let directory = try #require(
            template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map {
                String(cString: $0)
            })
        let path = directory + "/red.png"
        try PNG.write(c, toFile: path)
        let file = try #require(fopen(path, "rb"))
        var bytes = [UInt8](repeating: 0, count: 4096)
        bytes.removeLast(bytes.count - fread(&bytes, 1, bytes.count, file))
        fclose(file)
        #expect(try PNG.decode(bytes).pixel(x: 3, y: 3) == c.pixel(x: 3, y: 3))
        let listing = try #require(opendir(directory))
        var names: [String] = []
        while let entry = readdir(listing) {
            names.append(
                withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        closedir(listing)
        #expect(names.filter { !$0.hasPrefix(".") || $0.hasSuffix(".partial") }.sorted() == ["red.png"])
        #expect(throws: RasterError.fileWrite(path: "/dev/full", reason: "No space left on device")) {
            try PNG.write(c, toFile: "/dev/full")
        }
        #expect(throws: RasterError.fileWrite(path: directory + "/none/x.png", reason: "No such file or directory")) {
            try PNG.write(c, toFile: directory + "/none/x.png")
        }
        // A directory in the way of the rename: the old content stays, nothing half-written.
        mkdir(directory + "/taken.png", 0o755)
        #expect(throws: RasterError.fileWrite(path: directory + "/taken.png", reason: "Is a directory")) {
            try PNG.write(c, toFile: directory + "/taken.png")
        }
        var st = stat()
        #expect(stat(directory + "/.taken.png.\(getpid()).partial", &st) != 0, "the temporary was left behind")
    }
}

/// Copies between canvases: the streaming block copy of whole rows and pixman's SRC for the
/// rest give every pixel from where the move says, and nothing else changes.
@Suite struct CopyPixelsTests {
    /// A canvas whose pixel (x, y) is `tag << 24 | y << 12 | x`, so every pixel says where it
    /// came from.
    static func tagged(width: Int, height: Int, tag: UInt32) throws -> Canvas {
        let c = try Canvas(width: width, height: height)
        c.withPixels { p in
            for y in 0..<height {
                for x in 0..<width { p[y * (c.stride / 4) + x] = tag << 24 | UInt32(y) << 12 | UInt32(x) }
            }
        }
        return c
    }

    @Test(arguments: [
        // Whole rows (one streamed block): down, up, unmoved, and moved past the source's end.
        (PixelRect(x: 0, y: 5, width: 64, height: 30), 0, 5, 64),
        (PixelRect(x: 0, y: 0, width: 64, height: 33), 0, -7, 64),
        (PixelRect(x: 0, y: 2, width: 64, height: 38), 0, 0, 64),
        (PixelRect(x: 0, y: 10, width: 64, height: 30), 0, 20, 64),
        // Rows of 244 bytes (unaligned ends), one row, and part of each row (pixman).
        (PixelRect(x: 0, y: 3, width: 61, height: 30), 0, 3, 61),
        (PixelRect(x: 0, y: 9, width: 64, height: 1), 0, -2, 64),
        (PixelRect(x: 4, y: 6, width: 50, height: 20), 3, 4, 64),
        // A source of another width (pixman).
        (PixelRect(x: 0, y: 0, width: 64, height: 20), 0, 2, 48),
    ])
    func everyPixelComesFromWhereTheMoveSays(rect: PixelRect, dx: Int, dy: Int, sourceWidth: Int) throws {
        let width = rect.width == 61 ? 61 : 64
        let height = 40
        let source = try Self.tagged(width: sourceWidth, height: height, tag: 1)
        let canvas = try Self.tagged(width: width, height: height, tag: 2)
        canvas.copyPixels(from: source, to: rect, dx: dx, dy: dy)
        var wrong = 0
        var copied = 0
        for y in 0..<height {
            for x in 0..<width {
                let from = (x: x - dx, y: y - dy)
                let inSource = from.x >= 0 && from.y >= 0 && from.x < sourceWidth && from.y < height
                let inRect = x >= rect.x0 && x < rect.x1 && y >= rect.y0 && y < rect.y1
                let expected =
                    inRect && inSource ? source.pixel(x: from.x, y: from.y) : 2 << 24 | UInt32(y) << 12 | UInt32(x)
                if inRect && inSource { copied += 1 }
                if canvas.pixel(x: x, y: y) != expected { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(wrong) pixels wrong copying \(rect) moved (\(dx), \(dy))")
        #expect(copied > 0)
    }

    /// The streaming copy (a recentring's, rows copied from the newest buffer) moves exactly
    /// what memmove moves: short and long blocks,
    /// any alignment, overlapping forwards and backwards, or apart.
    @Test func theStreamingCopyIsAMemmove() {
        let size = 20_000
        let a = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        let b = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        defer {
            a.deallocate()
            b.deallocate()
        }
        var rng = SeededRandom(state: 7)
        var directions = (forward: 0, backward: 0)
        for trial in 0..<400 {
            for i in 0..<size {
                let v = UInt8(truncatingIfNeeded: i &* 31 &+ trial)
                a.storeBytes(of: v, toByteOffset: i, as: UInt8.self)
                b.storeBytes(of: v, toByteOffset: i, as: UInt8.self)
            }
            let count = trial % 4 == 0 ? Int(clamping: rng.unit(0, 300)) : Int(clamping: rng.unit(256, 9000))
            let from = Int(clamping: rng.unit(0, Double(size - count)))
            let to = Int(clamping: rng.unit(0, Double(size - count)))
            if to < from && to + count > from { directions.forward += 1 }
            if to > from && from + count > to { directions.backward += 1 }
            Canvas.copyStreaming(to: a + to, from: a + from, count: count)
            memmove(b + to, b + from, count)
            let same = memcmp(a, b, size) == 0
            #expect(same, "trial \(trial): \(count) bytes from \(from) to \(to)")
            if !same { return }
        }
        // Both kinds of overlap were tried.
        #expect(directions.forward > 20 && directions.backward > 20)
    }
}

/// A window buffer's SRC fills with streaming stores (`Canvas.streamsFills`) make exactly
/// the pixels pixman's fill makes: the colour inside the rect and the clip, nothing outside,
/// whatever each row's alignment and width.
@Suite struct StreamingFillTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var rect: PixelRect
        var clip: [PixelRect]?
        var color: Color
        var blend: BlendMode
        var testDescription: String { "\(rect) clip \(clip.map { "\($0)" } ?? "none") \(blend)" }
    }

    static let width = 301
    static let height = 24

    /// What every pixel holds before the fill: its own place.
    static func tag(_ x: Int, _ y: Int) -> UInt32 { 0x0100_0000 | UInt32(y) << 12 | UInt32(x) }

    @Test(arguments: [
        // Wide rows at every alignment, no clip.
        Case(rect: PixelRect(x: 3, y: 1, width: 290, height: 20), clip: nil, color: .tint, blend: .over),
        // Past the canvas's edges: clamped.
        Case(rect: PixelRect(x: -5, y: -3, width: 400, height: 40), clip: nil, color: .darkGray, blend: .over),
        // Under a clip of overlapping boxes, one narrower than a streamed row, one wider.
        Case(
            rect: PixelRect(x: 0, y: 0, width: 301, height: 24),
            clip: [PixelRect(x: 10, y: 2, width: 40, height: 10), PixelRect(x: 30, y: 5, width: 200, height: 15)],
            color: .red, blend: .over),
        // A translucent colour copied (a window's clear): its premultiplied value, not blended.
        Case(
            rect: PixelRect(x: 7, y: 4, width: 133, height: 9), clip: [PixelRect(x: 0, y: 0, width: 200, height: 24)],
            color: Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.5), blend: .copy),
    ])
    func aStreamedFillIsPixmansFill(_ c: Case) throws {
        // 12 bytes past a multiple of 16: rows start at each 16-byte alignment in turn.
        let stride = Self.width * 4 + 8
        let bytes = stride * Self.height + 4
        let streamed = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        let plain = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        defer {
            streamed.deallocate()
            plain.deallocate()
        }
        // The first row 4 bytes past a 64-byte boundary.
        func canvas(_ memory: UnsafeMutableRawPointer, streams: Bool) throws -> Canvas {
            let canvas = try Canvas(wrapping: memory + 4, width: Self.width, height: Self.height, stride: stride)
            canvas.streamsFills = streams
            canvas.withPixels { p in
                for y in 0..<Self.height {
                    for x in 0..<Self.width { p[y * (stride / 4) + x] = Self.tag(x, y) }
                }
            }
            let logical = Rect(
                x: Double(c.rect.x0), y: Double(c.rect.y0), width: Double(c.rect.width), height: Double(c.rect.height))
            if let clip = c.clip {
                canvas.withClip(pixels: clip) { canvas.fill(logical, color: c.color, blend: c.blend) }
            } else {
                canvas.fill(logical, color: c.color, blend: c.blend)
            }
            return canvas
        }
        let fast = try canvas(streamed, streams: true)
        let reference = try canvas(plain, streams: false)
        func inside(_ r: PixelRect, _ x: Int, _ y: Int) -> Bool { x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1 }
        var filled = 0
        var wrong = 0
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                let inRect = inside(c.rect, x, y)
                let inClip = c.clip?.contains { inside($0, x, y) } ?? true
                let expected = inRect && inClip ? c.color.premultipliedARGB : Self.tag(x, y)
                if inRect && inClip { filled += 1 }
                if fast.pixel(x: x, y: y) != expected || reference.pixel(x: x, y: y) != expected { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(wrong) pixels not the colour inside the rect and clip, or touched outside them")
        #expect(filled > 0)
    }
}
