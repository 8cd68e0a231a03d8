import Foundation
import ScrollwayRaster
import ScrollwayTestSupport
import ScrollwayWestonHarness
import Testing

/// `scrollway demo --kiosk` in the rig, as a kiosk builder would start it: a mouse drag flings
/// the list, the demo creates an idle inhibitor, and on the rig's SIGTERM the demo finishes its
/// recording and trace.
@Suite(.serialized) struct KioskCommandTests {
    /// `--kiosk` makes the mouse drag and fling unless `--set` says otherwise: it had set both
    /// after the settings, whatever they said.
    @Test(arguments: [("mouseDragMomentum=false", true), ("allowsMouseDrag=false", false)])
    func aKioskDemoKeepsWhatSetSays(setting: String, drags: Bool) async throws {
        let (r, traceLines, _) = try await kioskMouseFling(["--set", setting], tag: setting)
        #expect(r.status == 0, "stderr: \(r.err.suffix(2000))")
        #expect(traceLines.contains { $0.contains("scrollViewWillBeginDragging") } == drags)
        #expect(!traceLines.contains { $0.contains("scrollViewWillBeginDecelerating") })
    }

    /// A screenshot in the middle of a mouse drag leaves the pointer where it is: parking it
    /// (the rig hides the cursor so before each capture) made weston send a leave, and the
    /// drag never flung (the release found none).
    @Test func aScreenshotMidMouseDragLeavesTheDragAlone() async throws {
        let (r, traceLines, _) = try await kioskMouseFling([], tag: "shot", shotAfterMove: 3)
        #expect(r.status == 0, "stderr: \(r.err.suffix(2000))")
        #expect(traceLines.contains { $0.contains("scrollViewWillBeginDecelerating") })
    }

