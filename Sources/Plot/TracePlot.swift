import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayScripts

/// A trace as a picture: for each scroll view, stacked, its offset over time (y, and x when x
/// moves) with the resting range's edges, its velocity between frames, a band coloured by
/// phase, and its delegate calls as labelled vertical markers, over one shared time axis.
///
/// Everything is placed here, before anything is drawn, and kept (`panels`, `time`): the
/// drawing reads these rects and scales, and so do tests, which ask where a value lands
/// instead of hard-coding pixels. Drawing uses the project's own `Canvas` and `Font`, so a plot
/// needs no display and comes out the same, byte for byte, for the same trace.
public struct TracePlot {
    /// A delegate call's marker.
    public struct Marker: Equatable, Sendable {
        public var event: TraceDelegateRecord
        /// Where the marker's line is drawn: the device column `floor(time(event.t))`.
        public var x: Double
        public var label: String
        /// nil when the label found no room in the lane above the panel (markers too dense).
        public var labelRect: Rect?
    }

    /// One scroll view's rows of the picture.
    public struct Panel: Sendable {
        public var series: TracePlotSeries
        /// The view's name and notes.
        public var header: Rect
        /// Marker labels, in rows.
        public var labelLane: Rect
        public var offset: Rect
        public var velocity: Rect
        public var phases: Rect
        /// Under the phase band: the time axis's labels.
        public var timeLabels: Rect
        /// Offset (px) to picture y in `offset`.
        public var offsetScale: PlotScale
        /// Velocity (px/s) to picture y in `velocity`.
        public var velocityScale: PlotScale
        public var markers: [Marker]
        /// What is drawn, in values: the offset per axis and the velocity per axis.
        public var offsetPaths: [(horizontal: Bool, points: [TracePlotSeries.PathPoint])]
        public var velocityPaths: [(horizontal: Bool, points: [TracePlotSeries.PathPoint])]
        public var unlabelledMarkers: Int { markers.filter { $0.labelRect == nil }.count }
    }

    public static let defaultSize = Size(width: 1200, height: 800)
    /// A plot needs room for its axes' labels; beyond 8192 px a side it is no longer a picture
    /// anyone looks at whole.
    public static let widthRange = 480.0...8192
    public static let heightRange = 240.0...8192
    /// The least height an offset and a velocity panel share, per view.
    static let minimumPanelHeight = 100.0
    /// Rows of marker labels above a panel, at most; markers beyond are drawn unlabelled.
    static let maximumLabelRows = 6

    public let data: TracePlotData
    public let size: Size
    public let title: String
    /// Time (ms) to picture x, shared by every panel.
    public let time: PlotScale
    public let panels: [Panel]
    /// The legend's items and where each goes.
    let legend: [(item: LegendItem, at: Point)]
    let titleRect: Rect
    let fonts: Fonts

