import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayPhysics
import ScrollwayRaster

/// A value picked along a track, as UIKit's UISlider: a thin track, filled with the tint up to
/// a round white thumb, which a finger drags. The value runs from `minimumValue` at the track's
/// leading end to `maximumValue` at its trailing end (right to left, from the right).
///
/// Touches, as UIKit's:
/// - a finger moves it only from the thumb (its 44-point target), keeping where on the thumb
///   it took hold; a finger elsewhere on the track does nothing. The mouse also presses on the
///   track, which puts the thumb there and drags it, as a desktop slider does;
/// - a pan along the track that starts on the thumb is the slider's, whoever's pan it is: a
///   scroll view's (a paging one included) or a list row's swipe does not begin
///   (`gestureRecognizerShouldBegin(_:)`, UIKit's rule for its slider). A drag across the
///   track scrolls as it would anywhere, and a touch held on the thumb is the slider's, as a
///   control's is;
/// - a cancelled drag (the compositor took the touch, or a list that cancels its rows'
///   touches scrolled) puts the value back where the drag found it.
///
/// `onValueChanged` hears the user's changes (a drag, a key, a screen reader), as the value
/// moves while `isContinuous`, else once as the drag ends; a value set in code is not told.
///
/// Focused (Tab), Left and Right (swapped right to left) and Down and Up step it by a tenth of
/// its range, Home and End take it to its ends. A screen reader reads it as a slider with the
/// value's number and range (AT-SPI's Value) and its words ("50%", UIKit's), steps it by a
/// tenth, or sets it to a number.
open class Slider: Control, FrameAnimation {
    /// The value, kept within `minimumValue...maximumValue`. Setting it moves the thumb; only
    /// the user's changes call `onValueChanged`.
    public var value: Double {
        get { storedValue }
        set { setValue(newValue, byUser: false) }
    }
    /// The value at the track's leading end. Set above `maximumValue`, it takes that along.
    public var minimumValue = 0.0 {
        didSet {
            guard minimumValue.isFinite else {
                minimumValue = oldValue
                return
            }
            if maximumValue < minimumValue { maximumValue = minimumValue }
            rangeDidChange()
        }
    }
    /// The value at the track's trailing end. Set below `minimumValue`, it takes that along.
    public var maximumValue = 1.0 {
        didSet {
            guard maximumValue.isFinite else {
                maximumValue = oldValue
                return
            }
            if minimumValue > maximumValue { minimumValue = maximumValue }
            rangeDidChange()
        }
    }
    /// Whether `onValueChanged` hears each move of a drag (true), or only the value it ends at.
    public var isContinuous = true
    /// The track from the leading end to the thumb.
    public var minimumTrackTintColor: Color = .tint { didSet { setNeedsDisplay() } }
    /// The track from the thumb to the trailing end.
    public var maximumTrackTintColor = Color(rgb: 229, 229, 234) { didSet { setNeedsDisplay() } }
    public var thumbTintColor: Color {
        get { thumb.color }
        set { thumb.color = newValue }
    }
    /// Called after the user moved it (see `isContinuous`), with the new value.
    public var onValueChanged: ((Double) -> Void)?
    /// Whether a drag of the thumb is under way (UIControl's `isTracking`).
    public private(set) var isTracking = false

    /// UISlider's thumb, 28 points across, and the height of its track.
    public static let thumbDiameter = 28.0
    public static let trackHeight = 4.0
    /// The share of the range a key or a screen reader's increment moves it by.
    public static let stepFraction = 0.1

    private var storedValue: Double
    /// The value the thumb and the track show while `setValue(_:animated:)` glides them there
    /// (nil: the value), and where and when the glide began (its first frame's time).
    private var shownValue: Double?
    private var glide: (from: Double, start: Double?)?
    /// How long an animated `setValue` glides, on UIKit's ease-in-out curve.
    public static let glideDuration = 0.3
    /// The thumb, a view of its own: dragging it re-composites it, and the touches that land on
    /// it are told from those on the track.
    private let thumb = SliderThumb()
    /// The drag under way: its touch, and the value where the finger's x would put the thumb's
    /// centre, less the value it had, so the thumb keeps its place under the finger.
    private var drag: (id: Int, grab: Double, valueBefore: Double)?

