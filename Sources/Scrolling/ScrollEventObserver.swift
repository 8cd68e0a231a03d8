/// Something that follows a scroll view's delegate events as values, beside its delegate: a
/// trace recorder, a test's invariant checker. Any number observe one scroll view at once, each
/// without knowing of the others (as `WindowObserver`s do a window), so none chains another's
/// hook. Observers hear each event after `ScrollView.eventObserver` and before the delegate, in
/// the order they were added; `willEndDragging` carries the proposed target, before the delegate
/// may change it.
@MainActor
public protocol ScrollEventObserver: AnyObject {
    func scrollView(_ scrollView: ScrollView, didSend event: ScrollEvent)
    /// A programmatic animation stopped short of its end (a touch held the content still):
    /// no delegate call says so (UIKit sends none), but an observer waiting for the animation's
    /// end (a page control's turn) hears it here. Nothing by default.
    func scrollViewAnimationStoppedShort(_ scrollView: ScrollView)
}

extension ScrollEventObserver {
    public func scrollViewAnimationStoppedShort(_ scrollView: ScrollView) {}
}

extension ScrollView {
    /// Adds `observer`, held weakly, after those already added; adding one twice keeps its
    /// first place.
    public func addEventObserver(_ observer: any ScrollEventObserver) { eventObservers.add(observer) }

    /// Removes `observer`; a notification under way that has not reached it skips it.
    public func removeEventObserver(_ observer: any ScrollEventObserver) { eventObservers.remove(observer) }

    /// Tells each live observer of `event` (`ObserverList`: an observer may add or remove
    /// observers from inside the call).
    func notifyEventObservers(_ event: ScrollEvent) {
        // A copy, so the walk holds no access to the view's list while an observer changes it.
        let current = eventObservers
        current.forEach { $0.scrollView(self, didSend: event) }
    }

    /// Tells each live observer that a programmatic animation stopped short of its end.
    func notifyAnimationStoppedShort() {
        let current = eventObservers
        current.forEach { $0.scrollViewAnimationStoppedShort(self) }
    }
}
