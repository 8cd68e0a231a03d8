import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster

/// A single line of editable text: a caret, insert and delete, focus, a placeholder. Text comes
/// through the window's text path, the same for physical keys (xkbcommon's keysyms and UTF-8)
/// and the on-screen keyboard; the field takes it while it has the window's focus.
///
/// A system input method (zwp_text_input_v3) reaches it as `InputEvent.Kind.textInput`
/// updates: their composing text (preedit) shows at the caret, underlined, until committed
/// (`TextEditing` holds the rules). `contentType` tells the input method what the field is for.
open class TextField: Control, TextEditingView {
    /// The text, caret, selection and preedit (`TextEditing` holds the editing rules, shared
    /// with `TextView`).
    public var editing = TextEditing() { didSet { if editing != oldValue { setNeedsDisplay() } } }
    public var text: String {
        get { editing.text }
        set { editing.text = newValue }
    }
    /// What the field is for (a number field asks a system keyboard for its number pad).
    public var contentType: TextContentType = .normal
    /// The input method's composing text at the caret, not yet part of `text`.
    public var preedit: String { editing.preedit }
    /// The caret inside the preedit, UTF-8 bytes of it; nil hides it.
    public var preeditCursor: TextInputUpdate.ClosedByteRange? { editing.preeditCursor }
    public var placeholder: String = "" { didSet { setNeedsDisplay() } }
    public var font: Font? {
        didSet {
            layouts.removeAll()
            setNeedsDisplay()
        }
    }
    /// Drawing and the caret rectangle (which a system input method is told after every frame
    /// while the field has the focus) share the one-line layout of what is shown.
    private var layouts = TextLayoutCache(capacity: 4)

    /// `text` laid out on one line at `scale`, through the cache.
    /// One line of the field's text: a line break in it (set by the app, or committed by an input
    /// method) shows as a space, one character for one, as typing and pasting put it in.
    private func lineLayout(_ text: String, font: Font, scale: Double) -> TextLayout {
        let shown = text.contains(where: \.isNewline) ? Self.oneLine(text) : text
        return layouts.layout(shown, font: font, maxWidth: nil, maxLines: 1, scale: scale)
    }

    /// The first character of the shown text in sight. A field shows one line: as much of it as
    /// fits, scrolled sideways so that the caret stays in sight (UITextField's behaviour).
    private var firstShown = 0

    /// What the field shows of its shown text: from character `start`, a run at least as wide
    /// as the text box (or to the end), laid out. Only this is shaped, so a keystroke in a long
    /// text costs what the field shows, not the text's length.
    private struct Window {
        var start: Int
        var layout: TextLayout
        var count: Int
        /// The x of shown character offset `i` from the window's left end; offsets outside it
        /// are at its ends.
        func x(_ i: Int) -> Double { layout.caretX(forCharacterOffset: min(max(i - start, 0), count)) }
    }

    /// The shown text from `start`, growing the run until it fills `width` or the text ends.
    private func window(from start: Int, width: Double, font: Font, scale: Double) -> Window {
        let total = editing.shownCount
        var span = 64
        while true {
            let end = min(total, start + span)
            let layout = lineLayout(editing.shownText(in: start..<end), font: font, scale: scale)
            if end == total || layout.size.width >= width {
                return Window(start: start, layout: layout, count: end - start)
            }
            span *= 2
        }
    }

    /// The first character from which the shown text up to `end` fits `width`: the start that
    /// puts `end` at the box's right edge.
    private func start(fitting end: Int, width: Double, font: Font, scale: Double) -> Int {
        var span = 64
        while true {
            let start = max(0, end - span)
            let layout = lineLayout(editing.shownText(in: start..<end), font: font, scale: scale)
            let right = layout.caretX(forCharacterOffset: end - start)
            if start == 0 && right <= width { return 0 }
            if right >= width || start == 0 {
                var i = 0
                while i < end - start && right - layout.caretX(forCharacterOffset: i) > width { i += 1 }
                return start + i
            }
            span *= 2
        }
    }

