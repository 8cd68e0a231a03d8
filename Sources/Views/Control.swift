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
