import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// Bands of the app's own (UITableView's registered header views and `willDisplayHeaderView`):
/// a list's and a grid's `sectionHeaderFactory` and `sectionFooterFactory` make them, the data
/// source configures each for its section when it takes one, a band reused for another section
/// is configured again, and `automaticDimension` measures the app's band as it is drawn.
@MainActor
@Suite struct ListCustomBandTests {
    /// A header with a count on the trailing side, 20 taller than the plain band when it fits
    /// its text.
    final class CountedHeader: ListSectionHeader {
        let count = Label()
        override init(frame: Rect = .zero) {
            super.init(frame: frame)
            addSubview(count)
        }
        override func layoutSubviews() {
            super.layoutSubviews()
            // On the title's line, at the trailing end.
            count.frame = Rect(x: bounds.width - 80, y: textLabel.frame.minY, width: 64, height: textLabel.frame.height)
        }
        override func sizeThatFits(_ size: Size) -> Size {
            let plain = super.sizeThatFits(size)
            return Size(width: plain.width, height: plain.height + 20)
        }
    }

    final class NoteFooter: ListSectionFooter {}

    /// 200 rows in sections of 10; each header counts its section's rows.
    final class Rows: ListDataSource {
        var configured: [Int] = []
        var footersConfigured: [Int] = []
        func numberOfRows(in list: ListView) -> Int { 200 }
        func list(_ list: ListView, cellForRow row: Int) -> ListCell {
            list.dequeueReusableCell(withIdentifier: "r")
        }
        func sectionStarts(in list: ListView) -> [Int] { Array(stride(from: 0, to: 200, by: 10)) }
        func list(_ list: ListView, titleForSection section: Int) -> String { "Section \(section)" }
        func list(_ list: ListView, titleForFooterInSection section: Int) -> String { "End of \(section)" }
        func list(_ list: ListView, willDisplayHeader header: ListSectionHeader, forSection section: Int) {
            configured.append(section)
            (header as? CountedHeader)?.count.text = "\(section * 10)"
        }
        func list(_ list: ListView, willDisplayFooter footer: ListSectionFooter, forSection section: Int) {
            footersConfigured.append(section)
        }
    }

    func make() -> (window: Window, FrameDriver, ListView, Rows) {
        let rows = Rows()
        let (window, driver, list) = SectionListRig.make(rows) {
            $0.sectionHeaderFactory = { CountedHeader() }
            $0.sectionFooterFactory = { NoteFooter() }
            $0.sectionFooterHeight = 24
        }
        return (window, driver, list, rows)
    }

    @Test func theAppsBandsAreMadeAndConfiguredForTheirSections() throws {
        let (window, driver, list, rows) = make()
        defer { withExtendedLifetime((window, rows)) {} }
        #expect(!list.visibleHeaders.isEmpty && !list.visibleFooters.isEmpty)
        for (s, header) in list.visibleHeaders {
            let counted = try #require(header as? CountedHeader)
            #expect(counted.count.text == "\(s * 10)" && counted.textLabel.text == "Section \(s)")
        }
        #expect(list.visibleFooters.values.allSatisfy { $0 is NoteFooter })
        #expect(rows.configured.sorted() == list.visibleHeaders.keys.sorted())
        #expect(rows.footersConfigured.sorted() == list.visibleFooters.keys.sorted())
        // A few pixels of scroll move the bands; none takes another section.
        let before = rows.configured
        list.contentOffset = Point(x: 0, y: 5)
        driver.advance(by: 1 / 60)
        #expect(rows.configured == before)
        // Far down, the bands are reused for other sections and configured for them.
        list.contentOffset = Point(x: 0, y: 4000)
        driver.advance(by: 1 / 60)
        for (s, header) in list.visibleHeaders {
            #expect((header as? CountedHeader)?.count.text == "\(s * 10)")
        }
        #expect(Set(list.visibleHeaders.keys).isSubset(of: Set(rows.configured)))
        // A reader meets the app's own label in the band, after its title.
        let labels = list.accessibilityChildren(in: window).map(\.label)
        let s = try #require(list.visibleHeaders.keys.min())
        let title = try #require(labels.firstIndex(of: "Section \(s)"))
        #expect(labels[title + 1] == "\(s * 10)", "\(labels)")
        // Back to the plain bands: the app's go, the plain ones come.
        list.sectionHeaderFactory = { ListSectionHeader() }
        driver.advance(by: 1 / 60)
        #expect(!list.visibleHeaders.isEmpty && list.visibleHeaders.values.allSatisfy { !($0 is CountedHeader) })
        #expect(list.subviews.allSatisfy { !($0 is CountedHeader) })
    }

    /// `automaticDimension` measures a band the factory made, as it will be drawn.
    @Test func automaticHeightsMeasureTheAppsBand() {
        let (window, driver, list, rows) = make()
        defer { withExtendedLifetime((window, rows)) {} }
        let plain = ListSectionHeader()
        plain.textLabel.text = "Section 3"
        let expected = plain.sizeThatFits(Size(width: 320, height: .infinity)).height + 20
        list.sectionHeaderHeight = ListView.automaticDimension
        driver.advance(by: 1 / 60)
        #expect(list.rectForHeader(inSection: 3).height == expected)
        list.sectionHeaderFactory = { ListSectionHeader() }
        driver.advance(by: 1 / 60)
        #expect(list.rectForHeader(inSection: 3).height == expected - 20)
    }

