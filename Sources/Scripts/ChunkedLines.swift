import Foundation
import ScrollwayGeometry

/// Lines of a file read 64 KiB at a time, never held whole: what the script reader, the trace
/// reader and the stream of a rig's standard input share. A line longer than
/// `ScriptLimits.maximumLineBytes` is an error at its line, and a read error says why; both
/// name the file and line.
struct ChunkedLines {
    private let handle: FileHandle?
    private let file: String
    /// What one line is, for the too-long message ("a script line is one small JSON object").
    private let lineIs: String
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next newline goes on: the bytes from `start` to here hold none
    /// (a long line written a few bytes at a time is searched once, not once a read).
    private var scanned = 0
    private var atEnd = false
    /// FNV-1a over every line returned so far, each with its end: two reads of a file that gave
    /// the same lines have the same digest (how a script read twice knows it did not change).
    private(set) var digest: UInt64 = 0xcbf2_9ce4_8422_2325

    private mutating func mix(_ line: [UInt8]) {
        var h = digest
        for b in line { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        digest = (h ^ 0x0A) &* 0x100_0000_01b3
    }

    init(handle: FileHandle, file: String, lineIs: String) {
        self.handle = handle
        self.file = file
        self.lineIs = lineIs
    }

    /// Lines whose bytes the caller reads (`next(after:read:)`).
    init(file: String, lineIs: String) {
        handle = nil
        self.file = file
        self.lineIs = lineIs
    }

    /// The next line of the file without its newline (`number` is the previous line's), nil at
    /// the end.
    mutating func next(after number: Int) throws -> [UInt8]? {
        guard let handle else { return nil }
        let file = self.file
        return try next(after: number) {
            do {
                guard let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty else { return nil }
                return Array(chunk)
            } catch {
                throw ScriptError(file: file, line: number + 1, message: "cannot read: \(ScriptText.reason(of: error))")
            }
        }
    }

    /// The next line without its newline, nil at the end; `read` gives the bytes that come next
    /// (none yet: asked again; nil: the end).
    mutating func next(after number: Int, read: () throws -> [UInt8]?) throws -> [UInt8]? {
        while true {
            if let nl = buffer[max(start, scanned)...].firstIndex(of: 0x0A) {
                // The newline may come in the chunk after the limit was reached: the line's own
                // length decides, not what was buffered before it.
                guard nl - start <= ScriptLimits.maximumLineBytes else { throw tooLong(number + 1) }
                let line = Array(buffer[start..<nl])
                start = nl + 1
                scanned = start
                mix(line)
                return line
            }
            scanned = buffer.count
            if buffer.count - start > ScriptLimits.maximumLineBytes { throw tooLong(number + 1) }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = Array(buffer[start...])
                start = buffer.count
                scanned = start
                mix(line)
                return line
            }
            buffer.removeFirst(start)
            scanned -= start
            start = 0
            if let chunk = try read() { buffer.append(contentsOf: chunk) } else { atEnd = true }
        }
    }

    private func tooLong(_ line: Int) -> ScriptError {
        ScriptError(
            file: file, line: line, message: "a line longer than \(ScriptLimits.maximumLineBytes >> 20) MiB (\(lineIs))"
        )
    }
}
