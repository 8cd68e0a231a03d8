import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayScripts

extension TracePlot {
    /// The plot's colours. Curves, markers and rules are opaque, so a pixel on one is exactly
    /// its colour (what the tests check); y is blue and x magenta in both panels.
    public enum Palette {
        public static let background = Color.white
        public static let panel = Color(rgb: 250, 250, 252)
        public static let frame = Color(rgb: 196, 196, 204)
        public static let grid = Color(rgb: 232, 232, 238)
        public static let zero = Color(rgb: 150, 150, 158)
        public static let text = Color(rgb: 36, 36, 42)
        public static let secondaryText = Color(rgb: 108, 108, 118)
        public static let offsetY = Color(rgb: 0, 88, 208)
        public static let offsetX = Color(rgb: 200, 0, 110)
        public static let restingEdgeY = Color(rgb: 110, 150, 215)
        public static let restingEdgeX = Color(rgb: 225, 125, 175)

        /// Light enough for dark text on it.
        public static func phase(_ p: TracePhase) -> Color {
            switch p {
            case .idle: return Color(rgb: 226, 226, 232)
            case .tracking: return Color(rgb: 255, 222, 110)
            case .dragging: return Color(rgb: 132, 214, 142)
            case .decelerating: return Color(rgb: 138, 196, 255)
            case .bouncing: return Color(rgb: 255, 146, 136)
            case .animating: return Color(rgb: 204, 166, 238)
            case .zooming: return Color(rgb: 255, 190, 112)
            }
        }

        /// One colour per family of delegate calls: the drag's, the deceleration's, the
        /// animation's, the zoom's, the inset's.
        /// A recognizer's state change (`rowSwipe began`) is teal.
        public static func marker(_ event: TraceDelegateRecord) -> Color {
            event.recognizer ? Color(rgb: 0, 128, 128) : marker(event.name)
        }

        public static func marker(_ name: String) -> Color {
            if name.hasSuffix("Dragging") { return Color(rgb: 28, 128, 52) }
            if name.hasSuffix("Decelerating") { return Color(rgb: 0, 104, 160) }
            if name.contains("Animation") { return Color(rgb: 130, 60, 170) }
            if name.contains("Zoom") { return Color(rgb: 190, 80, 0) }
            if name.contains("Inset") { return Color(rgb: 150, 100, 30) }
            return Color(rgb: 90, 90, 100)
        }
    }

    /// Draws the plot into a new canvas of `size` at scale 1.
    public func render() throws -> Canvas {
        let canvas = try Canvas(size: size)
        canvas.clear(Palette.background)
        text(title, fonts.title, at: titleRect.origin, Palette.text, on: canvas)
        for panel in panels { draw(panel, on: canvas) }
        for (item, at) in legend { item.draw(at: at, fonts: fonts, on: canvas) }
        return canvas
    }

    private func draw(_ p: Panel, on canvas: Canvas) {
        // The header: the view's name, what is shown, and markers left without a label.
        text(p.series.view, fonts.header, at: p.header.origin, Palette.text, on: canvas)
        let calls = p.series.events.count { !$0.recognizer }
        var note = "\(calls) delegate call\(calls == 1 ? "" : "s")"
        let changes = p.series.events.count - calls
        if changes > 0 { note += ", \(changes) recognizer change\(changes == 1 ? "" : "s")" }
        if p.unlabelledMarkers > 0 {
            note += ", \(p.unlabelledMarkers) unlabelled (too close together: narrow the time with --from/--to)"
        }
        let nameWidth = fonts.header.width(of: p.series.view)
        text(
            note, fonts.label, at: Point(x: p.header.minX + nameWidth + 10, y: p.header.minY + 2),
            Palette.secondaryText, on: canvas)

        for rect in [p.offset, p.velocity] { canvas.fill(rect, color: Palette.panel) }
        drawGrid(p, on: canvas)
        drawRestingEdges(p, on: canvas)
        drawMarkers(p, on: canvas)
        // Zero velocity.
        let zeroY = p.velocityScale(0).rounded(.down)
        if zeroY >= p.velocity.minY, zeroY < p.velocity.maxY {
            canvas.fill(Rect(x: p.velocity.minX, y: zeroY, width: p.velocity.width, height: 1), color: Palette.zero)
        }
        canvas.withClip([p.offset]) {
            for (horizontal, points) in p.offsetPaths {
                stroke(points, scale: p.offsetScale, color: horizontal ? Palette.offsetX : Palette.offsetY, on: canvas)
            }
        }
        canvas.withClip([p.velocity]) {
            for (horizontal, points) in p.velocityPaths {
                stroke(
                    points, scale: p.velocityScale, color: horizontal ? Palette.offsetX : Palette.offsetY, on: canvas)
            }
            // The release velocity scrollViewWillEndDragging reported, beside the derived one.
            for m in p.markers {
                guard let v = m.event.velocity else { continue }
                let values = p.series.movesHorizontally ? [v.y, v.x] : [v.y]
                for value in values {
                    let c = Point(x: time(m.event.t), y: p.velocityScale(value * 1000))
                    canvas.fillEllipse(
                        in: Rect(x: c.x - 3.5, y: c.y - 3.5, width: 7, height: 7), color: Palette.marker(m.event))
                }
            }
        }
        drawPhases(p, on: canvas)
        for rect in [p.offset, p.velocity, p.phases] { frame(rect, on: canvas) }
        drawLabels(p, on: canvas)
    }

