import Logging

/// What a diffable data source shows: sections and their items, each named by an identifier
/// the app chooses (UIKit's `NSDiffableDataSourceSnapshot`). An app builds the snapshot its
/// model makes, or edits the one the data source gives (`snapshot()`), and applies it; the data
/// source works out the inserts, deletes, moves and reloads that turn the list or collection
/// from the old snapshot into the new (`ListDiffableDataSource`,
/// `CollectionDiffableDataSource`).
///
/// Identifiers are unique across the whole snapshot: a section's, among sections; an item's,
/// among every section's items. An identifier stands for its item through the app's changes
/// (a row keeps its cell when it moves); what it shows changing is `reloadItems(_:)`'s work.
///
/// An edit the snapshot cannot make (an item added twice, or an identifier it does not hold
/// named as an anchor, or one to delete, move or reload) changes nothing, logs what it refused
/// and why, and returns false: UIKit raises an exception there, which a Wayland client must not
/// do to its user.
public struct DataSourceSnapshot<SectionID: Hashable, ItemID: Hashable>: Equatable {
    /// The sections, in order.
    public private(set) var sectionIdentifiers: [SectionID] = []
    /// Each section's items, in the sections' order.
    private var sectionItems: [[ItemID]] = []
    /// Where each section stands in `sectionIdentifiers`.
    private var sectionIndices: [SectionID: Int] = [:]
    /// The section holding each item.
    private var sectionOfItem: [ItemID: SectionID] = [:]
    /// The items whose content changed (`reloadItems(_:)`): applied, they get new cells.
    public private(set) var reloadedItemIdentifiers = Set<ItemID>()
    /// The sections whose content changed (`reloadSections(_:)`): applied, every item of
    /// theirs gets a new cell and their headers are read again.
    public private(set) var reloadedSectionIdentifiers = Set<SectionID>()
    /// The items whose cells are to be configured again in place (`reconfigureItems(_:)`).
    public private(set) var reconfiguredItemIdentifiers = Set<ItemID>()

    public init() {}

    private static var log: Logger { Logger(label: "scrollway.snapshot") }

    // MARK: Reading

    public var numberOfSections: Int { sectionIdentifiers.count }
    public var numberOfItems: Int { sectionOfItem.count }
    /// Every item, section after section.
    public var itemIdentifiers: [ItemID] { sectionItems.flatMap { $0 } }

    /// The items of `section`, in order (none when the snapshot has no such section).
    public func itemIdentifiers(inSection section: SectionID) -> [ItemID] {
        sectionIndices[section].map { sectionItems[$0] } ?? []
    }

    public func numberOfItems(inSection section: SectionID) -> Int {
        sectionIndices[section].map { sectionItems[$0].count } ?? 0
    }

    /// The section holding `item` (nil: the snapshot has no such item).
    public func sectionIdentifier(containingItem item: ItemID) -> SectionID? { sectionOfItem[item] }

    /// Where `item` stands among every item, section after section (nil: not here).
    public func indexOfItem(_ item: ItemID) -> Int? {
        guard let path = path(of: item) else { return nil }
        return sectionItems[..<path.section].reduce(0) { $0 + $1.count } + path.item
    }

    /// Where `section` stands among the sections (nil: not here).
    public func indexOfSection(_ section: SectionID) -> Int? { sectionIndices[section] }

    /// Whether the snapshot holds `item`.
    public func contains(_ item: ItemID) -> Bool { sectionOfItem[item] != nil }

    /// `item`'s section and place in it, by index.
    func path(of item: ItemID) -> ItemPath? {
        guard let section = sectionOfItem[item], let s = sectionIndices[section],
            let i = sectionItems[s].firstIndex(of: item)
        else { return nil }
        return ItemPath(item: i, section: s)
    }

    /// The items of the section at `index`.
    func items(inSectionAt index: Int) -> [ItemID] { sectionItems[index] }

    /// Every item, section after section, and where each stands.
    func itemsWithPaths() -> (items: [ItemID], paths: [ItemPath]) {
        var items: [ItemID] = []
        var paths: [ItemPath] = []
        items.reserveCapacity(numberOfItems)
        paths.reserveCapacity(numberOfItems)
        for (s, section) in sectionItems.enumerated() {
            items.append(contentsOf: section)
            paths.append(contentsOf: section.indices.map { ItemPath(item: $0, section: s) })
        }
        return (items, paths)
    }

