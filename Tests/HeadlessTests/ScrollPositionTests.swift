import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// `scrollToRow(_:at:animated:)` and `scrollToItem(at:at:animated:)` (UIKit's): a row or an
/// item put at the top, in the middle or at the bottom of the view wherever it is, within the
/// offsets the content allows; `.none` is the least scroll, and none when it shows.
///
/// The list is `ListSectionFooterTests`' (320×480, rows of 40, pinned headers of 32 and footers
/// of 24): row 20 spans 944…984 in section 2, the content ends at 1824.
@MainActor
@Suite struct ScrollPositionTests {
    @Test func aRowGoesToTheTopTheMiddleOrTheBottom() {
        let (window, driver, list, rows) = ListSectionFooterTests().make()
        defer { withExtendedLifetime((window, rows)) {} }
        list.scrollToRow(20, at: .top)
        #expect(list.contentOffset.y == 944 - 32)  // below the pinned header
        list.scrollToRow(20, at: .bottom)
        #expect(list.contentOffset.y == 984 + 24 - 480)  // above the pinned footer
        list.scrollToRow(20, at: .middle)
        #expect(list.contentOffset.y == 964 - 240)
        // It shows: `.none` leaves it; the last row at the top is as far as the content goes.
        list.scrollToRow(20)
        #expect(list.contentOffset.y == 724)
        list.scrollToRow(39, at: .top)
        #expect(list.contentOffset.y == 1824 - 480)
        // Inside the adjusted inset: a top inset of 60 moves the middle down by 30.
        list.contentInset = EdgeInsets(top: 60, left: 0, bottom: 0, right: 0)
        list.scrollToRow(20, at: .middle)
        #expect(list.contentOffset.y == 964 - 60 - 210)
        // Animated: it glides there and stays.
        list.contentOffset = .zero
        driver.advance(by: 1 / 60)
        list.scrollToRow(25, at: .middle, animated: true)
        #expect(list.contentOffset.y == 0)
        driver.settle()
        #expect(list.contentOffset.y == 1220 - 60 - 210)
    }
}
