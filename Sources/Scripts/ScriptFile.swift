import Foundation
import ScrollwayGeometry

/// The bounds every script lives within, declared so a script hears about them at its line
/// rather than meeting them as a trap, a hang or a wrapped integer somewhere downstream.
public enum ScriptLimits {
    /// The latest `t`, in ms: a day. The rig's timestamps are 32-bit milliseconds (49 days)
    /// and offscreen play skips quiet stretches in one step, so this is a sanity bound, not a cost.
    public static let maximumTime = 86_400_000.0
    /// Positions, distances and axis values: what a Wayland `wl_fixed_t` carries (24.8 bits).
    public static let maximumCoordinate = 8_388_607.0
    /// `value120` goes to the wire as a 32-bit integer.
    public static let maximumValue120 = 2_147_483_647.0
    /// A pinch's scale relative to its start; zoom limits clamp it far below this anyway.
    public static let maximumPinchScale = 1000.0
    /// An input method's preedit or commit text, in UTF-8 bytes: what one Wayland message
    /// carries with room to spare (zwp_text_input_v3 holds surrounding text to the same 4000).
    public static let maximumInputMethodBytes = 4000
    /// A delete_surrounding length, in bytes (the wire's is 32 bits; no field is near this).
    public static let maximumDeleteBytes = 1_000_000.0
    /// A window side (pixman images and shm buffers are bounded).
    public static let maximumWindowSide = 16384.0
    /// The UTF-8 bytes of all `text`, `commit_text` and `preedit` events of one script together:
    /// a text field's editing and drawing cost grows with its text, so a script cannot make one
    /// of megabytes.
    public static let maximumScriptTextBytes = 65536
    /// A screenshot name's UTF-8 bytes: with ".png" it stays within a file name's 255.
    public static let maximumScreenshotNameBytes = 200
    /// Events in one script played offscreen (each is delivered in virtual time; about
    /// ten million take minutes).
    public static let maximumOffscreenEvents = 10_000_000
    /// One line's length; a script line is a small object.
    public static let maximumLineBytes = 1 << 20
}

/// What a script file holds, learned by reading it once without keeping its events: enough to
/// decide before anything runs (duration, counts, which event types appear where) and the
/// warnings for what it leaves open.
public struct ScriptSummary: Sendable {
    public var version = GestureScript.currentVersion
    public var eventCount = 0
    /// The last event's time (ms).
    public var duration = 0.0
    /// The first line of each event type present (`ScriptEvent.Kind.summaryNames`: a wheel
    /// event between whole detents counts under its own name too).
    public var firstLine: [String: Int] = [:]
    public var warnings: [String] = []
    /// The widest and the tallest `window.resize` (its line and side, logical pixels): what a
    /// player checks against its scale before anything runs (`HeadlessPlayer.oversizedResize`).
    public var widestResize: (line: Int, side: Double)?
    public var tallestResize: (line: Int, side: Double)?
    /// The lines read and their digest: what the play pass must read again
    /// (`ScriptFileReader.expect`).
    public var lineCount = 0
    public var digest: UInt64 = 0

    public init() {}

    /// Keeps `e` as the widest or the tallest resize, if it is one (the first of equals).
    mutating func noteResize(_ e: ScriptEvent) {
        guard case .windowResize(let w, let h) = e.kind else { return }
        if w > widestResize?.side ?? 0 { widestResize = (e.line, w) }
        if h > tallestResize?.side ?? 0 { tallestResize = (e.line, h) }
    }
}

/// A source of script events in order: a script in memory or a file read line by line.
public protocol ScriptEventSource {
    mutating func next() throws -> ScriptEvent?
}

extension GestureScript {
    /// The script's events as a source.
    public struct Events: ScriptEventSource {
        var remaining: ArraySlice<ScriptEvent>
        public mutating func next() throws -> ScriptEvent? { remaining.popFirst() }
    }

    public var source: Events { Events(remaining: events[...]) }

    /// The summary `check(file:)` gives for a file.
    public var summary: ScriptSummary {
        var s = ScriptSummary()
        s.version = version
        s.eventCount = events.count
        s.duration = duration
        for e in events {
            for name in e.kind.summaryNames where s.firstLine[name] == nil { s.firstLine[name] = e.line }
            s.noteResize(e)
        }
        return s
    }
}

/// Reads a script file one line at a time, checking each line and the sequence as it goes;
/// only the current line is held, so a script of any length plays in constant memory.
public final class ScriptFileReader: ScriptEventSource {
    public let path: String
    private let parser: ScriptParser
    private let handle: FileHandle
    private var lines: ChunkedLines
    private var number = 0
    /// The sequence so far (and, once `next()` returned nil, at the end).
    public private(set) var state = SequenceState()
    public private(set) var version = GestureScript.currentVersion
    /// What the check pass read, when this is the play pass (`expect`).
    private var expected: (lines: Int, digest: UInt64)?

