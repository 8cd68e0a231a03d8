import Logging

/// One section's items as an outline (UIKit's `NSDiffableDataSourceSectionSnapshot`): items
/// with children, children with their own, and which parents are open. A list shows the items
/// whose every ancestor is expanded (`visibleItems`), depth first, each indented by its
/// `level(of:)`; applied to a section of a `ListDiffableDataSource`, expanding a parent
/// inserts its visible descendants below it and collapsing takes them out, animated, at the
/// cost of those rows alone.
///
/// Identifiers are unique in the whole outline. Expansion is a mark on an item kept whether or
/// not it has children (a folder opened before its contents are loaded stays open), and kept
/// for an item hidden under a collapsed ancestor: opening that ancestor shows the item open.
///
/// An edit the snapshot cannot make (an item already there, a parent or anchor that is not)
/// changes nothing, logs what and why, and returns false, as `DataSourceSnapshot` does where
/// UIKit raises.
public struct SectionSnapshot<ItemID: Hashable>: Equatable {
    fileprivate struct Node: Equatable {
        var parent: ItemID?
        var children: [ItemID] = []
        var isExpanded = false
    }

    /// The items at the outline's top, in order.
    public private(set) var rootItems: [ItemID] = []
    private var nodes: [ItemID: Node] = [:]

    public init() {}

    private static var log: Logger { Logger(label: "scrollway.snapshot") }

    // MARK: Reading

    /// How many items the outline holds, shown or not.
    public var count: Int { nodes.count }

    /// Every item, depth first: each parent before its children.
    public var items: [ItemID] {
        var out: [ItemID] = []
        out.reserveCapacity(nodes.count)
        walk(rootItems, onlyVisible: false) { out.append($0) }
        return out
    }

    /// The items a list shows: depth first, an item's children only when it and every ancestor
    /// of it are expanded.
    public var visibleItems: [ItemID] {
        var out: [ItemID] = []
        walk(rootItems, onlyVisible: true) { out.append($0) }
        return out
    }

    /// The items a list shows below `item` when it shows `item`: its visible descendants,
    /// depth first (none when it is closed or a leaf). Opening or closing `item` inserts or
    /// takes out just these rows, found by a walk of its subtree alone.
    func visibleItems(under item: ItemID) -> [ItemID] {
        guard let node = nodes[item], node.isExpanded else { return [] }
        var out: [ItemID] = []
        walk(node.children, onlyVisible: true) { out.append($0) }
        return out
    }

    /// Whether the outline holds `item`.
    public func contains(_ item: ItemID) -> Bool { nodes[item] != nil }

    /// `item`'s parent (nil: a root item, or not in the outline).
    public func parent(of item: ItemID) -> ItemID? { nodes[item]?.parent }

    /// `item`'s children, in order (none: a leaf, or not in the outline).
    public func children(of item: ItemID) -> [ItemID] { nodes[item]?.children ?? [] }

    /// How deep `item` stands: 0 for a root item, 1 for its children… (-1: not here).
    public func level(of item: ItemID) -> Int {
        guard var node = nodes[item] else { return -1 }
        var level = 0
        while let p = node.parent, let up = nodes[p] {
            level += 1
            node = up
        }
        return level
    }

    /// Whether `item` is marked expanded (its children shown when it is).
    public func isExpanded(_ item: ItemID) -> Bool { nodes[item]?.isExpanded ?? false }

    /// Whether a list shows `item`: every ancestor of it is expanded.
    public func isVisible(_ item: ItemID) -> Bool {
        guard var node = nodes[item] else { return false }
        while let p = node.parent, let up = nodes[p] {
            guard up.isExpanded else { return false }
            node = up
        }
        return true
    }

    /// Where `item` stands in `items` (nil: not here): a walk of the outline up to it.
    public func index(of item: ItemID) -> Int? {
        guard contains(item) else { return nil }
        var index = 0
        var found = false
        walk(rootItems, onlyVisible: false) { here in
            found = here == item
            if !found { index += 1 }
            return !found
        }
        return found ? index : nil
    }

