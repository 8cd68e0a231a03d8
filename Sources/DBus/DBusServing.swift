import ScrollwayCSystemd
import ScrollwayGeometry

/// A message as a handler gets it: where it is addressed, the sender's unique name, and its
/// values.
public struct DBusMessage: Sendable {
    public let path: String
    public let interface: String
    public let member: String
    public let sender: String
    public let arguments: [DBusValue]

    /// Argument `index` when it is an `i` (Int32), as an Int.
    public func int32(at index: Int) -> Int? {
        guard arguments.indices.contains(index), case .int32(let v) = arguments[index] else { return nil }
        return Int(v)
    }
}

/// A method call to an object a connection serves.
public typealias DBusCall = DBusMessage

/// A signal a connection watched for.
public typealias DBusSignal = DBusMessage

/// What a served method answers.
public enum DBusAnswer: Sendable {
    /// A reply carrying these values (none for a method that returns nothing).
    case reply([DBusValue])
    /// A D-Bus error (`org.freedesktop.DBus.Error.UnknownMethod`, …) with a message.
    case error(name: String, message: String)
    /// Not this object's: sd-bus answers for it (an unknown method or object).
    case unhandled
}

/// A served subtree, a watched signal or a call awaiting its reply: it lasts as long as this object (sd-bus's slot is
/// released with it), and its handler runs from the connection's `process()`.
public final class DBusRegistration {
    enum Handler {
        case call((DBusCall) -> DBusAnswer)
        case signal((DBusSignal) -> Void)
        case reply(method: String, (Result<[DBusValue], DBusError>) -> Void)
    }
    let handler: Handler
    var slot: OpaquePointer?

    init(handler: Handler) { self.handler = handler }

    deinit { sd_bus_slot_unref(slot) }

    /// Stops serving or watching now.
    public func cancel() {
        sd_bus_slot_unref(slot)
        slot = nil
    }
}