    /// Opens `path`, which must be a regular file: a directory, a named pipe or a device gets
    /// its own message (a script is read twice, checked whole and then played).
    public init(path: String, parser: ScriptParser) throws {
        self.path = path
        self.parser = parser
        try Self.checkIsRegularFile(path)
        handle = try Self.openForReading(path)
        lines = ChunkedLines(handle: handle, file: path, lineIs: "a script line is one small JSON object")
    }

    deinit { try? handle.close() }

    /// Makes this read (the play pass) insist on the lines `summary`'s check pass read: a
    /// script changed in between (cut short, grown, edited) is an error naming the line where
    /// it showed, never a run that plays part of it and succeeds.
    public func expect(_ summary: ScriptSummary) { expected = (summary.lineCount, summary.digest) }

    /// Lines read so far, and their digest.
    public var lineCount: Int { number }
    public var digest: UInt64 { lines.digest }

    public func next() throws -> ScriptEvent? {
        while let line = try lines.next(after: number) {
            number += 1
            if let expected, number > expected.lines { throw changed(at: number) }
            if let event = try parser.parseLine(bytes: line, number: number, state: &state, version: &version) {
                return event
            }
        }
        if let expected, number != expected.lines || lines.digest != expected.digest { throw changed(at: number) }
        return nil
    }

    private func changed(at line: Int) -> ScriptError {
        ScriptError(
            file: path, line: line,
            message: "the script changed while it played (it is checked whole, then read again to play): what was "
                + "played up to here is not what was checked")
    }

    static func checkIsRegularFile(_ path: String) throws {
        if path == "-" {
            throw ScriptError(
                file: path, line: 0,
                message: "a script is read twice, checked whole and then played, so it must be a file, not "
                    + "standard input (save it first; `scrollway rig` without --script plays lines from standard "
                    + "input as they come)")
        }
        // stat(2) follows links as reading does: a pipe behind /dev/stdin is a pipe, and the
        // reason it fails is the system's.
        var st = stat()
        guard stat(path, &st) == 0 else {
            let error = errno
            // A link that points at nothing says where it points.
            if error == ENOENT, let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                throw ScriptError(
                    file: path, line: 0, message: "no such file (a symbolic link to \(ScriptText.quoted(target)))")
            }
            throw ScriptError(file: path, line: 0, message: unreadableReason(error))
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw ScriptError(file: path, line: 0, message: "is a directory, not a script file")
        case S_IFCHR, S_IFBLK: throw ScriptError(file: path, line: 0, message: "is a device, not a script file")
        case S_IFSOCK: throw ScriptError(file: path, line: 0, message: "is a socket, not a script file")
        case S_IFIFO:
            throw ScriptError(
                file: path, line: 0,
                message: "is a pipe, not a regular file: a script is read twice, checked whole and then "
                    + "played, so save it to a file first (`scrollway rig` without --script plays lines from "
                    + "standard input as they come)")
        default:
            throw ScriptError(file: path, line: 0, message: "is not a regular file")
        }
    }

    /// Why a file could not be opened or looked at, from errno: the system's own reason, in
    /// words for the common ones.
    static func unreadableReason(_ error: Int32) -> String {
        switch error {
        case ENOENT: return "no such file"
        case EACCES: return "permission denied (not readable)"
        default: return "cannot be opened (\(String(cString: strerror(error))))"
        }
    }

    /// Opens `path` for reading, or throws why not (`unreadableReason`).
    static func openForReading(_ path: String) throws -> FileHandle {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ScriptError(file: path, line: 0, message: unreadableReason(errno)) }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }
}

extension ScriptParser {
    /// Reads the whole file once, checking every line, the sequence and the limits, and keeps
    /// no events: the first pass before anything runs. `maximumEvents` bounds offscreen play.
    public func check(file path: String, maximumEvents: Int? = nil) throws -> ScriptSummary {
        let reader = try ScriptFileReader(path: path, parser: self)
        var summary = ScriptSummary()
        while let e = try reader.next() {
            summary.eventCount += 1
            if let maximumEvents, summary.eventCount > maximumEvents {
                throw ScriptError(
                    file: path, line: e.line,
                    message: "more than \(maximumEvents) events (the limit for one script played offscreen)")
            }
            for name in e.kind.summaryNames where summary.firstLine[name] == nil { summary.firstLine[name] = e.line }
            summary.noteResize(e)
        }
        summary.version = reader.version
        summary.lineCount = reader.lineCount
        summary.digest = reader.digest
        summary.duration = reader.state.duration
        summary.warnings = reader.state.endWarnings
        return summary
    }
}

extension ScriptText {
    /// An error's reason without Foundation's domain and code (the system's own words when the
    /// error wraps an errno), for messages about files.
    public static func reason(of error: Error) -> String {
        let e = error as NSError
        if let posix = e.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        return e.localizedFailureReason ?? e.localizedDescription
    }
}
