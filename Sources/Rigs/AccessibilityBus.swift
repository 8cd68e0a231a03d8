import Foundation
import Glibc
import ScrollwayDBus
import ScrollwayWestonHarness

/// A private D-Bus session with at-spi2-core's bus launcher in it: the accessibility bus an app
/// registers its AT-SPI tree on and a screen reader (or a test's AT-SPI client) reads it from,
/// with no display and no desktop. The launcher starts its own bus daemon at once
/// (`--launch-immediately`) and says it is enabled (`--a11y=1`), and that daemon starts the
/// registry (at-spi2-registryd) when it is first called. The session is a process group of its
/// own (`SessionCompositor`), so stopping it ends the launcher, its bus and the registry, which
/// the bus starts in the group; a watcher ends it if this process dies first.
public final class AccessibilityBus {
    private let session: SessionCompositor

    /// The launcher, from Debian's at-spi2-core.
    public static let launcher = "/usr/libexec/at-spi-bus-launcher"

    /// Starts the session and waits (at most `timeout` seconds) until the accessibility bus
    /// accepts connections and the session bus's `org.a11y.Bus` gives its address.
    public init(timeout: Double = 10) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.launcher) else {
            throw RigError.system("\(Self.launcher) is not installed (apt-get install at-spi2-core)")
        }
        session = try SessionCompositor(
            name: "at-spi-bus-launcher", directoryPrefix: "scrollway-atspi-",
            command: { _ in "\(Self.launcher) --launch-immediately --a11y=1" },
            // Settings in memory (no dconf service started, nothing written) and no GVfs.
            environment: { _ in ["GSETTINGS_BACKEND": "memory", "GIO_USE_VFS": "local"] },
            socketPrefix: "at-spi/bus", startupTimeout: timeout)
        do {
            let bus = try DBusConnection(address: try session.busAddress)
            var address: String?
            _ = bus.poll(for: timeout) { bus in
                address = try? bus.call(
                    "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.a11y.Bus", member: "GetAddress"
                ).first?.stringValue
                return address != nil
            }
            guard let address, !address.isEmpty else {
                throw RigError.startupFailed(
                    reason: "org.a11y.Bus gave no address within \(timeout) s", log: session.log)
            }
            accessibilityAddress = address
        } catch {
            session.stop()
            throw error
        }
    }

    deinit { stop() }

    /// The session bus's address: what an app's DBUS_SESSION_BUS_ADDRESS must be for it to
    /// find the accessibility bus (`org.a11y.Bus.GetAddress`, as every toolkit asks).
    public var sessionAddress: String { get throws { try session.busAddress } }

    /// The accessibility bus's address.
    public let accessibilityAddress: String

    /// The private runtime directory (the accessibility bus's socket is under it).
    public var runtimeDirectory: URL { session.runtimeDirectory }

    /// The environment for an AT-SPI client or an app in this session: its session bus and
    /// runtime directory, no display of another session, settings in memory.
    public var environment: [String: String] {
        get throws {
            var env = ProcessInfo.processInfo.environment
            for key in ["DISPLAY", "WAYLAND_DISPLAY", "AT_SPI_BUS_ADDRESS", "NO_AT_BRIDGE", "GTK_A11Y"] {
                env.removeValue(forKey: key)
            }
            env["DBUS_SESSION_BUS_ADDRESS"] = try sessionAddress
            env["XDG_RUNTIME_DIR"] = runtimeDirectory.path
            env["GSETTINGS_BACKEND"] = "memory"
            env["GIO_USE_VFS"] = "local"
            return env
        }
    }

    /// The launcher's and the session's log so far.
    public var log: String { session.log }

    /// Ends the launcher, the accessibility bus, the registry and the session bus, and removes
    /// the runtime directory. Safe to call twice.
    public func stop() { session.stop() }
}
