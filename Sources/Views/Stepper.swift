import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster

/// A number stepped up or down by a fixed amount, as UIKit's UIStepper: a grey rounded band of
/// two halves, "−" on the leading one and "+" on the trailing one (right to left, "+" on the
/// left). A press on a half steps the value at once by `stepValue`, within
/// `minimumValue...maximumValue`; the half that cannot go further is drawn faint and does
/// nothing, unless `wraps`, which carries the value round to the other end.
///
/// Held (`autorepeat`, on by default), a half steps again after `repeatDelay` and then every
/// `repeatInterval`, every `fastRepeatInterval` once it has stepped `repeatsBeforeSpeedingUp`
/// times (UIKit documents the repeat, not its pace: these are ours). The repeats are counted
/// on the window's clock from the press, so how far a hold goes depends on how long it was
/// held, not on the frames drawn. A finger that slides off its half stops the repeats (the
/// half is no longer highlighted) and sliding back resumes them; a cancelled touch keeps the
/// steps it made, as UIKit's does.
///
/// `onValueChanged` hears the user's changes (a press, a repeat, a key, a screen reader): each
/// step while `isContinuous`, else once as the press ends. A value set in code is not told.
///
/// Focused (Tab), Up and Right step it up and Down and Left step it down (Right and Left
/// swapped right to left); Home and End take it to its ends, as a desktop spin button's do. A
/// screen reader reads it as a spin button with its number and range (AT-SPI's Value), steps
/// it by `stepValue`, or sets it to a number.
open class Stepper: Control {
    /// The value, kept within `minimumValue...maximumValue`.
    public var value: Double {
        get { storedValue }
        set { setValue(newValue, byUser: false) }
    }
    /// The lowest value. Set above `maximumValue`, it takes that along.
    public var minimumValue = 0.0 {
        didSet {
            guard minimumValue.isFinite else {
                minimumValue = oldValue
                return
            }
            if maximumValue < minimumValue { maximumValue = minimumValue }
            setValue(storedValue, byUser: false, force: true)
        }
    }
    /// The highest value (UIKit's default, 100). Set below `minimumValue`, it takes that along.
    public var maximumValue = 100.0 {
        didSet {
            guard maximumValue.isFinite else {
                maximumValue = oldValue
                return
            }
            if minimumValue > maximumValue { minimumValue = maximumValue }
            setValue(storedValue, byUser: false, force: true)
        }
    }
    /// How far a press moves the value (1 by default). Not more than 0, or not finite, it is
    /// refused and the old step kept (UIKit raises an exception).
    public var stepValue = 1.0 {
        didSet { if !(stepValue > 0 && stepValue.isFinite) { stepValue = oldValue } }
    }
    /// Whether a step past an end carries the value round to the other end (off by default).
    public var wraps = false { didSet { setNeedsDisplay() } }
    /// Whether holding a half steps again and again (on by default).
    public var autorepeat = true
    /// Whether `onValueChanged` hears each step of a hold (true), or only once as it ends.
    public var isContinuous = true
    /// The colour of the band, of a half under a finger, and of the "−" and "+".
    public var fillColor = Color(rgb: 238, 238, 239) { didSet { setNeedsDisplay() } }
    public var highlightColor = Color(rgb: 209, 209, 214) { didSet { setNeedsDisplay() } }
    public var glyphColor = Color.black { didSet { setNeedsDisplay() } }
    /// Called after the user changed the value (see `isContinuous`), with the new value.
    public var onValueChanged: ((Double) -> Void)?

    /// UIStepper's size.
    public static let standardSize = Size(width: 94, height: 32)
    public static let cornerRadius = 8.0
    /// The hold before the first repeat, the pace of the repeats, and the faster pace after
    /// `repeatsBeforeSpeedingUp` of them.
    public static let repeatDelay = 0.5
    public static let repeatInterval = 0.1
    public static let fastRepeatInterval = 0.05
    public static let repeatsBeforeSpeedingUp = 20

    /// A half of the stepper.
    public enum Half: Sendable, Equatable {
        case decrement, increment
    }

    /// The half under a press, while it is highlighted (a finger on it).
    public private(set) var highlightedHalf: Half?

    private var storedValue: Double
    /// A press: its touch, its half, the value before it, and how many repeats it has made.
    private typealias Press = (id: Int, half: Half, valueBefore: Double, repeats: Int)
    /// The press under way.
    private var press: Press?
    /// The next repeat's timer, the window whose clock runs it (cancelled there after the
    /// stepper has left it), and its deadline.
    private var repeatTimer: TimerToken?
    private weak var repeatWindow: Window?
    private var nextRepeat: Double?

    public init(value: Double = 0, frame: Rect = .zero) {
        storedValue = min(max(value.isFinite ? value : 0, 0), 100)
        super.init(frame: frame)
        canBecomeFocused = true
        if frame.size == .zero { self.frame.size = Self.standardSize }
    }

    open override var intrinsicContentSize: Size { Self.standardSize }
    open override func sizeThatFits(_ size: Size) -> Size { Self.standardSize }

