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
    /// Something working on a task of unknown length (a refresh's spinner).
    case progressIndicator
    /// Something on or off (a `Switch`): checkable, and checked while on.
    case toggleButton
    /// One of a set of choices of which one is chosen (a segment of a `SegmentedControl`):
    /// checkable, and checked while chosen.
    case radioButton
    /// A value set in a range (a `Slider`, a page control's page): a reader reads and sets its
    /// number (`View.accessibilityValue`) and steps it (`accessibilityIncrement()`).
    case slider
    /// A number stepped up and down (a `Stepper`): a reader reads, steps and sets it as a
    /// slider's.
    case spinButton

    /// Whether it holds other elements (a window, a group, a scroll area, a list) rather than
    /// being one leaf to read or use.
    public var isContainer: Bool { [.window, .group, .scrollArea, .list].contains(self) }
}

/// A view class's accessibility where the app set nothing (`View.accessibilityDefaults`).
public struct AccessibilityDefaults: Equatable, Sendable {
    public var role: AccessibilityRole
    public var label: String?
    public var isElement: Bool

    /// Whether a view with these is a node of the tree: an element, or a container other than
    /// an unnamed group (which stands aside for what it holds).
    public var isInTree: Bool { isElement || (role.isContainer && (role != .group || label != nil)) }

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
    /// One of a set a user picks from (a list's rows), and picked: a list's focused row.
    public static let selectable = AccessibilityStates(rawValue: 1 << 9)
    public static let selected = AccessibilityStates(rawValue: 1 << 10)
    /// Working (a refresh under way).
    public static let busy = AccessibilityStates(rawValue: 1 << 11)
    /// It can be on or off (a switch), and is on.
    public static let checkable = AccessibilityStates(rawValue: 1 << 12)
    public static let checked = AccessibilityStates(rawValue: 1 << 13)
    /// A set whose user may pick several of its members at once (a list or a collection with
    /// `allowsMultipleSelection`).
    public static let multiselectable = AccessibilityStates(rawValue: 1 << 14)
    /// It can be opened to show what it holds (an outline's parent row).
    public static let expandable = AccessibilityStates(rawValue: 1 << 15)
    /// It is open (with `expandable`).
    public static let expanded = AccessibilityStates(rawValue: 1 << 16)
}

/// An adjustable element's value as assistive technology reads it (UIKit's `accessibilityValue`
/// of an `.adjustable` element, with the number and range AT-SPI's Value interface gives): the
/// number, its range, the step a reader's increment moves it by, and the words said for it
/// ("50%", "Page 2 of 6").
public struct AccessibilityValue: Equatable, Sendable {
    public var current: Double
    public var minimum: Double
    public var maximum: Double
    /// How far one `accessibilityIncrement()` moves it (AT-SPI's `MinimumIncrement`).
    public var step: Double
    public var text: String

    public init(current: Double, minimum: Double, maximum: Double, step: Double, text: String) {
        self.current = current
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.text = text
    }
}

/// Which way assistive technology asks a scroll view to move (UIAccessibilityScrollDirection's
/// cases, and the two ends): a screen-reader user pages with commands where a sighted user
/// swipes.
public enum AccessibilityScrollDirection: String, Sendable, CaseIterable {
    /// Up shows what is above (the content moves down): a page back, or at the top a pull
    /// that refreshes.
    case up, down, left, right
    /// The first or last of the content.
    case top, bottom
}

/// An action of the app's own that assistive technology offers on an element beside its
/// role's (UIAccessibilityCustomAction): "Delete", "Share". `handler` says whether it did it.
public struct AccessibilityCustomAction {
    public var name: String
    public var handler: @MainActor () -> Bool

    public init(name: String, handler: @escaping @MainActor () -> Bool) {
        self.name = name
        self.handler = handler
    }
}

/// Something a screen reader should hear of that reading the tree again would not tell it
/// (UIAccessibility.Notification's role), posted to the window
/// (`Window.postAccessibilityNotification`), which passes it to its observers (an AT-SPI bridge).
/// Views post them only while in a window.
public enum AccessibilityNotification {
    /// Words to say now, politely (after what is being said): a refresh that finished.
    case announcement(String)
    /// A scroll view moved by a page or a pager turned one; the words say where ("Page 2 of
    /// 5"), as UIKit's `.pageScrolled`.
    case pageScrolled(String)
    /// `element` became one of `container`'s elements (a list's cell placed for a row).
    case elementAdded(View, container: View)
    /// `element` stops being one of `container`'s (posted while it still is: a cell about to
    /// be recycled).
    case elementRemoved(View, container: View)
    /// What `view` says changed: its label, or text that names the element it is part of (a
    /// row's label shows another row's text).
    case labelChanged(View)
    /// `view`'s `state` came on or went off (a switch checked): a reader that keeps a copy of
    /// its states hears of it.
    case stateChanged(View, AccessibilityStates, Bool)
    /// `view`'s value (`View.accessibilityValue`) changed: a slider moved, a page turned.
    case valueChanged(View)
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

    /// Its place among its set's members, from 1, and how many there are (a list's row, of all
    /// its rows, though only rows in view have elements).
    public var position: (index: Int, count: Int)?

    /// Its value, when it is adjustable (a slider's).
    public var value: AccessibilityValue?

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

    /// What a reader hears of the views inside this one when it is read as one element that the
    /// app named nothing (a collection's cell): the labels of the shown views inside it, in the
    /// tree's order, joined with ", ", as UIKit names a cell by the labels it holds. A view
    /// with a label stands for what it holds; an element without one (an unnamed picture) is
    /// passed over, whole. Nil when nothing inside has a label.
    public var accessibilityLabelOfContents: String? { accessibilityLabelOfContents(skipping: { _ in false }) }

