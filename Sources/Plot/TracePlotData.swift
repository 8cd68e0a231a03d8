import ScrollwayGeometry
import ScrollwayScripts

/// A trace that cannot be plotted as asked, though every line of it is well formed (an empty
/// trace, a view it does not have, a time window outside it, a picture too small): said in
/// words that name the file and what to change.
public struct TracePlotError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// One scroll view's part of a trace, cut to the plotted time window: its frames, the
/// velocities between them, and its delegate calls.
public struct TracePlotSeries: Equatable, Sendable {
    /// A frame record's values.
    public struct Sample: Equatable, Sendable {
        public var t: Double
        public var offset: Point
        public var phase: TracePhase
        public var restingRange: TraceRestingRange?

        public init(t: Double, offset: Point, phase: TracePhase, restingRange: TraceRestingRange? = nil) {
            self.t = t
            self.offset = offset
            self.phase = phase
            self.restingRange = restingRange
        }
    }

    /// The mean velocity over `start…end` (px/s), from two consecutive frames.
    public struct VelocityStep: Equatable, Sendable {
        public var start: Double
        public var end: Double
        public var velocity: Point

        public init(start: Double, end: Double, velocity: Point) {
            self.start = start
            self.end = end
            self.velocity = velocity
        }
    }

    public let view: String
    /// In time order. The last frame before the window and the first after it are kept too,
    /// so the curves run to the window's edges instead of starting at the first frame inside.
    public let samples: [Sample]
    /// Delegate calls inside the window, in order; `scrollViewDidScroll` and
    /// `scrollViewDidZoom` are left out (one per frame: they would hide the others).
    public let events: [TraceDelegateRecord]
    public let velocitySteps: [VelocityStep]
    /// Whether the offset's x changes anywhere in the samples (then it is drawn too).
    public let movesHorizontally: Bool

    /// The median interval between frames (ms): the frame period, nil with fewer than two
    /// frames at different times. Intervals shorter than the writer's microsecond do not count:
    /// a velocity over a step far shorter could be beyond any Double.
    public let period: Double?

    public init(view: String, samples: [Sample], events: [TraceDelegateRecord]) {
        self.view = view
        self.samples = samples
        self.events = events
        let intervals = zip(samples, samples.dropFirst()).map { $1.t - $0.t }.filter { $0 >= 1e-3 }.sorted()
        period = intervals.isEmpty ? nil : intervals[intervals.count / 2]
        velocitySteps = Self.velocities(samples, period: period)
        movesHorizontally = samples.contains { $0.offset.x != samples[0].offset.x }
    }

    /// A value over time, as a plot draws it: straight lines between the points.
    public struct PathPoint: Equatable, Sendable {
        public var t: Double
        public var value: Double

        public init(t: Double, value: Double) {
            self.t = t
            self.value = value
        }
    }

    /// The offset on one axis over `window`, as drawn: through every frame, flat across a quiet
    /// stretch until its last period (see `velocities`), flat after the last frame to the
    /// window's end, and cut at the window's edges where it crosses them.
    public func offsetPath(horizontal: Bool = false, in window: ClosedRange<Double>) -> [PathPoint] {
        var points: [PathPoint] = []
        for s in samples {
            let v = horizontal ? s.offset.x : s.offset.y
            if let last = points.last, let period, s.t - last.t > 2 * period {
                points.append(PathPoint(t: s.t - period, value: last.value))
            }
            points.append(PathPoint(t: s.t, value: v))
        }
        return Self.clip(points, to: window, holdingLast: true)
    }

    /// The velocity on one axis (px/s) over `window`: a step per frame interval, zero after the
    /// last frame.
    public func velocityPath(horizontal: Bool = false, in window: ClosedRange<Double>) -> [PathPoint] {
        var points: [PathPoint] = []
        for step in velocitySteps {
            let v = horizontal ? step.velocity.x : step.velocity.y
            points.append(PathPoint(t: step.start, value: v))
            points.append(PathPoint(t: step.end, value: v))
        }
        if let last = points.last, last.value != 0 { points.append(PathPoint(t: last.t, value: 0)) }
        return Self.clip(points, to: window, holdingLast: true)
    }

