import ScrollwayDBus
import ScrollwayGeometry
import ScrollwayRigs
import ScrollwayViews
import Testing

@testable import ScrollwayAtSpi

/// The bridge numbers each view a reader is told of for its object path: views that come and
/// go (a chat's new bubbles) leave no entries behind, and a view that stays keeps its path.
@MainActor
@Suite struct AtSpiNumberingTests {
    @Test func goneViewsLeaveTheTableAndLiveOnesKeepTheirPaths() throws {
        let bus = try AccessibilityBus()
        defer { bus.stop() }
        let window = Window(size: Size(width: 400, height: 300))
        let staying = Label(text: "Staying", frame: Rect(x: 0, y: 0, width: 200, height: 20))
        window.addSubview(staying)
        let connection = try DBusConnection(address: bus.accessibilityAddress)
        let bridge = AtSpiBridge(connection: connection, applicationName: "scrollway-test") { [window] }
        let path = bridge.path(of: staying)
        var firstGone: String?
        var most = 0
        for n in 0..<5_000 {
            let bubble = Label(text: "Message \(n)", frame: Rect(x: 0, y: 40, width: 200, height: 20))
            window.addSubview(bubble)
            let bubblePath = bridge.path(of: bubble)
            #expect(bubblePath != path)
            firstGone = firstGone ?? bubblePath
            bubble.removeFromSuperview()
            most = max(most, bridge.numberedViews)
        }
        // Swept each time the table reached 1,024: never more than that at once.
        #expect(most <= 1_024, "\(most) numbered")
        #expect(bridge.path(of: staying) == path)
        #expect(try bridge.object(at: path) != nil)
        // The first bubble's path, gone, names no object (its number is not given again).
        let gone = try #require(firstGone)
        #expect(try bridge.object(at: gone) == nil)
    }

    /// `Properties.Set` takes the one property the registry sets, the application's id, on
    /// the application's object; any other object or property is read-only (a list's element
    /// had rewritten the application's id).
    @Test func onlyTheApplicationsIdCanBeSet() throws {
        let window = Window(size: Size(width: 400, height: 300))
        let label = Label(text: "Label", frame: Rect(x: 0, y: 0, width: 200, height: 20))
        window.addSubview(label)
        let served = try ServedWindow(window)
        defer { served.stop() }
        let (bus, connection, bridge) = (served.bus, served.connection, served.bridge)
        let client = try DBusConnection(address: bus.accessibilityAddress)
        let name = try connection.uniqueName
        /// Calls on `client` while the bridge serves, for the reply.
        func call(_ path: String, _ member: String, _ arguments: [DBusValue]) throws -> Result<[DBusValue], DBusError> {
            var answer: Result<[DBusValue], DBusError>?
            let pending = try client.callWithoutWaiting(
                name, path: path, interface: "org.freedesktop.DBus.Properties", member: member, arguments: arguments
            ) { answer = $0 }
            // Each turn waits for the bridge's bus at most 10 ms: 10 s in all.
            for _ in 0..<1000 where answer == nil {
                try connection.wait(timeout: 0.01)
                try client.process()
            }
            withExtendedLifetime(pending) {}
            return try #require(answer)
        }
        func set(_ path: String, _ interface: String, _ id: Int32) throws -> Bool {
            (try? call(path, "Set", [.string(interface), .string("Id"), .variant(.int32(id))]).get()) != nil
        }
        func id() throws -> DBusValue? {
            try call(AtSpiBridge.rootPath, "Get", [.string("org.a11y.atspi.Application"), .string("Id")]).get().first
        }
        let given = try id()  // by the registry, as the bridge registered
        #expect(try set(bridge.path(of: label), "org.a11y.atspi.Application", 77) == false)
        #expect(try set(AtSpiBridge.rootPath, "org.a11y.atspi.Accessible", 78) == false)
        #expect(try id() == given)
        #expect(try set(AtSpiBridge.rootPath, "org.a11y.atspi.Application", 5))
        #expect(try id() == .variant(.int32(5)))
    }
}
