import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster

/// One choice among a few, side by side, as UIKit's UISegmentedControl (iOS 13's look): a grey
/// rounded track, the selected segment on a white pill that slides to the next one chosen.
///
/// Touches, as UIKit's:
/// - a tap selects the segment it lifts on (the pressed segment dims while the finger is on it,
///   and the dimming follows the finger from segment to segment);
/// - a finger that lands on the selected segment drags the pill along, and the segment it is
///   let go on is chosen. A pan along the control that starts there is the control's, not a
///   scroll view's (`gestureRecognizerShouldBegin(_:)`), as a slider's thumb keeps its own;
/// - a cancelled touch leaves the selection as it was.
///
/// `onValueChanged` hears the user's choices (a tap, a drag, a key, a screen reader), not the
/// ones made in code. With `isMomentary`, a tap fires it and nothing stays selected. Disabled
/// segments (`setEnabled(_:forSegmentAt:)`) are drawn faint and cannot be chosen.
///
/// Focused (Tab), Left and Right (swapped right to left) choose the next enabled segment, Home
/// and End the first and the last. A screen reader meets each segment as a radio button, named
/// by its title, checked when selected, "2 of 3" in its set, inside a group named by the
/// control's `accessibilityLabel`.
open class SegmentedControl: Control {
    /// No segment is selected (UIKit's `noSegment`).
    public static let noSegment = -1

    /// The selected segment, or `noSegment`. Set in code, the pill moves at once and
    /// `onValueChanged` is not told.
    public var selectedSegmentIndex: Int {
        get { selected }
        set { select(newValue, byUser: false, animated: false) }
    }
    /// Whether a choice stays selected (false) or only fires (true).
    public var isMomentary = false { didSet { placeParts() } }
    /// The pill under the selected segment.
    public var selectedSegmentTintColor: Color {
        get { pill.color }
        set { pill.color = newValue }
    }
    /// The track behind the segments.
    public var trackColor = Color(rgb: 238, 238, 239) { didSet { setNeedsDisplay() } }
    public var titleColor: Color = .black { didSet { for s in segments { s.setNeedsDisplay() } } }
    /// nil: 13 points, as UIKit's titles.
    public var font: Font? {
        didSet {
            for s in segments { s.setNeedsDisplay() }
            invalidateIntrinsicContentSize()
        }
    }
    /// Called after the user chose a segment, with its index.
    public var onValueChanged: ((Int) -> Void)?

    /// How far the pill and the segments stand inside the track, and the track's corners.
    public static let inset = 2.0
    public static let cornerRadius = 9.0
    /// How long the pill takes to slide to a segment chosen by the user.
    public static let slideDuration = 0.25

    private var selected = SegmentedControl.noSegment
    private var segments: [SegmentView] = []
    private let pill = SegmentPill()
    /// A touch on a segment: which one it landed on, whether it drags the pill, and the segment
    /// it is over now (nil: outside the control's reach).
    private var press: (id: Int, drags: Bool, over: Int?)?

    public init(items: [String] = [], frame: Rect = .zero) {
        super.init(frame: frame)
        canBecomeFocused = true
        addSubview(pill)
        for (i, title) in items.enumerated() { insertSegment(withTitle: title, at: i) }
    }

    // MARK: Segments

    public var numberOfSegments: Int { segments.count }

    /// Inserts a segment at `index` (clamped to the ends); the selection stays on its segment.
    public func insertSegment(withTitle title: String, at index: Int) {
        let i = min(max(index, 0), segments.count)
        let segment = SegmentView(title: title, control: self)
        segments.insert(segment, at: i)
        addSubview(segment)
        if selected >= i { selected += 1 }
        segmentsChanged()
    }

    /// Removes the segment at `index` (nothing for an index out of range); removing the selected
    /// one leaves none selected, as UIKit's does.
    public func removeSegment(at index: Int) {
        guard segments.indices.contains(index) else { return }
        segments.remove(at: index).removeFromSuperview()
        if selected == index {
            selected = Self.noSegment
        } else if selected > index {
            selected -= 1
        }
        press = nil
        segmentsChanged()
    }

    public func removeAllSegments() {
        for s in segments { s.removeFromSuperview() }
        segments.removeAll()
        selected = Self.noSegment
        press = nil
        segmentsChanged()
    }

