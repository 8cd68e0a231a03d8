import Glibc
import ScrollwayCSystemd
import ScrollwayGeometry

/// What went wrong on the bus, naming the bus or the method.
public enum DBusError: Error, Equatable, CustomStringConvertible {
    /// The bus at `address` could not be reached.
    case cannotConnect(address: String, reason: String)
    /// `method` (interface.member on the destination) answered with a D-Bus error.
    case failed(method: String, name: String, message: String)
    /// A message could not be built or read (`what`, errno's text).
    case message(method: String, what: String)

    public var description: String {
        switch self {
        case .cannotConnect(let address, let reason): return "cannot connect to the D-Bus bus at \(address): \(reason)"
        case .failed(let method, let name, let message): return "\(method) failed: \(name): \(message)"
        case .message(let method, let what): return "\(method): \(what)"
        }
    }
}

/// A connection to one D-Bus bus through sd-bus: blocking method calls, and objects served and
/// signals watched, whose messages `process()` dispatches (its descriptor polled with the rest
/// of an event loop's, or `wait(timeout:)`).
///
/// The connection is not thread-safe (sd-bus's is not): one owner calls it. Closing it (deinit)
/// ends whatever the peer ties to the connection (mutter's remote-desktop session).
public final class DBusConnection {
    private var bus: OpaquePointer?
    /// The bus's address (`unix:path=…`).
    public let address: String

    /// Connects to the bus at `address` (a D-Bus address such as DBUS_SESSION_BUS_ADDRESS's) as
    /// a client that may pass file descriptors.
    public init(address: String) throws {
        self.address = address
        var bus: OpaquePointer?
        var r = sd_bus_new(&bus)
        if r >= 0 { r = sd_bus_set_address(bus, address) }
        if r >= 0 { r = sd_bus_set_bus_client(bus, 1) }
        if r >= 0 { r = sd_bus_negotiate_fds(bus, 1) }
        if r >= 0 { r = sd_bus_start(bus) }
        guard r >= 0 else {
            sd_bus_unref(bus)
            throw DBusError.cannotConnect(address: address, reason: String(cString: strerror(-r)))
        }
        self.bus = bus
    }

    deinit { sd_bus_flush_close_unref(bus) }

    /// The name the bus gave this connection (`:1.42`): what an object reference names.
    public var uniqueName: String {
        get throws {
            var name: UnsafePointer<CChar>?
            let r = sd_bus_get_unique_name(bus, &name)
            guard r >= 0, let name else {
                throw DBusError.message(method: "GetUniqueName", what: Self.text(r))
            }
            return String(cString: name)
        }
    }

    /// The descriptor to poll (for reading, and for writing while `wantsToWrite`).
    public var fileDescriptor: Int32 { sd_bus_get_fd(bus) }

    /// Whether messages wait to be written (poll for POLLOUT too).
    public var wantsToWrite: Bool { sd_bus_get_events(bus) & Int32(POLLOUT) != 0 }

    /// Reads and dispatches every message that has come (method calls to served objects,
    /// watched signals, replies), without blocking.
    public func process() throws {
        while true {
            let r = sd_bus_process(bus, nil)
            guard r >= 0 else { throw DBusError.message(method: "process", what: Self.text(r)) }
            if r == 0 { return }
        }
    }

    /// Blocks until a message comes or `timeout` seconds pass, then `process()`es.
    public func wait(timeout: Double) throws {
        let r = sd_bus_wait(bus, UInt64(clamping: timeout * 1_000_000))
        guard r >= 0 else { throw DBusError.message(method: "wait", what: Self.text(r)) }
        try process()
    }

    /// Serves every object under `prefix` (and `prefix` itself): `handler` answers each method
    /// call to them, from `process()`. The objects are served while the returned registration
    /// lives.
    public func serve(
        under prefix: String, _ handler: @escaping (DBusCall) -> DBusAnswer
    ) throws
        -> DBusRegistration
    {
        let registration = DBusRegistration(handler: .call(handler))
        var slot: OpaquePointer?
        let r = sd_bus_add_fallback(
            bus, &slot, prefix, DBusTrampolines.message, Unmanaged.passUnretained(registration).toOpaque())
        guard r >= 0 else { throw DBusError.message(method: "serve \(prefix)", what: Self.text(r)) }
        registration.slot = slot
        return registration
    }

