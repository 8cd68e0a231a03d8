import Foundation
import ScrollwayCWeston
import Testing

/// libweston-10 is linked and is version 10; its own parser reads the ini our rig generates.
@Suite struct WestonConfigTests {
    @Test func libwestonIsVersion10AndParsesTheRigConfig() throws {
        var major: Int32 = 0
        var minor: Int32 = 0
        var micro: Int32 = 0
        weston_version(&major, &minor, &micro)
        #expect(major == 10)
        #expect(WESTON_VERSION_MAJOR == 10)

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scrollway-\(getpid()).ini").path
        try "[core]\nrepaint-window=17\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let config = try #require(weston_config_parse(path))
        defer { weston_config_destroy(config) }
        let core = try #require(weston_config_get_section(config, "core", nil, nil))
        var window: Int32 = 0
        #expect(weston_config_section_get_int(core, "repaint-window", &window, 7) == 0)
        #expect(window == 17)
    }
}