    /// The demo in kiosk mode in the rig, a mouse dragged 240 px up over it and released moving
    /// (`shotAfterMove`: a screenshot after that many moves): what the rig said, the demo's trace
    /// and its recording.
    func kioskMouseFling(
        _ extra: [String], tag: String, shotAfterMove: Int? = nil
    ) async throws -> (
        r: (status: Int32, out: String, err: String), traceLines: [Substring], recorded: String
    ) {
        let dir = CommandRunner.temp("kiosk-\(tag)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("mouse-fling.jsonl")
        var lines = [
            #"{"format": "scrollway-script", "version": 1}"#,
            #"{"t": 0, "type": "pointer.motion", "x": 195, "y": 450}"#, #"{"t": 0, "type": "pointer.frame"}"#,
            #"{"t": 20, "type": "pointer.button", "button": "left", "state": "pressed"}"#,
            #"{"t": 20, "type": "pointer.frame"}"#,
        ]
        for i in 1...6 {
            lines.append(#"{"t": \#(20 + 16 * i), "type": "pointer.motion", "x": 195, "y": \#(450 - 40 * i)}"#)
            lines.append(#"{"t": \#(20 + 16 * i), "type": "pointer.frame"}"#)
            if i == shotAfterMove { lines.append(#"{"t": \#(20 + 16 * i), "type": "screenshot", "name": "mid"}"#) }
        }
        lines.append(#"{"t": 132, "type": "pointer.button", "button": "left", "state": "released"}"#)
        lines.append(#"{"t": 132, "type": "pointer.frame"}"#)
        try (lines.joined(separator: "\n") + "\n").write(to: script, atomically: true, encoding: .utf8)
        let trace = dir.appendingPathComponent("kiosk.trace")
        let record = dir.appendingPathComponent("kiosk-input.jsonl")
        var env = ProcessInfo.processInfo.environment
        env["WAYLAND_DEBUG"] = "client"
        let r = try await CommandRunner.run(
            [
                "rig", "--size", "390x600", "--script", script.path, "--screenshots", dir.path, "--settle", "2500",
                "--", CommandRunner.scrollway().path, "demo", "--kiosk", "--scene", "list", "--trace", trace.path,
                "--record", record.path,
            ] + extra, environment: env)
        let traceLines = (try? String(contentsOf: trace, encoding: .utf8))?.split(separator: "\n") ?? []
        return (r, traceLines, (try? String(contentsOf: record, encoding: .utf8)) ?? "")
    }

    @Test func aKioskDemoFlingsWithTheMouseInhibitsIdleAndRecords() async throws {
        let (r, traceLines, recorded) = try await kioskMouseFling([], tag: "fling")
        #expect(r.status == 0, "stderr: \(r.err.suffix(2000))")
        // The inhibitor, as the client's own protocol log shows it.
        #expect(r.err.contains("zwp_idle_inhibit_manager_v1@") && r.err.contains(".create_inhibitor("))
        // Fullscreen in kiosk mode, and the cursor set to nothing on enter.
        #expect(r.err.contains("xdg_toplevel@") && r.err.contains(".set_fullscreen("))
        #expect(r.err.contains(".set_cursor(") && r.err.contains(", nil, 0, 0)"))

        #expect(traceLines.contains { $0.contains("scrollViewWillBeginDragging") })
        #expect(traceLines.contains { $0.contains("scrollViewWillBeginDecelerating") })
        // The glide carried the list past the 240 px the mouse travelled.
        let last = traceLines.last { $0.contains("\"view\": \"main\"") && $0.contains("contentOffset") }
        let y = last.flatMap { line -> Double? in
            guard
                let r = line.range(
                    of: #""contentOffset": \{"x": [^,]*, "y": ([-0-9.e]+)\}"#, options: .regularExpression)
            else { return nil }
            let field = line[r]
            return Double(field.split(separator: ":").last!.dropLast().trimmingCharacters(in: .whitespaces))
        }
        #expect((y ?? 0) > 240, "the list rested at \(String(describing: y))")

        #expect(recorded.hasPrefix(#"{"format": "scrollway-script", "version": 1}"#))
        #expect(recorded.components(separatedBy: "\"pointer.button\"").count - 1 == 2)
        #expect(r.err.contains("scrollway demo: recorded"))
    }

    /// The demo as a process in the rig, the pointer moved over it and left there until the
    /// client has set its cursor (its protocol log says so), then captured, and captured again
    /// with the pointer parked off every surface: whether the two differ. The log line is
    /// written when the request is queued, a moment before the client flushes it, so where a
    /// cursor is expected (`expectCursor`) the capture is repeated until it shows one.
    func cursorShows(_ demoArguments: [String], cursorSet: String, expectCursor: Bool) throws -> Bool {
        let rig = try WestonRig(width: 390, height: 600)
        let log = CommandRunner.temp("demo-\(demoArguments.joined(separator: "_")).log")
        defer { try? FileManager.default.removeItem(at: log) }
        try rig.process.launchClient(
            CommandRunner.scrollway().path, arguments: ["demo"] + demoArguments,
            environment: ["WAYLAND_DEBUG": "client"], output: log)
        try rig.parkPointer()
        // Mapped: the list's white shows where kiosk-shell's black was.
        try eventually("the first frame") { try rig.capture().pixel(x: 195, y: 300) != 0xFF00_0000 }
        try rig.parkPointer()
        let parked = try rig.capture()
        rig.input.pointerMotion(x: 195, y: 300, time: 100)
        rig.input.pointerFrame()
        try rig.input.roundtrip()
        try eventually("set_cursor") {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").contains { $0.contains("-> wl_pointer@") && $0.contains(cursorSet) }
        }
        func differs() throws -> Bool {
            try rig.input.roundtrip()
            let over = try rig.capture()
            for y in 0..<over.height {
                for x in 0..<over.width where over.pixel(x: x, y: y) != parked.pixel(x: x, y: y) { return true }
            }
            return false
        }
        if expectCursor { try eventually("the cursor on screen") { try differs() } }
        return try differs()
    }

    @Test func aKioskDemoShowsNoCursorPixelsWhereADesktopOneDoes() throws {
        #expect(try cursorShows(["--kiosk"], cursorSet: ", nil, 0, 0)", expectCursor: false) == false)
        // The control: the same demo without --kiosk sets a theme cursor, and it shows.
        #expect(try cursorShows(["--fullscreen"], cursorSet: ", wl_surface@", expectCursor: true))
    }

    /// `scrollway demo --trace FILE` writes the trace as the demo runs, as its help says: a key
    /// that pages the list shows in the file while the demo is still running (before, the file
    /// appeared only at exit).
    @Test func theDemosTraceIsWrittenAsItRuns() throws {
        let rig = try WestonRig(width: 390, height: 600)
        let trace = CommandRunner.temp("live.trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        let demo = try rig.process.launchClient(
            CommandRunner.scrollway().path, arguments: ["demo", "--scene", "list", "--trace", trace.path])
        try eventually("the first frame") { try rig.capture().pixel(x: 195, y: 300) != 0xFF00_0000 }
        try rig.pressKey(named: "Page_Down", at: 100)
        try eventually("the page in the trace") {
            let text = (try? String(contentsOf: trace, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").contains {
                $0.contains("\"view\": \"main\"") && $0.contains("\"contentOffset\"")
                    && !$0.contains("\"contentOffset\": {\"x\": 0, \"y\": 0}")
            }
        }
        #expect(demo.isRunning)
    }
}
