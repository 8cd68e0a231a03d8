import Foundation
import Raster
import ScrollwayTestSupport
import Testing
import WestonHarness

/// `scrollway rig`, the command people use, run as a process.
@Suite(.serialized) struct RigCommandTests {

    @Test func playsAScriptIntoAClientAndWritesScreenshots() throws {
        let script = CommandRunner.temp("taps.jsonl")
        let shots = CommandRunner.temp("shots")
        defer {
            try? FileManager.default.removeItem(at: script)
            try? FileManager.default.removeItem(at: shots)
        }
        try """
        {"format": "scrollway-script", "version": 1}
        {"t": 0, "type": "touch.down", "id": 0, "x": 100, "y": 100}
        {"t": 0, "type": "touch.frame"}
        {"t": 30, "type": "touch.motion", "id": 0, "x": 300, "y": 200}
        {"t": 30, "type": "touch.frame"}
        {"t": 60, "type": "touch.down", "id": 1, "x": 500, "y": 400}
        {"t": 60, "type": "touch.frame"}
        {"t": 200, "type": "screenshot", "name": "marks"}
        {"t": 220, "type": "touch.up", "id": 0}
        {"t": 220, "type": "touch.up", "id": 1}
        """.write(to: script, atomically: true, encoding: .utf8)
        let r = try CommandRunner.run([
            "rig", "--size", "600x500", "--script", script.path, "--screenshots", shots.path, "--settle", "50", "--",
            "weston-simple-touch",
        ])
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(r.out.hasPrefix("WAYLAND_DISPLAY=/"))
        let png = shots.appendingPathComponent("marks.png")
        #expect(r.out.contains("screenshot \(png.path)"))
        let canvas = try PNG.decode([UInt8](Data(contentsOf: png)))
        func rgb(_ x: Int, _ y: Int) -> UInt32 { canvas.pixel(x: x, y: y) & 0xFF_FFFF }
        #expect(rgb(100, 100) == 0xFF_0000 && rgb(300, 200) == 0xFF_0000 && rgb(500, 400) == 0xFF_FF00)
    }

    @Test func aBadScriptIsRejectedBeforeAnythingStarts() throws {
        let script = CommandRunner.temp("bad.jsonl")
        defer { try? FileManager.default.removeItem(at: script) }
        try
            "{\"t\": 0, \"type\": \"touch.down\", \"id\": 0, \"x\": 1, \"y\": 1}\n{\"t\": 5, \"type\": \"touch.up\", \"id\": 4}\n"
            .write(to: script, atomically: true, encoding: .utf8)
        let r = try CommandRunner.run(["rig", "--script", script.path])
        #expect(r.status != 0)
        #expect(r.err.contains("\(script.path):2: field 'id': finger 4 is not down"))
        #expect(r.out.isEmpty)  // no compositor was started
    }
}
