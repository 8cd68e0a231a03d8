import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// A collection's selection, as UICollectionView's: several items at once with
/// `allowsMultipleSelection` (a second tap deselects, as in a photo picker), none with
/// `allowsSelection` off; the selected items follow their items through updates, their cells
/// show it wherever they are reused, and a reader hears each change.
///
/// The grid is `CollectionViewTests.gridLayout` in a 400×600 window: three columns of
/// 100×80 items at x = 10, 150, 290, rows 90 apart from y = 40 (below a 30 header and a 10
/// inset), so item i of section 0 is centred at (60 + 140·(i mod 3), 80 + 90·⌊i / 3⌋).
@MainActor
@Suite struct CollectionSelectionTests {
    /// Records what the collection tells a reader about selection.
    final class Heard: WindowObserver {
        var changes: [String] = []
        func window(_ window: Window, accessibilityNotification notification: AccessibilityNotification) {
            guard case .stateChanged(let view, let state, let on) = notification, state == .selected,
                let cell = view as? CollectionViewTests.TextCell
            else { return }
            changes.append("\(cell.label.text) \(on)")
        }
    }

    static func centre(_ item: Int) -> Point {
        Point(x: 60 + 140 * Double(item % 3), y: 80 + 90 * Double(item / 3))
    }

    func tap(_ item: Int, _ rig: ScrollBench, _ collection: CollectionView) {
        let p = collection.convert(Self.centre(item), to: nil)
        rig.send(from: rig.time + 0.05) { $0.tap(at: p, at: 0, hold: 50, id: 3) }
        rig.settle()
    }

    func press(_ key: Key, _ rig: ScrollBench) {
        let t = rig.time + 0.02
        rig.send(.key(key, pressed: true, modifiers: []), at: t)
        rig.send(.key(key, pressed: false, modifiers: []), at: t + 0.03)
        rig.settle()
    }

    @Test func severalItemsAtOnceASecondTapDeselects() throws {
        let (rig, collection, _, _) = CollectionViewTests().rig([30])
        let heard = Heard()
        rig.window.addObserver(heard)
        collection.allowsMultipleSelection = true
        var calls: [String] = []
        collection.onSelectItem = { calls.append("select \($0.item)") }
        collection.onDeselectItem = { calls.append("deselect \($0.item)") }
        for item in [1, 4, 6] { tap(item, rig, collection) }
        #expect(collection.selectedItems == [1, 4, 6].map { ItemPath(item: $0) })
        #expect(collection.selectedItem == ItemPath(item: 1))
        tap(4, rig, collection)
        #expect(collection.selectedItems == [ItemPath(item: 1), ItemPath(item: 6)])
        #expect(calls == ["select 1", "select 4", "select 6", "deselect 4"])
        #expect(heard.changes == ["0.1 true", "0.4 true", "0.6 true", "0.4 false"])
        let selected = try #require(collection.visibleCells[ItemPath(item: 6)])
        let unselected = try #require(collection.visibleCells[ItemPath(item: 4)])
        #expect(selected.isSelected && selected.backgroundColor == selected.selectedColor)
        #expect(!unselected.isSelected && unselected.backgroundColor == unselected.normalColor)

        // A reader hears a grid that takes several, and which of its items are selected.
        let node = try #require(collection.accessibilityNode(in: rig.window))
        #expect(node.role == .list && node.states.contains(.multiselectable))
        let picked = node.children.filter { $0.states.contains(.selected) }.map(\.label)
        #expect(picked == ["0.1", "0.6"])

        // The keyboard does what a tap does: Space on item 6 deselects it, Return on item 7
        // (the arrow's next) selects it.
        selected.becomeFocused()
        press(.space, rig)
        press(.right, rig)
        press(.enter, rig)
        #expect(collection.selectedItems == [ItemPath(item: 1), ItemPath(item: 7)])
        #expect(calls.suffix(2) == ["deselect 6", "select 7"])

        // Turned off, the first stays selected; the grid no longer says it takes several.
        collection.allowsMultipleSelection = false
        #expect(collection.selectedItems == [ItemPath(item: 1)])
        #expect(collection.visibleCells[ItemPath(item: 7)]?.isSelected == false)
        let single = try #require(collection.accessibilityNode(in: rig.window))
        #expect(!single.states.contains(.multiselectable))
        tap(2, rig, collection)
        #expect(collection.selectedItems == [ItemPath(item: 2)])
    }

