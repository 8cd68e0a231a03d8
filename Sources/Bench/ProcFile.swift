import Foundation

/// Reading a file under /proc whole. Such a file says it is empty (`st_size` 0), and
/// `String(contentsOfFile:)` then reads a single block of it: a process's maps, or the mount
/// table of a desktop or a container host, run past 4 KB and came back cut short. Every /proc
/// file the bench reads goes through here.
enum ProcFile {
    /// The file's text read to its end, or nil when it cannot be opened or read.
    static func text(_ path: String) -> String? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        // readToEnd() gives nil for a file with nothing in it.
        guard let data = try? file.readToEnd() ?? Data() else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
