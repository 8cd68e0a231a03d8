/// What can go wrong while drawing: every case says what and why.
public enum RasterError: Error, Equatable, CustomStringConvertible {
    /// A canvas of this many device pixels could not be allocated (or is absurd).
    case allocationFailed(width: Int, height: Int)
    /// fontconfig/fcft found no font for the pattern.
    case fontNotFound(String)
    /// fcft could not be initialised (fontconfig or FreeType failed).
    case fontLibraryUnavailable
    /// libpng reported an error.
    case png(String)
    /// libjpeg-turbo reported an error, or the bytes are no JPEG a canvas can hold.
    case jpeg(String)
    /// The bytes are no image file of a kind we decode (`ImageFile`).
    case imageFormat(String)
    /// A file could not be written whole (`PNG.writeFile`): where, and the system's reason.
    case fileWrite(path: String, reason: String)
    /// An image file could not be read (`ImageFile.read`): where, and why (the system's reason, or
    /// what the path is instead of a file).
    case fileRead(path: String, reason: String)
    /// The memory to encode a picture of this many device pixels as a PNG could not be had.
    case pngMemory(width: Int, height: Int)

    public var description: String {
        switch self {
        case .allocationFailed(let w, let h): return "cannot allocate a \(w)×\(h) pixel canvas"
        case .fontNotFound(let pattern): return "no font matches '\(pattern)' (is fonts-dejavu-core installed?)"
        case .fontLibraryUnavailable: return "fcft could not be initialised (fontconfig/FreeType)"
        case .png(let message): return "PNG: \(message)"
        case .jpeg(let message): return "JPEG: \(message)"
        case .imageFormat(let message): return message
        case .fileWrite(let path, let reason): return "cannot write '\(path)': \(reason)"
        case .fileRead(let path, let reason): return "cannot read '\(path)': \(reason)"
        case .pngMemory(let w, let h): return "not enough memory to encode a \(w)×\(h) pixel picture as a PNG"
        }
    }
}