    public init(_ data: TracePlotData, size: Size = TracePlot.defaultSize, title: String) throws {
        guard Self.widthRange.contains(size.width), Self.heightRange.contains(size.height),
            size.width == size.width.rounded(), size.height == size.height.rounded()
        else {
            throw TracePlotError(
                "--size: expected whole pixels from \(Self.widthRange.lowerBound.messageText)x\(Self.heightRange.lowerBound.messageText) "
                    + "to \(Self.widthRange.upperBound.messageText)x\(Self.heightRange.upperBound.messageText), "
                    + "got \(size.width)x\(size.height)")
        }
        let fonts = try Fonts()
        self.data = data
        self.size = size
        self.title = title
        self.fonts = fonts
        let margin = 12.0
        let window = data.window

        // Values first: what each panel draws decides its axis labels, and so the gutter.
        struct Values {
            var offsetPaths: [(horizontal: Bool, points: [TracePlotSeries.PathPoint])]
            var velocityPaths: [(horizontal: Bool, points: [TracePlotSeries.PathPoint])]
            var offsetDomain: ClosedRange<Double>
            var velocityDomain: ClosedRange<Double>
        }
        let values = data.series.map { s -> Values in
            let axes = s.movesHorizontally ? [false, true] : [false]
            let offsets: [(horizontal: Bool, points: [TracePlotSeries.PathPoint])] = axes.map {
                ($0, s.offsetPath(horizontal: $0, in: window))
            }
            let velocities: [(horizontal: Bool, points: [TracePlotSeries.PathPoint])] = axes.map {
                ($0, s.velocityPath(horizontal: $0, in: window))
            }
            let o: [Double] = offsets.flatMap { $0.points.map(\.value) }
            var v: [Double] = velocities.flatMap { $0.points.map(\.value) } + [0]
            for e in s.events {
                if let r = e.velocity { v += axes.map { $0 ? r.x * 1000 : r.y * 1000 } }
            }
            return Values(
                offsetPaths: offsets, velocityPaths: velocities,
                offsetDomain: PlotScale.paddedDomain(covering: o.min() ?? 0, o.max() ?? 0),
                velocityDomain: PlotScale.paddedDomain(covering: v.min()!, v.max()!, minimumHalfSpan: 50))
        }
        let labelWidths = values.flatMap { v in
            [(v.offsetDomain, Self.offsetTicks, "px"), (v.velocityDomain, Self.velocityTicks, "px/s")].flatMap {
                domain, count, unit in
                PlotScale(domain: domain, start: 0, end: 1).tickLabels(count: count, unit: unit).map {
                    fonts.tick.width(of: $0.text)
                }
            }
        }
        // Left of the panels: the widest value label and a little air.
        let gutter = (labelWidths.max() ?? 20) + 8
        let plotLeft = (margin + gutter).rounded()
        let plotRight = size.width - 16
        let time = PlotScale(domain: window, start: plotLeft, end: plotRight)
        self.time = time

        // Then across: each view's marker labels in rows, which decides how tall its lane is.
        let markers = data.series.map { Self.placeMarkers($0, time: time, font: fonts.label, right: plotRight) }

        // Then down: title, the views, the legend.
        titleRect = Rect(x: margin, y: 8, width: size.width - 2 * margin, height: fonts.title.lineHeight)
        let legendItems = LegendItem.items(for: data)
        let placedLegend = LegendItem.flow(
            legendItems, fonts: fonts, left: plotLeft, width: plotRight - plotLeft)
        let legendTop = size.height - 8 - placedLegend.height
        let rowHeight = fonts.label.lineHeight + 2
        let laneHeights = markers.map { m -> Double in
            guard let lowest = m.compactMap(\.labelRect).map(\.minY).max() else { return 0 }
            return lowest + rowHeight
        }
        let overhead = fonts.header.lineHeight + 4 + 4 + 10 + 4 + Self.phaseBandHeight + 2 + fonts.tick.lineHeight + 14
        let top = titleRect.maxY + 10
        let free = legendTop - 6 - top - laneHeights.reduce(0, +) - overhead * Double(data.series.count)
        let each = (free / Double(max(1, data.series.count))).rounded(.down)
        guard each >= Self.minimumPanelHeight else {
            throw TracePlotError(
                "--size: \(size.height.messageText) px is too short for \(data.series.count) view"
                    + "\(data.series.count == 1 ? "" : "s") (each needs \(Self.minimumPanelHeight.messageText) px for its "
                    + "panels besides labels); give a taller --size or pick views with --view")
        }
        var y = top
        var panels: [Panel] = []
        for (i, s) in data.series.enumerated() {
            let header = Rect(x: margin, y: y, width: size.width - 2 * margin, height: fonts.header.lineHeight)
            y = header.maxY + 4
            let lanes = Rect(x: plotLeft, y: y, width: plotRight - plotLeft, height: laneHeights[i])
            y = lanes.maxY + 4
            let offsetHeight = (each * 0.62).rounded()
            let offset = Rect(x: plotLeft, y: y, width: plotRight - plotLeft, height: offsetHeight)
            let velocity = Rect(x: plotLeft, y: offset.maxY + 10, width: offset.width, height: each - offsetHeight)
            let phases = Rect(x: plotLeft, y: velocity.maxY + 4, width: offset.width, height: Self.phaseBandHeight)
            let timeLabels = Rect(x: plotLeft, y: phases.maxY + 2, width: offset.width, height: fonts.tick.lineHeight)
            y = timeLabels.maxY + 14
            let placed = markers[i].map { m -> Marker in
                var m = m
                m.labelRect = m.labelRect?.offsetBy(dx: 0, dy: lanes.minY)
                return m
            }
            panels.append(
                Panel(
                    series: s, header: header, labelLane: lanes, offset: offset, velocity: velocity, phases: phases,
                    timeLabels: timeLabels,
                    offsetScale: PlotScale(domain: values[i].offsetDomain, start: offset.maxY, end: offset.minY),
                    velocityScale: PlotScale(
                        domain: values[i].velocityDomain, start: velocity.maxY, end: velocity.minY),
                    markers: placed, offsetPaths: values[i].offsetPaths, velocityPaths: values[i].velocityPaths))
        }
        self.panels = panels
        legend = placedLegend.items.map { ($0.item, Point(x: $0.at.x, y: $0.at.y + legendTop)) }
    }

