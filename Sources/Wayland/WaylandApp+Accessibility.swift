import Foundation
import ScrollwayAtSpi
import ScrollwayDBus
import ScrollwayRaster
import ScrollwayViews

/// Whether and how a Wayland app exposes its window to assistive technology (AT-SPI).
public enum AccessibilityActivation: Sendable {
    /// Through the session bus in DBUS_SESSION_BUS_ADDRESS, when the desktop's accessibility
    /// bus runs and says it is enabled (`org.a11y.Status.IsEnabled`, set while a screen reader
    /// runs or accessibility is turned on): otherwise nothing is started, registered or polled.
    case automatic
    /// Through the session bus at this address, under the same condition as `automatic`.
    case whenEnabled(session: String)
    /// Never.
    case off
    /// Through the session bus at this address, enabled or not (a test's private session).
    case session(address: String)
}

extension WaylandApp {
    /// The bridge that serves the window to AT-SPI when `activation` allows and the bus is
    /// there; nil otherwise. A bus that cannot be reached is logged and left: the app runs
    /// without it.
    static func connectAccessibility(
        _ activation: AccessibilityActivation, content: Window, name: String
    ) -> AtSpiBridge? {
        let address: String
        let requireEnabled: Bool
        switch activation {
        case .off: return nil
        case .automatic:
            guard let session = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"], !session.isEmpty else {
                return nil
            }
            address = session
            requireEnabled = true
        case .whenEnabled(let session):
            address = session
            requireEnabled = true
        case .session(let session):
            address = session
            requireEnabled = false
        }
        do {
            let session = try DBusConnection(address: address)
            if requireEnabled {
                // Only a running launcher is asked: a call to the name would start one (D-Bus
                // activation) in every session where at-spi2-core is installed.
                let running = try? session.call(
                    "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                    member: "NameHasOwner", arguments: [.string("org.a11y.Bus")], timeout: 2)
                guard case .bool(true)? = running?.first else { return nil }
                let enabled = try? session.property(
                    "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.a11y.Status", name: "IsEnabled", timeout: 2)
                guard case .bool(true)? = enabled else { return nil }
            }
            guard
                let a11y = try session.call(
                    "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.a11y.Bus", member: "GetAddress", timeout: 2
                ).first?.stringValue, !a11y.isEmpty
            else { return nil }
            let bridge = AtSpiBridge(
                connection: try DBusConnection(address: a11y), applicationName: name, windows: { [content] })
            try bridge.register()
            Diagnostics.wayland.debug("accessibility: serving the window on \(a11y)")
            return bridge
        } catch {
            Diagnostics.wayland.warning("accessibility: not available (\(error))")
            return nil
        }
    }
}