    /// A grid's bands of the app's own, configured for their sections.
    @Test func aGridsBandsAreTheAppsToo() throws {
        final class Grid: CollectionViewDataSource {
            var configured: [Int] = []
            func numberOfSections(in collectionView: CollectionView) -> Int { 5 }
            func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { 6 }
            func collectionView(_ collectionView: CollectionView, cellForItemAt path: ItemPath) -> CollectionCell {
                collectionView.dequeueReusableCell(withIdentifier: "c")
            }
            func collectionView(_ collectionView: CollectionView, titleForSection section: Int) -> String {
                "Roll \(section)"
            }
            func collectionView(
                _ collectionView: CollectionView, willDisplayHeader header: ListSectionHeader, forSection section: Int
            ) {
                configured.append(section)
                (header as? CountedHeader)?.count.text = "\(section * 6)"
            }
        }
        let layout = FlowLayout()
        layout.itemSize = Size(width: 100, height: 80)
        layout.headerHeight = 30
        let collection = CollectionView(layout: layout)
        collection.frame = Rect(x: 0, y: 0, width: 320, height: 480)
        collection.register("c") { CollectionCell(reuseIdentifier: "c") }
        collection.sectionHeaderFactory = { CountedHeader() }
        let grid = Grid()
        collection.dataSource = grid
        let window = Window(size: Size(width: 320, height: 480))
        window.addSubview(collection)
        collection.reloadData()
        let driver = FrameDriver(window: window)
        driver.advance(by: 0.05)
        defer { withExtendedLifetime((window, grid)) {} }
        #expect(!collection.visibleHeaders.isEmpty)
        for (s, header) in collection.visibleHeaders {
            let counted = try #require(header as? CountedHeader)
            #expect(counted.count.text == "\(s * 6)" && counted.textLabel.text == "Roll \(s)")
        }
        #expect(grid.configured.sorted() == collection.visibleHeaders.keys.sorted())
        collection.sectionHeaderFactory = { ListSectionHeader() }
        driver.advance(by: 1 / 60)
        #expect(!collection.visibleHeaders.isEmpty)
        #expect(collection.visibleHeaders.values.allSatisfy { !($0 is CountedHeader) })
    }

    /// A grid's bands fitted to their titles (`FlowLayout.automaticDimension`): measured as a
    /// band in the same window measures, none for an empty title, again at a new width, and
    /// with the app's band once its factory makes them.
    @Test func aGridsBandsFitTheirTitles() throws {
        final class Rolls: CollectionViewDataSource {
            let titles = ["Roll 0", String(repeating: "A long roll title that wraps. ", count: 5), ""]
            func numberOfSections(in collectionView: CollectionView) -> Int { 3 }
            func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { 3 }
            func collectionView(_ collectionView: CollectionView, cellForItemAt path: ItemPath) -> CollectionCell {
                collectionView.dequeueReusableCell(withIdentifier: "c")
            }
            func collectionView(_ collectionView: CollectionView, titleForSection section: Int) -> String {
                titles[section]
            }
        }
        let layout = FlowLayout()
        layout.itemSize = Size(width: 100, height: 80)
        layout.headerHeight = FlowLayout.automaticDimension
        let collection = CollectionView(layout: layout)
        collection.frame = Rect(x: 0, y: 0, width: 320, height: 480)
        collection.register("c") { CollectionCell(reuseIdentifier: "c") }
        let rolls = Rolls()
        collection.dataSource = rolls
        let window = Window(size: Size(width: 320, height: 480), scale: 1.5)
        window.addSubview(collection)
        collection.reloadData()
        let driver = FrameDriver(window: window)
        driver.advance(by: 0.05)
        defer { withExtendedLifetime((window, rolls)) {} }
        // The bands expected: a plain band in the same window, measured.
        let probe = ListSectionHeader()
        window.addSubview(probe)
        func fitted(_ title: String, width: Double) -> Double {
            probe.textLabel.text = title
            return probe.sizeThatFits(Size(width: width, height: .infinity)).height
        }
        let long = fitted(rolls.titles[1], width: 320)
        #expect(long > fitted("Roll 0", width: 320) + 20, "the long title wraps")
        #expect(layout.frameForHeader(inSection: 0)?.height == fitted("Roll 0", width: 320))
        #expect(layout.frameForHeader(inSection: 1)?.height == long)
        #expect(layout.frameForHeader(inSection: 2) == nil)
        // Narrower: measured again.
        collection.frame = Rect(x: 0, y: 0, width: 200, height: 480)
        driver.advance(by: 1 / 60)
        #expect(layout.frameForHeader(inSection: 1)?.height == fitted(rolls.titles[1], width: 200))
        // The app's band measures 20 taller.
        collection.sectionHeaderFactory = { CountedHeader() }
        driver.advance(by: 1 / 60)
        #expect(layout.frameForHeader(inSection: 1)?.height == fitted(rolls.titles[1], width: 200) + 20)
    }
}
