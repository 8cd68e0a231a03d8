import ScrollwayGeometry
import ScrollwayPlot
import ScrollwayReplay
import ScrollwayScripts
import ScrollwayScrolling
import Testing

// Trace records built in code, for the plot's tests.

/// A frame record for `view` at `t` with the offset at (x, y).
func traceFrame(
    _ t: Double, _ y: Double, _ phase: TracePhase = .idle, x: Double = 0, view: String = "main"
) -> TraceRecord {
    .frame(TraceFrameRecord(line: 0, t: t, view: view, contentOffset: Point(x: x, y: y), phase: phase))
}

func traceCall(_ t: Double, _ name: String, view: String = "main", velocity: Point? = nil) -> TraceRecord {
    .delegate(TraceDelegateRecord(line: 0, t: t, view: view, name: name, velocity: velocity))
}

func tracePlotData(
    _ records: [TraceRecord], views: [String] = [], from: Double? = nil, to: Double? = nil
) throws -> TracePlotData {
    var rest = records[...]
    return try TracePlotData.read(file: "test.jsonl", views: views, from: from, to: to) { rest.popFirst() }
}

/// A drag from 100 to 300 px between 200 and 400 ms, flat before and after, frames every 16 ms.
let dragTrace: [TraceRecord] = {
    var records: [TraceRecord] = []
    for i in 0...40 {
        let t = Double(i) * 16
        let y = t <= 200 ? 100 : t >= 400 ? 300 : 100 + (t - 200)
        let phase: TracePhase = t < 200 ? .idle : t < 400 ? .dragging : .decelerating
        if t == 208 { records.append(traceCall(208, "scrollViewWillBeginDragging")) }
        if t == 400 { records.append(traceCall(400, "scrollViewWillEndDragging", velocity: Point(x: 0, y: 1))) }
        records.append(traceFrame(t, y, phase))
        if t == 304 { records.append(traceCall(304, "scrollViewDidScroll")) }
    }
    return records
}()

@Suite struct PlotScaleTests {
    /// Records handed over directly in any order (a file's reader keeps them in order) give
    /// the earliest and latest times as the trace's span: the plot fuzzer found a trap here,
    /// `first...last` with the last record earlier than the first.
    @Test func recordsOutOfOrderSpanFromTheEarliestToTheLatest() throws {
        let data = try tracePlotData([traceFrame(40, 1), traceFrame(10, 2), traceFrame(25, 3)])
        #expect(data.span == 10...40)
        #expect(data.window == 10...40)
    }

    @Test func aScaleMapsItsDomainOntoItsPixelsAndBack() {
        let x = PlotScale(domain: 0...1000, start: 100, end: 1100)
        #expect(x(0) == 100)
        #expect(x(500) == 600)
        #expect(x(1000) == 1100)
        #expect(x.value(at: 350) == 250)
        // A vertical scale runs upwards: the domain's bottom at the larger y.
        let y = PlotScale(domain: -60...240, start: 400, end: 100)
        #expect(y(-60) == 400)
        #expect(y(0) == 340)
        #expect(y(240) == 100)
    }

    @Test func ticksFallOnOneTwoOrFiveTimesAPowerOfTen() {
        #expect(PlotScale.niceStep(1763, count: 6) == 500)
        #expect(PlotScale.niceStep(10, count: 5) == 2)
        #expect(PlotScale.niceStep(0.9, count: 3) == 0.5)
        #expect(PlotScale(domain: -65...1698, start: 0, end: 1).ticks(count: 6) == [0, 500, 1000, 1500])
        #expect(
            PlotScale(domain: 0...5000, start: 0, end: 1).ticks(count: 10)
                == stride(from: 0.0, through: 5000, by: 500).map { $0 })
    }

    @Test func labelsCarryTheDecimalsTheStepNeedsAMinusSignAndTheUnitOnTheLargest() {
        #expect(PlotScale.label(-60, step: 20) == "−60")
        #expect(PlotScale.label(0.5, step: 0.5) == "0.5")
        #expect(PlotScale.label(-0.0001, step: 1) == "0")
        #expect(PlotScale.label(1500, step: 500) == "1500")
        let labels = PlotScale(domain: 0...1000, start: 0, end: 1).tickLabels(count: 2, unit: "ms")
        #expect(labels.map(\.text) == ["0", "500", "1000 ms"])
    }

    @Test func aPaddedDomainLeavesRoomAndAFlatSeriesStillGetsAnAxis() {
        #expect(PlotScale.paddedDomain(covering: 0, 100) == -5...105)
        #expect(PlotScale.paddedDomain(covering: 42, 42) == 37...47)
    }
}

@Suite struct TracePlotDataTests {
    @Test func velocitiesComeFromConsecutiveFramesInPixelsPerSecond() throws {
        let s = try tracePlotData([
            traceFrame(0, 0), traceFrame(10, 10), traceFrame(20, 30),
        ]).series[0]
        #expect(s.velocitySteps.map(\.velocity.y) == [1000, 2000])
        #expect(s.velocitySteps.map(\.start) == [0, 10])
    }

