import ScrollwayGeometry

/// A strict JSON reader for one script line (RFC 8259, no extensions), written for the script
/// format rather than borrowed: Foundation's decoder accepts trailing commas, keeps the last of
/// two equal keys and reports a lone surrogate as "a number out of range", and a script author
/// deserves the real reason with its column. It also bounds nesting, so a line of ten thousand
/// `[` is an error, not a stack overflow.
struct JSONLine {
    /// Deeper than any script line needs (they are flat objects with small nested ones).
    static let maximumDepth = 32

    struct Failure: Error, Equatable {
        /// 1-based column (in UTF-8 bytes) where the problem was found.
        var column: Int
        var message: String
        /// The object key the problem belongs to, when there is one.
        var field: String?
        /// Set when the problem is a number beyond a double's range: its text.
        var numberOutOfRange: String?
    }

    private let bytes: [UInt8]
    private var i = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Parses one whole value; anything after it other than whitespace is an error.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var p = JSONLine(bytes)
        p.skipWhitespace()
        let v = try p.value(field: nil)
        p.skipWhitespace()
        if p.i < p.bytes.count {
            throw p.fail("unexpected \(p.describeHere()) after the end of the JSON value")
        }
        return v
    }

    // MARK: Values

    private mutating func value(field: String?) throws(Failure) -> JSONValue {
        guard i < bytes.count else { throw fail("the line ends where a value was expected", field: field) }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object(field: field)
        case UInt8(ascii: "["): return try array(field: field)
        case UInt8(ascii: "\""): return .string(try string(field: field))
        case UInt8(ascii: "t"): return try literal("true", .bool(true), field: field)
        case UInt8(ascii: "f"): return try literal("false", .bool(false), field: field)
        case UInt8(ascii: "n"): return try literal("null", .null, field: field)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number(field: field))
        default: throw fail("expected a value, found \(describeHere())", field: field)
        }
    }

    private mutating func object(field: String?) throws(Failure) -> JSONValue {
        try enter(field: field)
        i += 1  // {
        var result: [String: JSONValue] = [:]
        if closes(UInt8(ascii: "}")) { return .object(result) }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else {
                if peek(UInt8(ascii: "}")) {
                    throw fail("a trailing comma before '}' (JSON allows none)", field: field)
                }
                throw fail("expected a key in double quotes, found \(describeHere())", field: field)
            }
            let keyColumn = i + 1
            let key = try string(field: field)
            if result[key] != nil {
                throw Failure(
                    column: keyColumn, message: "the key \(ScriptText.quoted(key)) appears twice in one object",
                    field: key)
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else {
                throw fail("expected ':' after the key, found \(describeHere())", field: key)
            }
            i += 1
            skipWhitespace()
            result[key] = try value(field: key)
            if try memberEnds(UInt8(ascii: "}"), field: field) { return .object(result) }
        }
    }

    private mutating func array(field: String?) throws(Failure) -> JSONValue {
        try enter(field: field)
        i += 1  // [
        var result: [JSONValue] = []
        if closes(UInt8(ascii: "]")) { return .array(result) }
        while true {
            skipWhitespace()
            if peek(UInt8(ascii: "]")) { throw fail("a trailing comma before ']' (JSON allows none)", field: field) }
            result.append(try value(field: field))
            if try memberEnds(UInt8(ascii: "]"), field: field) { return .array(result) }
        }
    }

    /// After an opening bracket: whether `closer` follows at once (an empty object or array),
    /// consumed and the nesting left.
    private mutating func closes(_ closer: UInt8) -> Bool {
        skipWhitespace()
        guard peek(closer) else { return false }
        i += 1
        depth -= 1
        return true
    }

    /// After a member: true when `closer` ends the object or array (consumed, nesting left),
    /// false when a comma says another member follows; anything else is an error.
    private mutating func memberEnds(_ closer: UInt8, field: String?) throws(Failure) -> Bool {
        skipWhitespace()
        if peek(UInt8(ascii: ",")) {
            i += 1
            return false
        }
        guard peek(closer) else {
            throw fail("expected ',' or '\(Character(Unicode.Scalar(closer)))', found \(describeHere())", field: field)
        }
        i += 1
        depth -= 1
        return true
    }

    private mutating func enter(field: String?) throws(Failure) {
        depth += 1
        if depth > Self.maximumDepth {
            throw fail("nested more than \(Self.maximumDepth) levels deep", field: field)
        }
    }

    private mutating func literal(_ word: String, _ v: JSONValue, field: String?) throws(Failure) -> JSONValue {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else {
            throw fail("expected a value, found \(describeHere())", field: field)
        }
        i += w.count
        return v
    }

    /// RFC 8259 numbers only: no leading zeros, no '+', no bare '.', no hex, no NaN or Infinity.
    private mutating func number(field: String?) throws(Failure) -> Double {
        let start = i
        if peek(UInt8(ascii: "-")) { i += 1 }
        guard i < bytes.count, isDigit(bytes[i]) else {
            throw Failure(column: start + 1, message: "expected digits after '-'", field: field)
        }
        if bytes[i] == UInt8(ascii: "0"), i + 1 < bytes.count, isDigit(bytes[i + 1]) {
            throw Failure(
                column: start + 1,
                message: "a number with a leading zero (\(numberText(from: start))); JSON allows none",
                field: field)
        }
        while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        if peek(UInt8(ascii: ".")) {
            i += 1
            guard i < bytes.count, isDigit(bytes[i]) else {
                throw Failure(column: start + 1, message: "expected digits after the decimal point", field: field)
            }
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            i += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { i += 1 }
            guard i < bytes.count, isDigit(bytes[i]) else {
                throw Failure(column: start + 1, message: "expected digits in the exponent", field: field)
            }
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let d = Double(text), d.isFinite else {
            throw Failure(
                column: start + 1, message: "the number \(text) is beyond what a double holds (about ±1.8e308)",
                field: field, numberOutOfRange: text)
        }
        return d
    }

    private mutating func string(field: String?) throws(Failure) -> String {
        let start = i
        i += 1  // "
        var scalars = String.UnicodeScalarView()
        var runStart = i
        func flush(_ p: inout JSONLine, to end: Int) {
            if end > runStart {
                scalars.append(contentsOf: String(decoding: p.bytes[runStart..<end], as: UTF8.self).unicodeScalars)
            }
        }
        while true {
            guard i < bytes.count else {
                throw Failure(column: start + 1, message: "a string that is never closed", field: field)
            }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                flush(&self, to: i)
                i += 1
                return String(scalars)
            }
            if b < 0x20 {
                throw fail(
                    "a raw control character (U+\(Self.hex(UInt32(b)))) in a string; write it as \\u\(Self.hex(UInt32(b)))",
                    field: field)
            }
            if b != UInt8(ascii: "\\") {
                i += 1
                continue
            }
            flush(&self, to: i)
            let escape = i
            i += 1
            guard i < bytes.count else { throw fail("a string that is never closed", field: field) }
            switch bytes[i] {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                let unit = try hex4(at: i + 1, escape: escape, field: field)
                i += 4
                if (0xD800...0xDBFF).contains(unit) {
                    // A high surrogate must be followed by an escaped low one.
                    var low: UInt32 = 0
                    if i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "\\"), bytes[i + 2] == UInt8(ascii: "u") {
                        low = try hex4(at: i + 3, escape: i + 1, field: field)
                    }
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw Failure(
                            column: escape + 1,
                            message:
                                "a lone UTF-16 surrogate \\u\(Self.hex(unit)) (a high surrogate needs a low one after it)",
                            field: field)
                    }
                    i += 6
                    scalars.append(Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!)
                } else if (0xDC00...0xDFFF).contains(unit) {
                    throw Failure(
                        column: escape + 1,
                        message:
                            "a lone UTF-16 surrogate \\u\(Self.hex(unit)) (a low surrogate with no high one before it)",
                        field: field)
                } else {
                    scalars.append(Unicode.Scalar(unit)!)
                }
            default:
                throw Failure(
                    column: escape + 1,
                    message:
                        "an unknown escape \(ScriptText.quoted("\\" + String(decoding: [bytes[i]], as: UTF8.self)))"
                        + " (JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", field: field)
            }
            i += 1
            runStart = i
        }
    }

    private func hex4(at start: Int, escape: Int, field: String?) throws(Failure) -> UInt32 {
        guard start + 4 <= bytes.count else {
            throw Failure(column: escape + 1, message: "expected four hex digits after \\u", field: field)
        }
        var v: UInt32 = 0
        for b in bytes[start..<start + 4] {
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw Failure(column: escape + 1, message: "expected four hex digits after \\u", field: field)
            }
            v = v << 4 | d
        }
        return v
    }

    // MARK: Helpers

    private mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    private func peek(_ b: UInt8) -> Bool { i < bytes.count && bytes[i] == b }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private func numberText(from start: Int) -> String {
        var end = start
        while end < bytes.count,
            isDigit(bytes[end]) || bytes[end] == UInt8(ascii: "-")
                || bytes[end] == UInt8(ascii: ".")
        {
            end += 1
        }
        return String(decoding: bytes[start..<min(end, start + 24)], as: UTF8.self)
    }

    /// What is at the current position, for a message: a character, escaped if it is not printable.
    private func describeHere() -> String {
        guard i < bytes.count else { return "the end of the line" }
        let rest = String(decoding: bytes[i..<min(bytes.count, i + 4)], as: UTF8.self)
        guard let first = rest.first else { return "the end of the line" }
        return ScriptText.quoted(String(first), quote: "'")
    }

    private func fail(_ message: String, field: String? = nil) -> Failure {
        Failure(column: i + 1, message: message, field: field)
    }

    static func hex(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}

/// Script text shown in messages: quoted, control and invisible characters escaped (a script
/// cannot make the terminal beep or change colour through an error message), and cut short.
public enum ScriptText {
    /// `s` with control and invisible characters escaped, without quotes, cut after `limit`
    /// characters (a path that names a file is printed whole: `.max`).
    public static func escaped(_ s: String, limit: Int = 60) -> String {
        String(quoted(s, quote: "\u{0}", limit: limit).dropFirst().dropLast())
    }

    public static func quoted(_ s: String, quote: Character = "\"", limit: Int = 60) -> String {
        var out = String(quote)
        var count = 0
        for scalar in s.unicodeScalars {
            if count == limit {
                out += "…"
                break
            }
            count += 1
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar == Unicode.Scalar(UInt8(ascii: "\"")) && quote == "\"" {
                    out += "\\\""
                } else if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                    || scalar.properties.generalCategory == .format
                    || scalar.properties.generalCategory == .lineSeparator
                    || scalar.properties.generalCategory == .paragraphSeparator
                    || scalar.properties.generalCategory == .unassigned
                    || scalar.properties.generalCategory == .privateUse
                    || scalar.properties.generalCategory == .surrogate
                {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out.append(quote)
        return out
    }
}