    /// The snapshot without its marks of reloaded items and sections: what a data source keeps
    /// once it applied them.
    var withoutReloads: Self {
        var plain = self
        plain.reloadedItemIdentifiers = []
        plain.reloadedSectionIdentifiers = []
        plain.reconfiguredItemIdentifiers = []
        return plain
    }

    // MARK: Sections

    /// Adds sections after the last.
    @discardableResult
    public mutating func appendSections(_ sections: [SectionID]) -> Bool {
        insertSections(sections, at: sectionIdentifiers.count, call: "appendSections")
    }

    /// Adds sections just before `anchor`.
    @discardableResult
    public mutating func insertSections(_ sections: [SectionID], beforeSection anchor: SectionID) -> Bool {
        guard let a = sectionIndices[anchor] else {
            return refuse("insertSections(_:beforeSection:)", "section \(anchor) is not in the snapshot")
        }
        return insertSections(sections, at: a, call: "insertSections(_:beforeSection:)")
    }

    /// Adds sections just after `anchor`.
    @discardableResult
    public mutating func insertSections(_ sections: [SectionID], afterSection anchor: SectionID) -> Bool {
        guard let a = sectionIndices[anchor] else {
            return refuse("insertSections(_:afterSection:)", "section \(anchor) is not in the snapshot")
        }
        return insertSections(sections, at: a + 1, call: "insertSections(_:afterSection:)")
    }

    /// Takes sections out, with their items.
    @discardableResult
    public mutating func deleteSections(_ sections: [SectionID]) -> Bool {
        guard holdsSections(sections, call: "deleteSections") else { return false }
        let gone = Set(sections)
        for s in sections {
            for item in sectionItems[sectionIndices[s]!] {
                sectionOfItem[item] = nil
                reloadedItemIdentifiers.remove(item)
                reconfiguredItemIdentifiers.remove(item)
            }
        }
        var kept: [(SectionID, [ItemID])] = []
        for (s, items) in zip(sectionIdentifiers, sectionItems) where !gone.contains(s) { kept.append((s, items)) }
        sectionIdentifiers = kept.map(\.0)
        sectionItems = kept.map(\.1)
        reloadedSectionIdentifiers.subtract(gone)
        indexSections()
        return true
    }

    /// Moves `section`, with its items, to just before `anchor`.
    @discardableResult
    public mutating func moveSection(_ section: SectionID, beforeSection anchor: SectionID) -> Bool {
        moveSection(section, next: anchor, after: false, call: "moveSection(_:beforeSection:)")
    }

    /// Moves `section`, with its items, to just after `anchor`.
    @discardableResult
    public mutating func moveSection(_ section: SectionID, afterSection anchor: SectionID) -> Bool {
        moveSection(section, next: anchor, after: true, call: "moveSection(_:afterSection:)")
    }

    /// Marks sections whose content changed: applied, their items get new cells and their
    /// headers and footers are read again.
    @discardableResult
    public mutating func reloadSections(_ sections: [SectionID]) -> Bool {
        guard holdsSections(sections, call: "reloadSections") else { return false }
        reloadedSectionIdentifiers.formUnion(sections)
        return true
    }

    // MARK: Items

    /// Adds items after the last of `section` (nil: the last section, as UIKit's).
    @discardableResult
    public mutating func appendItems(_ items: [ItemID], toSection section: SectionID? = nil) -> Bool {
        let call = "appendItems"
        guard
            let s = section.map({ sectionIndices[$0] })
                ?? (sectionIdentifiers.isEmpty ? nil : sectionIdentifiers.count - 1)
        else {
            let why = section.map { "section \($0) is not in the snapshot" } ?? "the snapshot has no section to add to"
            return refuse(call, why)
        }
        return insertItems(items, section: s, at: sectionItems[s].count, call: call)
    }

    /// Adds items just before `anchor`, in its section.
    @discardableResult
    public mutating func insertItems(_ items: [ItemID], beforeItem anchor: ItemID) -> Bool {
        let call = "insertItems(_:beforeItem:)"
        guard let p = path(of: anchor) else { return refuse(call, "item \(anchor) is not in the snapshot") }
        return insertItems(items, section: p.section, at: p.item, call: call)
    }

    /// Adds items just after `anchor`, in its section.
    @discardableResult
    public mutating func insertItems(_ items: [ItemID], afterItem anchor: ItemID) -> Bool {
        let call = "insertItems(_:afterItem:)"
        guard let p = path(of: anchor) else { return refuse(call, "item \(anchor) is not in the snapshot") }
        return insertItems(items, section: p.section, at: p.item + 1, call: call)
    }

