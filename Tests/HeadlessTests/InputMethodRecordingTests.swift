import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayHeadless
import ScrollwayReplay
import ScrollwayScripts
import ScrollwayViews
import Testing

/// A recorded input-method done replays to the same field: one done that deletes, commits and
/// composes is written as three script lines, which in order end in the same text, caret and
/// preedit.
@MainActor
@Suite struct InputMethodRecordingTests {
    func focusedField() -> (Window, TextField) {
        let window = Window(size: Size(width: 300, height: 100))
        let field = TextField(frame: Rect(x: 10, y: 10, width: 280, height: 44))
        field.text = "héllo wörld"
        window.addSubview(field)
        field.becomeFocused()
        return (window, field)
    }

    @Test func aRecordedDoneReplaysToTheSameField() throws {
        let (window, field) = focusedField()
        var lines: [String] = []
        let recorder = InputRecorder(window: window, origin: 0) { lines.append($0) }
        let update = TextInputUpdate(
            preedit: "wö", preeditCursor: .init(begin: 3, end: 3), commit: "WÖ", deleteBefore: 6, deleteAfter: 0)
        window.handle(InputEvent(time: 0.5, .textInput(update)))
        recorder.finish()
        #expect(field.text == "héllo WÖ" && field.preedit == "wö")
        #expect(lines.count == 4)  // the header, then one line per part
        #expect(lines[1] == #"{"t": 500, "type": "delete_surrounding", "before": 6, "after": 0}"#)
        #expect(lines[2] == #"{"t": 500, "type": "commit_text", "text": "WÖ"}"#)
        #expect(lines[3] == #"{"t": 500, "type": "preedit", "text": "wö", "cursor": [3, 3]}"#)

        let script = try ScriptParser(isKeysym: { _ in true }).parse(lines.joined(separator: "\n"))
        let (replayed, copy) = focusedField()
        var input = ScriptInput()
        for e in script.events {
            if let kind = input.inputKind(for: e.kind) { replayed.handle(InputEvent(time: e.t / 1000, kind)) }
        }
        #expect(copy.text == field.text && copy.caret == field.caret)
        #expect(copy.preedit == field.preedit && copy.preeditCursor == field.preeditCursor)
    }
}
