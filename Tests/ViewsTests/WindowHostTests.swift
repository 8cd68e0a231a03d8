import ScrollwayGeometry
import ScrollwayViews
import Testing

@MainActor
@Suite struct WindowHostTests {
    @MainActor
    /// Runs for a set number of frames, then reports that it is done.
    final class Countdown: FrameAnimation {
        var left: Int
        init(frames: Int) { left = frames }
        func advance(to time: Double) -> Bool {
            left -= 1
            return left > 0
        }
    }

    @Test func aRunningAnimationAsksForTheNextFrameFromInsideEachFrameUntilItEnds() throws {
        let window = Window(size: Size(width: 100, height: 100))
        let host = CountingHost()
        window.host = host
        try window.prepareFrame(time: 0)
        window.addAnimation(Countdown(frames: 2))
        #expect(host.requests == 1)
        try window.prepareFrame(time: 0.016)  // still running: asks again
        #expect(host.requests == 2 && window.needsFrame)
        try window.prepareFrame(time: 0.032)  // done: nothing more is wanted
        #expect(host.requests == 2 && !window.needsFrame)
    }

    /// Asks, once laid out, for the frame after the one being prepared.
    @MainActor
    final class AsksForTheNext: WindowObserver {
        var asks = true
        func window(_ window: Window, didLayOutFrameAt time: Double) {
            if asks { window.setNeedsFrameAfterThis() }
        }
    }

    /// A change made while a frame is prepared is part of it and asks for no other frame;
    /// `setNeedsFrameAfterThis` asks for the next one, once, with no animation left running,
    /// and outside a frame asks for a frame at once.
    @Test func aViewAsksForTheFrameAfterTheOneBeingPrepared() throws {
        let window = Window(size: Size(width: 100, height: 100))
        let host = CountingHost()
        window.host = host
        try window.prepareFrame(time: 0)
        let observer = AsksForTheNext()
        window.addObserver(observer)
        window.backgroundColor = .black
        #expect(host.requests == 1)
        try window.prepareFrame(time: 0.016)
        #expect(host.requests == 2 && window.needsFrame && !window.hasActiveAnimations)
        observer.asks = false
        try window.prepareFrame(time: 0.032)
        #expect(host.requests == 2 && !window.needsFrame)
        window.setNeedsFrameAfterThis()
        #expect(host.requests == 3 && window.needsFrame)
    }

    @Test func theWindowHoldsItsHostWeakly() throws {
        let window = Window(size: Size(width: 100, height: 100))
        var host: CountingHost? = CountingHost()
        window.host = host
        try window.prepareFrame()
        window.backgroundColor = .black
        #expect(host?.requests == 1)
        host = nil
        #expect(window.host == nil)
        try window.prepareFrame()
        window.backgroundColor = .white  // asks nobody, and does not crash
        #expect(window.needsFrame)
    }
}
