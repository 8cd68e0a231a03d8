import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews

/// Records a trace of a window: one frame record per rendered frame for every named scroll view,
/// and one record per delegate callback, in time order. Times are milliseconds from `origin`.
@MainActor
public final class TraceRecorder: WindowObserver {
    public private(set) var writer: TraceWriter
    private let window: Window
    private let origin: Double
    private var frameNumber = 0
    private var views: [(name: String, view: ScrollView)] = []

    /// Attaches to `window` (as one of its observers, and as every named scroll view's event
    /// observer); records go to `output` (kept in memory by default).
    public init(window: Window, origin: Double = 0, output: TraceWriter.Output = .memory) {
        writer = TraceWriter(output: output)
        self.window = window
        self.origin = origin
        var stack: [View] = [window]
        while let v = stack.popLast() {
            if let s = v as? ScrollView, let name = s.name { views.append((name, s)) }
            stack += v.subviews.reversed()
        }
        for (name, s) in views {
            let previous = s.eventObserver
            s.eventObserver = { [unowned self, weak window] view, event in
                previous?(view, event)
                guard event != .didScroll, event != .didZoom else { return }
                self.writer.delegate(t: ((window?.now ?? 0) - self.origin) * 1000, view: name, event)
            }
        }
        window.addObserver(self)
    }

    /// One frame record per named scroll view, taken once the frame is final.
    public func window(_ window: Window, didPrepareFrameAt time: Double) {
        for (name, s) in views {
            writer.frame(
                t: (time - origin) * 1000, number: frameNumber, view: name, s,
                refreshing: s.refreshControl?.isRefreshing ?? false,
                keyboardHeight: s.insetContributions[.keyboard]?.bottom ?? 0)
        }
        frameNumber += 1
    }

    public var text: String { writer.text }
}