    /// Calls `handler` with each signal `interface.member` (any member when nil) from `sender`
    /// (any when nil) that comes, from `process()`, while the returned registration lives.
    public func watch(
        sender: String? = nil, interface: String, member: String? = nil,
        _ handler: @escaping (DBusSignal) -> Void
    ) throws -> DBusRegistration {
        let registration = DBusRegistration(handler: .signal(handler))
        var slot: OpaquePointer?
        let r = sd_bus_match_signal(
            bus, &slot, sender, nil, interface, member, DBusTrampolines.message,
            Unmanaged.passUnretained(registration).toOpaque())
        guard r >= 0 else { throw DBusError.message(method: "watch \(interface)", what: Self.text(r)) }
        registration.slot = slot
        return registration
    }

    /// Sends the signal `interface.member` from `path` with `arguments`, to whoever listens.
    public func emit(path: String, interface: String, member: String, arguments: [DBusValue]) throws {
        let what = "\(interface).\(member)"
        var message: OpaquePointer?
        var r = sd_bus_message_new_signal(bus, &message, path, interface, member)
        defer { sd_bus_message_unref(message) }
        guard r >= 0 else { throw DBusError.message(method: what, what: "cannot make the signal: \(Self.text(r))") }
        for value in arguments { try Self.append(value, to: message, method: what) }
        r = sd_bus_send(bus, message, nil)
        // Written now, not when the loop next polls for writing: events go out in order with
        // the frames that caused them.
        if r >= 0 { r = sd_bus_flush(bus) }
        guard r >= 0 else { throw DBusError.message(method: what, what: "cannot send: \(Self.text(r))") }
    }

    /// Answers a method call `message` (from the trampoline): a reply with values, a D-Bus
    /// error (arguments that cannot be read are `InvalidArgs`), or 0 (not ours: sd-bus says the
    /// method is unknown).
    static func answer(_ message: OpaquePointer?, with handler: (DBusCall) -> DBusAnswer) -> Int32 {
        let answer: DBusAnswer
        var method = "method call"
        do {
            let call = try read(message)
            method = "\(call.interface).\(call.member)"
            answer = handler(call)
        } catch {
            answer = .error(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "\(error)")
        }
        var reply: OpaquePointer?
        defer { sd_bus_message_unref(reply) }
        switch answer {
        case .unhandled: return 0
        case .reply(let values):
            guard sd_bus_message_new_method_return(message, &reply) >= 0 else { return -ENOMEM }
            do {
                for value in values { try append(value, to: reply, method: method) }
            } catch {
                return -EINVAL
            }
        case .error(let name, let text):
            var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
            defer { sd_bus_error_free(&error) }
            _ = sd_bus_error_set(&error, name, text)
            guard sd_bus_message_new_method_error(message, &reply, &error) >= 0 else { return -ENOMEM }
        }
        let r = sd_bus_send(nil, reply, nil)
        return r < 0 ? r : 1
    }

    /// A method call or signal `message`, read whole: where it is addressed, from whom, and its
    /// values.
    static func read(_ message: OpaquePointer?) throws -> DBusMessage {
        func string(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }
        let interface = string(sd_bus_message_get_interface(message))
        let member = string(sd_bus_message_get_member(message))
        return DBusMessage(
            path: string(sd_bus_message_get_path(message)), interface: interface, member: member,
            sender: string(sd_bus_message_get_sender(message)),
            arguments: try readAll(message, method: "\(interface).\(member)"))
    }

    /// Calls `interface.member` on `path` at `destination` with `arguments` and returns the
    /// reply's values, waiting at most `timeout` seconds.
    @discardableResult
    public func call(
        _ destination: String, path: String, interface: String, member: String, arguments: [DBusValue] = [],
        timeout: Double = 10
    ) throws -> [DBusValue] {
        let method = "\(interface).\(member)"
        let message = try methodCall(destination, path: path, interface: interface, member: member, arguments)
        defer { sd_bus_message_unref(message) }
        var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let r = sd_bus_call(bus, message, UInt64(clamping: timeout * 1_000_000), &error, &reply)
        defer { sd_bus_message_unref(reply) }
        guard r >= 0 else {
            let name = error.name.map { String(cString: $0) } ?? "errno"
            let text = error.message.map { String(cString: $0) } ?? Self.text(r)
            throw DBusError.failed(method: method, name: name, message: text)
        }
        return try Self.readAll(reply, method: method)
    }

