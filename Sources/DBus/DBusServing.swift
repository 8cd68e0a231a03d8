import ScrollwayCSystemd

/// A method call to an object a connection serves.
public struct DBusCall: Sendable {
    public let path: String
    public let interface: String
    public let member: String
    /// The caller's unique name.
    public let sender: String
    public let arguments: [DBusValue]
}

/// What a served method answers.
public enum DBusAnswer: Sendable {
    /// A reply carrying these values (none for a method that returns nothing).
    case reply([DBusValue])
    /// A D-Bus error (`org.freedesktop.DBus.Error.UnknownMethod`, …) with a message.
    case error(name: String, message: String)
    /// Not this object's: sd-bus answers for it (an unknown method or object).
    case unhandled
}

/// A signal a connection watched for.
public struct DBusSignal: Sendable {
    public let path: String
    public let interface: String
    public let member: String
    public let sender: String
    public let arguments: [DBusValue]
}

/// A served subtree or a watched signal: it lasts as long as this object (sd-bus's slot is
/// released with it), and its handler runs from the connection's `process()`.
public final class DBusRegistration {
    enum Handler {
        case call((DBusCall) -> DBusAnswer)
        case signal((DBusSignal) -> Void)
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