    private func drawGrid(_ p: Panel, on canvas: Canvas) {
        let timeTicks = time.ticks(count: timeTickCount)
        for (rect, scale, count) in [
            (p.offset, p.offsetScale, Self.offsetTicks), (p.velocity, p.velocityScale, Self.velocityTicks),
        ] {
            for t in timeTicks {
                canvas.fill(
                    Rect(x: time(t).rounded(.down), y: rect.minY, width: 1, height: rect.height), color: Palette.grid)
            }
            for v in scale.ticks(count: count) {
                let y = scale(v).rounded(.down)
                guard y >= rect.minY, y < rect.maxY else { continue }
                canvas.fill(Rect(x: rect.minX, y: y, width: rect.width, height: 1), color: Palette.grid)
            }
        }
    }

    /// The resting range's edges, dashed, where they fall inside the offset panel: a curve past
    /// one is overscrolled (a rubber band, a pull to refresh).
    private func drawRestingEdges(_ p: Panel, on canvas: Canvas) {
        for run in Self.edgeRuns(p.series, in: data.window) {
            let y = p.offsetScale(run.value).rounded(.down)
            guard y >= p.offset.minY, y < p.offset.maxY else { continue }
            let color = run.horizontal ? Palette.restingEdgeX : Palette.restingEdgeY
            // Dashes on a fixed 6 px grid, so an edge that moves and comes back lines up.
            let end = time(run.end)
            var x = (time(run.start) / 6).rounded(.up) * 6
            while x < end {
                canvas.fill(Rect(x: x, y: y, width: min(3, end - x), height: 1), color: color)
                x += 6
            }
        }
    }

    /// One resting edge's value from `start` to `end` (ms), on x or y.
    typealias EdgeRun = (horizontal: Bool, value: Double, start: Double, end: Double)

    /// Each resting edge as runs of one value over time: frames that agree are joined, so the
    /// dashes of a long edge are even rather than cut at every frame.
    static func edgeRuns(_ s: TracePlotSeries, in window: ClosedRange<Double>) -> [EdgeRun] {
        var runs: [EdgeRun] = []
        var open: [Int: Int] = [:]  // edge (0…3) → index of its run still growing
        for (i, sample) in s.samples.enumerated() {
            let start = max(sample.t, window.lowerBound)
            let end = min(i + 1 < s.samples.count ? s.samples[i + 1].t : window.upperBound, window.upperBound)
            guard end > start, let r = sample.restingRange else {
                if sample.restingRange == nil { open = [:] }
                continue
            }
            var edges = [(false, r.y.lowerBound), (false, r.y.upperBound)]
            if s.movesHorizontally { edges += [(true, r.x.lowerBound), (true, r.x.upperBound)] }
            for (k, (horizontal, value)) in edges.enumerated() {
                if let j = open[k], runs[j].value == value, runs[j].end == start {
                    runs[j].end = end
                } else {
                    open[k] = runs.count
                    runs.append((horizontal, value, start, end))
                }
            }
        }
        return runs
    }

    /// Each call's line, from its label's row down through both panels.
    private func drawMarkers(_ p: Panel, on canvas: Canvas) {
        for m in p.markers {
            let top = m.labelRect?.minY ?? p.offset.minY
            canvas.fill(
                Rect(x: m.x, y: top, width: 1, height: p.velocity.maxY - top), color: Palette.marker(m.event))
        }
        for m in p.markers {
            guard let r = m.labelRect else { continue }
            canvas.fill(r.insetBy(dx: -1, dy: 0), color: Palette.background)
            text(m.label, fonts.label, at: r.origin, Palette.marker(m.event), on: canvas)
        }
    }

