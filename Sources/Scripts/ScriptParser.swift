import Foundation
import ScrollwayGeometry
import ScrollwayGestures

/// The strict reader of gesture scripts. Every error names the file, the line, the field and
/// what was expected; the whole script is checked before anything runs (a bad line 900 never
/// lets lines 1–899 play).
///
/// Beyond the shape of each line it checks the sequence: `t` never decreases, a finger is down
/// before it moves or lifts and not down twice, pinch updates and ends follow a begin, and key
/// names are real keysyms (through `isKeysym`, since keysyms are xkbcommon's).
public struct ScriptParser: Sendable {
    public var file: String
    /// Whether an xkb keysym name exists (the platform supplies xkbcommon's answer).
    public var isKeysym: @Sendable (String) -> Bool

    /// What a rig's seat cannot type of an event (a keysym no key of its keymap produces, a
    /// character it cannot type): the field and why, checked with the rest of the script before
    /// anything runs; nil when it can. Unset offscreen, which types any keysym and any text.
    public var seatRefusal: (@Sendable (ScriptEvent.Kind) -> (field: String, reason: String)?)?

    public init(file: String = "<script>", isKeysym: @escaping @Sendable (String) -> Bool) {
        self.file = file
        self.isKeysym = isKeysym
    }

    /// Parses a whole script held in memory (files are better read with `check(file:)` and
    /// `ScriptFileReader`, which never hold the whole script).
    public func parse(_ text: String) throws -> GestureScript {
        var events: [ScriptEvent] = []
        var version = GestureScript.currentVersion
        var state = SequenceState()
        var number = 0
        for raw in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            if let event = try parseLine(bytes: Array(raw), number: number, state: &state, version: &version) {
                events.append(event)
            }
        }
        return GestureScript(version: version, events: events)
    }

    /// One line on its own (the rig's interactive stdin), with the sequence state carried.
    public func parseLine(_ text: String, number: Int, state: inout SequenceState) throws -> ScriptEvent? {
        var version = GestureScript.currentVersion
        return try parseLine(bytes: Array(text.utf8), number: number, state: &state, version: &version)
    }

    /// One line as bytes: a trailing CR (a file saved with CRLF endings) is dropped, the bytes
    /// must be UTF-8, and blank lines are skipped.
    public func parseLine(
        bytes raw: [UInt8], number: Int, state: inout SequenceState, version: inout Int
    ) throws
        -> ScriptEvent?
    {
        var bytes = raw
        if bytes.last == 0x0D { bytes.removeLast() }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            let column = Self.firstInvalidUTF8(bytes)
            throw error(
                number, nil, "not UTF-8 text (an invalid byte at column \(column)); scripts are UTF-8 JSON Lines")
        }
        let object = try decodeObject(bytes, line: number)
        if object["format"] != nil {
            guard state.eventCount == 0 else {
                throw error(number, "format", "the format header belongs on the first line")
            }
            version = try header(object, line: number)
            return nil
        }
        let event = try self.event(object, line: number)
        try state.check(event, parser: self)
        return event
    }

    // MARK: Lines

    private func decodeObject(_ bytes: [UInt8], line number: Int) throws -> [String: JSONValue] {
        let value: JSONValue
        do {
            value = try JSONLine.parse(bytes)
        } catch {
            if let text = error.numberOutOfRange, let field = error.field {
                throw self.error(
                    number, field,
                    "expected a finite number, found \(text) (beyond what a double holds, about ±1.8e308)")
            }
            throw self.error(number, error.field, "malformed JSON at column \(error.column): \(error.message)")
        }
        guard case .object(let object) = value else {
            throw self.error(number, nil, "expected a JSON object, found \(value.kindDescription)")
        }
        return object
    }

    /// The 1-based column of the first byte that breaks UTF-8.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
        var parser = Unicode.UTF8.ForwardParser()
        var input = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &input) {
            case .valid(let encoded): offset += encoded.count
            case .error: return offset + 1
            case .emptyInput: return offset + 1
            }
        }
    }

    private func header(_ o: [String: JSONValue], line: Int) throws -> Int {
        guard case .string(let name) = o["format"], name == GestureScript.formatName else {
            throw error(
                line, "format", "expected \"\(GestureScript.formatName)\", found \(o["format"]!.kindDescription)")
        }
        guard let v = o["version"] else { throw error(line, "version", "missing (expected 1)") }
        guard case .number(let n) = v, n == Double(GestureScript.currentVersion) else {
            throw error(
                line, "version",
                "expected \(GestureScript.currentVersion), found \(v.kindDescription) (this Scrollway reads version \(GestureScript.currentVersion) only)"
            )
        }
        return GestureScript.currentVersion
    }

    private func event(_ o: [String: JSONValue], line: Int) throws -> ScriptEvent {
        var fields = Fields(object: o, line: line, parser: self)
        let t = try fields.number("t", min: 0, max: ScriptLimits.maximumTime, maxNote: " ms (24 hours)")
        let type = try fields.string("type")
        let kind: ScriptEvent.Kind
        switch type {
        case "touch.down":
            kind = .touchDown(id: try fields.touchID(), x: try fields.coordinate("x"), y: try fields.coordinate("y"))
        case "touch.motion":
            kind = .touchMotion(id: try fields.touchID(), x: try fields.coordinate("x"), y: try fields.coordinate("y"))
        case "touch.up": kind = .touchUp(id: try fields.touchID())
        case "touch.frame": kind = .touchFrame
        case "touch.cancel": kind = .touchCancel
        case "pointer.motion": kind = .pointerMotion(x: try fields.coordinate("x"), y: try fields.coordinate("y"))
        case "pointer.button":
            let button = try fields.choice("button", PointerButton.allCases.map(\.rawValue))
            let state = try fields.choice("state", ["pressed", "released"])
            kind = .pointerButton(PointerButton(rawValue: button)!, pressed: state == "pressed")
        case "pointer.axis":
            let axis = try fields.choice("axis", Axis.allCases.map(\.rawValue))
            let value = try fields.coordinate("value")
            let source = try fields.choice("source", AxisSource.allCases.map(\.rawValue))
            let v120 = try fields.optionalNumber(
                "value120", min: -ScriptLimits.maximumValue120, max: ScriptLimits.maximumValue120)
            kind = .pointerAxis(
                Axis(rawValue: axis)!, value: value, source: AxisSource(rawValue: source)!, value120: v120)
        case "pointer.axis_stop":
            kind = .pointerAxisStop(Axis(rawValue: try fields.choice("axis", Axis.allCases.map(\.rawValue)))!)
        case "pointer.leave": kind = .pointerLeave
        case "pointer.frame": kind = .pointerFrame
        case "pinch.begin": kind = .pinchBegin
        case "pinch.update":
            kind = .pinchUpdate(
                scale: try fields.number("scale", min: 0, exclusiveMin: true, max: ScriptLimits.maximumPinchScale),
                dx: try fields.coordinate("dx"), dy: try fields.coordinate("dy"))
        case "pinch.end": kind = .pinchEnd(cancelled: try fields.optionalBool("cancelled") ?? false)
        case "key":
            let name = try fields.string("key")
            guard isKeysym(name) else {
                throw error(
                    line, "key",
                    "unknown keysym \(ScriptText.quoted(name, quote: "'")) (expected an xkb keysym name such as Page_Down or a)"
                )
            }
            kind = .key(name, pressed: try fields.choice("state", ["pressed", "released"]) == "pressed")
        case "text": kind = .text(try fields.inputMethodText(typed: true))
        case "preedit":
            let text = try fields.inputMethodText()
            kind = .preedit(text, cursor: try fields.preeditCursor(in: text))
        case "commit_text": kind = .commitText(try fields.inputMethodText())
        case "delete_surrounding":
            kind = .deleteSurrounding(before: try fields.byteCount("before"), after: try fields.byteCount("after"))
        case "keyboard.show": kind = .keyboardShow
        case "keyboard.hide": kind = .keyboardHide
        case "window.resize":
            kind = .windowResize(
                width: try fields.number("width", min: 1, max: ScriptLimits.maximumWindowSide, unit: "px"),
                height: try fields.number("height", min: 1, max: ScriptLimits.maximumWindowSide, unit: "px"))
        case "screenshot":
            let name = try fields.string("name")
            // The name becomes a file's and is printed: no control characters (an escape
            // sequence would drive the terminal and sit in the file name), and short enough
            // for a file name with ".png".
            let control = name.unicodeScalars.contains { $0.properties.generalCategory == .control }
            guard !name.isEmpty, !name.contains("/"), name != ".", name != "..", !control else {
                throw error(
                    line, "name",
                    "expected a file name of printable characters without '/', found \(ScriptText.quoted(name))")
            }
            guard name.utf8.count <= ScriptLimits.maximumScreenshotNameBytes else {
                throw error(
                    line, "name",
                    "a name of \(name.utf8.count) bytes is longer than a picture's file name may be "
                        + "(at most \(ScriptLimits.maximumScreenshotNameBytes) bytes of UTF-8)")
            }
            kind = .screenshot(name: name)
        default:
            throw error(
                line, "type",
                "unknown event type \(ScriptText.quoted(type)) (expected one of \(Self.types.joined(separator: ", ")))")
        }
        try fields.rejectUnknown()
        if let seatRefusal, let (field, reason) = seatRefusal(kind) { throw error(line, field, reason) }
        return ScriptEvent(t: t, line: line, kind)
    }

    static let types = [
        "touch.down", "touch.motion", "touch.up", "touch.frame", "touch.cancel", "pointer.motion", "pointer.button",
        "pointer.axis", "pointer.axis_stop", "pointer.leave", "pointer.frame", "pinch.begin", "pinch.update",
        "pinch.end", "key", "text", "preedit", "commit_text", "delete_surrounding", "keyboard.show", "keyboard.hide",
        "window.resize", "screenshot",
    ]

    func error(_ line: Int, _ field: String?, _ message: String) -> ScriptError {
        ScriptError(file: file, line: line, field: field, message: message)
    }
}

