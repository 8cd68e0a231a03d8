import ScrollwayGeometry

/// One D-Bus value with its type: what a call sends and a reply holds. Containers carry their
/// element signature so that an empty array still has a type (`a{sv}` with no entries).
///
/// A vardict (`a{sv}`, D-Bus's options map) is built with `vardict(_:)` and read with
/// `vardictValue`.
public indirect enum DBusValue: Equatable, Sendable {
    case byte(UInt8)
    case bool(Bool)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// A file descriptor. Sent: the bus duplicates it, the caller keeps its own. Received: a
    /// duplicate the reader owns and must close.
    case fd(Int32)
    /// An array of values of signature `element` (a dictionary is an array of `dictEntry`).
    case array(element: String, [DBusValue])
    /// One entry of a dictionary (`{kv}`), only inside an array.
    case dictEntry(DBusValue, DBusValue)
    case structure([DBusValue])
    case variant(DBusValue)

    /// The value's D-Bus type signature.
    public var signature: String {
        switch self {
        case .byte: return "y"
        case .bool: return "b"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .fd: return "h"
        case .array(let element, _): return "a" + element
        case .dictEntry(let k, let v): return "{" + k.signature + v.signature + "}"
        case .structure(let members): return "(" + members.map(\.signature).joined() + ")"
        case .variant: return "v"
        }
    }

    /// `a{sv}`: string keys, variant values (in key order, so messages are reproducible).
    public static func vardict(_ entries: [String: DBusValue]) -> DBusValue {
        .array(
            element: "{sv}",
            entries.sorted { $0.key < $1.key }.map { .dictEntry(.string($0.key), .variant($0.value)) })
    }

    /// The entries of an `a{sv}` (variants unwrapped), or nil if this is not one.
    public var vardictValue: [String: DBusValue]? {
        guard case .array("{sv}", let entries) = self else { return nil }
        var result: [String: DBusValue] = [:]
        for case .dictEntry(.string(let key), .variant(let value)) in entries { result[key] = value }
        return result
    }

    /// The string of a string, object path or signature, else nil.
    public var stringValue: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): return s
        default: return nil
        }
    }

    /// Any integer as Int (nil for other types).
    public var intValue: Int? {
        switch self {
        case .byte(let v): return Int(v)
        case .int32(let v): return Int(v)
        case .uint32(let v): return Int(v)
        case .int64(let v): return Int(v)
        case .uint64(let v): return Int(exactly: v)
        default: return nil
        }
    }

    /// A double, or any integer as a double.
    public var doubleValue: Double? {
        if case .double(let d) = self { return d }
        return intValue.map(Double.init)
    }
}