    // MARK: Halves

    /// The rect of `half` in `bounds`: the leading half decrements (the trailing one, right to
    /// left).
    public func rect(for half: Half) -> Rect {
        let left = Rect(x: bounds.minX, y: bounds.minY, width: bounds.width / 2, height: bounds.height)
        let right = Rect(x: bounds.midX, y: bounds.minY, width: bounds.width / 2, height: bounds.height)
        let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        return (half == .decrement) != rtl ? left : right
    }

    /// Whether a press on `half` would change the value: not at its end, unless it wraps.
    public func canStep(_ half: Half) -> Bool {
        guard isEnabled else { return false }
        if wraps { return minimumValue < maximumValue }
        return half == .decrement ? storedValue > minimumValue : storedValue < maximumValue
    }

    /// The value one step along `half`: clamped at the ends, or carried round when it wraps
    /// (UIStepper's wrap lands on the other end, not past it). A sum that misses an end by a
    /// rounding (0.7 + 0.1 is 0.7999999999999999) lands on it, not round past it: the ends
    /// are widened by a billionth of a step.
    private func stepped(_ half: Half) -> Double {
        let next = half == .decrement ? storedValue - stepValue : storedValue + stepValue
        let slack = stepValue * 1e-9
        if abs(next - maximumValue) <= slack { return maximumValue }
        if abs(next - minimumValue) <= slack { return minimumValue }
        guard wraps else { return min(max(next, minimumValue), maximumValue) }
        if next > maximumValue { return minimumValue }
        if next < minimumValue { return maximumValue }
        return next
    }

    /// One step along `half`, by the user.
    private func step(_ half: Half) {
        guard canStep(half) else { return }
        setValue(stepped(half), byUser: true)
    }

    // MARK: Drawing

    open override var drawsContent: Bool { true }

    open override func draw(in canvas: Canvas) {
        canvas.fillRoundedRect(bounds, radius: Self.cornerRadius, color: drawn(fillColor))
        if let half = highlightedHalf {
            // The band's half: rounded on its outer corners, square where it meets the other.
            let r = rect(for: half)
            let radius = min(Self.cornerRadius, r.width / 2)
            let inner = r.minX < bounds.midX ? r.maxX - radius : r.minX
            canvas.fillRoundedRect(r, radius: radius, color: drawn(highlightColor))
            canvas.fill(Rect(x: inner, y: r.minY, width: radius, height: r.height), color: drawn(highlightColor))
        }
        // The divider, 18 high in the middle.
        canvas.fill(
            Rect(x: bounds.midX - 0.5, y: bounds.midY - 9, width: 1, height: 18),
            color: drawn(Color(rgb: 142, 142, 147).withAlpha(0.3)))
        for half in [Half.decrement, .increment] {
            let c = rect(for: half).center
            let color = canStep(half) ? glyphColor : glyphColor.withAlpha(glyphColor.alpha * Control.disabledAlpha)
            let ink = drawn(color)
            canvas.fill(Rect(x: c.x - 7, y: c.y - 1, width: 14, height: 2), color: ink)
            // The "+"'s upright above and below the bar, not over it: a faint ink is laid once.
            if half == .increment {
                canvas.fill(Rect(x: c.x - 1, y: c.y - 7, width: 2, height: 6), color: ink)
                canvas.fill(Rect(x: c.x - 1, y: c.y + 1, width: 2, height: 6), color: ink)
            }
        }
        if showsFocus {
            canvas.strokeRoundedRect(
                bounds.insetBy(dx: 1, dy: 1), radius: Self.cornerRadius - 1, lineWidth: 2, color: .tint)
        }
    }

    // MARK: Value

    /// Sets the value (clamped) and redraws; `byUser` tells `onValueChanged` when it changed
    /// (and the press is continuous, or there is none).
    private func setValue(_ new: Double, byUser: Bool, force: Bool = false) {
        guard new.isFinite else { return }
        let clamped = min(max(new, minimumValue), maximumValue)
        guard clamped != storedValue || force else { return }
        let changed = clamped != storedValue
        storedValue = clamped
        setNeedsDisplay()
        guard changed else { return }
        window?.postAccessibilityNotification(.valueChanged(self))
        if byUser, press == nil || isContinuous { onValueChanged?(clamped) }
    }

    // MARK: Touches

    /// The half at `location` (window coordinates), if the point is on the stepper.
    private func half(at location: Point) -> Half? {
        let p = convert(location, from: nil)
        guard bounds.contains(p) else { return nil }
        return rect(for: .decrement).contains(p) ? .decrement : .increment
    }

    open override func touchesBegan(_ touches: [Touch]) {
        guard press == nil, let t = touches.first, let half = half(at: t.location), canStep(half) else { return }
        press = (t.id, half, storedValue, 0)
        highlightedHalf = half
        setNeedsDisplay()
        step(half)
        scheduleRepeat(at: t.timestamp + Self.repeatDelay)
    }