/// What a script's events must agree with: time order, fingers down, a pinch in progress, one
/// picture per screenshot name. It also remembers what is left open, for the end-of-script
/// warnings (a finger still down, a pinch never ended, a key never released).
public struct SequenceState: Sendable {
    var lastT = 0.0
    var fingers: [Int: Int] = [:]  // id → line of its touch.down
    var pinchLine: Int?
    var keysHeld: [String: Int] = [:]  // keysym → line of its press
    var screenshotLines: [String: Int] = [:]
    /// UTF-8 bytes of text the script has typed, committed and composed so far.
    var textBytes = 0
    /// Events seen so far.
    public private(set) var eventCount = 0
    /// The last event's time (ms).
    public var duration: Double { lastT }

    public init() {}

    mutating func check(_ e: ScriptEvent, parser: ScriptParser) throws {
        guard e.t >= lastT else {
            throw parser.error(
                e.line, "t",
                "\(Self.format(e.t)) is earlier than the previous event's \(Self.format(lastT)) (t never decreases)")
        }
        lastT = e.t
        eventCount += 1
        switch e.kind {
        case .text(let s), .commitText(let s), .preedit(let s, _):
            textBytes += s.utf8.count
            guard textBytes <= ScriptLimits.maximumScriptTextBytes else {
                throw parser.error(
                    e.line, "text",
                    "the script's text (text, commit_text and preedit together) passes "
                        + "\(ScriptLimits.maximumScriptTextBytes) bytes of UTF-8 here (at most 64 KiB in one script)")
            }
        case .touchDown(let id, _, _):
            guard fingers[id] == nil else { throw parser.error(e.line, "id", "finger \(id) is already down") }
            fingers[id] = e.line
        case .touchMotion(let id, _, _):
            guard fingers[id] != nil else {
                throw parser.error(e.line, "id", "finger \(id) is not down (no touch.down before)")
            }
        case .touchUp(let id):
            guard fingers.removeValue(forKey: id) != nil else {
                throw parser.error(e.line, "id", "finger \(id) is not down (no touch.down before)")
            }
        case .touchCancel:
            fingers.removeAll()
        case .pinchBegin:
            guard pinchLine == nil else {
                throw parser.error(e.line, "type", "pinch.begin while a pinch is in progress")
            }
            pinchLine = e.line
        case .pinchUpdate:
            guard pinchLine != nil else {
                throw parser.error(e.line, "type", "pinch.update without a pinch.begin before it")
            }
        case .pinchEnd:
            guard pinchLine != nil else {
                throw parser.error(e.line, "type", "pinch.end without a pinch.begin before it")
            }
            pinchLine = nil
        case .key(let name, let pressed):
            if pressed { keysHeld[name] = keysHeld[name] ?? e.line } else { keysHeld[name] = nil }
        case .screenshot(let name):
            if let first = screenshotLines[name] {
                throw parser.error(
                    e.line, "name",
                    "the screenshot name \(ScriptText.quoted(name)) is already used on line \(first) "
                        + "(each picture needs its own name)")
            }
            screenshotLines[name] = e.line
        default:
            break
        }
    }

