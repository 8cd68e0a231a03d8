import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// Section footers (UITableView's `sectionFooterHeight` and `titleForFooterInSection`): a band
/// after each section's last row, an empty section's under its header, the one at the bottom
/// pinned there in the plain style and pushed down by its own header; rows, taps, updates and
/// a screen reader's order take them into account.
///
/// The list: 320×480, rows of 40, headers of 32, footers of 24; sections start at rows 0, 10,
/// 10 (section 1 is empty) and 25, forty rows. Worked by hand: section 0's header 0–32, rows
/// 0–9 from 32 to 432, its footer 432–456; section 1's header 456–488 and footer 488–512;
/// section 2's header 512–544, rows 10–24 from 544 to 1144, its footer 1144–1168; section 3's
/// header 1168–1200, rows 25–39 from 1200 to 1800, its footer 1800–1824, the content's end.
@MainActor
@Suite struct ListSectionFooterTests {
    typealias Rows = SectionListRig.Rows

    /// The driver holds its window weakly and the list its data source: a test keeps both.
    func make(footer: Double = 24) -> (window: Window, FrameDriver, ListView, Rows) {
        let rows = Rows()
        let (window, driver, list) = SectionListRig.make(rows) { $0.sectionFooterHeight = footer }
        return (window, driver, list, rows)
    }

    func footerFrames(_ list: ListView) -> [Int: Rect] { list.visibleFooters.mapValues(\.frame) }

    func scroll(_ list: ListView, to y: Double, _ driver: FrameDriver) {
        list.contentOffset = Point(x: 0, y: y)
        driver.advance(by: 1 / 60)
    }

