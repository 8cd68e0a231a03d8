import ScrollwayGestures

/// A view that acts on touches itself (UIControl's place): buttons, text fields and future
/// controls. A scroll view treats a touch that starts on one differently, as UIKit does: by
/// default it does not cancel a control's touch to scroll (`touchesShouldCancel(in:)` is false
/// for controls), so a finger held on a button past the 150 ms delay stays the button's.
///
/// A control can also take the keyboard focus (`View.canBecomeFocused`, `isFocused`): Tab and
/// Shift+Tab move it through the views that can, in reading order (`Window.moveFocus(backwards:)`).
open class Control: View {
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
        guard isFocused, case .key(let key, let pressed, let modifiers) = event.kind, key == .space || key == .enter,
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
