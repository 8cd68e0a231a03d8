import Foundation
import Gestures

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

    public init(file: String = "<script>", isKeysym: @escaping @Sendable (String) -> Bool) {
        self.file = file
        self.isKeysym = isKeysym
    }

    public func parse(_ text: String) throws -> GestureScript {
        var events: [ScriptEvent] = []
        var version = GestureScript.currentVersion
        var state = SequenceState()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            let object = try decodeObject(line, line: number)
            if object["format"] != nil {
                guard events.isEmpty else {
                    throw error(number, "format", "the format header belongs on the first line")
                }
                version = try header(object, line: number)
                continue
            }
            let event = try self.event(object, line: number)
            try state.check(event, parser: self)
            events.append(event)
        }
        return GestureScript(version: version, events: events)
    }

    /// One line on its own (the rig's interactive stdin), with the sequence state carried.
    public func parseLine(_ text: String, number: Int, state: inout SequenceState) throws -> ScriptEvent? {
        let line = text.trimmingCharacters(in: .whitespaces)
        if line.isEmpty { return nil }
        let object = try decodeObject(line, line: number)
        if object["format"] != nil {
            _ = try header(object, line: number)
            return nil
        }
        let event = try self.event(object, line: number)
        try state.check(event, parser: self)
        return event
    }

    // MARK: Lines

    private func decodeObject(_ line: String, line number: Int) throws -> [String: JSONValue] {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
        } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
            // Valid JSON that fits none of JSONValue's cases: a number beyond Double's range.
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw self.error(number, field, "expected a finite number, found a number out of range")
        } catch {
            throw self.error(number, nil, "malformed JSON (\(Self.reason(error)))")
        }
        guard case .object(let object) = value else {
            throw self.error(number, nil, "expected a JSON object, found \(value.kindDescription)")
        }
        return object
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
                "unsupported version \(v.kindDescription) (this Scrollway reads version \(GestureScript.currentVersion))"
            )
        }
        return Int(n)
    }

    private func event(_ o: [String: JSONValue], line: Int) throws -> ScriptEvent {
        var fields = Fields(object: o, line: line, parser: self)
        let t = try fields.number("t", min: 0)
        let type = try fields.string("type")
        let kind: ScriptEvent.Kind
        switch type {
        case "touch.down":
            kind = .touchDown(id: try fields.touchID(), x: try fields.number("x"), y: try fields.number("y"))
        case "touch.motion":
            kind = .touchMotion(id: try fields.touchID(), x: try fields.number("x"), y: try fields.number("y"))
        case "touch.up": kind = .touchUp(id: try fields.touchID())
        case "touch.frame": kind = .touchFrame
        case "touch.cancel": kind = .touchCancel
        case "pointer.motion": kind = .pointerMotion(x: try fields.number("x"), y: try fields.number("y"))
        case "pointer.button":
            let button = try fields.choice("button", PointerButton.allCases.map(\.rawValue))
            let state = try fields.choice("state", ["pressed", "released"])
            kind = .pointerButton(PointerButton(rawValue: button)!, pressed: state == "pressed")
        case "pointer.axis":
            let axis = try fields.choice("axis", Axis.allCases.map(\.rawValue))
            let value = try fields.number("value")
            let source = try fields.choice("source", AxisSource.allCases.map(\.rawValue))
            let v120 = try fields.optionalNumber("value120")
            kind = .pointerAxis(
                Axis(rawValue: axis)!, value: value, source: AxisSource(rawValue: source)!, value120: v120)
        case "pointer.axis_stop":
            kind = .pointerAxisStop(Axis(rawValue: try fields.choice("axis", Axis.allCases.map(\.rawValue)))!)
        case "pointer.frame": kind = .pointerFrame
        case "pinch.begin": kind = .pinchBegin
        case "pinch.update":
            kind = .pinchUpdate(
                scale: try fields.number("scale", min: 0, exclusiveMin: true), dx: try fields.number("dx"),
                dy: try fields.number("dy"))
        case "pinch.end": kind = .pinchEnd(cancelled: try fields.optionalBool("cancelled") ?? false)
        case "key":
            let name = try fields.string("key")
            guard isKeysym(name) else {
                throw error(
                    line, "key", "unknown keysym '\(name)' (expected an xkb keysym name such as Page_Down or a)")
            }
            kind = .key(name, pressed: try fields.choice("state", ["pressed", "released"]) == "pressed")
        case "text": kind = .text(try fields.string("text"))
        case "keyboard.show": kind = .keyboardShow
        case "keyboard.hide": kind = .keyboardHide
        case "window.resize":
            kind = .windowResize(
                width: try fields.number("width", min: 1), height: try fields.number("height", min: 1))
        case "screenshot":
            let name = try fields.string("name")
            guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
                throw error(line, "name", "expected a file name without '/', found \"\(name)\"")
            }
            kind = .screenshot(name: name)
        default:
            throw error(
                line, "type", "unknown event type \"\(type)\" (expected one of \(Self.types.joined(separator: ", ")))")
        }
        try fields.rejectUnknown()
        return ScriptEvent(t: t, line: line, kind)
    }

    static let types = [
        "touch.down", "touch.motion", "touch.up", "touch.frame", "touch.cancel", "pointer.motion", "pointer.button",
        "pointer.axis", "pointer.axis_stop", "pointer.frame", "pinch.begin", "pinch.update", "pinch.end", "key", "text",
        "keyboard.show", "keyboard.hide", "window.resize", "screenshot",
    ]

    func error(_ line: Int, _ field: String?, _ message: String) -> ScriptError {
        ScriptError(file: file, line: line, field: field, message: message)
    }

    private static func reason(_ error: Error) -> String {
        if case DecodingError.dataCorrupted(let ctx) = error {
            return (ctx.underlyingError as NSError?)?.localizedDescription ?? ctx.debugDescription
        }
        return "\(error)"
    }
}

