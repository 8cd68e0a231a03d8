import Glibc

/// Pixel memory that outlives the canvases drawn in it: a tile's image, given back when its
/// tile is evicted, is drawn into again for the next tile of its size instead of being freed
/// and allocated anew (`TileRasterizer`). A tile-sized block is past malloc's threshold for
/// memory of its own (or, once malloc raised that, near the top of a thread's heap): freeing one
/// can hand its pages back to the kernel (an unmap, or a trim of the heap, which makes every
/// thread of the process flush its TLB), and allocating the next faults fresh zeroed pages in.
///
/// `@unchecked Sendable`: one thread uses it at a time, by hand-over. A worker draws into it,
/// the main thread shows it through the canvas wrapping it, and it is handed back only once no
/// canvas wraps it any more.
public final class PixelMemory: @unchecked Sendable {
    /// Size in device pixels (premultiplied ARGB8888, rows `width × 4` bytes apart).
    public let width: Int
    public let height: Int
    private let bytes: UnsafeMutableRawPointer

    /// Transparent memory for `width`×`height` pixels; nil when the size is empty or too large
    /// for a canvas, or the memory cannot be had.
    public init?(width: Int, height: Int) {
        guard (1...32767).contains(width), (1...32767).contains(height), let bytes = calloc(width * height, 4)
        else { return nil }
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    deinit { free(bytes) }

    /// Its size in bytes.
    public var byteCount: Int { width * height * 4 }

    /// Transparent again, for the next canvas drawn in it.
    public func clear() { memset(bytes, 0, byteCount) }

    /// A canvas at `scale` drawing into this memory, which it keeps alive.
    public func canvas(scale: Double) throws -> Canvas {
        try Canvas(wrapping: bytes, width: width, height: height, stride: width * 4, scale: scale, owner: self)
    }
}
