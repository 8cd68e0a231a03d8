import Foundation
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayScripts
import ScrollwayTestSupport
import Testing

/// A seeded fuzzer for the script parser: 10⁵ lines per run, each from a valid event line cut,
/// spliced, flipped or stuffed with JSON's sharp edges. Every input must end in an event that
/// respects the declared limits or in a `ScriptError` that names the file and line and echoes
/// no control character; none may trap. A failure names its seed and input: set
/// `SCROLLWAY_FUZZ_SEED` to replay a run.
@Suite struct ScriptParserFuzzTests {
    static let runs = 100_000

    static let validLines = [
        #"{"t": 0, "type": "touch.down", "id": 1, "x": 200, "y": 600}"#,
        #"{"t": 16.7, "type": "touch.motion", "id": 1, "x": 200, "y": 580.5}"#,
        #"{"t": 33, "type": "touch.up", "id": 1}"#,
        #"{"t": 40, "type": "touch.frame"}"#,
        #"{"t": 50, "type": "pointer.motion", "x": 10, "y": 20}"#,
        #"{"t": 51, "type": "pointer.button", "button": "left", "state": "pressed"}"#,
        #"{"t": 52, "type": "pointer.axis", "axis": "vertical", "value": 15, "source": "wheel", "value120": 120}"#,
        #"{"t": 54, "type": "pointer.axis_stop", "axis": "vertical"}"#,
        #"{"t": 55, "type": "pointer.leave"}"#,
        #"{"t": 60, "type": "pinch.begin"}"#,
        #"{"t": 61, "type": "pinch.update", "scale": 1.5, "dx": 2, "dy": -1}"#,
        #"{"t": 62, "type": "pinch.end", "cancelled": true}"#,
        #"{"t": 70, "type": "key", "key": "Page_Down", "state": "pressed"}"#,
        #"{"t": 71, "type": "text", "text": "Hello, \u00e9\ud83d\ude00"}"#,
        #"{"t": 80, "type": "keyboard.show"}"#,
        #"{"t": 90, "type": "window.resize", "width": 390, "height": 600}"#,
        #"{"t": 100, "type": "screenshot", "name": "after-swipe"}"#,
        #"{"format": "scrollway-script", "version": 1}"#,
    ]

    /// Pieces that JSON parsers get wrong.
    static let sharpEdges = [
        ",", ",,", "}", "]", "{", "[", "\"", "\\", "\\u", "\\ud800", "\\udc00", "\\u0000", "\u{1b}[2J", "\u{7}",
        "\u{0}", "\r", "\t", "01", "-0", "-", "1e999", "-1e999", "1e-999", "1.", ".5", "+1", "NaN", "Infinity",
        "0x10", "true", "nul", "null", "[]", "{}", "1e308", "9007199254740993", "\"t\": 1", "\"t\":", "\u{FEFF}",
        "\u{202E}", "é", String(repeating: "[", count: 40), String(repeating: "9", count: 400), "\u{FFFF}",
    ]

    @Test func randomLinesNeverTrapAndEveryErrorSaysWhere() throws {
        let seed = ProcessInfo.processInfo.environment["SCROLLWAY_FUZZ_SEED"].flatMap(UInt64.init) ?? 0x5C01_1A7
        var rng = SeededRandom(state: seed)
        let parser = ScriptParser(file: "fuzz.jsonl", isKeysym: { $0 == "Page_Down" || $0 == "a" })
        var accepted = 0
        var rejected = 0
        for run in 0..<Self.runs {
            let bytes = Self.mutate(Array(Self.validLines.randomElement(using: &rng)!.utf8), &rng)
            var state = SequenceState()
            var version = 1
            do {
                if let e = try parser.parseLine(bytes: bytes, number: 7, state: &state, version: &version) {
                    accepted += 1
                    let problem = Self.limitBroken(e)
                    #expect(problem == nil, "seed \(seed) run \(run): \(problem ?? "") in \(Self.show(bytes))")
                    if problem != nil { return }
                }
            } catch let error as ScriptError {
                rejected += 1
                let text = error.description
                let clean = text.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }
                #expect(
                    text.hasPrefix("fuzz.jsonl:7: ") && clean,
                    "seed \(seed) run \(run): \(text.debugDescription) for \(Self.show(bytes))")
                if !(text.hasPrefix("fuzz.jsonl:7: ") && clean) { return }
            }
        }
        // Both outcomes are exercised: the mutations are neither all fatal nor all harmless.
        #expect(accepted > Self.runs / 50 && rejected > Self.runs / 2, "accepted \(accepted), rejected \(rejected)")
    }

    /// One to three edits: cut, duplicate a slice, flip a byte, insert a sharp edge or random bytes.
    static func mutate(_ line: [UInt8], _ rng: inout SeededRandom) -> [UInt8] {
        var b = line
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let at = b.isEmpty ? 0 : Int.random(in: 0...b.count, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: b = Array(b.prefix(at))
            case 1 where !b.isEmpty:
                let end = min(b.count, at + Int.random(in: 1...12, using: &rng))
                if at < end { b.insert(contentsOf: b[at..<end], at: at) }
            case 2 where !b.isEmpty: b[min(at, b.count - 1)] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            case 3: b.insert(contentsOf: Array(sharpEdges.randomElement(using: &rng)!.utf8), at: at)
            case 4:
                b.insert(
                    contentsOf: (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                        UInt8.random(in: 0...255, using: &rng)
                    }, at: at)
            default:
                // Replace a number with an extreme one.
                let extremes = ["1e300", "-1e300", "1e16", "4294967296", "-2147483649", "0.0000001", "86400001"]
                if let digit = b.indices.first(where: { $0 >= at && (48...57).contains(b[$0]) }) {
                    var end = digit
                    while end < b.count, (48...57).contains(b[end]) || b[end] == 46 { end += 1 }
                    b.replaceSubrange(digit..<end, with: Array(extremes.randomElement(using: &rng)!.utf8))
                }
            }
        }
        return b
    }

    /// The declared limits an accepted event must respect, or nil.
    static func limitBroken(_ e: ScriptEvent) -> String? {
        guard e.t.isFinite, e.t >= 0, e.t <= ScriptLimits.maximumTime else { return "t \(e.t)" }
        let c = ScriptLimits.maximumCoordinate
        func inRange(_ v: Double) -> Bool { v.isFinite && abs(v) <= c }
        switch e.kind {
        case .touchDown(let id, let x, let y), .touchMotion(let id, let x, let y):
            return (0...1000).contains(id) && inRange(x) && inRange(y) ? nil : "touch \(id) \(x) \(y)"
        case .pointerMotion(let x, let y): return inRange(x) && inRange(y) ? nil : "motion \(x) \(y)"
        case .pointerAxis(_, let value, _, let v120):
            return inRange(value) && abs(v120 ?? 0) <= ScriptLimits.maximumValue120 ? nil : "axis \(value) \(v120 ?? 0)"
        case .pinchUpdate(let scale, let dx, let dy):
            return scale > 0 && scale <= ScriptLimits.maximumPinchScale && inRange(dx) && inRange(dy) ? nil : "pinch"
        case .windowResize(let w, let h):
            let side = 1...ScriptLimits.maximumWindowSide
            return side.contains(w) && side.contains(h) ? nil : "resize \(w) \(h)"
        case .screenshot(let name):
            return name.isEmpty || name.contains("/") || name == "." || name == ".." ? "name \(name)" : nil
        default: return nil
        }
    }

    static func show(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self).debugDescription }
}
