import Glibc
import ScrollwayCPNG
import ScrollwayGeometry

/// PNG encoding and decoding through libpng's simplified API (no setjmp; errors come back in
/// the image struct's message).
public enum PNG {
    /// Encodes a canvas as an 8-bit RGBA PNG. Pixels are un-premultiplied first, since PNG
    /// stores straight alpha. The straight copy and libpng's output are allocated with malloc and
    /// checked, as a canvas is: a picture as large as a canvas may be (16384² at scale 1, a
    /// gigabyte straight) had trapped when memory was short.
    public static func encode(_ canvas: Canvas) throws -> [UInt8] {
        let w = canvas.width
        let h = canvas.height
        guard let straightMemory = malloc(w * h * 4) else { throw RasterError.pngMemory(width: w, height: h) }
        defer { free(straightMemory) }
        let straight = straightMemory.bindMemory(to: UInt8.self, capacity: w * h * 4)
        canvas.withPixels { px in
            let rowWords = canvas.stride / 4
            for y in 0..<h {
                for x in 0..<w {
                    let p = px[y * rowWords + x]
                    let a = p >> 24
                    let o = (y * w + x) * 4
                    func un(_ c: UInt32) -> UInt8 { a == 0 ? 0 : UInt8(min(255, (c * 255 + a / 2) / a)) }
                    straight[o] = un(p & 0xff)  // B
                    straight[o + 1] = un((p >> 8) & 0xff)  // G
                    straight[o + 2] = un((p >> 16) & 0xff)  // R
                    straight[o + 3] = UInt8(a)
                }
            }
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(w)
        image.height = UInt32(h)
        image.format = UInt32(PNG_FORMAT_BGRA)
        var size: Int = 0
        // First call sizes the output, second writes it.
        guard png_image_write_to_memory(&image, nil, &size, 0, straight, Int32(w * 4), nil) != 0 else {
            throw RasterError.png(message(image))
        }
        guard let out = malloc(max(1, size)) else { throw RasterError.pngMemory(width: w, height: h) }
        defer { free(out) }
        guard png_image_write_to_memory(&image, out, &size, 0, straight, Int32(w * 4), nil) != 0 else {
            throw RasterError.png(message(image))
        }
        return Array(UnsafeRawBufferPointer(start: out, count: size))
    }

    /// Writes a canvas to `path` as a PNG (an app needs no file API of its own for it), whole
    /// or not at all (`writeFile`).
    public static func write(_ canvas: Canvas, toFile path: String) throws {
        try writeFile(encode(canvas), to: path)
    }

    /// Writes `bytes` to `path` whole or not at all: into a temporary file beside it, renamed
    /// over `path` once every byte is written and the file closed without error, so a full disk
    /// or a file size limit leaves no truncated picture under the name (and what was there
    /// stays). A device or a pipe (`/dev/stdout`) is written as it is: renaming over it would
    /// replace it. A symbolic link is renamed over, as the file it points to would be: to write
    /// through one, pass its target (the command line does, with `OutputFile.destination`).
    /// Errors name the path and the reason.
    public static func writeFile(_ bytes: [UInt8], to path: String) throws {
        func failure(_ reason: Int32) -> RasterError {
            .fileWrite(path: path, reason: String(cString: strerror(reason)))
        }
        var st = stat()
        let special = stat(path, &st) == 0 && st.st_mode & S_IFMT != S_IFREG
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let target = special ? path : directory + ".\(name).\(getpid()).partial"
        let fd =
            special ? open(target, O_WRONLY | O_CLOEXEC) : open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(errno) }
        var written = 0
        var error: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    error = errno
                    return
                }
                written += n
            }
        }
        if close(fd) != 0 && error == 0 { error = errno }
        if error == 0 && !special && rename(target, path) != 0 { error = errno }
        if error != 0 {
            if !special { unlink(target) }
            throw failure(error)
        }
    }

    /// Decodes PNG bytes into a new canvas (premultiplied), at `scale`. libpng writes its
    /// straight BGRA rows into the canvas's own memory, premultiplied there after: a straight
    /// copy beside the canvas doubled what a decode needs (two gigabytes for the largest
    /// picture), and as a Swift array its allocation trapped when memory was short, where the
    /// canvas's is checked and an error.
    public static func decode(_ bytes: [UInt8], scale: Double = 1) throws -> Canvas {
        guard isPNG(bytes) else {
            throw RasterError.png("not a PNG file (it does not begin with the PNG signature)")
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_memory(&image, bytes, bytes.count) != 0 else {
            throw RasterError.png(message(image))
        }
        // libpng's simplified API scales an interlaced 16-bit file's rows to 8 bits from stale
        // rows of the pass before (libpng issue 853, in its fix of a buffer overflow, which
        // distributions carry): half its samples came out wrong. Such a file is read as 16-bit
        // linear light, another path, and turned into 8-bit sRGB here (`readLinear`). The
        // header's last byte says whether it is interlaced: IHDR comes first in every PNG, and
        // libpng has read it.
        let linear = image.format & UInt32(PNG_FORMAT_FLAG_LINEAR) != 0 && bytes.count > 28 && bytes[28] != 0
        image.format =
            linear
            ? UInt32(PNG_FORMAT_FLAG_LINEAR | PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA) : UInt32(PNG_FORMAT_BGRA)
        let w = Int(image.width)
        let h = Int(image.height)
        // Checked against what a canvas holds before allocating: a PNG header may claim a
        // million pixels a side (terabytes).
        if let why = ImageFile.sizeProblem(width: w, height: h) {
            png_image_free(&image)
            throw RasterError.png(why)
        }
        let canvas: Canvas
        do {
            canvas = try Canvas(width: w, height: h, scale: scale)
        } catch {
            png_image_free(&image)
            throw error
        }
        if linear {
            try readLinear(&image, into: canvas)
            return canvas
        }
        let read = canvas.withPixels { px in
            png_image_finish_read(&image, nil, px.baseAddress, Int32(canvas.stride), nil)
        }
        guard read != 0 else { throw RasterError.png(message(image)) }
        canvas.withPixels { px in
            let rowWords = canvas.stride / 4
            for y in 0..<h {
                for x in 0..<w {
                    // B, G, R, A in memory: the canvas's little-endian ARGB word, straight.
                    let p = px[y * rowWords + x]
                    let a = p >> 24
                    func pre(_ shift: UInt32) -> UInt32 { ((((p >> shift) & 0xff) * a + 127) / 255) << shift }
                    px[y * rowWords + x] = a << 24 | pre(16) | pre(8) | pre(0)
                }
            }
        }
        return canvas
    }

    /// Finishes reading `image` as 16-bit linear RGBA (its colour premultiplied, as libpng gives
    /// linear light) into memory of its own, and writes it into `canvas` as the 8-bit read would
    /// have: sRGB, then premultiplied.
    private static func readLinear(_ image: inout png_image, into canvas: Canvas) throws {
        let (w, h) = (canvas.width, canvas.height)
        guard let memory = malloc(w * h * 8) else {
            png_image_free(&image)
            throw RasterError.png("not enough memory to read the 16-bit samples of a \(w)×\(h) picture")
        }
        defer { free(memory) }
        guard png_image_finish_read(&image, nil, memory, Int32(w * 4), nil) != 0 else {
            throw RasterError.png(message(image))
        }
        let samples = memory.bindMemory(to: UInt16.self, capacity: w * h * 4)
        // sRGB's encoding of each 16-bit linear level.
        let encoded = (0...65535).map { (level: Int) -> UInt32 in
            let l = Double(level) / 65535
            let s = l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055
            return UInt32(Int(clamping: s * 255, rounding: .toNearestOrAwayFromZero))
        }
        canvas.withPixels { px in
            let rowWords = canvas.stride / 4
            for y in 0..<h {
                for x in 0..<w {
                    let o = (y * w + x) * 4
                    let a = UInt32(samples[o + 3])
                    let a8 = (a * 255 + 32767) / 65535
                    func channel(_ i: Int) -> UInt32 {
                        guard a > 0 else { return 0 }
                        let straight = min(65535, (UInt32(samples[o + i]) * 65535 + a / 2) / a)
                        return (encoded[Int(straight)] * a8 + 127) / 255
                    }
                    px[y * rowWords + x] = a8 << 24 | channel(0) << 16 | channel(1) << 8 | channel(2)
                }
            }
        }
    }

    /// Whether `bytes` begin as a PNG file does.
    public static func isPNG(_ bytes: [UInt8]) -> Bool { bytes.starts(with: signature) }

    /// The eight bytes every PNG file begins with.
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// libpng's message, with what it means where its words are a programmer's: it says "read
    /// beyond end of data" of a file cut short.
    private static func message(_ image: png_image) -> String {
        let said = withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return said.contains("beyond end of data") ? "the data ends early (a file cut short?): \(said)" : said
    }
}