    /// The window in sight now, with `firstShown` moved so that the caret is in it and no room
    /// is left empty on the right while text is hidden on the left.
    private func visibleWindow(font: Font, scale: Double) -> Window {
        let width = textRect(font: font, scale: scale).width
        let caret = editing.shownCaret
        let total = editing.shownCount
        firstShown = min(firstShown, caret, total)
        var w = window(from: firstShown, width: width, font: font, scale: scale)
        if w.x(caret) > width {
            firstShown = start(fitting: caret, width: width, font: font, scale: scale)
            w = window(from: firstShown, width: width, font: font, scale: scale)
        } else if firstShown > 0, w.start + w.count == total, w.layout.size.width < width {
            firstShown = start(fitting: total, width: width, font: font, scale: scale)
            w = window(from: firstShown, width: width, font: font, scale: scale)
        }
        return w
    }
    /// The caret's position, in characters.
    public var caret: Int { editing.caret }
    /// Return was pressed.
    public var onReturn: (() -> Void)?

    public init(placeholder: String = "", frame: Rect = .zero) {
        self.placeholder = placeholder
        super.init(frame: frame)
        canBecomeFocused = true
    }

    open override var drawsContent: Bool { true }

    /// Named by its placeholder until the app gives it a label.
    open override var accessibilityDefaults: AccessibilityDefaults {
        AccessibilityDefaults(role: .textField, label: placeholder, isElement: true)
    }

    public var isMultiline: Bool { false }

    /// The direction of the line the field shows (its text in sight).
    public func runsRightToLeft(at index: Int) -> Bool {
        guard let font = font ?? Font.standard else { return false }
        return visibleWindow(font: font, scale: window?.scale ?? 1).layout.lines.first?.isRightToLeft == true
    }

    public func caretIndex(for key: Key, from index: Int) -> Int? {
        switch key {
        case .home: 0
        case .end: text.count
        default: nil  // one line: Up, Down and the Page keys are the form's
        }
    }

    public func editingDidReturn() { onReturn?() }

    /// Takes the keyboard focus (a touch does this, and Tab), with the caret at the end.
    open override func becomeFocused(byTouch: Bool = false) {
        editing.moveCaret(to: text.count)
        super.becomeFocused(byTouch: byTouch)
    }

    /// A finger focuses the field when it lifts (a drag that began on it scrolls the form
    /// instead); the mouse focuses it on press, with the caret where it pressed, and selects
    /// as it drags.
    open override func touchesBegan(_ touches: [Touch]) {
        guard let t = touches.first, t.source == .mouse else { return }
        if !isFocused { becomeFocused(byTouch: false) }
        editing.moveCaret(to: characterIndex(atX: convert(t.location, from: nil).x))
    }

    open override func touchesMoved(_ touches: [Touch]) {
        guard let t = touches.first, t.source == .mouse, isFocused else { return }
        editing.moveCaret(to: characterIndex(atX: convert(t.location, from: nil).x), extending: true)
    }

    open override func touchesEnded(_ touches: [Touch]) {
        guard let t = touches.first, t.source == .finger, bounds.contains(convert(t.location, from: nil)) else {
            return
        }
        becomeFocused(byTouch: true)
    }

    open override func handleInput(_ event: InputEvent) -> Bool {
        isFocused && handleEditingInput(event)
    }

    /// The caret position nearest `x` (the field's coordinates).
    func characterIndex(atX x: Double) -> Int {
        guard let font = font ?? Font.standard else { return text.count }
        let scale = window?.scale ?? 1
        let box = textRect(font: font, scale: scale)
        let shown = visibleWindow(font: font, scale: scale)
        let i = TextEditing.nearestIndex(from: shown.start, to: shown.start + shown.count, toX: x - box.minX) {
            shown.x($0)
        }
        return editing.textIndex(forShown: i)
    }

    public func characterRect(at index: Int) -> Rect? {
        guard index >= 0, index < editing.characterCount, let font = font ?? Font.standard else { return nil }
        let scale = window?.scale ?? 1
        let box = textRect(font: font, scale: scale)
        let shown = visibleWindow(font: font, scale: scale)
        let i = editing.shownIndex(index)
        guard i >= shown.start, i < shown.start + shown.count else { return nil }
        let a = x(i, in: shown, box: box)
        let b = x(i + 1, in: shown, box: box)
        return Rect(x: min(a, b), y: box.minY, width: abs(b - a), height: box.height)
    }

    public func textIndex(at point: Point) -> Int { characterIndex(atX: point.x) }

    /// Where the text sits: 10 px in from the left, centred vertically on one line's height.
    func textRect(font: Font, scale: Double) -> Rect {
        let h = font.metrics(scale: scale).lineHeight
        return Rect(x: 10, y: (bounds.height - h) / 2, width: max(0, bounds.width - 20), height: h)
    }

