import Gestures
import Scripts
import Testing

let knownKeysyms: Set<String> = ["Page_Down", "a", "A", "Shift_L", "Home", "End", "space"]
let parser = ScriptParser(file: "swipe.jsonl", isKeysym: { knownKeysyms.contains($0) })

@Suite struct ScriptParserTests {
    @Test func parsesEveryEventType() throws {
        let text = """
            {"format": "scrollway-script", "version": 1}
            {"t": 0, "type": "touch.down", "id": 1, "x": 200, "y": 600}
            {"t": 16.7, "type": "touch.motion", "id": 1, "x": 200, "y": 580.5}
            {"t": 16.7, "type": "touch.frame"}
            {"t": 33, "type": "touch.up", "id": 1}
            {"t": 40, "type": "touch.cancel"}
            {"t": 50, "type": "pointer.motion", "x": 10, "y": 20}
            {"t": 51, "type": "pointer.button", "button": "left", "state": "pressed"}
            {"t": 52, "type": "pointer.axis", "axis": "vertical", "value": 15, "source": "wheel", "value120": 120}
            {"t": 53, "type": "pointer.axis", "axis": "horizontal", "value": -3, "source": "wheel-tilt"}
            {"t": 54, "type": "pointer.axis_stop", "axis": "vertical"}
            {"t": 55, "type": "pointer.frame"}
            {"t": 60, "type": "pinch.begin"}
            {"t": 61, "type": "pinch.update", "scale": 1.5, "dx": 2, "dy": -1}
            {"t": 62, "type": "pinch.end", "cancelled": true}
            {"t": 70, "type": "key", "key": "Page_Down", "state": "pressed"}
            {"t": 71, "type": "text", "text": "Hello, World"}
            {"t": 80, "type": "keyboard.show"}
            {"t": 81, "type": "keyboard.hide"}
            {"t": 90, "type": "window.resize", "width": 390, "height": 600}

            {"t": 100, "type": "screenshot", "name": "after-swipe"}
            """
        let script = try parser.parse(text)
        #expect(script.version == 1)
        #expect(script.events.count == 20)
        #expect(script.events[0] == ScriptEvent(t: 0, line: 2, .touchDown(id: 1, x: 200, y: 600)))
        #expect(script.events[1].kind == .touchMotion(id: 1, x: 200, y: 580.5))
        #expect(script.events[7].kind == .pointerAxis(.vertical, value: 15, source: .wheel, value120: 120))
        #expect(script.events[8].kind == .pointerAxis(.horizontal, value: -3, source: .wheelTilt, value120: nil))
        #expect(script.events[13].kind == .pinchEnd(cancelled: true))
        #expect(script.events[14].kind == .key("Page_Down", pressed: true))
        #expect(script.events.last == ScriptEvent(t: 100, line: 22, .screenshot(name: "after-swipe")))
        #expect(script.duration == 100)
    }

