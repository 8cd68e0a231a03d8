import Glibc
import ScrollwayCTurboJPEG
import ScrollwayGeometry

/// JPEG decoding and encoding through libjpeg-turbo's TurboJPEG API (errors come back as return
/// values and a message; libjpeg's own API stops on a broken file with longjmp, which Swift
/// cannot catch).
///
/// A decoded photo is turned upright by its EXIF orientation (`ExifOrientation`): a camera or
/// phone held on its side writes its pixels as the sensor saw them and says how to turn them,
/// and every photo viewer turns them.
public enum JPEG {
    /// The pixels' size upright (after the EXIF turn), read from the header without decoding.
    public static func size(of bytes: [UInt8]) throws -> (width: Int, height: Int) {
        let header = try Header(bytes)
        return header.orientation.swapsAxes ? (header.height, header.width) : (header.width, header.height)
    }

    /// Decodes JPEG bytes into a new, opaque canvas at `scale`, turned upright.
    ///
    /// With `atLeast` (upright device pixels), the decoder scales by the smallest of the
    /// factors libjpeg-turbo scales by in the transform itself (1/8 to 2, in eighths) that
    /// still covers that size: a thumbnail of a 12-megapixel photo is decoded at an eighth of
    /// its size, at a fraction of the work, and then fitted as any image is.
    ///
    /// Warnings libjpeg reports while it decodes the whole picture (stray bytes between
    /// segments, which many cameras write) do not stop it, as they stop no photo viewer; a
    /// file whose data ends early does (libjpeg's "Premature end of JPEG file", after which it
    /// fills the rest with grey).
    public static func decode(
        _ bytes: [UInt8], scale: Double = 1, atLeast: (width: Int, height: Int)? = nil
    ) throws
        -> Canvas
    {
        let header = try Header(bytes)
        let turn = header.orientation
        // The size wanted in the file's own (stored) axes.
        let wanted = atLeast.map { turn.swapsAxes ? ($0.height, $0.width) : ($0.width, $0.height) }
        let factor = wanted.map { scalingFactor(for: header, covering: $0) } ?? (1, 1)
        let w = scaled(header.width, factor)
        let h = scaled(header.height, factor)
        if let why = ImageFile.sizeProblem(width: w, height: h) { throw RasterError.jpeg(why) }
        if header.isCMYK {
            throw RasterError.jpeg(
                "a CMYK JPEG (inks for print, not a screen's colours), which is not decoded: save it as RGB")
        }
        if scanCount(bytes, upTo: maximumScans) > maximumScans {
            throw RasterError.jpeg(
                "the file has more than \(maximumScans) scans (a progressive JPEG is read in one pass over the "
                    + "whole picture for each; no encoder writes so many)")
        }
        let stored = try Canvas(width: w, height: h, scale: turn == .up ? scale : 1)
        try header.handle.decompress(bytes, into: stored)
        return turn == .up ? stored : try turn.applied(to: stored, scale: scale)
    }

    /// The most scans a progressive file may have: libjpeg-turbo's own limit for decoders that
    /// read what anyone sends (`TJFLAG_LIMITSCANS`). Each scan is a pass over every block of the
    /// picture, however few bytes it has, so a file of a few kilobytes of empty scans claiming a
    /// large picture keeps a decoder busy for minutes; an encoder writes a dozen or so.
    public static let maximumScans = 500

    /// How many scans (start-of-scan markers) `bytes` hold, counted up to one past `limit`,
    /// by walking the markers as libjpeg does (each scan's data skipped to the next marker):
    /// the file is refused before any pass, where the decoder's own limit stops it only after
    /// its first `limit` passes. The decoder's limit stays, for a file this walk reads
    /// otherwise.
    static func scanCount(_ b: [UInt8], upTo limit: Int) -> Int {
        var count = 0
        var i = 2
        while i + 1 < b.count, count <= limit {
            // Bytes between segments (libjpeg skips them with a warning) and fill bytes.
            guard b[i] == 0xFF, b[i + 1] != 0xFF else {
                i += 1
                continue
            }
            let marker = b[i + 1]
            if marker == 0xD9 { break }
            // Markers without a length: restarts, TEM, and a stuffed zero.
            if (0xD0...0xD7).contains(marker) || marker <= 0x01 {
                i += 2
                continue
            }
            guard i + 3 < b.count else { break }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2 else { break }
            i += 2 + length
            guard marker == 0xDA else { continue }
            count += 1
            // The scan's entropy-coded data, up to the next marker that is not a stuffed zero or
            // a restart.
            while i + 1 < b.count,
                !(b[i] == 0xFF && b[i + 1] != 0 && b[i + 1] != 0xFF && !(0xD0...0xD7).contains(b[i + 1]))
            {
                i += 1
            }
        }
        return count
    }

