import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayViews

/// Multi-line editable text that scrolls (UITextView's role): a scroll view whose content is its
/// text, wrapped to its width, so `contentSize` grows as lines are typed. Return breaks the
/// line; Up and Down move by visual line keeping the caret's x; Home and End go to the visual
/// line's ends; Page Up and Page Down move the caret a page and scroll with it. The caret stays
/// in sight while typing, above whatever the adjusted inset covers (an on-screen keyboard), and
/// the form around it is asked to keep it in sight too.
///
/// The editing itself is `TextEditing`'s, the keys and the clipboard `TextEditingView`'s, the
/// same as a `TextField`'s; only the line geometry is this view's. A finger tap focuses it and
/// places the caret, a finger drag scrolls (as in UIKit); a mouse press places the caret and a
/// mouse drag selects.
open class TextView: ScrollView, TextEditingView {
    public var editing = TextEditing() {
        didSet {
            guard editing != oldValue else { return }
            if editing.caret != oldValue.caret || !editing.text.isLiterally(oldValue.text) { goalX = nil }
            textDidChange()
        }
    }
    /// Setting it puts the caret at its end, as UITextView does.
    public var text: String {
        get { editing.text }
        set {
            editing.text = newValue
            editing.moveCaret(to: newValue.count)
        }
    }
    /// nil uses `Font.standard`.
    public var font: Font? { didSet { textDidChange() } }
    public var textColor: Color = .black { didSet { content.refresh(redrawingAll: true) } }
    public var placeholder = "" { didSet { content.refresh(redrawingAll: true) } }
    /// What the text is for, told to a system input method (multi-line by default).
    public var contentType = TextContentType(hints: .multiline)
    /// The space between the view's edges and the text (UITextView's `textContainerInset`).
    public var textInset = EdgeInsets(top: 8, left: 10, bottom: 8, right: 10) { didSet { textDidChange() } }

    /// One visual line: the characters of the shown text (preedit included) it holds, where it
    /// sits, and its own one-line layout (drawn as is; carets from its shaped clusters). A
    /// wrapped line keeps the spaces it broke at, hanging past its end.
    struct Line: Equatable {
        var start: Int
        var end: Int
        var y: Double
        var layout: TextLayout
        /// Which wrap made it (`PieceLine.serial`): a line with the same serial draws the same.
        var serial = 0
    }