    public func titleForSegment(at index: Int) -> String? {
        segments.indices.contains(index) ? segments[index].title : nil
    }

    public func setTitle(_ title: String, forSegmentAt index: Int) {
        guard segments.indices.contains(index), !segments[index].title.isLiterally(title) else { return }
        segments[index].title = title
        window?.postAccessibilityNotification(.labelChanged(segments[index]))
        invalidateIntrinsicContentSize()
    }

    /// Whether the segment may be chosen; a disabled selected segment stays selected. A reader
    /// hears a disabled segment as not enabled.
    public func setEnabled(_ enabled: Bool, forSegmentAt index: Int) {
        guard segments.indices.contains(index), segments[index].isEnabled != enabled else { return }
        segments[index].isEnabled = enabled
        window?.postAccessibilityNotification(.stateChanged(segments[index], .enabled, enabled))
    }

    public func isEnabledForSegment(at index: Int) -> Bool {
        segments.indices.contains(index) && segments[index].isEnabled
    }

    private func segmentsChanged() {
        for (i, s) in segments.enumerated() { s.index = i }
        placeParts()
        setNeedsDisplay()
        invalidateIntrinsicContentSize()
    }

    // MARK: Layout

    /// Segment `index`'s rect: equal shares of the track inside its inset, from the leading
    /// edge.
    public func rectForSegment(at index: Int) -> Rect {
        let n = Double(max(1, segments.count))
        let inner = bounds.insetBy(dx: Self.inset, dy: Self.inset)
        let w = max(0, inner.width) / n
        let slot =
            effectiveUserInterfaceLayoutDirection == .rightToLeft ? Double(segments.count - 1 - index) : Double(index)
        return Rect(x: inner.minX + slot * w, y: inner.minY, width: w, height: max(0, inner.height))
    }

    /// The segment whose rect holds `x` (bounds coordinates), within the track's reach.
    private func segment(atX x: Double) -> Int? {
        guard !segments.isEmpty else { return nil }
        let inner = bounds.insetBy(dx: Self.inset, dy: Self.inset)
        guard inner.width > 0 else { return nil }
        let share = (x - inner.minX) / (inner.width / Double(segments.count))
        var slot = min(max(Int(clamping: share, rounding: .down), 0), segments.count - 1)
        if effectiveUserInterfaceLayoutDirection == .rightToLeft { slot = segments.count - 1 - slot }
        return slot
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        placeParts()
    }

    open override func layoutDirectionDidChange() {
        super.layoutDirectionDidChange()
        placeParts()
        setNeedsDisplay()
    }

    /// The segments in their rects, the pill under the selected one (or the one a drag is over).
    private func placeParts() {
        for (i, s) in segments.enumerated() {
            let r = rectForSegment(at: i)
            if s.frame != r { s.frame = r }
        }
        placePill()
        setNeedsDisplay()
    }

    /// The segment the pill stands under: where a drag holds it, else the selected one.
    private var pillSegment: Int? {
        if let press, press.drags { return press.over ?? selected }
        return segments.indices.contains(selected) && !isMomentary ? selected : nil
    }

    private func placePill() {
        guard let i = pillSegment else {
            pill.isHidden = true
            return
        }
        pill.isHidden = false
        let r = rectForSegment(at: i)
        if pill.frame != r { pill.frame = r }
    }

    /// Titles as wide as the widest with 14 points either side, each segment alike, 32 high.
    open override func sizeThatFits(_ size: Size) -> Size {
        let f = font ?? SegmentView.standardFont
        let widest = segments.map { f?.width(of: $0.title, scale: window?.scale ?? 1) ?? 0 }.max() ?? 0
        return Size(width: Double(segments.count) * (widest + 28) + 2 * Self.inset, height: 32)
    }

    open override var intrinsicContentSize: Size { sizeThatFits(.zero) }

    // MARK: Drawing

    open override var drawsContent: Bool { true }

