import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// A list's section index (UITableView's): titles down the trailing edge that jump the list to
/// a section under a touch or a drag along them, and that the rows' text keeps clear of.
@MainActor
@Suite struct ListSectionIndexTests {
    static let letters = (0..<26).map { String(UnicodeScalar(UInt8(65 + $0))) }

    /// 26 sections, "A" to "Z", of 8 one-line rows each; the index gives every letter, and
    /// optionally "#" first, which leads to the last section.
    final class Book: ListDataSource {
        var titles: [String]
        var rows = 26 * 8
        /// Whether rows may be moved by hand (the reorder tests use the book too).
        var movable = false
        var moves: [(Int, Int)] = []
        init(titles: [String] = ListSectionIndexTests.letters) { self.titles = titles }
        func numberOfRows(in list: ListView) -> Int { rows }
        func sectionStarts(in list: ListView) -> [Int] { (0..<26).map { $0 * 8 } }
        func list(_ list: ListView, titleForSection section: Int) -> String { ListSectionIndexTests.letters[section] }
        func sectionIndexTitles(in list: ListView) -> [String] { titles }
        func list(_ list: ListView, sectionForSectionIndexTitle title: String, at index: Int) -> Int {
            title == "#" ? 25 : ListSectionIndexTests.letters.firstIndex(of: title) ?? 0
        }
        lazy var names = (0..<rows).map {
            "\(ListSectionIndexTests.letters[$0 / 8]) person \($0 % 8) with a long name here"
        }
        func list(_ list: ListView, cellForRow row: Int) -> ListCell {
            let cell = list.dequeueReusableCell(withIdentifier: "r")
            cell.textLabel.text = names[row]
            return cell
        }
        func list(_ list: ListView, canMoveRow row: Int) -> Bool { movable }
        func list(_ list: ListView, moveRowAt source: Int, to destination: Int) {
            moves.append((source, destination))
            names.insert(names.remove(at: source), at: destination)
        }
    }