    /// The visual lines as last laid out (`layoutText`).
    private(set) var lines: [Line] = []
    /// How many lines the text takes at the current width (wrapped lines count each).
    public var lineCount: Int {
        layoutText()
        return lines.count
    }
    private var lineHeight = 0.0
    /// What `lines` were laid out for; a change of any of these lays them out again.
    private var laidOutFor: (shown: String, width: Double, scale: Double)?
    /// The x Up and Down aim for (content coordinates), kept across successive vertical moves
    /// so that a short line in between does not pull the caret left for good.
    private var goalX: Double?
    let content = TextViewContent()
    private let ring = FocusRingView(idleColor: .fieldBorder)

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        canBecomeFocused = true
        content.textView = self
        insertSubview(content, at: 0)
        insertSubview(ring, at: 1)
    }

    open override var drawsContent: Bool { true }

    open override var accessibilityDefaults: AccessibilityDefaults {
        AccessibilityDefaults(role: .textArea, label: placeholder, isElement: true)
    }

    open override func draw(in canvas: Canvas) {
        canvas.fillRoundedRect(Rect(origin: .zero, size: bounds.size), radius: 6, color: .white)
    }

    public var isMultiline: Bool { true }

    public func editingDidReturn() {}

    // MARK: Layout

    var effectiveFont: Font? { font ?? Font.standard }

    /// With scrolling off, the text's height at the width layout gives the view (wrapped
    /// lines and the inset), so that constraints grow the view, and a form around it, as lines
    /// are typed (UITextView's self-sizing); with scrolling on, none: the view scrolls instead.
    open override var intrinsicContentSize: Size {
        let none = View.noIntrinsicMetric
        guard !isScrollEnabled, let font = effectiveFont else { return Size(width: none, height: none) }
        let scale = window?.scale ?? 1
        let count = lineCount(viewWidth: layoutWidthForIntrinsicSize ?? bounds.width, font: font, scale: scale)
        let height = textInset.vertical + Double(count) * font.metrics(scale: scale).lineHeight
        return Size(width: none, height: height.rounded(.up))
    }

    /// How many lines the shown text takes in the view `viewWidth` wide (its inset inside).
    private func lineCount(viewWidth: Double, font: Font, scale: Double) -> Int {
        let width = max(1, viewWidth - textInset.horizontal)
        // At the width the text is laid out at already, its lines are the ones drawn (wrapped
        // piece by piece, a keystroke shaping one piece): laid out whole again, a long text cost
        // its whole length at every change.
        if let l = laidOutFor, l.width == width, l.scale == scale, font === piecesFont, l.shown == editing.shownText {
            return lines.count
        }
        var count = 0
        for paragraph in editing.shownText.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            count += max(1, font.layout(String(paragraph), maxWidth: width, scale: scale).lines.count)
        }
        return count
    }

    /// Its first and last lines' baselines at `width`, as it draws them: from the inset's top,
    /// whatever its height (the text is not centred). A text view that scrolls has them where
    /// they stand scrolled to the top: constraints do not move as its text scrolls.
    open override func baselines(forWidth width: Double) -> Baselines {
        guard let font = effectiveFont else { return .bottom }
        let scale = window?.scale ?? 1
        let metrics = font.metrics(scale: scale)
        let first = textInset.top + metrics.ascent
        let lines = max(1, lineCount(viewWidth: width, font: font, scale: scale))
        return Baselines(
            first: BaselinePosition(heightFraction: 0, offset: first),
            last: BaselinePosition(heightFraction: 0, offset: first + Double(lines - 1) * metrics.lineHeight))
    }

    open override var intrinsicContentSizeDependsOnWidth: Bool { !isScrollEnabled }

    private func textDidChange() {
        invalidateIntrinsicContentSize()
        layoutText()
        content.refresh()
        ring.setNeedsDisplay()
        if isFocused { keepCaretVisible() }
    }

    /// Lays the shown text out at the current width and scale when any changed: wraps each
    /// paragraph with `Font.layout` (its lines say which characters they show), lays each
    /// visual line out on its own for drawing and carets, and sizes the content to the lines.
    ///
    /// A paragraph is wrapped in pieces of at most `pieceLength` characters, each starting where
    /// a line starts and keeping all its lines but the last (whose break the next piece
    /// decides), and pieces are kept by their text (`pieces`). A keystroke changes one piece: the
    /// ones before it are the same text, and once the lines after it start where they did, so
    /// are the ones after. Only that piece is shaped again, so typing into a long text costs
    /// what it changes, not the text's length (docs/decisions.md, "Typing into long text").
    func layoutText() {
        guard let font = effectiveFont else { return }
        let scale = window?.scale ?? 1
        let shown = editing.shownText
        let width = max(1, bounds.width - textInset.horizontal)
        if let l = laidOutFor, l.shown == shown, l.width == width, l.scale == scale, font === piecesFont { return }
        if let l = laidOutFor, l.width != width || l.scale != scale { pieces.removeAll() }
        if font !== piecesFont { pieces.removeAll() }
        piecesFont = font
        laidOutFor = (shown, width, scale)
        lineHeight = font.metrics(scale: scale).lineHeight
        var result: [Line] = []
        var used: [PieceKey: [PieceLine]] = [:]
        var paragraphStart = 0
        for paragraph in shown.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            // Every line of a paragraph runs in the paragraph's direction, which a wrapped
            // line's own first letter need not show.
            let direction = TextDirection.of(paragraph)
            var at = paragraph.startIndex
            var offset = 0
            while true {
                let end =
                    paragraph.index(at, offsetBy: Self.pieceLength, limitedBy: paragraph.endIndex) ?? paragraph.endIndex
                let piece = PieceKey(text: String(paragraph[at..<end]), direction: direction)
                let lines =
                    pieces[piece]
                    ?? numbered(Self.wrap(piece.text, font: font, width: width, scale: scale, direction: direction))
                used[piece] = lines
                // All the lines at the paragraph's end; else the last is the next piece's first
                // (one line that fills the piece is kept whole).
                let atEnd = end == paragraph.endIndex
                let kept = atEnd || lines.count < 2 ? lines[...] : lines.dropLast()
                for line in kept {
                    result.append(
                        Line(
                            start: paragraphStart + offset + line.start, end: paragraphStart + offset + line.end,
                            y: textInset.top + Double(result.count) * lineHeight, layout: line.layout,
                            serial: line.serial))
                }
                let next = kept.last?.end ?? 0
                offset += next
                if atEnd { break }
                at = paragraph.index(at, offsetBy: next)
            }
            paragraphStart += offset + 1
        }
        pieces = used
        lines = result
        let height = textInset.vertical + Double(lines.count) * lineHeight
        contentSize = Size(width: bounds.width, height: height)
        content.frame = Rect(x: 0, y: 0, width: bounds.width, height: max(height, bounds.height))
    }

    /// The most characters of a paragraph wrapped at once (many lines of any width).
    static let pieceLength = 1000

    /// One visual line of a piece: its characters (offsets into the piece) and its layout.
    struct PieceLine {
        var start: Int
        var end: Int
        var layout: TextLayout
        /// Unique to this wrap of this line in this view (`numbered`), so that the strip that
        /// draws it knows whether it changed without comparing glyphs.
        var serial = 0
    }

    /// The serial the next wrapped line gets.
    private var nextSerial = 1

    private func numbered(_ lines: [PieceLine]) -> [PieceLine] {
        lines.map { line in
            var line = line
            line.serial = nextSerial
            nextSerial += 1
            return line
        }
    }

    /// A piece's text, byte for byte (canonically equivalent texts shape differently), and its
    /// paragraph's direction.
    struct PieceKey: Hashable {
        var text: String
        var direction: TextDirection

        static func == (a: PieceKey, b: PieceKey) -> Bool { a.direction == b.direction && a.text.isLiterally(b.text) }

        func hash(into hasher: inout Hasher) {
            hasher.combine(direction)
            var bytes = text
            bytes.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    /// The pieces of the last layout, by their text and direction, with their lines.
    private var pieces: [PieceKey: [PieceLine]] = [:]
    /// The font `pieces` were shaped with.
    private var piecesFont: Font?

    /// `piece` wrapped to `width`: each line from where the layout says it starts (spaces a
    /// wrap left hanging stay at the end of the line before) to where the next one does, laid
    /// out on its own in its paragraph's `direction`.
    static func wrap(
        _ piece: String, font: Font, width: Double, scale: Double, direction: TextDirection
    ) -> [PieceLine] {
        let wrapped = font.layout(piece, maxWidth: width, scale: scale, direction: direction)
        let count = piece.count
        var starts = [0]
        for line in wrapped.lines.dropFirst() where line.characterRange.lowerBound > starts.last! {
            starts.append(min(line.characterRange.lowerBound, count))
        }
        var lines: [PieceLine] = []
        var at = piece.startIndex
        for (k, start) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1] : count
            let next = piece.index(at, offsetBy: end - start)
            lines.append(
                PieceLine(
                    start: start, end: end,
                    layout: font.layout(String(piece[at..<next]), maxLines: 1, scale: scale, direction: direction)))
            at = next
        }
        return lines
    }

    open override func layoutSubviews() {
        layoutText()
        content.frame = Rect(x: 0, y: 0, width: bounds.width, height: max(contentSize.height, bounds.height))
        content.refresh()
        super.layoutSubviews()
        // A view that grows with its text instead of scrolling comes back inside its range at
        // once as it grows: lines that came at once (a paste) scrolled it to the caret in its
        // old height, and it sprang back over half a second, its first lines out of sight.
        // Only a spring back is replaced (it has no end call); an animation the app started
        // re-aims inside the range itself.
        if !isScrollEnabled, !isOffsetInRange, !holdsContent {
            switch state {
            case .idle, .bouncing:
                stopMotion()
                contentOffset = clampedOffset(contentOffset)
            default:
                break
            }
        }
        placeRing()
    }

    open override func didChangeBounds(from old: Rect) {
        super.didChangeBounds(from: old)
        placeRing()
    }

    open override func windowScaleDidChange() {
        super.windowScaleDidChange()
        setNeedsLayout()
    }

    /// The focus ring stays put over the scrolling text: it covers the visible bounds.
    private func placeRing() {
        let r = Rect(origin: bounds.origin, size: bounds.size)
        if ring.frame != r { ring.frame = r }
    }

    // MARK: Geometry

    /// The line holding shown index `i` (a wrapped line's end belongs to the next line).
    func lineIndex(ofShown i: Int) -> Int {
        var lo = 0
        var hi = lines.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lines[mid].start <= i { lo = mid } else { hi = mid - 1 }
        }
        return max(0, lo)
    }

    /// Where shown characters `range` are drawn on line `l`, in content coordinates, left to
    /// right (`TextLayout.spans`).
    func spans(of range: Range<Int>, line l: Int) -> [(left: Double, right: Double)] {
        guard lines.indices.contains(l), !range.isEmpty else { return [] }
        let line = lines[l]
        let characters = (range.lowerBound - line.start)..<(range.upperBound - line.start)
        let left = lineLeft(l)
        return line.layout.spans(forCharacters: characters, line: 0).map { (left + $0.left, left + $0.right) }
    }

    /// Where line `l`'s left end is, content coordinates: at the left inset, or for a line of a
    /// right-to-left paragraph, so that it ends at the right inset (natural alignment, as
    /// UITextView and GTK's text view place such a paragraph).
    func lineLeft(_ l: Int) -> Double {
        guard isRightToLeft(line: l) else { return textInset.left }
        return bounds.width - textInset.right - lines[l].layout.size.width
    }

    /// The x of shown index `i` on line `l`, content coordinates.
    func x(ofShown i: Int, line l: Int) -> Double {
        guard lines.indices.contains(l) else {
            return isRightToLeft(line: l) ? bounds.width - textInset.right : textInset.left
        }
        let line = lines[l]
        return lineLeft(l)
            + line.layout.caretX(forCharacterOffset: min(max(0, i - line.start), line.end - line.start))
    }

    /// The last caret position on line `l`: its end, or before the space it broke at.
    func lastIndex(line l: Int) -> Int {
        let line = lines[l]
        return l + 1 < lines.count && lines[l + 1].start == line.end && line.end > line.start ? line.end - 1 : line.end
    }

    /// The shown index on line `l` nearest `x` (content coordinates).
    func shownIndex(line l: Int, x: Double) -> Int {
        guard lines.indices.contains(l) else { return 0 }
        return TextEditing.nearestIndex(from: lines[l].start, to: lastIndex(line: l), toX: x) {
            self.x(ofShown: $0, line: l)
        }
    }

    public func characterRect(at index: Int) -> Rect? {
        layoutText()
        guard index >= 0, index < editing.characterCount, !lines.isEmpty else { return nil }
        let i = editing.shownIndex(index)
        let l = lineIndex(ofShown: i)
        // Where the character is drawn (its cluster's share), not between the carets before and
        // after it, which a change of direction after it puts at the line's other end.
        guard let span = spans(of: i..<(i + 1), line: l).first else {
            return Rect(x: x(ofShown: i, line: l), y: lines[l].y, width: 0, height: lineHeight)
        }
        return Rect(x: span.left, y: lines[l].y, width: span.right - span.left, height: lineHeight)
    }

    /// The text index nearest `point` (content coordinates: the view's own, as it scrolls).
    public func textIndex(at point: Point) -> Int {
        layoutText()
        guard !lines.isEmpty, lineHeight > 0 else { return 0 }
        let l = Int(clamping: (point.y - textInset.top) / lineHeight, rounding: .down, in: 0...max(0, lines.count - 1))
        return editing.textIndex(forShown: shownIndex(line: l, x: point.x))
    }

    /// The caret's rectangle in content coordinates.
    public var caretRect: Rect {
        layoutText()
        let i = editing.shownCaret
        let l = lineIndex(ofShown: i)
        let y = lines.indices.contains(l) ? lines[l].y : textInset.top
        return Rect(x: x(ofShown: i, line: l), y: y, width: 2, height: lineHeight)
    }

    /// The number of lines Page Up and Page Down move: the visible height's worth, less one
    /// line kept for context, at least one.
    var linesPerPage: Int {
        let visible = bounds.height - adjustedContentInset.vertical
        return max(1, Int(clamping: visible / max(1, lineHeight), rounding: .down) - 1)
    }

    /// The direction of the visual line the caret is on.
    public func runsRightToLeft(at index: Int) -> Bool {
        isRightToLeft(line: lineIndex(ofShown: editing.shownIndex(index)))
    }

    /// Whether visual line `l` runs right to left. An empty text view takes its placeholder's
    /// direction, as a text field does: its caret waits at the right under a right-to-left
    /// placeholder, where that placeholder is drawn.
    func isRightToLeft(line l: Int) -> Bool {
        if editing.shownCount == 0 { return TextDirection.firstStrong(in: placeholder) == .rightToLeft }
        return lines.indices.contains(l) && lines[l].layout.lines.first?.isRightToLeft == true
    }

    public func caretIndex(for key: Key, from index: Int) -> Int? {
        layoutText()
        guard !lines.isEmpty else { return nil }
        let caret = editing.shownIndex(index)
        let l = lineIndex(ofShown: caret)
        switch key {
        case .home: return editing.textIndex(forShown: lines[l].start)
        case .end: return editing.textIndex(forShown: lastIndex(line: l))
        case .up, .down, .pageUp, .pageDown:
            let step =
                switch key {
                case .up: -1
                case .down: 1
                case .pageUp: -linesPerPage
                default: linesPerPage
                }
            let x = goalX ?? x(ofShown: caret, line: l)
            let target = l + step
            pendingGoalX = x
            if target < 0 { return 0 }
            if target >= lines.count { return editing.text.count }
            return editing.textIndex(forShown: shownIndex(line: target, x: x))
        default:
            return nil
        }
    }

    /// The goal x a vertical move just used, put back once the move's caret change is in.
    private var pendingGoalX: Double?

    // MARK: Input

    open override func handleInput(_ event: InputEvent) -> Bool {
        guard isFocused else { return super.handleInput(event) }
        if case .key(let key, pressed: true, let modifiers) = event.kind, key == .pageUp || key == .pageDown,
            modifiers.isDisjoint(with: [.control, .alt, .logo])
        {
            // The content scrolls by the page the caret moves, so the caret keeps its place on
            // screen (then it is kept in sight, at the ends).
            let dy = Double(key == .pageUp ? -linesPerPage : linesPerPage) * lineHeight
            setContentOffset(clampedOffset(Point(x: contentOffset.x, y: contentOffset.y + dy)), animated: false)
        }
        pendingGoalX = nil
        guard handleEditingInput(event) else { return super.handleInput(event) }
        // A vertical move keeps aiming at the x it started from (`editing`'s change cleared it).
        if let g = pendingGoalX { goalX = g }
        pendingGoalX = nil
        return true
    }

    /// The caret and the ring show the focus.
    open override func focusDidChange() {
        content.refresh()
        ring.setNeedsDisplay()
    }

    /// A finger tap (the scroll view's arbitration let it through as a tap, not a drag): focus
    /// and put the caret there.
    func contentTapped(at point: Point) {
        let index = textIndex(at: point)
        if !isFocused { becomeFocused(byTouch: true) }
        editing.moveCaret(to: index)
    }

    /// A mouse press puts the caret there (and focuses); its drag extends the selection.
    func contentMouse(at point: Point, dragging: Bool) {
        let index = textIndex(at: point)
        if !isFocused { becomeFocused(byTouch: false) }
        editing.moveCaret(to: index, extending: dragging)
    }

    // MARK: Keeping the caret in sight

    /// Scrolls the least distance that shows the caret's line (with the text inset around it)
    /// in the visible area, the adjusted inset (a keyboard) excluded; then asks the nearest
    /// scroll view around to show it too, with the focus margin, animated.
    func keepCaretVisible() {
        let caret = caretRect
        let around = Rect(
            x: caret.minX, y: caret.minY - textInset.top, width: caret.width,
            height: caret.height + textInset.vertical)
        let target = leastDistanceOffset(toShow: around)
        if target != contentOffset, !isTracking { setContentOffset(target, animated: false) }
        var v = superview
        while let current = v, !(current is ScrollView) { v = current.superview }
        guard let outer = v as? ScrollView else { return }
        let shown = convert(caret, to: outer).insetBy(dx: 0, dy: -Self.focusMargin)
        if outer.leastDistanceOffset(toShow: shown) != outer.contentOffset {
            outer.scrollRectToVisible(shown, animated: true)
        }
    }

    // MARK: Text input

    public var textInputState: TextInputState? {
        guard window != nil else { return nil }
        let s = editing.surrounding()
        return TextInputState(
            surroundingText: s.text, cursor: s.cursor, anchor: s.anchor, contentType: contentType,
            cursorRectangle: convert(caretRect, to: nil))
    }
}

