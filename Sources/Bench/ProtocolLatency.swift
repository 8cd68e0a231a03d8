import Foundation
import ScrollwayGeometry

/// Input-to-screen latency read from a client's own protocol traffic (`WAYLAND_DEBUG=client`,
/// which libwayland writes to standard error), so every client — ours, GTK4's, the floor — is
/// measured the same way and by nothing it reports about itself: each input event the client
/// received, the first commit it made after it, and that commit's frame callback `done`, which
/// the compositor sends when it repaints the output with the commit. The time from the input to
/// that `done` is the input's latency to the repaint that shows it.
///
/// Where the client asked for presentation feedback on that commit (`wp_presentation`), the
/// `presented` event says when the compositor put it on the screen: the input's latency to
/// presentation. Headless weston stamps it a refresh after the repaint, whatever the client;
/// wlroots' and mutter's headless outputs stamp the repaint itself.
///
/// libwayland stamps each line `[ms.µs]` from CLOCK_REALTIME in microseconds cut to 32 bits, so
/// the stamps wrap every 71.6 minutes: the parser unwraps them, and `logMilliseconds` and
/// `align` put the bench's own phase marks on the same scale. A presentation time is on the
/// clock the compositor names (`wp_presentation.clock_id`, usually CLOCK_MONOTONIC): it is moved
/// onto the log's clock by that clock's offset from CLOCK_REALTIME, read by the caller on the
/// same machine (`clockOffsets`).
public struct ProtocolLatency: Sendable {
    public enum InputKind: String, Sendable, Codable {
        case touchDown = "touch down"
        case touchMotion = "touch motion"
        case wheel
        case key
    }

    public struct Input: Sendable, Equatable {
        public var time: Double
        public var kind: InputKind
    }

    /// An input and when the repaint that showed it came (nil: no commit after it was repainted
    /// before the log ended), and when it was presented (nil: the commit asked for no feedback,
    /// or the compositor discarded it).
    public struct Measured: Sendable, Equatable {
        public var input: Input
        public var repaint: Double?
        public var presented: Double? = nil
        public var latency: Double? { repaint.map { $0 - input.time } }
        public var presentedLatency: Double? { presented.map { $0 - input.time } }
    }

    /// The output's refresh in ms (its `wl_output.mode`), nil when the log names none.
    public var refreshMs: Double?
    public var measured: [Measured]
    /// Commits that asked for a frame callback, and how many of them the compositor repainted.
    public var commits: Int { commitTimes.count }
    /// Lines read as protocol messages.
    public var messages: Int
    public var repainted: Int
    /// Commits with a frame callback that asked for presentation feedback, and how many of them
    /// the compositor said it presented.
    public var feedbackAsked: Int
    public var presentedCount: Int
    /// When each commit with a frame callback was made, in log order.
    public var commitTimes: [Double]
    /// The first line's time (unwrapped: the scale every time here is on).
    public var firstTime: Double

    /// The span of libwayland's stamps, ms (2³² µs).
    public static let wrapMs = 4_294_967.296

    /// A `logMilliseconds` mark on this log's scale: the representative of its wrap class from
    /// a quarter of a wrap before the log's first line (marks come within minutes of it).
    public func align(_ mark: Double) -> Double {
        let low = firstTime - Self.wrapMs / 4
        let k = ((low - mark) / Self.wrapMs).rounded(.up)
        return mark + k * Self.wrapMs
    }

