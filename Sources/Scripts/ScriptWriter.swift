import ScrollwayGeometry

/// Writes script events as the JSON Lines the parser reads, so a script built in code (a fuzzer's
/// failing case, a recording) can be saved and replayed with `scrollway play`. Numbers are
/// written in their shortest exact form, so a written script parses back to the same events.
public enum ScriptWriter {
    /// The whole script, with the format header first.
    public static func text(_ script: GestureScript) -> String {
        var out = "{\"format\": \"\(GestureScript.formatName)\", \"version\": \(script.version)}\n"
        for e in script.events { out += line(e) + "\n" }
        return out
    }

    /// One event as one JSON object.
    public static func line(_ e: ScriptEvent) -> String {
        var fields: [(String, String)] = [("t", number(e.t)), ("type", string(e.kind.typeName))]
        func add(_ key: String, _ value: String) { fields.append((key, value)) }
        switch e.kind {
        case .touchDown(let id, let x, let y), .touchMotion(let id, let x, let y):
            add("id", String(id))
            add("x", number(x))
            add("y", number(y))
        case .touchUp(let id): add("id", String(id))
        case .touchFrame, .touchCancel, .pointerLeave, .pointerFrame, .pinchBegin, .keyboardShow, .keyboardHide: break
        case .pointerMotion(let x, let y):
            add("x", number(x))
            add("y", number(y))
        case .pointerButton(let button, let pressed):
            add("button", string(button.rawValue))
            add("state", string(pressed ? "pressed" : "released"))
        case .pointerAxis(let axis, let value, let source, let value120):
            add("axis", string(axis.rawValue))
            add("value", number(value))
            add("source", string(source.rawValue))
            if let value120 { add("value120", number(value120)) }
        case .pointerAxisStop(let axis): add("axis", string(axis.rawValue))
        case .pinchUpdate(let scale, let dx, let dy):
            add("scale", number(scale))
            add("dx", number(dx))
            add("dy", number(dy))
        case .pinchEnd(let cancelled): if cancelled { add("cancelled", "true") }
        case .key(let name, let pressed):
            add("key", string(name))
            add("state", string(pressed ? "pressed" : "released"))
        case .text(let text): add("text", string(text))
        case .preedit(let text, let cursor):
            add("text", string(text))
            add("cursor", cursor.map { "[\($0.lowerBound), \($0.upperBound)]" } ?? "[-1, -1]")
        case .commitText(let text): add("text", string(text))
        case .deleteSurrounding(let before, let after):
            add("before", String(before))
            add("after", String(after))
        case .windowResize(let w, let h):
            add("width", number(w))
            add("height", number(h))
        case .screenshot(let name): add("name", string(name))
        }
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// Whole numbers without a fraction; others in Swift's shortest round-trip form (valid JSON
    /// for every finite double: "0.1", "1e-07", "1.5e+300").
    static func number(_ v: Double) -> String {
        precondition(v.isFinite, "scripts hold finite numbers only")
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(clamping: v)) }
        return "\(v)"
    }

    /// `s` as a JSON string literal (quotes, backslashes and control characters escaped); the
    /// trace writer uses it too.
    public static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