    /// The phase from each frame until the next (the last until the window's end), cut to
    /// `window`, with runs of one phase joined.
    public func phaseSpans(in window: ClosedRange<Double>) -> [(start: Double, end: Double, phase: TracePhase)] {
        var spans: [(start: Double, end: Double, phase: TracePhase)] = []
        for (i, s) in samples.enumerated() {
            let start = max(s.t, window.lowerBound)
            let end = min(i + 1 < samples.count ? samples[i + 1].t : window.upperBound, window.upperBound)
            guard end > start else { continue }
            if let last = spans.last, last.phase == s.phase, last.end == start {
                spans[spans.count - 1].end = end
            } else {
                spans.append((start, end, s.phase))
            }
        }
        return spans
    }

    /// Points cut to `window`: a segment crossing an edge ends there (interpolated), and with
    /// `holdingLast` the last value carries on to the window's end.
    static func clip(_ points: [PathPoint], to window: ClosedRange<Double>, holdingLast: Bool) -> [PathPoint] {
        var out: [PathPoint] = []
        func at(_ t: Double, _ a: PathPoint, _ b: PathPoint) -> PathPoint {
            PathPoint(t: t, value: b.t == a.t ? b.value : a.value + (b.value - a.value) * (t - a.t) / (b.t - a.t))
        }
        for (i, p) in points.enumerated() {
            if p.t < window.lowerBound {
                if i + 1 < points.count, points[i + 1].t > window.lowerBound {
                    out.append(at(window.lowerBound, p, points[i + 1]))
                } else if i + 1 == points.count {
                    out.append(PathPoint(t: window.lowerBound, value: p.value))
                }
                continue
            }
            if p.t > window.upperBound {
                if i > 0, points[i - 1].t < window.upperBound { out.append(at(window.upperBound, points[i - 1], p)) }
                return out
            }
            out.append(p)
        }
        if holdingLast, let last = out.last, last.t < window.upperBound {
            out.append(PathPoint(t: window.upperBound, value: last.value))
        }
        return out
    }

    /// The delegate calls a plot leaves out: one per frame, they carry nothing the offset curve
    /// does not show.
    public static let noise: Set<String> = ["scrollViewDidScroll", "scrollViewDidZoom"]

    /// Velocities between consecutive frames. A frame is recorded only when something is drawn,
    /// so a stretch longer than two frame periods (the median interval) with no frames in it is
    /// one where nothing moved: what changed by its end changed in its last period, and the step
    /// says so (zero, then the change over one period) instead of spreading a jump thin over
    /// seconds of stillness.
    static func velocities(_ samples: [Sample], period: Double?) -> [VelocityStep] {
        guard let period else { return [] }
        var steps: [VelocityStep] = []
        for (a, b) in zip(samples, samples.dropFirst()) {
            // Steps shorter than the writer's microsecond have no velocity (see `period`).
            let dt = b.t - a.t
            guard dt >= 1e-3 else { continue }
            let moved = b.offset - a.offset
            if dt > 2 * period {
                steps.append(VelocityStep(start: a.t, end: b.t - period, velocity: .zero))
                steps.append(VelocityStep(start: b.t - period, end: b.t, velocity: moved * (1000 / period)))
            } else {
                steps.append(VelocityStep(start: a.t, end: b.t, velocity: moved * (1000 / dt)))
            }
        }
        return steps
    }
}

/// What a plot draws, read from a trace in one pass: only the frames of the views asked for,
/// and of those only the ones in the time window (and one either side), are kept; every line is
/// still read and checked, so a bad line past the window is an error, not a silent cut.
public struct TracePlotData: Equatable, Sendable {
    /// The trace's name in messages.
    public let file: String
    /// One per plotted view, in the order asked for, or else in the order they first appear.
    public let series: [TracePlotSeries]
    /// The plotted time window (ms).
    public let window: ClosedRange<Double>
    /// The earliest and latest record's times (ms).
    public let span: ClosedRange<Double>

    /// Reads `reader` to its end. `views` picks views by name (empty: all of them); `from` and
    /// `to` cut the time window (ms; default: the whole trace).
    public static func read(
        _ reader: TraceFileReader, views: [String] = [], from: Double? = nil, to: Double? = nil
    ) throws -> TracePlotData {
        try read(file: reader.path == "-" ? "<stdin>" : reader.path, views: views, from: from, to: to) {
            try reader.next()
        }
    }