    public init(value: Double = 0, frame: Rect = .zero) {
        storedValue = min(max(value.isFinite ? value : 0, 0), 1)
        super.init(frame: frame)
        canBecomeFocused = true
        addSubview(thumb)
    }

    // MARK: Geometry (UIKit's overridable rects)

    /// The track's rect in `bounds`: the whole width, `trackHeight` high, centred.
    open func trackRect(forBounds bounds: Rect) -> Rect {
        Rect(x: bounds.minX, y: bounds.midY - Self.trackHeight / 2, width: bounds.width, height: Self.trackHeight)
    }

    /// The thumb's rect for `value`: its centre travels the track so that its edges stay on it.
    open func thumbRect(forBounds bounds: Rect, trackRect: Rect, value: Double) -> Rect {
        let d = Self.thumbDiameter
        let travel = max(0, trackRect.width - d)
        var share = fraction(of: value)
        if effectiveUserInterfaceLayoutDirection == .rightToLeft { share = 1 - share }
        return Rect(x: trackRect.minX + share * travel, y: bounds.midY - d / 2, width: d, height: d)
    }

    /// Where `value` stands in the range, from 0 to 1 (0 for an empty range). Worked out in
    /// halves, so that a range wider than a double holds (−1e308…1e308) still has its middle.
    private func fraction(of value: Double) -> Double {
        let halfRange = maximumValue / 2 - minimumValue / 2
        return halfRange > 0 ? min(max((value / 2 - minimumValue / 2) / halfRange, 0), 1) : 0
    }

    /// The value whose thumb centre stands at `x` (bounds coordinates), within the range. A
    /// track no longer than the thumb gives it no way to travel: the value stays.
    private func value(atThumbCentre x: Double) -> Double {
        let track = trackRect(forBounds: bounds)
        let travel = track.width - Self.thumbDiameter
        guard travel > 0 else { return storedValue }
        var share = min(max((x - track.minX - Self.thumbDiameter / 2) / travel, 0), 1)
        if effectiveUserInterfaceLayoutDirection == .rightToLeft { share = 1 - share }
        return (1 - share) * minimumValue + share * maximumValue
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        placeThumb()
    }

    open override func layoutDirectionDidChange() {
        super.layoutDirectionDidChange()
        placeThumb()
        setNeedsDisplay()
    }

    private func placeThumb() {
        let rect = thumbRect(
            forBounds: bounds, trackRect: trackRect(forBounds: bounds), value: shownValue ?? storedValue)
        if thumb.frame != rect { thumb.frame = rect }
    }

    /// As wide as its container makes it, as tall as a finger needs.
    open override var intrinsicContentSize: Size { Size(width: View.noIntrinsicMetric, height: 44) }

    open override func sizeThatFits(_ size: Size) -> Size {
        Size(width: max(size.width, 2 * Self.thumbDiameter), height: 44)
    }

    // MARK: Drawing

    open override var drawsContent: Bool { true }

    open override func draw(in canvas: Canvas) {
        let track = trackRect(forBounds: bounds)
        guard track.width > 0 else { return }
        let split = thumbRect(forBounds: bounds, trackRect: track, value: shownValue ?? storedValue).midX
        let radius = track.height / 2
        let leading = Rect(x: track.minX, y: track.minY, width: split - track.minX, height: track.height)
        let trailing = Rect(x: split, y: track.minY, width: track.maxX - split, height: track.height)
        let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        canvas.fillRoundedRect(rtl ? leading : trailing, radius: radius, color: drawn(maximumTrackTintColor))
        canvas.fillRoundedRect(rtl ? trailing : leading, radius: radius, color: drawn(minimumTrackTintColor))
        if showsFocus {
            let ring = bounds.insetBy(dx: 1, dy: 1)
            canvas.strokeRoundedRect(ring, radius: min(ring.height / 2, 8), lineWidth: 2, color: .tint)
        }
    }

    // MARK: Value