    /// Off its half (20 points of slack) the press lets go of the highlight and the repeats
    /// wait; back on, they go on from now.
    open override func touchesMoved(_ touches: [Touch]) {
        guard let p = press, let t = touches.first, t.id == p.id else { return }
        let on = rect(for: p.half).insetBy(dx: -20, dy: -20).contains(convert(t.location, from: nil))
        guard on != (highlightedHalf != nil) else { return }
        highlightedHalf = on ? p.half : nil
        setNeedsDisplay()
        if on {
            scheduleRepeat(at: t.timestamp + (p.repeats == 0 ? Self.repeatDelay : interval(after: p.repeats)))
        } else {
            cancelRepeat()
        }
    }

    open override func touchesEnded(_ touches: [Touch]) { endPress(touches) }
    open override func touchesCancelled(_ touches: [Touch]) { endPress(touches) }

    /// The press is over: the repeats stop, and a stepper that is not continuous tells its
    /// listener of the value the press left, if it moved.
    private func endPress(_ touches: [Touch]) {
        guard let p = press, let t = touches.first, t.id == p.id else { return }
        finishPress(p)
    }

    private func finishPress(_ p: Press) {
        press = nil
        cancelRepeat()
        if highlightedHalf != nil {
            highlightedHalf = nil
            setNeedsDisplay()
        }
        if !isContinuous, storedValue != p.valueBefore { onValueChanged?(storedValue) }
    }

    /// The pace after `repeats` repeats.
    private func interval(after repeats: Int) -> Double {
        repeats < Self.repeatsBeforeSpeedingUp ? Self.repeatInterval : Self.fastRepeatInterval
    }

    private func scheduleRepeat(at deadline: Double) {
        cancelRepeat()
        guard autorepeat, let window else { return }
        nextRepeat = deadline
        repeatWindow = window
        repeatTimer = window.schedule(at: deadline) { [weak self] in self?.repeatStep() }
    }

    private func cancelRepeat() {
        repeatWindow?.cancelTimer(repeatTimer)
        repeatTimer = nil
        repeatWindow = nil
        nextRepeat = nil
    }

    /// A repeat fell due: one more step, and the next one scheduled from this one's deadline
    /// (not from when it fired), so the count follows the time held.
    private func repeatStep() {
        guard var p = press, let due = nextRepeat else { return }
        repeatTimer = nil
        guard canStep(p.half) else {
            nextRepeat = nil
            return
        }
        step(p.half)
        p.repeats += 1
        press = p
        scheduleRepeat(at: due + interval(after: p.repeats))
    }

    open override func didMoveToWindow() {
        super.didMoveToWindow()
        // Out of a window no clock runs it: the press is over.
        if window == nil, let p = press { finishPress(p) }
    }

    // MARK: Keys

    open override func handleInput(_ event: InputEvent) -> Bool {
        guard isFocused, isEnabled, case .key(let key, let pressed, let modifiers) = event.kind,
            modifiers.isDisjoint(with: [.control, .alt, .logo])
        else { return false }
        let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        let half: Half
        switch key {
        case .up: half = .increment
        case .down: half = .decrement
        case .right: half = rtl ? .decrement : .increment
        case .left: half = rtl ? .increment : .decrement
        case .home:
            if pressed, press == nil { setValue(minimumValue, byUser: true) }
            return true
        case .end:
            if pressed, press == nil { setValue(maximumValue, byUser: true) }
            return true
        default: return false
        }
        if pressed, press == nil { step(half) }
        return true
    }

    /// A press under way when it was disabled ends there.
    open override func enabledDidChange() {
        super.enabledDidChange()
        if !isEnabled, let p = press { finishPress(p) }
    }

    // MARK: Accessibility

    open override var accessibilityDefaults: AccessibilityDefaults {
        AccessibilityDefaults(role: .spinButton, isElement: true)
    }

    /// The number, as a reader says it: whole numbers without a point, others as they are.
    open override var accessibilityValue: AccessibilityValue? {
        // To twelve significant digits: 0.1 + 0.2 is said "0.3", not "0.30000000000000004".
        let shown = Self.twelveDigits(storedValue)
        let text = Int64(exactly: shown).map { String($0) } ?? "\(shown)"
        return AccessibilityValue(
            current: storedValue, minimum: minimumValue, maximum: maximumValue, step: stepValue, text: text)
    }

    /// `v` rounded to twelve significant digits (its decimal exponent from its binary one, a
    /// digit out at most, which leaves eleven or twelve), as it is said.
    static func twelveDigits(_ v: Double) -> Double {
        guard v != 0, v.isFinite else { return v }
        let exponent = Int(clamping: (Double(v.exponent) * 0.30103).rounded(.down), rounding: .down)
        let digits = 11 - exponent
        guard digits > 0, digits < 300 else { return v }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return (v * scale).rounded() / scale
    }

    open override func accessibilityIncrement() { step(.increment) }
    open override func accessibilityDecrement() { step(.decrement) }

    open override func accessibilitySetValue(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        setValue(value, byUser: true)
        return true
    }
}