    /// The track, and a hairline between two segments where the pill is on neither.
    open override func draw(in canvas: Canvas) {
        canvas.fillRoundedRect(bounds, radius: Self.cornerRadius, color: drawn(trackColor))
        let onPill = pillSegment
        for i in 0..<max(0, segments.count - 1) where i != onPill && i + 1 != onPill {
            let a = rectForSegment(at: i)
            let b = rectForSegment(at: i + 1)
            let x = max(a.minX, b.minX)  // where they meet, whichever way they run
            canvas.fill(
                Rect(x: x - 0.5, y: bounds.minY + 8, width: 1, height: max(0, bounds.height - 16)),
                color: drawn(Color(rgb: 142, 142, 147).withAlpha(0.3)))
        }
        if showsFocus {
            canvas.strokeRoundedRect(
                bounds.insetBy(dx: 1, dy: 1), radius: Self.cornerRadius - 1, lineWidth: 2, color: .tint)
        }
    }

    // MARK: Choosing

    /// Chooses `index` (anything out of range: none): moves the pill (sliding, for the user's
    /// choice in a window) and tells `onValueChanged` of the user's choices.
    private func select(_ index: Int, byUser: Bool, animated: Bool) {
        let new = segments.indices.contains(index) ? index : Self.noSegment
        let old = selected
        guard new != old || (byUser && isMomentary) else { return }
        if byUser, new != Self.noSegment, !segments[new].isEnabled { return }
        selected = new
        if animated, window != nil, !pill.isHidden, pillSegment != nil {
            animate(withDuration: Self.slideDuration) { placePill() }
        } else {
            placePill()
        }
        setNeedsDisplay()
        if !isMomentary {
            if segments.indices.contains(old) {
                window?.postAccessibilityNotification(.stateChanged(segments[old], .checked, false))
            }
            if segments.indices.contains(new) {
                window?.postAccessibilityNotification(.stateChanged(segments[new], .checked, true))
            }
        }
        if byUser, new != Self.noSegment { onValueChanged?(new) }
    }

    /// A segment's own choosing: a screen reader's click.
    func choose(_ index: Int) -> Bool {
        guard segments.indices.contains(index), segments[index].isEnabled else { return false }
        select(index, byUser: true, animated: true)
        return true
    }

    // MARK: Touches (the segments pass theirs here)

    func segmentTouchBegan(_ touch: Touch, on index: Int) {
        guard press == nil else { return }
        let drags = index == selected && !isMomentary
        press = (touch.id, drags, index)
        highlight()
    }

    func segmentTouchMoved(_ touch: Touch) {
        guard var p = press, p.id == touch.id else { return }
        let at = convert(touch.location, from: nil)
        let over: Int?
        if p.drags {
            over = segment(atX: at.x)
        } else {
            over = bounds.insetBy(dx: -20, dy: -20).contains(at) ? segment(atX: at.x) : nil
        }
        guard over != p.over else { return }
        p.over = over
        press = p
        if p.drags {
            animate(withDuration: Self.slideDuration) { placePill() }
            setNeedsDisplay()
        }
        highlight()
    }

    func segmentTouchEnded(_ touch: Touch) {
        guard let p = press, p.id == touch.id else { return }
        press = nil
        highlight()
        if let over = p.over, segments[over].isEnabled {
            select(over, byUser: true, animated: true)
        } else {
            // Back under the selected segment.
            animate(withDuration: Self.slideDuration) { placePill() }
        }
        setNeedsDisplay()
    }

    func segmentTouchCancelled(_ touch: Touch) {
        guard let p = press, p.id == touch.id else { return }
        press = nil
        highlight()
        placePill()
        setNeedsDisplay()
    }

    /// Dims the segment a tap is over (not while it drags the pill).
    private func highlight() {
        let dimmed = press.flatMap { $0.drags ? nil : $0.over }
        for (i, s) in segments.enumerated() { s.isHighlighted = i == dimmed }
    }

    /// A touch under way when it was disabled ends as a cancel does; the parts are drawn
    /// faint or full again.
    open override func enabledDidChange() {
        super.enabledDidChange()
        if !isEnabled { press = nil }
        highlight()
        placePill()
        pill.setNeedsDisplay()
        for s in segments { s.setNeedsDisplay() }
    }

    /// A pan along the control that starts on the selected segment drags the pill.
    func keepsPan(_ recognizer: GestureRecognizer, from index: Int) -> Bool {
        guard index == selected, !isMomentary, let pan = recognizer as? PanGestureRecognizer,
            recognizer.view !== self
        else { return false }
        let t = pan.translation(in: self)
        return abs(t.x) > abs(t.y)
    }

    // MARK: Keys

