import Foundation
import ScrollwayGeometry

/// What a frame record's `phase` says the scroll view was doing (`docs/scripts-and-traces.md`).
/// The reader refuses any other word: a plot that quietly drew an unknown phase as idle would
/// hide exactly the thing someone opened the trace to see.
public enum TracePhase: String, CaseIterable, Sendable {
    case idle, tracking, dragging, decelerating, bouncing, animating, zooming
}

/// The offsets a scroll view rests in, per axis, as a frame record's sizes and adjusted inset
/// give them: `−inset.top … max(−inset.top, contentSize.height + inset.bottom − bounds.height)`
/// (and the same across). Outside it the view is overscrolled (rubber band, refresh).
public struct TraceRestingRange: Equatable, Sendable {
    public var x: ClosedRange<Double>
    public var y: ClosedRange<Double>

    public init(x: ClosedRange<Double>, y: ClosedRange<Double>) {
        self.x = x
        self.y = y
    }

    public init(contentSize: Size, boundsSize: Size, adjustedInset i: EdgeInsets) {
        let minX = -i.left
        let minY = -i.top
        x = minX...max(minX, contentSize.width + i.right - boundsSize.width)
        y = minY...max(minY, contentSize.height + i.bottom - boundsSize.height)
    }
}

/// One frame record, as much of it as a reader of traces needs.
public struct TraceFrameRecord: Equatable, Sendable {
    /// The 1-based line it came from.
    public var line: Int
    /// Milliseconds from the start of the run.
    public var t: Double
    public var view: String
    public var contentOffset: Point
    public var phase: TracePhase
    /// nil when the record lacks `contentSize`, `bounds` or `adjustedContentInset` (a trace
    /// trimmed by hand still plots; what it has is checked all the same).
    public var restingRange: TraceRestingRange?

    public init(
        line: Int, t: Double, view: String, contentOffset: Point, phase: TracePhase,
        restingRange: TraceRestingRange? = nil
    ) {
        self.line = line
        self.t = t
        self.view = view
        self.contentOffset = contentOffset
        self.phase = phase
        self.restingRange = restingRange
    }
}

/// One delegate record: which of UIKit's delegate methods was called on which view, and when.
public struct TraceDelegateRecord: Equatable, Sendable {
    public var line: Int
    public var t: Double
    public var view: String
    /// UIKit's method name, e.g. `scrollViewWillBeginDragging`.
    public var name: String
    /// `scrollViewWillEndDragging`'s release velocity in px/ms (nil for the other methods).
    public var velocity: Point?
    /// Not a delegate call but a recognizer's state change shown the same way (a plot's
    /// marker named "recognizer state").
    public var recognizer: Bool

    public init(
        line: Int, t: Double, view: String, name: String, velocity: Point? = nil, recognizer: Bool = false
    ) {
        self.line = line
        self.t = t
        self.view = view
        self.name = name
        self.velocity = velocity
        self.recognizer = recognizer
    }
}

/// One recognizer record: a named gesture recognizer's new state, and the view it is on (when
/// that view has a name).
public struct TraceRecognizerRecord: Equatable, Sendable {
    public var line: Int
    public var t: Double
    public var view: String?
    public var name: String
    /// UIKit's state name: possible, began, changed, ended, cancelled or failed.
    public var state: String

    public static let states: Set<String> = ["possible", "began", "changed", "ended", "cancelled", "failed"]

    public init(line: Int, t: Double, view: String?, name: String, state: String) {
        self.line = line
        self.t = t
        self.view = view
        self.name = name
        self.state = state
    }
}

/// A line of a trace.
public enum TraceRecord: Equatable, Sendable {
    case frame(TraceFrameRecord)
    case delegate(TraceDelegateRecord)
    case recognizer(TraceRecognizerRecord)

    public var t: Double {
        switch self {
        case .frame(let f): return f.t
        case .delegate(let d): return d.t
        case .recognizer(let r): return r.t
        }
    }

    public var line: Int {
        switch self {
        case .frame(let f): return f.line
        case .delegate(let d): return d.line
        case .recognizer(let r): return r.line
        }
    }
}

/// The reader of trace lines: the same strict JSON as scripts (`JSONLine`), and errors that
/// name the file, the line and the field (`ScriptError`, the replay formats' one error type).
///
/// It checks what it hands on and no more: fields it does not read (`contentInset`,
/// `zoomScale`, `keyboardHeight`, ...) may be absent or added by a newer writer, so a trace
/// trimmed to what matters, or one with more in it, is still read.
public struct TraceLineParser: Sendable {
    public var file: String

    public init(file: String = "<trace>") { self.file = file }

