import CWaylandClient
import Geometry
import Glibc
import Raster

/// One wl_buffer in the pool, with the canvas that draws into its memory.
final class ShmBuffer {
    let buffer: OpaquePointer
    let canvas: Canvas
    /// Between attach+commit and wl_buffer.release the compositor may read it: never draw then.
    var isBusy = false
    /// The frame number last drawn into it (nil: never; its pixels are undefined).
    var frame: Int?

    init(buffer: OpaquePointer, canvas: Canvas) {
        self.buffer = buffer
        self.canvas = canvas
    }

    deinit { wl_buffer_destroy(buffer) }
}

/// Two or three buffers in one sealed memfd pool (an unlinked shm_open file where memfd is
/// missing), recreated whenever the size or scale changes.
final class BufferPool {
    let width: Int
    let height: Int
    let scale: Double
    private(set) var buffers: [ShmBuffer] = []
    private let fd: Int32
    private let size: Int
    private let mapping: UnsafeMutableRawPointer

    init(shm: OpaquePointer, width: Int, height: Int, scale: Double, count: Int = 3) throws {
        precondition(count >= 2 && count <= 3, "2-3 buffers")
        self.width = width
        self.height = height
        self.scale = scale
        let stride = width * 4
        let one = stride * height
        size = one * count
        guard width > 0, height > 0, size < Int(Int32.max) else {
            throw WaylandError.sharedMemory("a \(width)×\(height) buffer pool is not possible")
        }
        var f = sw_memfd_create("scrollway-buffers")
        let sealed = f >= 0
        if f < 0 { f = sw_shm_open_anonymous() }
        guard f >= 0 else {
            throw WaylandError.sharedMemory("memfd_create and shm_open failed: \(String(cString: strerror(errno)))")
        }
        guard ftruncate(f, off_t(size)) == 0 else {
            let why = String(cString: strerror(errno))
            close(f)
            throw WaylandError.sharedMemory("cannot size the pool to \(size) bytes: \(why)")
        }
        if sealed { _ = sw_memfd_seal_size(f) }
        guard let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0), map != MAP_FAILED else {
            let why = String(cString: strerror(errno))
            close(f)
            throw WaylandError.sharedMemory("cannot map \(size) bytes: \(why)")
        }
        fd = f
        mapping = map
        let pool = wl_shm_create_pool(shm, fd, Int32(size))
        defer { wl_shm_pool_destroy(pool) }
        for i in 0..<count {
            guard
                let b = wl_shm_pool_create_buffer(
                    pool, Int32(i * one), Int32(width), Int32(height), Int32(stride), WL_SHM_FORMAT_ARGB8888.rawValue)
            else { throw WaylandError.sharedMemory("wl_shm_pool.create_buffer failed") }
            let canvas = try Canvas(
                wrapping: map + i * one, width: width, height: height, stride: stride, scale: scale, owner: nil)
            let buffer = ShmBuffer(buffer: b, canvas: canvas)
            wl_buffer_add_listener(b, Listeners.buffer, Unmanaged.passUnretained(buffer).toOpaque())
            buffers.append(buffer)
        }
    }

    deinit {
        buffers.removeAll()  // wl_buffer_destroy before the memory goes
        munmap(mapping, size)
        close(fd)
    }

    /// A buffer the compositor is not reading: the one drawn most recently, so copy-forward
    /// has the least to bring up to date.
    func acquire() -> ShmBuffer? {
        buffers.filter { !$0.isBusy }.max { ($0.frame ?? -1) < ($1.frame ?? -1) }
    }
}
