import Glibc
import ScrollwayGeometry

/// An image file's bytes decoded as what they are, PNG or JPEG, told by their first bytes (a
/// file's name may say otherwise).
public enum ImageFile {
    /// The most pixels a decoded image may have (16384², a gigabyte of canvas): a file's header
    /// may claim up to 32767 a side, which a canvas holds, and a file of a kilobyte claiming
    /// that would have four gigabytes allocated (twice for a JPEG turned by its EXIF
    /// orientation) and written, since libjpeg fills what a file cut short lacks. The largest
    /// camera sensors' photos (150 megapixels) fit.
    public static let maximumPixels = 1 << 28

    /// Why an image of `width`×`height` cannot be decoded (a side past what a canvas holds, or
    /// more than `maximumPixels`), nil if it can: an app can refuse by its header alone a file
    /// it would never be able to show (a JPEG's thumbnail is decoded smaller than the photo).
    public static func sizeProblem(width: Int, height: Int) -> String? {
        guard (1...32767).contains(width), (1...32767).contains(height) else {
            return "a \(width)×\(height) image is larger than a canvas holds (32767 px a side)"
        }
        guard width * height <= maximumPixels else {
            return "a \(width)×\(height) image has more pixels than a decoded image may (\(maximumPixels))"
        }
        return nil
    }

    /// The most bytes `read` takes from an image file: four for each pixel a decode may make.
    /// A PNG or JPEG is no larger than its pixels uncompressed (all but a 16-bit PNG stored
    /// without compression), and a path that is no photo (a disk image renamed, a link to
    /// `/dev/zero`) must not have all of it taken into memory.
    public static let maximumFileBytes = 4 * maximumPixels

    /// The bytes of the image file at `path`, for `decode`. Only a regular file is read: a
    /// named pipe would keep the reader waiting for a writer (a decoder's thread, for ever) and
    /// a device would never end, so they and directories are named as what they are; a file
    /// larger than `maximumFileBytes` is refused by its size, before anything is read. Errors
    /// are `RasterError.fileRead`, with the path.
    public static func read(_ path: String) throws -> [UInt8] {
        func failure(_ reason: String) -> RasterError { .fileRead(path: path, reason: reason) }
        func systemFailure() -> RasterError { failure(String(cString: strerror(errno))) }
        // Non-blocking, so that opening a pipe does not wait for its writer.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw systemFailure() }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw systemFailure() }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw failure("a directory, not an image file")
        case S_IFIFO: throw failure("a pipe, not an image file")
        case S_IFCHR, S_IFBLK: throw failure("a device, not an image file")
        default: throw failure("not a regular file")
        }
        let size = Int(st.st_size)
        guard size <= maximumFileBytes else {
            throw failure("\(size) bytes, more than an image file may have (\(maximumFileBytes))")
        }
        // The size the file had when opened: one that grows meanwhile is read no further.
        var bytes = [UInt8](repeating: 0, count: size)
        var count = 0
        try bytes.withUnsafeMutableBytes { buffer in
            while count < size {
                let n = Glibc.read(fd, buffer.baseAddress! + count, size - count)
                if n == 0 { break }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw systemFailure()
                }
                count += n
            }
        }
        return count == size ? bytes : Array(bytes.prefix(count))
    }

    /// Decodes PNG or JPEG bytes into a new canvas at `scale` (a JPEG turned upright by its
    /// EXIF orientation). `atLeast` (device pixels) lets a JPEG be decoded smaller, down to
    /// that size (`JPEG.decode`); a PNG is always decoded whole.
    public static func decode(
        _ bytes: [UInt8], scale: Double = 1, atLeast: (width: Int, height: Int)? = nil
    ) throws
        -> Canvas
    {
        if JPEG.isJPEG(bytes) { return try JPEG.decode(bytes, scale: scale, atLeast: atLeast) }
        if PNG.isPNG(bytes) { return try PNG.decode(bytes, scale: scale) }
        let start = bytes.prefix(4).map { String($0, radix: 16, uppercase: true) }.joined(separator: " ")
        throw RasterError.imageFormat(
            bytes.isEmpty ? "the file is empty" : "neither a PNG nor a JPEG file (it begins with the bytes \(start))")
    }
}
