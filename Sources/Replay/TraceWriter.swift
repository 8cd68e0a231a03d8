import ScrollwayGeometry
import ScrollwayScripts
import ScrollwayScrolling

/// Writes traces as JSON Lines with a stable key order and fixed number formatting (at most
/// three decimals, trailing zeros dropped, no "-0"), so the same run gives the same bytes and
/// traces diff cleanly. The record shapes are `docs/scripts-and-traces.md`'s.
public struct TraceWriter {
    /// Where records go. A trace grows with the run (about 29 KB a second of motion), so a
    /// long run that is not asked for its trace must not keep one.
    public enum Output {
        /// Kept in `lines` (tests, small runs).
        case memory
        /// Each line (without its newline) handed over as it is written, not kept.
        case stream((String) -> Void)
        /// Not kept at all.
        case discard
    }

    public private(set) var lines: [String] = []
    public let output: Output

    public init(output: Output = .memory) { self.output = output }

    public var text: String { lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n" }

    /// Whether records go anywhere. A discarded trace's records are not made at all: an
    /// offscreen run that asks for no trace (`scrollway play` without `--trace`, the
    /// event-stream fuzzer) would otherwise format every frame's record only to drop it
    /// (measured: docs/decisions.md, The test loop).
    public var keepsRecords: Bool {
        if case .discard = output { return false }
        return true
    }

    private mutating func emit(_ line: String) {
        switch output {
        case .memory: lines.append(line)
        case .stream(let write): write(line)
        case .discard: break
        }
    }

    /// One frame record for one scroll view.
    @MainActor
    public mutating func frame(
        t: Double, number: Int, view name: String, _ s: ScrollView, refreshing: Bool = false, keyboardHeight: Double = 0
    ) {
        guard keepsRecords else { return }
        var o = JSONObject()
        o.number("t", t)
        o.number("frame", Double(number))
        o.string("view", name)
        o.raw("contentOffset", point(s.contentOffset))
        o.raw("contentSize", "{\"width\": \(num(s.contentSize.width)), \"height\": \(num(s.contentSize.height))}")
        o.raw(
            "bounds",
            "{\"x\": \(num(s.bounds.minX)), \"y\": \(num(s.bounds.minY)), \"width\": \(num(s.bounds.width)), \"height\": \(num(s.bounds.height))}"
        )
        o.raw("contentInset", insets(s.contentInset))
        o.raw("adjustedContentInset", insets(s.adjustedContentInset))
        o.number("zoomScale", s.zoomScale)
        o.string("phase", s.phase.rawValue)
        o.raw("refreshing", refreshing ? "true" : "false")
        o.number("keyboardHeight", keyboardHeight)
        emit(o.text)
    }

    /// One delegate record.
    public mutating func delegate(t: Double, view name: String, _ event: ScrollEvent) {
        guard keepsRecords else { return }
        var o = JSONObject()
        o.number("t", t)
        o.string("view", name)
        o.string("delegate", event.delegateName)
        switch event {
        case .willEndDragging(let velocity, let target):
            o.raw("velocity", point(velocity))
            o.raw("targetContentOffset", point(target))
        case .didEndDragging(let decelerate):
            o.raw("willDecelerate", decelerate ? "true" : "false")
        case .didEndZooming(let scale):
            o.number("scale", scale)
        default:
            break
        }
        emit(o.text)
    }

    /// One recognizer record: a named gesture recognizer changed state (on the view named
    /// `view`, if it has a name).
    public mutating func recognizer(t: Double, name: String, view: String?, state: String) {
        guard keepsRecords else { return }
        var o = JSONObject()
        o.number("t", t)
        if let view { o.string("view", view) }
        o.string("recognizer", name)
        o.string("state", state)
        emit(o.text)
    }

    func point(_ p: Point) -> String { "{\"x\": \(num(p.x)), \"y\": \(num(p.y))}" }

    func insets(_ i: EdgeInsets) -> String {
        "{\"top\": \(num(i.top)), \"left\": \(num(i.left)), \"bottom\": \(num(i.bottom)), \"right\": \(num(i.right))}"
    }
}

/// Fixed formatting: rounded to 3 decimals, trailing zeros and "-0" dropped.
func num(_ v: Double) -> String {
    guard v.isFinite else { return "null" }
    // Beyond 1e15 a double has no thousandths left: its shortest exact form ("1e+16") is
    // valid JSON, where scaling could overflow and an integer conversion would trap.
    if abs(v) >= 1e15 { return "\(v)" }
    var r = (v * 1000).rounded() / 1000
    if r == 0 { r = 0 }  // no negative zero
    if r == r.rounded() { return String(Int64(clamping: r)) }
    var bytes: [UInt8] = []
    FixedDecimal.append(r, decimals: 3, to: &bytes)
    var s = String(decoding: bytes, as: UTF8.self)
    while s.hasSuffix("0") { s.removeLast() }
    if s.hasSuffix(".") { s.removeLast() }
    return s
}

/// Builds one JSON object line with keys in insertion order.
struct JSONObject {
    private var parts: [String] = []
    mutating func number(_ key: String, _ v: Double) { parts.append("\"\(key)\": \(num(v))") }
    mutating func string(_ key: String, _ v: String) { parts.append("\"\(key)\": \(ScriptWriter.string(v))") }
    mutating func raw(_ key: String, _ json: String) { parts.append("\"\(key)\": \(json)") }
    var text: String { "{" + parts.joined(separator: ", ") + "}" }
}
