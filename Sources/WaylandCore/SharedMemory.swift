import Glibc
import ScrollwayCSystem
import ScrollwayCWaylandClient
import ScrollwayGeometry

/// An anonymous shared-memory file, sized and mapped: what wl_shm buffers live in. A sealed
/// memfd (the compositor can trust its size), or an unlinked POSIX shared-memory file where
/// memfd is missing. Written once for the window's buffers and the rig's captures.
public final class SharedMemory {
    public let fd: Int32
    public let size: Int
    public let mapping: UnsafeMutableRawPointer

    /// A new file of `size` bytes named `name` (for /proc and debuggers), mapped read-write.
    public init(name: String, size: Int) throws(SharedMemoryError) {
        guard size > 0, size <= Int(Int32.max) else { throw .impossibleSize(size) }
        var f = sw_memfd_create(name)
        let sealable = f >= 0
        if f < 0 { f = sw_shm_open_anonymous() }
        guard f >= 0 else { throw .system("memfd_create and shm_open failed: \(String(cString: strerror(errno)))") }
        guard ftruncate(f, off_t(size)) == 0 else {
            let why = String(cString: strerror(errno))
            close(f)
            throw .system("cannot size shared memory to \(size) bytes: \(why)")
        }
        if sealable { _ = sw_memfd_seal_size(f) }
        guard let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0), map != MAP_FAILED else {
            let why = String(cString: strerror(errno))
            close(f)
            throw .system("cannot map \(size) bytes of shared memory: \(why)")
        }
        fd = f
        self.size = size
        mapping = map
    }

    deinit {
        munmap(mapping, size)
        close(fd)
    }

    /// A wl_shm_pool over the whole file (the caller destroys it when it has made its buffers).
    public func makePool(shm: OpaquePointer?) throws(SharedMemoryError) -> OpaquePointer {
        guard let pool = wl_shm_create_pool(shm, fd, Int32(size)) else { throw .system("wl_shm.create_pool failed") }
        return pool
    }
}

public enum SharedMemoryError: Error, Equatable, Sendable, CustomStringConvertible {
    case impossibleSize(Int)
    case system(String)

    public var description: String {
        switch self {
        case .impossibleSize(let n): return "\(n) bytes of shared memory is not possible (1 byte to 2 GiB)"
        case .system(let why): return why
        }
    }
}
