import ScrollwayDBus
import ScrollwayViews

/// A list's `org.a11y.atspi.Selection`, and the events that follow what the views post
/// (`AccessibilityNotification`): rows coming and going as cells are reused (coalesced, see
/// AtSpiBridge+Children.swift), labels that change, announcements.
///
/// A list of 100,000 rows exposes only the rows that have cells (as GTK 4's list views do: the
/// tree is the widget tree), each saying its place among all rows (`posinset`, `setsize` in its
/// attributes, as GTK and AccessKit do); a reader reaches the others by moving the focus,
/// which scrolls the next row in, or by the list's scroll actions. The selection is the rows
/// in view that are selected (`ListView.selectedRows`, `CollectionView.selectedItems`) and
/// the row that has the keyboard focus, which a reader's `SelectChild` moves; a picker's
/// wheel's is its picked row, which `SelectChild` turns the wheel to (`accessibilitySelect`).
extension AtSpiBridge {
    func selection(_ call: DBusCall, _ object: Object) throws -> DBusAnswer {
        guard case .element(let node, _, _) = object, node.role == .list else { return .unhandled }
        let rows = node.children
        func child(_ i: Int?) -> AccessibilityNode? { i.flatMap { rows.indices.contains($0) ? rows[$0] : nil } }
        let selected = rows.filter { $0.states.contains(.selected) }
        switch call.member {
        case "GetSelectedChild":
            guard let i = call.int32(at: 0) else { return invalid(call) }
            guard selected.indices.contains(i) else { return .reply([Self.null]) }
            return .reply([try reference(selected[i].view)])
        case "IsChildSelected":
            guard let i = call.int32(at: 0) else { return invalid(call) }
            return .reply([.bool(child(i)?.states.contains(.selected) ?? false)])
        case "SelectChild":
            // Focusing a row scrolls it fully into view, as Tab does.
            guard let row = child(call.int32(at: 0)) else { return .reply([.bool(false)]) }
            return .reply([.bool(row.view.accessibilitySelect())])
        case "DeselectSelectedChild", "DeselectChild":
            guard let i = call.int32(at: 0) else { return invalid(call) }
            let nth = selected.indices.contains(i) ? selected[i] : nil
            let row = call.member == "DeselectChild" ? child(i) : nth
            guard let row, row.states.contains(.selected) else { return .reply([.bool(false)]) }
            return .reply([.bool(row.view.accessibilityDeselect())])
        case "ClearSelection":
            // Cleared when the only selection was the focus, and the row let it go.
            let focused = selected.first { $0.view.isFocused }
            let onlyTheFocus = selected.allSatisfy { $0.view.isFocused }
            let dropped = focused?.view.accessibilityDeselect() ?? true
            return .reply([.bool(onlyTheFocus && dropped)])
        case "SelectAll":
            return .reply([.bool(false)])
        default: return .unhandled
        }
    }

    /// A row that took the focus is its list's selection and active descendant:
    /// `state-changed:selected` on the rows, `object:selection-changed` from each list whose
    /// selection changed, and `object:active-descendant-changed` from the new row's list.
    func selectionMoved(from old: View?, to new: View?, in window: Window) {
        func row(_ view: View?) -> (row: View, list: View)? {
            guard let view, view.resolvedAccessibility.role == .listItem,
                let list = view.superview?.accessibilityElementAncestor(in: window),
                list.resolvedAccessibility.role == .list
            else { return nil }
            return (view, list)
        }
        let old = row(old)
        let new = row(new)
        // Only a change is told: a row selected of its own (a picker's picked row, a list's
        // selected row) stays selected as the focus leaves it and was selected as it came,
        // and a row whose selection does not follow the focus (a picker's) tells its own.
        func follows(_ row: View) -> Bool {
            row.accessibilitySelectionFollowsFocus && !row.accessibilityExtraStates.contains(.selected)
        }
        if let old, follows(old.row) { stateChanged("selected", false, on: old.row) }
        if let new, follows(new.row) { stateChanged("selected", true, on: new.row) }
        if let old, old.list !== new?.list { event("SelectionChanged", from: old.list) }
        guard let new else { return }
        event("SelectionChanged", from: new.list)
        if let reference = try? reference(new.row) { event("ActiveDescendantChanged", from: new.list, data: reference) }
    }

    public func window(_ window: Window, accessibilityNotification notification: AccessibilityNotification) {
        switch notification {
        case .announcement(let words), .pageScrolled(let words):
            // Politeness 1 (POLITE): after what is being said.
            event("Announcement", from: window, 1, data: .string(words))
        case .elementAdded(let element, let container):
            childChanged(element, in: container, added: true, at: window.now)
        case .elementRemoved(let element, let container):
            childChanged(element, in: container, added: false, at: window.now)
        case .labelChanged(let view):
            guard let element = view.accessibilityElementAncestor(in: window) else { return }
            let name =
                element === window
                ? (window.accessibilityLabel ?? window.name ?? "") : (element.resolvedAccessibility.label ?? "")
            event("PropertyChange", from: element, detail: "accessible-name", data: .string(name))
        case .stateChanged(let view, let states, let on):
            for (state, _, name) in AtSpiRoles.stateTypes where states.contains(state) {
                stateChanged(name, on, on: view)
            }
            // SENSITIVE goes with ENABLED in the state set (`AtSpiRoles.states`): both change.
            if states.contains(.enabled) { stateChanged("sensitive", on, on: view) }
        case .valueChanged(let view):
            // GTK 4's and ATK's shape: the new number, which Orca says as the value's text.
            guard let value = view.accessibilityValue else { return }
            event("PropertyChange", from: view, detail: "accessible-value", data: .double(value.current))
        }
    }
}
