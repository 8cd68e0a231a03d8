import ScrollwayGestures

/// A view that acts on touches itself (UIControl's place): buttons, text fields and future
/// controls. A scroll view treats a touch that starts on one differently, as UIKit does: by
/// default it does not cancel a control's touch to scroll (`touchesShouldCancel(in:)` is false
/// for controls), so a finger held on a button past the 150 ms delay stays the button's.
///
/// A control can also take the keyboard focus: Tab and Shift+Tab move it through the controls
/// whose `canBecomeFocused` is true, in reading order (`Window.moveFocus(backwards:)`).
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

    /// Whether Tab stops here: false for a plain control, true for text fields and buttons
    /// (their initializers set it). An app sets it to take a control out of the keyboard's
    /// path, or to put one in.
    public var canBecomeFocused = false

    /// Whether this control has its window's keyboard focus.
    public var isFocused: Bool { window?.focusedView === self }

    /// Takes the keyboard focus (`byTouch` tells an on-screen keyboard whether a touch did it).
    open func becomeFocused(byTouch: Bool = false) {
        window?.focus(self, byTouch: byTouch)
    }

    /// Gives the keyboard focus up, if this control has it.
    public func resignFocus() {
        if isFocused { window?.focus(nil, byTouch: false) }
    }
}
