import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// Each section's own header and footer height (UITableView's `heightForHeaderInSection` and
/// `heightForFooterInSection`; 0: none): the rows, the bands, the pinned header and footer, a
/// row scrolled to and a reader all follow each section's heights, and an empty batch shows
/// heights changed in the model.
///
/// The list: 320×480, rows of 40, sections starting at rows 0, 10, 10 (section 1 is empty) and
/// 25, forty rows; headers 0, 28, 32, 20 and footers 24, 0, 16, 0. Worked by hand: section 0
/// has no header, rows 0–9 from 0 to 400, its footer 400–424; section 1's header 424–452 and no
/// footer; section 2's header 452–484, rows 10–24 from 484 to 1084, its footer 1084–1100;
/// section 3's header 1100–1120, rows 25–39 from 1120 to 1720, no footer: the content's end.
@MainActor
@Suite struct ListSectionHeightTests {
    typealias Rows = SectionListRig.Rows

    /// The driver holds its window weakly and the list its data source: a test keeps both.
    func make() -> (window: Window, FrameDriver, ListView, Rows) {
        let rows = Rows()
        rows.headers = [0, 28, 32, 20]
        rows.footers = [24, 0, 16, 0]
        let (window, driver, list) = SectionListRig.make(rows)
        return (window, driver, list, rows)
    }

    func scroll(_ list: ListView, to y: Double, _ driver: FrameDriver) {
        list.contentOffset = Point(x: 0, y: y)
        driver.advance(by: 1 / 60)
    }

    func frames(_ bands: [Int: some View]) -> [Int: Rect] { bands.mapValues(\.frame) }

