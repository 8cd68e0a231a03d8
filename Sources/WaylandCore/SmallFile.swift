import Glibc

/// Reading a small file's text whole with plain system calls: /proc and cgroup files, which say
/// they are empty until read, and a cursor theme's index.theme.
public enum SmallFile {
    /// The file's text, read to its end or to `limit` bytes, whichever comes first; nil when it
    /// cannot be opened or read. It is opened as it is: a caller that must not wait on a FIFO
    /// checks that the path is a regular file first.
    public static func text(_ path: String, limit: Int = .max) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let want = min(chunk.count, limit - bytes.count)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, want) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
