import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayRaster
import ScrollwayReplay
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWaylandCore
import ScrollwayWestonHarness
import Testing

/// A kiosk's window in real weston: no cursor, an idle inhibitor; and field diagnostics: the
/// input a real window received, recorded as a script, replays offscreen to the same result.
@MainActor
@Suite struct KioskAndRecordingTests {
    /// Moves the pointer over the window and waits until the app is at rest (a visible cursor
    /// is set by then), then captures with the pointer there and again with it parked.
    func capturesWithAndWithoutPointer(hidesCursor: Bool) throws -> (over: Canvas, parked: Canvas) {
        let (rig, app, _) = try startScene(.list, width: 390, height: 600)
        app.window.hidesCursor = hidesCursor
        try WestonTarget(rig: rig, app: app).send(from: 100) { $0.pointer(to: Point(x: 195, y: 300), at: 0) }
        try app.settle()
        let over = try rig.capture()
        try rig.parkPointer()
        try app.settle()
        let parked = try rig.capture()
        return (over, parked)
    }

    @Test func aHiddenCursorLeavesNoPixelsAndAShownOneDoes() throws {
        let hidden = try capturesWithAndWithoutPointer(hidesCursor: true)
        #expect(hidden.over.pixelsEqual(hidden.parked), "cursor pixels showed with hidesCursor on")
        // The control: the same steps with a cursor do show one, so the check above can fail.
        let shown = try capturesWithAndWithoutPointer(hidesCursor: false)
        #expect(!shown.over.pixelsEqual(shown.parked), "a visible cursor left no pixels")
    }

    @Test func theIdleInhibitorExistsWhileAskedFor() throws {
        let (rig, app, _) = try startScene(.list, width: 390, height: 600)
        #expect(app.window.canInhibitIdle)
        try rig.input.roundtrip()
        #expect(rig.input.idleInhibitors == 0)
        app.window.inhibitsIdle = true
        try app.catchUp()
        try rig.input.roundtrip()
        #expect(app.window.isInhibitingIdle)
        #expect(rig.input.idleInhibitors == 1)
        app.window.inhibitsIdle = false
        try app.catchUp()
        try rig.input.roundtrip()
        #expect(!app.window.isInhibitingIdle)
        #expect(rig.input.idleInhibitors == 0)
    }

    /// The delegate records of a trace without their times (a glide's end falls on a frame, and
    /// frames differ between a live run and a replay; what was called, with what, does not).
    func delegateCalls(_ lines: [String]) -> [String] {
        lines.filter { $0.contains("\"delegate\"") }.map { line in
            line.replacingOccurrences(of: #"^\{"t": [^,]*, "#, with: "{", options: .regularExpression)
        }
    }

    @Test func aRecordedFlingReplaysOffscreenToTheSameCallsAndRest() throws {
        let (rig, app, window) = try startScene(.list, width: 390, height: 600)
        var recorded: [String] = []
        let origin = window.now
        // Times count from the last frame's, which is when it is shown, up to a refresh ahead of
        // the clock; a touch sent before then would be dated before the recording began (and
        // written at 0). A person's first touch comes later than that; the test waits as long.
        try app.pump(until: { Deadline.now >= origin }, "the clock to pass the last frame's time")
        let recorder = InputRecorder(window: window, origin: origin) { recorded.append($0) }
        let live = TraceRecorder(window: window, origin: origin)
        rig.pacer.begin(at: 1000)
        try flick(rig, app, from: Point(x: 195, y: 450), step: Point(x: 0, y: -40), moves: 6)
        try app.catchUp()
        try app.settle()
        let liveRest = (window.view(named: "main") as? ScrollView)?.contentOffset
        recorder.finish()
        // The header, then down, six moves and up, each closed by its touch.frame.
        #expect(recorded.count == 1 + 16)
        #expect(recorded.filter { $0.contains("touch.frame") }.count == 8)
        #expect(recorded.first?.contains("scrollway-script") == true)

        let script = try ScriptParser(file: "recording", isKeysym: { KeyCodes.keysym(named: $0) != nil })
            .parse(recorded.joined(separator: "\n") + "\n")
        let replayWindow = Scene.list.makeWindow(size: Size(width: 390, height: 600))
        let player = try HeadlessPlayer(window: replayWindow, options: .init(settle: 5000, pixels: false))
        try player.play(script)
        let replayRest = (replayWindow.view(named: "main") as? ScrollView)?.contentOffset

        let liveCalls = delegateCalls(live.writer.lines)
        #expect(liveCalls.contains { $0.contains("scrollViewWillBeginDecelerating") })
        #expect(delegateCalls(player.recorder.writer.lines) == liveCalls)
        #expect(liveRest != nil && replayRest == liveRest)
        #expect((liveRest?.y ?? 0) > 240, "the fling travelled no further than the finger")
    }
}

extension Canvas {
    /// Whether two canvases hold the same pixels.
    func pixelsEqual(_ other: Canvas) -> Bool {
        guard width == other.width, height == other.height else { return false }
        for y in 0..<height {
            for x in 0..<width where pixel(x: x, y: y) != other.pixel(x: x, y: y) { return false }
        }
        return true
    }
}