    /// Reads a `WAYLAND_DEBUG=client` log. Lines that are not protocol messages (the client's own
    /// output) are skipped; a key counts when pressed, a wheel by its `axis` event (the one
    /// with a time), touch by `down` and `motion`.
    ///
    /// `clockOffsets`: for each clock id a compositor may name, CLOCK_REALTIME minus that clock,
    /// in ms (`clockOffsets()`); without the named clock's, no presentation is read.
    public init(log: String, clockOffsets: [Int: Double] = [:]) {
        struct Commit {
            var time: Double
            var done: Double?
            var feedback = false
            var presented: Double?
        }
        var inputs: [Input] = []
        var commits: [Commit] = []
        var pendingCallbacks: [Int: [Int]] = [:]  // surface → frame callbacks since its last commit
        var callbackCommit: [Int: Int] = [:]  // frame callback → its commit
        var pendingFeedback: [Int: [Int]] = [:]  // surface → feedbacks asked since its last commit
        var feedbackCommit: [Int: Int] = [:]  // feedback → its commit
        var clock: Int?
        var refresh: Double?
        var count = 0
        var wraps = 0.0
        var previous: Double?
        var first: Double?
        for raw in log.split(separator: "\n", omittingEmptySubsequences: true) {
            guard var m = Self.message(raw) else { continue }
            count += 1
            if let p = previous, m.time + wraps < p - Self.wrapMs / 2 { wraps += Self.wrapMs }
            m.time += wraps
            previous = m.time
            if first == nil { first = m.time }
            switch (m.interface, m.name, m.sent) {
            case ("wl_surface", "frame", true):
                if let cb = Self.newID(m.args) { pendingCallbacks[m.id, default: []].append(cb) }
            case ("wl_surface", "commit", true):
                let fbs = pendingFeedback.removeValue(forKey: m.id) ?? []
                guard let cbs = pendingCallbacks.removeValue(forKey: m.id), !cbs.isEmpty else { continue }
                for cb in cbs { callbackCommit[cb] = commits.count }
                for fb in fbs { feedbackCommit[fb] = commits.count }
                commits.append(Commit(time: m.time, feedback: !fbs.isEmpty))
            case ("wp_presentation", "feedback", true):
                // feedback(wl_surface@S, new id wp_presentation_feedback@F)
                let parts = m.args.split(separator: ",")
                if parts.count == 2, let surface = Self.newID(parts[0]), let fb = Self.newID(parts[1]) {
                    pendingFeedback[surface, default: []].append(fb)
                }
            case ("wp_presentation", "clock_id", false):
                clock = Int(m.args.trimmingCharacters(in: .whitespaces))
            case ("wp_presentation_feedback", "presented", false):
                guard let i = feedbackCommit.removeValue(forKey: m.id), let clock, let offset = clockOffsets[clock],
                    let shown = Self.presentationMilliseconds(m.args)
                else { continue }
                // Onto the log's clock, then its wrap class nearest the commit's.
                let stamp = (shown + offset).truncatingRemainder(dividingBy: Self.wrapMs)
                let k = ((commits[i].time - stamp) / Self.wrapMs).rounded()
                if commits[i].presented == nil { commits[i].presented = stamp + k * Self.wrapMs }
            case ("wp_presentation_feedback", "discarded", false):
                feedbackCommit.removeValue(forKey: m.id)
            case ("wl_callback", "done", false):
                guard let i = callbackCommit.removeValue(forKey: m.id) else { continue }
                if commits[i].done == nil { commits[i].done = m.time }
            case ("wl_touch", "down", false): inputs.append(Input(time: m.time, kind: .touchDown))
            case ("wl_touch", "motion", false): inputs.append(Input(time: m.time, kind: .touchMotion))
            case ("wl_pointer", "axis", false): inputs.append(Input(time: m.time, kind: .wheel))
            case ("wl_keyboard", "key", false):
                // key(serial, time, key, state): state 1 is pressed.
                if m.args.split(separator: ",").last?.trimmingCharacters(in: .whitespaces) == "1" {
                    inputs.append(Input(time: m.time, kind: .key))
                }
            case ("wl_output", "mode", false):
                // mode(flags, width, height, refresh in mHz); the current mode has flags & 1.
                let f = m.args.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                if f.count == 4, let flags = Int(f[0]), flags & 1 != 0, let mHz = Double(f[3]), mHz > 0 {
                    refresh = 1_000_000 / mHz
                }
            default: continue
            }
        }
        // Inputs and commits are each in log order: one pass pairs every input with the first
        // commit at or after it.
        var result: [Measured] = []
        result.reserveCapacity(inputs.count)
        var c = 0
        for input in inputs {
            while c < commits.count && commits[c].time < input.time { c += 1 }
            // A commit replaced before a repaint still hears `done` at that repaint (its
            // callbacks move to the state shown), so only the log's last commits lack one.
            result.append(
                Measured(
                    input: input, repaint: c < commits.count ? commits[c].done : nil,
                    presented: c < commits.count ? commits[c].presented : nil))
        }
        measured = result
        refreshMs = refresh
        firstTime = first ?? 0
        commitTimes = commits.map(\.time)
        messages = count
        repainted = commits.filter { $0.done != nil }.count
        feedbackAsked = commits.filter(\.feedback).count
        presentedCount = commits.filter { $0.presented != nil }.count
    }

    /// `presented(tv_sec_hi, tv_sec_lo, tv_nsec, refresh, seq_hi, seq_lo, flags)`'s time, ms.
    static func presentationMilliseconds(_ args: Substring) -> Double? {
        let f = args.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard f.count == 7, let hi = UInt64(f[0]), let lo = UInt64(f[1]), let ns = Double(f[2]) else { return nil }
        return Double(hi << 32 | lo) * 1000 + ns / 1e6
    }

