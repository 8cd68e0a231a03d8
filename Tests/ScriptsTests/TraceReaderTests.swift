import Foundation
import ScrollwayGeometry
import ScrollwayScripts
import ScrollwayTestSupport
import Testing

@Suite struct TraceReaderTests {
    func read(_ text: String, _ name: String) throws -> [TraceRecord] {
        let url = CommandRunner.temp(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        let reader = try TraceFileReader(path: url.path)
        var records: [TraceRecord] = []
        while let r = try reader.next() { records.append(r) }
        return records
    }

    static let good =
        #"{"t": 16.667, "frame": 1, "view": "main", "contentOffset": {"x": 0, "y": 20}, "contentSize": {"width": 390, "height": 1000}, "bounds": {"x": 0, "y": 20, "width": 390, "height": 600}, "adjustedContentInset": {"top": 60, "left": 0, "bottom": 0, "right": 0}, "phase": "dragging"}"#

    @Test func framesAndDelegateCallsAreReadWithTheirRestingRange() throws {
        let records = try read(
            Self.good + "\r\n\n"
                + #"{"t": 70, "view": "main", "delegate": "scrollViewWillEndDragging", "velocity": {"x": 0, "y": 3.009}, "targetContentOffset": {"x": 0, "y": 1633}}"#,
            "good.jsonl")
        #expect(
            records == [
                .frame(
                    TraceFrameRecord(
                        line: 1, t: 16.667, view: "main", contentOffset: Point(x: 0, y: 20), phase: .dragging,
                        restingRange: TraceRestingRange(x: 0...0, y: -60...400))),
                .delegate(
                    TraceDelegateRecord(
                        line: 3, t: 70, view: "main", name: "scrollViewWillEndDragging",
                        velocity: Point(x: 0, y: 3.009))),
            ])
    }

    @Test(arguments: [
        (
            #"{"t": 5, "frame": 2, "view": "main", "contentOffset": {"x": 0}, "phase": "idle"}"#,
            #"field 'contentOffset': 'y' is missing (expected {"x": number, "y": number})"#
        ),
        (
            #"{"t": 5, "frame": 2, "view": "main", "contentOffset": "up", "phase": "idle"}"#,
            #"field 'contentOffset': expected {"x": number, "y": number}, found the string "up""#
        ),
        (
            #"{"t": 5, "frame": 2, "view": "main", "contentOffset": {"x": 0, "y": null}, "phase": "idle"}"#,
            "field 'contentOffset': 'y': expected a finite number, found null"
        ),
        (
            #"{"t": 5, "frame": 2, "view": "main", "phase": "idle"}"#,
            #"field 'contentOffset': missing (expected {"x": number, "y": number})"#
        ),
        (
            #"{"t": 5, "frame": 2, "view": "main", "contentOffset": {"x": 0, "y": 1}, "phase": "flying"}"#,
            #"field 'phase': unknown phase "flying" (expected one of idle, tracking, dragging, decelerating, bouncing, animating, zooming)"#
        ),
        (
            #"{"t": 1, "frame": 2, "view": "main", "contentOffset": {"x": 0, "y": 1}, "phase": "idle"}"#,
            "field 't': 1 is earlier than the previous record's 16.667 (a trace is in time order)"
        ),
        // Numbers a plot could not draw are refused (issue 36, items 3 and 4).
        (
            #"{"t": 20, "frame": 2, "view": "main", "contentOffset": {"x": 0, "y": 1e17}, "phase": "idle"}"#,
            "field 'contentOffset': 'y': expected a number within ±1e12, found 1e+17"
        ),
        (
            #"{"t": 20, "frame": 2, "view": "main", "contentOffset": {"x": -1e308, "y": 0}, "phase": "idle"}"#,
            "field 'contentOffset': 'x': expected a number within ±1e12, found -1e+308"
        ),
        (
            #"{"t": 1e13, "frame": 2, "view": "main", "contentOffset": {"x": 0, "y": 0}, "phase": "idle"}"#,
            "field 't': expected a number within ±1e12, found 10000000000000.0"
        ),
        (#"{"t": 20, "type": "touch.down", "id": 0, "x": 1, "y": 2}"#, "expected a trace record: a frame record"),
        (#"{"t": 20, "view": "main", "delegate": 3}"#, "field 'delegate': expected a string, found the number 3"),
        (
            #"{"t": 20, "view": "main", "delegate": "scrollViewWillEndDragging", "velocity": {"x": 1,}}"#,
            "field 'velocity': malformed JSON at column"
        ),
    ])
    func aBadLineNamesTheFileTheLineAndTheField(line: String, message: String) throws {
        let name = "bad-\(line.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xff_ffff }).jsonl"
        let path = CommandRunner.temp(name).path
        do {
            _ = try read(Self.good + "\n" + line + "\n", name)
            Issue.record("no error for \(line)")
        } catch let e as ScriptError {
            #expect(e.description.hasPrefix("\(path):2: " + message), "\(e)")
        }
    }

    /// Times beyond Int's range going backwards (issue 36, item 2: the message about their order
    /// trapped on "Double value cannot be converted to Int") are refused as too large, at the
    /// first of them, before any order is judged.
    @Test func hugeTimesAreRefusedBeforeTheirOrderIsJudged() throws {
        let first = Self.good.replacingOccurrences(of: "\"t\": 16.667", with: "\"t\": 1e19")
        let second = Self.good.replacingOccurrences(of: "\"t\": 16.667", with: "\"t\": 9.5e18")
        do {
            _ = try read(first + "\n" + second + "\n", "huge-times.jsonl")
            Issue.record("no error")
        } catch let e as ScriptError {
            #expect(
                e.description.hasSuffix(":1: field 't': expected a number within ±1e12, found 1e+19"), "\(e)")
        }
    }

    @Test func aGestureScriptGivenForATraceGetsAHint() throws {
        do {
            _ = try read(#"{"format": "scrollway-script", "version": 1}"#, "script.jsonl")
            Issue.record("no error")
        } catch let e as ScriptError {
            #expect(
                e.description.hasSuffix(
                    "this looks like a gesture script line (the trace is what `scrollway play SCRIPT --trace FILE` writes)"
                ))
        }
    }
}
