import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster

/// A single line of editable text: a caret, insert and delete, focus, a placeholder. Text comes
/// through the window's text path, the same for physical keys (xkbcommon's keysyms and UTF-8)
/// and the on-screen keyboard; the field takes it while it has the window's focus.
open class TextField: Control {
    public var text: String = "" {
        didSet { if text != oldValue { caret = min(caret, text.count); setNeedsDisplay() } }
    }
    public var placeholder: String = "" { didSet { setNeedsDisplay() } }
    public var font: Font? { didSet { setNeedsDisplay() } }
    /// The caret's position, in characters.
    public private(set) var caret = 0 { didSet { if caret != oldValue { setNeedsDisplay() } } }
    /// Return was pressed.
    public var onReturn: (() -> Void)?

    public init(placeholder: String = "", frame: Rect = .zero) {
        self.placeholder = placeholder
        super.init(frame: frame)
        canBecomeFocused = true
    }

    open override var drawsContent: Bool { true }

    /// Takes the keyboard focus (a touch does this, and Tab), with the caret at the end.
    open override func becomeFocused(byTouch: Bool = false) {
        caret = text.count
        super.becomeFocused(byTouch: byTouch)
    }

    open override func touchesEnded(_ touches: [Touch]) {
        guard let t = touches.first, bounds.contains(convert(t.location, from: nil)) else { return }
        becomeFocused(byTouch: t.source == .finger)
    }

    open override func handleInput(_ event: InputEvent) -> Bool {
        guard isFocused else { return false }
        switch event.kind {
        case .text(let s):
            let chars = Array(text)
            text = String(chars[..<caret]) + s + String(chars[caret...])
            caret += s.count
            return true
        case .key(let key, let pressed, let modifiers):
            // The keys a field types or edits with are its own, pressed and released: they never
            // reach the scroll view around it (Space would page the form while the text event
            // that follows the same press types the space; Left/Right would scroll it). A field
            // is one line, so Up/Down are not its keys: they, Page Up/Down, Tab (focus moves),
            // Escape and shortcuts pass on.
            let typing: Bool
            switch key {
            case .up, .down, .pageUp, .pageDown, .tab, .escape: typing = false
            case .other: typing = modifiers.isDisjoint(with: [.control, .alt, .logo])
            default: typing = true
            }
            guard pressed else { return typing }
            switch key {
            case .backspace:
                guard caret > 0 else { return true }
                var chars = Array(text)
                chars.remove(at: caret - 1)
                caret -= 1
                text = String(chars)
            case .left: caret = max(0, caret - 1)
            case .right: caret = min(text.count, caret + 1)
            case .home: caret = 0
            case .end: caret = text.count
            case .enter: onReturn?()
            default: return typing  // Space and printable keys type through the text event
            }
            return true
        default:
            return false
        }
    }

    open override func draw(in canvas: Canvas) {
        let r = Rect(origin: .zero, size: bounds.size)
        canvas.fillRoundedRect(r, radius: 6, color: .white)
        canvas.strokeRoundedRect(
            r.insetBy(dx: 0.75, dy: 0.75), radius: 6, lineWidth: isFocused ? 2 : 1,
            color: isFocused ? .tint : Color(rgb: 190, 190, 196))
        guard let font = font ?? Font.standard else { return }
        let inner = r.insetBy(dx: 10, dy: 0)
        let shown = text.isEmpty ? placeholder : text
        let layout = font.layout(shown, maxWidth: nil, maxLines: 1, scale: canvas.scale)
        let h = layout.size.height
        let textRect = Rect(x: inner.minX, y: (r.height - h) / 2, width: inner.width, height: h)
        canvas.drawText(layout, font: font, in: textRect, color: text.isEmpty ? Color(rgb: 160, 160, 166) : .black)
        if isFocused {
            let x = inner.minX + font.width(of: String(text.prefix(caret)), scale: canvas.scale)
            canvas.fill(Rect(x: x, y: textRect.minY, width: 2, height: h), color: .tint)
        }
    }

    open override func sizeThatFits(_ size: Size) -> Size { Size(width: size.width, height: 44) }
}
