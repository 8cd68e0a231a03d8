import ScrollwayGeometry
import ScrollwayRaster

/// A tappable rounded rectangle with a centred title. It highlights while a finger is on it,
/// fires `onTap` when the finger lifts inside, and does nothing when the touch is cancelled
/// (a scroll view took the touch over).
open class Button: Control {
    public var title: String { didSet { setNeedsDisplay() } }
    public var font: Font? { didSet { setNeedsDisplay() } }
    public var titleColor: Color = .white { didSet { setNeedsDisplay() } }
    public var fillColor: Color = .tint { didSet { setNeedsDisplay() } }
    /// The fill while highlighted (darker by default).
    public var highlightedFillColor: Color? { didSet { setNeedsDisplay() } }
    public var cornerRadius: Double = 8 { didSet { setNeedsDisplay() } }
    public var onTap: (() -> Void)?

    public private(set) var isHighlighted = false {
        didSet { if isHighlighted != oldValue { setNeedsDisplay() } }
    }
    /// How often the button fired (for tests and traces).
    public private(set) var tapCount = 0

    public init(title: String = "", frame: Rect = .zero) {
        self.title = title
        super.init(frame: frame)
    }

    open override var drawsContent: Bool { true }

    var currentFill: Color {
        if isHighlighted {
            return highlightedFillColor
                ?? Color(
                    red: fillColor.red * 0.7, green: fillColor.green * 0.7, blue: fillColor.blue * 0.7,
                    alpha: fillColor.alpha)
        }
        return fillColor
    }

    open override func draw(in canvas: Canvas) {
        let rect = Rect(origin: .zero, size: bounds.size)
        canvas.fillRoundedRect(rect, radius: cornerRadius, color: currentFill)
        guard let font = font ?? Font.standard else { return }
        let layout = font.layout(title, maxWidth: rect.width - 2 * cornerRadius, maxLines: 1, scale: canvas.scale)
        let h = layout.size.height
        canvas.drawText(
            layout, font: font, in: Rect(x: 0, y: (rect.height - h) / 2, width: rect.width, height: h),
            color: titleColor, alignment: .center)
    }

    open override func touchesBegan(_ touches: [Touch]) { isHighlighted = true }

    open override func touchesMoved(_ touches: [Touch]) {
        guard let t = touches.first else { return }
        isHighlighted = bounds.insetBy(dx: -20, dy: -20).contains(convert(t.location, from: nil))
    }

    open override func touchesEnded(_ touches: [Touch]) {
        let inside =
            touches.first.map { bounds.insetBy(dx: -20, dy: -20).contains(convert($0.location, from: nil)) } ?? false
        isHighlighted = false
        if inside {
            tapCount += 1
            onTap?()
        }
    }

    open override func touchesCancelled(_ touches: [Touch]) { isHighlighted = false }

    open override func sizeThatFits(_ size: Size) -> Size {
        let w = (font ?? Font.standard)?.width(of: title, scale: window?.scale ?? 1) ?? 0
        return Size(width: w + 4 * cornerRadius, height: 44)
    }
}
