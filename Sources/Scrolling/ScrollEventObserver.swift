/// Something that follows a scroll view's delegate events as values, beside its delegate: a
/// trace recorder, a test's invariant checker. Any number observe one scroll view at once, each
/// without knowing of the others (as `WindowObserver`s do a window), so none chains another's
/// hook. Observers hear each event after `ScrollView.eventObserver` and before the delegate, in
/// the order they were added; `willEndDragging` carries the proposed target, before the delegate
/// may change it.
@MainActor
public protocol ScrollEventObserver: AnyObject {
    func scrollView(_ scrollView: ScrollView, didSend event: ScrollEvent)
}

/// One registration: weak, so an observer's lifetime stays its owner's business; a class, so a
/// notification under way sees a removal.
final class ScrollEventObserverSlot {
    weak var observer: (any ScrollEventObserver)?
    init(_ observer: any ScrollEventObserver) { self.observer = observer }
}

extension ScrollView {
    /// Adds `observer`, held weakly, after those already added; adding one twice keeps its
    /// first place.
    public func addEventObserver(_ observer: any ScrollEventObserver) {
        eventObserverSlots.removeAll { $0.observer == nil }
        guard !eventObserverSlots.contains(where: { $0.observer === observer }) else { return }
        eventObserverSlots.append(ScrollEventObserverSlot(observer))
    }

    /// Removes `observer`; a notification under way that has not reached it skips it.
    public func removeEventObserver(_ observer: any ScrollEventObserver) {
        for slot in eventObserverSlots where slot.observer === observer || slot.observer == nil { slot.observer = nil }
        eventObserverSlots.removeAll { $0.observer == nil }
    }

    /// Tells each live observer of `event`, walking a copy of the slots so an observer may add
    /// or remove observers from inside the call.
    func notifyEventObservers(_ event: ScrollEvent) {
        for slot in eventObserverSlots {
            guard let observer = slot.observer else { continue }
            observer.scrollView(self, didSend: event)
        }
    }
}
