import Logging
import ScrollwayDemoScenes
import ScrollwayRaster
import ScrollwayWayland
import ScrollwayWestonHarness
import Synchronization
import Testing

/// What the library says through swift-log, routed by the app: this test process routes every
/// "scrollway." logger into memory (LoggingSystem.bootstrap, once per process).
@MainActor
@Suite struct DiagnosticsTests {
    final class Captured: Sendable {
        let lines = Mutex<[String]>([])
    }

    struct Handler: LogHandler {
        let label: String
        let captured: Captured
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            guard label.hasPrefix("scrollway.") else { return }
            captured.lines.withLock { $0.append("\(label) \(event.level) \(event.message)") }
        }
    }

    static let captured: Captured = {
        let c = Captured()
        LoggingSystem.bootstrap { label in Handler(label: label, captured: c) }
        return c
    }()

    @Test func connectingSaysWhichVersionsWereBoundAndWhatIsMissing() throws {
        let captured = Self.captured
        let (_, app, _) = try startScene(.list, width: 390, height: 300)
        let lines = captured.lines.withLock { $0 }
        let bound = app.connection.boundVersion("wl_seat")
        #expect(bound != nil)
        #expect(
            lines.contains("scrollway.wayland debug bound wl_seat version \(bound!) (offered \(bound!), handled 8)"))
        #expect(lines.contains { $0.hasPrefix("scrollway.wayland debug bound xdg_wm_base version ") })
        // Weston 10 offers no fractional scaling; the rig's module serves idle inhibition.
        #expect(
            lines.contains(
                "scrollway.wayland debug the compositor offers no wp_fractional_scale_manager_v1: no fractional scaling"
            ))
        #expect(lines.contains { $0.hasPrefix("scrollway.wayland debug bound zwp_idle_inhibit_manager_v1 version 1") })
    }
}