    /// Calls `interface.member` on `path` at `destination` with `arguments` without waiting:
    /// `reply` gets the reply's values, or the error (a timeout after `timeout` seconds is
    /// one), from `process()`. Cancelling or releasing the returned registration abandons the
    /// call (`reply` is not called).
    public func callWithoutWaiting(
        _ destination: String, path: String, interface: String, member: String, arguments: [DBusValue] = [],
        timeout: Double = 10, reply: @escaping (Result<[DBusValue], DBusError>) -> Void
    ) throws -> DBusRegistration {
        let method = "\(interface).\(member)"
        let message = try methodCall(destination, path: path, interface: interface, member: member, arguments)
        defer { sd_bus_message_unref(message) }
        let registration = DBusRegistration(handler: .reply(method: method, reply))
        var slot: OpaquePointer?
        var r = sd_bus_call_async(
            bus, &slot, message, DBusTrampolines.message, Unmanaged.passUnretained(registration).toOpaque(),
            UInt64(clamping: timeout * 1_000_000))
        if r >= 0 { r = sd_bus_flush(bus) }
        guard r >= 0 else {
            sd_bus_slot_unref(slot)
            throw DBusError.message(method: method, what: "cannot send: \(Self.text(r))")
        }
        registration.slot = slot
        return registration
    }

    /// A method call message with `arguments` appended (the caller unrefs it).
    private func methodCall(
        _ destination: String, path: String, interface: String, member: String, _ arguments: [DBusValue]
    ) throws -> OpaquePointer? {
        let method = "\(interface).\(member)"
        var message: OpaquePointer?
        let r = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
        guard r >= 0 else { throw DBusError.message(method: method, what: "cannot make the call: \(Self.text(r))") }
        do {
            for value in arguments { try Self.append(value, to: message, method: method) }
        } catch {
            sd_bus_message_unref(message)
            throw error
        }
        return message
    }

    /// A reply `message` to `method`: its values, or its D-Bus error.
    static func result(of message: OpaquePointer?, method: String) -> Result<[DBusValue], DBusError> {
        if sd_bus_message_is_method_error(message, nil) > 0 {
            let error = sd_bus_message_get_error(message)
            let name = error?.pointee.name.map { String(cString: $0) } ?? "error"
            let text = error?.pointee.message.map { String(cString: $0) } ?? ""
            return .failure(.failed(method: method, name: name, message: text))
        }
        do { return .success(try readAll(message, method: method)) } catch let error as DBusError {
            return .failure(error)
        } catch {
            return .failure(.message(method: method, what: "\(error)"))
        }
    }

    /// Reads the property `name` of `interface` on `path` at `destination`.
    public func property(
        _ destination: String, path: String, interface: String, name: String, timeout: Double = 10
    ) throws -> DBusValue {
        let reply = try call(
            destination, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
            arguments: [.string(interface), .string(name)], timeout: timeout)
        guard case .variant(let value)? = reply.first else {
            throw DBusError.message(method: "\(interface).\(name)", what: "the property's reply is not a variant")
        }
        return value
    }

    private static func text(_ r: Int32) -> String { String(cString: strerror(-r)) }

    // MARK: Writing

