import ScrollwayGeometry
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// A flow layout's section footers (UIKit's `footerReferenceSize`): a band after each
/// section's bottom inset, an empty section's under its header band, each showing the data
/// source's text; they scroll with the items, slide with an animated update and are read
/// after their sections' items.
///
/// The grid is `CollectionViewTests.gridLayout` (items 100×80 in three columns, 10 apart,
/// insets 10, headers 30) with footers of 20, in a 400×600 window; sections of 30, 0 and 9
/// items. Worked by hand: section 0's header 0–30, its ten rows from 40, 90 apart, the last
/// 850–930, its bottom inset to 940, its footer 940–960; section 1's header 960–990 and, after
/// its top inset, its footer 1000–1020; section 2's header 1020–1050, rows from 1060 to 1320,
/// its footer 1330–1350, the content's end.
@MainActor
@Suite struct CollectionFooterTests {
    func rig() -> (ScrollBench, CollectionView, CollectionViewTests.Source) {
        let (bench, collection, source, layout) = CollectionViewTests().rig([30, 0, 9])
        layout.footerHeight = 20
        bench.window.layoutIfNeeded()
        return (bench, collection, source)
    }

    @Test func footersFollowTheirSectionsAndScrollWithThem() throws {
        let (bench, collection, _) = rig()
        let layout = collection.layout
        #expect(collection.contentSize.height == 1350)
        #expect((0..<3).map { layout.frameForFooter(inSection: $0)?.minY } == [940, 1000, 1330])
        #expect((0..<3).map { layout.frameForHeader(inSection: $0)?.minY } == [0, 960, 1020])
        #expect(collection.frameForItem(at: ItemPath(item: 0, section: 2)).minY == 1060)
        #expect(layout.frameForFooter(inSection: 0) == Rect(x: 0, y: 940, width: 400, height: 20))
        // At the top, none is within reach (600 and the margin of 100).
        #expect(collection.visibleFooters.isEmpty)
        collection.contentOffset = Point(x: 0, y: 750)
        bench.advance(by: 1 / 60)
        #expect(collection.visibleFooters.keys.sorted() == [0, 1, 2])
        #expect(collection.visibleFooters.mapValues(\.frame.minY) == [0: 940, 1: 1000, 2: 1330])
        #expect(collection.visibleFooters[1]?.textLabel.text == "End of 1")
        // A reader meets section 0's footer after its last item, then section 1's header.
        let labels = collection.accessibilityChildren(in: bench.window).map(\.label)
        let footer = try #require(labels.firstIndex(of: "End of 0"))
        #expect(labels[footer - 1] == "0.29" && labels[footer + 1] == "Section 1" && labels[footer + 2] == "End of 1")
        // Footers off: gone, and the content as before.
        (layout as? FlowLayout)?.footerHeight = -4
        bench.advance(by: 1 / 60)
        #expect(collection.visibleFooters.isEmpty && collection.contentSize.height == 1350 - 60)
    }

    /// Three items added at the end of section 0, animated: a row more, and its footer slides
    /// down 90 to make room.
    @Test func anAnimatedUpdateSlidesTheFooters() throws {
        let (bench, collection, source) = rig()
        collection.contentOffset = Point(x: 0, y: 750)
        bench.advance(by: 1 / 60)
        collection.updateAnimation = .fade
        source.counts[0] = 33
        collection.insertItems(at: (30..<33).map { ItemPath(item: $0) })
        bench.advance(by: 1 / 60)
        let midway = try #require(collection.visibleFooters[0]).frame.minY
        #expect(midway > 940 && midway < 1030, "\(midway)")
        bench.settle()
        #expect(collection.visibleFooters[0]?.frame.minY == 1030.0 && collection.contentOffset.y == 750)
        #expect(collection.layout.frameForFooter(inSection: 2)?.minY == 1420)
    }
}

