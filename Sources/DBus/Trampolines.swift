import Glibc
import ScrollwayCSystemd

/// Every C callback of this target: sd-bus calls them with the registration it was given as
/// user data (unretained: the registration owns the slot, so it outlives every call).
enum DBusTrampolines {
    /// A method call to a served subtree, a watched signal, or the reply to a call made
    /// without waiting (an error reply when it timed out).
    static let message: sd_bus_message_handler_t = { message, userdata, _ in
        guard let userdata else { return 0 }
        let registration = Unmanaged<DBusRegistration>.fromOpaque(userdata).takeUnretainedValue()
        switch registration.handler {
        case .call(let handler):
            return DBusConnection.answer(message, with: handler)
        case .signal(let handler):
            if let signal = try? DBusConnection.read(message) { handler(signal) }
            return 0
        case .reply(let method, let handler):
            handler(DBusConnection.result(of: message, method: method))
            return 0
        }
    }
}
