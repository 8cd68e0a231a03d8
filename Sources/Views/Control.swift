import ScrollwayGestures
import ScrollwayRaster

/// A view that acts on touches itself (UIControl's place): buttons, text fields and future
/// controls. A scroll view treats a touch that starts on one differently, as UIKit does: by
/// default it does not cancel a control's touch to scroll (`touchesShouldCancel(in:)` is false
/// for controls), so a finger held on a button past the 150 ms delay stays the button's.
///
/// A control can also take the keyboard focus (`View.canBecomeFocused`, `isFocused`): Tab and
/// Shift+Tab move it through the views that can, in reading order (`Window.moveFocus(backwards:)`).
open class Control: View {
    /// Whether the control responds (UIControl's `isEnabled`, true by default). A disabled
    /// control is drawn faint (`drawn(_:)`), hears no touches (one that lands on it stops
    /// there, as in UIKit: it is not passed to what lies under it), is passed over by Tab and
    /// gives up the focus, and a screen reader hears it as not enabled and cannot act on it.
    public var isEnabled = true {
        didSet {
            guard isEnabled != oldValue else { return }
            if !isEnabled, let window, let focused = window.focusedView,
                focused === self || focused.isDescendant(of: self)
            {
                window.focus(nil, byTouch: false)
            }
            enabledDidChange()
            setNeedsDisplay()
            window?.postAccessibilityNotification(.stateChanged(self, .enabled, isEnabled))
        }
    }

    /// Called after `isEnabled` changed: a control drops what a touch was doing with it (as a
    /// cancel would) and redraws the parts that are views of their own.
    open func enabledDidChange() {}

    /// How strongly a disabled control's colours are drawn.
    public static let disabledAlpha = 0.4

    /// `color` as the control draws it now: fainter while it is disabled.
    public func drawn(_ color: Color) -> Color {
        isEnabled ? color : color.withAlpha(color.alpha * Self.disabledAlpha)
    }

    /// Whether `view` is a disabled control or inside one: its touches go nowhere, Tab passes
    /// it by, and a reader hears it as not enabled.
    public static func isDisabled(_ view: View) -> Bool {
        var v: View? = view
        while let current = v {
            if let control = current as? Control, !control.isEnabled { return true }
            v = current.superview
        }
        return false
    }

    /// Whether `view` is a control or sits inside one (a control's own label or image).
    public static func contains(_ view: View, below ancestor: View? = nil) -> Bool {
        var v: View? = view
        while let current = v, current !== ancestor {
            if current is Control { return true }
            v = current.superview
        }
        return false
    }

}

/// A control a press acts on, as a button or a switch: it highlights while a finger (or the
/// mouse) is on it, acts when the press ends inside it (20 px of slack around its edges), and
/// does nothing when the touch is cancelled (a scroll view took it over). Focused, Space or
/// Enter act as a press does: highlighted while the key is down, acting on release, and both
/// keys are the control's, so Space does not page the scroll view around it.
open class PressableControl: Control {
    public internal(set) var isHighlighted = false {
        didSet { if isHighlighted != oldValue { setNeedsDisplay() } }
    }

    /// What a completed press does (a button fires, a switch turns).
    open func pressDidComplete() {}

    /// A press under way when it was disabled ends as a cancel does.
    open override func enabledDidChange() {
        super.enabledDidChange()
        if !isEnabled { isHighlighted = false }
    }

    open override func touchesBegan(_ touches: [Touch]) { isHighlighted = true }

    open override func touchesMoved(_ touches: [Touch]) {
        guard let t = touches.first else { return }
        isHighlighted = bounds.insetBy(dx: -20, dy: -20).contains(convert(t.location, from: nil))
    }

    open override func touchesEnded(_ touches: [Touch]) {
        let inside =
            touches.first.map { bounds.insetBy(dx: -20, dy: -20).contains(convert($0.location, from: nil)) } ?? false
        isHighlighted = false
        if inside { pressDidComplete() }
    }

    open override func touchesCancelled(_ touches: [Touch]) { isHighlighted = false }

    open override func handleInput(_ event: InputEvent) -> Bool {
        guard isFocused, isEnabled, case .key(let key, let pressed, let modifiers) = event.kind,
            key == .space || key == .enter,
            modifiers.isDisjoint(with: [.control, .alt, .logo])
        else { return false }
        if pressed {
            isHighlighted = true
        } else if isHighlighted {
            isHighlighted = false
            pressDidComplete()
        }
        return true
    }
}
