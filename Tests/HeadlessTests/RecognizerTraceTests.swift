import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayReplay
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// A trace says what named recognizers did, so a plot can show why a gesture went one way.
@MainActor
@Suite struct RecognizerTraceTests {
    @Test func aSwipedRowsRecognizersAreRecordedAndReadBack() throws {
        let d = SceneDriver(.list)
        d.list.trailingSwipeActions = { _ in [RowAction(title: "Delete", style: .destructive) { _ in }] }
        d.list.panGestureRecognizer.name = "pan"
        let recorder = TraceRecorder(window: d.window)
        d.settle()
        let p = d.list.convert(d.list.rectForRow(2), to: nil).center
        d.send(from: d.time + 0.1) { $0.flick(from: p, by: Point(x: -120, y: 0), at: 0, moves: 6, id: 1) }
        d.settle()
        let parser = TraceLineParser(file: "swipe.jsonl")
        var recognizers: [TraceRecognizerRecord] = []
        for (i, line) in recorder.writer.lines.enumerated() {
            if case .recognizer(let r) = try parser.parse(bytes: Array(line.utf8), number: i + 1) {
                recognizers.append(r)
            }
        }
        // The swipe began at the slop and the list's pan failed then, on the same move; as the
        // finger lifts each is reset in the order they were added to the list (its own first).
        let states = recognizers.filter { $0.state != "changed" }.map { "\($0.name) \($0.state)" }
        #expect(states == ["rowSwipe began", "pan failed", "pan possible", "rowSwipe ended", "rowSwipe possible"])
        #expect(recognizers.allSatisfy { $0.view == "main" })
        #expect(recognizers[0].t == recognizers[1].t)
        // The line as written: time, view, recognizer, state.
        let began = try #require(recorder.writer.lines.first { $0.contains("\"recognizer\"") })
        #expect(
            began.hasPrefix("{\"t\": ")
                && began.hasSuffix(", \"view\": \"main\", \"recognizer\": \"rowSwipe\", \"state\": \"began\"}"))
        // A state that is not one of UIKit's: the parser says which line and field.
        let bad = "{\"t\": 1, \"recognizer\": \"pan\", \"state\": \"recognized\"}"
        #expect(throws: ScriptError.self) { try parser.parse(bytes: Array(bad.utf8), number: 7) }
        do {
            _ = try parser.parse(bytes: Array(bad.utf8), number: 7)
        } catch let e as ScriptError {
            #expect(e.line == 7 && e.field == "state")
        }
    }
}