/// What a script's events must agree with: time order, fingers down, a pinch in progress.
public struct SequenceState: Sendable {
    var lastT = 0.0
    var fingers: Set<Int> = []
    var pinching = false

    public init() {}

    mutating func check(_ e: ScriptEvent, parser: ScriptParser) throws {
        guard e.t >= lastT else {
            throw parser.error(
                e.line, "t",
                "\(Self.format(e.t)) is earlier than the previous event's \(Self.format(lastT)) (t never decreases)")
        }
        lastT = e.t
        switch e.kind {
        case .touchDown(let id, _, _):
            guard !fingers.contains(id) else { throw parser.error(e.line, "id", "finger \(id) is already down") }
            fingers.insert(id)
        case .touchMotion(let id, _, _):
            guard fingers.contains(id) else {
                throw parser.error(e.line, "id", "finger \(id) is not down (no touch.down before)")
            }
        case .touchUp(let id):
            guard fingers.remove(id) != nil else {
                throw parser.error(e.line, "id", "finger \(id) is not down (no touch.down before)")
            }
        case .touchCancel:
            fingers.removeAll()
        case .pinchBegin:
            guard !pinching else { throw parser.error(e.line, "type", "pinch.begin while a pinch is in progress") }
            pinching = true
        case .pinchUpdate:
            guard pinching else { throw parser.error(e.line, "type", "pinch.update without a pinch.begin before it") }
        case .pinchEnd:
            guard pinching else { throw parser.error(e.line, "type", "pinch.end without a pinch.begin before it") }
            pinching = false
        default:
            break
        }
    }

    static func format(_ t: Double) -> String { t == t.rounded() ? String(Int(t)) : String(t) }
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

    mutating func number(_ name: String, min: Double? = nil, exclusiveMin: Bool = false) throws -> Double {
        used.insert(name)
        guard let v = object[name] else { throw parser.error(line, name, "missing (expected a number)") }
        guard case .number(let d) = v else {
            throw parser.error(line, name, "expected a number, found \(v.kindDescription)")
        }
        guard d.isFinite else { throw parser.error(line, name, "expected a finite number, found \(d)") }
        if let min, d < min || (exclusiveMin && d == min) {
            throw parser.error(
                line, name, "expected a number \(exclusiveMin ? ">" : "≥") \(SequenceState.format(min)), found \(d)")
        }
        return d
    }

    mutating func optionalNumber(_ name: String) throws -> Double? {
        guard object[name] != nil else {
            used.insert(name)
            return nil
        }
        return try number(name)
    }

    mutating func touchID() throws -> Int {
        let d = try number("id", min: 0)
        guard d == d.rounded(), d <= 1000 else {
            throw parser.error(line, "id", "expected a small whole number (a finger id), found \(d)")
        }
        return Int(d)
    }

    mutating func string(_ name: String) throws -> String {
        used.insert(name)
        guard let v = object[name] else { throw parser.error(line, name, "missing (expected a string)") }
        guard case .string(let s) = v else {
            throw parser.error(line, name, "expected a string, found \(v.kindDescription)")
        }
        return s
    }

    mutating func choice(_ name: String, _ options: [String]) throws -> String {
        let s = try string(name)
        guard options.contains(s) else {
            throw parser.error(
                line, name, "expected one of \(options.map { "\"\($0)\"" }.joined(separator: ", ")), found \"\(s)\"")
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