    /// What the script leaves open at its end, each as a sentence for a warning. The run still
    /// plays (a test may mean it), but nobody should be surprised by it.
    public var endWarnings: [String] {
        var w: [String] = []
        if eventCount == 0 { w.append("the script has no events") }
        for (id, line) in fingers.sorted(by: { $0.key < $1.key }) {
            w.append("finger \(id) is still down at the end (touch.down on line \(line), no touch.up)")
        }
        if let pinchLine {
            w.append("a pinch is still open at the end (pinch.begin on line \(pinchLine), no pinch.end)")
        }
        for (key, line) in keysHeld.sorted(by: { $0.key < $1.key }) {
            w.append("key \(ScriptText.quoted(key, quote: "'")) is still held at the end (pressed on line \(line))")
        }
        return w
    }

    static func format(_ t: Double) -> String { t.messageText }
}

/// Reads a line's fields, remembering which were used so unknown ones are reported.
struct Fields {
    let object: [String: JSONValue]
    let line: Int
    let parser: ScriptParser
    var used: Set<String> = []

    init(object: [String: JSONValue], line: Int, parser: ScriptParser) {
        self.object = object
        self.line = line
        self.parser = parser
    }

    mutating func number(
        _ name: String, min: Double? = nil, exclusiveMin: Bool = false, max: Double? = nil, unit: String = "",
        maxNote: String = ""
    ) throws -> Double {
        used.insert(name)
        guard let v = object[name] else { throw parser.error(line, name, "missing (expected a number)") }
        guard case .number(let d) = v else {
            throw parser.error(line, name, "expected a number, found \(v.kindDescription)")
        }
        guard d.isFinite else { throw parser.error(line, name, "expected a finite number, found \(d)") }
        if let min, d < min || (exclusiveMin && d == min) {
            throw parser.error(
                line, name,
                "expected a number \(exclusiveMin ? ">" : "≥") \(SequenceState.format(min))\(unit.isEmpty ? "" : " " + unit), found \(d)"
            )
        }
        if let max, d > max {
            throw parser.error(
                line, name,
                "expected a number ≤ \(SequenceState.format(max))\(unit.isEmpty ? "" : " " + unit)\(maxNote), found \(d)"
            )
        }
        return d
    }

