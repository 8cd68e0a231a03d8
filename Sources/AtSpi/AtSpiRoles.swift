import ScrollwayViews

/// Scrollway's accessibility roles and states in AT-SPI's numbers (at-spi2-core's
/// `atspi-constants.h`: `AtspiRole`, `AtspiStateType`), and the names libatspi gives them.
@MainActor
enum AtSpiRoles {
    /// Each state that maps to one of AT-SPI's: its `AtspiStateType` and the name its events
    /// spell (`object:state-changed:checked`). The state set and the state-change events both
    /// read this one table.
    static let stateTypes: [(state: AccessibilityStates, type: UInt64, name: String)] = [
        (.active, 1, "active"), (.busy, 3, "busy"), (.checked, 4, "checked"), (.editable, 7, "editable"),
        (.enabled, 8, "enabled"), (.expandable, 9, "expandable"), (.expanded, 10, "expanded"),
        (.focusable, 11, "focusable"), (.focused, 12, "focused"),
        (.multiLine, 17, "multi-line"), (.multiselectable, 18, "multiselectable"), (.selectable, 22, "selectable"),
        (.selected, 23, "selected"),
        (.showing, 25, "showing"), (.singleLine, 26, "single-line"), (.visible, 30, "visible"),
        (.checkable, 41, "checkable"),
    ]

    /// AtspiRole values.
    static func role(_ object: AtSpiBridge.Object) -> UInt32 {
        guard case .element(let node, _, _) = object else { return 75 }  // APPLICATION
        switch node.role {
        case .window: return 23  // FRAME
        case .group: return 39  // PANEL
        case .scrollArea: return 49  // SCROLL_PANE
        case .list: return 31  // LIST
        case .listItem: return 32  // LIST_ITEM
        case .staticText: return 29  // LABEL
        case .button: return 43  // PUSH_BUTTON
        case .textField: return 79  // ENTRY
        case .textArea: return 61  // TEXT
        case .image: return 27  // IMAGE
        case .progressIndicator: return 42  // PROGRESS_BAR
        case .toggleButton: return 62  // TOGGLE_BUTTON (at-spi2-core 2.46 has no SWITCH)
        case .slider: return 51  // SLIDER
        case .radioButton: return 44  // RADIO_BUTTON
        case .spinButton: return 52  // SPIN_BUTTON
        }
    }

    /// The role's name as libatspi spells it (`atspi_role_get_name`).
    static func roleName(_ object: AtSpiBridge.Object) -> String {
        guard case .element(let node, _, _) = object else { return "application" }
        switch node.role {
        case .window: return "frame"
        case .group: return "panel"
        case .scrollArea: return "scroll pane"
        case .list: return "list"
        case .listItem: return "list item"
        case .staticText: return "label"
        case .button: return "push button"
        case .textField: return "entry"
        case .textArea: return "text"
        case .image: return "image"
        case .progressIndicator: return "progress bar"
        case .toggleButton: return "toggle button"
        case .slider: return "slider"
        case .radioButton: return "radio button"
        case .spinButton: return "spin button"
        }
    }

    /// The state set as AT-SPI sends it: 64 bits (1 << AtspiStateType) in two words, low first.
    static func states(_ object: AtSpiBridge.Object) -> [UInt32] {
        guard case .element(let node, _, _) = object else { return [0, 0] }
        let s = node.states
        var bits: UInt64 = 0
        for (state, type, _) in stateTypes where s.contains(state) { bits |= 1 << type }
        // SENSITIVE (24): it responds to input, as enabled says.
        if s.contains(.enabled) { bits |= 1 << 24 }
        // TRANSIENT (28): a row is a cell that is reused for other rows, so a reader must not
        // keep its name (libatspi caches what it reads of other objects until an event says
        // more).
        if node.role == .listItem { bits |= 1 << 28 }
        return [UInt32(truncatingIfNeeded: bits), UInt32(truncatingIfNeeded: bits >> 32)]
    }

    /// One of an element's actions: its name (what Orca lists and says), a description, and
    /// what `DoAction` does.
    struct Action {
        let name: String
        let description: String
        let perform: @MainActor () -> Bool
    }

    /// An element's actions, in `DoAction`'s order: its role's own (a button's "click", a
    /// row's "activate"), a scroll view's scrolls ("scroll down", "scroll to top"), then the
    /// app's custom actions.
    static func actions(_ node: AccessibilityNode) -> [Action] {
        let view = node.view
        var actions: [Action] = []
        switch node.role {
        case .button, .toggleButton, .radioButton:
            actions.append(Action(name: "click", description: node.hint) { view.accessibilityActivate() })
        case .listItem:
            actions.append(Action(name: "activate", description: node.hint) { view.accessibilityActivate() })
        default: break
        }
        // GTK's name for a tree row's own: it opens a closed row and closes an open one.
        if node.states.contains(.expandable) {
            let open = node.states.contains(.expanded)
            actions.append(
                Action(name: "expand or contract", description: open ? "Collapse" : "Expand") {
                    view.accessibilitySetExpanded(!open)
                })
        }
        for direction in view.accessibilityScrollDirections {
            let name =
                switch direction {
                case .up, .down, .left, .right: "scroll \(direction.rawValue)"
                case .top, .bottom: "scroll to \(direction.rawValue)"
                }
            actions.append(Action(name: name, description: "") { view.accessibilityScroll(direction) })
        }
        for custom in view.accessibilityCustomActions {
            actions.append(Action(name: custom.name, description: "", perform: custom.handler))
        }
        return actions
    }
}
