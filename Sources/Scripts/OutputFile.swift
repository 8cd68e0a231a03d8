import Glibc
import ScrollwayGeometry

/// Where a command's output files go, as a shell's `>` would put them: a symbolic link is
/// written through to its target, and a device or a pipe is written as it is. Foundation's
/// `FileManager.createFile` writes a file beside the path and renames it over it, which replaces
/// a link, a device or a pipe itself with a plain file (`demo --frame-stats /dev/stderr`, run as
/// root, left /dev/stderr an empty file), and says nothing of why it failed.
public enum OutputFile {
    /// Opens `path` for writing in place, made if missing and emptied if a regular file, through
    /// a link to its target. Throws errno's text when it cannot.
    public static func openInPlace(_ path: String) throws(Failure) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(reason: String(cString: strerror(errno))) }
        return fd
    }

    /// The file a write to `path` reaches: the end of its chain of links (resolved against each
    /// link's own folder), or `path` itself when it is no link. A file written beside it and
    /// renamed over it then replaces the target, not the link.
    public static func destination(of path: String) -> String {
        var current = path
        // A chain longer than the kernel follows (40) is a loop: left as it is.
        for _ in 0..<40 {
            var st = stat()
            guard lstat(current, &st) == 0, st.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n > 0 else { return current }
            let target = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if target.hasPrefix("/") {
                current = target
            } else if let slash = current.lastIndex(of: "/") {
                current = String(current[...slash]) + target
            } else {
                current = target
            }
        }
        return current
    }

    /// Makes the folder `path` and those above it that are missing, one at a time with mkdir(2),
    /// so that a failure says the system's own reason and which folder it was (Foundation's
    /// says only "error 512"). Returns the folders it made, outermost first.
    public static func makeFolders(_ path: String) throws(FolderFailure) -> [String] {
        var made: [String] = []
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            var st = stat()
            if stat(prefix, &st) == 0 { continue }
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw FolderFailure(folder: prefix, reason: String(cString: strerror(errno)))
            }
            made.append(prefix)
        }
        return made
    }

    /// A folder `makeFolders` could not make, and errno's text.
    public struct FolderFailure: Error, Equatable {
        public let folder: String
        public let reason: String
    }

    /// Why a file could not be opened: errno's text.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let reason: String
        public var description: String { reason }
    }
}