    @Test func eachSectionHasItsOwnHeaderAndFooter() {
        let (window, driver, list, rows) = make()
        defer { withExtendedLifetime((window, rows)) {} }
        #expect(list.contentSize.height == 1720)
        #expect([0, 9, 10, 24, 25, 39].map { list.rectForRow($0).minY } == [0, 360, 484, 1044, 1120, 1680])
        #expect((0..<4).map { list.rectForHeader(inSection: $0).minY } == [0, 424, 452, 1100])
        #expect((0..<4).map { list.rectForHeader(inSection: $0).height } == [0, 28, 32, 20])
        #expect((0..<4).map { list.rectForFooter(inSection: $0).minY } == [400, 452, 1084, 1720])
        #expect((0..<4).map { list.rectForFooter(inSection: $0).height } == [24, 0, 16, 0])
        // At the top: no header for section 0, none pinned; section 2's footer pinned at the
        // bottom is pushed down under its own header, out of view.
        #expect(
            frames(list.visibleHeaders) == [
                1: Rect(x: 0, y: 424, width: 320, height: 28), 2: Rect(x: 0, y: 452, width: 320, height: 32),
            ])
        #expect(
            frames(list.visibleFooters) == [
                0: Rect(x: 0, y: 400, width: 320, height: 24), 2: Rect(x: 0, y: 484, width: 320, height: 16),
            ])
        // A tap where section 0's header would be selects row 0: there is no band there.
        var tapped: [Int] = []
        list.onSelectRow = { tapped.append($0) }
        driver.send { $0.tap(at: Point(x: 100, y: 10), at: 0, hold: 60) }
        driver.settle()
        #expect(tapped == [0])
    }

    /// The pinned header is pushed up by its own footer; the section with no footer pins none
    /// at the bottom, and the one with no header pins none at the top.
    @Test func pinnedBandsUseTheirSectionsHeights() {
        let (window, driver, list, rows) = make()
        defer { withExtendedLifetime((window, rows)) {} }
        scroll(list, to: 600, driver)  // 600…1080, in section 2
        #expect(list.visibleHeaders[2]?.frame == Rect(x: 0, y: 600, width: 320, height: 32))
        #expect(list.visibleFooters[2]?.frame == Rect(x: 0, y: 1064, width: 320, height: 16))
        scroll(list, to: 1060, driver)  // 1060…1540: section 2's header above its footer
        #expect(list.visibleHeaders[2]?.frame.minY == 1052)
        #expect(list.visibleFooters[2]?.frame.minY == 1084)
        #expect(list.visibleFooters[3] == nil)
        scroll(list, to: 1110, driver)  // in section 3, pinned under the top
        #expect(list.visibleHeaders[3]?.frame == Rect(x: 0, y: 1110, width: 320, height: 20))
        scroll(list, to: 430, driver)  // in the empty section 1: its header stays at its place
        #expect(list.visibleHeaders[1]?.frame == Rect(x: 0, y: 424, width: 320, height: 28))
        scroll(list, to: 100, driver)  // in section 0: nothing pinned at the top
        #expect(list.visibleHeaders[0] == nil && list.visibleHeaders.keys.sorted() == [1, 2])
    }

    /// A row scrolled to the top stands below its own section's pinned header, and one
    /// scrolled to the bottom above its own section's pinned footer (none in section 3).
    @Test func aRowScrolledToClearsItsOwnSectionsBands() {
        let (window, driver, list, rows) = make()
        defer { withExtendedLifetime((window, rows)) {} }
        list.scrollToRow(12, at: .top, animated: false)
        driver.advance(by: 1 / 60)
        #expect(list.contentOffset.y == 564 - 32)
        list.scrollToRow(5, at: .top, animated: false)
        driver.advance(by: 1 / 60)
        #expect(list.contentOffset.y == 200)
        list.scrollToRow(20, at: .bottom, animated: false)
        driver.advance(by: 1 / 60)
        #expect(list.contentOffset.y == 924 + 16 - 480)
        list.scrollToRow(30, at: .bottom, animated: false)
        driver.advance(by: 1 / 60)
        #expect(list.contentOffset.y == 1360 - 480)
    }

    /// A height changed in the model shows after an empty batch, the rows in view kept where
    /// they are on screen; a new `sectionHeaderHeight` asks again; heights that are negative
    /// or not numbers are 0.
    @Test func anEmptyBatchShowsNewHeights() {
        let (window, driver, list, rows) = make()
        defer { withExtendedLifetime((window, rows)) {} }
        scroll(list, to: 600, driver)
        let onScreen = list.rectForRow(12).minY - list.contentOffset.y
        rows.headers?[0] = 40
        rows.footers?[3] = 30
        driver.advance(by: 1 / 60)
        #expect(list.contentSize.height == 1720)  // not asked yet
        var done = false
        list.performBatchUpdates({}, completion: { done = $0 })
        driver.advance(by: 1 / 60)
        #expect(done)
        #expect(list.contentSize.height == 1790)
        #expect(list.rectForHeader(inSection: 0) == Rect(x: 0, y: 0, width: 320, height: 40))
        #expect(list.rectForRow(12).minY - list.contentOffset.y == onScreen)
        #expect(list.contentOffset.y == 640)
        let asked = rows.headerHeightsAsked
        list.sectionHeaderHeight = 10
        #expect(rows.headerHeightsAsked == asked + 4)
        rows.headers = [-5, .nan, .infinity, 20]
        list.performBatchUpdates {}
        #expect((0..<4).map { list.rectForHeader(inSection: $0).height } == [0, 0, 0, 20])
        #expect(list.contentSize.height == 1720 - 28 - 32 + 30)
    }

    /// A reader meets no header for a section without one, and no footer for a section
    /// without one.
    @Test func aReaderMeetsOnlyTheBandsThatExist() {
        let (window, driver, list, rows) = make()
        defer { withExtendedLifetime((window, rows)) {} }
        let labels = list.accessibilityChildren(in: driver.window).map(\.label)
        #expect(labels.first == "Row 0")
        #expect(!labels.contains("Section 0") && !labels.contains("End of 1"))
        #expect(labels.contains("End of 0") && labels.contains("Section 1"))
    }

    /// At a scale where a line is a little taller than at 1 (1.5: 15⅓ against 15), a band
    /// fitted to its note is measured at that scale and shows every line; a new scale, and a
    /// new width in a list without rows, measure again.
    @Test func automaticBandsAreMeasuredAtTheWindowsScale() throws {
        let rows = Rows()
        rows.footers = [0, 0, ListView.automaticDimension, 0]
        rows.starts = [0, 10, 10, 39]
        let (window, driver, list) = SectionListRig.make(rows, scale: 1.5)
        defer { withExtendedLifetime((window, rows)) {} }
        // Section 2's footer: its note made long enough to wrap to several lines.
        let note = String(repeating: "A note that wraps across the list. ", count: 6)
        rows.footerTitles = [2: note]
        list.performBatchUpdates {}
        list.contentOffset = Point(x: 0, y: list.rectForFooter(inSection: 2).minY - 200)
        driver.advance(by: 1 / 60)
        let band = try #require(list.visibleFooters[2])
        // The note as a label in the same window lays it out.
        let label = Label()
        label.font = band.textLabel.font
        label.numberOfLines = 0
        label.text = note
        window.addSubview(label)
        func wrapped(_ width: Double) -> Double { label.sizeThatFits(Size(width: width, height: .infinity)).height }
        let line = try #require(label.font).metrics(scale: 1.5).lineHeight
        let lines = (wrapped(288) / line).rounded()
        #expect(lines >= 4 && band.frame.height == wrapped(288) + 16)
        #expect(band.textLabel.numberOfLines == Int(exactly: lines))
        // At scale 1 the lines are 15 high: measured again.
        window.scale = 1
        driver.advance(by: 1 / 60)
        #expect(list.rectForFooter(inSection: 2).height == wrapped(288) + 16 && wrapped(288) == lines * 15)
        // No rows: the empty sections' bands still fit their text at a new width.
        rows.count = 0
        list.reloadData()
        list.frame.size.width = 200
        driver.advance(by: 1 / 60)
        #expect(wrapped(168) > wrapped(288) && list.rectForFooter(inSection: 2).height == wrapped(168) + 16)
    }

    /// Bands as high as their text (`automaticDimension`): the text wrapped at the list's
    /// width with 8 above and below, at least a line's 18; none for an empty title; measured
    /// again at a new width. The heights expected are the footer's font's own lines, laid out
    /// by a label of their own.
    @Test func automaticBandsFitTheirText() throws {
        final class Notes: ListDataSource {
            var footers = ["", "One line.", String(repeating: "A note that wraps across the list. ", count: 4)]
            func numberOfRows(in list: ListView) -> Int { 30 }
            func list(_ list: ListView, cellForRow row: Int) -> ListCell {
                list.dequeueReusableCell(withIdentifier: "r")
            }
            func sectionStarts(in list: ListView) -> [Int] { [0, 10, 20] }
            func list(_ list: ListView, titleForSection section: Int) -> String {
                section == 1 ? "" : "Section \(section)"
            }
            func list(_ list: ListView, titleForFooterInSection section: Int) -> String { footers[section] }
            func list(_ list: ListView, heightForHeaderInSection section: Int) -> Double {
                section == 0 ? 32 : ListView.automaticDimension
            }
        }
        let notes = Notes()
        let (window, driver, list) = SectionListRig.make(notes) {
            $0.sectionFooterHeight = ListView.automaticDimension
        }
        #expect(list.sectionFooterHeight == ListView.automaticDimension)
        defer { withExtendedLifetime((window, notes)) {} }
        func textHeight(_ text: String, width: Double, bold: Bool = false) throws -> Double {
            let label = Label()
            label.font = try Font.system(size: 13, bold: bold)
            label.numberOfLines = 0
            label.text = text
            return label.sizeThatFits(Size(width: width, height: .infinity)).height
        }
        let one = try textHeight("One line.", width: 288)
        let long = try textHeight(notes.footers[2], width: 288)
        #expect(long > 2 * one, "the long note wraps")
        #expect((0..<3).map { list.rectForFooter(inSection: $0).height } == [0, max(18, one) + 16, long + 16])
        // Section 1's empty title: no header; section 2's bold title on one line.
        let header = try textHeight("Section 2", width: 288, bold: true)
        #expect((0..<3).map { list.rectForHeader(inSection: $0).height } == [32, 0, max(18, header) + 16])
        // Every line of the long note shows in its band.
        list.contentOffset = Point(x: 0, y: list.rectForFooter(inSection: 2).minY - 200)
        driver.advance(by: 1 / 60)
        let band = try #require(list.visibleFooters[2])
        #expect(band.textLabel.frame.height == long && band.textLabel.frame.minY == 8)
        #expect(Double(band.textLabel.numberOfLines) * one >= long)
        // Narrower: the note wraps to more lines, and its band grows.
        list.frame = Rect(x: 0, y: 0, width: 200, height: 480)
        driver.advance(by: 1 / 60)
        let narrow = try textHeight(notes.footers[2], width: 168)
        #expect(narrow > long && list.rectForFooter(inSection: 2).height == narrow + 16)
        // A fixed band keeps one line, cut short, however long its text.
        list.sectionFooterHeight = 24
        driver.advance(by: 1 / 60)
        #expect(list.rectForFooter(inSection: 2).height == 24)
        list.contentOffset = Point(x: 0, y: list.rectForFooter(inSection: 2).minY - 200)
        driver.advance(by: 1 / 60)
        #expect(list.visibleFooters[2]?.textLabel.numberOfLines == 1)
        list.sectionFooterHeight = -5
        #expect(list.sectionFooterHeight == 0)
        // A band with no text fits in none.
        #expect(ListSectionFooter().sizeThatFits(Size(width: 320, height: 100)).height == 0)
    }

    /// A list not loaded yet asks its data source nothing: band heights, a factory and a new
    /// width set before `reloadData` read no sections; the load reads them once.
    @Test func aListNotLoadedAsksNothing() {
        let rows = Rows()
        let window = Window(size: Size(width: 320, height: 480))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        list.register("r") { SectionListRig.FortyHighCell(reuseIdentifier: "r") }
        list.dataSource = rows
        window.addSubview(list)
        defer { withExtendedLifetime((window, rows)) {} }
        list.sectionHeaderHeight = 40
        list.sectionFooterHeight = ListView.automaticDimension
        list.sectionHeaderFactory = { ListSectionHeader() }
        list.frame = Rect(x: 0, y: 0, width: 200, height: 480)
        window.layoutIfNeeded()
        #expect(rows.headerHeightsAsked == 0 && list.numberOfSections == 0)
        list.reloadData()
        #expect(rows.headerHeightsAsked == 4 && list.numberOfSections == 4)
        #expect(list.rectForHeader(inSection: 0).height == 40)
    }

    /// Heights near the largest a `Double` holds are taken as the largest offset a scroll view
    /// goes to: the content's height stays a number (the largest two summed were infinite, and
    /// a band's top NaN), and the list still scrolls to a row.
    @Test func absurdHeightsLeaveTheLayoutFinite() {
        let rows = Rows()
        rows.headers = [1e300, 28, 1e308, 20]
        rows.footers = [24, .greatestFiniteMagnitude, 16, 0]
        let (window, driver, list) = SectionListRig.make(rows)
        defer { withExtendedLifetime((window, rows)) {} }
        let largest = ScrollView.largestOffset
        #expect(list.rectForHeader(inSection: 2).height == largest)
        #expect(list.contentSize.height.isFinite && list.contentSize.height >= 3 * largest)
        #expect((0..<4).allSatisfy { list.rectForHeader(inSection: $0).minY.isFinite })
        list.scrollToRow(30, at: .top, animated: false)
        driver.advance(by: 1 / 60)
        #expect(list.contentOffset.y.isFinite && list.contentOffset.y > 0)
    }
}