    /// One line as bytes: nil for a blank line; a trailing CR is dropped.
    public func parse(bytes raw: [UInt8], number: Int) throws -> TraceRecord? {
        var bytes = raw
        if bytes.last == 0x0D { bytes.removeLast() }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw ScriptError(
                file: file, line: number,
                message: "not UTF-8 text (an invalid byte at column \(ScriptParser.firstInvalidUTF8(bytes))); "
                    + "traces are UTF-8 JSON Lines")
        }
        let value: JSONValue
        do {
            value = try JSONLine.parse(bytes)
        } catch {
            throw ScriptError(
                file: file, line: number, field: error.field,
                message: "malformed JSON at column \(error.column): \(error.message)")
        }
        guard case .object(let o) = value else {
            throw ScriptError(
                file: file, line: number, message: "expected a JSON object, found \(value.kindDescription)")
        }
        let fields = TraceFields(object: o, line: number, file: file)
        if o["frame"] != nil { return .frame(try frame(fields)) }
        if o["delegate"] != nil { return .delegate(try delegate(fields)) }
        if o["recognizer"] != nil { return .recognizer(try recognizer(fields)) }
        // A gesture script given where its trace belongs is the likely mistake: say so.
        let hint =
            o["type"] != nil || o["format"] != nil
            ? "; this looks like a gesture script line (the trace is what `scrollway play SCRIPT --trace FILE` writes)"
            : ""
        throw ScriptError(
            file: file, line: number,
            message: "expected a trace record: a frame record (with \"frame\"), a delegate record "
                + "(with \"delegate\") or a recognizer record (with \"recognizer\")\(hint)")
    }

    private func frame(_ f: TraceFields) throws -> TraceFrameRecord {
        let t = try f.time()
        let number = try f.number("frame")
        guard number >= 0, number == number.rounded() else {
            throw f.error("frame", "expected a whole frame number ≥ 0, found \(number)")
        }
        let view = try f.string("view")
        let offset = try f.point("contentOffset")
        let phaseName = try f.string("phase")
        guard let phase = TracePhase(rawValue: phaseName) else {
            throw f.error(
                "phase",
                "unknown phase \(ScriptText.quoted(phaseName)) (expected one of "
                    + "\(TracePhase.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        var range: TraceRestingRange?
        let size = try f.optionalSize("contentSize")
        let bounds = try f.optionalSize("bounds")
        let inset = try f.optionalInsets("adjustedContentInset")
        if let size, let bounds, let inset {
            range = TraceRestingRange(contentSize: size, boundsSize: bounds, adjustedInset: inset)
        }
        return TraceFrameRecord(
            line: f.line, t: t, view: view, contentOffset: offset, phase: phase, restingRange: range)
    }

    private func delegate(_ f: TraceFields) throws -> TraceDelegateRecord {
        let t = try f.time()
        let view = try f.string("view")
        let name = try f.string("delegate")
        guard name.hasPrefix("scrollView"), name.count > "scrollView".count else {
            throw f.error(
                "delegate",
                "expected a delegate method name such as \"scrollViewWillBeginDragging\", found \(ScriptText.quoted(name))"
            )
        }
        let velocity = f.object["velocity"] == nil ? nil : try f.point("velocity")
        return TraceDelegateRecord(line: f.line, t: t, view: view, name: name, velocity: velocity)
    }

    private func recognizer(_ f: TraceFields) throws -> TraceRecognizerRecord {
        let t = try f.time()
        let name = try f.string("recognizer")
        let view = f.object["view"] == nil ? nil : try f.string("view")
        let state = try f.string("state")
        guard TraceRecognizerRecord.states.contains(state) else {
            throw f.error(
                "state",
                "unknown recognizer state \(ScriptText.quoted(state)) (expected one of "
                    + "\(TraceRecognizerRecord.states.sorted().joined(separator: ", ")))")
        }
        return TraceRecognizerRecord(line: f.line, t: t, view: view, name: name, state: state)
    }
}

extension TraceLineParser {
    /// The largest magnitude a trace's number may have: 10¹² px, px/s or ms (31 years), far
    /// beyond any trace the writer makes, and small enough that every difference, ratio and
    /// tick a plot takes of such numbers is finite.
    public static let maximumMagnitude = 1e12
}

/// The fields of one trace line, read with errors that name them.
private struct TraceFields {
    let object: [String: JSONValue]
    let line: Int
    let file: String

    func error(_ field: String, _ message: String) -> ScriptError {
        ScriptError(file: file, line: line, field: field, message: message)
    }

    /// `t`: milliseconds from the start of the run, so never negative.
    func time() throws -> Double {
        let t = try number("t")
        guard t >= 0 else { throw error("t", "expected milliseconds ≥ 0, found \(t)") }
        return t
    }

    func number(_ name: String) throws -> Double {
        guard let v = object[name] else { throw error(name, "missing (expected a number)") }
        return try Self.finite(v) { error(name, $0) }
    }

    func string(_ name: String) throws -> String {
        guard let v = object[name] else { throw error(name, "missing (expected a string)") }
        guard case .string(let s) = v else { throw error(name, "expected a string, found \(v.kindDescription)") }
        return s
    }

    /// `{"x": …, "y": …}`.
    func point(_ name: String) throws -> Point {
        let n = try members(name, ["x", "y"], required: true)!
        return Point(x: n[0], y: n[1])
    }

    /// `{"width": …, "height": …}`, or for `bounds` its size (`{"x", "y", "width", "height"}`).
    func optionalSize(_ name: String) throws -> Size? {
        let keys = name == "bounds" ? ["x", "y", "width", "height"] : ["width", "height"]
        guard let n = try members(name, keys, required: false) else { return nil }
        let w = n[keys.count - 2]
        let h = n[keys.count - 1]
        guard w >= 0, h >= 0 else {
            throw error(name, "expected a width and height ≥ 0, found \(w) × \(h)")
        }
        return Size(width: w, height: h)
    }

    func optionalInsets(_ name: String) throws -> EdgeInsets? {
        guard let n = try members(name, ["top", "left", "bottom", "right"], required: false) else { return nil }
        return EdgeInsets(top: n[0], left: n[1], bottom: n[2], right: n[3])
    }

    /// The numbers `keys` of the object `name`, in that order; nil when it is absent and not
    /// required. Keys beyond `keys` are a newer writer's and are left alone.
    private func members(_ name: String, _ keys: [String], required: Bool) throws -> [Double]? {
        let shape = "{" + keys.map { "\"\($0)\": number" }.joined(separator: ", ") + "}"
        guard let v = object[name] else {
            if required { throw error(name, "missing (expected \(shape))") }
            return nil
        }
        guard case .object(let o) = v else { throw error(name, "expected \(shape), found \(v.kindDescription)") }
        return try keys.map { key in
            guard let member = o[key] else { throw error(name, "'\(key)' is missing (expected \(shape))") }
            return try Self.finite(member) { error(name, "'\(key)': " + $0) }
        }
    }

    private static func finite(_ v: JSONValue, _ fail: (String) -> ScriptError) throws -> Double {
        guard case .number(let d) = v else { throw fail("expected a finite number, found \(v.kindDescription)") }
        guard abs(d) <= TraceLineParser.maximumMagnitude else {
            throw fail("expected a number within ±1e12, found \(d)")
        }
        return d
    }
}

/// Reads a trace one line at a time, holding only the current line, so a trace of any length
/// is read in constant memory. `-` reads standard input (`scrollway play … --trace - |`).
///
/// Records must come in time order (`t` never decreases), as the writer emits them: a trace
/// pasted together from two runs is an error at the line where time goes back.
public final class TraceFileReader {
    public let path: String
    private let parser: TraceLineParser
    private let handle: FileHandle
    private var lines: ChunkedLines
    private var number = 0
    private var lastT = 0.0
    /// Records read so far.
    public private(set) var recordCount = 0

    /// Opens `path` (a file, a pipe, or `-` for standard input); a directory, a device or a
    /// missing file is an error naming it.
    public init(path: String) throws {
        self.path = path
        parser = TraceLineParser(file: path == "-" ? "<stdin>" : path)
        if path == "-" {
            handle = FileHandle.standardInput
            lines = ChunkedLines(handle: handle, file: "<stdin>", lineIs: "a trace record is one small JSON object")
            return
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ScriptError(file: path, line: 0, message: "no such file")
        }
        if isDirectory.boolValue { throw ScriptError(file: path, line: 0, message: "is a directory, not a trace") }
        let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
        if type == .typeCharacterSpecial || type == .typeBlockSpecial {
            throw ScriptError(file: path, line: 0, message: "is a device, not a trace")
        }
        handle = try ScriptFileReader.openForReading(path)
        lines = ChunkedLines(handle: handle, file: path, lineIs: "a trace record is one small JSON object")
    }

    deinit { if path != "-" { try? handle.close() } }

    /// The next record, nil at the end of the trace.
    public func next() throws -> TraceRecord? {
        while let line = try lines.next(after: number) {
            number += 1
            guard let record = try parser.parse(bytes: line, number: number) else { continue }
            guard record.t >= lastT else {
                throw ScriptError(
                    file: parser.file, line: number, field: "t",
                    message: "\(SequenceState.format(record.t)) is earlier than the previous record's "
                        + "\(SequenceState.format(lastT)) (a trace is in time order)")
            }
            lastT = record.t
            recordCount += 1
            return record
        }
        return nil
    }
}