    /// `parent`'s descendants as an outline of their own: its children at the top (with
    /// `includingParent`, `parent` itself is the one root). Empty when `parent` is not here.
    public func snapshot(of parent: ItemID, includingParent: Bool = false) -> Self {
        guard let node = nodes[parent] else { return Self() }
        var out = Self()
        if includingParent {
            out.rootItems = [parent]
            out.nodes[parent] = Node(parent: nil, children: node.children, isExpanded: node.isExpanded)
        } else {
            out.rootItems = node.children
        }
        var stack = node.children
        while let item = stack.popLast() {
            var n = nodes[item]!
            if n.parent == parent && !includingParent { n.parent = nil }
            out.nodes[item] = n
            stack.append(contentsOf: n.children)
        }
        return out
    }

    // MARK: Editing

    /// Adds `items` after the last child of `parent` (nil: at the top, after the last root).
    @discardableResult
    public mutating func append(_ items: [ItemID], to parent: ItemID? = nil) -> Bool {
        let call = "append(_:to:)"
        guard let parent else { return insert(items, parent: nil, at: rootItems.count, call: call) }
        guard let node = nodes[parent] else { return refuse(call, "parent \(parent) is not in the snapshot") }
        return insert(items, parent: parent, at: node.children.count, call: call)
    }

    /// Adds `items` just before `anchor`, beside it (the same parent).
    @discardableResult
    public mutating func insert(_ items: [ItemID], before anchor: ItemID) -> Bool {
        insert(items, next: anchor, after: false, call: "insert(_:before:)")
    }

    /// Adds `items` just after `anchor`, beside it (the same parent).
    @discardableResult
    public mutating func insert(_ items: [ItemID], after anchor: ItemID) -> Bool {
        insert(items, next: anchor, after: true, call: "insert(_:after:)")
    }

    /// Adds `snapshot`'s items under `parent` (nil: at the top), after its last child, with
    /// their children and expansion.
    @discardableResult
    public mutating func append(_ snapshot: Self, to parent: ItemID? = nil) -> Bool {
        let call = "append(_:to:) of a snapshot"
        if let parent, nodes[parent] == nil { return refuse(call, "parent \(parent) is not in the snapshot") }
        if let present = snapshot.nodes.keys.first(where: { nodes[$0] != nil }) {
            return refuse(call, "item \(present) is already in the snapshot")
        }
        graft(snapshot, under: parent)
        return true
    }

    /// Replaces `parent`'s descendants by `snapshot`'s items (its roots become `parent`'s
    /// children): how a folder's contents, loaded when it is opened, go in.
    @discardableResult
    public mutating func replace(childrenOf parent: ItemID, using snapshot: Self) -> Bool {
        let call = "replace(childrenOf:using:)"
        guard nodes[parent] != nil else { return refuse(call, "parent \(parent) is not in the snapshot") }
        if snapshot.contains(parent) { return refuse(call, "the new children hold \(parent) itself") }
        // Checked before anything changes, against the parent's subtree alone, so that the
        // outline is edited in place: a copy would cost the whole outline.
        var under = Set<ItemID>()
        walk(children(of: parent), onlyVisible: false) { under.insert($0) }
        if let present = snapshot.nodes.keys.first(where: { nodes[$0] != nil && !under.contains($0) }) {
            return refuse(call, "item \(present) is already in the snapshot, outside \(parent)")
        }
        removeDescendants(of: parent)
        graft(snapshot, under: parent)
        return true
    }

    /// Takes `items` out, with their descendants. Each list of siblings is walked once, however
    /// many of its items go.
    @discardableResult
    public mutating func delete(_ items: [ItemID]) -> Bool {
        guard holds(items, call: "delete") else { return false }
        let gone = Set(items)
        var parents = Set<ItemID>()
        var fromRoots = false
        for item in items {
            guard let node = nodes[item] else { continue }  // under an item deleted before it
            if let p = node.parent { parents.insert(p) } else { fromRoots = true }
            removeDescendants(of: item)
            nodes[item] = nil
        }
        for p in parents where nodes[p] != nil { nodes[p]!.children.removeAll { gone.contains($0) } }
        if fromRoots { rootItems.removeAll { gone.contains($0) } }
        return true
    }

    /// Takes every item out.
    public mutating func deleteAll() { self = Self() }

    /// Marks `items` expanded: their children show when they do.
    @discardableResult
    public mutating func expand(_ items: [ItemID]) -> Bool { setExpanded(items, true, call: "expand") }