    static let offsetTicks = 6
    static let velocityTicks = 4
    static let phaseBandHeight = 16.0

    /// The label a marker carries: the method name without `scrollView`, and the release
    /// velocity (px/s, as the velocity panel shows it) for `scrollViewWillEndDragging`.
    public static func label(for event: TraceDelegateRecord, horizontal: Bool) -> String {
        var name = event.name
        if name.hasPrefix("scrollView"), name.count > "scrollView".count {
            name = String(name.dropFirst("scrollView".count))
            name = name.prefix(1).lowercased() + name.dropFirst()
        }
        guard let v = event.velocity else { return name }
        let y = PlotScale.label(v.y * 1000, step: 1)
        let x = PlotScale.label(v.x * 1000, step: 1)
        return name + (horizontal ? " v=(\(x), \(y)) px/s" : " v=\(y) px/s")
    }

    /// Labels in rows, greedily: each goes right of its line in the first row where it does not
    /// touch the label before it (left of its line when it would leave the plot); calls at the
    /// same time stack. Rects are relative to the lane's top.
    static func placeMarkers(_ s: TracePlotSeries, time: PlotScale, font: Font, right: Double) -> [Marker] {
        var rowEnds: [Double] = []
        let rowHeight = font.lineHeight + 2
        return s.events.map { e in
            let x = time(e.t).rounded(.down)
            let text = label(for: e, horizontal: s.movesHorizontally)
            let width = font.width(of: text).rounded(.up)
            let left = x + 3 + width <= right ? x + 3 : x - 3 - width
            var rect: Rect?
            for row in 0..<maximumLabelRows {
                if row == rowEnds.count { rowEnds.append(-.infinity) }
                if left > rowEnds[row] + 6 {
                    rowEnds[row] = max(left + width, x)
                    rect = Rect(x: left, y: Double(row) * rowHeight, width: width, height: font.lineHeight)
                    break
                }
            }
            return Marker(event: e, x: x, label: text, labelRect: rect)
        }
    }
}

/// The plot's fonts, DejaVu through fcft like every label in the project.
struct Fonts {
    let title: Font
    let header: Font
    let label: Font
    let tick: Font

    init() throws {
        title = try Font.system(size: 15, bold: true)
        header = try Font.system(size: 13, bold: true)
        label = try Font.system(size: 11)
        tick = try Font.system(size: 11)
    }
}

extension Font {
    var lineHeight: Double { metrics().lineHeight }
}