    /// Takes items out.
    @discardableResult
    public mutating func deleteItems(_ items: [ItemID]) -> Bool {
        guard holdsItems(items, call: "deleteItems") else { return false }
        let gone = Set(items)
        var touched = Set<Int>()
        for item in gone {
            touched.insert(sectionIndices[sectionOfItem.removeValue(forKey: item)!]!)
            reloadedItemIdentifiers.remove(item)
            reconfiguredItemIdentifiers.remove(item)
        }
        for s in touched { sectionItems[s].removeAll { gone.contains($0) } }
        return true
    }

    /// Takes every section and item out.
    public mutating func deleteAllItems() { self = Self() }

    /// Moves `item` to just before `anchor`, into `anchor`'s section.
    @discardableResult
    public mutating func moveItem(_ item: ItemID, beforeItem anchor: ItemID) -> Bool {
        moveItem(item, next: anchor, after: false, call: "moveItem(_:beforeItem:)")
    }

    /// Moves `item` to just after `anchor`, into `anchor`'s section.
    @discardableResult
    public mutating func moveItem(_ item: ItemID, afterItem anchor: ItemID) -> Bool {
        moveItem(item, next: anchor, after: true, call: "moveItem(_:afterItem:)")
    }

    /// Marks items whose content changed: applied, each gets a new cell (and is measured
    /// again), where the others keep theirs.
    @discardableResult
    public mutating func reloadItems(_ items: [ItemID]) -> Bool {
        guard holdsItems(items, call: "reloadItems") else { return false }
        reloadedItemIdentifiers.formUnion(items)
        return true
    }

    /// Marks items whose content changed but whose cells may stay (UIKit's
    /// `reconfigureItems`): applied, the cell provider configures each one's own cell again
    /// (`dequeueReusableCell` hands it back), so nothing is swapped or animated and its focus
    /// and selection stay. Only items in view have anything to do.
    @discardableResult
    public mutating func reconfigureItems(_ items: [ItemID]) -> Bool {
        guard holdsItems(items, call: "reconfigureItems") else { return false }
        reconfiguredItemIdentifiers.formUnion(items)
        return true
    }

    // MARK: Edits' parts

    private mutating func insertSections(_ sections: [SectionID], at index: Int, call: String) -> Bool {
        if let twice = Self.repeated(sections) { return refuse(call, "section \(twice) is named twice") }
        if let present = sections.first(where: { sectionIndices[$0] != nil }) {
            return refuse(call, "section \(present) is already in the snapshot")
        }
        sectionIdentifiers.insert(contentsOf: sections, at: index)
        sectionItems.insert(contentsOf: sections.map { _ in [] }, at: index)
        indexSections()
        return true
    }

    private mutating func moveSection(_ section: SectionID, next anchor: SectionID, after: Bool, call: String) -> Bool {
        guard let from = sectionIndices[section] else {
            return refuse(call, "section \(section) is not in the snapshot")
        }
        guard sectionIndices[anchor] != nil else { return refuse(call, "section \(anchor) is not in the snapshot") }
        guard section != anchor else { return refuse(call, "section \(section) is moved next to itself") }
        let items = sectionItems.remove(at: from)
        sectionIdentifiers.remove(at: from)
        let a = sectionIdentifiers.firstIndex(of: anchor)! + (after ? 1 : 0)
        sectionIdentifiers.insert(section, at: a)
        sectionItems.insert(items, at: a)
        indexSections()
        return true
    }

    /// Each item is entered once, its clash with one already there (or earlier in `items`)
    /// found by the same entry, and the entries made undone on a clash: one hash of each item
    /// where checking first and entering after took three. Index loops: a for-in over the items
    /// asks the runtime for generic metadata at every step in code not specialized for them.
    private mutating func insertItems(_ items: [ItemID], section s: Int, at index: Int, call: String) -> Bool {
        let section = sectionIdentifiers[s]
        for i in items.indices {
            guard let earlier = sectionOfItem.updateValue(section, forKey: items[i]) else { continue }
            sectionOfItem[items[i]] = earlier
            for j in 0..<i { sectionOfItem[items[j]] = nil }
            let why =
                items[..<i].contains(items[i])
                ? "item \(items[i]) is named twice"
                : "item \(items[i]) is already in the snapshot (in section \(earlier))"
            return refuse(call, why)
        }
        sectionItems[s].insert(contentsOf: items, at: index)
        return true
    }