    /// Reads records from `next` until it returns nil (tests hand records over directly).
    public static func read(
        file: String, views: [String] = [], from: Double? = nil, to: Double? = nil,
        next: () throws -> TraceRecord?
    ) throws -> TracePlotData {
        if let from, let to, from >= to {
            throw TracePlotError("--from \(ms(from)) is not before --to \(ms(to))")
        }
        let wanted = Set(views)
        var order: [String] = []
        var found: [String: Found] = [:]
        var first: Double?
        var last = 0.0
        var count = 0
        while let record = try next() {
            count += 1
            // The earliest and latest times: a file's reader keeps its records in order, but
            // records handed over directly may come in any order.
            first = min(first ?? record.t, record.t)
            last = count == 1 ? record.t : max(last, record.t)
            let name: String
            switch record {
            case .frame(let f): name = f.view
            case .delegate(let d): name = d.view
            case .recognizer(let r):
                // Shown on its view's panel, when that view is a plotted scroll view.
                guard let view = r.view else { continue }
                name = view
            }
            if found[name] == nil {
                order.append(name)
                found[name] = Found()
            }
            guard wanted.isEmpty || wanted.contains(name) else { continue }
            switch record {
            case .frame(let f):
                found[name]!.add(
                    .init(t: f.t, offset: f.contentOffset, phase: f.phase, restingRange: f.restingRange),
                    from: from, to: to)
            case .delegate(let d):
                found[name]!.firstDelegateLine = found[name]!.firstDelegateLine ?? d.line
                let inside = (from.map { d.t >= $0 } ?? true) && (to.map { d.t <= $0 } ?? true)
                if inside && !TracePlotSeries.noise.contains(d.name) { found[name]!.events.append(d) }
            case .recognizer(let r):
                // A marker like a delegate call's, named "recognizer state"; `possible` (a
                // reset) and `changed` (every move) would only crowd the axis.
                let inside = (from.map { r.t >= $0 } ?? true) && (to.map { r.t <= $0 } ?? true)
                guard inside, r.state != "possible", r.state != "changed" else { continue }
                found[name]!.events.append(
                    TraceDelegateRecord(
                        line: r.line, t: r.t, view: name, name: "\(r.name) \(r.state)", recognizer: true))
            }
        }
        guard let first, count > 0 else {
            throw TracePlotError(
                "\(file): the trace has no records (an empty file? `scrollway play SCRIPT --trace FILE` writes one)")
        }
        let span = first...last
        if let from, from > last {
            throw TracePlotError("--from \(ms(from)) is after the trace's last record (t = \(ms(last)) ms)")
        }
        if let to, to < first {
            throw TracePlotError("--to \(ms(to)) is before the trace's first record (t = \(ms(first)) ms)")
        }
        let picked = wanted.isEmpty ? order : unique(views)
        for name in picked where found[name] == nil {
            throw TracePlotError(
                "\(file): no scroll view named \(ScriptText.quoted(name, quote: "'")) in the trace "
                    + "(views: \(order.map { ScriptText.quoted($0, quote: "'") }.joined(separator: ", ")))")
        }
        for name in picked where !found[name]!.hasFrames {
            throw TracePlotError(
                "\(file): view \(ScriptText.quoted(name, quote: "'")) has delegate records (the first on line "
                    + "\(found[name]!.firstDelegateLine ?? 0)) but no frame records, so there is no offset to plot")
        }
        let start = from ?? first
        var end = to ?? last
        // A trace of one instant still gets a time axis: a millisecond wide.
        if end <= start { end = start + 1 }
        return TracePlotData(
            file: file,
            series: picked.map { TracePlotSeries(view: $0, samples: found[$0]!.kept, events: found[$0]!.events) },
            window: start...end, span: span)
    }

    /// What one view has gathered while reading.
    private struct Found {
        var samples: [TracePlotSeries.Sample] = []
        var before: TracePlotSeries.Sample?
        var tookAfter = false
        var hasFrames = false
        var events: [TraceDelegateRecord] = []
        var firstDelegateLine: Int?

        mutating func add(_ s: TracePlotSeries.Sample, from: Double?, to: Double?) {
            hasFrames = true
            if let from, s.t < from {
                before = s
                return
            }
            if let before {
                samples.append(before)
                self.before = nil
            }
            if let to, s.t > to {
                if !tookAfter { samples.append(s) }
                tookAfter = true
                return
            }
            samples.append(s)
        }

        /// The samples, with the last one before the window when nothing came after it (the
        /// view was still from then on: that frame's state holds across the window).
        var kept: [TracePlotSeries.Sample] { before.map { samples + [$0] } ?? samples }
    }

    private static func unique(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }

    static func ms(_ t: Double) -> String { t.messageText }
}
