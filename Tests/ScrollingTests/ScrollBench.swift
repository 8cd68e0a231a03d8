import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayHeadless
import ScrollwayPhysics
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews

@MainActor
/// A scroll view in a window on the offscreen frame driver (`FrameDriver`): events at their
/// own times, frames at n/hz.
final class ScrollBench {
    let window: Window
    let scroll: ScrollView
    let content: View
    let driver: FrameDriver
    var hz: Double { driver.refresh }
    var time: Double { driver.time }
    var events: [ScrollEvent] = []
    /// Every drawn frame's offset (for jump and overshoot checks).
    var offsets: [Point] = []
    /// Keeps a test's delegate alive (ScrollView.delegate is weak, as in UIKit).
    var retainedDelegate: AnyObject?

    init(
        viewport: Size = Size(width: 390, height: 844), content size: Size = Size(width: 390, height: 12000),
        hz: Double = 60, scale: Double = 1, scrollView: ScrollView? = nil
    ) {
        window = Window(size: viewport, scale: scale)
        scroll = scrollView ?? ScrollView()
        scroll.frame = Rect(origin: .zero, size: viewport)
        scroll.name = "main"
        content = View(frame: Rect(origin: .zero, size: size))
        scroll.addSubview(content)
        scroll.contentSize = size
        window.addSubview(scroll)
        driver = FrameDriver(window: window, refresh: hz)
        scroll.eventObserver = { [unowned self] _, e in self.events.append(e) }
        driver.afterFrame = { [unowned self] drawn in if drawn { self.offsets.append(self.scroll.contentOffset) } }
    }

    /// Delegate events without the didScroll/didZoom noise.
    var callbacks: [ScrollEvent] { events.filter { $0 != .didScroll && $0 != .didZoom } }

    func advance(to t: Double) { driver.advance(to: t) }
    func advance(by dt: Double) { driver.advance(by: dt) }
    func settle(limit: Double = 20) { driver.settle(limit: limit) }
    func send(_ kind: InputEvent.Kind, at t: Double? = nil) { driver.send(kind, at: t) }
    /// Sends what `build` builds, its times in ms from `start` (now if nil); returns the last
    /// event's time.
    @discardableResult
    func send(from start: Double? = nil, _ build: (inout ScriptBuilder) -> Void) -> Double {
        driver.send(from: start, build)
    }

    /// A finger drag from `a` to `b` over `duration` s, moving every 8 ms, then lifting unless
    /// `lift` is false.
    func drag(from a: Point, to b: Point, duration: Double, id: Int = 1, lift: Bool = true) {
        send { $0.drag(from: a, to: b, at: 0, ms: duration * 1000, id: id, lift: lift, step: 8) }
    }
}

@MainActor
extension ScrollBench {
    /// The content zooms: a recording delegate (kept alive by the bench) names it as the view
    /// for zooming, between `minimum` and `maximum`.
    @discardableResult
    func zoomsContent(minimum: Double = 1, maximum: Double) -> RecordingDelegate {
        let d = RecordingDelegate()
        d.zoomView = content
        scroll.delegate = d
        retainedDelegate = d
        scroll.minimumZoomScale = minimum
        scroll.maximumZoomScale = maximum
        return d
    }
}

/// A delegate that records and can re-aim the target.
final class RecordingDelegate: ScrollViewDelegate {
    var retarget: ((Point) -> Point)?
    var zoomView: View?
    /// The velocity the last release was told with (px/ms).
    var lastReleaseVelocity: Point?
    func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Point, targetContentOffset: inout Point
    ) {
        lastReleaseVelocity = velocity
        if let retarget { targetContentOffset = retarget(targetContentOffset) }
    }
    func viewForZooming(in scrollView: ScrollView) -> View? { zoomView }
}
