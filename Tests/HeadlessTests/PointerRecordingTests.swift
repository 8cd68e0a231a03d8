import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayHeadless
import ScrollwayReplay
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// The pointer's coming and going, recorded: an enter is written as a motion to where the
/// pointer came in (a press right after it needs the position) and a leave as `pointer.leave`
/// (a leave with the button down cancels the mouse's drag). Left out, the replay of a drag
/// begun at an enter did not drag at all, and one taken away mid-drag dragged on.
@MainActor
@Suite struct PointerRecordingTests {
    func scrollWindow() -> (Window, ScrollView) {
        let window = Window(size: Size(width: 300, height: 400))
        let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 300, height: 400))
        scroll.contentSize = Size(width: 300, height: 4000)
        scroll.allowsMouseDrag = true
        window.addSubview(scroll)
        return (window, scroll)
    }

    /// Enter at (150, 300), press there, drag up 120 px, the pointer taken away, back lower down
    /// and moved 150 px more, then the release.
    static let live: [InputEvent] = {
        var e = [
            InputEvent(time: 0.10, .pointerEnter(position: Point(x: 150, y: 300))),
            InputEvent(time: 0.20, .pointerButton(.left, pressed: true)),
        ]
        for i in 1...6 {
            e.append(
                InputEvent(
                    time: 0.20 + 0.016 * Double(i), .pointerMotion(position: Point(x: 150, y: 300 - 20 * Double(i)))))
        }
        e.append(InputEvent(time: 0.35, .pointerLeave))
        e.append(InputEvent(time: 0.60, .pointerEnter(position: Point(x: 150, y: 100))))
        for i in 1...5 {
            e.append(
                InputEvent(
                    time: 0.60 + 0.016 * Double(i), .pointerMotion(position: Point(x: 150, y: 100 + 30 * Double(i)))))
        }
        e.append(InputEvent(time: 0.75, .pointerButton(.left, pressed: false)))
        return e
    }()

    @Test func aDragTakenAwayReplaysAsRecorded() throws {
        let (window, scroll) = scrollWindow()
        var lines: [String] = []
        let recorder = InputRecorder(window: window, origin: 0) { lines.append($0) }
        var atLeave: Point?
        for e in Self.live {
            if case .pointerLeave = e.kind { atLeave = scroll.contentOffset }
            window.handle(e)
        }
        recorder.finish()
        #expect(atLeave?.y ?? 0 > 80, "the drag moved the content before the leave")
        #expect(scroll.contentOffset == atLeave && !scroll.isDragging)
        #expect(lines.contains(#"{"t": 100, "type": "pointer.motion", "x": 150, "y": 300}"#))
        #expect(lines.contains(#"{"t": 350, "type": "pointer.leave"}"#))
        #expect(lines.contains(#"{"t": 600, "type": "pointer.motion", "x": 150, "y": 100}"#))

        let script = try ScriptParser(isKeysym: { _ in true }).parse(lines.joined(separator: "\n"))
        let (replayed, copy) = scrollWindow()
        var input = ScriptInput()
        for e in script.events {
            if let kind = input.inputKind(for: e.kind) { replayed.handle(InputEvent(time: e.t / 1000, kind)) }
        }
        #expect(copy.contentOffset == scroll.contentOffset && !copy.isDragging)
    }
}
