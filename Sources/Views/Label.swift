import ScrollwayGeometry
import ScrollwayRaster

/// Read-only text. Lays out with its font at the window's scale, wraps to its width when
/// `numberOfLines` is not 1, and truncates with an ellipsis what does not fit. Text is
/// vertically centred in the bounds, as UILabel does.
open class Label: View {
    /// Set to the same text it shows, nothing is drawn again. The same means the same bytes, as
    /// UILabel compares literally: "é" and "e" + U+0301 are canonically equivalent, equal to
    /// `==`, and drawn with different glyphs.
    public var text: String {
        didSet {
            guard !text.isLiterally(oldValue) else { return }
            contentChanged()
            window?.postAccessibilityNotification(.labelChanged(self))
        }
    }
    /// nil uses `Font.standard`.
    public var font: Font? {
        didSet {
            layouts.removeAll()
            contentChanged()
        }
    }
    /// The last two layouts: `drawnRect` and `draw` need the same one, and a list measures a
    /// row (`sizeThatFits`) at the width its label then draws at, so that layout (shaping,
    /// breaking) serves both instead of being made twice.
    private var layouts = TextLayoutCache(capacity: 2)
    public var textColor: Color = .black { didSet { if textColor != oldValue { setNeedsDisplay() } } }
    /// `.natural` (default): each line at the start of its paragraph's direction, left for
    /// left-to-right text, right for Hebrew or Arabic.
    public var textAlignment: TextAlignment = .natural { didSet { setNeedsDisplay() } }
    /// 1 (default): one line, truncated. 0: as many lines as the text needs.
    public var numberOfLines = 1 { didSet { if numberOfLines != oldValue { contentChanged() } } }
    /// The width wrapping text is measured at for `intrinsicContentSize`; nil (default): the
    /// width constraint layout gives the label, found by solving twice as UIKit does.
    public var preferredMaxLayoutWidth: Double? {
        didSet { if preferredMaxLayoutWidth != oldValue { invalidateIntrinsicContentSize() } }
    }

    public init(text: String = "", frame: Rect = .zero) {
        self.text = text
        super.init(frame: frame)
    }

    open override var drawsContent: Bool { true }

    open override var accessibilityDefaults: AccessibilityDefaults {
        AccessibilityDefaults(role: .staticText, label: text, isElement: true)
    }

    public var effectiveFont: Font? { font ?? Font.standard }

    private var scale: Double { window?.scale ?? 1 }

    /// The layout this label draws at its current width.
    public func textLayout(scale: Double) -> TextLayout? { layout(maxWidth: bounds.width, scale: scale) }

    private func layout(maxWidth: Double?, scale: Double) -> TextLayout? {
        guard let font = effectiveFont else { return nil }
        return layouts.layout(text, font: font, maxWidth: maxWidth, maxLines: numberOfLines, scale: scale)
    }

    /// The band the text is drawn in: the lines' height, vertically centred, clipped to the
    /// bounds; the whole width.
    private func textRect(_ layout: TextLayout) -> Rect {
        let h = layout.size.height
        return Rect(x: 0, y: max(0, (bounds.height - h) / 2), width: bounds.width, height: min(h, bounds.height))
    }

    /// Only the text and a margin for glyphs that reach past their advance (half a line each
    /// side): a row-wide label's image is as wide as its words.
    open override func drawnRect(scale: Double) -> Rect? {
        guard let layout = textLayout(scale: scale) else { return .zero }
        let band = textRect(layout)
        // The lines' horizontal extent, each placed as `draw` places it.
        var minX = Double.infinity
        var maxX = -Double.infinity
        for (i, line) in layout.lines.enumerated() {
            let x = layout.lineX(i, alignment: textAlignment, width: bounds.width)
            minX = min(minX, x)
            maxX = max(maxX, x + line.width)
        }
        if minX > maxX { (minX, maxX) = (0, 0) }
        let margin = layout.metrics.lineHeight / 2
        return Rect(x: minX - margin, y: band.minY, width: maxX - minX + 2 * margin, height: band.height)
    }

    open override func draw(in canvas: Canvas) {
        guard let font = effectiveFont, let layout = textLayout(scale: canvas.scale) else { return }
        // The canvas starts where `drawnRect` does, on the device grid.
        let origin = backingOrigin(scale: canvas.scale)
        canvas.drawText(
            layout, font: font, in: textRect(layout).offsetBy(dx: -origin.x, dy: -origin.y), color: textColor,
            alignment: textAlignment)
    }

    open override func sizeThatFits(_ size: Size) -> Size {
        let width = size.width.isFinite && size.width < Double.greatestFiniteMagnitude ? size.width : nil
        guard let layout = layout(maxWidth: numberOfLines == 1 ? nil : width, scale: scale) else { return .zero }
        let s = layout.size
        return Size(width: min(s.width.rounded(.up), size.width), height: s.height.rounded(.up))
    }

    /// The text's size: one line, or wrapped at `preferredMaxLayoutWidth` (or the width layout
    /// solved) when `numberOfLines` is not 1; whole points.
    open override var intrinsicContentSize: Size {
        let width = numberOfLines == 1 ? nil : (preferredMaxLayoutWidth ?? layoutWidthForIntrinsicSize)
        guard let layout = layout(maxWidth: width, scale: scale) else { return .zero }
        return Size(width: layout.size.width.rounded(.up), height: layout.size.height.rounded(.up))
    }

    open override var intrinsicContentSizeDependsOnWidth: Bool { numberOfLines != 1 && preferredMaxLayoutWidth == nil }

    /// The first and last lines' baselines as `draw` places them at `width` (the lines broken
    /// there, whatever `preferredMaxLayoutWidth` says: it sizes the label, the width draws it),
    /// their band centred in the height. A label squeezed shorter than its text draws from its
    /// top instead: its baselines then stand where centred text's would, above the drawn ones
    /// by half the shortfall. (Following the squeeze would make a baseline a different function
    /// of the height on either side of the text's own, and a constraint on it could flip the
    /// solution between the two at every pass.)
    open override func baselines(forWidth width: Double) -> Baselines {
        guard let layout = layout(maxWidth: width, scale: scale) else { return .bottom }
        return .centred(lines: layout.lines.count, metrics: layout.metrics)
    }

    private func contentChanged() {
        setNeedsDisplay()
        superview?.setNeedsLayout()
        invalidateIntrinsicContentSize()
    }
}
