import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayTestSupport
import Testing

/// JPEG files through libjpeg-turbo: what a photo viewer needs of them (the pixels, upright by
/// EXIF, small when only a thumbnail is wanted) and clear errors for files that are not photos.
@Suite struct JPEGTests {
    static let red = Color(rgb: 230, 30, 30)
    static let green = Color(rgb: 30, 200, 40)
    static let blue = Color(rgb: 30, 40, 220)
    static let white = Color(rgb: 255, 255, 255)

    /// A `w`×`h` picture of four quadrants: red, green above; blue, white below.
    static func quadrants(_ w: Int = 64, _ h: Int = 48) throws -> Canvas {
        let c = try Canvas(width: w, height: h)
        let (hw, hh) = (Double(w / 2), Double(h / 2))
        c.fill(Rect(x: 0, y: 0, width: hw, height: hh), color: red)
        c.fill(Rect(x: hw, y: 0, width: hw, height: hh), color: green)
        c.fill(Rect(x: 0, y: hh, width: hw, height: hh), color: blue)
        c.fill(Rect(x: hw, y: hh, width: hw, height: hh), color: white)
        return c
    }

    /// `jpeg` with an EXIF block (APP1) right after its start marker whose first directory
    /// holds the Orientation tag, in either byte order.
    static func withExif(_ jpeg: [UInt8], orientation: Int, bigEndian: Bool = false) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] {
            let (hi, lo) = (UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v))
            return bigEndian ? [hi, lo] : [lo, hi]
        }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? [0, 0] + u16(v) : u16(v) + [0, 0] }
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        tiff += u16(42) + u32(8) + u16(1)
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
        tiff += u32(0)
        let body: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0] + tiff
        let length = body.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1] + u16Big(length) + body + jpeg.dropFirst(2)
    }

    static func u16Big(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }

    /// Whether `c`'s pixel is `expected` within JPEG's loss (a few levels a channel).
    static func near(_ c: Canvas, _ x: Int, _ y: Int, _ expected: Color) -> Bool {
        let p = c.pixel(x: x, y: y)
        let e = expected.premultipliedARGB
        guard p >> 24 == 0xFF else { return false }
        for shift in [0, 8, 16] {
            let a = Int((p >> UInt32(shift)) & 0xFF)
            let b = Int((e >> UInt32(shift)) & 0xFF)
            if abs(a - b) > 12 { return false }
        }
        return true
    }

    @Test func aJPEGDecodesToThePixelsItWasMadeOf() throws {
        let bytes = try JPEG.encode(Self.quadrants(), quality: 95)
        #expect(JPEG.isJPEG(bytes))
        #expect(try JPEG.size(of: bytes) == (64, 48))
        let c = try JPEG.decode(bytes, scale: 2)
        #expect(c.width == 64 && c.height == 48 && c.scale == 2)
        #expect(Self.near(c, 8, 8, Self.red))
        #expect(Self.near(c, 56, 8, Self.green))
        #expect(Self.near(c, 8, 40, Self.blue))
        #expect(Self.near(c, 56, 40, Self.white))
        // Decoded as what it is, whatever a file's name says.
        let again = try ImageFile.decode(bytes)
        #expect(again.firstPixel(differingFrom: c) == nil)
    }

    /// Each of EXIF's eight orientations stands the picture up: the quadrants land where
    /// turning or mirroring the stored picture puts them, and a quarter turn swaps its sides.
    /// Both byte orders (Intel's "II", Motorola's "MM") are read.
    @Test func everyExifOrientationStandsThePictureUp() throws {
        let stored = try JPEG.encode(Self.quadrants(), quality: 95)
        let (r, g, b, w) = (Self.red, Self.green, Self.blue, Self.white)
        // Top left, top right, bottom left, bottom right, upright.
        let expected: [Int: [Color]] = [
            1: [r, g, b, w], 2: [g, r, w, b], 3: [w, b, g, r], 4: [b, w, r, g],
            5: [r, b, g, w], 6: [b, r, w, g], 7: [w, g, b, r], 8: [g, w, r, b],
        ]
        for bigEndian in [false, true] {
            for (value, corners) in expected.sorted(by: { $0.key < $1.key }) {
                let bytes = Self.withExif(stored, orientation: value, bigEndian: bigEndian)
                #expect(ExifOrientation(jpeg: bytes).rawValue == value)
                let c = try JPEG.decode(bytes)
                let size = value >= 5 ? (48, 64) : (64, 48)
                #expect(c.width == size.0 && c.height == size.1, "orientation \(value)")
                #expect(try JPEG.size(of: bytes) == size)
                let (cw, ch) = (c.width, c.height)
                let points = [(6, 6), (cw - 7, 6), (6, ch - 7), (cw - 7, ch - 7)]
                for (p, color) in zip(points, corners) {
                    #expect(Self.near(c, p.0, p.1, color), "orientation \(value) at \(p): \(c.color(x: p.0, y: p.1))")
                }
            }
        }
    }

    /// Asked for at least a size, a large photo is decoded by the least of libjpeg-turbo's
    /// factors that covers it (eighths): an eighth of 800×600 for 100×75, a quarter for 101 px
    /// wide, five eighths for just over half, never more than the whole, in the upright axes
    /// of a turned photo.
    @Test func aPhotoWantedSmallIsDecodedAtTheLeastFactorThatCoversIt() throws {
        let big = try JPEG.encode(Self.quadrants(800, 600), quality: 90)
        func decoded(_ bytes: [UInt8], _ w: Int, _ h: Int) throws -> (Int, Int) {
            let c = try JPEG.decode(bytes, atLeast: (w, h))
            return (c.width, c.height)
        }
        #expect(try decoded(big, 100, 75) == (100, 75))
        #expect(try decoded(big, 101, 75) == (200, 150))
        #expect(try decoded(big, 100, 76) == (200, 150))
        #expect(try decoded(big, 401, 10) == (500, 375))
        #expect(try decoded(big, 2000, 2000) == (800, 600))
        let small = try JPEG.decode(big, atLeast: (100, 75))
        #expect(Self.near(small, 10, 10, Self.red) && Self.near(small, 90, 65, Self.white))
        let turned = Self.withExif(big, orientation: 6)
        #expect(try decoded(turned, 75, 100) == (75, 100))
        #expect(try decoded(turned, 100, 75) == (150, 200))
    }

    /// Files that are not photos say what they are not; a file cut short says so, never a grey
    /// half picture; an EXIF block that points outside itself reads as upright.
    @Test func brokenFilesGetClearErrors() throws {
        let bytes = try JPEG.encode(Self.quadrants(), quality: 90)
        let large = try JPEG.encode(Self.quadrants(400, 300), quality: 90)
        func error(_ body: () throws -> Canvas) -> String {
            do {
                _ = try body()
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        // Cut in its pixels' data (past the tables of its header).
        #expect(error { try JPEG.decode(Array(large.prefix(large.count * 3 / 4))) }.contains("ends early"))
        #expect(error { try JPEG.decode(Array(bytes.prefix(bytes.count / 2))) }.hasPrefix("JPEG: "))
        #expect(error { try JPEG.decode([0x89, 0x50, 0x4E, 0x47]) }.hasPrefix("JPEG: not a JPEG file"))
        #expect(error { try JPEG.decode([0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 1, 2, 3]) }.hasPrefix("JPEG: "))
        #expect(error { try ImageFile.decode([]) } == "the file is empty")
        #expect(
            error { try ImageFile.decode(Array("GIF89a".utf8)) }
                == "neither a PNG nor a JPEG file (it begins with the bytes 47 49 46 38)")
        // A PNG through the same door decodes.
        let png = try PNG.encode(Self.quadrants())
        #expect(try ImageFile.decode(png).width == 64)
        // The directory's offset points past the block; a value outside 1–8; a block cut short.
        var outside = Self.withExif(bytes, orientation: 6)
        outside[12 + 4] = 0xF0  // the block (after 6 bytes of marker and length, 6 of "Exif"), then 4
        #expect(ExifOrientation(jpeg: outside) == .up)
        #expect(ExifOrientation(jpeg: Self.withExif(bytes, orientation: 9)) == .up)
        #expect(ExifOrientation(jpeg: Array(Self.withExif(bytes, orientation: 6).prefix(20))) == .up)
    }

    /// A header that claims more than a canvas may hold is refused before anything is
    /// allocated: past 32767 a side, or past `ImageFile.maximumPixels` (a kilobyte's file
    /// claiming 20000×20000 would have had 1.6 GB allocated and filled with grey).
    @Test func aHeaderClaimingTooManyPixelsIsRefused() throws {
        var bytes = try JPEG.encode(Self.quadrants(), quality: 90)
        // The frame header (start of frame 0, FF C0): its length, precision, then height and
        // width.
        let sof = try #require((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        func claim(_ w: Int, _ h: Int) -> String {
            bytes.replaceSubrange(sof + 5..<sof + 9, with: Self.u16Big(h) + Self.u16Big(w))
            do {
                _ = try JPEG.decode(bytes)
                return "decoded"
            } catch {
                return "\(error)"
            }
        }
        #expect(claim(20000, 20000) == "JPEG: a 20000×20000 image has more pixels than a decoded image may (268435456)")
        #expect(claim(40000, 10) == "JPEG: a 40000×10 image is larger than a canvas holds (32767 px a side)")
        #expect(ImageFile.sizeProblem(width: 16384, height: 16384) == nil)
        #expect(try JPEG.size(of: bytes) == (40000, 10))
    }

    /// A progressive JPEG of `scans` scans that carry no data: a header of a few dozen bytes
    /// (a grey `w`×`h` frame, a quantization table, one DC Huffman table) and then, over and
    /// over, the same ten-byte start of a DC scan.
    static func emptyScans(_ scans: Int, width w: Int, height h: Int) -> [UInt8] {
        var b: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        b += [0xFF, 0xC2, 0x00, 0x0B, 0x08] + u16Big(h) + u16Big(w) + [0x01, 0x01, 0x11, 0x00]
        b += [0xFF, 0xC4, 0x00, 0x14, 0x00, 1] + [UInt8](repeating: 0, count: 15) + [0x00]
        for _ in 0..<scans { b += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00] }
        return b + [0xFF, 0xD9]
    }

    /// A progressive file of many empty scans is refused by their count: each scan is a pass
    /// over every block of the picture however few bytes it has, so a few kilobytes of them
    /// claiming a large picture had kept a decoder busy for minutes (libjpeg's warnings, which
    /// a decode otherwise lets by, said only "premature end of data segment").
    @Test func aProgressiveFileOfEndlessScansIsRefused() throws {
        #expect(throws: Never.self) { try JPEG.decode(Self.emptyScans(3, width: 64, height: 64)) }
        let refusal = RasterError.jpeg(
            "the file has more than 500 scans (a progressive JPEG is read in one pass over the whole picture "
                + "for each; no encoder writes so many)")
        #expect(throws: refusal) { try JPEG.decode(Self.emptyScans(501, width: 64, height: 64)) }
        #expect(throws: Never.self) { try JPEG.decode(Self.emptyScans(500, width: 64, height: 64)) }
        // Refused before the decoder's first pass: the canvas, and the passes, of a 16384² picture
        // would have cost seconds each.
        let start = ContinuousClock.now
        #expect(throws: RasterError.self) { try JPEG.decode(Self.emptyScans(10_000, width: 16384, height: 16384)) }
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    /// A CMYK JPEG (Photoshop's for print: an Adobe block, four components) says so, before its
    /// canvas is allocated: libjpeg turns no inks into a screen's colours, and its words were
    /// "Unsupported color conversion request". Its header is all it takes.
    @Test func aCMYKFileSaysItIsCMYK() throws {
        var b: [UInt8] = [0xFF, 0xD8, 0xFF, 0xEE, 0x00, 0x0E] + Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 0]
        b += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        b += [0xFF, 0xC0, 0x00, 0x14, 0x08] + Self.u16Big(8) + Self.u16Big(8) + [4]
        for component in 1...4 { b += [UInt8(component), 0x11, 0x00] }
        b += [0xFF, 0xC4, 0x00, 0x14, 0x00, 1] + [UInt8](repeating: 0, count: 15) + [0x00]
        b += [0xFF, 0xDA, 0x00, 0x0E, 0x04, 1, 0, 2, 0, 3, 0, 4, 0, 0x00, 0x3F, 0x00, 0x00, 0xFF, 0xD9]
        #expect(try JPEG.size(of: b) == (8, 8))
        #expect(
            throws: RasterError.jpeg(
                "a CMYK JPEG (inks for print, not a screen's colours), which is not decoded: save it as RGB")
        ) {
            try ImageFile.decode(b)
        }
    }

    /// Bytes changed at random in a JPEG with an EXIF block, and the file cut anywhere: each
    /// either decodes or throws, and reading its orientation never traps.
    @Test func mangledFilesNeverTrap() throws {
        let bytes = Self.withExif(try JPEG.encode(Self.quadrants(32, 24), quality: 80), orientation: 6)
        var rng = SeededRandom(state: 40)
        for round in 0..<300 {
            var b = bytes
            if round % 3 == 0 {
                b = Array(b.prefix(rng.int(b.count)))
            } else {
                for _ in 0...rng.int(6) { b[rng.int(b.count)] = UInt8(truncatingIfNeeded: rng.next()) }
            }
            _ = ExifOrientation(jpeg: b)
            if let c = try? ImageFile.decode(b) { #expect(c.width > 0 && c.height > 0) }
        }
    }
}
