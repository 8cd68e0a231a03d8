import ScrollwayGeometry

/// What a view is to assistive technology: the kinds a screen reader tells apart. A platform
/// maps them to its own (AT-SPI's roles on Linux).
public enum AccessibilityRole: String, Sendable, CaseIterable {
    /// A window (AT-SPI's frame).
    case window
    /// Views that belong together, with no meaning of their own (a panel).
    case group
    /// Content that scrolls (a scroll view).
    case scrollArea
    /// A list of rows.
    case list
    /// One row of a list.
    case listItem
    /// Text to read.
    case staticText
    /// Something to press.
    case button
    /// One line of editable text.
    case textField
    /// Several lines of editable text.
    case textArea
    /// A picture.
    case image

    /// Whether it holds other elements (a window, a group, a scroll area, a list) rather than
    /// being one leaf to read or use.
    public var isContainer: Bool { [.window, .group, .scrollArea, .list].contains(self) }
}

/// A view class's accessibility where the app set nothing (`View.accessibilityDefaults`).
public struct AccessibilityDefaults: Equatable, Sendable {
    public var role: AccessibilityRole
    public var label: String?
    public var isElement: Bool

    public init(role: AccessibilityRole, label: String? = nil, isElement: Bool = false) {
        self.role = role
        self.label = label
        self.isElement = isElement
    }
}

/// What assistive technology can tell of an element's state.
public struct AccessibilityStates: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// It can take the keyboard focus, and has it.
    public static let focusable = AccessibilityStates(rawValue: 1 << 0)
    public static let focused = AccessibilityStates(rawValue: 1 << 1)
    /// It is in the window's tree and not hidden (showing: some of it is on screen).
    public static let visible = AccessibilityStates(rawValue: 1 << 2)
    public static let showing = AccessibilityStates(rawValue: 1 << 3)
    /// It responds to input.
    public static let enabled = AccessibilityStates(rawValue: 1 << 4)
    /// Its text can be edited, on one line or several.
    public static let editable = AccessibilityStates(rawValue: 1 << 5)
    public static let singleLine = AccessibilityStates(rawValue: 1 << 6)
    public static let multiLine = AccessibilityStates(rawValue: 1 << 7)
    /// The window has the keyboard (a screen reader reads only the active window).
    public static let active = AccessibilityStates(rawValue: 1 << 8)
}

/// One element of a window as assistive technology sees it, made from the view tree
/// (`Window.accessibilityTree()`): what it is, what it is called, where it is (window
/// coordinates), its state and the elements inside it.
public struct AccessibilityNode {
    /// The view it stands for (an element's subviews are part of it).
    public let view: View
    public var role: AccessibilityRole
    public var label: String
    public var hint: String
    /// Its bounds in the window's coordinates.
    public var frame: Rect
    public var states: AccessibilityStates
    public var children: [AccessibilityNode]

    /// Every node, depth first (this one first).
    public var all: [AccessibilityNode] { [self] + children.flatMap(\.all) }
}

extension View {
    /// The role, label and whether it is an element, the app's settings over the class's.
    public var resolvedAccessibility: AccessibilityDefaults {
        let d = accessibilityDefaults
        return AccessibilityDefaults(
            role: accessibilityRole ?? d.role, label: accessibilityLabel ?? d.label,
            isElement: isAccessibilityElement ?? d.isElement)
    }

    /// The nodes this view gives its accessible parent: itself when it is an element, or a
    /// container other than an unnamed group (a scroll area, a list, a named group); else its
    /// subviews' nodes in its place. Hidden and transparent views give none.
    func accessibilityNodes(in window: Window) -> [AccessibilityNode] {
        guard !isHidden, alpha > 0.01 else { return [] }
        let a = resolvedAccessibility
        var children = a.isElement ? [] : subviews.flatMap { $0.accessibilityNodes(in: window) }
        // A list's cells are its subviews in the order they were made or reused; a reader
        // goes through rows top to bottom.
        if a.role == .list { children.sort { ($0.frame.minY, $0.frame.minX) < ($1.frame.minY, $1.frame.minX) } }
        guard a.isElement || (a.role.isContainer && (a.role != .group || a.label != nil)) else { return children }
        var states: AccessibilityStates = [.visible, .enabled]
        let frame = convert(bounds, to: nil)
        if frame.intersects(Rect(origin: .zero, size: window.bounds.size)) { states.insert(.showing) }
        if canBecomeFocused { states.insert(.focusable) }
        if isFocused { states.insert(.focused) }
        switch a.role {
        case .textField: states.formUnion([.editable, .singleLine])
        case .textArea: states.formUnion([.editable, .multiLine])
        default: break
        }
        return [
            AccessibilityNode(
                view: self, role: a.role, label: a.label ?? "", hint: accessibilityHint ?? "", frame: frame,
                states: states, children: children)
        ]
    }
}

extension Window {
    /// The window and every element in it, as assistive technology sees them now.
    public func accessibilityTree() -> AccessibilityNode {
        var node = AccessibilityNode(
            view: self, role: .window, label: accessibilityLabel ?? name ?? "", hint: accessibilityHint ?? "",
            frame: Rect(origin: .zero, size: bounds.size), states: [.visible, .showing, .enabled],
            children: subviews.flatMap { $0.accessibilityNodes(in: self) })
        if isKeyWindow { node.states.insert(.active) }
        return node
    }
}
