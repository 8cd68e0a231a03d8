import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayViews

/// Drives a window on a virtual clock at a fixed refresh rate, with events at their own times:
/// frames run at n/refresh up to an event's time, the clock is set to that time (timers due
/// before it fire first), and the event is handled. Tests and tools that drive a window by
/// hand use it; the script player keeps its own order (a frame's due events before the
/// clock), which traces are recorded with.
@MainActor
public final class FrameDriver {
    public let window: Window
    public let refresh: Double
    /// The clock's time, seconds.
    public private(set) var time = 0.0
    /// Frames run so far.
    public private(set) var frame = 0
    /// After every frame the driver runs; `true` when the window prepared (drew) that frame.
    public var afterFrame: ((Bool) -> Void)?

    /// Prepares the window's first frame at time 0.
    public init(window: Window, refresh: Double = 60) {
        precondition(refresh > 0 && refresh.isFinite, "a refresh rate is a positive number of Hz")
        self.window = window
        self.refresh = refresh
        _ = try? window.prepareFrame(time: 0)
    }

    /// Runs the frames up to `t` (timers fall due on the way), then sets the clock to `t`.
    public func run(until t: Double) {
        while Double(frame + 1) / refresh <= t + 1e-12 {
            frame += 1
            let ft = Double(frame) / refresh
            window.advanceClock(to: ft)
            let prepares = window.needsFrame
            if prepares { _ = try? window.prepareFrame(time: ft) }
            afterFrame?(prepares)
        }
        window.advanceClock(to: t)
        time = max(time, t)
    }

    public func advance(by dt: Double) { run(until: time + dt) }

    /// Handles an event at `t` (now, if nil), after the frames before it.
    public func send(_ kind: InputEvent.Kind, at t: Double? = nil) {
        if let t { run(until: t) }
        window.handle(InputEvent(time: time, kind))
    }

    /// Runs until nothing animates and no timer waits, for at most `limit` seconds more.
    public func settle(limit: Double = 20) {
        let end = time + limit
        while time < end && (window.hasActiveAnimations || window.nextTimerDeadline != nil) {
            advance(by: 1 / refresh)
        }
    }

    /// A finger drag from `a` to `b` over `duration` s, moving every 8 ms (whatever the refresh
    /// rate), then lifting unless `lift` is false.
    public func drag(from a: Point, to b: Point, duration: Double, id: Int = 1, lift: Bool = true) {
        send(.touchDown(id: id, position: a))
        let steps = max(1, Int((duration / 0.008).rounded()))
        let t0 = time
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            send(
                .touchMotion(id: id, position: Point(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f)),
                at: t0 + duration * f)
        }
        if lift { send(.touchUp(id: id)) }
    }
}