    @Test func footersFollowTheirSectionsLastRows() {
        let (window, driver, list, rows) = make()
        defer { withExtendedLifetime((window, rows)) {} }
        #expect(list.contentSize.height == 1824)
        #expect(list.rectForRow(9) == Rect(x: 0, y: 392, width: 320, height: 40))
        #expect(list.rectForRow(10).minY == 544 && list.rectForRow(25).minY == 1200)
        #expect((0..<4).map { list.rectForHeader(inSection: $0).minY } == [0, 456, 512, 1168])
        #expect((0..<4).map { list.rectForFooter(inSection: $0).minY } == [432, 488, 1144, 1800])
        #expect(list.rectForFooter(inSection: 0) == Rect(x: 0, y: 432, width: 320, height: 24))
        // At the top: section 0's footer and the empty section's show where they stand.
        #expect(
            footerFrames(list) == [
                0: Rect(x: 0, y: 432, width: 320, height: 24), 1: Rect(x: 0, y: 488, width: 320, height: 24),
            ])
        #expect(list.visibleFooters[0]?.textLabel.text == "End of 0")
        // Footers off: the headers alone, as before.
        list.sectionFooterHeight = -5
        driver.advance(by: 1 / 60)
        #expect(list.sectionFooterHeight == 0 && list.visibleFooters.isEmpty)
        #expect(list.contentSize.height == 4 * 32 + 40 * 40)
    }

    /// The footer of the section at the bottom stays there while its rows run on below, until
    /// it reaches its own place; the next section's footer waits under its header until that
    /// header has come far enough up.
    @Test func theFooterAtTheBottomIsPinnedThere() throws {
        let (window, driver, list, rows) = make()
        defer { withExtendedLifetime((window, rows)) {} }
        scroll(list, to: 600, driver)  // 600…1080, in section 2
        #expect(footerFrames(list)[2]?.minY == 1056)
        let render = try Offscreen.render(driver.window)
        let band = Color(rgb: 242, 242, 247).premultipliedARGB
        #expect(render.pixel(x: 300, y: 470) == band && render.pixel(x: 300, y: 455) != band)
        // Its text is drawn in the band.
        #expect((16..<120).contains { render.pixel(x: $0, y: 468) != band })
        scroll(list, to: 680, driver)  // 680…1160: still 8 above its place
        #expect(list.visibleFooters[2]?.frame.minY == 1136)
        scroll(list, to: 700, driver)  // 700…1180: at its place; section 3's under its header
        #expect(list.visibleFooters[2]?.frame.minY == 1144 && list.visibleFooters[3]?.frame.minY == 1200)
        scroll(list, to: 1000, driver)  // 1000…1480, in section 3
        #expect(list.visibleFooters[3]?.frame.minY == 1456)
        // Above an inset at the bottom (a keyboard's), not behind it.
        list.contentInset.bottom = 100
        driver.advance(by: 1 / 60)
        #expect(list.visibleFooters[3]?.frame.minY == 1356.0)  // 1480 − 100 − 24
        // Not pinned: where the content puts it, out of view.
        list.pinsSectionFooters = false
        driver.advance(by: 1 / 60)
        #expect(list.visibleFooters[3] == nil)
        #expect(list.visibleFooters.keys.allSatisfy { list.rectForFooter(inSection: $0).minY < 1480 + list.margin })
    }

    /// The pinned header leaves with its section's last row: its own footer pushes it up, so
    /// the footer shows below it as it scrolls off, not behind it; an empty section's header
    /// stays above its footer.
    @Test func theFooterPushesThePinnedHeaderUp() throws {
        let (window, driver, list, rows) = make()
        defer { withExtendedLifetime((window, rows)) {} }
        scroll(list, to: 430, driver)  // section 0's footer 432–456 at the top
        #expect(list.visibleHeaders[0]?.frame.minY == 400)
        #expect(list.visibleFooters[0]?.frame.minY == 432)
        scroll(list, to: 460, driver)  // in the empty section 1: header 456–488, footer 488–512
        #expect(list.visibleHeaders[1]?.frame.minY == 456 && list.visibleFooters[1]?.frame.minY == 488)
        scroll(list, to: 1000, driver)  // section 2 pinned, its footer far below
        #expect(list.visibleHeaders[2]?.frame.minY == 1000)
        // Without footers, the next header pushes it, as before.
        list.sectionFooterHeight = 0
        scroll(list, to: 430 - 24, driver)
        #expect(list.visibleHeaders[0]?.frame.minY == 400)
    }

    /// A reader meets a footer's text after its section's last row and before the next
    /// section's header; a tap on a footer selects no row.
    @Test func aReaderMeetsAFooterAfterItsRows() throws {
        let (window, driver, list, rows) = make()
        defer { withExtendedLifetime((window, rows)) {} }
        let labels = list.accessibilityChildren(in: driver.window).map(\.label)
        let footer = try #require(labels.firstIndex(of: "End of 0"))
        #expect(labels[footer - 1] == "Row 9" && labels[footer + 1] == "Section 1")
        #expect(labels[footer + 2] == "End of 1" && labels[footer + 3] == "Section 2")
        // The fast count of a cell's place agrees with the elements made.
        let row9 = try #require(list.visibleCells[9])
        #expect(list.accessibilityIndex(ofChild: row9, in: driver.window) == footer - 1)
        var tapped: [Int] = []
        list.onSelectRow = { tapped.append($0) }
        driver.send { $0.tap(at: Point(x: 100, y: 444), at: 0, hold: 60) }
        driver.advance(by: 0.4)
        driver.send { $0.tap(at: Point(x: 100, y: 420), at: 0, hold: 60) }
        driver.advance(by: 0.4)
        #expect(tapped == [9])
    }

    /// A row scrolled to from above comes in above the pinned footer, and the keyboard's Down
    /// arrow keeps the focused row there: the footer never covers it.
    @Test func aRowScrolledToStandsAboveThePinnedFooter() throws {
        let (window, driver, list, rows) = make()
        defer { withExtendedLifetime((window, rows)) {} }
        list.scrollToRow(20)
        driver.advance(by: 1 / 60)
        // Row 20 spans 944…984; the footer pinned below it: 984 + 24 = 1008 is the bottom.
        #expect(list.contentOffset.y == 1008 - 480)
        #expect(list.visibleFooters[2]?.frame.minY == 984.0)
        let cell = try #require(list.visibleCells[20])
        cell.becomeFocused()
        driver.send(.key(.down, pressed: true, modifiers: []), at: driver.time + 0.02)
        driver.send(.key(.down, pressed: false, modifiers: []), at: driver.time + 0.05)
        driver.settle()
        #expect(window.focusedView === list.visibleCells[21] && list.contentOffset.y == 1048 - 480)
        // Above, a row comes in below the pinned header.
        list.scrollToRow(11)  // 584…624, its top 16 above the pinned header's bottom
        driver.advance(by: 1 / 60)
        #expect(list.contentOffset.y == 584 - 32)
    }

    /// A new footer height moves the rows, not what is in view; rows inserted or deleted move
    /// the footers after them, and an animated delete slides them there.
    @Test func rowsInsertedAndDeletedMoveTheFooters() throws {
        let (window, driver, list, rows) = make()
        defer { withExtendedLifetime((window, rows)) {} }
        scroll(list, to: 600, driver)
        let row15 = list.convert(list.rectForRow(15), to: nil)
        list.sectionFooterHeight = 40
        driver.advance(by: 1 / 60)
        #expect(list.convert(list.rectForRow(15), to: nil) == row15)
        #expect(list.rectForFooter(inSection: 0) == Rect(x: 0, y: 432, width: 320, height: 40))
        list.contentOffset = .zero
        driver.advance(by: 1 / 60)
        // Two rows of section 0 deleted: its footer 80 higher, section 1 with it.
        rows.count = 38
        rows.starts = [0, 8, 8, 23]
        list.deleteRows(at: [2, 3], with: .fade)
        let natural = list.rectForFooter(inSection: 0).minY
        #expect(natural == 432 - 80)
        driver.advance(by: 1 / 60)
        let midway = try #require(list.visibleFooters[0]).frame.minY
        #expect(midway > natural && midway <= 432, "\(midway)")
        driver.settle()
        #expect(
            list.visibleFooters[0]?.frame.minY == natural && list.visibleFooters[1]?.frame.minY == natural + 40 + 32)
        rows.count = 39
        rows.starts = [0, 8, 8, 24]
        list.insertRows(at: [12])
        driver.advance(by: 1 / 60)
        #expect(list.rectForFooter(inSection: 2).minY == list.rectForRow(23).maxY)
        #expect(list.rectForHeader(inSection: 3).minY == list.rectForRow(23).maxY + 40)
    }
}
