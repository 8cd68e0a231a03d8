import ScrollwayGestures

/// Something that follows a window's frames, focus and interactive keyboard drags. Any number
/// of parties observe one window at once (the on-screen keyboard and a trace recorder, say),
/// each without knowing of the others, so none has to chain its predecessor's hook.
///
/// Every method has a do-nothing default: an observer implements what it follows.
@MainActor
public protocol WindowObserver: AnyObject {
    /// A frame for `time` is about to be prepared: nothing has advanced or been laid out yet.
    func window(_ window: Window, willPrepareFrameAt time: Double)
    /// The frame for `time` has run its animations and laid out, and nothing is drawn yet:
    /// what shows where is known, so a view that draws on demand asks for what it will show
    /// (a tiled view its tiles) in time for this frame.
    func window(_ window: Window, didLayOutFrameAt time: Double)
    /// The frame for `time` is prepared (animations run, layout done, content drawn): what it
    /// shows is final here, which is when a trace records it.
    func window(_ window: Window, didPrepareFrameAt time: Double)
    /// The focused view changed to `view` (nil: none); `byTouch` says whether a touch did it
    /// (an on-screen keyboard shows for those).
    func window(_ window: Window, focusDidChangeTo view: View?, byTouch: Bool)
    /// The window got or lost the seat's keyboard (`isKeyWindow`): a screen reader reads the
    /// active window only.
    func window(_ window: Window, keyWindowDidChange isKey: Bool)
    /// A scroll view that dismisses the keyboard interactively reports its dragging finger's
    /// window y, then nil when the drag ends: an on-screen keyboard follows the finger.
    func window(_ window: Window, interactiveKeyboardDragAt fingerY: Double?)
    /// An input event reached the window from its platform and is about to be routed (a
    /// recorder writes it down; nothing should change the window from here).
    func window(_ window: Window, willHandle event: InputEvent)
    /// A view posted something for assistive technology (`postAccessibilityNotification`).
    func window(_ window: Window, accessibilityNotification notification: AccessibilityNotification)
    /// A gesture recognizer of a view in the window changed state (a trace records the named
    /// ones, so a plot shows why a gesture went one way).
    func window(_ window: Window, gestureRecognizer: GestureRecognizer, didChangeTo state: GestureRecognizer.State)
}

extension WindowObserver {
    public func window(_ window: Window, willPrepareFrameAt time: Double) {}
    public func window(_ window: Window, didLayOutFrameAt time: Double) {}
    public func window(_ window: Window, didPrepareFrameAt time: Double) {}
    public func window(_ window: Window, focusDidChangeTo view: View?, byTouch: Bool) {}
    public func window(_ window: Window, keyWindowDidChange isKey: Bool) {}
    public func window(_ window: Window, interactiveKeyboardDragAt fingerY: Double?) {}
    public func window(_ window: Window, willHandle event: InputEvent) {}
    public func window(_ window: Window, accessibilityNotification notification: AccessibilityNotification) {}
    public func window(
        _ window: Window, gestureRecognizer: GestureRecognizer, didChangeTo state: GestureRecognizer.State
    ) {}
}

extension Window {
    /// Adds `observer`, held weakly, after those already added: observers hear of each thing in
    /// the order they were added. Adding one twice keeps its first place. One added during a
    /// notification hears from the next one on.
    public func addObserver(_ observer: any WindowObserver) { observers.add(observer) }

    /// Removes `observer`; if a notification is under way and has not reached it yet, it does
    /// not hear that one either.
    public func removeObserver(_ observer: any WindowObserver) { observers.remove(observer) }

    /// Tells the observers that a scroll view's interactive keyboard drag moved to `fingerY`
    /// (window coordinates), or ended (nil).
    public func reportInteractiveKeyboardDrag(fingerY: Double?) {
        notifyObservers { $0.window(self, interactiveKeyboardDragAt: fingerY) }
    }

    /// Calls `body` with each live observer in the order added (`ObserverList`: an observer may
    /// add or remove observers from inside the call).
    func notifyObservers(_ body: (any WindowObserver) -> Void) {
        // A copy, so the call that walks it does not hold an access to the window's list while
        // an observer changes it.
        let current = observers
        current.forEach(body)
    }
}