    /// Sets the value (as setting `value` does); `animated`, the thumb and the track glide to it
    /// over `glideDuration` on UIKit's ease-in-out curve, while `value` reads the new value at
    /// once (UISlider's). Any other change, or a touch on the thumb, ends the glide there.
    public func setValue(_ value: Double, animated: Bool) {
        guard animated, let window, value.isFinite, drag == nil else {
            self.value = value
            return
        }
        let from = shownValue ?? storedValue
        glide = (from, nil)
        shownValue = from
        setValue(value, byUser: false, keepingGlide: true)
        guard storedValue != from else {
            endGlide()
            return
        }
        window.addAnimation(self)
    }

    /// Moves the shown value along the glide; false once it has arrived.
    public func advance(to time: Double) -> Bool {
        guard let g = glide else { return false }
        let start = g.start ?? time
        glide = (g.from, start)
        let p = min(1, max(0, (time - start) / Self.glideDuration))
        let e = TimingCurve.easeInOut.progress(at: p)
        shownValue = (1 - e) * g.from + e * storedValue
        placeThumb()
        setNeedsDisplay()
        guard p >= 1 else { return true }
        endGlide()
        return false
    }

    /// The thumb and the track show the value again.
    private func endGlide() {
        guard glide != nil || shownValue != nil else { return }
        glide = nil
        shownValue = nil
        window?.removeAnimation(self)
        placeThumb()
        setNeedsDisplay()
    }

    open override func didMoveToWindow() {
        super.didMoveToWindow()
        // Out of a window no frame moves it: it is where it goes.
        if window == nil { endGlide() } else if glide != nil { window?.addAnimation(self) }
    }

    private func rangeDidChange() {
        setValue(storedValue, byUser: false, force: true)
    }

    /// Sets the value (clamped), moves the thumb and redraws the track; `byUser` tells
    /// `onValueChanged` when it changed (and the drag is continuous, or there is none).
    private func setValue(_ new: Double, byUser: Bool, force: Bool = false, keepingGlide: Bool = false) {
        guard new.isFinite else { return }
        if !keepingGlide { endGlide() }
        let clamped = min(max(new, minimumValue), maximumValue)
        guard clamped != storedValue || force else { return }
        let changed = clamped != storedValue
        storedValue = clamped
        placeThumb()
        setNeedsDisplay()
        guard changed else { return }
        window?.postAccessibilityNotification(.valueChanged(self))
        if byUser, drag == nil || isContinuous { onValueChanged?(clamped) }
    }

    // MARK: Touches

    /// A pan along the track that starts on the thumb is the slider's, not a scroll view's or a
    /// row swipe's (the thumb is where such a touch landed, so only those are asked here).
    func thumbVetoes(_ recognizer: GestureRecognizer) -> Bool {
        guard let pan = recognizer as? PanGestureRecognizer, recognizer.view !== self else { return false }
        let t = pan.translation(in: self)
        return abs(t.x) > abs(t.y)
    }

    /// A touch took hold of the thumb at `location` (window coordinates).
    func beginDrag(_ touch: Touch, grabbingThumb: Bool) {
        guard drag == nil else { return }
        // A glide under way stops where it stands, under the finger.
        if let shown = shownValue { setValue(shown, byUser: false) }
        let x = convert(touch.location, from: nil).x
        let thumbCentre = thumb.frame.midX
        drag = (touch.id, grabbingThumb ? x - thumbCentre : 0, storedValue)
        isTracking = true
        if !grabbingThumb { setValue(value(atThumbCentre: x), byUser: true) }
    }

    func moveDrag(_ touch: Touch) {
        guard let d = drag, d.id == touch.id else { return }
        setValue(value(atThumbCentre: convert(touch.location, from: nil).x - d.grab), byUser: true)
    }

    func endDrag(_ touch: Touch) {
        guard let d = drag, d.id == touch.id else { return }
        moveDrag(touch)
        drag = nil
        isTracking = false
        if !isContinuous, storedValue != d.valueBefore { onValueChanged?(storedValue) }
    }

    /// The drag is undone: the value goes back to where it found it, and a continuous slider's
    /// listener hears that it did.
    func cancelDrag(_ touch: Touch) {
        guard let d = drag, d.id == touch.id else { return }
        drag = nil
        isTracking = false
        setValue(d.valueBefore, byUser: isContinuous)
    }

