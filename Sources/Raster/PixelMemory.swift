import Glibc
import ScrollwayCSystem

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
    ///
    /// Its pages are faulted in here, in one call for all of them (`sw_prefault`), not one
    /// fault each as drawing first reaches them: a growing tile cache draws every tile in new
    /// memory from the kernel (a 256 px tile is 64 pages), and each fault is a trap of its own
    /// where the call walks the pages in a loop. Memory malloc reuses from its heap is already
    /// there (calloc cleared it), and the call then only finds each page present. A kernel
    /// before 5.14 refuses the call, and the pages then fault in as drawing reaches them.
    public init?(width: Int, height: Int) {
        guard (1...32767).contains(width), (1...32767).contains(height), let bytes = calloc(width * height, 4)
        else { return nil }
        self.width = width
        self.height = height
        self.bytes = bytes
        Self.prefault(bytes, count: width * height * 4)
    }

    /// Faults in the whole pages inside `count` bytes from `start` (malloc's blocks begin past
    /// a header, not on a page).
    private static func prefault(_ start: UnsafeMutableRawPointer, count: Int) {
        let page = sysconf(Int32(truncatingIfNeeded: _SC_PAGESIZE))
        guard page > 0 else { return }
        let first = (Int(bitPattern: start) + page - 1) / page * page
        let end = (Int(bitPattern: start) + count) / page * page
        guard end > first, let from = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = sw_prefault(from, end - first)
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