    /// A frame is recorded only when something is drawn: after a quiet stretch the change
    /// happened in the last frame period, not spread over the stretch.
    @Test func aQuietStretchIsStillUntilItsLastFramePeriod() throws {
        let s = try tracePlotData([
            traceFrame(0, 0), traceFrame(16, 0), traceFrame(32, 0),
            traceFrame(500, 48),
        ]).series[0]
        #expect(s.period == 16)
        #expect(s.velocitySteps.last == .init(start: 484, end: 500, velocity: Point(x: 0, y: 3000)))
        #expect(s.velocitySteps.dropLast().last == .init(start: 32, end: 484, velocity: .zero))
        let path = s.offsetPath(in: 0...600)
        #expect(path.map(\.t) == [0, 16, 32, 484, 500, 600])
        #expect(path.map(\.value) == [0, 0, 0, 0, 48, 48])
    }

    @Test func noiseCallsAreLeftOutAndTheRestKeptInOrder() throws {
        let s = try tracePlotData(dragTrace).series[0]
        #expect(s.events.map(\.name) == ["scrollViewWillBeginDragging", "scrollViewWillEndDragging"])
        #expect(s.events[1].velocity == Point(x: 0, y: 1))
    }

    @Test func aTimeWindowKeepsOneFrameEitherSideAndCutsTheCurveAtItsEdges() throws {
        let d = try tracePlotData(dragTrace, from: 300, to: 350)
        #expect(d.window == 300...350)
        #expect(d.span == 0...640)
        let s = d.series[0]
        #expect(s.samples.first?.t == 288 && s.samples.last?.t == 352)
        #expect(s.events.isEmpty)  // 208 and 400 are outside
        let path = s.offsetPath(in: d.window)
        #expect(path.first == .init(t: 300, value: 200))
        #expect(path.last == .init(t: 350, value: 250))
    }

    @Test func viewsArePickedByNameInTheOrderAsked() throws {
        let records = [
            traceFrame(0, 0, view: "main"), traceFrame(0, 5, view: "notes"),
            traceFrame(16, 0, view: "pager"),
        ]
        #expect(try tracePlotData(records).series.map(\.view) == ["main", "notes", "pager"])
        #expect(try tracePlotData(records, views: ["pager", "main"]).series.map(\.view) == ["pager", "main"])
        #expect(
            throws: TracePlotError(
                "test.jsonl: no scroll view named 'list' in the trace (views: 'main', 'notes', 'pager')")
        ) {
            try tracePlotData(records, views: ["list"])
        }
    }

    @Test func anEmptyTraceAndAWindowOutsideTheTraceSaySo() throws {
        #expect(
            throws: TracePlotError(
                "test.jsonl: the trace has no records (an empty file? `scrollway play SCRIPT --trace FILE` writes one)")
        ) { try tracePlotData([]) }
        #expect(throws: TracePlotError("--from 700 is after the trace's last record (t = 640 ms)")) {
            try tracePlotData(dragTrace, from: 700)
        }
        #expect(
            throws: TracePlotError(
                "test.jsonl: view 'notes' has delegate records (the first on line 0) but no frame records, so there is no offset to plot"
            )
        ) {
            try tracePlotData([
                traceFrame(0, 0), traceCall(5, "scrollViewWillBeginDragging", view: "notes"),
            ])
        }
    }
}

/// The trace's phases are the scroll view's.
@Suite struct TracePhaseTests {
    /// Every phase the trace writer can write, the reader knows.
    @Test func everyPhaseOfTheScrollViewIsAPhaseOfTheTrace() {
        let all: [ScrollView.Phase] = [.idle, .tracking, .dragging, .decelerating, .bouncing, .animating, .zooming]
        for p in all {
            // Exhaustive: a new phase stops this compiling until it is added above.
            switch p {
            case .idle, .tracking, .dragging, .decelerating, .bouncing, .animating, .zooming: break
            }
        }
        #expect(all.map { TracePhase(rawValue: $0.rawValue) } == TracePhase.allCases)
    }
}

@Suite struct RecognizerMarkerTests {
    @Test func aRecognizersBeginningsAndEndsAreMarkersOnItsViewsPanel() throws {
        var records = dragTrace
        for (t, state) in [(200.0, "began"), (216.0, "changed"), (400.0, "ended"), (400.0, "possible")] {
            records.append(.recognizer(TraceRecognizerRecord(line: 0, t: t, view: "main", name: "pan", state: state)))
        }
        // One on a view that is not a scroll view in the trace, one on no named view: no panel.
        records.append(.recognizer(TraceRecognizerRecord(line: 0, t: 300, view: "row", name: "tap", state: "ended")))
        records.append(.recognizer(TraceRecognizerRecord(line: 0, t: 300, view: nil, name: "exit", state: "ended")))
        let data = try tracePlotData(records, views: ["main"])
        let events = data.series[0].events
        #expect(events.filter(\.recognizer).map(\.name) == ["pan began", "pan ended"])
        #expect(
            events.filter { !$0.recognizer }.map(\.name) == [
                "scrollViewWillBeginDragging", "scrollViewWillEndDragging",
            ])
    }
}