    /// `selectItem(at:)` adds to the selection among several; nil deselects every item, a path
    /// that names none is ignored; an item selected out of view shows selected when it comes
    /// in, and cells reused meanwhile show their own items' state.
    @Test func theAppsSelectionReachesItemsOutOfView() throws {
        let (rig, collection, _, _) = CollectionViewTests().rig([60])
        collection.allowsMultipleSelection = true
        var calls = 0
        collection.onSelectItem = { _ in calls += 1 }
        collection.selectItem(at: ItemPath(item: 2))
        collection.selectItem(at: ItemPath(item: 58), scrollsIntoView: true)
        collection.selectItem(at: ItemPath(item: 60))
        collection.selectItem(at: ItemPath(item: 0, section: 1))
        #expect(collection.selectedItems == [ItemPath(item: 2), ItemPath(item: 58)] && calls == 0)
        rig.window.layoutIfNeeded()
        #expect(collection.visibleCells[ItemPath(item: 2)] == nil)
        let shown = collection.visibleCells.filter { $0.value.isSelected }.map(\.key)
        #expect(shown == [ItemPath(item: 58)])
        collection.scrollToItem(at: ItemPath(item: 0))
        rig.window.layoutIfNeeded()
        #expect(collection.visibleCells.filter { $0.value.isSelected }.map(\.key) == [ItemPath(item: 2)])
        collection.deselectItem(at: ItemPath(item: 2))
        collection.deselectItem(at: ItemPath(item: 3))
        #expect(collection.selectedItems == [ItemPath(item: 58)])
        collection.selectItem(at: ItemPath(item: 5))
        collection.selectItem(at: nil)
        #expect(collection.selectedItems.isEmpty && collection.visibleCells.values.allSatisfy { !$0.isSelected })
    }

    /// The selected items follow their items: an insert above renumbers them, a delete takes
    /// its item out, a move carries its item, a reload keeps it; reloading the data keeps
    /// those that still name an item.
    @Test func theSelectionFollowsItsItemsThroughUpdates() {
        let (rig, collection, source, _) = CollectionViewTests().rig([20, 5])
        defer { withExtendedLifetime(rig) {} }
        collection.allowsMultipleSelection = true
        for item in [2, 5, 9] { collection.selectItem(at: ItemPath(item: item)) }
        collection.selectItem(at: ItemPath(item: 4, section: 1))
        source.counts[0] += 1
        collection.insertItems(at: [ItemPath(item: 0)])
        #expect(collection.selectedItems.map(\.description) == ["0.3", "0.6", "0.10", "1.4"])
        source.counts[0] -= 1
        collection.deleteItems(at: [ItemPath(item: 6)])
        #expect(collection.selectedItems.map(\.description) == ["0.3", "0.9", "1.4"])
        source.counts[0] -= 1
        source.counts[1] += 1
        collection.moveItem(at: ItemPath(item: 9), to: ItemPath(item: 0, section: 1))
        #expect(collection.selectedItems.map(\.description) == ["0.3", "1.0", "1.5"])
        collection.reloadItems(at: [ItemPath(item: 3)])
        #expect(collection.selectedItems.map(\.description) == ["0.3", "1.0", "1.5"])
        rig.window.layoutIfNeeded()
        #expect(collection.visibleCells[ItemPath(item: 3)]?.isSelected == true)
        // Section 1 loses its last item: a reload keeps the rest.
        source.counts[1] = 5
        collection.reloadData()
        #expect(collection.selectedItems.map(\.description) == ["0.3", "1.0"])
    }

    /// With `allowsSelection` off a tap selects nothing and calls nothing, Space scrolls as it
    /// would anywhere else, and what was selected is deselected.
    @Test func selectionOffTapsSelectNothingAndSpaceScrolls() throws {
        let (rig, collection, _, _) = CollectionViewTests().rig([60])
        var calls = 0
        collection.onSelectItem = { _ in calls += 1 }
        tap(4, rig, collection)
        #expect(collection.selectedItems == [ItemPath(item: 4)] && calls == 1)
        collection.allowsSelection = false
        #expect(collection.selectedItems.isEmpty)
        #expect(collection.visibleCells[ItemPath(item: 4)]?.isSelected == false)
        tap(5, rig, collection)
        #expect(collection.selectedItems.isEmpty && calls == 1)
        let cell = try #require(collection.visibleCells[ItemPath(item: 0)])
        cell.becomeFocused()
        #expect(collection.contentOffset.y == 0)
        press(.space, rig)
        #expect(collection.selectedItems.isEmpty && calls == 1)
        #expect(collection.contentOffset.y > 0)
    }
}