    /// Where a character offset of the shown text lies (field coordinates), from its shaped
    /// layout: after a combining mark's base, inside a ligature, on the right side of a
    /// right-to-left run, where the glyphs really are.
    private func x(_ offset: Int, in shown: Window, box: Rect) -> Double {
        box.minX + shown.x(offset)
    }

    /// The caret's rectangle in the field's coordinates: after the text before the caret and,
    /// while composing, the preedit up to its cursor.
    func caretRect(font: Font, scale: Double) -> Rect {
        caretRect(font: font, scale: scale, shown: visibleWindow(font: font, scale: scale))
    }

    private func caretRect(font: Font, scale: Double, shown: Window) -> Rect {
        let box = textRect(font: font, scale: scale)
        return Rect(x: x(editing.shownCaret, in: shown, box: box), y: box.minY, width: 2, height: box.height)
    }

    public var textInputState: TextInputState? {
        guard let window, let font = font ?? Font.standard else { return nil }
        let s = editing.surrounding()
        let rect = convert(caretRect(font: font, scale: window.scale), to: nil)
        return TextInputState(
            surroundingText: s.text, cursor: s.cursor, anchor: s.anchor, contentType: contentType,
            cursorRectangle: rect)
    }

    open override func draw(in canvas: Canvas) {
        let r = Rect(origin: .zero, size: bounds.size)
        canvas.fillRoundedRect(r, radius: 6, color: .white)
        canvas.strokeFocusRing(in: r, focused: showsFocus, idleColor: .fieldBorder, cornerRadius: 6)
        guard let font = font ?? Font.standard else { return }
        let empty = editing.text.isEmpty && editing.preedit.isEmpty
        let shown =
            empty
            ? Window(start: 0, layout: lineLayout(placeholder, font: font, scale: canvas.scale), count: 0)
            : visibleWindow(font: font, scale: canvas.scale)
        let layout = shown.layout
        let box = textRect(font: font, scale: canvas.scale)
        let selected = editing.selection
        if isFocused, !selected.isEmpty {
            // Where the selected characters in sight are drawn, so that a selection across a
            // change of direction shows where its characters are (`TextLayout.spans`).
            let inSight =
                editing.textIndex(forShown: shown.start)..<editing.textIndex(forShown: shown.start + shown.count)
            let chosen = selected.clamped(to: inSight)
            let first = editing.shownIndex(chosen.lowerBound) - shown.start
            let characters = first..<max(first, editing.shownIndex(chosen.upperBound) - shown.start)
            for span in layout.spans(forCharacters: characters, line: 0) {
                canvas.fill(
                    Rect(x: box.minX + span.left, y: box.minY, width: span.right - span.left, height: box.height),
                    color: TextEditing.selectionColor)
            }
        }
        let textRect = Rect(x: box.minX, y: box.minY, width: box.width, height: layout.size.height)
        canvas.drawText(layout, font: font, in: textRect, color: empty ? .placeholderText : .black)
        if !preedit.isEmpty {
            // The composing text is underlined, as every input method's host shows it, one pixel
            // below the baseline.
            let a = x(caret, in: shown, box: box)
            let b = x(caret + preedit.count, in: shown, box: box)
            let y = box.minY + font.metrics(scale: canvas.scale).ascent + 1
            canvas.fill(Rect(x: min(a, b), y: y, width: abs(b - a), height: 1), color: .black)
        }
        guard showsFocus else { return }
        let caretBox = caretRect(font: font, scale: canvas.scale, shown: shown)
        if !preedit.isEmpty, let c = preeditCursor, c.end > c.begin {
            // A range inside the preedit: highlighted, as the protocol suggests.
            let x1 = x(caret + editing.preeditCharacters(beforeByte: c.end), in: shown, box: box)
            canvas.fill(
                Rect(
                    x: min(caretBox.minX, x1), y: caretBox.minY, width: abs(x1 - caretBox.minX),
                    height: caretBox.height),
                color: TextEditing.selectionColor)
        } else if preedit.isEmpty || preeditCursor != nil {
            canvas.fill(caretBox, color: .tint)
        }
    }

    open override func sizeThatFits(_ size: Size) -> Size { Size(width: size.width, height: 44) }

    /// A line of text's 44 points high; as wide as layout makes it.
    open override var intrinsicContentSize: Size { Size(width: View.noIntrinsicMetric, height: 44) }
}
