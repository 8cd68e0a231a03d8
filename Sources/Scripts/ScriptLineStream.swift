import Foundation
import ScrollwayGeometry

/// Script events from a stream as its lines come (standard input, a pipe): `scrollway rig`
/// without `--script`. While no line comes, a check runs every so often (`next(every:check:)`):
/// a rig asks its compositor whether it is still there. Blocked in a read, it noticed a dead
/// compositor only at the next line, which a script fed by hand might never send.
///
/// Lines are as in a file: one JSON object each, at most `ScriptLimits.maximumLineBytes`, the
/// last one with or without its newline.
public final class ScriptLineStream {
    private let fd: Int32
    /// The stream's name in messages ("<stdin>").
    public let file: String
    private let parser: ScriptParser
    private var lines: ChunkedLines
    /// Lines read so far.
    public private(set) var lineCount = 0
    /// The sequence so far (and, once `next` returned nil, at the end).
    public private(set) var state = SequenceState()
    private var version = GestureScript.currentVersion
    /// What one read(2) fills, kept from read to read.
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    /// Reads `fd` (not closed here), naming it `file` in messages.
    public init(fd: Int32, file: String, parser: ScriptParser) {
        self.fd = fd
        self.file = file
        self.parser = parser
        lines = ChunkedLines(file: file, lineIs: "a script line is one small JSON object")
    }

    /// The next event, nil at the end of the stream. While no line comes, `check` runs every
    /// `every` seconds; what it throws ends the read.
    public func next(every: Double, check: () throws -> Void) throws -> ScriptEvent? {
        while let line = try lines.next(after: lineCount, read: { try read(every: every, check: check) }) {
            lineCount += 1
            if let event = try parser.parseLine(bytes: line, number: lineCount, state: &state, version: &version) {
                return event
            }
        }
        return nil
    }

    /// Waits up to `every` seconds for bytes and returns what there is: none when nothing came
    /// (`check` having run) or a signal interrupted, nil at the end.
    private func read(every: Double, check: () throws -> Void) throws -> [UInt8]? {
        var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&waiting, 1, Int32(clamping: every * 1000, rounding: .up, in: 1...Int32.max))
        if ready == 0 {
            try check()
            return []
        }
        if ready < 0 {
            guard errno == EINTR else { throw failure(errno) }
            return []
        }
        let fd = self.fd
        let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            guard errno == EINTR || errno == EAGAIN else { throw failure(errno) }
            return []
        }
        return count == 0 ? nil : Array(chunk[..<count])
    }

    private func failure(_ error: Int32) -> ScriptError {
        ScriptError(file: file, line: lineCount + 1, message: "cannot read: \(String(cString: strerror(error)))")
    }
}
