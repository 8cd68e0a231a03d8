import Geometry
import Raster

/// Read-only text. Lays out with its font at the window's scale, wraps to its width when
/// `numberOfLines` is not 1, and truncates with an ellipsis what does not fit. Text is
/// vertically centred in the bounds, as UILabel does.
open class Label: View {
    public var text: String { didSet { if text != oldValue { contentChanged() } } }
    /// nil uses `Font.standard`.
    public var font: Font? { didSet { contentChanged() } }
    public var textColor: Color = .black { didSet { if textColor != oldValue { setNeedsDisplay() } } }
    public var textAlignment: TextAlignment = .left { didSet { setNeedsDisplay() } }
    /// 1 (default): one line, truncated. 0: as many lines as the text needs.
    public var numberOfLines = 1 { didSet { if numberOfLines != oldValue { contentChanged() } } }

    public init(text: String = "", frame: Rect = .zero) {
        self.text = text
        super.init(frame: frame)
    }

    open override var drawsContent: Bool { true }

    public var effectiveFont: Font? { font ?? Font.standard }

    private var scale: Double { window?.scale ?? 1 }

    /// The layout this label draws at its current width.
    public func textLayout(scale: Double) -> TextLayout? {
        effectiveFont?.layout(text, maxWidth: bounds.width, maxLines: numberOfLines, scale: scale)
    }

    open override func draw(in canvas: Canvas) {
        guard let font = effectiveFont, let layout = textLayout(scale: canvas.scale) else { return }
        let h = layout.size.height
        let rect = Rect(x: 0, y: max(0, (bounds.height - h) / 2), width: bounds.width, height: min(h, bounds.height))
        canvas.drawText(layout, font: font, in: rect, color: textColor, alignment: textAlignment)
    }

    open override func sizeThatFits(_ size: Size) -> Size {
        guard let font = effectiveFont else { return .zero }
        let width = size.width.isFinite && size.width < Double.greatestFiniteMagnitude ? size.width : nil
        let layout = font.layout(
            text, maxWidth: numberOfLines == 1 ? nil : width, maxLines: numberOfLines, scale: scale)
        let s = layout.size
        return Size(width: min(s.width.rounded(.up), size.width), height: s.height.rounded(.up))
    }

    private func contentChanged() {
        setNeedsDisplay()
        superview?.setNeedsLayout()
    }
}

extension Font {
    /// The default UI font, DejaVu Sans 15 px; nil only if fontconfig has no DejaVu at all
    /// (then labels draw nothing rather than crash; `Scripts/install-deps.sh` installs it).
    public static let standard: Font? = try? Font.system()
}
