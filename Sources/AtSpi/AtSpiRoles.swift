import ScrollwayViews

/// Scrollway's accessibility roles and states in AT-SPI's numbers (at-spi2-core's
/// `atspi-constants.h`: `AtspiRole`, `AtspiStateType`), and the names libatspi gives them.
@MainActor
enum AtSpiRoles {
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
        }
    }

    /// The state set as AT-SPI sends it: 64 bits (1 << AtspiStateType) in two words, low first.
    static func states(_ object: AtSpiBridge.Object) -> [UInt32] {
        guard case .element(let node, _, _) = object else { return [0, 0] }
        let s = node.states
        var bits: UInt64 = 0
        func set(_ state: UInt64, if present: Bool) { if present { bits |= 1 << state } }
        set(1, if: s.contains(.active))
        set(7, if: s.contains(.editable))
        set(8, if: s.contains(.enabled))
        set(11, if: s.contains(.focusable))
        set(12, if: s.contains(.focused))
        set(17, if: s.contains(.multiLine))
        set(24, if: s.contains(.enabled))  // SENSITIVE: it responds to input
        set(25, if: s.contains(.showing))
        set(26, if: s.contains(.singleLine))
        // TRANSIENT: a row is a cell that is reused for other rows, so a reader must not keep
        // its name (libatspi caches what it reads of other objects until an event says more).
        set(28, if: node.role == .listItem)
        set(30, if: s.contains(.visible))
        return [UInt32(truncatingIfNeeded: bits), UInt32(truncatingIfNeeded: bits >> 32)]
    }

    /// Whether the element has an action (a button, a row): `accessibilityActivate` does it.
    static func hasAction(_ node: AccessibilityNode) -> Bool { node.role == .button || node.role == .listItem }

    /// The action's name: what Orca says and `DoAction(0)` does.
    static func actionName(_ node: AccessibilityNode) -> String { node.role == .listItem ? "activate" : "click" }
}
