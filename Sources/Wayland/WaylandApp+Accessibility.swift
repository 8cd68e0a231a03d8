import Foundation
import ScrollwayAtSpi
import ScrollwayDBus
import ScrollwayRaster
import ScrollwayViews

/// Whether and how a Wayland app exposes its window to assistive technology (AT-SPI).
public enum AccessibilityActivation: Sendable {
    /// Through the session bus in DBUS_SESSION_BUS_ADDRESS, while the desktop's accessibility
    /// bus runs and says it is enabled (`org.a11y.Status.IsEnabled`, set while a screen reader
    /// runs or accessibility is turned on): the app follows the property, so a screen reader
    /// started later finds the window, and one that quits leaves nothing registered. Without
    /// it nothing is registered and no frame does more.
    case automatic
    /// Through the session bus at this address, under the same condition as `automatic`.
    case whenEnabled(session: String)
    /// Never.
    case off
    /// Through the session bus at this address, enabled or not (a test's private session).
    case session(address: String)
}

/// The app's side of accessibility: the session bus watched for the accessibility bus and its
/// `IsEnabled` (AccessKit's policy), and the bridge that serves the window while it is on.
/// Both connections' descriptors join the app's poll; a bus that fails is logged and dropped,
/// and the app runs on without it.
@MainActor
final class AccessibilityLink {
    let content: Window
    let name: String
    let input: WaylandInput
    /// The session bus, kept while the app follows `IsEnabled` (nil for `.session`, which
    /// serves regardless, and once it failed).
    private(set) var session: DBusConnection?
    private var watches: [DBusRegistration] = []
    private(set) var bridge: AtSpiBridge?
    private let followsEnabled: Bool
    private let address: String

    /// nil when `activation` says never or there is no session bus to ask.
    init?(_ activation: AccessibilityActivation, content: Window, name: String, input: WaylandInput) {
        switch activation {
        case .off: return nil
        case .automatic:
            guard let session = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"], !session.isEmpty else {
                return nil
            }
            address = session
            followsEnabled = true
        case .whenEnabled(let session):
            address = session
            followsEnabled = true
        case .session(let session):
            address = session
            followsEnabled = false
        }
        self.content = content
        self.name = name
        self.input = input
        do {
            let session = try DBusConnection(address: address)
            if followsEnabled {
                // The launcher's coming and going, and IsEnabled's changes.
                watches = [
                    try session.watch(
                        sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged"
                    ) { [unowned self] signal in
                        guard signal.arguments.first?.stringValue == "org.a11y.Bus" else { return }
                        MainActor.assumeIsolated { self.update() }
                    },
                    try session.watch(
                        sender: "org.a11y.Bus", interface: "org.freedesktop.DBus.Properties",
                        member: "PropertiesChanged"
                    ) { [unowned self] signal in
                        guard signal.path == "/org/a11y/bus", signal.arguments.first?.stringValue == "org.a11y.Status"
                        else { return }
                        MainActor.assumeIsolated { self.update() }
                    },
                ]
                self.session = session
            }
            update(session: session)
        } catch {
            Diagnostics.wayland.warning("accessibility: not available (\(error))")
            return nil
        }
    }

    /// Serves the window if the accessibility bus runs and is enabled (or always, outside
    /// `followsEnabled`), and stops serving it otherwise.
    func update(session given: DBusConnection? = nil) {
        guard let session = given ?? session else { return }
        var wanted = true
        if followsEnabled {
            // Only a running launcher is asked: a call to the name would start one (D-Bus
            // activation) in every session where at-spi2-core is installed.
            let running = try? session.call(
                "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "NameHasOwner", arguments: [.string("org.a11y.Bus")], timeout: 2)
            wanted = running?.first == .bool(true)
            if wanted {
                let enabled = try? session.property(
                    "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.a11y.Status", name: "IsEnabled", timeout: 2)
                wanted = enabled == .bool(true)
            }
        }
        if wanted && bridge == nil {
            connect(session)
        } else if !wanted, bridge != nil {
            Diagnostics.wayland.debug("accessibility: turned off; the window is no longer served")
            drop()
        }
    }

    private func connect(_ session: DBusConnection) {
        do {
            guard
                let a11y = try session.call(
                    "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.a11y.Bus", member: "GetAddress", timeout: 2
                ).first?.stringValue, !a11y.isEmpty
            else { return }
            let bridge = AtSpiBridge(
                connection: try DBusConnection(address: a11y), applicationName: name,
                windows: { [content] in [content] })
            try bridge.register()
            self.bridge = bridge
            input.keyForwarder = { [weak bridge] key, deliver in
                if let bridge { bridge.forward(key, deliver: deliver) } else { deliver() }
            }
            Diagnostics.wayland.debug("accessibility: serving the window on \(a11y)")
        } catch {
            Diagnostics.wayland.warning("accessibility: not available (\(error))")
        }
    }

    /// Stops serving; keys waiting for the reader's answer go to the window.
    func drop() {
        input.keyForwarder = nil
        bridge?.unregister()
        bridge = nil
    }

    /// The descriptors to poll: the session bus's and the accessibility bus's.
    var descriptors: [DBusConnection] { [session, bridge?.connection].compactMap { $0 } }

    /// Handles what came on `connection` (one of `descriptors`): a reader's calls, or the
    /// session's signals. A bus that failed is dropped, with what it served.
    func process(_ connection: DBusConnection) {
        do { try connection.process() } catch {
            if connection === session {
                Diagnostics.wayland.warning("accessibility: the session bus failed (\(error)); no longer followed")
                watches = []
                session = nil
            } else {
                Diagnostics.wayland.warning("accessibility: the bus failed (\(error)); no longer served")
                drop()
            }
        }
    }
}