    /// CLOCK_REALTIME minus each clock a compositor may present on (CLOCK_MONOTONIC,
    /// CLOCK_MONOTONIC_RAW, CLOCK_BOOTTIME), in ms, read now, each between two readings of
    /// CLOCK_REALTIME: what `init(log:clockOffsets:)` moves presentation times by.
    public static func clockOffsets() -> [Int: Double] {
        func ms(_ clock: clockid_t) -> Double {
            var ts = timespec()
            clock_gettime(clock, &ts)
            return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
        }
        var result: [Int: Double] = [:]
        for clock in [CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_BOOTTIME] {
            let before = ms(CLOCK_REALTIME)
            let theirs = ms(clock)
            let after = ms(CLOCK_REALTIME)
            result[Int(clock)] = (before + after) / 2 - theirs
        }
        return result
    }

    /// One protocol line's parts: `[time] [{queue} ][ -> ]interface@id.name(args)`.
    struct Message {
        var time: Double
        var sent: Bool
        var interface: Substring
        var id: Int
        var name: Substring
        var args: Substring
    }

    static func message(_ line: Substring) -> Message? {
        guard line.first == "[", let close = line.firstIndex(of: "]"),
            let time = Double(line[line.index(after: line.startIndex)..<close].drop { $0 == " " })
        else { return nil }
        var rest = line[line.index(after: close)...].drop { $0 == " " }
        if rest.first == "{", let q = rest.firstIndex(of: "}") {
            rest = rest[rest.index(after: q)...].drop { $0 == " " }
        }
        var sent = false
        if rest.hasPrefix("-> ") {
            sent = true
            rest = rest.dropFirst(3)
        }
        // libwayland before 1.23 writes `wl_surface@13`, from 1.23 on `wl_surface#13`.
        guard let at = rest.firstIndex(where: { $0 == "@" || $0 == "#" }), let dot = rest[at...].firstIndex(of: "."),
            let open = rest[dot...].firstIndex(of: "("), let id = Int(rest[rest.index(after: at)..<dot]),
            let end = rest.lastIndex(of: ")"), end > open
        else { return nil }
        return Message(
            time: time, sent: sent, interface: rest[..<at], id: id, name: rest[rest.index(after: dot)..<open],
            args: rest[rest.index(after: open)..<end])
    }

    /// The id in `new id wl_callback@25` (`#25` from libwayland 1.23 on).
    static func newID(_ args: Substring) -> Int? {
        guard let at = args.lastIndex(where: { $0 == "@" || $0 == "#" }) else { return nil }
        return Int(args[args.index(after: at)...].prefix { $0.isNumber })
    }

    /// Now as libwayland stamps its lines: CLOCK_REALTIME in µs cut to 32 bits, in ms.
    public static func logMilliseconds(now: Date = Date()) -> Double {
        let micros = UInt64(clamping: Int64(clamping: now.timeIntervalSince1970 * 1_000_000, rounding: .down))
        return Double(UInt32(truncatingIfNeeded: micros)) / 1000
    }
}

/// Latencies summarised as the bench prints them: in ms and in refreshes, and the share that
/// reached the screen within one refresh, within two, and later.
public struct LatencySummary: Codable, Sendable, Equatable {
    public var count: Int
    /// Inputs no repaint showed (the log ended first).
    public var unanswered: Int
    public var p50: Double
    public var p95: Double
    public var p99: Double
    public var max: Double
    public var refreshMs: Double
    public var withinOne: Double
    public var withinTwo: Double
    public var later: Double

    public init?(_ latencies: [Double?], refreshMs: Double) {
        let v = latencies.compactMap { $0 }.sorted()
        guard !v.isEmpty, refreshMs > 0 else { return nil }
        count = v.count
        unanswered = latencies.count - v.count
        p50 = WestonBench.percentile(v, 0.5, sorted: true)
        p95 = WestonBench.percentile(v, 0.95, sorted: true)
        p99 = WestonBench.percentile(v, 0.99, sorted: true)
        max = v.last ?? 0
        self.refreshMs = refreshMs
        let n = Double(v.count)
        withinOne = Double(v.filter { $0 <= refreshMs }.count) / n
        withinTwo = Double(v.filter { $0 > refreshMs && $0 <= 2 * refreshMs }.count) / n
        later = Double(v.filter { $0 > 2 * refreshMs }.count) / n
    }
}
