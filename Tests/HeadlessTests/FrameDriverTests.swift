import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayHeadless
import ScrollwayScripts
import ScrollwayViews
import Testing

/// The frame driver's order, which the player, the bench and the tests all rely on: frames at
/// n/refresh, events and timers interleaved by their times, an event at a frame's time before
/// that frame.
@MainActor
@Suite struct FrameDriverTests {
    /// Keeps the window drawing every frame until `until`, logging each frame's time.
    final class Ticker: FrameAnimation {
        let until: Double
        let log: (String) -> Void
        init(until: Double, log: @escaping (String) -> Void) {
            self.until = until
            self.log = log
        }
        func advance(to time: Double) -> Bool {
            log("frame \(Int(clamping: time * 60, rounding: .toNearestOrAwayFromZero))")
            return time < until
        }
    }

    final class Log {
        var lines: [String] = []
        func callAsFunction(_ line: String) { lines.append(line) }
    }

    @Test func eventsAndTimersInterleaveByTimeAndAFramesEventsComeBeforeIt() throws {
        let window = Window(size: Size(width: 100, height: 100))
        let log = Log()
        let driver = FrameDriver(window: window)
        window.addAnimation(Ticker(until: 1, log: log.callAsFunction))
        window.schedule(at: 0.04) { log("timer 0.04") }
        window.schedule(at: 0.06) { log("timer 0.06") }
        // Exactly at frame 3's time: in before frame 3, after the timer due before it.
        try driver.perform(at: driver.frameTime(3)) { log("event at frame 3") }
        #expect(log.lines == ["frame 1", "frame 2", "timer 0.04", "event at frame 3"])
        driver.advance(to: 0.07)
        #expect(log.lines.suffix(3) == ["frame 3", "timer 0.06", "frame 4"])
        #expect(driver.time == 0.07 && window.now == 0.07)
    }

    @Test func scheduledEventsGoInWhenFramesReachThemAfterTheFramesStart() {
        let window = Window(size: Size(width: 100, height: 100))
        let log = Log()
        let driver = FrameDriver(window: window)
        window.addAnimation(Ticker(until: 1, log: log.callAsFunction))
        driver.beforeFrame = { t in log("start \(Int(clamping: t * 60, rounding: .toNearestOrAwayFromZero))") }
        driver.schedule(at: 0.02) { log("action at 0.02") }
        driver.schedule(at: 0.01) { log("action at 0.01") }
        driver.advance(to: driver.frameTime(2))
        #expect(
            log.lines == [
                "start 1", "action at 0.01", "frame 1", "start 2", "action at 0.02", "frame 2",
            ])
    }

    @Test func quietStretchesAreCrossedInOneStepOnlyWhenAsked() throws {
        for skips in [false, true] {
            let window = Window(size: Size(width: 100, height: 100))
            let driver = FrameDriver(window: window, skipsQuietFrames: skips)
            driver.settle()
            let before = driver.framesStepped
            // An hour of silence, then an event: the frame it goes into still runs.
            var delivered = false
            try driver.perform(at: 3600) { delivered = true }
            driver.settle()
            #expect(delivered)
            #expect(driver.frame == 216_000)
            #expect((driver.framesStepped - before > 1_000) == !skips)
        }
    }

    @Test func aScriptGoesInEventByEventAtItsTimesFromTheStartGiven() {
        let window = Window(size: Size(width: 100, height: 100))
        let driver = FrameDriver(window: window)
        var b = ScriptBuilder()
        b.key("Shift_L", at: 10, hold: 100)
        b.add(.windowResize(width: 200, height: 50), at: 50)
        driver.send(b.script, from: 1)
        #expect(driver.time == 1.11)
        #expect(window.bounds.size == Size(width: 200, height: 50))
    }

    @Test func settlingWaitsForWhatIsScheduled() {
        let window = Window(size: Size(width: 100, height: 100))
        let driver = FrameDriver(window: window)
        var ran = false
        driver.schedule(at: 0.5) { ran = true }
        driver.settle()
        #expect(ran)
        #expect(driver.frame == 30)
    }

    struct DrawFailed: Error {}

    @Test func aFrameThatFailsToDrawStopsTheDriver() {
        let window = Window(size: Size(width: 100, height: 100))
        let driver = FrameDriver(window: window) { t in if t > 0.02 { throw DrawFailed() } }
        window.addAnimation(Ticker(until: 1) { _ in })
        #expect(throws: DrawFailed.self) { try driver.perform(at: 0.5) {} }
        #expect(driver.frame == 2 && driver.failure is DrawFailed)
        driver.advance(to: 1)
        #expect(driver.frame == 2)
    }
}
