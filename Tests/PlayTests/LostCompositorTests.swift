import Foundation
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayTestSupport
import ScrollwayWaylandCore
import ScrollwayWestonHarness
import Testing

/// A compositor that goes away under a running command: what the command made until then is
/// kept, and the error says the connection was lost.
@Suite(.serialized) struct LostCompositorTests {
    /// `demo --record` whose compositor is killed keeps what it recorded (a compositor's crash
    /// or protocol error is when a recording is most wanted; the error had thrown it away).
    @Test func aRecordingOutlivesItsCompositor() throws {
        let rig = try WestonRig(width: 390, height: 600)
        defer { rig.stop() }
        let record = CommandRunner.temp("lost-compositor.jsonl")
        let errors = CommandRunner.temp("lost-compositor.err")
        try? FileManager.default.removeItem(at: record)
        let empty = try rig.capture()
        let demo = try rig.process.launchClient(
            try CommandRunner.scrollway().path, arguments: ["demo", "--scene", "list", "--record", record.path],
            output: errors)
        let deadline = Deadline(in: 120)
        func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
            while try !condition() {
                try #require(!deadline.hasPassed, "waiting for \(what)")
                RealTimePacer.sleep(0.05)
            }
        }
        try waitUntil("the demo's window") {
            try #require(demo.isRunning, "the demo ended before showing a window")
            return try rig.capture().firstPixel(differingFrom: empty) != nil
        }
        // A drag: the list moves once the demo has read it.
        let before = try rig.capture()
        let input = rig.input
        input.touchDown(id: 0, x: 200, y: 450, time: 100)
        input.touchFrame()
        for i in 1...6 {
            input.touchMotion(id: 0, x: 200, y: 450 - 40 * Double(i), time: 100 + 16 * UInt32(i))
            input.touchFrame()
        }
        input.touchUp(id: 0, time: 220)
        input.touchFrame()
        try input.roundtrip()
        try waitUntil("the drag to show") { try rig.capture().firstPixel(differingFrom: before) != nil }
        kill(rig.process.processIdentifier, SIGKILL)
        try waitUntil("the demo to end") { !demo.isRunning }
        demo.waitUntilExit()
        let said = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        #expect(demo.terminationReason == .exit && demo.terminationStatus == 1, "\(said)")
        #expect(
            said.contains("scrollway demo: kept the") && said.contains("Error: the Wayland connection was lost"),
            "\(said)")
        let text = try String(contentsOf: record, encoding: .utf8)
        #expect(text.hasPrefix(#"{"format": "scrollway-script", "version": 1}"#))
        #expect(text.contains(#""type": "touch.down", "id": 0, "x": 200, "y": 450"#), "\(text)")
        #expect(text.contains(#""type": "touch.up""#))
    }
}