    /// A position, distance or axis value: what the Wayland wire can carry (wl_fixed_t).
    mutating func coordinate(_ name: String) throws -> Double {
        try number(
            name, min: -ScriptLimits.maximumCoordinate, max: ScriptLimits.maximumCoordinate,
            unit: "px (what a Wayland wl_fixed carries)")
    }

    mutating func optionalNumber(_ name: String, min: Double? = nil, max: Double? = nil) throws -> Double? {
        guard object[name] != nil else {
            used.insert(name)
            return nil
        }
        return try number(name, min: min, max: max)
    }

    mutating func touchID() throws -> Int {
        let d = try number("id", min: 0)
        guard d == d.rounded(), d <= 1000 else {
            throw parser.error(line, "id", "expected a small whole number (a finger id), found \(d)")
        }
        return Int(clamping: d)
    }

    mutating func string(_ name: String) throws -> String {
        used.insert(name)
        guard let v = object[name] else { throw parser.error(line, name, "missing (expected a string)") }
        guard case .string(let s) = v else {
            throw parser.error(line, name, "expected a string, found \(v.kindDescription)")
        }
        return s
    }

    /// An input method's text, or text typed key by key (`typed`): at most
    /// `ScriptLimits.maximumInputMethodBytes` UTF-8 bytes in one event.
    mutating func inputMethodText(typed: Bool = false) throws -> String {
        let s = try string("text")
        guard s.utf8.count <= ScriptLimits.maximumInputMethodBytes else {
            throw parser.error(
                line, "text",
                "\(s.utf8.count) bytes of UTF-8 are more than "
                    + (typed ? "one text event may type" : "an input method sends at once")
                    + " (at most \(ScriptLimits.maximumInputMethodBytes))")
        }
        return s
    }

