import Foundation
import ScrollwayGeometry

/// Lines of a file read 64 KiB at a time, never held whole: what the script reader and the
/// trace reader share. A line longer than `ScriptLimits.maximumLineBytes` is an error at its
/// line, and a read error says why; both name the file and line.
struct ChunkedLines {
    private let handle: FileHandle
    private let file: String
    /// What one line is, for the too-long message ("a script line is one small JSON object").
    private let lineIs: String
    private var buffer: [UInt8] = []
    private var start = 0
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

    /// The next line without its newline (`number` is the previous line's), nil at the end.
    mutating func next(after number: Int) throws -> [UInt8]? {
        while true {
            if let nl = buffer[start...].firstIndex(of: 0x0A) {
                // The newline may come in the chunk after the limit was reached: the line's own
                // length decides, not what was buffered before it.
                guard nl - start <= ScriptLimits.maximumLineBytes else { throw tooLong(number + 1) }
                let line = Array(buffer[start..<nl])
                start = nl + 1
                mix(line)
                return line
            }
            if buffer.count - start > ScriptLimits.maximumLineBytes { throw tooLong(number + 1) }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = Array(buffer[start...])
                start = buffer.count
                mix(line)
                return line
            }
            buffer.removeFirst(start)
            start = 0
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: 1 << 16)
            } catch {
                throw ScriptError(file: file, line: number + 1, message: "cannot read: \(ScriptText.reason(of: error))")
            }
            if let chunk, !chunk.isEmpty { buffer.append(contentsOf: chunk) } else { atEnd = true }
        }
    }

    private func tooLong(_ line: Int) -> ScriptError {
        ScriptError(
            file: file, line: line, message: "a line longer than \(ScriptLimits.maximumLineBytes >> 20) MiB (\(lineIs))"
        )
    }
}
