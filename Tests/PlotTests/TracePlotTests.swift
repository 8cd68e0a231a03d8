import ScrollwayGeometry
import ScrollwayPlot
import ScrollwayRaster
import ScrollwayReplay
import ScrollwayScripts
import Testing

@Suite struct TracePlotPictureTests {
    @Test func theOffsetCurvePassesThroughThePixelsOfItsValues() throws {
        let plot = try TracePlot(
            tracePlotData(dragTrace), size: Size(width: 1000, height: 600), title: "drag")
        let canvas = try plot.render()
        let panel = plot.panels[0]
        let curve = TracePlot.Palette.offsetY.premultipliedARGB
        // Off the time grid (every 100 ms here), so the pixels around are the panel's.
        for (t, y) in [(150.0, 100.0), (550, 300)] {
            let px = Int(clamping: plot.time(t), rounding: .down)
            let py = Int(clamping: panel.offsetScale(y), rounding: .down)
            #expect(canvas.pixel(x: px, y: py) == curve, "(t \(t), y \(y)) at (\(px), \(py))")
            // And not a band of blue over the whole panel: 6 px away is the panel's own colour.
            #expect(canvas.pixel(x: px, y: py - 6) == TracePlot.Palette.panel.premultipliedARGB)
        }
        // Where the value is 100, nothing is drawn at 300.
        let x150 = Int(clamping: plot.time(150), rounding: .down)
        #expect(canvas.pixel(x: x150, y: Int(clamping: panel.offsetScale(300), rounding: .down)) != curve)
    }

    /// Whatever numbers the trace reader lets through draw: a flat offset at the largest
    /// magnitude, offsets swinging between the extremes, and time steps far below the writer's
    /// microsecond (issue 36, items 3 and 4: a precondition, and Int of infinity in the labels).
    @Test(arguments: [
        [traceFrame(0, 1e12), traceFrame(16, 1e12), traceFrame(32, 1e12)],
        [traceFrame(0, 1e12), traceFrame(16, -1e12), traceFrame(32, 1e12)],
        [traceFrame(0, 0), traceFrame(1e-300, 1e12), traceFrame(2e-300, -1e12), traceFrame(16, 0)],
        [traceFrame(0, -1e12, x: 1e12), traceFrame(1e12, 1e12, x: -1e12)],
    ])
    func theExtremesTheReaderAcceptsAreDrawn(records: [TraceRecord]) throws {
        let plot = try TracePlot(tracePlotData(records), size: Size(width: 800, height: 500), title: "extremes")
        let canvas = try plot.render()
        #expect(canvas.width == 800)
        for p in plot.panels {
            #expect(p.offsetScale.domain.upperBound > p.offsetScale.domain.lowerBound)
            #expect(p.velocityScale.domain.upperBound.isFinite && p.velocityScale.domain.lowerBound.isFinite)
        }
    }

