import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster

/// On or off, as UIKit's UISwitch: a rounded track (the tint when on, grey when off) with a
/// white knob at the end that says which. A tap toggles it, as Space or Enter do while it has
/// the keyboard focus; `onValueChanged` hears every change the user makes (not one made in
/// code, as UIKit's valueChanged).
///
/// A screen reader hears it as a toggle button, checkable, checked while on (AT-SPI has no
/// switch role in at-spi2-core 2.46; GTK 4 names its switch the same way), named by its
/// `accessibilityLabel`: give it the words of the label beside it, as a UISwitch is given
/// them.
open class Switch: PressableControl {
    /// Whether it is on. Setting it redraws it; only the user's changes call `onValueChanged`.
    public var isOn: Bool {
        didSet {
            guard isOn != oldValue else { return }
            setNeedsDisplay()
            window?.postAccessibilityNotification(.stateChanged(self, .checked, isOn))
        }
    }
    /// The track's colour while on.
    public var onTintColor: Color = Color(rgb: 52, 199, 89) { didSet { setNeedsDisplay() } }
    /// The track's colour while off.
    public var offTintColor: Color = Color(rgb: 229, 229, 234) { didSet { setNeedsDisplay() } }
    public var thumbColor: Color = .white { didSet { setNeedsDisplay() } }
    /// Called after the user turned it on or off (a tap, a key, a screen reader's click).
    public var onValueChanged: ((Bool) -> Void)?

    /// UISwitch's size: the track is 51 by 31 points, centred in the view.
    public static let trackSize = Size(width: 51, height: 31)

    public init(isOn: Bool = false, frame: Rect = .zero) {
        self.isOn = isOn
        super.init(frame: frame)
        canBecomeFocused = true
    }

    open override var drawsContent: Bool { true }

    open override var accessibilityDefaults: AccessibilityDefaults {
        AccessibilityDefaults(role: .toggleButton, isElement: true)
    }

    open override var accessibilityExtraStates: AccessibilityStates { isOn ? [.checkable, .checked] : .checkable }

    /// A screen reader's click toggles it, as a tap does.
    open override func accessibilityActivate() -> Bool {
        toggle()
        return true
    }

    /// Turns it over, as the user does: `onValueChanged` hears it.
    public func toggle() {
        isOn.toggle()
        onValueChanged?(isOn)
    }

    /// The track, centred: its size where the view is big enough, else the view's.
    var trackRect: Rect {
        let w = min(Self.trackSize.width, bounds.width)
        let h = min(Self.trackSize.height, bounds.height)
        return Rect(x: (bounds.width - w) / 2, y: (bounds.height - h) / 2, width: w, height: h)
    }

    open override func draw(in canvas: Canvas) {
        let track = trackRect
        guard track.width > 0, track.height > 0 else { return }
        let radius = track.height / 2
        var fill = drawn(isOn ? onTintColor : offTintColor)
        if isHighlighted { fill = Color(red: fill.red * 0.85, green: fill.green * 0.85, blue: fill.blue * 0.85) }
        canvas.fillRoundedRect(track, radius: radius, color: fill)
        let inset = 2.0
        let d = max(0, track.height - 2 * inset)
        let x = isOn ? track.maxX - inset - d : track.minX + inset
        canvas.fillEllipse(in: Rect(x: x, y: track.minY + inset, width: d, height: d), color: drawn(thumbColor))
        if showsFocus {
            let ring = track.insetBy(dx: -3, dy: -3)
            canvas.strokeRoundedRect(ring, radius: radius + 3, lineWidth: 2, color: .tint)
        }
    }

    /// A press that ended inside, or Space or Enter released while focused: it turns.
    open override func pressDidComplete() { toggle() }

    /// The track, and the 44 points a finger needs across.
    open override func sizeThatFits(_ size: Size) -> Size { Size(width: Self.trackSize.width + 8, height: 44) }

    open override var intrinsicContentSize: Size { sizeThatFits(.zero) }
}