    /// Encodes a canvas as a baseline JPEG (4:2:0, `quality` 1–100). JPEG has no alpha: the
    /// colour channels are written as they are, which for premultiplied pixels is the picture
    /// over black.
    public static func encode(_ canvas: Canvas, quality: Int = 90) throws -> [UInt8] {
        guard let handle = tjInitCompress() else { throw RasterError.jpeg("cannot start the JPEG encoder") }
        defer { tjDestroy(handle) }
        guard canvas.width > 0, canvas.height > 0 else {
            throw RasterError.jpeg("a \(canvas.width)×\(canvas.height) picture has no pixels to encode")
        }
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        defer { tjFree(out) }
        let status = canvas.withPixels { px in
            px.withMemoryRebound(to: UInt8.self) { bytes in
                tjCompress2(
                    handle, bytes.baseAddress, Int32(canvas.width), Int32(canvas.stride), Int32(canvas.height),
                    Int32(TJPF_BGRX.rawValue), &out, &size, Int32(TJSAMP_420.rawValue),
                    Int32(min(100, max(1, quality))), 0)
            }
        }
        guard status == 0, let out else { throw RasterError.jpeg(message(handle)) }
        return Array(UnsafeBufferPointer(start: out, count: Int(size)))
    }

    /// Whether `bytes` begin as a JPEG file does (the start-of-image marker and another).
    public static func isJPEG(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF
    }

    /// What a file's header says: its stored size, its orientation, and the decoder that read it.
    private struct Header {
        let handle: Decompressor
        let width: Int
        let height: Int
        let orientation: ExifOrientation
        /// Whether its colours are inks, CMYK or YCCK (Photoshop's for print): libjpeg turns no
        /// ink into a screen's colours, and said only "Unsupported color conversion request",
        /// once the picture's canvas was allocated.
        let isCMYK: Bool

        init(_ bytes: [UInt8]) throws {
            guard JPEG.isJPEG(bytes) else {
                throw RasterError.jpeg("not a JPEG file (it does not begin with the JPEG start-of-image marker)")
            }
            handle = try Decompressor()
            var w: Int32 = 0
            var h: Int32 = 0
            var subsampling: Int32 = 0
            var colorspace: Int32 = 0
            guard tjDecompressHeader3(handle.raw, bytes, UInt(bytes.count), &w, &h, &subsampling, &colorspace) == 0
            else {
                throw RasterError.jpeg(JPEG.message(handle.raw))
            }
            width = Int(w)
            height = Int(h)
            isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
            orientation = ExifOrientation(jpeg: bytes)
        }
    }

    /// A TurboJPEG decompressor, destroyed with its owner.
    private final class Decompressor {
        let raw: tjhandle

        init() throws {
            guard let raw = tjInitDecompress() else { throw RasterError.jpeg("cannot start the JPEG decoder") }
            self.raw = raw
        }

        deinit { tjDestroy(raw) }

        /// Decodes `bytes` into every pixel of `canvas` (its size one the decoder scales to).
        func decompress(_ bytes: [UInt8], into canvas: Canvas) throws {
            let status = canvas.withPixels { px in
                px.withMemoryRebound(to: UInt8.self) { out in
                    tjDecompress2(
                        raw, bytes, UInt(bytes.count), out.baseAddress, Int32(canvas.width), Int32(canvas.stride),
                        Int32(canvas.height), Int32(TJPF_BGRA.rawValue), Int32(TJFLAG_LIMITSCANS))
                }
            }
            guard status != 0 else { return }
            let said = JPEG.message(raw)
            if tjGetErrorCode(raw) == Int32(TJERR_WARNING.rawValue), !said.contains("Premature end") { return }
            throw RasterError.jpeg(
                said.contains("Premature end") ? "the data ends early (a file cut short?): \(said)" : said)
        }
    }

    /// The least of TurboJPEG's scaling factors (num/denom) whose scaled size covers `wanted`
    /// in both axes; the whole size when none smaller does.
    private static func scalingFactor(for header: Header, covering wanted: (Int, Int)) -> (num: Int, denom: Int) {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return (1, 1) }
        var best = (num: 1, denom: 1)
        for i in 0..<Int(count) {
            let f = (num: Int(factors[i].num), denom: Int(factors[i].denom))
            // Only shrinking factors: a larger decode than the photo's own is never wanted.
            guard f.num < f.denom, f.num * best.denom < best.num * f.denom else { continue }
            if scaled(header.width, f) >= wanted.0, scaled(header.height, f) >= wanted.1 { best = f }
        }
        return best
    }

    /// TurboJPEG's `TJSCALED`: a dimension scaled by a factor, rounded up.
    private static func scaled(_ dimension: Int, _ f: (num: Int, denom: Int)) -> Int {
        (dimension * f.num + f.denom - 1) / f.denom
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown JPEG error" }
        return String(cString: text)
    }
}