/// The text view's text: as tall as its lines (at least the view), scrolling with the offset.
/// It takes the touches that land on the text so that the scroll view's arbitration tells a
/// tap (focus, caret) from a drag (scroll).
final class TextViewContent: View {
    weak var textView: TextView?

    override func touchesBegan(_ touches: [Touch]) {
        guard let t = touches.first, t.source == .mouse else { return }
        textView?.contentMouse(at: convert(t.location, from: nil), dragging: false)
    }

    override func touchesMoved(_ touches: [Touch]) {
        guard let t = touches.first, t.source == .mouse else { return }
        textView?.contentMouse(at: convert(t.location, from: nil), dragging: true)
    }

    override func touchesEnded(_ touches: [Touch]) {
        guard let t = touches.first, t.source == .finger else { return }
        textView?.contentTapped(at: convert(t.location, from: nil))
    }

    /// The strips, top to bottom.
    private var strips: [TextStrip] = []

    /// Places a strip over every `TextStrip.lineCount` lines and redraws those whose lines or
    /// decorations changed (`TextView.stripSignature`): a keystroke redraws the strip it typed
    /// into (and those below, when a line came or went), not the whole text.
    func refresh(redrawingAll: Bool = false) {
        guard let tv = textView, let font = tv.effectiveFont else { return }
        let lineHeight = font.metrics(scale: window?.scale ?? 1).lineHeight
        let perStrip = TextStrip.lineCount
        let count = max(1, (tv.lines.count + perStrip - 1) / perStrip)
        let decorations = tv.decorations
        while strips.count < count {
            let strip = TextStrip()
            strip.textView = tv
            addSubview(strip)
            strips.append(strip)
        }
        while strips.count > count { strips.removeLast().removeFromSuperview() }
        for (k, strip) in strips.enumerated() {
            let lines = (k * perStrip)..<min(tv.lines.count, (k + 1) * perStrip)
            let frame = Rect(
                x: 0, y: tv.textInset.top + Double(k * perStrip) * lineHeight, width: bounds.width,
                height: Double(perStrip) * lineHeight)
            if strip.frame != frame { strip.frame = frame }
            let signature = tv.stripSignature(lines, decorations)
            if redrawingAll || signature != strip.signature {
                strip.lines = lines
                strip.signature = signature
                strip.setNeedsDisplay()
            }
        }
    }
}