    private func drawPhases(_ p: Panel, on canvas: Canvas) {
        for span in p.series.phaseSpans(in: data.window) {
            let x0 = time(span.start).rounded()
            let x1 = time(span.end).rounded()
            guard x1 > x0 else { continue }
            let rect = Rect(x: x0, y: p.phases.minY, width: x1 - x0, height: p.phases.height)
            canvas.fill(rect, color: Palette.phase(span.phase))
            let name = span.phase.rawValue
            let w = fonts.tick.width(of: name)
            if w + 8 <= rect.width {
                text(
                    name, fonts.tick,
                    at: Point(
                        x: (rect.midX - w / 2).rounded(), y: rect.minY + (rect.height - fonts.tick.lineHeight) / 2),
                    Palette.text, on: canvas)
            }
        }
    }

    /// Tick labels: values left of each panel (every other one when they would touch), times
    /// under the phase band.
    private func drawLabels(_ p: Panel, on canvas: Canvas) {
        for (rect, scale, count, unit) in [
            (p.offset, p.offsetScale, Self.offsetTicks, "px"),
            (p.velocity, p.velocityScale, Self.velocityTicks, "px/s"),
        ] {
            let labels = scale.tickLabels(count: count, unit: unit)
            guard labels.count > 0 else { continue }
            let spacing = labels.count > 1 ? abs(scale(labels[1].value) - scale(labels[0].value)) : .infinity
            let every = Int(clamping: (fonts.tick.lineHeight + 1) / spacing, rounding: .up, in: 1...Int.max)
            for (i, l) in labels.enumerated().reversed() where (labels.count - 1 - i) % every == 0 {
                let y = (scale(l.value) - fonts.tick.lineHeight / 2).rounded()
                let clampedY = min(max(y, rect.minY - fonts.tick.lineHeight / 2), rect.maxY - fonts.tick.lineHeight / 2)
                let w = fonts.tick.width(of: l.text)
                text(
                    l.text, fonts.tick, at: Point(x: rect.minX - 6 - w, y: clampedY), Palette.secondaryText, on: canvas)
            }
        }
        let labels = time.tickLabels(count: timeTickCount, unit: "ms")
        var lastEnd = -Double.infinity
        for l in labels {
            let w = fonts.tick.width(of: l.text)
            let x = min(max(time(l.value) - w / 2, p.timeLabels.minX - 8), size.width - 4 - w).rounded()
            guard x > lastEnd + 6 else { continue }
            canvas.fill(
                Rect(x: time(l.value).rounded(.down), y: p.phases.maxY, width: 1, height: 3), color: Palette.frame)
            text(l.text, fonts.tick, at: Point(x: x, y: p.timeLabels.minY + 1), Palette.secondaryText, on: canvas)
            lastEnd = x + w
        }
    }

    var timeTickCount: Int { Int(clamping: (time.end - time.start) / 110, in: 2...1000) }

    /// A 1 px outline just outside `rect`.
    private func frame(_ rect: Rect, on canvas: Canvas) {
        canvas.fill(Rect(x: rect.minX - 1, y: rect.minY - 1, width: rect.width + 2, height: 1), color: Palette.frame)
        canvas.fill(Rect(x: rect.minX - 1, y: rect.maxY, width: rect.width + 2, height: 1), color: Palette.frame)
        canvas.fill(Rect(x: rect.minX - 1, y: rect.minY, width: 1, height: rect.height), color: Palette.frame)
        canvas.fill(Rect(x: rect.maxX, y: rect.minY, width: 1, height: rect.height), color: Palette.frame)
    }

    /// A curve 2 px wide through `points` (time, value), reduced first to what one device column
    /// can show (its first, lowest, highest and last point), so an hour of frames costs no more
    /// to draw than the picture is wide.
    private func stroke(_ points: [TracePlotSeries.PathPoint], scale: PlotScale, color: Color, on canvas: Canvas) {
        let mapped = Self.reduced(points.map { Point(x: time($0.t), y: scale($0.value)) })
        let width = 2.0
        for (a, b) in zip(mapped, mapped.dropFirst()) {
            canvas.strokeLine(from: a, to: b, lineWidth: width, color: color)
        }
        // Round joins: butt caps alone leave a notch where the curve turns.
        for p in mapped.dropFirst().dropLast() {
            canvas.fillEllipse(
                in: Rect(x: p.x - width / 2, y: p.y - width / 2, width: width, height: width), color: color)
        }
    }

