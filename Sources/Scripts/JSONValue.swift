import Foundation

/// A JSON value as written, so the parser can say precisely what a field holds when it is
/// wrong (a string where a number belongs, a boolean, null...).
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let d = try? c.decode(Double.self) {
            self = .number(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    /// How the value reads in an error message.
    var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return "the boolean \(b)"
        case .number(let d): return "the number \(d)"
        case .string(let s): return "the string \"\(s)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
