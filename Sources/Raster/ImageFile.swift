/// An image file's bytes decoded as what they are, PNG or JPEG, told by their first bytes (a
/// file's name may say otherwise).
public enum ImageFile {
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