    private mutating func moveItem(_ item: ItemID, next anchor: ItemID, after: Bool, call: String) -> Bool {
        guard let from = path(of: item) else { return refuse(call, "item \(item) is not in the snapshot") }
        guard sectionOfItem[anchor] != nil else { return refuse(call, "item \(anchor) is not in the snapshot") }
        guard item != anchor else { return refuse(call, "item \(item) is moved next to itself") }
        sectionItems[from.section].remove(at: from.item)
        let to = path(of: anchor)!
        sectionItems[to.section].insert(item, at: to.item + (after ? 1 : 0))
        sectionOfItem[item] = sectionIdentifiers[to.section]
        return true
    }

    /// Replaces the items of every section at once (their sections kept): how a hand move in a
    /// list, which may carry a row across a section's edge, is written back.
    mutating func setItems(_ items: [[ItemID]]) {
        precondition(items.count == sectionItems.count, "setItems: one array per section")
        sectionItems = items
        for (s, section) in zip(sectionIdentifiers, items) { for item in section { sectionOfItem[item] = s } }
    }

    /// Replaces the items at `range` of the section at `index` by `items`: how an outline's row
    /// opening or closing changes its section, at the cost of the rows that come and go (and a
    /// move of the section's array), not of the section. As `setItems(_:inSection:call:)`, the
    /// caller has made sure that the new items are in no other place; the snapshot is one a
    /// list shows, with nothing marked reloaded.
    mutating func replaceItems(inSectionAt index: Int, _ range: Range<Int>, with items: [ItemID]) {
        let section = sectionIdentifiers[index]
        for i in range { sectionOfItem[sectionItems[index][i]] = nil }
        for i in items.indices { sectionOfItem[items[i]] = section }
        sectionItems[index].replaceSubrange(range, with: items)
    }

    /// Replaces `section`'s items, the section added after the last when the snapshot lacks it:
    /// how an outline's shown items go into the section it is applied to. The caller has made
    /// sure that they are unique and in no other section (an outline's items are, and the data
    /// source asks the other sections' items of it): a check of every item here would cost as
    /// much again as the rest.
    mutating func setItems(_ items: [ItemID], inSection section: SectionID, call: String) {
        if sectionIndices[section] == nil { _ = insertSections([section], at: sectionIdentifiers.count, call: call) }
        let s = sectionIndices[section]!
        // Every old item out and every new one in: two hashes an item, where finding the ones
        // that went took three.
        let old = sectionItems[s]
        for i in old.indices { sectionOfItem[old[i]] = nil }
        sectionItems[s] = items
        for i in items.indices { sectionOfItem[items[i]] = section }
        if !reloadedItemIdentifiers.isEmpty { reloadedItemIdentifiers = reloadedItemIdentifiers.filter(contains) }
        if !reconfiguredItemIdentifiers.isEmpty {
            reconfiguredItemIdentifiers = reconfiguredItemIdentifiers.filter(contains)
        }
    }

    private mutating func indexSections() {
        sectionIndices = Dictionary(uniqueKeysWithValues: sectionIdentifiers.enumerated().map { ($1, $0) })
    }

    /// Whether the snapshot holds every one of `items`; refused (logged) when not.
    private func holdsItems(_ items: [ItemID], call: String) -> Bool {
        guard let missing = items.first(where: { sectionOfItem[$0] == nil }) else { return true }
        return refuse(call, "item \(missing) is not in the snapshot")
    }

    /// Whether the snapshot holds every one of `sections`; refused (logged) when not.
    private func holdsSections(_ sections: [SectionID], call: String) -> Bool {
        guard let missing = sections.first(where: { sectionIndices[$0] == nil }) else { return true }
        return refuse(call, "section \(missing) is not in the snapshot")
    }

    private func refuse(_ call: String, _ why: String) -> Bool {
        Self.log.error("DataSourceSnapshot.\(call): \(why); the snapshot is left as it was")
        return false
    }

    /// The first value `values` holds twice.
    private static func repeated<T: Hashable>(_ values: [T]) -> T? {
        var seen = Set<T>()
        return values.first { !seen.insert($0).inserted }
    }
}

extension DataSourceSnapshot: Sendable where SectionID: Sendable, ItemID: Sendable {}
