import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// A list's own header and footer views (UITableView's `tableHeaderView` and
/// `tableFooterView`): the header above row 0 and the footer after the last row, scrolling with
/// them, the rows, the sections' headers, the content size, taps, the keyboard's ends and a
/// screen reader's order all taking them into account.
@MainActor
@Suite struct ListHeaderFooterTests {
    typealias Items = ListReorderTests.Items
    static let headerColor = Color(rgb: 30, 120, 200)
    static let footerColor = Color(rgb: 200, 60, 40)

    func make(_ count: Int, indexed: Bool = false) -> (Items, FrameDriver, ListView) {
        let items = Items(count: count)
        items.indexed = indexed
        let (driver, list) = ListReorderTests().make(items)
        list.reordersRowsOnLongPress = false
        return (items, driver, list)
    }

    func band(_ color: Color, height: Double, label: String? = nil) -> View {
        let v = View(frame: Rect(x: 0, y: 0, width: 10, height: height))
        v.backgroundColor = color
        if let label {
            let l = Label(text: label)
            l.frame = Rect(x: 16, y: 8, width: 200, height: 24)
            v.addSubview(l)
        }
        return v
    }

    /// Scrolls to the end of the content: again while the rows measured on the way change
    /// its height.
    func toTheEnd(_ list: ListView, _ driver: FrameDriver) {
        for _ in 0..<10 {
            let end = list.contentSize.height - list.bounds.height
            if list.contentOffset.y == end { break }
            list.contentOffset = Point(x: 0, y: end)
            driver.settle()
        }
        #expect(list.contentOffset.y == list.contentSize.height - list.bounds.height)
    }

