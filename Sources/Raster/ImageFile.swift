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
