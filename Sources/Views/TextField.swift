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
            // Its baselines move with the font.
            invalidateIntrinsicContentSize()
        }
    }
    /// Drawing and the caret rectangle (which a system input method is told after every frame
    /// while the field has the focus) share the one-line layout of what is shown.
    private var layouts = TextLayoutCache(capacity: 4)

    /// `text` laid out on one line at `scale` in `direction`, through the cache.
    /// One line of the field's text: a line break in it (set by the app, or committed by an input
    /// method) shows as a space, one character for one, as typing and pasting put it in.
    private func lineLayout(
        _ text: String, font: Font, scale: Double, direction: TextDirection = .natural
    ) -> TextLayout {
        let shown = text.contains(where: \.isNewline) ? Self.oneLine(text) : text
        return layouts.layout(shown, font: font, maxWidth: nil, maxLines: 1, scale: scale, direction: direction)
    }

    /// The first character of the shown text in sight. A field shows one line: as much of it as
    /// fits, scrolled sideways so that the caret stays in sight (UITextField's behaviour).
    private var firstShown = 0

    /// The direction of the field's line: its text's first strong character's (rules P2–P3),
    /// read in growing parts so that a long text is not copied whole. A right-to-left line
    /// starts at the box's right edge and runs on, and scrolls, leftwards, as GTK's entry and
    /// UIKit's natural alignment show it; the part in sight is laid out in the line's direction,
    /// whatever its own first letter. Only the first `directionScanLimit` characters are read:
    /// a text with no letter there (digits, spaces) runs left to right, and costs what that
    /// part does at each keystroke and frame, not its whole length.
    ///
    /// A field with no letter yet (empty, or digits alone) takes its placeholder's direction:
    /// its caret waits where the text the placeholder asks for will start (at the right under a
    /// Hebrew placeholder), as the placeholder itself is drawn, and a phone number's first
    /// digit does not take it to the other edge. (GTK and UIKit ask the keyboard layout's
    /// direction; a Wayland client is told none.)
    private var lineDirection: TextDirection {
        let total = min(editing.shownCount, Self.directionScanLimit)
        var span = 64
        while total > 0 {
            let end = min(total, span)
            if let d = TextDirection.firstStrong(in: editing.shownText(in: 0..<end)) { return d }
            if end == total { break }
            span *= 2
        }
        return TextDirection.firstStrong(in: placeholder) ?? .leftToRight
    }

    /// How far into its text a field looks for the letter that gives its line's direction.
    static let directionScanLimit = 4096

    /// What the field shows of its shown text: from character `start`, a run at least as wide
    /// as the text box (or to the end), laid out. Only this is shaped, so a keystroke in a long
    /// text costs what the field shows, not the text's length. A left-to-right run is placed
    /// from the box's left edge, a right-to-left one from its right edge.
    private struct Window {
        var start: Int
        var layout: TextLayout
        var count: Int
        var rightToLeft: Bool
        /// Where the layout's left end is, from the box's left edge.
        var left: Double

        init(start: Int, layout: TextLayout, count: Int, rightToLeft: Bool, width: Double) {
            self.start = start
            self.layout = layout
            self.count = count
            self.rightToLeft = rightToLeft
            left = rightToLeft ? width - layout.size.width : 0
        }

        /// The x of shown character offset `i` from the box's left edge; offsets outside the
        /// window are at its ends.
        func x(_ i: Int) -> Double { left + layout.caretX(forCharacterOffset: min(max(i - start, 0), count)) }

        /// How far in from the edge the line starts at (the box's left, or its right in a
        /// right-to-left line) the caret before `i` is.
        func inset(_ i: Int) -> Double { Self.inset(of: i - start, in: layout, rightToLeft: rightToLeft) }

        static func inset(of offset: Int, in layout: TextLayout, rightToLeft: Bool) -> Double {
            let x = layout.caretX(forCharacterOffset: offset)
            return rightToLeft ? layout.size.width - x : x
        }
    }

    /// The shown text from `start`, growing the run until it fills `width` or the text ends.
    private func window(
        from start: Int, width: Double, font: Font, scale: Double, direction: TextDirection
    ) -> Window {
        let total = editing.shownCount
        var span = 64
        while true {
            let end = min(total, start + span)
            let layout = lineLayout(
                editing.shownText(in: start..<end), font: font, scale: scale, direction: direction)
            if end == total || layout.size.width >= width {
                return Window(
                    start: start, layout: layout, count: end - start, rightToLeft: direction == .rightToLeft,
                    width: width)
            }
            span *= 2
        }
    }

    /// The first character from which the shown text up to `end` fits `width`: the start that
    /// puts `end` at the box's far edge (the right, or the left in a right-to-left line).
    private func start(
        fitting end: Int, width: Double, font: Font, scale: Double, direction: TextDirection
    ) -> Int {
        let rightToLeft = direction == .rightToLeft
        var span = 64
        while true {
            let start = max(0, end - span)
            let layout = lineLayout(
                editing.shownText(in: start..<end), font: font, scale: scale, direction: direction)
            func inset(_ i: Int) -> Double { Window.inset(of: i, in: layout, rightToLeft: rightToLeft) }
            let far = inset(end - start)
            if start == 0 && far <= width { return 0 }
            if far >= width || start == 0 {
                var i = 0
                while i < end - start && far - inset(i) > width { i += 1 }
                return start + i
            }
            span *= 2
        }
    }

    /// The window in sight now, with `firstShown` moved so that the caret is in it and no room
    /// is left empty at the line's far end while text is hidden at its start.
    private func visibleWindow(font: Font, scale: Double) -> Window {
        let width = textRect(font: font, scale: scale).width
        let direction = lineDirection
        let caret = editing.shownCaret
        let total = editing.shownCount
        firstShown = min(firstShown, caret, total)
        var w = window(from: firstShown, width: width, font: font, scale: scale, direction: direction)
        if caret > w.start + w.count || w.inset(caret) > width {
            firstShown = start(fitting: caret, width: width, font: font, scale: scale, direction: direction)
            w = window(from: firstShown, width: width, font: font, scale: scale, direction: direction)
        } else if firstShown > 0, w.start + w.count == total, w.layout.size.width < width {
            firstShown = start(fitting: total, width: width, font: font, scale: scale, direction: direction)
            w = window(from: firstShown, width: width, font: font, scale: scale, direction: direction)
        }
        // In a line of both directions the window can start inside a run of the other one, whose
        // carets are not in from the line's start edge: the window then moves sideways until the
        // caret is in the box.
        let x = w.x(caret)
        if x < 0 {
            w.left -= x
        } else if x > width {
            w.left -= x - width
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

    /// The direction of the field's line.
    public func runsRightToLeft(at index: Int) -> Bool { lineDirection == .rightToLeft }

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
        // Where the character is drawn, not between the carets around it (`TextLayout.spans`).
        guard let span = shown.layout.spans(forCharacters: (i - shown.start)..<(i - shown.start + 1), line: 0).first
        else { return Rect(x: x(i, in: shown, box: box), y: box.minY, width: 0, height: box.height) }
        return Rect(
            x: box.minX + shown.left + span.left, y: box.minY, width: span.right - span.left, height: box.height)
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
        let shown = visibleWindow(font: font, scale: canvas.scale)
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
                    Rect(
                        x: box.minX + shown.left + span.left, y: box.minY, width: span.right - span.left,
                        height: box.height),
                    color: TextEditing.selectionColor)
            }
        }
        let textRect = Rect(x: box.minX, y: box.minY, width: box.width, height: layout.size.height)
        if empty {
            // The placeholder in its own direction, where the empty field's caret waits.
            canvas.drawText(
                lineLayout(placeholder, font: font, scale: canvas.scale), font: font, in: textRect,
                color: drawn(.placeholderText), alignment: .natural)
        } else {
            // Where the window puts the layout's left end (moved sideways in a line of both
            // directions to keep the caret in sight), as the caret and hit-testing read it.
            canvas.drawText(layout, font: font, in: textRect, color: drawn(.black), shift: shown.left)
        }
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

    /// Its one line's baseline, where the text and the placeholder are drawn (`textRect`).
    open override func baselines(forWidth width: Double) -> Baselines {
        guard let font = font ?? Font.standard else { return .bottom }
        return .centred(lines: 1, metrics: font.metrics(scale: window?.scale ?? 1))
    }
}
