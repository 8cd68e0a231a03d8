import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews

/// Records a trace of a window: one frame record per rendered frame for every named scroll view,
/// one record per delegate callback, and one per state change of a named gesture recognizer,
/// in time order. Times are milliseconds from `origin`.
@MainActor
public final class TraceRecorder: WindowObserver, ScrollEventObserver {
    public private(set) var writer: TraceWriter
    private let window: Window
    private let origin: Double
    private var frameNumber = 0
    private var views: [(name: String, view: ScrollView)] = []

    /// Attaches to `window` (as one of its observers, and as an event observer of every named
    /// scroll view); records go to `output` (kept in memory by default).
    public init(window: Window, origin: Double = 0, output: TraceWriter.Output = .memory) {
        writer = TraceWriter(output: output)
        self.window = window
        self.origin = origin
        var stack: [View] = [window]
        while let v = stack.popLast() {
            if let s = v as? ScrollView, let name = s.name { views.append((name, s)) }
            stack += v.subviews.reversed()
        }
        for (_, s) in views { s.addEventObserver(self) }
        window.addObserver(self)
    }

    /// One record per delegate callback of a named scroll view (scrolls and zooms show in the
    /// frame records instead).
    public func scrollView(_ scrollView: ScrollView, didSend event: ScrollEvent) {
        guard event != .didScroll, event != .didZoom,
            let name = views.first(where: { $0.view === scrollView })?.name
        else { return }
        writer.delegate(t: (window.now - origin) * 1000, view: name, event)
    }

    /// One record per state change of a named gesture recognizer (an app's, or a scroll view's
    /// own pan or pinch once named), so a plot shows why a gesture went one way.
    public func window(
        _ window: Window, gestureRecognizer: GestureRecognizer, didChangeTo state: GestureRecognizer.State
    ) {
        guard let name = gestureRecognizer.name else { return }
        writer.recognizer(
            t: (window.now - origin) * 1000, name: name, view: gestureRecognizer.view?.name, state: state.rawValue)
    }

    /// One frame record per named scroll view, taken once the frame is final.
    public func window(_ window: Window, didPrepareFrameAt time: Double) {
        defer { frameNumber += 1 }
        guard writer.keepsRecords else { return }
        for (name, s) in views {
            writer.frame(
                t: (time - origin) * 1000, number: frameNumber, view: name, s,
                refreshing: s.refreshControl?.isRefreshing ?? false,
                keyboardHeight: s.insetContributions[.keyboard]?.bottom ?? 0)
        }
    }

    /// Records the window as it stands, as the frame for `time`: a run that joins a window
    /// already drawn (a compositor's, settled before its script starts) begins its trace with
    /// it, as an offscreen run's begins with the frame drawn at time 0 (a weston run in which
    /// nothing moved had an empty trace).
    public func recordCurrentFrame(at time: Double) { window(window, didPrepareFrameAt: time) }

    public var text: String { writer.text }
}