/// A flow layout's `sectionHeadersPinToVisibleBounds` (UIKit's): the header of the section at
/// the top stays there, in front of the items scrolling under it, until the section's end
/// pushes it up; the next section's header then scrolls in where the content puts it.
///
/// Sections of 60, 0 and 60 items in `CollectionViewTests.gridLayout` (no footers): section 0's
/// header 0–30, its twenty rows from 40, 90 apart, its end (after the bottom inset) at 1840;
/// section 1's header 1840–1870; section 2's header 1880–1910, its rows from 1920 to 3710.
@MainActor
@Suite struct CollectionPinnedHeaderTests {
    @Test func theTopSectionsHeaderStaysUntilItsSectionEnds() throws {
        let (bench, collection, _, layout) = CollectionViewTests().rig([60, 0, 60])
        layout.sectionHeadersPinToVisibleBounds = true
        bench.window.layoutIfNeeded()
        func headerTops(at y: Double) -> [Int: Double] {
            collection.contentOffset = Point(x: 0, y: y)
            bench.advance(by: 1 / 60)
            return collection.visibleHeaders.mapValues(\.frame.minY)
        }
        #expect(headerTops(at: 300) == [0: 300])
        // In front of every cell, behind the indicators.
        let header = try #require(collection.visibleHeaders[0])
        let at = try placeInFrontOfCells(header, in: collection)
        #expect(
            collection.subviews.indices.filter { $0 > at }.allSatisfy { collection.subviews[$0] is ScrollIndicator })
        // Pushed up by its section's end (1840 − 30), then gone with it.
        #expect(headerTops(at: 1820) == [0: 1810, 1: 1840, 2: 1880])
        // Off the top, it waits at its section's end within the margin, as a cell does.
        #expect(headerTops(at: 1850) == [0: 1810, 1: 1840, 2: 1880])
        #expect(headerTops(at: 1960)[0] == nil)
        #expect(headerTops(at: 1900)[2] == 1900)
        // Inside the adjusted inset: below a top inset of 50.
        collection.contentInset.top = 50
        bench.advance(by: 1 / 60)
        #expect(collection.visibleHeaders[2]?.frame.minY == 1950.0)
        // Off, where the content puts them.
        layout.sectionHeadersPinToVisibleBounds = false
        bench.advance(by: 1 / 60)
        #expect(collection.visibleHeaders[2]?.frame.minY == 1880.0)
    }

    /// Under a top inset (a translucent bar), a header pushed up by its section's end still
    /// shows there while its section's last rows are above the pin line: the section is not
    /// the pinned one, and it started far above the view.
    @Test func aHeaderPushedUpShowsUnderATopInset() throws {
        let (bench, collection, _, layout) = CollectionViewTests().rig([60, 0, 60])
        layout.sectionHeadersPinToVisibleBounds = true
        collection.contentInset.top = 50
        bench.window.layoutIfNeeded()
        // 1800…2400, the pin line at 1850: section 0 ended at 1840, its header 1810–1840.
        collection.contentOffset = Point(x: 0, y: 1800)
        bench.advance(by: 1 / 60)
        #expect(layout.frameForHeader(inSection: 0)?.minY == 1810)
        #expect(collection.visibleHeaders[0]?.frame.minY == 1810.0)
    }

    /// `headers(in:)` finds every section whose header, pinned or pushed, meets the rect: a
    /// brute-force look at every section's frame agrees, for sections with and without items,
    /// any rect and any offset.
    @Test func headersInARectAreEveryHeaderMeetingIt() {
        var seed: UInt64 = 0x5EED
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        var failures: [String] = []
        for trial in 0..<40 {
            let counts = (0..<(1 + next(7))).map { _ in next(4) == 0 ? 0 : 1 + next(12) }
            let (bench, collection, _, layout) = CollectionViewTests().rig(counts)
            layout.sectionHeadersPinToVisibleBounds = true
            layout.footerHeight = Double(next(3) * 20)
            collection.contentInset.top = Double(next(2) * 50)
            bench.window.layoutIfNeeded()
            let height = collection.contentSize.height
            collection.contentOffset = Point(
                x: 0, y: Double(next(Int(clamping: max(1, height - 300), rounding: .down))))
            bench.advance(by: 1 / 60)
            for _ in 0..<8 {
                let rect = Rect(
                    x: 0, y: Double(next(Int(clamping: height, rounding: .down) + 200) - 100), width: 400,
                    height: Double(1 + next(700)))
                let found = layout.headers(in: rect)
                let meeting = counts.indices.filter { layout.frameForHeader(inSection: $0)?.intersects(rect) == true }
                if found != meeting { failures.append("\(trial) \(counts) \(rect): \(found), not \(meeting)") }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}

/// A flow layout's `sectionFootersPinToVisibleBounds` (UIKit's): the footer of the section at
/// the bottom stays there, in front of the items running on below it, until it reaches its
/// own place; a section's footer never stands above its header's bottom.
///
/// Sections of 60, 0 and 60 items in `CollectionViewTests.gridLayout` with footers of 20:
/// section 0's rows end (with the bottom inset) at 1840, its footer 1840–1860; section 1's
/// header 1860–1890 and footer 1900–1920; section 2's header 1920–1950, its rows from 1960,
/// its footer at 3760.
@MainActor
@Suite struct CollectionPinnedFooterTests {
    @Test func theBottomSectionsFooterStaysAtTheBottom() throws {
        let (bench, collection, _, layout) = CollectionViewTests().rig([60, 0, 60])
        layout.footerHeight = 20
        layout.sectionFootersPinToVisibleBounds = true
        bench.window.layoutIfNeeded()
        func footerTops(at y: Double) -> [Int: Double] {
            collection.contentOffset = Point(x: 0, y: y)
            bench.advance(by: 1 / 60)
            return collection.visibleFooters.mapValues(\.frame.minY)
        }
        #expect(footerTops(at: 300) == [0: 880])
        let footer = try #require(collection.visibleFooters[0])
        try placeInFrontOfCells(footer, in: collection)
        // 20 short of its place, it still stands on the bottom line; the empty section's where
        // the content puts it.
        #expect(footerTops(at: 1240) == [0: 1820, 1: 1900])
        // Section 2's header has come in: its footer under the header, below the view, then
        // on the bottom line once the header is up far enough.
        #expect(footerTops(at: 1340) == [0: 1840, 1: 1900, 2: 1950])
        #expect(footerTops(at: 1400) == [0: 1840, 1: 1900, 2: 1980])
        // Above an inset at the bottom.
        collection.contentInset.bottom = 100
        bench.advance(by: 1 / 60)
        #expect(collection.visibleFooters[2]?.frame.minY == 1950.0)
    }
}

/// Each section's own header and footer height in a flow layout (UIKit's
/// `referenceSizeForHeaderInSection` and `referenceSizeForFooterInSection`; 0: none).
///
/// Sections of 30, 0 and 9 items in `CollectionViewTests.gridLayout` (items 100×80 in three
/// columns, 10 apart, insets 10), headers 0, 44 and 30, footers 20, 0 and 12. Worked by hand:
/// section 0 has no header, its top inset to 10, its ten rows from 10, 90 apart, the last
/// 820–900, its bottom inset to 910, its footer 910–930; section 1's header 930–974, its top
/// inset to 984, no footer; section 2's header 984–1014, rows from 1024 to 1284, its bottom
/// inset to 1294, its footer 1294–1306, the content's end.
@MainActor
@Suite struct CollectionSectionHeightTests {
    func rig() -> (ScrollBench, CollectionView, CollectionViewTests.Source, FlowLayout) {
        let (bench, collection, source, layout) = CollectionViewTests().rig([30, 0, 9])
        source.headerHeights = [0, 44, 30]
        source.footerHeights = [20, 0, 12]
        layout.footerHeight = 8  // every section's own height stands instead
        bench.window.layoutIfNeeded()
        return (bench, collection, source, layout)
    }

    @Test func eachSectionHasItsOwnHeaderAndFooter() {
        let (bench, collection, source, layout) = rig()
        #expect(collection.contentSize.height == 1306)
        #expect(collection.frameForItem(at: ItemPath(item: 0)).minY == 10)
        #expect(collection.frameForItem(at: ItemPath(item: 29)).minY == 820)
        #expect(collection.frameForItem(at: ItemPath(item: 0, section: 2)).minY == 1024)
        #expect(layout.frameForHeader(inSection: 0) == nil && layout.frameForFooter(inSection: 1) == nil)
        #expect(layout.frameForHeader(inSection: 1) == Rect(x: 0, y: 930, width: 400, height: 44))
        #expect(layout.frameForHeader(inSection: 2) == Rect(x: 0, y: 984, width: 400, height: 30))
        #expect(layout.frameForFooter(inSection: 0) == Rect(x: 0, y: 910, width: 400, height: 20))
        #expect(layout.frameForFooter(inSection: 2) == Rect(x: 0, y: 1294, width: 400, height: 12))
        collection.contentOffset = Point(x: 0, y: 700)
        bench.advance(by: 1 / 60)
        #expect(
            collection.visibleHeaders.keys.sorted() == [1, 2] && collection.visibleFooters.keys.sorted() == [0, 2])
        #expect(collection.visibleFooters[2]?.frame.height == 12)
        // A height changed in the model shows once the layout is invalidated: section 1 gets
        // a footer under its top inset, and section 2 moves down by it.
        source.footerHeights = [20, 16, 12]
        collection.invalidateLayout()
        bench.advance(by: 1 / 60)
        #expect(layout.frameForFooter(inSection: 1) == Rect(x: 0, y: 984, width: 400, height: 16))
        #expect(layout.frameForHeader(inSection: 2)?.minY == 1000 && collection.contentSize.height == 1322)
        // Heights that are negative or not numbers are none.
        source.headerHeights = [-3, .nan, 30]
        collection.invalidateLayout()
        bench.advance(by: 1 / 60)
        #expect(layout.frameForHeader(inSection: 1) == nil && collection.contentSize.height == 1322 - 44)
    }

    /// Pinned, the footer at the bottom stands on the bottom line with its own height, and the
    /// section without a header pins none at the top.
    @Test func pinnedBandsUseTheirSectionsHeights() {
        let (bench, collection, _, layout) = rig()
        layout.sectionHeadersPinToVisibleBounds = true
        layout.sectionFootersPinToVisibleBounds = true
        bench.advance(by: 1 / 60)
        #expect(collection.visibleFooters[0]?.frame == Rect(x: 0, y: 580, width: 400, height: 20))
        collection.contentOffset = Point(x: 0, y: 300)
        bench.advance(by: 1 / 60)
        // None on the top line: the headers in reach stand where the content puts them.
        #expect(collection.visibleHeaders.mapValues(\.frame.minY) == [1: 930, 2: 984])
        #expect(collection.visibleFooters[0]?.frame.minY == 880)
        collection.contentOffset = Point(x: 0, y: 325)  // its place 910–930 ends 5 below the line
        bench.advance(by: 1 / 60)
        #expect(collection.visibleFooters[0]?.frame.minY == 905)
        collection.contentOffset = Point(x: 0, y: 990)  // in section 2: its header on the top line
        bench.advance(by: 1 / 60)
        #expect(collection.visibleHeaders[2]?.frame == Rect(x: 0, y: 990, width: 400, height: 30))
    }
}

/// Where `band` stands among the collection's subviews, expected in front of every cell in view.
@MainActor @discardableResult
func placeInFrontOfCells(_ band: View, in collection: CollectionView) throws -> Int {
    let at = try #require(collection.subviews.firstIndex { $0 === band })
    let cells = collection.visibleCells.values.compactMap { cell in collection.subviews.firstIndex { $0 === cell } }
    #expect(!cells.isEmpty && cells.allSatisfy { $0 < at })
    return at
}
