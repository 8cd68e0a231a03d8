import Foundation
import ScrollwayCWaylandClient
import ScrollwayWaylandProtocols
import ScrollwayWestonHarness
import Testing

/// Collects the globals a compositor announces. Recovered from the listener's `data` pointer;
/// the test holds the only retain for the lifetime of the connection.
private final class GlobalCollector {
    var versions: [String: UInt32] = [:]
    var names: [String: UInt32] = [:]
}

@Suite(.serialized) struct WaylandConnectionTests {
    @Test func clientSeesCompositorShmAndXdgWmBase() throws {
        // A bare compositor (no input module): what any client sees.
        let weston = try WestonProcess(.init(width: 320, height: 240))
        defer { weston.stop() }

        // An absolute path connects without touching this process's environment.
        let display = try #require(wl_display_connect(weston.socketPath), "cannot connect to \(weston.socketPath)")
        defer { wl_display_disconnect(display) }
        let registry = try #require(wl_display_get_registry(display))
        defer { wl_registry_destroy(registry) }

        let collector = GlobalCollector()
        // The listener table must outlive the proxy at a stable address.
        let listener = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
        defer { listener.deallocate() }
        listener.initialize(
            to: wl_registry_listener(
                global: { data, _, name, interface, version in
                    let c = Unmanaged<GlobalCollector>.fromOpaque(data!).takeUnretainedValue()
                    let iface = String(cString: interface!)
                    c.versions[iface] = version
                    c.names[iface] = name
                },
                global_remove: { _, _, _ in }
            ))
        #expect(wl_registry_add_listener(registry, listener, Unmanaged.passUnretained(collector).toOpaque()) == 0)
        #expect(wl_display_roundtrip(display) >= 0)

        #expect(collector.versions["wl_compositor"] ?? 0 >= 4)
        #expect(collector.versions["wl_shm"] ?? 0 >= 1)
        #expect(collector.versions["xdg_wm_base"] ?? 0 >= 1)

        // Bind xdg_wm_base through the generated accessor (the real interface address) and
        // make a request on it: a wrong interface pointer would be a protocol error here.
        let wmBase = try #require(
            wl_registry_bind(registry, collector.names["xdg_wm_base"]!, sw_xdg_wm_base_interface(), 1))
        let base = OpaquePointer(wmBase)
        xdg_wm_base_pong(base, 0)
        #expect(wl_display_roundtrip(display) >= 0)
        #expect(wl_display_get_error(display) == 0)
        #expect(String(cString: sw_xdg_wm_base_interface().pointee.name) == "xdg_wm_base")
        xdg_wm_base_destroy(base)
    }
}
