import Foundation
import ScrollwayDBus
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayRigs
import ScrollwayScrolling
import ScrollwayTestSupport
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWestonHarness
import Testing

/// A real Wayland app in headless weston, exposed to AT-SPI by the platform itself
/// (`WaylandApp`'s accessibility) and read by libatspi (issue 37): the list scene's window, its
/// list and the rows that have cells, by their text.
@MainActor
@Suite struct AccessibilityInWestonTests {
    /// A scene (the list by default) in headless weston at 390 × 844, served to the AT-SPI bus of a private
    /// session, its first frame shown.
    @MainActor
    final class ListSceneInWeston {
        let bus: AccessibilityBus
        let rig: WestonRig
        let window: Window
        let app: WaylandApp

        init(_ scene: Scene = .list) throws {
            bus = try AccessibilityBus()
            do {
                rig = try WestonRig(width: 390, height: 844)
            } catch {
                bus.stop()
                throw error
            }
            window = scene.makeWindow(size: Size(width: 390, height: 844))
            do {
                app = try WaylandApp(
                    content: window, title: "Scrollway \(scene.name)", socket: rig.socketPath,
                    appID: "scrollway-demo",
                    accessibility: .session(address: try bus.sessionAddress))
                try app.pump(until: { [app] in app.window.framesCommitted > 0 }, "the first frame")
            } catch {
                rig.stop()
                bus.stop()
                throw error
            }
        }

        func stop() {
            rig.stop()
            bus.stop()
        }
    }

    @Test func theListScenesRowsAreReadInWeston() throws {
        let scene = try ListSceneInWeston()
        defer { scene.stop() }
        let (bus, window, app) = (scene.bus, scene.window, scene.app)
        #expect(app.accessibility != nil, "the window was not served:\n\(bus.log)")

        let desktop = try AccessibilityBusTests.client(
            ["tree", "--depth", "4"], in: bus, serve: { try app.step(maxWait: 0.01) })
        let apps = try #require(desktop["children"] as? [[String: Any]])
        let demo = try #require(apps.first { $0["name"] as? String == "scrollway-demo" }, "\(apps)")
        let frame = try #require((demo["children"] as? [[String: Any]])?.first)
        #expect(frame["name"] as? String == "Scrollway list" && frame["role"] as? String == "frame", "\(frame)")
        let list = try #require((frame["children"] as? [[String: Any]])?.first { $0["role"] as? String == "list" })
        let rows = (list["children"] as? [[String: Any]] ?? []).filter { $0["role"] as? String == "list item" }
        let view = try #require(window.view(named: "main") as? ListView)
        let cells = view.subviews.compactMap { $0 as? ListCell }.filter { !$0.isHidden }
        #expect(rows.count == cells.count && rows.count > 5, "\(rows.count) rows, \(cells.count) cells")
        #expect(Set(rows.compactMap { $0["name"] as? String }) == Set(cells.map(\.textLabel.text)))
    }

    /// Keys typed in weston go to the reader's keystroke listener first (the platform forwards
    /// each to AT-SPI's registry, as Qt does on Wayland), then to the window: Tab focuses the
    /// first row and Down the next, which the reader hears as focus changes naming the rows.
    @Test func keysGoToTheReaderThenMoveTheFocusInWeston() throws {
        let scene = try ListSceneInWeston()
        defer { scene.stop() }
        let (bus, rig, window, app) = (scene.bus, scene.rig, scene.window, scene.app)
        let serve = { try app.step(maxWait: 0.01) }
        let keys = try AccessibilityBusTests.listenToKeys(count: 4, in: bus, serve: serve)
        let focus = try AccessibilityBusTests.listen(
            ["object:state-changed:focused"], count: 3, in: bus, serve: serve)
        try rig.pressKey(named: "Tab", at: 1000)
        try rig.pressKey(named: "Down", at: 1100)
        let typed = try keys.finish(serve: serve)
        let heard = try focus.finish(serve: serve)
        #expect(typed.map { $0["string"] as? String } == ["Tab", "Tab", "Down", "Down"], "\(typed)")
        #expect(typed.map { $0["pressed"] as? Bool } == [true, false, true, false], "\(typed)")
        let list = try #require(window.view(named: "main") as? ListView)
        let first = ListRows.text(0)
        let second = ListRows.text(1)
        #expect(heard.map { $0["name"] as? String } == [first, first, second], "\(heard)")
        #expect(heard.map { $0["detail1"] as? Int } == [1, 0, 1], "\(heard)")
        #expect((window.focusedView as? ListCell).flatMap { list.row(for: $0) } == 1)
    }

