import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayReplay
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// What a hostile but fair user sends the offscreen player: huge numbers, days of silence,
/// runs long enough that anything kept per frame would pile up.
@MainActor
@Suite struct HostileInputTests {
    /// Any finite number is a JSON number in a trace; beyond 1e15 the shortest exact form.
    @Test(arguments: [
        (1e16, "1e+16"), (-1e16, "-1e+16"), (1e300, "1e+300"), (-1.7976931348623157e308, "-1.7976931348623157e+308"),
        (9.2233720368547758e18, "9.223372036854776e+18"), (123_456_789_012.3456, "123456789012.346"), (-0.0, "0"),
    ])
    func aTraceWritesAnyFiniteNumber(value: Double, expected: String) {
        let window = Window(size: Size(width: 100, height: 100))
        let s = ScrollView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        window.addSubview(s)
        var w = TraceWriter()
        w.delegate(
            t: 0, view: "main", .willEndDragging(velocity: Point(x: value, y: 0), targetContentOffset: .zero))
        #expect(w.lines[0].contains("\"velocity\": {\"x\": \(expected), \"y\": 0}"), "\(w.lines[0])")
    }

    /// A day of silence between two flings is crossed in one step: the frames stepped are the
    /// flings' own, and the trace is the one a frame-by-frame player would write (the glides'
    /// records, then nothing until the second fling at its time).
    @Test func quietStretchesAreCrossedInOneStep() throws {
        func fling(at t: Double) -> [ScriptEvent] {
            var b = ScriptBuilder()
            b.drag(from: Point(x: 200, y: 700), to: Point(x: 200, y: 460), at: t, ms: 64, hold: 6)
            return b.script.events
        }
        let day = ScriptLimits.maximumTime - 10_000
        let player = try HeadlessPlayer(
            window: Scene.list.makeWindow(size: Size(width: 390, height: 844)), options: .init(pixels: false))
        try player.play(GestureScript(events: fling(at: 0) + fling(at: day)))
        // Two glides of a few seconds each at 60 Hz, not 86,390 s of frames (5.2 million).
        #expect(player.framesStepped < 1_000, "stepped \(player.framesStepped) frames")
        let delegates = player.recorder.writer.lines.filter { $0.contains("\"delegate\"") }
        let begins = delegates.filter { $0.contains("scrollViewWillBeginDragging") }
        #expect(begins.count == 2)
        #expect(begins.last?.hasPrefix("{\"t\": \(Int(clamping: day) + 16), ") == true, "\(begins.last ?? "")")

        // The same two flings an hour apart in a frame-by-frame run give the same records, the
        // second fling's shifted by the gap.
        let hour = 3_600_000.0
        let a = try HeadlessPlayer(window: Scene.list.makeWindow(size: Size(width: 390, height: 844)))
        try a.play(GestureScript(events: fling(at: 0) + fling(at: hour)))
        let b = try HeadlessPlayer(window: Scene.list.makeWindow(size: Size(width: 390, height: 844)))
        try b.play(GestureScript(events: fling(at: 0) + fling(at: 20_000)))
        func records(_ p: HeadlessPlayer, after: Double) -> [String] {
            p.recorder.writer.lines.compactMap { line in
                let t = Double(line.dropFirst(6).prefix { $0 != "," })!
                guard t >= after else { return nil }
                // Times relative to the second fling; frame numbers differ by the frames before it.
                return String(line.drop { $0 != "," }).replacingOccurrences(
                    of: #""frame": \d+, "#, with: "", options: .regularExpression)
                    + " @\(((t - after) * 1000).rounded() / 1000)"
            }
        }
        #expect(records(a, after: hour) == records(b, after: 20_000))
        #expect(a.framesStepped < b.framesStepped + 50)
    }

    /// Without a trace asked for, nothing of it is kept, however long the run.
    @Test func anUnaskedTraceIsNotKept() throws {
        var lines = 0
        let player = try HeadlessPlayer(
            window: Scene.list.makeWindow(size: Size(width: 390, height: 844)),
            options: .init(trace: .stream { _ in lines += 1 }, pixels: false))
        var b = ScriptBuilder()
        for k in 0..<20 {
            let to = Point(x: 200, y: k % 2 == 0 ? 300 : 1000)
            b.drag(from: Point(x: 200, y: 700), to: to, at: Double(k) * 1500, ms: 40, hold: 10, step: 40)
        }
        let events = b.script.events
        try player.play(GestureScript(events: events))
        #expect(lines > 500)
        #expect(player.recorder.writer.lines.isEmpty)
        #expect(player.recorder.text.isEmpty)

        let discarding = try HeadlessPlayer(
            window: Scene.list.makeWindow(size: Size(width: 390, height: 844)), options: .init(trace: .discard))
        try discarding.play(GestureScript(events: events))
        #expect(discarding.recorder.writer.lines.isEmpty)
    }
}

/// Scroll to top in a trace: the delegate records, in UIKit's order.
@MainActor
@Suite struct ScrollToTopTraceTests {
    @Test func theTraceShowsTheAnimationEndingAndThenDidScrollToTop() throws {
        let window = Scene.list.makeWindow(size: Size(width: 390, height: 600))
        let main = try #require(window.view(named: "main") as? ScrollView)
        let recorder = TraceRecorder(window: window)
        let driver = FrameDriver(window: window)
        main.contentOffset = Point(x: 0, y: 5000)
        #expect(window.requestScrollToTop())
        driver.advance(to: 2)
        #expect(driver.failure == nil)
        #expect(main.contentOffset.y == 0)
        let delegates = recorder.writer.lines.filter { $0.contains("\"delegate\"") }.map {
            String($0.drop { $0 != "," }.dropFirst(2))
        }
        #expect(
            delegates.suffix(2) == [
                #""view": "main", "delegate": "scrollViewDidEndScrollingAnimation"}"#,
                #""view": "main", "delegate": "scrollViewDidScrollToTop"}"#,
            ])
    }
}

/// Found by the event-stream fuzzer (seed 12346, script 872): Page Up in a list whose rows on
/// the way measured shorter than their estimates came to rest 12 px above the top. The
/// animation's target follows the content as rows are measured, but stays inside the range.
@MainActor
@Suite struct FuzzerFoundTests {
    @Test func pageUpInAListRestsInsideTheRange() throws {
        var b = ScriptBuilder()
        for (t, v120) in [(24.838, 240.0), (42.921, 240), (71.002, 120)] {
            b.add(.pointerMotion(x: 160, y: 240), at: t)
            b.add(.pointerAxis(.vertical, value: v120 / 8, source: .wheel, value120: v120), at: t)
            b.add(.pointerFrame, at: t)
        }
        b.add(.windowResize(width: 394, height: 494), at: 94.587)
        b.key("Page_Up", at: 694.587, hold: 72)
        let window = Scene.list.makeWindow(size: Size(width: 320, height: 480))
        let main = try #require(window.view(named: "main") as? ScrollView)
        let player = try HeadlessPlayer(window: window, options: .init(pixels: false))
        try player.play(b.script)
        #expect(main.verticalRange.contains(main.contentOffset.y), "rests at \(main.contentOffset.y)")
        #expect(main.contentOffset.y == 0)
    }
}
