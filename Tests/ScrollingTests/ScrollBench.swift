import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayPhysics
import ScrollwayScrolling
import ScrollwayViews

/// A scroll view in a window driven by a manual clock at a fixed refresh rate: the offscreen
/// platform in miniature. Events are handled at their own times; frames run at n/hz.
final class ScrollBench {
    let window: Window
    let scroll: ScrollView
    let content: View
    let hz: Double
    private(set) var time = 0.0
    private var frame = 0
    var events: [ScrollEvent] = []
    /// Every frame's offset (for jump and overshoot checks).
    var offsets: [Point] = []
    /// Keeps a test's delegate alive (ScrollView.delegate is weak, as in UIKit).
    var retainedDelegate: AnyObject?

    init(
        viewport: Size = Size(width: 390, height: 844), content size: Size = Size(width: 390, height: 12000),
        hz: Double = 60, scale: Double = 1, scrollView: ScrollView? = nil
    ) {
        self.hz = hz
        window = Window(size: viewport, scale: scale)
        scroll = scrollView ?? ScrollView()
        scroll.frame = Rect(origin: .zero, size: viewport)
        scroll.name = "main"
        content = View(frame: Rect(origin: .zero, size: size))
        scroll.addSubview(content)
        scroll.contentSize = size
        window.addSubview(scroll)
        scroll.eventObserver = { [unowned self] _, e in self.events.append(e) }
        _ = try? window.prepareFrame(time: 0)
    }

    /// Delegate events without the didScroll/didZoom noise.
    var callbacks: [ScrollEvent] { events.filter { $0 != .didScroll && $0 != .didZoom } }

    /// Runs frames (and due timers) up to time `t`, then sets the clock to `t`.
    func run(until t: Double) {
        while Double(frame + 1) / hz <= t + 1e-12 {
            frame += 1
            let ft = Double(frame) / hz
            window.advanceClock(to: ft)
            if window.needsFrame {
                _ = try? window.prepareFrame(time: ft)
                offsets.append(scroll.contentOffset)
            }
        }
        window.advanceClock(to: t)
        time = max(time, t)
    }

    func advance(by dt: Double) { run(until: time + dt) }

    /// Runs until nothing animates (at most `limit` seconds more).
    func settle(limit: Double = 20) {
        let end = time + limit
        while time < end && (window.hasActiveAnimations || window.nextTimerDeadline != nil) {
            advance(by: 1 / hz)
        }
    }

    func send(_ kind: InputEvent.Kind, at t: Double? = nil) {
        if let t { run(until: t) }
        window.handle(InputEvent(time: time, kind))
    }

    /// A finger drag from `a` to `b` over `duration`, moving every 8 ms (independent of hz), then
    /// lifting (unless `lift` is false).
    func drag(from a: Point, to b: Point, duration: Double, id: Int = 1, lift: Bool = true) {
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

/// A delegate that records and can re-aim the target.
final class RecordingDelegate: ScrollViewDelegate {
    var retarget: ((Point) -> Point)?
    var zoomView: View?
    func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Point, targetContentOffset: inout Point
    ) {
        if let retarget { targetContentOffset = retarget(targetContentOffset) }
    }
    func viewForZooming(in scrollView: ScrollView) -> View? { zoomView }
}
