import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews
import Testing

/// A frame's phases (`Window.phases`), timed with a clock the test moves: each phase holds
/// exactly the time its own work took, and nothing else's.
@MainActor
@Suite struct FramePhasesTests {
    /// The window's phase clock, which stands still unless the work below moves it (by binary
    /// fractions of a second, so that every difference is exact).
    @MainActor
    final class Clock {
        var now = 1024.0
        var reads = 0
        /// How far each reading moves it on.
        var step = 0.0
        func read() -> Double {
            reads += 1
            now += step
            return now
        }
    }

    /// An animation that costs `cost` seconds of the clock a step, and moves a view a point.
    @MainActor
    final class Mover: FrameAnimation {
        let clock: Clock
        let view: View
        let cost: Double
        init(clock: Clock, view: View, cost: Double) {
            (self.clock, self.view, self.cost) = (clock, view, cost)
        }
        func advance(to time: Double) -> Bool {
            clock.now += cost
            view.frame.origin.x += 1
            return true
        }
    }

    /// A view whose drawing costs `cost` seconds of the clock, and whose layout `layoutCost`.
    @MainActor
    final class CostlyView: View {
        let clock: Clock
        let cost: Double
        let layoutCost: Double
        init(frame: Rect, clock: Clock, cost: Double, layoutCost: Double = 0) {
            (self.clock, self.cost, self.layoutCost) = (clock, cost, layoutCost)
            super.init(frame: frame)
        }
        override var drawsContent: Bool { true }
        override func draw(in canvas: Canvas) {
            clock.now += cost
            canvas.clear(.black)
        }
        override func layoutSubviews() {
            super.layoutSubviews()
            clock.now += layoutCost
        }
    }

    @Test func eachPhaseHoldsItsOwnWork() throws {
        let clock = Clock()
        let window = Window(size: Size(width: 64, height: 48))
        window.phaseClock = { clock.read() }
        let parent = CostlyView(frame: Rect(x: 0, y: 0, width: 64, height: 48), clock: clock, cost: 0, layoutCost: 0.5)
        let drawn = CostlyView(frame: Rect(x: 4, y: 4, width: 10, height: 10), clock: clock, cost: 0.125)
        parent.addSubview(drawn)
        window.addSubview(parent)
        let canvas = try Canvas(width: 64, height: 48)
        window.composite(into: canvas)
        _ = try window.prepareFrameUpdate(time: 0)

        // Frame 1: the animation moves `drawn` (a quarter second), the parent lays out (half a
        // second), `drawn` does not draw again (it only moved).
        let mover = Mover(clock: clock, view: drawn, cost: 0.25)
        window.addAnimation(mover)
        parent.setNeedsLayout()
        _ = try window.prepareFrameUpdate(time: 1)
        #expect(window.phases.animate == 0.25)
        #expect(window.phases.layout == 0.5)
        #expect(window.phases.draw == 0)
        #expect(window.phases.damage == 0)
        #expect(window.phases.plan == 0 && window.phases.paint == 0)

        // Frame 2: `drawn` draws again (an eighth); the animation's step still costs a quarter.
        drawn.setNeedsDisplay()
        _ = try window.prepareFrameUpdate(time: 2)
        #expect(window.phases.animate == 0.25)
        #expect(window.phases.layout == 0)
        #expect(window.phases.draw == 0.125)
        #expect(window.phases.damage == 0)

        // Compositing the update adds its planning and painting (the clock stands still: zero,
        // but counted): a frame's phases start again at the next prepare.
        clock.now += 0.25  // between frames: in no phase
        window.composite(into: canvas)
        #expect(window.phases.animate == 0.25)
        #expect(window.phases.draw == 0.125)
        #expect(window.phases.plan == 0 && window.phases.paint == 0)
        _ = try window.prepareFrameUpdate(time: 3)
        #expect(window.phases == FramePhases(animate: 0.25))
    }

    /// Without a clock nothing is timed, and no phase is set.
    @Test func withoutAClockNothingIsTimed() throws {
        let clock = Clock()
        let window = Window(size: Size(width: 32, height: 32))
        let view = CostlyView(frame: Rect(x: 0, y: 0, width: 8, height: 8), clock: clock, cost: 0.125)
        window.addSubview(view)
        window.addAnimation(Mover(clock: clock, view: view, cost: 0.25))
        _ = try window.prepareFrameUpdate(time: 0)
        _ = try window.prepareFrameUpdate(time: 1)
        #expect(clock.now > 1024)
        #expect(clock.reads == 0)
        #expect(window.phases == FramePhases())
    }

    /// Planning and painting a composite are timed apart, each with its own work.
    @Test func planningAndPaintingAreTimedApart() throws {
        let clock = Clock()
        let window = Window(size: Size(width: 32, height: 32))
        window.addSubview(CostlyView(frame: Rect(x: 0, y: 0, width: 8, height: 8), clock: clock, cost: 0))
        _ = try window.prepareFrameUpdate(time: 0)
        // Each reading an eighth of a second on: a phase is the readings taken inside it.
        clock.step = 0.125
        window.phaseClock = { clock.read() }
        let canvas = try Canvas(width: 32, height: 32)
        let area = PixelRegion(PixelRect(x: 0, y: 0, width: 32, height: 32))
        let work = window.compositeWork(area, scale: 1)
        window.paint(work, into: canvas)
        #expect(window.phases.plan == 0.125)
        #expect(window.phases.paint == 0.125)
        #expect(clock.reads == 4)
    }
}