    /// An app follows `org.a11y.Status.IsEnabled`: turned off, it leaves the desktop (the
    /// registry lists no application); turned on again (a screen reader started), it is served
    /// again and read.
    @Test func anAppFollowsIsEnabled() throws {
        let bus = try AccessibilityBus()
        defer { bus.stop() }
        let rig = try WestonRig(width: 320, height: 240)
        defer { rig.stop() }
        let app = try WaylandApp(
            content: Window(size: Size(width: 320, height: 240)), title: "follower", socket: rig.socketPath,
            appID: "follower", accessibility: .whenEnabled(session: try bus.sessionAddress))
        #expect(app.accessibility != nil, "\(bus.log)")
        let session = try DBusConnection(address: try bus.sessionAddress)
        func setEnabled(_ on: Bool) throws {
            try session.call(
                "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.freedesktop.DBus.Properties", member: "Set",
                arguments: [.string("org.a11y.Status"), .string("IsEnabled"), .variant(.bool(on))])
        }
        func applications() throws -> [String] {
            let desktop = try AccessibilityBusTests.client(
                ["tree"], in: bus, serve: { try app.step(maxWait: 0.01) })
            return (desktop["children"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        #expect(try applications() == ["follower"])
        try setEnabled(false)
        try app.pump(until: { app.accessibility == nil }, "the app to stop serving")
        try eventually("the registry to drop the app") { try applications().isEmpty }
        try setEnabled(true)
        try app.pump(until: { app.accessibility != nil }, "the app to serve again")
        #expect(try applications() == ["follower"])
    }

    /// An app connects only where the accessibility bus runs and is enabled: in a session with
    /// the launcher (enabled) it serves its window; in a session without one it does not, and
    /// starts none (asking the name would have D-Bus start the launcher).
    @Test func anAppConnectsOnlyWhereAccessibilityIsEnabled() throws {
        let rig = try WestonRig(width: 320, height: 240)
        defer { rig.stop() }
        let bus = try AccessibilityBus()
        defer { bus.stop() }
        let served = try WaylandApp(
            content: Window(size: Size(width: 320, height: 240)), title: "served", socket: rig.socketPath,
            accessibility: .whenEnabled(session: try bus.sessionAddress))
        #expect(served.accessibility != nil, "\(bus.log)")

        // A session bus of its own, with no launcher in it.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrollway-plain-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--session", "--nofork", "--nopidfile", "--address=unix:path=\(directory.path)/bus"]
        daemon.environment = ["XDG_DATA_DIRS": "/usr/share"]
        try daemon.run()
        defer {
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
        }
        let plain = "unix:path=\(directory.path)/bus"
        try eventually("the session bus to listen") { (try? DBusConnection(address: plain)) != nil }
        let unserved = try WaylandApp(
            content: Window(size: Size(width: 320, height: 240)), title: "unserved", socket: rig.socketPath,
            accessibility: .whenEnabled(session: plain))
        #expect(unserved.accessibility == nil)
        let names = try DBusConnection(address: plain).call(
            "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "ListNames")
        #expect(!"\(names)".contains("org.a11y.Bus"), "the launcher was started: \(names)")
    }
}
