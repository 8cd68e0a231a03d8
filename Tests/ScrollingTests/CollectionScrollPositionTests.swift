import ScrollwayGeometry
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// `scrollToItem(at:at:animated:)` (UIKit's): an item put at the top, in the middle or at the
/// bottom of the view, within the offsets the content allows; `.none` is the least scroll.
///
/// The grid is `CollectionViewTests.gridLayout` in 400×600 with 60 items: item 31 is in row
/// 10, 940…1020.
@MainActor
@Suite struct CollectionScrollPositionTests {
    @Test func anItemGoesToTheTopTheMiddleOrTheBottom() {
        let (bench, collection, _, _) = CollectionViewTests().rig([60])
        defer { withExtendedLifetime(bench) {} }
        let path = ItemPath(item: 31)
        collection.scrollToItem(at: path, at: .top)
        #expect(collection.contentOffset.y == 940)
        collection.scrollToItem(at: path, at: .middle)
        #expect(collection.contentOffset.y == 980 - 300)
        collection.scrollToItem(at: path, at: .bottom)
        #expect(collection.contentOffset.y == 1020 - 600)
        // From below, `.none` brings it in at the top; showing, it stays.
        collection.contentOffset = Point(x: 0, y: 1200)
        collection.scrollToItem(at: path)
        #expect(collection.contentOffset.y == 940)
        collection.scrollToItem(at: path)
        #expect(collection.contentOffset.y == 940)
        // The first item at the bottom is as far as the content allows: the top.
        collection.scrollToItem(at: ItemPath(item: 0), at: .bottom)
        #expect(collection.contentOffset.y == 0)
    }
}
