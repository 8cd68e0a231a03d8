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