    /// A 300 × `height` window filled by a list of `book`, a frame drawn.
    func make(_ book: Book, height: Double = 600) -> (FrameDriver, ListView) {
        let window = Window(size: Size(width: 300, height: height))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 300, height: height))
        list.register("r") { ListCell(reuseIdentifier: "r") }
        list.dataSource = book
        window.addSubview(list)
        list.reloadData()
        let driver = FrameDriver(window: window)
        driver.advance(by: 0.05)
        return (driver, list)
    }

    func index(of list: ListView) throws -> View {
        try #require(list.subviews.first { $0.resolvedAccessibility.label == "Section index" })
    }

    /// Where title `i` of `count`, all shown, is centred on screen: the titles' band (14 px
    /// each) is centred down the index.
    func titleCenter(_ i: Int, of count: Int, in index: View) -> Point {
        let frame = index.convert(index.bounds, to: nil)
        let top = frame.minY + (frame.height - Double(count) * 14) / 2
        return Point(x: frame.midX, y: top + (Double(i) + 0.5) * 14)
    }

    /// The offset that shows section `s`'s header at the top.
    func offset(showing s: Int, in list: ListView) -> Double {
        min(list.rectForHeader(inSection: s).minY, list.contentSize.height - list.bounds.height)
    }

    @Test func theIndexStandsAlongTheTrailingEdgeAndTheRowsTextKeepsClearOfIt() throws {
        let book = Book()
        let (driver, list) = make(book)
        let index = try index(of: list)
        // Its widest title and 3 px a side, at least 16, the list's full height, at its right.
        let w = index.frame.width
        #expect(w >= 16 && w < 30)
        #expect(index.frame == Rect(x: 300 - w, y: 0, width: w, height: 600))
        #expect(list.sectionIndexInset == w)
        let cell = try #require(list.visibleCells[0])
        #expect(cell.textLabel.frame == Rect(x: 16, y: 0, width: 300 - 32 - w, height: cell.bounds.height))
        // A long name wraps short of the index: two lines where a list without one had room
        // for more on the first.
        #expect(cell.bounds.height == cell.sizeThatFits(Size(width: 300, height: 1000)).height)
        // It stays where it is on screen while the list scrolls under it, in front of the
        // rows and the pinned header.
        list.contentOffset = Point(x: 0, y: 1234)
        driver.advance(by: 0.05)
        #expect(index.convert(index.bounds, to: nil) == Rect(x: 300 - w, y: 0, width: w, height: 600))
        let i = try #require(list.subviews.firstIndex { $0 === index })
        #expect(!list.visibleHeaders.isEmpty)
        #expect(list.visibleHeaders.values.allSatisfy { h in list.subviews.firstIndex { $0 === h }! < i })
        #expect(list.visibleCells.values.allSatisfy { c in list.subviews.firstIndex { $0 === c }! < i })
        // The scroll indicator, shown by the scroll, stands beside it, not over it.
        let indicator = try #require(list.subviews.last)
        #expect(!indicator.isHidden && indicator.frame.maxX <= index.frame.minX)
        // Drawn: the system blue in its column, none left of it on an empty stretch.
        let canvas = try Offscreen.render(list.window!, time: driver.time)
        let blue = (0..<600).filter { y in
            (Int(clamping: 300 - w, rounding: .down)..<300).contains { x in Self.isBlue(canvas.pixel(x: x, y: y)) }
        }
        #expect(blue.count > 26 * 5)
    }

    static func isBlue(_ p: UInt32) -> Bool {
        let (r, g, b) = ((p >> 16) & 0xff, (p >> 8) & 0xff, p & 0xff)
        return b > 200 && r < 120 && g < 190
    }

    /// A touch on a title jumps the list to its section at once (its header at the top), and
    /// a drag along the index jumps on to each title it passes; the list never drags, no row
    /// swipes open, and a lifted finger leaves the list where it jumped.
    @Test func aTouchOnATitleJumpsToItsSectionAndADragAlongTheIndexFollows() throws {
        let book = Book()
        let (driver, list) = make(book)
        list.trailingSwipeActions = { _ in [RowAction(title: "Delete", style: .destructive) { _ in }] }
        let grey = Color(rgb: 220, 220, 224)
        list.sectionIndexTrackingBackgroundColor = grey
        let index = try index(of: list)
        #expect(index.backgroundColor == nil)
        var drags = 0
        list.panGestureRecognizer.addAction { g in if g.state == .began { drags += 1 } }
        let m = titleCenter(12, of: 26, in: index)
        let down = driver.send(from: driver.time + 0.01) { $0.touch(from: m, at: 0, moves: [], liftAt: nil, id: 1) }
        driver.advance(to: down + 0.02)
        #expect(list.contentOffset.y == offset(showing: 12, in: list))
        #expect(list.visibleHeaders[12]?.textLabel.text == "M")
        #expect(index.backgroundColor == grey)  // while the finger is on it
        // Down along the index to "T", then a little sideways (no row swipe).
        let t = titleCenter(19, of: 26, in: index)
        let end = driver.send(from: driver.time + 0.01) { b in
            b.move(id: 1, through: [m + Point(x: 0, y: 30), t, t + Point(x: -8, y: 0)], after: 0)
        }
        driver.advance(to: end + 0.02)
        #expect(list.contentOffset.y == offset(showing: 19, in: list))
        driver.send(.touchUp(id: 1), at: driver.time + 0.01)
        driver.send(.touchFrame, at: driver.time)
        driver.settle()
        #expect(list.contentOffset.y == offset(showing: 19, in: list))
        #expect(drags == 0 && list.openSwipeRow == nil && !list.isDragging && !list.isDecelerating)
        #expect(index.backgroundColor == nil)
        // Past the band's end the finger picks the last title: "Z", whose section ends the
        // list, so the list goes to its end.
        let below = index.convert(index.bounds, to: nil).maxY - 2
        driver.send(from: driver.time + 0.05) { $0.tap(at: Point(x: m.x, y: below), at: 0) }
        driver.settle()
        #expect(list.contentOffset.y == list.contentSize.height - list.bounds.height)
        // The mouse works it too (a desktop's list).
        driver.send(from: driver.time + 0.05) { b in
            b.add(.pointerMotion(x: m.x, y: m.y), at: 0)
            b.add(.pointerFrame, at: 0)
            b.add(.pointerButton(.left, pressed: true), at: 10)
            b.add(.pointerFrame, at: 10)
            b.add(.pointerButton(.left, pressed: false), at: 60)
            b.add(.pointerFrame, at: 60)
        }
        driver.settle()
        #expect(list.contentOffset.y == offset(showing: 12, in: list))
    }

    /// Titles that do not fit show as many as fit, an odd count, from the first to the last
    /// with bullets between; the finger still picks among all 26 by where it is.
    @Test func titlesThatDoNotFitAreBulletedAndTheFingerStillPicksAmongAll() throws {
        let book = Book()
        let (driver, list) = make(book, height: 200)
        let index = try index(of: list)
        // 200 px hold 14 entries of 14 px: 13 shown, 7 titles and 6 bullets.
        #expect(index.frame.height == 200)
        let band = 13 * 14.0
        let top = (200 - band) / 2
        // A finger at 40% of the band is on title 10 of 26 ("K"), though only bullets and
        // "A", "E", "I", "M", "Q", "U", "Z" show.
        let p = Point(x: index.convert(index.bounds, to: nil).midX, y: top + 0.4 * band + 1)
        driver.send(from: driver.time + 0.05) { $0.tap(at: p, at: 0) }
        driver.settle()
        #expect(list.contentOffset.y == offset(showing: 10, in: list))
        // Drawn: 13 rows of blue ink down the column, none beyond the band.
        let canvas = try Offscreen.render(list.window!, time: driver.time)
        let x0 = Int(clamping: index.frame.minX, rounding: .down)
        let inked = (0..<200).filter { y in (x0..<300).contains { x in Self.isBlue(canvas.pixel(x: x, y: y)) } }
        #expect(Double(inked.first!) >= top.rounded(.down) && Double(inked.last!) < top + band)
        var runs = 0
        for (k, y) in inked.enumerated() where k == 0 || inked[k - 1] != y - 1 { runs += 1 }
        #expect(runs == 13)
    }

    /// The data source maps titles to sections ("#" to the last); a reader jumps with the
    /// index's actions; the right-to-left index stands at the left with the text clear of it;
    /// no titles, or fewer rows than `sectionIndexMinimumDisplayRowCount`, no index.
    @Test func titlesMapToSectionsAReaderJumpsAndTheIndexFollowsDirectionAndCounts() throws {
        let book = Book(titles: ["#"] + ListSectionIndexTests.letters)
        let (driver, list) = make(book)
        let index = try #require(list.subviews.first { $0.resolvedAccessibility.label == "Section index" })
        let hash = titleCenter(0, of: 27, in: index)
        driver.send(from: driver.time + 0.05) { $0.tap(at: hash, at: 0) }
        driver.settle()
        #expect(list.contentOffset.y == list.contentSize.height - list.bounds.height)
        // A screen reader's actions, one a title.
        #expect(index.accessibilityCustomActions.map(\.name) == ["#"] + ListSectionIndexTests.letters)
        #expect(index.accessibilityCustomActions[3].handler())  // "C"
        #expect(list.contentOffset.y == offset(showing: 2, in: list))

        // Right to left: at the left edge; the text starts past it.
        list.window!.userInterfaceLayoutDirection = .rightToLeft
        driver.advance(by: 0.05)
        let w = index.frame.width
        #expect(index.convert(index.bounds, to: nil) == Rect(x: 0, y: 0, width: w, height: 600))
        list.reloadData()
        driver.advance(by: 0.05)
        let cell = try #require(list.visibleCells.values.first)
        #expect(cell.textLabel.frame.minX == 16 + w && cell.textLabel.frame.width == 300 - 32 - w)
        list.window!.userInterfaceLayoutDirection = .leftToRight

        // More rows wanted than the list has: no index, and the text takes the width again.
        list.sectionIndexMinimumDisplayRowCount = 500
        driver.advance(by: 0.05)
        #expect(index.superview == nil && list.sectionIndexInset == 0)
        let wide = try #require(list.visibleCells.values.first)
        #expect(wide.textLabel.frame.width == 300 - 32)
        list.sectionIndexMinimumDisplayRowCount = 0
        #expect(list.sectionIndexInset == w)
        // No titles: no index.
        book.titles = []
        list.reloadSectionIndexTitles()
        driver.advance(by: 0.05)
        #expect(list.sectionIndexInset == 0)
        #expect(!list.subviews.contains { $0.resolvedAccessibility.label == "Section index" })
    }

    /// A row swiped open has its outermost button at the list's edge, where the index
    /// stands: the index is away while the row is open, so the whole button takes its tap;
    /// it comes back as the row closes.
    @Test func theIndexStandsAsideWhileARowIsOpen() throws {
        let book = Book()
        let (driver, list) = make(book)
        var deleted: [Int] = []
        list.trailingSwipeActions = { _ in [RowAction(title: "Delete", style: .destructive) { deleted.append($0) }] }
        let index = try index(of: list)
        let column = index.convert(index.bounds, to: nil)
        let row = list.convert(list.rectForRow(2), to: nil)
        driver.send(from: driver.time + 0.05) {
            $0.flick(from: Point(x: 200, y: row.midY), by: Point(x: -120, y: 0), at: 0, moves: 6, id: 1)
        }
        driver.settle()
        #expect(list.openSwipeRow == 2 && index.isHidden)
        let offset = list.contentOffset
        driver.send(from: driver.time + 0.05) { $0.tap(at: Point(x: column.midX, y: row.midY), at: 0) }
        driver.settle()
        #expect(deleted == [2] && list.contentOffset == offset)
        #expect(list.openSwipeRow == nil && !index.isHidden)
    }
}