    open override func handleInput(_ event: InputEvent) -> Bool {
        guard isFocused, isEnabled, !segments.isEmpty, case .key(let key, let pressed, let modifiers) = event.kind,
            modifiers.isDisjoint(with: [.control, .alt, .logo])
        else { return false }
        let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        let enabled = segments.indices.filter { segments[$0].isEnabled }
        guard let first = enabled.first, let last = enabled.last else { return true }
        let target: Int?
        switch key {
        case .right: target = rtl ? enabled.last { $0 < selected } : enabled.first { $0 > selected }
        case .left: target = rtl ? enabled.first { $0 > selected } : enabled.last { $0 < selected }
        case .home: target = first
        case .end: target = last
        default: return false
        }
        if pressed, press == nil, let target {
            // From none selected, the first step lands on the first (or last) segment.
            select(selected == Self.noSegment && key != .end ? first : target, byUser: true, animated: true)
        }
        return true
    }

    // MARK: Accessibility

    /// A group (named by the app's label) whose elements are the segments.
    open override var accessibilityDefaults: AccessibilityDefaults { AccessibilityDefaults(role: .group) }
}

/// One segment: its title, drawn centred, dimmed while pressed, faint when disabled. Its touches
/// are the control's.
final class SegmentView: View {
    static let standardFont = try? Font.system(size: 13, bold: true)

    var title: String { didSet { setNeedsDisplay() } }
    var index = 0
    var isEnabled = true { didSet { if isEnabled != oldValue { setNeedsDisplay() } } }
    var isHighlighted = false { didSet { if isHighlighted != oldValue { setNeedsDisplay() } } }
    private unowned let control: SegmentedControl

    init(title: String, control: SegmentedControl) {
        self.title = title
        self.control = control
        super.init()
    }

    override var drawsContent: Bool { true }

    override func draw(in canvas: Canvas) {
        guard let font = control.font ?? Self.standardFont else { return }
        let layout = font.layout(title, maxWidth: max(0, bounds.width - 8), maxLines: 1, scale: canvas.scale)
        let h = layout.size.height
        var color = control.drawn(control.titleColor)
        if !isEnabled || isHighlighted { color = color.withAlpha(color.alpha * (isEnabled ? 0.4 : 0.25)) }
        canvas.drawText(
            layout, font: font, in: Rect(x: 4, y: (bounds.height - h) / 2, width: max(0, bounds.width - 8), height: h),
            color: color, alignment: .center)
    }

    override func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
        !control.keepsPan(recognizer, from: index)
    }

    override func touchesBegan(_ touches: [Touch]) {
        touches.first.map { control.segmentTouchBegan($0, on: index) }
    }
    override func touchesMoved(_ touches: [Touch]) { touches.first.map(control.segmentTouchMoved) }
    override func touchesEnded(_ touches: [Touch]) { touches.first.map(control.segmentTouchEnded) }
    override func touchesCancelled(_ touches: [Touch]) { touches.first.map(control.segmentTouchCancelled) }

    override var accessibilityDefaults: AccessibilityDefaults {
        AccessibilityDefaults(role: .radioButton, label: title, isElement: true)
    }

    override var accessibilityExtraStates: AccessibilityStates {
        control.isMomentary ? [] : (control.selectedSegmentIndex == index ? [.checkable, .checked] : .checkable)
    }

    override var accessibilityPosition: (index: Int, count: Int)? { (index + 1, control.numberOfSegments) }

    override var accessibilityIsEnabled: Bool { isEnabled && super.accessibilityIsEnabled }

    override func accessibilityActivate() -> Bool { control.choose(index) }
}

/// The white pill under the selected segment, with a soft edge.
final class SegmentPill: View {
    var color: Color = .white { didSet { setNeedsDisplay() } }

    override init(frame: Rect = .zero) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
    }

    override var drawsContent: Bool { true }

    override func draw(in canvas: Canvas) {
        let radius = SegmentedControl.cornerRadius - SegmentedControl.inset
        let shade: (Color) -> Color = { (self.superview as? Control)?.drawn($0) ?? $0 }
        canvas.fillRoundedRect(bounds, radius: radius, color: shade(Color.black.withAlpha(0.08)))
        canvas.fillRoundedRect(bounds.insetBy(dx: 0.5, dy: 0.5), radius: radius - 0.5, color: shade(color))
    }
}
