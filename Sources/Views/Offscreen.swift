import ScrollwayGeometry
import ScrollwayRaster

/// Rendering without a compositor: for tests, tools and the headless platform.
@MainActor
public enum Offscreen {
    /// Renders a window's whole tree into a new canvas at the window's scale, at `time` (by
    /// default the window's own clock, so running animations are not rewound). The frame waits
    /// for background work (tiles drawn on worker threads) and shows it: the picture never
    /// depends on thread timing.
    public static func render(_ window: Window, time: Double? = nil) throws -> Canvas {
        let canvas = try Canvas(size: window.bounds.size, scale: window.scale)
        let waited = window.waitsForBackgroundWork
        window.waitsForBackgroundWork = true
        defer { window.waitsForBackgroundWork = waited }
        try window.prepareFrame(time: time ?? window.now)
        window.composite(into: canvas)
        return canvas
    }

    /// Renders `view` alone as the content of a `size` window at `scale`. The view is moved into
    /// a temporary window at its current frame and returned to where it was afterwards.
    public static func render(_ view: View, size: Size, scale: Double = 1, clearColor: Color = .white) throws -> Canvas
    {
        let parent = view.superview
        let index = parent?.subviews.firstIndex { $0 === view }
        let window = Window(size: size, scale: scale)
        window.clearColor = clearColor
        window.addSubview(view)
        defer {
            view.removeFromSuperview()
            if let parent, let index { parent.insertSubview(view, at: index) }
        }
        return try render(window)
    }

    /// Renders and encodes as PNG.
    public static func png(_ window: Window) throws -> [UInt8] { try PNG.encode(render(window)) }
}