    /// Marks `items` collapsed: their descendants are hidden (and keep their own marks).
    @discardableResult
    public mutating func collapse(_ items: [ItemID]) -> Bool { setExpanded(items, false, call: "collapse") }

    // MARK: Parts

    /// Gives `visit` each item depth first from `level` (through open parents only when
    /// `onlyVisible`) until it answers false, on a stack of its own (an outline may be deeper
    /// than the thread's stack would take recursion).
    private func walk(_ level: [ItemID], onlyVisible: Bool, _ visit: (ItemID) -> Bool) {
        // Two stacks, not one of pairs: code not specialized for the item's type (an app's
        // outline, called from the app's module) asks the runtime for a tuple's type at every
        // step of one.
        var levels = [level]
        var nexts = [0]
        while let items = levels.last {
            let next = nexts[nexts.count - 1]
            guard next < items.count else {
                levels.removeLast()
                nexts.removeLast()
                continue
            }
            nexts[nexts.count - 1] = next + 1
            let item = items[next]
            guard visit(item) else { return }
            let node = nodes[item]!
            if !node.children.isEmpty && (node.isExpanded || !onlyVisible) {
                levels.append(node.children)
                nexts.append(0)
            }
        }
    }

    /// `walk` to the end.
    private func walk(_ level: [ItemID], onlyVisible: Bool, _ visit: (ItemID) -> Void) {
        walk(level, onlyVisible: onlyVisible) { (item: ItemID) -> Bool in
            visit(item)
            return true
        }
    }

    private mutating func insert(_ items: [ItemID], next anchor: ItemID, after: Bool, call: String) -> Bool {
        guard let node = nodes[anchor] else { return refuse(call, "item \(anchor) is not in the snapshot") }
        let siblings = node.parent.map { nodes[$0]!.children } ?? rootItems
        let at = siblings.firstIndex(of: anchor)! + (after ? 1 : 0)
        return insert(items, parent: node.parent, at: at, call: call)
    }

    /// Each item entered once, its clash with one already there (or earlier in `items`) found
    /// by the same entry, and the entries undone on a clash.
    private mutating func insert(_ items: [ItemID], parent: ItemID?, at index: Int, call: String) -> Bool {
        for i in items.indices {
            guard let earlier = nodes.updateValue(Node(parent: parent), forKey: items[i]) else { continue }
            nodes[items[i]] = earlier
            for j in 0..<i { nodes[items[j]] = nil }
            let twice = items[..<i].contains(items[i])
            return refuse(call, "item \(items[i]) is \(twice ? "named twice" : "already in the snapshot")")
        }
        if let parent {
            nodes[parent]!.children.insert(contentsOf: items, at: index)
        } else {
            rootItems.insert(contentsOf: items, at: index)
        }
        return true
    }

    /// `snapshot`'s items entered under `parent`, after its children (none of them here).
    private mutating func graft(_ snapshot: Self, under parent: ItemID?) {
        for (item, node) in snapshot.nodes {
            var n = node
            if n.parent == nil { n.parent = parent }
            nodes[item] = n
        }
        if let parent {
            nodes[parent]!.children.append(contentsOf: snapshot.rootItems)
        } else {
            rootItems.append(contentsOf: snapshot.rootItems)
        }
    }

    private mutating func removeDescendants(of item: ItemID) {
        var stack = nodes[item]?.children ?? []
        nodes[item]?.children = []
        while let gone = stack.popLast() {
            stack.append(contentsOf: nodes.removeValue(forKey: gone)?.children ?? [])
        }
    }

    private mutating func setExpanded(_ items: [ItemID], _ expanded: Bool, call: String) -> Bool {
        guard holds(items, call: call) else { return false }
        for item in items { nodes[item]!.isExpanded = expanded }
        return true
    }

    private func holds(_ items: [ItemID], call: String) -> Bool {
        guard let missing = items.first(where: { nodes[$0] == nil }) else { return true }
        return refuse(call, "item \(missing) is not in the snapshot")
    }

    private func refuse(_ call: String, _ why: String) -> Bool {
        Self.log.error("SectionSnapshot.\(call): \(why); the snapshot is left as it was")
        return false
    }
}

extension SectionSnapshot: Sendable where ItemID: Sendable {}
extension SectionSnapshot.Node: Sendable where ItemID: Sendable {}