    @Test(arguments: [
        (
            "{\"t\": 0, \"type\": \"touch.down\", \"id\": 1, \"x\": 1, \"y\": 2}\n{\"t\": 5, \"type\": \"touch.up\", \"id\": 1}\n{\"t\": 4, \"type\": \"touch.frame\"}",
            "swipe.jsonl:3: field 't': 4 is earlier than the previous event's 5 (t never decreases)"
        ),
        (
            "{\"t\": 0, \"type\": \"touch.wiggle\"}",
            "swipe.jsonl:1: field 'type': unknown event type \"touch.wiggle\" (expected one of touch.down, touch.motion, touch.up, touch.frame, touch.cancel, pointer.motion, pointer.button, pointer.axis, pointer.axis_stop, pointer.frame, pinch.begin, pinch.update, pinch.end, key, text, keyboard.show, keyboard.hide, window.resize, screenshot)"
        ),
        (
            "{\"t\": 0, \"type\": \"touch.down\", \"x\": 1, \"y\": 2}",
            "swipe.jsonl:1: field 'id': missing (expected a number)"
        ),
        (
            "{\"t\": 0, \"type\": \"touch.up\", \"id\": 3}",
            "swipe.jsonl:1: field 'id': finger 3 is not down (no touch.down before)"
        ),
        (
            "{\"t\": 0, \"type\": \"touch.down\", \"id\": 1, \"x\": 1, \"y\": 2}\n{\"t\": 1, \"type\": \"touch.down\", \"id\": 1, \"x\": 1, \"y\": 2}",
            "swipe.jsonl:2: field 'id': finger 1 is already down"
        ),
        (
            "{\"t\": 0, \"type\": \"touch.motion\", \"id\": 2, \"x\": 1, \"y\": 2}",
            "swipe.jsonl:1: field 'id': finger 2 is not down (no touch.down before)"
        ),
        (
            "{\"t\": 0, \"type\": \"key\", \"key\": \"Pgdn\", \"state\": \"pressed\"}",
            "swipe.jsonl:1: field 'key': unknown keysym 'Pgdn' (expected an xkb keysym name such as Page_Down or a)"
        ),
        ("{\"t\": 0, \"type\": \"touch.frame\"", "swipe.jsonl:1: malformed JSON"),
        ("[1, 2]", "swipe.jsonl:1: expected a JSON object, found an array"),
        (
            "{\"t\": 1e999, \"type\": \"touch.frame\"}",
            "swipe.jsonl:1: field 't': expected a finite number, found a number out of range"
        ),
        (
            "{\"t\": \"soon\", \"type\": \"touch.frame\"}",
            "swipe.jsonl:1: field 't': expected a number, found the string \"soon\""
        ),
        ("{\"t\": -1, \"type\": \"touch.frame\"}", "swipe.jsonl:1: field 't': expected a number ≥ 0, found -1.0"),
        ("{\"type\": \"touch.frame\"}", "swipe.jsonl:1: field 't': missing (expected a number)"),
        (
            "{\"t\": 0, \"type\": \"pointer.button\", \"button\": \"left\", \"state\": \"down\"}",
            "swipe.jsonl:1: field 'state': expected one of \"pressed\", \"released\", found \"down\""
        ),
        (
            "{\"t\": 0, \"type\": \"pointer.axis\", \"axis\": \"vertical\", \"value\": 1, \"source\": \"wheel\", \"value120\": null}",
            "swipe.jsonl:1: field 'value120': expected a number, found null"
        ),
        (
            "{\"t\": 0, \"type\": \"pinch.update\", \"scale\": 2, \"dx\": 0, \"dy\": 0}",
            "swipe.jsonl:1: field 'type': pinch.update without a pinch.begin before it"
        ),
        (
            "{\"t\": 0, \"type\": \"pinch.begin\"}\n{\"t\": 0, \"type\": \"pinch.update\", \"scale\": 0, \"dx\": 0, \"dy\": 0}",
            "swipe.jsonl:2: field 'scale': expected a number > 0, found 0.0"
        ),
        (
            "{\"t\": 0, \"type\": \"touch.frame\", \"colour\": \"red\"}",
            "swipe.jsonl:1: field 'colour': unknown field for this event type"
        ),
        (
            "{\"t\": 0, \"type\": \"screenshot\", \"name\": \"../escape\"}",
            "swipe.jsonl:1: field 'name': expected a file name without '/', found \"../escape\""
        ),
        (
            "{\"format\": \"scrollway-script\", \"version\": 2}",
            "swipe.jsonl:1: field 'version': unsupported version the number 2.0 (this Scrollway reads version 1)"
        ),
        (
            "{\"t\": 0, \"type\": \"touch.frame\"}\n{\"format\": \"scrollway-script\", \"version\": 1}",
            "swipe.jsonl:2: field 'format': the format header belongs on the first line"
        ),
        (
            "{\"t\": 0, \"type\": \"touch.down\", \"id\": 1.5, \"x\": 1, \"y\": 2}",
            "swipe.jsonl:1: field 'id': expected a small whole number (a finger id), found 1.5"
        ),
    ])
    func malformedScriptsFailWithSpecificErrors(text: String, expected: String) {
        do {
            _ = try parser.parse(text)
            Issue.record("accepted a malformed script; expected: \(expected)")
        } catch let error as ScriptError {
            #expect(error.description.hasPrefix(expected), "got: \(error.description)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func nothingIsHalfAppliedAnErrorOnTheLastLineRejectsAll() {
        var lines = (0..<900).map { "{\"t\": \($0), \"type\": \"pointer.motion\", \"x\": 1, \"y\": 2}" }
        lines.append("{\"t\": 900, \"type\": \"pointer.motion\", \"x\": 1}")
        #expect(throws: ScriptError(file: "swipe.jsonl", line: 901, field: "y", message: "missing (expected a number)"))
        {
            try parser.parse(lines.joined(separator: "\n"))
        }
    }

    @Test func interactiveLinesCarryTheSequenceState() throws {
        var state = SequenceState()
        #expect(try parser.parseLine("", number: 1, state: &state) == nil)
        let down = try parser.parseLine(
            "{\"t\": 5, \"type\": \"touch.down\", \"id\": 0, \"x\": 1, \"y\": 1}", number: 2, state: &state)
        #expect(down?.kind == .touchDown(id: 0, x: 1, y: 1))
        #expect(throws: ScriptError.self) {
            try parser.parseLine("{\"t\": 4, \"type\": \"touch.up\", \"id\": 0}", number: 3, state: &state)
        }
    }
}
