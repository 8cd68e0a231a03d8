import ScrollwayGeometry

/// A parsed JSON value, as `JSONLine` reads it.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// How the value reads in an error message (script text escaped).
    var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return "the boolean \(b)"
        case .number(let d): return "the number \(d.messageText)"
        case .string(let s): return "the string \(ScriptText.quoted(s))"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