/// A run of a text view's visual lines with an image of its own: what changes when a line
/// changes. Touches go to the content view under it.
final class TextStrip: View {
    /// Lines per strip: a keystroke redraws about this many.
    static let lineCount = 16

    weak var textView: TextView?
    var lines: Range<Int> = 0..<0
    var signature: TextView.StripSignature?

    override init(frame: Rect = .zero) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
    }

    override var drawsContent: Bool { true }

    override func draw(in canvas: Canvas) {
        textView?.drawLines(lines, in: canvas, top: frame.minY)
    }
}

extension TextView {
    /// What a strip of lines shows: the lines (by serial), and what the caret, the selection
    /// and the composing text put on them. Equal signatures draw the same pixels.
    struct StripSignature: Equatable {
        var serials: [Int]
        var selection: Range<Int>?
        var preedit: Range<Int>?
        var caret: Rect?
        var placeholder: Bool
        /// Whether the strip's last line ends the text (a selection there does not run on).
        var endsText: Bool
        var width: Double
    }

    /// What every strip's signature reads of the text's decorations, found once per refresh.
    struct Decorations {
        var shownCount: Int
        var selection: Range<Int>?
        var preedit: Range<Int>?
        var caretLine: Int?
        var caret: Rect
    }

    var decorations: Decorations {
        let focused = showsFocus
        let selected =
            editing.shownIndex(editing.selection.lowerBound)..<editing.shownIndex(editing.selection.upperBound)
        let showsCaret = focused && (editing.preedit.isEmpty || editing.preeditCursor != nil)
        return Decorations(
            shownCount: editing.shownCount, selection: focused && !selected.isEmpty ? selected : nil,
            preedit: editing.preedit.isEmpty ? nil : editing.caret..<(editing.caret + editing.preedit.count),
            caretLine: showsCaret ? lineIndex(ofShown: editing.shownCaret) : nil, caret: showsCaret ? caretRect : .zero)
    }