    /// On the track: the mouse puts the thumb where it pressed and drags it; a finger does
    /// nothing, as on UIKit's slider.
    open override func touchesBegan(_ touches: [Touch]) {
        guard let t = touches.first, t.source == .mouse else { return }
        beginDrag(t, grabbingThumb: false)
    }
    open override func touchesMoved(_ touches: [Touch]) { touches.first.map(moveDrag) }
    open override func touchesEnded(_ touches: [Touch]) { touches.first.map(endDrag) }
    open override func touchesCancelled(_ touches: [Touch]) { touches.first.map(cancelDrag) }

    // MARK: Keys

    open override func handleInput(_ event: InputEvent) -> Bool {
        guard isFocused, isEnabled, case .key(let key, let pressed, let modifiers) = event.kind,
            modifiers.isDisjoint(with: [.control, .alt, .logo])
        else { return false }
        let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        let target: Double
        switch key {
        case .up: target = storedValue + step
        case .down: target = storedValue - step
        case .right: target = storedValue + (rtl ? -step : step)
        case .left: target = storedValue + (rtl ? step : -step)
        case .home: target = minimumValue
        case .end: target = maximumValue
        default: return false
        }
        if pressed, drag == nil { setValue(target, byUser: true) }
        return true
    }

    /// A drag under way when it was disabled is undone, as a cancel is; the thumb is drawn
    /// faint or full again.
    open override func enabledDidChange() {
        super.enabledDidChange()
        thumb.setNeedsDisplay()
        if !isEnabled, let d = drag {
            drag = nil
            isTracking = false
            setValue(d.valueBefore, byUser: isContinuous)
        }
    }

    /// A tenth of the range.
    private var step: Double { maximumValue * Self.stepFraction - minimumValue * Self.stepFraction }

    // MARK: Accessibility

    open override var accessibilityDefaults: AccessibilityDefaults {
        AccessibilityDefaults(role: .slider, isElement: true)
    }

    /// The value, said as UIKit's slider says it: its place in the range, in whole percent.
    open override var accessibilityValue: AccessibilityValue? {
        let percent = Int(clamping: fraction(of: storedValue) * 100, rounding: .toNearestOrAwayFromZero)
        return AccessibilityValue(
            current: storedValue, minimum: minimumValue, maximum: maximumValue, step: step, text: "\(percent)%")
    }

    open override func accessibilityIncrement() { setValue(storedValue + step, byUser: true) }
    open override func accessibilityDecrement() { setValue(storedValue - step, byUser: true) }

    open override func accessibilitySetValue(_ value: Double) -> Bool {
        setValue(value, byUser: true)
        return true
    }
}

/// The slider's thumb: a white disc with a soft edge, whose touches are the slider's drags and
/// which keeps a pan along the track from the recognizers above it.
final class SliderThumb: View {
    var color: Color = .white { didSet { setNeedsDisplay() } }

    private var slider: Slider? { superview as? Slider }

    override var drawsContent: Bool { true }

    override func draw(in canvas: Canvas) {
        let disc = bounds.insetBy(dx: 1, dy: 1)
        // A shadow below and a hairline edge, so the white disc stands out on a white page.
        let shade: (Color) -> Color = { self.slider?.drawn($0) ?? $0 }
        canvas.fillEllipse(in: disc.offsetBy(dx: 0, dy: 1), color: shade(Color.black.withAlpha(0.12)))
        canvas.fillEllipse(in: disc, color: shade(Color.black.withAlpha(0.06)))
        canvas.fillEllipse(in: disc.insetBy(dx: 0.5, dy: 0.5), color: shade(color))
    }

    /// A finger's 44 points, around the 28-point disc.
    override func point(inside point: Point) -> Bool { bounds.insetBy(dx: -8, dy: -8).contains(point) }

    override func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
        !(slider?.thumbVetoes(recognizer) ?? false)
    }

    override func touchesBegan(_ touches: [Touch]) { touches.first.map { slider?.beginDrag($0, grabbingThumb: true) } }
    override func touchesMoved(_ touches: [Touch]) { touches.first.map { slider?.moveDrag($0) } }
    override func touchesEnded(_ touches: [Touch]) { touches.first.map { slider?.endDrag($0) } }
    override func touchesCancelled(_ touches: [Touch]) { touches.first.map { slider?.cancelDrag($0) } }
}