    private static func append(_ value: DBusValue, to m: OpaquePointer?, method: String) throws {
        func check(_ r: Int32) throws {
            if r < 0 { throw DBusError.message(method: method, what: "cannot append \(value.signature): \(text(r))") }
        }
        func basic<T>(_ type: Character, _ v: T) throws {
            var v = v
            try check(withUnsafePointer(to: &v) { sd_bus_message_append_basic(m, CChar(type.asciiValue!), $0) })
        }
        func container(_ type: Character, _ contents: String, _ members: [DBusValue]) throws {
            try check(sd_bus_message_open_container(m, CChar(type.asciiValue!), contents))
            for member in members { try append(member, to: m, method: method) }
            try check(sd_bus_message_close_container(m))
        }
        switch value {
        case .byte(let v): try basic("y", v)
        case .bool(let v): try basic("b", Int32(v ? 1 : 0))
        case .int32(let v): try basic("i", v)
        case .uint32(let v): try basic("u", v)
        case .int64(let v): try basic("x", v)
        case .uint64(let v): try basic("t", v)
        case .double(let v): try basic("d", v)
        case .fd(let v): try basic("h", v)
        case .string(let s), .objectPath(let s), .signature(let s):
            // String types take the characters themselves, not a pointer to a pointer.
            let type = CChar(value.signature.first!.asciiValue!)
            try check(s.withCString { sd_bus_message_append_basic(m, type, $0) })
        case .array(let element, let members): try container("a", element, members)
        case .dictEntry(let k, let v): try container("e", k.signature + v.signature, [k, v])
        case .structure(let members): try container("r", members.map(\.signature).joined(), members)
        case .variant(let inner): try container("v", inner.signature, [inner])
        }
    }

    // MARK: Reading

    /// Every value left in the current container of `m`.
    private static func readAll(_ m: OpaquePointer?, method: String) throws -> [DBusValue] {
        var values: [DBusValue] = []
        while true {
            var type: CChar = 0
            var contents: UnsafePointer<CChar>?
            let r = sd_bus_message_peek_type(m, &type, &contents)
            if r == 0 { return values }
            guard r > 0 else { throw DBusError.message(method: method, what: "cannot read the reply: \(text(r))") }
            values.append(try read(m, type: type, contents: contents.map { String(cString: $0) } ?? "", method: method))
        }
    }

    private static func read(_ m: OpaquePointer?, type: CChar, contents: String, method: String) throws -> DBusValue {
        let letter = Character(UnicodeScalar(UInt8(bitPattern: type)))
        func check(_ r: Int32) throws {
            if r < 0 { throw DBusError.message(method: method, what: "cannot read \(letter): \(text(r))") }
        }
        func basic<T>(_ initial: T) throws -> T {
            var v = initial
            try check(withUnsafeMutablePointer(to: &v) { sd_bus_message_read_basic(m, type, $0) })
            return v
        }
        func inside() throws -> [DBusValue] {
            try check(sd_bus_message_enter_container(m, type, contents))
            let members = try readAll(m, method: method)
            try check(sd_bus_message_exit_container(m))
            return members
        }
        switch letter {
        case "y": return .byte(try basic(UInt8(0)))
        case "b": return .bool(try basic(Int32(0)) != 0)
        case "n": return .int32(Int32(try basic(Int16(0))))
        case "q": return .uint32(UInt32(try basic(UInt16(0))))
        case "i": return .int32(try basic(Int32(0)))
        case "u": return .uint32(try basic(UInt32(0)))
        case "x": return .int64(try basic(Int64(0)))
        case "t": return .uint64(try basic(UInt64(0)))
        case "d": return .double(try basic(Double(0)))
        case "h":
            // The message owns its descriptor; the reader gets a duplicate of its own.
            let borrowed = try basic(Int32(-1))
            let own = fcntl(borrowed, F_DUPFD_CLOEXEC, 3)
            guard own >= 0 else { throw DBusError.message(method: method, what: "cannot keep a descriptor") }
            return .fd(own)
        case "s", "o", "g":
            let pointer = try basic(UnsafePointer<CChar>?.none)
            let s = pointer.map { String(cString: $0) } ?? ""
            return letter == "s" ? .string(s) : letter == "o" ? .objectPath(s) : .signature(s)
        case "a": return .array(element: contents, try inside())
        case "v":
            let members = try inside()
            guard let only = members.first, members.count == 1 else {
                throw DBusError.message(method: method, what: "a variant holds \(members.count) values")
            }
            return .variant(only)
        case "r": return .structure(try inside())
        case "e":
            let members = try inside()
            guard members.count == 2 else {
                throw DBusError.message(method: method, what: "a dictionary entry holds \(members.count) values")
            }
            return .dictEntry(members[0], members[1])
        default: throw DBusError.message(method: method, what: "unknown type \(letter)")
        }
    }
}
