/// The observers of one object (a window's `WindowObserver`s, a scroll view's
/// `ScrollEventObserver`s), in the order they were added. Each is held weakly, so an observer's
/// lifetime stays its owner's business; adding one twice keeps its first place; and telling them
/// walks a copy of the registrations, so an observer may add or remove observers (itself
/// included) from inside the call, and one removed or released meanwhile is skipped.
///
/// Its registrations are not generic (`ObserverSlot`), and telling no observers touches no
/// type metadata: the list is generic across modules, so each call of an unspecialized method
/// looks up the metadata of every generic type it uses, a hash-table search in the runtime that
/// cost a scrolled frame more than the scroll view's own notification (profiled, 0.15.0).
package struct ObserverList<Observer> {
    private var slots: [ObserverSlot] = []

    package init() {}

    /// Adds `observer` after those already added; one added during a notification hears from
    /// the next one on.
    package mutating func add(_ observer: AnyObject) {
        slots.removeAll { $0.object == nil }
        guard !slots.contains(where: { $0.object === observer }) else { return }
        slots.append(ObserverSlot(observer))
    }

    /// Removes `observer`; a notification under way that has not reached it skips it.
    package mutating func remove(_ observer: AnyObject) {
        for slot in slots where slot.object === observer || slot.object == nil { slot.object = nil }
        slots.removeAll { $0.object == nil }
    }

    /// Calls `body` with each live observer in the order added. Call it on a copy of the list
    /// (`let current = observers`) when `body` may change the list the copy came from: the copy
    /// shares the registrations, so removals still show.
    package func forEach(_ body: (Observer) -> Void) {
        // Every frame tells a window's and a scroll view's observers; most have none. The walk
        // is a function of its own: its `Observer?` local makes a function look up Optional's
        // metadata on entry, before any test (seen in the optimized build's prologue).
        if slots.isEmpty { return }
        tell(body)
    }

    @inline(never)
    private func tell(_ body: (Observer) -> Void) {
        for slot in slots {
            guard let observer = slot.object as? Observer else { continue }
            body(observer)
        }
    }
}

/// One registration of an `ObserverList`; a class, so a notification already under way sees a
/// removal (the slot is emptied) as well as a release.
package final class ObserverSlot {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