    @Test func anOffsetThatMovesAcrossIsDrawnTooInItsOwnColour() throws {
        var records = (0...20).map { i in traceFrame(Double(i) * 16, 0, .dragging, x: i <= 10 ? 0 : 400) }
        records.insert(traceCall(176, "scrollViewWillEndDragging", velocity: Point(x: 2, y: 0)), at: 12)
        let plot = try TracePlot(tracePlotData(records), size: Size(width: 1000, height: 600), title: "across")
        let canvas = try plot.render()
        let panel = plot.panels[0]
        #expect(panel.offsetPaths.map(\.horizontal) == [false, true])
        #expect(panel.markers[0].label == "willEndDragging v=(2000, 0) px/s")
        let x = Int(clamping: plot.time(250), rounding: .down)
        #expect(
            canvas.pixel(x: x, y: Int(clamping: panel.offsetScale(400), rounding: .down))
                == TracePlot.Palette.offsetX.premultipliedARGB)
        #expect(
            canvas.pixel(x: x, y: Int(clamping: panel.offsetScale(0), rounding: .down))
                == TracePlot.Palette.offsetY.premultipliedARGB)
    }

    @Test func theVelocityPanelShowsTheDerivedSpeed() throws {
        let plot = try TracePlot(
            tracePlotData(dragTrace), size: Size(width: 1000, height: 600), title: "drag")
        let canvas = try plot.render()
        let panel = plot.panels[0]
        // 1 px per ms while dragging: 1000 px/s, flat between 240 and 360 ms.
        let px = Int(clamping: plot.time(300), rounding: .down)
        let py = Int(clamping: panel.velocityScale(1000), rounding: .down)
        #expect(canvas.pixel(x: px, y: py) == TracePlot.Palette.offsetY.premultipliedARGB)
        #expect(panel.velocityScale.domain.contains(0) && panel.velocityScale.domain.upperBound < 1200)
    }

    @Test func aDelegateMarkerIsDrawnAtItsTimesColumnWithItsLabel() throws {
        let plot = try TracePlot(
            tracePlotData(dragTrace), size: Size(width: 1000, height: 600), title: "drag")
        let canvas = try plot.render()
        let panel = plot.panels[0]
        let marker = try #require(panel.markers.first)
        #expect(marker.label == "willBeginDragging")
        #expect(panel.markers[1].label == "willEndDragging v=1000 px/s")
        let x = plot.time(208).rounded(.down)
        #expect(marker.x == x)
        let color = TracePlot.Palette.marker("scrollViewWillBeginDragging").premultipliedARGB
        // Near the offset panel's top (the curve is at 100–300, far below at 208 ms) and in the
        // velocity panel's lower part (the speed is ≥ 0 here).
        for y in [panel.offset.minY + 3, panel.velocity.maxY - 2] {
            #expect(canvas.pixel(x: Int(clamping: x), y: Int(clamping: y)) == color, "y \(y)")
            #expect(canvas.pixel(x: Int(clamping: x) + 2, y: Int(clamping: y)) != color)
        }
        let label = try #require(marker.labelRect)
        #expect(label.minX == x + 3 && label.maxY <= panel.offset.minY)
    }

    @Test func thePhaseBandIsColouredByPhaseAtEachTime() throws {
        let plot = try TracePlot(
            tracePlotData(dragTrace), size: Size(width: 1000, height: 600), title: "drag")
        let canvas = try plot.render()
        let band = plot.panels[0].phases
        for (t, phase) in [(100.0, TracePhase.idle), (250, .dragging), (600, .decelerating)] {
            let x = Int(clamping: plot.time(t), rounding: .down)
            #expect(
                canvas.pixel(x: x, y: Int(clamping: band.minY)) == TracePlot.Palette.phase(phase).premultipliedARGB,
                "\(t)")
        }
    }

    @Test func tooManyViewsForTheHeightIsAnErrorThatSaysWhatToDo() throws {
        let records = (0..<6).map { traceFrame(0, 0, view: "v\($0)") }
        do {
            _ = try TracePlot(tracePlotData(records), size: Size(width: 800, height: 400), title: "")
            Issue.record("six views fitted in 400 px")
        } catch {
            #expect("\(error)".hasPrefix("--size: 400 px is too short for 6 views"))
        }
        // Two of them fit in a little more.
        let two = try TracePlot(
            tracePlotData(records, views: ["v0", "v1"]), size: Size(width: 800, height: 520), title: "")
        #expect(two.panels.map(\.series.view) == ["v0", "v1"])
    }

    @Test func theSamePlotDrawsTheSameBytes() throws {
        let a = try PNG.encode(
            TracePlot(tracePlotData(dragTrace), size: Size(width: 600, height: 400), title: "x")
                .render())
        let b = try PNG.encode(
            TracePlot(tracePlotData(dragTrace), size: Size(width: 600, height: 400), title: "x")
                .render())
        #expect(a == b)
    }
}