    /// A preedit's cursor: `[begin, end]`, UTF-8 byte offsets into `text` on character
    /// boundaries with begin ≤ end, or `[-1, -1]` to hide it; absent, the cursor is at the end.
    mutating func preeditCursor(in text: String) throws -> ClosedRange<Int>? {
        used.insert("cursor")
        let n = text.utf8.count
        guard let v = object["cursor"] else { return n...n }
        let expected = "expected [begin, end]: UTF-8 byte offsets into text (0…\(n)), or [-1, -1] to hide the cursor"
        guard case .array(let items) = v, items.count == 2, case .number(let b) = items[0],
            case .number(let e) = items[1]
        else { throw parser.error(line, "cursor", "\(expected), found \(v.kindDescription)") }
        if b == -1 && e == -1 { return nil }
        guard b == b.rounded(), e == e.rounded(), b >= 0, e >= b, e <= Double(n) else {
            throw parser.error(
                line, "cursor",
                "\(expected) with begin ≤ end, found [\(SequenceState.format(b)), \(SequenceState.format(e))]")
        }
        let boundaries = Set(text.indices.map { text.utf8.distance(from: text.startIndex, to: $0) } + [n])
        for offset in [Int(clamping: b), Int(clamping: e)] where !boundaries.contains(offset) {
            throw parser.error(
                line, "cursor",
                "byte \(offset) is inside a character of \(ScriptText.quoted(text)) (offsets must fall between characters)"
            )
        }
        return Int(clamping: b)...Int(clamping: e)
    }

    /// A byte count for delete_surrounding: a whole number from 0.
    mutating func byteCount(_ name: String) throws -> Int {
        let d = try number(name, min: 0, max: ScriptLimits.maximumDeleteBytes, unit: "bytes")
        guard d == d.rounded() else {
            throw parser.error(line, name, "expected a whole number of bytes, found \(d)")
        }
        return Int(clamping: d)
    }

    mutating func choice(_ name: String, _ options: [String]) throws -> String {
        let s = try string(name)
        guard options.contains(s) else {
            throw parser.error(
                line, name,
                "expected one of \(options.map { "\"\($0)\"" }.joined(separator: ", ")), found \(ScriptText.quoted(s))")
        }
        return s
    }

    mutating func optionalBool(_ name: String) throws -> Bool? {
        used.insert(name)
        guard let v = object[name] else { return nil }
        guard case .bool(let b) = v else {
            throw parser.error(line, name, "expected true or false, found \(v.kindDescription)")
        }
        return b
    }

    func rejectUnknown() throws {
        if let unknown = object.keys.sorted().first(where: { !used.contains($0) }) {
            throw parser.error(line, unknown, "unknown field for this event type")
        }
    }
}
