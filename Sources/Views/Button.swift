import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster

/// A tappable rounded rectangle with a centred title. It highlights while a finger is on it,
/// fires `onTap` when the finger lifts inside, and does nothing when the touch is cancelled
/// (a scroll view took the touch over). Focused by Tab, it shows a ring inside its edge, and
/// Space or Enter fires it as a tap would (highlighted while the key is down, firing on release).
open class Button: PressableControl {
    public var title: String {
        didSet {
            setNeedsDisplay()
            guard !title.isLiterally(oldValue) else { return }
            window?.postAccessibilityNotification(.labelChanged(self))
            invalidateIntrinsicContentSize()
        }
    }
    public var font: Font? {
        didSet {
            setNeedsDisplay()
            invalidateIntrinsicContentSize()
        }
    }
    public var titleColor: Color = .white { didSet { setNeedsDisplay() } }
    public var fillColor: Color = .tint { didSet { setNeedsDisplay() } }
    /// The fill while highlighted (darker by default).
    public var highlightedFillColor: Color? { didSet { setNeedsDisplay() } }
    public var cornerRadius: Double = 8 { didSet { setNeedsDisplay() } }
    /// The focus ring's colour (the title's by default).
    public var focusRingColor: Color? { didSet { setNeedsDisplay() } }
    /// The focus ring's width and its distance inside the button's edge.
    public static let focusRingWidth = 2.0
    public static let focusRingInset = 3.0
    public var onTap: (() -> Void)?

    /// How often the button fired (for tests and traces).
    public private(set) var tapCount = 0

    public init(title: String = "", frame: Rect = .zero) {
        self.title = title
        super.init(frame: frame)
        canBecomeFocused = true
    }

    open override var drawsContent: Bool { true }

    open override var accessibilityDefaults: AccessibilityDefaults {
        AccessibilityDefaults(role: .button, label: title, isElement: true)
    }

    /// Fires as a tap does.
    open override func accessibilityActivate() -> Bool {
        fire()
        return true
    }

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
        canvas.fillRoundedRect(rect, radius: cornerRadius, color: drawn(currentFill))
        if showsFocus {
            let inset = Self.focusRingInset + Self.focusRingWidth / 2
            canvas.strokeRoundedRect(
                rect.insetBy(dx: inset, dy: inset), radius: max(0, cornerRadius - inset),
                lineWidth: Self.focusRingWidth, color: focusRingColor ?? titleColor)
        }
        guard let font = font ?? Font.standard else { return }
        let layout = font.layout(title, maxWidth: rect.width - 2 * cornerRadius, maxLines: 1, scale: canvas.scale)
        let h = layout.size.height
        canvas.drawText(
            layout, font: font, in: Rect(x: 0, y: (rect.height - h) / 2, width: rect.width, height: h),
            color: drawn(titleColor), alignment: .center)
    }

    /// A press that ended inside, or Space or Enter released while focused.
    open override func pressDidComplete() { fire() }

    private func fire() {
        tapCount += 1
        onTap?()
    }

    open override func sizeThatFits(_ size: Size) -> Size {
        let w = (font ?? Font.standard)?.width(of: title, scale: window?.scale ?? 1) ?? 0
        return Size(width: w + 4 * cornerRadius, height: 44)
    }

    /// The title's baseline: one line centred in the height, as `draw` places it.
    open override func baselines(forWidth width: Double) -> Baselines {
        guard let font = font ?? Font.standard else { return .bottom }
        return .centred(lines: 1, metrics: font.metrics(scale: window?.scale ?? 1))
    }

    /// The title's width with the rounded ends, and the 44 points a finger needs.
    open override var intrinsicContentSize: Size {
        sizeThatFits(Size(width: .greatestFiniteMagnitude, height: .greatestFiniteMagnitude))
    }
}
