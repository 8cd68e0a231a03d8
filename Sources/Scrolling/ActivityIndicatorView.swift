import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews

/// A spinner for work of unknown length (UIKit's UIActivityIndicatorView): twelve segments
/// around a circle, fading round, one turn a second while `isAnimating`. Stopped, it is hidden
/// (`hidesWhenStopped`, on by default) or shows its segments still. It is the refresh
/// control's spinner, for a list's "loading more" footer or a page still on its way.
///
/// A screen reader hears a progress indicator, busy while it spins, named "In progress" unless
/// the app names it.
open class ActivityIndicatorView: View, FrameAnimation {
    /// UIKit's two sizes: 20 and 37 points across.
    public enum Style: Sendable {
        case medium, large

        /// The spinner's size (its intrinsic size).
        public var diameter: Double { self == .medium ? 20 : 37 }
    }

    public var style: Style {
        didSet {
            invalidateIntrinsicContentSize()
            setNeedsDisplay()
        }
    }
    public var color = Color(rgb: 120, 120, 128) { didSet { setNeedsDisplay() } }
    /// Whether it is hidden while stopped.
    public var hidesWhenStopped = true { didSet { updateHidden() } }
    public private(set) var isAnimating = false
    /// When the spinning began (the first frame's time), and the turn it stands at.
    private var spinStart: Double?
    private var rotation = 0.0 { didSet { if rotation != oldValue { setNeedsDisplay() } } }

    public init(style: Style = .medium, frame: Rect = .zero) {
        self.style = style
        super.init(frame: frame)
        isUserInteractionEnabled = false
        updateHidden()
    }

    /// Starts spinning (shown, if it hid while stopped).
    public func startAnimating() {
        guard !isAnimating else { return }
        isAnimating = true
        spinStart = nil
        updateHidden()
        window?.addAnimation(self)
        window?.postAccessibilityNotification(.stateChanged(self, .busy, true))
    }

    /// Stops spinning (hidden, if `hidesWhenStopped`).
    public func stopAnimating() {
        guard isAnimating else { return }
        isAnimating = false
        window?.removeAnimation(self)
        window?.postAccessibilityNotification(.stateChanged(self, .busy, false))
        updateHidden()
        setNeedsDisplay()
    }

    private func updateHidden() { isHidden = hidesWhenStopped && !isAnimating }

    /// Spinning on in a new window: the window's frames turn it.
    open override func didMoveToWindow() {
        super.didMoveToWindow()
        if isAnimating { window?.addAnimation(self) }
    }

    public func advance(to time: Double) -> Bool {
        guard isAnimating else { return false }
        if spinStart == nil { spinStart = time }
        rotation = (time - (spinStart ?? time)) * 2 * Double.pi  // one turn a second
        return true
    }

    open override var intrinsicContentSize: Size { Size(width: style.diameter, height: style.diameter) }
    open override func sizeThatFits(_ size: Size) -> Size { intrinsicContentSize }

    open override var drawsContent: Bool { true }

    open override func draw(in canvas: Canvas) {
        let outer = style.diameter / 2
        Self.drawSegments(
            in: canvas, centre: Point(x: bounds.midX, y: bounds.midY), inner: outer / 2, outer: outer,
            lineWidth: style == .medium ? 2 : 3, rotation: rotation, lit: nil, color: color)
    }

    /// Twelve segments around `centre` from radius `inner` to `outer`: with `lit` nil, all of
    /// them, fading round from the one at `rotation` (radians from the top); else the first
    /// `lit` of them full and the rest faint, still (a refresh control's pull).
    static func drawSegments(
        in canvas: Canvas, centre c: Point, inner: Double, outer: Double, lineWidth: Double, rotation: Double,
        lit: Int?, color: Color
    ) {
        let n = 12
        for i in 0..<n {
            let a = Double(i) / Double(n) * 2 * Double.pi + (lit == nil ? rotation : 0) - Double.pi / 2
            let fade = lit.map { i < $0 ? 1 : 0.15 } ?? (0.25 + 0.75 * Double(n - i) / Double(n))
            let dir = Point(x: cosine(a), y: sine(a))
            canvas.strokeLine(
                from: c + dir * inner, to: c + dir * outer, lineWidth: lineWidth,
                color: color.withAlpha(color.alpha * fade))
        }
    }

    open override var accessibilityDefaults: AccessibilityDefaults {
        AccessibilityDefaults(role: .progressIndicator, label: "In progress", isElement: true)
    }

    open override var accessibilityExtraStates: AccessibilityStates { isAnimating ? .busy : [] }
}
