import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayLayout
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// The collection view and its flow layout: where each item and header goes (worked by hand),
/// cells only for what is in view whatever the count, self-sizing rows, and selection by tap
/// and by keyboard.
@MainActor
@Suite struct CollectionViewTests {
    final class Source: CollectionViewDataSource {
        var counts: [Int]
        var texts: [ItemPath: String] = [:]
        init(_ counts: [Int]) { self.counts = counts }
        func numberOfSections(in collectionView: CollectionView) -> Int { counts.count }
        func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
            counts[section]
        }
        func collectionView(_ collectionView: CollectionView, cellForItemAt path: ItemPath) -> CollectionCell {
            let cell = collectionView.dequeueReusableCell(withIdentifier: "cell") as! TextCell
            cell.label.text = texts[path] ?? "\(path)"
            return cell
        }
        func collectionView(_ collectionView: CollectionView, titleForSection section: Int) -> String {
            "Section \(section)"
        }
        func collectionView(_ collectionView: CollectionView, titleForFooterInSection section: Int) -> String {
            "End of \(section)"
        }
        /// Each section's own header and footer heights (nil: the layout's).
        var headerHeights: [Double]?
        var footerHeights: [Double]?
        func collectionView(
            _ collectionView: CollectionView, layout: FlowLayout, heightForHeaderInSection section: Int
        ) -> Double { headerHeights?[section] ?? layout.headerHeight }
        func collectionView(
            _ collectionView: CollectionView, layout: FlowLayout, heightForFooterInSection section: Int
        ) -> Double { footerHeights?[section] ?? layout.footerHeight }
    }

    /// A cell whose label wraps, pinned by constraints 8 from every edge of its content view.
    final class TextCell: CollectionCell {
        let label = Label()
        init() {
            super.init(reuseIdentifier: "cell")
            label.numberOfLines = 0
            label.translatesAutoresizingMaskIntoConstraints = false
            contentView.addSubview(label)
            LayoutConstraint.activate(
                label.constraints(pinningEdgesTo: contentView, insets: EdgeInsets(top: 8, left: 8, bottom: 8, right: 8))
            )
        }
    }

    /// The grid these tests use: items 100×80, 10 apart, insets 10, headers 30; self-sizing
    /// from an estimate of 50.
    static func gridLayout(selfSizing: Bool = false) -> FlowLayout {
        let layout = FlowLayout()
        layout.itemSize = Size(width: 100, height: 80)
        layout.minimumInteritemSpacing = 10
        layout.minimumLineSpacing = 10
        layout.sectionInset = EdgeInsets(top: 10, left: 10, bottom: 10, right: 10)
        layout.headerHeight = 30
        if selfSizing { layout.estimatedItemHeight = 50 }
        return layout
    }

    /// A 400×600 window holding a collection laid out by `gridLayout`.
    func rig(_ counts: [Int], selfSizing: Bool = false) -> (ScrollBench, CollectionView, Source, FlowLayout) {
        let layout = Self.gridLayout(selfSizing: selfSizing)
        let collection = CollectionView(layout: layout)
        collection.register("cell") { TextCell() }
        let source = Source(counts)
        collection.dataSource = source
        let rig = ScrollBench(viewport: Size(width: 400, height: 600), scrollView: collection)
        rig.retainedDelegate = source  // the data source is weak, as in UIKit
        rig.content.removeFromSuperview()  // the bench's plain content view would cover the cells
        collection.reloadData()
        rig.window.layoutIfNeeded()
        return (rig, collection, source, layout)
    }

    /// A reconfigured item of a self-sizing layout is measured again: its row grows with it,
    /// and shrinks back when its content does.
    @Test func aReconfiguredItemIsMeasuredAgainGrowingOrShrinking() {
        let (_, collection, source, _) = rig([7], selfSizing: true)
        let path = ItemPath(item: 0)
        let before = collection.frameForItem(at: path).height
        source.texts[path] = "a\nb\nc\nd"
        collection.reconfigureItems(at: [path])
        #expect(collection.frameForItem(at: path).height > before)
        source.texts[path] = nil
        collection.reconfigureItems(at: [path])
        #expect(collection.frameForItem(at: path).height == before)
    }

    /// Reconfigured items at the bottom that shrink leave the offset at rest within the range
    /// at once (it sprang back from past the end, over an empty screen).
    @Test func reconfiguredItemsShrinkingAtTheBottomKeepTheOffsetInRange() {
        let (bench, collection, source, _) = rig([30], selfSizing: true)
        for i in 0..<30 { source.texts[ItemPath(item: i)] = "a\nb\nc\nd\ne" }
        collection.reloadData()
        bench.window.layoutIfNeeded()
        collection.contentOffset = Point(x: 0, y: collection.contentSize.height - collection.bounds.height)
        bench.window.layoutIfNeeded()
        source.texts = [:]
        collection.reconfigureItems(at: Array(collection.visibleCells.keys))
        bench.driver.advance(by: 0.02)
        #expect(collection.contentOffset.y <= max(0, collection.contentSize.height - collection.bounds.height))
    }

    @Test func aFlowLayoutPlacesItemsInColumnsAndSections() {
        let (_, collection, _, _) = rig([7, 2])
        // Inside 380: three columns of 100 (3·100 + 2·10 ≤ 380), the 80 left over widening the
        // two gaps to 40: a pitch of 140.
        #expect(collection.frameForItem(at: ItemPath(item: 0)) == Rect(x: 10, y: 40, width: 100, height: 80))
        #expect(collection.frameForItem(at: ItemPath(item: 4)) == Rect(x: 150, y: 130, width: 100, height: 80))
        #expect(collection.frameForItem(at: ItemPath(item: 6)) == Rect(x: 10, y: 220, width: 100, height: 80))
        // Section 0: 30 + 10 + 3·80 + 2·10 + 10 = 310; section 1 starts there.
        #expect(collection.layout.frameForHeader(inSection: 1) == Rect(x: 0, y: 310, width: 400, height: 30))
        #expect(
            collection.frameForItem(at: ItemPath(item: 1, section: 1)) == Rect(x: 150, y: 350, width: 100, height: 80))
        #expect(collection.contentSize == Size(width: 400, height: 440))
        #expect(collection.visibleCells.count == 9)
        #expect(collection.visibleCells[ItemPath(item: 4)]?.frame == Rect(x: 150, y: 130, width: 100, height: 80))
    }

    /// An estimate of 0 (UIKit's "self-sizing off"), a negative or a NaN one turns measuring off,
    /// and a size, spacing, inset or header that is not finite is ignored: the collection shows
    /// its items as before. An estimate of 0 left it blank for good; a NaN size drew nothing.
    @Test func badLayoutValuesLeaveTheCollectionShowingItsItems() {
        let (bench, collection, _, layout) = rig([7, 2])
        defer { withExtendedLifetime(bench) {} }
        let frames = (0..<7).map { collection.frameForItem(at: ItemPath(item: $0)) }
        for estimate in [0, -20, .nan, .infinity] as [Double] {
            layout.estimatedItemHeight = estimate
            #expect(layout.estimatedItemHeight == nil, "\(estimate)")
        }
        layout.itemSize = Size(width: .nan, height: 80)
        layout.itemSize = Size(width: 100, height: -1)
        layout.minimumInteritemSpacing = .nan
        layout.minimumLineSpacing = .infinity
        layout.sectionInset = EdgeInsets(top: .nan, left: 10, bottom: 10, right: 10)
        layout.headerHeight = -.infinity
        bench.window.layoutIfNeeded()
        #expect((0..<7).map { collection.frameForItem(at: ItemPath(item: $0)) } == frames)
        #expect(collection.visibleCells.count == 9)
        #expect(collection.contentSize == Size(width: 400, height: 440))
        // A good estimate still turns measuring on.
        layout.estimatedItemHeight = 50
        #expect(layout.estimatedItemHeight == 50)
    }

    /// Paths that name no item (a negative section or item, one past the end) are refused at the
    /// collection's door: no frame, no scroll, no selection, no focus moved. A negative section
    /// trapped `scrollToItem` (and `selectItem(at:scrollsIntoView:)`), and any path out of range
    /// trapped `frameForItem`, in the flow layout's arrays.
    @Test func pathsThatNameNoItemAreRefused() {
        let (bench, collection, _, layout) = rig([7, 2])
        defer { withExtendedLifetime(bench) {} }
        collection.contentOffset = Point(x: 0, y: 20)
        for path in [
            ItemPath(item: 0, section: -1), ItemPath(item: -1, section: 0), ItemPath(item: 7, section: 0),
            ItemPath(item: 0, section: 2), ItemPath(item: 500, section: 1),
        ] {
            #expect(!collection.contains(path))
            #expect(collection.frameForItem(at: path) == .zero, "\(path)")
            #expect(layout.frameForItem(at: path) == .zero, "\(path)")
            #expect(layout.item(from: path, toward: .down) == nil)
            collection.scrollToItem(at: path)
            collection.selectItem(at: path, scrollsIntoView: true)
            collection.moveFocus(from: path, toward: .down)
            #expect(collection.contentOffset.y == 20 && collection.selectedItem == nil, "\(path)")
        }
        #expect(collection.contains(ItemPath(item: 1, section: 1)))
        collection.selectItem(at: ItemPath(item: 1, section: 1))
        #expect(collection.selectedItem == ItemPath(item: 1, section: 1))
    }

    /// A negative spacing is none: one of −itemSize.width made 100,000 columns of items drawn
    /// over each other, and every item of a 1,000-item grid a cell at once.
    @Test func aNegativeSpacingIsNone() {
        let (bench, collection, _, layout) = rig([1000])
        defer { withExtendedLifetime(bench) {} }
        layout.minimumInteritemSpacing = -100
        collection.layoutIfNeeded()
        // Inside 380: three columns of 100 with no least spacing, as with 0.
        #expect(
            collection.frameForItem(at: ItemPath(item: 3)).minY > collection.frameForItem(at: ItemPath(item: 2)).minY)
        #expect(collection.visibleCells.count < 40, "\(collection.visibleCells.count) cells")
    }

    @Test func aReloadReadsTheHeadersAgain() throws {
        final class Renamed: CollectionViewDataSource {
            var prefix = "Roll"
            func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { 2 }
            func numberOfSections(in collectionView: CollectionView) -> Int { 2 }
            func collectionView(_ collectionView: CollectionView, cellForItemAt path: ItemPath) -> CollectionCell {
                collectionView.dequeueReusableCell(withIdentifier: "cell")
            }
            func collectionView(_ collectionView: CollectionView, titleForSection section: Int) -> String {
                "\(prefix) \(section + 1)"
            }
        }
        let (rig, collection, _, _) = rig([2, 2])
        let renamed = Renamed()
        rig.retainedDelegate = renamed
        collection.dataSource = renamed
        collection.reloadData()
        rig.window.layoutIfNeeded()
        func titles() -> [String] {
            collection.subviews.compactMap { ($0 as? ListSectionHeader)?.textLabel.text }.sorted()
        }
        #expect(titles() == ["Roll 1", "Roll 2"])
        renamed.prefix = "Album"
        collection.reloadData()
        rig.window.layoutIfNeeded()
        #expect(titles() == ["Album 1", "Album 2"])
    }

    /// An app's own layout: a single column of 50 px rows, 10 apart, a wider first item.
    final class Column: CollectionViewLayout {
        var count = 0
        var width = 0.0
        func prepare(for collectionView: CollectionView) {
            count = collectionView.numberOfItems(inSection: 0)
            width = collectionView.bounds.width
        }
        var contentSize: Size { Size(width: width, height: Double(count) * 60) }
        func items(in rect: Rect) -> [ItemPath] {
            let first = max(0, Int(clamping: rect.minY / 60, rounding: .down))
            let last = min(count - 1, Int(clamping: rect.maxY / 60, rounding: .down))
            return first <= last ? (first...last).map { ItemPath(item: $0) } : []
        }
        func frameForItem(at path: ItemPath) -> Rect {
            Rect(
                x: path.item == 0 ? 0 : 20, y: Double(path.item) * 60, width: path.item == 0 ? width : width - 40,
                height: 50)
        }
        func item(from path: ItemPath, toward direction: CollectionDirection) -> ItemPath? {
            switch direction {
            case .up, .left: return path.item > 0 ? ItemPath(item: path.item - 1) : nil
            case .down, .right: return path.item + 1 < count ? ItemPath(item: path.item + 1) : nil
            }
        }
    }

    @Test func anAppsOwnLayoutPlacesTheCells() throws {
        let layout = Column()
        let collection = CollectionView(layout: layout)
        collection.register("cell") { TextCell() }
        let source = Source([1_000])
        collection.dataSource = source
        let rig = ScrollBench(viewport: Size(width: 400, height: 600), scrollView: collection)
        rig.retainedDelegate = source
        rig.content.removeFromSuperview()
        collection.reloadData()
        rig.window.layoutIfNeeded()
        #expect(collection.contentSize == Size(width: 400, height: 60_000))
        // The viewport and its 100 px margin: rows meeting −100…700, 0…11.
        #expect(collection.visibleCells.keys.sorted() == (0...11).map { ItemPath(item: $0) })
        #expect(collection.visibleCells[ItemPath(item: 0)]?.frame == Rect(x: 0, y: 0, width: 400, height: 50))
        #expect(collection.visibleCells[ItemPath(item: 3)]?.frame == Rect(x: 20, y: 180, width: 360, height: 50))
        collection.scrollToItem(at: ItemPath(item: 500))
        rig.window.layoutIfNeeded()
        #expect(collection.visibleCells[ItemPath(item: 500)]?.frame == Rect(x: 20, y: 30_000, width: 360, height: 50))
        #expect(collection.contentOffset.y == 30_050 - 600)
    }

    /// A wider window reflows 100,000 items into more columns, a content a third shorter: the
    /// item at the top of the view stays there, and an animation to the end that was running
    /// goes on to the new end instead of starting from far past it.
    @Test func aReflowKeepsTheTopItemAndAnAnimationMovesWithIt() throws {
        let (rig, collection, _, _) = rig([100_000])
        collection.fillsSuperview = true
        collection.scrollToItem(at: ItemPath(item: 30_000))
        rig.window.layoutIfNeeded()
        let top = try #require(collection.layout.items(in: collection.bounds).first)
        let y = collection.frameForItem(at: top).minY - collection.contentOffset.y
        rig.window.resize(to: Size(width: 520, height: 600))
        rig.window.layoutIfNeeded()
        // Four columns now (pitch 126.7): the same item, at the same height on screen.
        #expect(collection.frameForItem(at: top).minY - collection.contentOffset.y == y)
        #expect(collection.verticalRange.contains(collection.contentOffset.y))
        // End's animation to the end, interrupted by a narrower window: never past the end by
        // more than the bounce allows, and it ends at the new end.
        let t = rig.time + 0.02
        rig.send(.key(.end, pressed: true, modifiers: []), at: t)
        rig.send(.key(.end, pressed: false, modifiers: []), at: t + 0.03)
        rig.advance(to: t + 0.1)
        #expect(collection.isScrollAnimating)
        rig.window.resize(to: Size(width: 400, height: 600))
        rig.driver.afterFrame = { _ in
            #expect(collection.contentOffset.y <= collection.verticalRange.upperBound + 600)
        }
        rig.settle()
        #expect(collection.contentOffset.y == collection.verticalRange.upperBound)
    }

    @Test func aNarrowerWindowTakesFewerColumns() {
        let (rig, collection, _, _) = rig([7])
        collection.fillsSuperview = true
        rig.window.resize(to: Size(width: 300, height: 600))
        rig.window.layoutIfNeeded()
        // Inside 280: two columns, pitch 100 + 80 = 180; 4 rows.
        #expect(collection.frameForItem(at: ItemPath(item: 3)) == Rect(x: 190, y: 130, width: 100, height: 80))
        let expected: Double = 30 + 10 + 4 * 80 + 3 * 10 + 10
        #expect(collection.contentSize.height == expected)
    }

    @Test func aColumnCountWidensItsItemsWithTheWindowAndMeasuresThemAgain() throws {
        let (rig, collection, source, layout) = rig([5], selfSizing: true)
        collection.fillsSuperview = true
        layout.columnCount = 2
        let caption = "A caption long enough to wrap in a narrow card but not in a wide one"
        source.texts[ItemPath(item: 0)] = caption
        collection.reloadData()
        rig.window.layoutIfNeeded()
        let font = try #require(Font.standard)
        func height(_ text: String, _ width: Double) -> Double {
            font.layout(text, maxWidth: width, maxLines: 0, scale: 1).size.height.rounded(.up)
        }
        // Inside 380: two columns of (380 − 10) ÷ 2 = 185, a pitch of 195, whatever itemSize says;
        // the label 16 narrower.
        let narrow = height(caption, 169)
        #expect(narrow > height("0.1", 169))
        #expect(collection.frameForItem(at: ItemPath(item: 0)) == Rect(x: 10, y: 40, width: 185, height: narrow + 16))
        #expect(collection.frameForItem(at: ItemPath(item: 3)).minX == 205)
        let cell = try #require(collection.visibleCells[ItemPath(item: 0)] as? TextCell)
        #expect(cell.label.frame.width == 169)
        // Wider: (780 − 10) ÷ 2 = 385 each, measured again at that width.
        rig.window.resize(to: Size(width: 800, height: 600))
        rig.window.layoutIfNeeded()
        let wide = height(caption, 369)
        #expect(wide < narrow)
        #expect(collection.frameForItem(at: ItemPath(item: 0)) == Rect(x: 10, y: 40, width: 385, height: wide + 16))
        #expect(collection.frameForItem(at: ItemPath(item: 1)).minX == 405)
        let widened = try #require(collection.visibleCells[ItemPath(item: 0)] as? TextCell)
        #expect(widened.label.frame == Rect(x: 8, y: 8, width: 369, height: wide))
        // One column: the whole width inside the insets, every item a row of its own.
        layout.columnCount = 1
        rig.window.layoutIfNeeded()
        #expect(collection.frameForItem(at: ItemPath(item: 1)).width == 780)
        #expect(
            collection.frameForItem(at: ItemPath(item: 1)).minY > collection.frameForItem(at: ItemPath(item: 0)).maxY)
    }

    @Test func aHundredThousandItemsGetCellsOnlyInView() {
        let (rig, collection, _, _) = rig([100_000])
        // 600 + 2·100 margin: rows of 90 from y = 40 → the rows meeting −100…700 are 0…7.
        #expect(collection.visibleCells.count == 8 * 3)
        let made = collection.cellsCreated
        // Far down: the pool's cells serve the new rows.
        collection.scrollToItem(at: ItemPath(item: 60_000))
        rig.window.layoutIfNeeded()
        #expect(collection.visibleCells[ItemPath(item: 60_000)] != nil)
        #expect(collection.visibleCells.count <= 9 * 3)
        #expect(collection.cellsCreated <= made + 3)
        // 33,334 rows: 30 + 10 + 33,334·90 − 10 + 10.
        #expect(collection.contentSize.height == 40 + 33_334 * 90)
    }

    /// Cells whose constraints the window's engine holds wait hidden in place when recycled
    /// (taken out, each of their constraints would leave the window's solver, and go back in
    /// at reuse); cells placed by hand leave the hierarchy. Either way only the cells in view
    /// are shown, and a reused cell is laid out for its new item.
    @Test func recycledCellsWithConstraintsWaitHiddenInPlace() throws {
        let (rig, collection, _, _) = rig([2_000], selfSizing: true)
        for k in 1...60 {
            collection.contentOffset = Point(x: 0, y: Double(k) * 250)
            rig.window.layoutIfNeeded()
        }
        let cells = collection.subviews.compactMap { $0 as? TextCell }
        let shown = Set(cells.filter { !$0.isHidden }.map(ObjectIdentifier.init))
        let waiting = cells.filter(\.isHidden)
        #expect(shown == Set(collection.visibleCells.values.map(ObjectIdentifier.init)))
        #expect(!waiting.isEmpty && waiting.count <= CollectionView.poolLimit, "\(waiting.count) waiting")
        for (path, cell) in collection.visibleCells {
            let text = try #require(cell as? TextCell)
            #expect(text.label.text == "\(path)")
            #expect(text.label.frame == Rect(x: 8, y: 8, width: cell.frame.width - 16, height: cell.frame.height - 16))
        }
        // A reader is shown the cells in view alone.
        let elements = collection.accessibilityNode(in: rig.window, depth: 1)?.children.count ?? 0
        #expect(elements >= collection.visibleCells.count - 3 && elements <= collection.visibleCells.count + 2)

        // Cells placed by hand (no constraints) leave.
        final class PlainCell: CollectionCell {
            init() { super.init(reuseIdentifier: "plain") }
        }
        final class PlainSource: CollectionViewDataSource {
            func numberOfSections(in collectionView: CollectionView) -> Int { 1 }
            func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { 2_000 }
            func collectionView(_ collectionView: CollectionView, cellForItemAt path: ItemPath) -> CollectionCell {
                collectionView.dequeueReusableCell(withIdentifier: "plain")
            }
            func collectionView(_ collectionView: CollectionView, titleForSection section: Int) -> String { "" }
        }
        let source = PlainSource()
        collection.register("plain") { PlainCell() }
        collection.dataSource = source
        collection.reloadData()
        for k in 1...60 {
            collection.contentOffset = Point(x: 0, y: Double(k) * 250)
            rig.window.layoutIfNeeded()
        }
        let plain = collection.subviews.filter { $0 is PlainCell }
        #expect(plain.count == collection.visibleCells.count && plain.allSatisfy { !$0.isHidden })
        // The text cells that waited are gone with the reload's pool trimmed or still wait hidden.
        #expect(collection.subviews.filter { $0 is TextCell }.allSatisfy { $0.isHidden })
    }

    @Test func selfSizingRowsAreAsTallAsTheirTallestItem() throws {
        let (rig, collection, source, _) = rig([6], selfSizing: true)
        source.texts[ItemPath(item: 1)] = "A much longer caption that wraps over several lines in a narrow cell"
        collection.reloadData()
        rig.window.layoutIfNeeded()
        let font = try #require(Font.standard)
        let oneLine = font.layout("0.0", maxWidth: 84, maxLines: 0, scale: 1).size.height.rounded(.up)
        let long = font.layout(source.texts[ItemPath(item: 1)]!, maxWidth: 84, maxLines: 0, scale: 1).size.height
            .rounded(.up)
        #expect(long > oneLine)
        // Row 0 holds items 0…2: as tall as item 1's text and its 16 of padding; row 1 one line.
        #expect(collection.frameForItem(at: ItemPath(item: 0)).height == long + 16)
        #expect(
            collection.frameForItem(at: ItemPath(item: 3))
                == Rect(x: 10, y: 40 + long + 16 + 10, width: 100, height: oneLine + 16))
        #expect(collection.contentSize.height == 30 + 10 + (long + 16) + 10 + (oneLine + 16) + 10)
        // The cell's label was laid out by the window's constraints at the cell's size.
        let cell = try #require(collection.visibleCells[ItemPath(item: 1)] as? TextCell)
        #expect(cell.label.frame == Rect(x: 8, y: 8, width: 84, height: long))
    }

    @Test func aTapSelectsAndTheArrowsMoveTheFocus() throws {
        let (rig, collection, _, _) = rig([10])
        var selected: [ItemPath] = []
        collection.onSelectItem = { selected.append($0) }
        // A tap on item 4's centre (150 + 50, 130 + 40).
        rig.send(from: rig.time + 0.02) { $0.tap(at: Point(x: 200, y: 170), at: 0, hold: 50, id: 3) }
        rig.settle()
        #expect(selected == [ItemPath(item: 4)])
        #expect(collection.selectedItem == ItemPath(item: 4))
        #expect(collection.visibleCells[ItemPath(item: 4)]?.isSelected == true)
        let cell = try #require(collection.visibleCells[ItemPath(item: 4)])
        cell.becomeFocused()
        func press(_ key: Key) {
            let t = rig.time + 0.02
            rig.send(.key(key, pressed: true, modifiers: []), at: t)
            rig.send(.key(key, pressed: false, modifiers: []), at: t + 0.03)
            rig.settle()
        }
        press(.down)
        #expect(rig.window.focusedView === collection.visibleCells[ItemPath(item: 7)])
        press(.right)
        #expect(rig.window.focusedView === collection.visibleCells[ItemPath(item: 8)])
        press(.down)  // row 3 has only item 9: the nearest in the short row
        #expect(rig.window.focusedView === collection.visibleCells[ItemPath(item: 9)])
        press(.enter)
        #expect(selected == [ItemPath(item: 4), ItemPath(item: 9)])
        #expect(collection.visibleCells[ItemPath(item: 4)]?.isSelected == false)
    }
}