    func stripSignature(_ range: Range<Int>, _ d: Decorations) -> StripSignature {
        let first = range.isEmpty ? 0 : lines[range.lowerBound].start
        let last = range.isEmpty ? 0 : lines[range.upperBound - 1].end
        // A range as far as the strip shows it: its start and end inside the strip, or past it.
        func seen(_ r: Range<Int>) -> Range<Int>? {
            let c = r.clamped(to: first..<(last + 1))
            return c.isEmpty && !(first...last).contains(r.lowerBound) ? nil : c
        }
        return StripSignature(
            serials: range.map { lines[$0].serial }, selection: d.selection.flatMap(seen),
            preedit: d.preedit.flatMap(seen), caret: d.caretLine.map(range.contains) == true ? d.caret : nil,
            placeholder: range.contains(0) && d.shownCount == 0, endsText: last >= d.shownCount, width: bounds.width)
    }

    /// Draws `range` of the visual lines (their decorations included) into a strip whose top
    /// is at `top` in content coordinates.
    func drawLines(_ range: Range<Int>, in canvas: Canvas, top: Double) {
        guard let font = effectiveFont else { return }
        let scale = canvas.scale
        let shownCount = editing.shownCount
        let lineHeight = font.metrics(scale: scale).lineHeight
        let width = bounds.width - textInset.left
        let focused = showsFocus
        if range.contains(0), shownCount == 0 {
            canvas.drawText(
                placeholder, font: font,
                in: Rect(x: textInset.left, y: textInset.top - top, width: width - textInset.right, height: lineHeight),
                color: .placeholderText, alignment: .natural, maxLines: 1)
        }
        let selected =
            editing.shownIndex(editing.selection.lowerBound)..<editing.shownIndex(editing.selection.upperBound)
        let preedit = editing.caret..<(editing.caret + editing.preedit.count)
        for l in range where lines.indices.contains(l) {
            let line = lines[l]
            let y = line.y - top
            let a = min(line.start, shownCount)
            let b = min(line.end, shownCount)
            func x(_ i: Int) -> Double { self.x(ofShown: i, line: l) }
            if focused, selected.lowerBound <= b, selected.upperBound > a || (selected.isEmpty == false && a == b) {
                // Where the selected characters are drawn: in right-to-left text a run's start
                // is at its right, and a selection across a change of direction is several
                // pieces.
                let chosen = max(a, selected.lowerBound)..<max(a, min(b, selected.upperBound))
                for span in spans(of: chosen, line: l) {
                    canvas.fill(
                        Rect(x: span.left, y: y, width: span.right - span.left, height: lineHeight),
                        color: TextEditing.selectionColor)
                }
                // A selection that runs on past the line's end covers a space's width more, on
                // the side where the line's direction ends (the left in a right-to-left line):
                // the line break (or the space it broke at) is selected too.
                let runsOn = selected.upperBound > b || (selected.upperBound == b && b < shownCount)
                if runsOn {
                    let end = x(b)
                    let space = font.width(of: " ", scale: scale)
                    canvas.fill(
                        Rect(x: isRightToLeft(line: l) ? end - space : end, y: y, width: space, height: lineHeight),
                        color: TextEditing.selectionColor)
                }
            }
            let layout =
                line.layout.scale == scale
                ? line.layout
                : font.layout(
                    editing.shownText(in: a..<b), maxLines: 1, scale: scale,
                    direction: isRightToLeft(line: l) ? .rightToLeft : .leftToRight)
            let left = lineLeft(l)
            canvas.drawText(
                layout, font: font,
                in: Rect(x: left, y: y, width: width + textInset.left - left, height: lineHeight), color: textColor)
            if !preedit.isEmpty, preedit.lowerBound < b, preedit.upperBound > a {
                // The composing text is underlined, one pixel below the baseline, character by
                // character (it may run right to left).
                let underline = y + font.metrics(scale: scale).ascent + 1
                for span in spans(of: max(a, preedit.lowerBound)..<min(b, preedit.upperBound), line: l) {
                    canvas.fill(
                        Rect(x: span.left, y: underline, width: span.right - span.left, height: 1), color: textColor)
                }
            }
        }
        guard focused, editing.preedit.isEmpty || editing.preeditCursor != nil else { return }
        let caret = caretRect
        guard range.contains(lineIndex(ofShown: editing.shownCaret)) else { return }
        canvas.fill(Rect(x: caret.minX, y: caret.minY - top, width: caret.width, height: caret.height), color: .tint)
    }
}
