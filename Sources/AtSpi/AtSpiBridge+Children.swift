import ScrollwayDBus
import ScrollwayViews

/// `object:children-changed`, coalesced: while a list moves its cells are reused row after
/// row, and one event per reuse (two, a remove and an add) costs the app a bus message each and
/// wakes the reader for each (measured in the decision log). A screen reader does not read
/// during a fling; it needs to know what the list holds when it settles. So the elements that
/// came and went are held until the window is still (no animation, no finger down) or for at most
/// `childrenCoalescing` seconds of motion, then told as what changed since last told: a cell
/// that now shows other words (another row) is removed and added; one that left and came back
/// showing the same row is not mentioned. Any other event first sends what is held, so events
/// keep their order.
extension AtSpiBridge {
    /// The longest a change of children is held while the window moves (window time).
    public static let childrenCoalescing = 1.0

    /// An element that came or went since children were last told: whether it was a child
    /// then, and the words it showed.
    final class PendingChild {
        weak var element: View?
        weak var container: View?
        let wasChild: Bool
        let words: String
        let reference: DBusValue?
        init(element: View, container: View, wasChild: Bool, words: String, reference: DBusValue?) {
            self.element = element
            self.container = container
            self.wasChild = wasChild
            self.words = words
            self.reference = reference
        }
    }

    /// Notes that `element` was added to or removed from `container`'s elements.
    func childChanged(_ element: View, in container: View, added: Bool, at time: Double) {
        let id = ObjectIdentifier(element)
        guard pendingChildren[id] == nil else { return }
        if pendingChildren.isEmpty { pendingSince = time }
        pendingChildren[id] = PendingChild(
            element: element, container: container, wasChild: !added,
            words: added ? "" : (element.resolvedAccessibility.label ?? ""), reference: try? reference(element))
        pendingOrder.append(id)
    }

    /// After a frame: what is held goes out once the window is still or has been held long
    /// enough.
    func flushChildrenIfSettled(_ window: Window, at time: Double) {
        guard !pendingOrder.isEmpty else { return }
        let moving = window.hasActiveAnimations || window.hasTouchesDown
        if !moving || time - (pendingSince ?? time) >= Self.childrenCoalescing {
            flushChildren()
        }
    }

    /// Sends what changed among the held elements since they were last told: a remove for one
    /// that was a child and is not, or shows other words; an add for one that is a child and
    /// was not, or shows other words.
    func flushChildren() {
        let order = pendingOrder
        let pending = pendingChildren
        pendingOrder = []
        pendingChildren = [:]
        pendingSince = nil
        for id in order {
            guard let p = pending[id], let container = p.container, let window = container.window,
                let parent = container.accessibilityElementAncestor(in: window)
            else { continue }
            let element = p.element
            // A child of the container, or of a view of it (a section header's title).
            let isChild =
                element.map { e in
                    guard !e.isHidden, let holder = e.superview else { return false }
                    return holder === container || (!holder.isHidden && holder.superview === container)
                } ?? false
            let words = isChild ? (element?.resolvedAccessibility.label ?? "") : ""
            if p.wasChild, !isChild || words != p.words, let reference = p.reference {
                childrenChanged("remove", index: -1, reference, from: parent)
            }
            if isChild, let element, !p.wasChild || words != p.words, let reference = try? reference(element) {
                childrenChanged(
                    "add", index: parent.accessibilityIndex(ofChild: element, in: window), reference, from: parent)
            }
        }
    }

    private func childrenChanged(_ kind: String, index: Int, _ child: DBusValue, from parent: View) {
        event("ChildrenChanged", from: parent, detail: kind, index, data: child)
    }
}