    @Test func theHeaderStandsAboveTheRowsAndTheFooterAfterThem() throws {
        let (items, driver, list) = make(30)
        let rows = list.contentSize.height
        let firstRow = list.rectForRow(0)
        let header = band(Self.headerColor, height: 80)
        let footer = band(Self.footerColor, height: 50)
        list.listHeaderView = header
        list.listFooterView = footer
        driver.advance(by: 1 / 60)
        // Every row 80 lower, the content 130 longer, the views as wide as the list.
        #expect(list.rectForRow(0) == firstRow.offsetBy(dx: 0, dy: 80))
        #expect(list.contentSize.height == rows + 130)
        #expect(header.frame == Rect(x: 0, y: 0, width: 320, height: 80) && header.superview === list)
        #expect(footer.frame == Rect(x: 0, y: rows + 80, width: 320, height: 50))
        #expect(list.contentOffset.y == 0)
        ListReorderTests().expectCellsMatch(list, items)
        let top = try Offscreen.render(driver.window)
        #expect(top.pixel(x: 300, y: 40) == Self.headerColor.premultipliedARGB)
        #expect(top.pixel(x: 300, y: 79) == Self.headerColor.premultipliedARGB)
        #expect(top.pixel(x: 300, y: 81) != Self.headerColor.premultipliedARGB)
        // A reader hears of the rows that show below it: up to the one at the bottom edge.
        let bottom = try #require((0..<30).first { list.rectForRow($0).maxY > 479 })
        #expect(list.accessibilityScrollStatus(at: list.contentOffset) == "Rows 1 to \(bottom + 1) of 30")
        // A tap just below the header is on row 0.
        var tapped: [Int] = []
        list.onSelectRow = { tapped.append($0) }
        driver.send { $0.tap(at: Point(x: 100, y: 85), at: 0, hold: 60) }
        driver.advance(by: 0.4)
        #expect(tapped == [0])
        // At the end, the footer shows under the last row.
        toTheEnd(list, driver)
        let last = list.rectForRow(29)
        #expect(last.maxY == footer.frame.minY)
        let end = try Offscreen.render(driver.window)
        #expect(end.pixel(x: 300, y: 480 - 25) == Self.footerColor.premultipliedARGB)
        #expect(
            end.pixel(x: 300, y: Int(clamping: last.midY - list.contentOffset.y, rounding: .down, in: 0...479))
                != Self.footerColor.premultipliedARGB)
        #expect(list.accessibilityScrollStatus(at: list.contentOffset).hasSuffix("to 30 of 30"))
    }

    @Test func aSectionsHeaderPinsBelowTheListsHeaderUntilItHasGone() throws {
        let (items, driver, list) = make(40, indexed: true)
        defer { withExtendedLifetime(items) {} }
        list.listHeaderView = band(Self.headerColor, height: 100)
        driver.advance(by: 1 / 60)
        let first = try #require(list.visibleHeaders[0])
        #expect(first.frame.minY == 100 && list.rectForHeader(inSection: 0).minY == 100)
        // Scrolled 60: the header view still shows its last 40, the section's header under it.
        list.contentOffset = Point(x: 0, y: 60)
        driver.advance(by: 1 / 60)
        #expect(list.visibleHeaders[0]?.frame.minY == 100)
        // Scrolled past it: the section's header pins at the top.
        list.contentOffset = Point(x: 0, y: 130)
        driver.advance(by: 1 / 60)
        #expect(list.visibleHeaders[0]?.frame.minY == 130)
    }

    @Test func setOnAShownListTheRowsMoveAndTheOffsetStays() throws {
        let (items, driver, list) = make(60)
        list.contentOffset = Point(x: 0, y: 300)
        driver.advance(by: 1 / 60)
        let rows = list.contentSize.height
        let row = try #require(list.visibleCells.keys.min())
        let before = list.rectForRow(row)
        let header = band(Self.headerColor, height: 64)
        list.listHeaderView = header
        #expect(list.contentOffset.y == 300 && list.rectForRow(row) == before.offsetBy(dx: 0, dy: 64))
        driver.advance(by: 1 / 60)
        ListReorderTests().expectCellsMatch(list, items)
        // Taller, set again: the rows follow.
        header.frame.size.height = 90
        list.listHeaderView = header
        #expect(list.rectForRow(row) == before.offsetBy(dx: 0, dy: 90) && header.frame.height == 90)
        // Taken away: gone from the list, the rows back.
        list.listHeaderView = nil
        driver.advance(by: 1 / 60)
        #expect(header.superview == nil && list.rectForRow(row) == before && list.contentSize.height == rows)
        ListReorderTests().expectCellsMatch(list, items)
        // A reload keeps the views' heights.
        list.listFooterView = band(Self.footerColor, height: 40)
        list.listHeaderView = header
        list.reloadData()
        driver.advance(by: 1 / 60)
        #expect(list.rectForRow(0).minY == 90 && list.listFooterView?.frame.minY == list.contentSize.height - 40)
    }

    /// Rows inserted above those in view while the header view shows at the top: it keeps its
    /// place and the rows show under it, as at the list's top (the first row in view is kept
    /// still only once the header has gone).
    @Test func rowsInsertedUnderAHeaderThatShowsLeaveItWhereItIs() throws {
        let (items, driver, list) = make(40)
        list.listHeaderView = band(Self.headerColor, height: 120)
        list.contentOffset = Point(x: 0, y: 50)
        driver.advance(by: 1 / 60)
        items.items.insert("New", at: 0)
        list.insertRows(at: [0])
        driver.advance(by: 1 / 60)
        #expect(list.contentOffset.y == 50 && list.visibleCells[0]?.textLabel.text == "New")
        // Scrolled past the header, the first row in view stays still instead.
        list.contentOffset = Point(x: 0, y: 400)
        driver.advance(by: 1 / 60)
        let first = try #require(list.visibleCells.keys.sorted().first { list.rectForRow($0).maxY > 400 })
        let screenY = list.rectForRow(first).minY - 400
        items.items.insert("Newer", at: 0)
        list.insertRows(at: [0])
        driver.advance(by: 1 / 60)
        #expect(list.rectForRow(first + 1).minY - list.contentOffset.y == screenY)
        ListReorderTests().expectCellsMatch(list, items)
    }

    @Test func aReaderFindsTheHeadersElementsFirstAndEachRowWhereItStands() throws {
        let (items, driver, list) = make(30)
        defer { withExtendedLifetime(items) {} }
        list.listHeaderView = band(Self.headerColor, height: 60, label: "Summary")
        list.listFooterView = band(Self.footerColor, height: 40, label: "30 items")
        driver.advance(by: 1 / 60)
        let children = list.accessibilityChildren(in: driver.window)
        #expect(children.first?.label == "Summary")
        // Each row's index, counted without making the elements, is its place among them.
        for cell in list.visibleCells.values {
            let index = list.accessibilityIndex(ofChild: cell, in: driver.window)
            #expect(index == children.firstIndex { $0.view === cell })
        }
        // With sections and their index, scrolled part of the way past the header view: every
        // element, the header view's, the rows', the headers' titles and the index (at the top
        // of the viewport, before the rows below it), where it stands.
        items.indexed = true
        list.reloadData()
        list.contentOffset = Point(x: 0, y: 50)
        driver.advance(by: 1 / 60)
        let sorted = list.accessibilityChildren(in: driver.window)
        #expect(sorted.first?.label == "Summary" && sorted.contains { $0.label == "Section index" })
        #expect(sorted.filter { $0.view.superview is ListSectionHeader }.count > 1)
        for (i, child) in sorted.enumerated() {
            #expect(list.accessibilityIndex(ofChild: child.view, in: driver.window) == i, "\(child.label)")
        }
        toTheEnd(list, driver)
        #expect(list.accessibilityChildren(in: driver.window).last?.label == "30 items")
    }
}