    /// Per device column, the first, lowest, highest and last point, in their order.
    static func reduced(_ points: [Point]) -> [Point] {
        var out: [Point] = []
        var i = 0
        while i < points.count {
            let column = points[i].x.rounded(.down)
            var j = i
            var lo = i
            var hi = i
            while j + 1 < points.count, points[j + 1].x.rounded(.down) == column {
                j += 1
                if points[j].y < points[lo].y { lo = j }
                if points[j].y > points[hi].y { hi = j }
            }
            for k in Set([i, lo, hi, j]).sorted() where out.last != points[k] { out.append(points[k]) }
            i = j + 1
        }
        return out
    }

    /// One line of text with its top-left corner at `origin`, never wrapped.
    func text(_ s: String, _ font: Font, at origin: Point, _ color: Color, on canvas: Canvas) {
        let layout = font.layout(s)
        let rect = Rect(
            x: origin.x, y: origin.y, width: layout.size.width + 4, height: font.metrics().lineHeight + 2)
        canvas.drawText(layout, font: font, in: rect, color: color)
    }
}

/// One entry of the legend under the panels.
enum LegendItem {
    case line(Color, String)
    case dashed(Color, String)
    case dot(Color, String)
    case swatch(Color, String)

    /// What the plot needs explained: the curves drawn, the resting edges and release dots if
    /// any, and every phase (a band's colour must be readable without its word in it).
    static func items(for data: TracePlotData) -> [LegendItem] {
        var items: [LegendItem] = [.line(TracePlot.Palette.offsetY, "offset y, velocity y")]
        if data.series.contains(where: \.movesHorizontally) {
            items.append(.line(TracePlot.Palette.offsetX, "offset x, velocity x"))
        }
        if data.series.contains(where: { $0.samples.contains { $0.restingRange != nil } }) {
            if data.series.contains(where: \.movesHorizontally) {
                items.append(.dashed(TracePlot.Palette.restingEdgeY, "resting range edge y"))
                items.append(.dashed(TracePlot.Palette.restingEdgeX, "resting range edge x"))
            } else {
                items.append(.dashed(TracePlot.Palette.restingEdgeY, "resting range edge"))
            }
        }
        if data.series.contains(where: { $0.events.contains { $0.velocity != nil } }) {
            items.append(
                .dot(
                    TracePlot.Palette.marker("scrollViewWillEndDragging"), "release velocity (willEndDragging)"))
        }
        items += TracePhase.allCases.map { .swatch(TracePlot.Palette.phase($0), $0.rawValue) }
        return items
    }

    var text: String {
        switch self {
        case .line(_, let t), .dashed(_, let t), .dot(_, let t), .swatch(_, let t): return t
        }
    }

    func width(_ fonts: Fonts) -> Double { 22 + fonts.label.width(of: text).rounded(.up) }

    typealias Flow = (items: [(item: LegendItem, at: Point)], height: Double)

    /// Items left to right, wrapping at `width`; positions relative to the legend's top.
    static func flow(_ items: [LegendItem], fonts: Fonts, left: Double, width: Double) -> Flow {
        let rowHeight = fonts.label.lineHeight + 4
        var x = left
        var y = 0.0
        var placed: [(item: LegendItem, at: Point)] = []
        for item in items {
            let w = item.width(fonts)
            // The phases start a line of their own: curves on one, phases on the next.
            let firstPhase: Bool
            if case .swatch = item, case .swatch? = placed.last?.item {
                firstPhase = false
            } else if case .swatch = item {
                firstPhase = true
            } else {
                firstPhase = false
            }
            if x > left, firstPhase || x + w > left + width {
                x = left
                y += rowHeight
            }
            placed.append((item, Point(x: x, y: y)))
            x += w + 16
        }
        return (placed, y + rowHeight)
    }

    func draw(at p: Point, fonts: Fonts, on canvas: Canvas) {
        let mid = (p.y + fonts.label.lineHeight / 2).rounded(.down)
        switch self {
        case .line(let c, _):
            canvas.fill(Rect(x: p.x, y: mid - 1, width: 16, height: 2), color: c)
        case .dashed(let c, _):
            for dx in stride(from: 0.0, to: 16, by: 6) {
                canvas.fill(Rect(x: p.x + dx, y: mid, width: 3, height: 1), color: c)
            }
        case .dot(let c, _):
            canvas.fillEllipse(in: Rect(x: p.x + 4.5, y: mid - 3.5, width: 7, height: 7), color: c)
        case .swatch(let c, _):
            canvas.fill(Rect(x: p.x, y: mid - 5, width: 16, height: 10), color: c)
        }
        let layout = fonts.label.layout(text)
        canvas.drawText(
            layout, font: fonts.label,
            in: Rect(x: p.x + 22, y: p.y, width: layout.size.width + 4, height: fonts.label.lineHeight + 2),
            color: TracePlot.Palette.text)
    }
}
