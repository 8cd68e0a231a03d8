import Foundation
import ScrollwayScripts
import Testing

/// Every numeric field of every event type, and of trace records, given the numbers at and past
/// the integer and floating-point limits: each line is read or refused with a message naming
/// the field, never a trap. The error paths are fuzzed too, since messages print the numbers
/// (issue 36, items 1 and 2: the message formatter trapped on 9.3e18).
@Suite struct NumberLimitsFuzzTests {
    /// The scripts' file name is what each error must begin with; none of them names a key.
    let parser = ScriptParser(file: "swipe.jsonl", isKeysym: { _ in false })

    static let extremes = [
        "9.3e18", "-9.3e18", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "1e308",
        "-1e308", "1.7976931348623157e308", "5e-324", "-5e-324", "0", "-0.0", "9007199254740993", "1e19",
        "4294967296", "-2147483649", "0.5", "1e-300",
    ]

    /// Script lines with one `N` each: the numeric fields of every event type, and a preedit
    /// cursor's begin and end.
    static let scriptTemplates = [
        #"{"t": N, "type": "touch.frame"}"#,
        #"{"t": 0, "type": "touch.down", "id": N, "x": 1, "y": 1}"#,
        #"{"t": 0, "type": "touch.down", "id": 0, "x": N, "y": 1}"#,
        #"{"t": 0, "type": "touch.down", "id": 0, "x": 1, "y": N}"#,
        #"{"t": 0, "type": "pointer.motion", "x": N, "y": 0}"#,
        #"{"t": 0, "type": "pointer.axis", "axis": "vertical", "value": N, "source": "wheel"}"#,
        #"{"t": 0, "type": "pointer.axis", "axis": "vertical", "value": 1, "source": "wheel", "value120": N}"#,
        #"{"t": 0, "type": "pinch.begin"}"# + "\n" + #"{"t": 1, "type": "pinch.update", "scale": N, "dx": 0, "dy": 0}"#,
        #"{"t": 0, "type": "pinch.begin"}"# + "\n" + #"{"t": 1, "type": "pinch.update", "scale": 1, "dx": N, "dy": 0}"#,
        #"{"t": 0, "type": "window.resize", "width": N, "height": 100}"#,
        #"{"t": 0, "type": "preedit", "text": "ab", "cursor": [N, 1]}"#,
        #"{"t": 0, "type": "preedit", "text": "ab", "cursor": [0, N]}"#,
        #"{"t": 0, "type": "delete_surrounding", "before": N, "after": 0}"#,
        #"{"t": 0, "type": "delete_surrounding", "before": 0, "after": N}"#,
        #"{"t": 5, "type": "touch.frame"}"# + "\n" + #"{"t": N, "type": "touch.frame"}"#,
    ]

    @Test(arguments: scriptTemplates)
    func everyScriptNumberIsReadOrRefusedNamingItsField(template: String) {
        for n in Self.extremes {
            let text = template.replacingOccurrences(of: "N", with: n)
            do {
                _ = try parser.parse(text)
            } catch let e as ScriptError {
                #expect(e.description.hasPrefix("swipe.jsonl:"), "\(n): \(e)")
                #expect(e.description.contains("field '"), "\(n): a message that names no field: \(e)")
            } catch {
                Issue.record("\(n) in \(template): \(error)")
            }
        }
    }

    /// Trace records with one `N` each: time, offsets, sizes, insets, velocities, going back in
    /// time from a large value.
    static let traceTemplates = [
        #"{"t": N, "frame": 1, "view": "main", "contentOffset": {"x": 0, "y": 0}, "phase": "idle"}"#,
        #"{"t": 0, "frame": 1, "view": "main", "contentOffset": {"x": N, "y": 0}, "phase": "idle"}"#,
        #"{"t": 0, "frame": 1, "view": "main", "contentOffset": {"x": 0, "y": 0}, "contentSize": {"width": N, "height": 1}, "phase": "idle"}"#,
        #"{"t": 0, "frame": 1, "view": "main", "contentOffset": {"x": 0, "y": 0}, "adjustedContentInset": {"top": N, "left": 0, "bottom": 0, "right": 0}, "phase": "idle"}"#,
        #"{"t": 0, "view": "main", "delegate": "scrollViewWillEndDragging", "velocity": {"x": 0, "y": N}}"#,
        #"{"t": 1e12, "frame": 1, "view": "main", "contentOffset": {"x": 0, "y": 0}, "phase": "idle"}"# + "\n"
            + #"{"t": N, "frame": 2, "view": "main", "contentOffset": {"x": 0, "y": 0}, "phase": "idle"}"#,
    ]

    @Test(arguments: traceTemplates)
    func everyTraceNumberIsReadOrRefusedNamingItsField(template: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scrollway-limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (i, n) in Self.extremes.enumerated() {
            let url = dir.appendingPathComponent("t\(i).jsonl")
            try (template.replacingOccurrences(of: "N", with: n) + "\n").write(
                to: url, atomically: true, encoding: .utf8)
            do {
                let reader = try TraceFileReader(path: url.path)
                while try reader.next() != nil {}
            } catch let e as ScriptError {
                #expect(e.description.contains("field '"), "\(n): a message that names no field: \(e)")
            } catch {
                Issue.record("\(n) in \(template): \(error)")
            }
        }
    }
}
