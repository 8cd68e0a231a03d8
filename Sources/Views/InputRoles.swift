// The roles a view can take in the window's input routing. A view adopts the protocol of a role
// it takes (a scroll view takes all four), so the window asks `view as? Role` and a plain view
// carries no hooks for routing it never does.

/// A view that takes the touches landing in it or its subviews and decides itself when, and
/// whether, the content under them hears of each one (a scroll view's arbitration: wait, scroll,
/// or hand the touch on). The window routes a touch to the innermost intercepting ancestor of
/// the view it landed on, then sends that view the rest of the touch until it ends, is cancelled
/// or is handed to another interceptor (`Window.rerouteTouch(id:to:)`).
///
/// Only views are found this way (the window walks up from the hit view); adopted by a class
/// that may be subclassed, the members are best declared `open` so subclasses can refine them.
@MainActor
public protocol TouchInterceptor: AnyObject {
    /// Whether this view takes touches from `source` (a scroll view: fingers always, the mouse
    /// where it drags).
    func interceptsTouches(from source: Touch.Source) -> Bool
    /// A touch began on `target` (nil: on nothing that takes touches) inside this view.
    func interceptedTouchBegan(_ touch: Touch, target: View?)
    func interceptedTouchMoved(_ touch: Touch)
    func interceptedTouchEnded(_ touch: Touch)
    func interceptedTouchCancelled(_ touch: Touch)
    /// The view `touch` landed on (its content target) is leaving the window while this view
    /// keeps the gesture (a list recycling the row under a finger): whatever it was told of the
    /// touch ends with a cancel, and it hears nothing more of it.
    func interceptedTouchTargetWillLeave(_ touch: Touch)
}

/// A view that can answer the window's scroll-to-top request (`Window.requestScrollToTop()`, a
/// tap on the title bar): a scroll view whose `scrollsToTop` is true.
@MainActor
public protocol ScrollToTopTarget: AnyObject {
    /// Whether it answers the request now; the window goes ahead only when exactly one visible
    /// view does.
    var takesScrollToTop: Bool { get }
    /// Carries out the request (a scroll view scrolls to its top).
    func performScrollToTop()
}

/// A view that takes keys when no view is focused and none under the pointer handles them (the
/// scene's scroll view, so arrows and Page Down scroll without a click first). The window gives
/// them, through `handleInput(_:)`, to the first such view of its tree, nearest the root first.
@MainActor
public protocol KeyboardScrollTarget: AnyObject {
    /// Whether it takes them now (a scroll view: while scrolling is enabled).
    var acceptsKeyboardScrolling: Bool { get }
}

/// A view that brings a descendant into sight when it gains the keyboard focus (a scroll view:
/// Tab onto a field below the fold scrolls the form to it). The window asks the focused view's
/// nearest such ancestor.
@MainActor
public protocol FocusScrollTarget: AnyObject {
    /// Shows `view` (a descendant) with a margin, animated, moving the least distance.
    func scrollToShowFocused(_ view: View)
}

/// A view that is the window's on-screen keyboard (the scrolling layer's `OnScreenKeyboard`). It
/// belongs to the app, so a replay shows and hides it in the app on every platform, offscreen or
/// in a compositor, never by injecting input: the frame drivers and players find it through this
/// role without depending on the layer that draws it.
@MainActor
public protocol OnScreenKeyboardRole: AnyObject {
    /// Slides the keyboard in (animated); the scroll views it covers gain a keyboard inset.
    func show()
    /// Slides it out again.
    func hide()
}
