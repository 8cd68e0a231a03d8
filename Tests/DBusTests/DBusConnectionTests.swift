import Foundation
import ScrollwayDBus
import ScrollwayGeometry
import ScrollwayTestSupport
import Testing

/// sd-bus through `DBusConnection` against a real bus: a `dbus-daemon` of the test's own, whose
/// driver (`org.freedesktop.DBus`) answers calls of every shape the rigs make.
@Suite(.serialized)
final class DBusConnectionTests {
    let directory: URL
    let daemon: Process?
    let address: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrollway-dbus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        address = "unix:path=\(directory.path)/bus"
        guard
            let daemonPath = ["/usr/bin/dbus-daemon", "/bin/dbus-daemon"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            daemon = nil
            return
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: daemonPath)
        p.arguments = ["--session", "--nofork", "--nopidfile", "--address=\(address)"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        daemon = p
        try eventually("dbus-daemon listens at \(address)") { (try? DBusConnection(address: address)) != nil }
    }

    deinit {
        // dbus-daemon kept running after SIGTERM here (the wait hung); the bus is ours alone.
        if let daemon { kill(daemon.processIdentifier, SIGKILL) }
        daemon?.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    private func bus() throws -> DBusConnection {
        try #require(daemon != nil, "dbus-daemon is not installed (apt-get install dbus)")
        return try DBusConnection(address: address)
    }

    private func driver(_ bus: DBusConnection, _ member: String, _ arguments: [DBusValue] = []) throws -> [DBusValue] {
        try bus.call(
            "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: member,
            arguments: arguments)
    }

    /// An object served under a prefix answers a call from another connection (another
    /// thread's, as another process's would): the values it was sent and its path, a D-Bus
    /// error where the handler gives one, and sd-bus's "unknown method" where it declines.
    @Test func aServedSubtreeAnswersCalls() throws {
        let server = try bus()
        let name = try server.uniqueName
        let registration = try server.serve(under: "/org/scrollway/test") { call in
            switch call.member {
            case "Echo": .reply(call.arguments + [.objectPath(call.path)])
            case "Fail": .error(name: "org.scrollway.Error.Refused", message: "refused \(call.arguments.count)")
            default: .unhandled
            }
        }
        defer { registration.cancel() }
        let address = self.address
        nonisolated(unsafe) var results: [Result<[DBusValue], Error>] = []
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            // The client's own connection, on its own thread (sd-bus connections have one owner).
            guard let client = try? DBusConnection(address: address) else {
                done.signal()
                return
            }
            for member in ["Echo", "Fail", "Other"] {
                results.append(
                    Result {
                        try client.call(
                            name, path: "/org/scrollway/test/child", interface: "org.scrollway.Test", member: member,
                            arguments: [.string("hello"), .int32(7)], timeout: 5)
                    })
            }
            done.signal()
        }
        while done.wait(timeout: .now()) == .timedOut { try server.wait(timeout: 0.05) }
        try #require(results.count == 3, "the client could not connect")
        #expect(
            try results[0].get() == [.string("hello"), .int32(7), .objectPath("/org/scrollway/test/child")])
        #expect(
            throws: DBusError.failed(
                method: "org.scrollway.Test.Fail", name: "org.scrollway.Error.Refused", message: "refused 2")
        ) {
            try results[1].get()
        }
        guard case .failure(DBusError.failed(_, let unknown, _)) = results[2] else {
            Issue.record("an unhandled method was answered: \(results[2])")
            return
        }
        #expect(
            unknown == "org.freedesktop.DBus.Error.UnknownMethod"
                || unknown == "org.freedesktop.DBus.Error.UnknownObject")
    }

    /// A call made without waiting gets its reply from `process()`, in order: the values, a
    /// D-Bus error, and a timeout as an error when nobody answers (a connection that never
    /// reads); a cancelled call is never answered.
    @Test func aCallWithoutWaitingIsAnsweredFromProcess() throws {
        let server = try bus()
        let name = try server.uniqueName
        let registration = try server.serve(under: "/org/scrollway/test") { call in
            call.member == "Echo" ? .reply(call.arguments) : .error(name: "org.scrollway.Error.Refused", message: "no")
        }
        defer { registration.cancel() }
        // On the bus, never reading: nothing it is sent is answered.
        let deaf = try bus()
        let deafName = try deaf.uniqueName
        let address = self.address
        nonisolated(unsafe) var heard: [(String, Result<[DBusValue], DBusError>)] = []
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            guard let client = try? DBusConnection(address: address) else {
                done.signal()
                return
            }
            var pending: [DBusRegistration] = []
            for (destination, member, timeout) in [
                (name, "Echo", 5.0), (name, "Fail", 5.0), (deafName, "Echo", 0.2), (name, "Echo", 5.0),
            ] {
                let label = destination == name ? member : "unanswered"
                if let call = try? client.callWithoutWaiting(
                    destination, path: "/org/scrollway/test", interface: "org.scrollway.Test", member: member,
                    arguments: [.int32(Int32(pending.count))], timeout: timeout, reply: { heard.append((label, $0)) })
                {
                    pending.append(call)
                }
            }
            // The last call is abandoned before its answer can be read.
            pending.last?.cancel()
            let end = Date().addingTimeInterval(10)
            while heard.count < 3 && Date() < end { try? client.wait(timeout: 0.05) }
            for _ in 0..<5 { try? client.wait(timeout: 0.05) }
            done.signal()
        }
        while done.wait(timeout: .now()) == .timedOut { try server.wait(timeout: 0.05) }
        #expect(heard.map(\.0) == ["Echo", "Fail", "unanswered"], "\(heard)")
        guard heard.count == 3 else { return }
        #expect(try heard[0].1.get() == [.int32(0)])
        guard case .failure(.failed(_, let refused, _)) = heard[1].1,
            case .failure(.failed(_, let timedOut, _)) = heard[2].1
        else {
            Issue.record("\(heard)")
            return
        }
        #expect(refused == "org.scrollway.Error.Refused")
        #expect(
            timedOut == "org.freedesktop.DBus.Error.NoReply" || timedOut == "org.freedesktop.DBus.Error.Timeout",
            "\(timedOut)")
    }

    /// A signal emitted on one connection reaches a watch on another, with its values, path and
    /// sender; a cancelled watch hears nothing more.
    @Test func aWatchedSignalArrives() throws {
        let emitter = try bus()
        let watcher = try bus()
        var heard: [DBusSignal] = []
        let watch = try watcher.watch(interface: "org.scrollway.Test", member: "Changed") { heard.append($0) }
        try emitter.emit(
            path: "/org/scrollway/test/1", interface: "org.scrollway.Test", member: "Changed",
            arguments: [.string("focused"), .int32(1), .int32(0), .variant(.string("")), .array(element: "{sv}", [])])
        try eventually("the signal to arrive") {
            try watcher.wait(timeout: 0.05)
            return !heard.isEmpty
        }
        #expect(heard.count == 1)
        let emitterName = try emitter.uniqueName
        #expect(heard.first?.path == "/org/scrollway/test/1" && heard.first?.sender == emitterName)
        #expect(heard.first?.arguments.map(\.signature) == ["s", "i", "i", "v", "a{sv}"])
        watch.cancel()
        try emitter.emit(
            path: "/org/scrollway/test/1", interface: "org.scrollway.Test", member: "Changed", arguments: [])
        try emitter.call(
            "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "GetId")
        try watcher.wait(timeout: 0.2)
        #expect(heard.count == 1)
    }

    @Test func aCallReturnsTheDriversValues() throws {
        let bus = try bus()
        // A unique name is ":1.N"; ListNames (as) holds the driver's own name and ours.
        let hello = try driver(bus, "GetId")
        #expect(hello.count == 1)
        #expect(hello.first?.stringValue?.count == 32)
        let names = try driver(bus, "ListNames")
        guard case .array("s", let list)? = names.first else {
            Issue.record("ListNames returned \(names)")
            return
        }
        #expect(list.contains(.string("org.freedesktop.DBus")))
    }

    @Test func argumentsOfEveryBasicTypeGoOut() throws {
        let bus = try bus()
        // RequestName (su) → u: 1 is "became the primary owner"; NameHasOwner (s) → b.
        #expect(try driver(bus, "RequestName", [.string("org.scrollway.Test"), .uint32(4)]) == [.uint32(1)])
        #expect(try driver(bus, "NameHasOwner", [.string("org.scrollway.Test")]) == [.bool(true)])
        #expect(try driver(bus, "NameHasOwner", [.string("org.scrollway.Nobody")]) == [.bool(false)])
    }

    @Test func aVardictGoesOutAndVariantsComeBack() throws {
        let bus = try bus()
        // UpdateActivationEnvironment takes a{ss}: a dictionary of its own element type.
        let env = DBusValue.array(element: "{ss}", [.dictEntry(.string("SCROLLWAY"), .string("1"))])
        #expect(try driver(bus, "UpdateActivationEnvironment", [env]) == [])
        // Properties.Get returns a variant: the driver's Features (as).
        let features = try bus.property(
            "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", name: "Features")
        guard case .array("s", _) = features else {
            Issue.record("Features is \(features)")
            return
        }
        #expect(DBusValue.vardict(["b": .bool(true), "a": .uint32(7)]).signature == "a{sv}")
        #expect(DBusValue.vardict(["b": .bool(true)]).vardictValue == ["b": .bool(true)])
    }

    @Test func anErrorReplyNamesTheMethodAndTheError() throws {
        let bus = try bus()
        #expect(
            throws: DBusError.failed(
                method: "org.freedesktop.DBus.GetNameOwner", name: "org.freedesktop.DBus.Error.NameHasNoOwner",
                message: "Could not get owner of name 'org.scrollway.Nobody': no such name")
        ) {
            try self.driver(bus, "GetNameOwner", [.string("org.scrollway.Nobody")])
        }
        // A call with the wrong signature is the peer's error, not a crash.
        #expect {
            try self.driver(bus, "NameHasOwner", [.uint32(3)])
        } throws: { error in
            guard case .failed(_, let name, _) = error as? DBusError else { return false }
            return name == "org.freedesktop.DBus.Error.InvalidArgs"
        }
    }

    @Test func anAddressWithNoBusSaysWhichAddress() throws {
        let nowhere = "unix:path=\(directory.path)/nothing-here"
        #expect {
            try DBusConnection(address: nowhere)
        } throws: { error in
            "\(error)".hasPrefix("cannot connect to the D-Bus bus at \(nowhere): ")
        }
    }
}
