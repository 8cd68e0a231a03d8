import ScrollwayViews

/// Scrollway's accessibility roles and states in AT-SPI's numbers (at-spi2-core's
/// `atspi-constants.h`: `AtspiRole`, `AtspiStateType`), and the names libatspi gives them.
@MainActor
enum AtSpiRoles {
    /// The name of each state a `stateChanged` notification can carry, as AT-SPI's events
    /// spell them (`object:state-changed:checked`).
    static let stateNames: [(AccessibilityStates, String)] = [
        (.checked, "checked"), (.busy, "busy"), (.checkable, "checkable"), (.selected, "selected"),
        (.focused, "focused"), (.showing, "showing"), (.visible, "visible"), (.enabled, "enabled"),
        (.editable, "editable"), (.active, "active"),
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
        }
    }

    /// The state set as AT-SPI sends it: 64 bits (1 << AtspiStateType) in two words, low first.
    static func states(_ object: AtSpiBridge.Object) -> [UInt32] {
        guard case .element(let node, _, _) = object else { return [0, 0] }
        let s = node.states
        var bits: UInt64 = 0
        func set(_ state: UInt64, if present: Bool) { if present { bits |= 1 << state } }
        set(1, if: s.contains(.active))
        set(3, if: s.contains(.busy))
        set(4, if: s.contains(.checked))
        set(7, if: s.contains(.editable))
        set(8, if: s.contains(.enabled))
        set(11, if: s.contains(.focusable))
        set(12, if: s.contains(.focused))
        set(17, if: s.contains(.multiLine))
        set(22, if: s.contains(.selectable))
        set(23, if: s.contains(.selected))
        set(24, if: s.contains(.enabled))  // SENSITIVE: it responds to input
        set(25, if: s.contains(.showing))
        set(26, if: s.contains(.singleLine))
        // TRANSIENT: a row is a cell that is reused for other rows, so a reader must not keep
        // its name (libatspi caches what it reads of other objects until an event says more).
        set(28, if: node.role == .listItem)
        set(30, if: s.contains(.visible))
        set(41, if: s.contains(.checkable))
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
        case .button, .toggleButton:
            actions.append(Action(name: "click", description: node.hint) { view.accessibilityActivate() })
        case .listItem:
            actions.append(Action(name: "activate", description: node.hint) { view.accessibilityActivate() })
        default: break
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