    /// The same, passing over the subviews (and what they hold) that `skip` picks: a class's
    /// own parts that are not its content (a row's swipe buttons).
    public func accessibilityLabelOfContents(skipping skip: (View) -> Bool) -> String? {
        var labels: [String] = []
        gatherAccessibilityLabels(into: &labels, skipping: skip)
        return labels.isEmpty ? nil : labels.joined(separator: ", ")
    }

    private func gatherAccessibilityLabels(into labels: inout [String], skipping skip: (View) -> Bool) {
        for view in subviews
        where !view.isHidden && view.alpha > 0.01 && !view.accessibilityElementsHidden && !skip(view) {
            let a = view.resolvedAccessibility
            if let label = a.label, !label.isEmpty {
                labels.append(label)
            } else if !a.isElement {
                view.gatherAccessibilityLabels(into: &labels, skipping: skip)
            }
        }
    }

    /// The nodes this view gives its accessible parent: itself when it is an element, or a
    /// container other than an unnamed group (a scroll area, a list, a named group); else its
    /// subviews' nodes in its place. Hidden and transparent views give none. `depth` is how
    /// many levels of nodes below this one to make (a reader's call needs one or two, not the
    /// whole window's).
    package func accessibilityNodes(in window: Window, depth: Int = .max) -> [AccessibilityNode] {
        guard !isHidden, alpha > 0.01, !accessibilityElementsHidden else { return [] }
        let a = resolvedAccessibility
        let isNode = a.isInTree
        var children =
            a.isElement || (isNode && depth <= 0)
            ? [] : subviews.flatMap { $0.accessibilityNodes(in: window, depth: isNode ? depth - 1 : depth) }
        // A list's cells are its subviews in the order they were made or reused; a reader
        // goes through rows top to bottom.
        if a.role == .list { children.sort { ($0.frame.minY, $0.frame.minX) < ($1.frame.minY, $1.frame.minX) } }
        guard isNode else { return children }
        var states: AccessibilityStates = accessibilityIsEnabled ? [.visible, .enabled] : [.visible]
        let frame = convert(bounds, to: nil)
        if frame.intersects(Rect(origin: .zero, size: window.bounds.size)) { states.insert(.showing) }
        if canBecomeFocused, states.contains(.enabled) { states.insert(.focusable) }
        if isFocused { states.insert(.focused) }
        switch a.role {
        case .textField: states.formUnion([.editable, .singleLine])
        case .textArea: states.formUnion([.editable, .multiLine])
        case .listItem:
            states.insert(.selectable)
            if isFocused, accessibilitySelectionFollowsFocus { states.insert(.selected) }
        default: break
        }
        states.formUnion(accessibilityExtraStates)
        return [
            AccessibilityNode(
                view: self, role: a.role, label: a.label ?? "", hint: accessibilityHint ?? "", frame: frame,
                states: states, children: children, position: accessibilityPosition, value: accessibilityValue)
        ]
    }
}

extension View {
    /// The element this view is, or is part of: its outermost ancestor (itself included) that
    /// is an element, since an element's subviews are part of it (a label in a cell is the
    /// cell's); else its nearest ancestor that is a container the tree shows; else the window.
    /// Nil when it is in no window.
    public func accessibilityElementAncestor(in window: Window) -> View? {
        var view: View? = self
        var outermostElement: View?
        var nearestContainer: View?
        while let v = view, v !== window {
            let a = v.resolvedAccessibility
            if a.isElement {
                outermostElement = v
            } else if a.isInTree, nearestContainer == nil {
                nearestContainer = v
            }
            view = v.superview
        }
        guard view === window else { return nil }
        return outermostElement ?? nearestContainer ?? window
    }

    /// The elements this view holds, as its node's children (sorted as the tree sorts them),
    /// each with its own children to `depth` levels.
    public func accessibilityChildren(in window: Window, depth: Int = 0) -> [AccessibilityNode] {
        if self === window { return window.accessibilityTree(depth: depth + 1).children }
        return accessibilityNodes(in: window, depth: depth + 1).first?.children ?? []
    }

    /// This view's node as it is in `window`'s tree now, with its children to `depth` levels;
    /// nil when the tree does not show it (it is in another window, hidden or inside a hidden
    /// view, part of an element, or a group that stands aside for its subviews). Made alone,
    /// without the rest of the tree: what a reader's call about one element costs.
    public func accessibilityNode(in window: Window, depth: Int = 1) -> AccessibilityNode? {
        if self === window { return window.accessibilityTree(depth: depth) }
        guard self.window === window else { return nil }
        var ancestor = superview
        while let a = ancestor, a !== window {
            if a.isHidden || a.alpha <= 0.01 || a.accessibilityElementsHidden || a.resolvedAccessibility.isElement {
                return nil
            }
            ancestor = a.superview
        }
        guard let node = accessibilityNodes(in: window, depth: depth).first, node.view === self else { return nil }
        return node
    }
}

extension Window {
    /// Passes `notification` to the window's observers (a screen reader's bridge), at once.
    public func postAccessibilityNotification(_ notification: AccessibilityNotification) {
        notifyObservers { $0.window(self, accessibilityNotification: notification) }
    }

    /// The window and every element in it, as assistive technology sees them now (to `depth`
    /// levels below the window).
    public func accessibilityTree(depth: Int = .max) -> AccessibilityNode {
        var node = AccessibilityNode(
            view: self, role: .window, label: accessibilityLabel ?? name ?? "", hint: accessibilityHint ?? "",
            frame: Rect(origin: .zero, size: bounds.size), states: [.visible, .showing, .enabled],
            children: depth <= 0 ? [] : subviews.flatMap { $0.accessibilityNodes(in: self, depth: depth - 1) })
        if isKeyWindow { node.states.insert(.active) }
        return node
    }
}
