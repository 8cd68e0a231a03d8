import ScrollwayGeometry
import Testing

@testable import ScrollwayScrolling

/// The Fenwick-tree layout against the plain running sum it replaces, through measurements,
/// inserts, deletes, moves and section changes.
@MainActor
@Suite struct RowLayoutTests {
    @MainActor
    /// The naive layout, walked as a reader would lay the list out: the rows before the first
    /// section, then each section in order (by first row, then by index) as its header, its
    /// rows and its footer, one after another.
    struct Naive {
        var heights: [Double?]
        var starts: [Int]
        let estimate: Double
        let header: Double
        var footer = 0.0
        /// Each section's own header and footer heights, by section (nil: `header`, `footer`).
        var sectionHeaders: [Double]?
        var sectionFooters: [Double]?

        /// Section `s`'s header and footer, as the layout keeps them (in steps of 1/256).
        func header(_ s: Int) -> Double { RowLayout.quantized(sectionHeaders?[s] ?? header) }
        func footer(_ s: Int) -> Double { RowLayout.quantized(sectionFooters?[s] ?? footer) }

        /// The sections, in header order, with their own heights, set in `layout`.
        func setSections(in layout: inout RowLayout) {
            let order = starts.indices.sorted { (starts[$0], $0) < (starts[$1], $1) }
            layout.setSections(
                starts: order.map { starts[$0] }, headerHeights: order.map(header), footerHeights: order.map(footer))
        }

        /// Each row's top, then the content's end.
        func tops() -> [Double] { walk().tops }

        /// Each row's top then the content's end, and each section's header and footer tops.
        func walk() -> (tops: [Double], headers: [Double], footers: [Double]) {
            let order = starts.indices.sorted { (starts[$0], $0) < (starts[$1], $1) }
            var tops = Array(repeating: 0.0, count: heights.count)
            var (headerTops, footerTops) = (
                Array(repeating: 0.0, count: starts.count), Array(repeating: 0.0, count: starts.count)
            )
            var y = 0.0
            func rows(_ range: Range<Int>) {
                for i in range {
                    tops[i] = y
                    y += RowLayout.quantized(heights[i] ?? estimate)
                }
            }
            let count = heights.count
            rows(0..<min(count, starts.min() ?? count))
            for (k, s) in order.enumerated() {
                let start = min(starts[s], count)
                let end = k + 1 < order.count ? min(starts[order[k + 1]], count) : count
                headerTops[s] = y
                y += header(s)
                rows(start..<max(start, end))
                footerTops[s] = y
                y += footer(s)
            }
            return (tops + [y], headerTops, footerTops)
        }

        func total() -> Double { tops().last! }

        /// The row whose span (the band of headers and footers above it included) holds y,
        /// given `tops()` (the checker works them out once for all its probes).
        func row(at y: Double, tops t: [Double]) -> Int {
            for i in heights.indices where y < t[i] + RowLayout.quantized(heights[i] ?? estimate) { return i }
            return heights.count - 1
        }
    }

    @MainActor
    /// A deterministic generator (no clock, no global state).
    struct Lcg {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
    }

    func check(_ layout: RowLayout, against naive: Naive, probes: inout Lcg) {
        let (tops, headers, footers) = naive.walk()
        #expect(layout.count == naive.heights.count)
        #expect(layout.totalHeight == naive.total())
        for i in 0..<naive.heights.count { #expect(layout.top(i) == tops[i], "top of row \(i)") }
        // Every header from its row and place among the sections starting there, and the footer
        // of every section with rows from the row after its last.
        let order = naive.starts.indices.sorted { (naive.starts[$0], $0) < (naive.starts[$1], $1) }
        let count = naive.heights.count
        for (k, s) in order.enumerated() {
            let row = min(naive.starts[s], count)
            let slot = order[..<k].filter { min(naive.starts[$0], count) == row }.count
            #expect(layout.headerTop(row: row, slot: slot) == headers[s], "header of section \(s)")
            let end = k + 1 < order.count ? min(naive.starts[order[k + 1]], count) : count
            if end > row { #expect(layout.footerTop(endingBefore: end) == footers[s], "footer of section \(s)") }
        }
        for _ in 0..<50 {
            let y = Double(probes.next(Int(clamping: tops.last!) + 50)) - 10 + Double(probes.next(4)) / 4
            #expect(layout.row(at: y) == naive.row(at: y, tops: tops), "row at y \(y)")
        }
        // Exactly on every row's top and its header band's top.
        for i in 0..<naive.heights.count {
            #expect(layout.row(at: tops[i]) == naive.row(at: tops[i], tops: tops))
        }
    }

    /// Without section footers, with them (a band of 24 after each section), and with each
    /// section's own header and footer (some of them 0, some not whole pixels, the sections
    /// given out of order).
    @Test(arguments: [0.0, 24.0, -1])
    func theTreeMatchesARunningSumThroughMeasurementsInsertsDeletesAndMoves(footer: Double) {
        var g = Lcg(state: 7)
        let ownHeights = footer < 0
        var naive = Naive(
            heights: Array(repeating: nil, count: 300), starts: [0, 10, 11, 11, 11, 40, 299, 300, 300], estimate: 56,
            header: 32, footer: max(0, footer))
        if ownHeights {
            naive.starts = [11, 0, 10, 11, 300, 11, 40, 299, 300]
            naive.sectionHeaders = [0, 28, 40.3, 0, 12, 32, 0, 18.7, 30]
            naive.sectionFooters = [16, 0, 0, 22.1, 8, 0, 30, 0, 14]
        }
        var layout = RowLayout(
            measured: naive.heights, sectionStartRows: naive.starts, estimate: naive.estimate,
            headerHeight: naive.header)
        naive.setSections(in: &layout)
        func setSections() { naive.setSections(in: &layout) }
        check(layout, against: naive, probes: &g)
        for round in 0..<40 {
            // Measure a few rows, with heights that are not multiples of 1/256.
            for _ in 0..<8 {
                let r = g.next(naive.heights.count)
                let h = 30 + Double(g.next(900)) / 7
                let before = naive.tops()
                let moved = layout.setHeight(r, h)
                naive.heights[r] = h
                #expect(moved == naive.tops()[r + 1] - before[r + 1])
            }
            if round % 5 == 0 {
                let inserted = Array(Set((0..<4).map { _ in g.next(naive.heights.count + 4) })).sorted()
                layout.apply(inserted: inserted, deleted: [])
                for i in inserted { naive.heights.insert(nil, at: i) }
                setSections()
            }
            // A reorder: a row moved up or down, its height with it, the rows between one
            // place along (sections stay at their rows).
            for _ in 0..<3 {
                let from = g.next(naive.heights.count)
                let to = g.next(naive.heights.count)
                layout.move(from: from, to: to)
                naive.heights.insert(naive.heights.remove(at: from), at: to)
            }
            if round % 7 == 3 {
                let deleted = Array(Set((0..<5).map { _ in g.next(naive.heights.count) })).sorted()
                layout.apply(inserted: [], deleted: deleted)
                for i in deleted.reversed() { naive.heights.remove(at: i) }
                naive.starts = naive.starts.map { min($0, naive.heights.count) }
                setSections()
            }
            check(layout, against: naive, probes: &g)
        }
        // A new width: every row back to the estimate.
        layout.forgetMeasurements()
        naive.heights = Array(repeating: nil, count: naive.heights.count)
        check(layout, against: naive, probes: &g)
    }

    /// A batch that deletes and inserts at once (runs, as an outline's row closing and another
    /// opening, alone or with scattered rows), in a list with rows measured and sections of their own
    /// heights. Right after it, the sections stand at their rows renumbered (a row inserted
    /// before a section's first row joins the section above; a section whose first row went
    /// starts at the next that stayed) and the measured rows are the same rows renumbered; the
    /// sections then set from the data source (moved a little, every third batch) lay the
    /// rows out as a running sum does, and a new width forgets exactly the measured rows.
    @Test func aBatchOfDeletesAndInsertsRenumbersRowsSectionsAndMeasurements() {
        var g = Lcg(state: 23)
        var naive = Naive(
            heights: Array(repeating: nil, count: 200), starts: [0, 20, 20, 57, 130, 199, 200], estimate: 44,
            header: 28, footer: 12)
        naive.sectionHeaders = [28, 0, 31.5, 28, 17, 28, 9]
        naive.sectionFooters = [12, 6, 0, 12.25, 12, 0, 3]
        var layout = RowLayout(count: 200, estimate: 44, sectionStarts: [], headerHeights: [], footerHeights: [])
        naive.setSections(in: &layout)
        func order() -> [Int] { naive.starts.indices.sorted { (naive.starts[$0], $0) < (naive.starts[$1], $1) } }
        var checkedBetween = 0
        for round in 0..<30 {
            for _ in 0..<6 {
                let r = g.next(naive.heights.count)
                let h = 20 + Double(g.next(600)) / 9
                layout.setHeight(r, h)
                naive.heights[r] = h
            }
            let n = naive.heights.count
            let from = g.next(n)
            // Every other batch one run out and one in (an outline's folder closing and
            // another opening), the others with scattered rows besides.
            let scattered = round % 2 == 0 ? 0 : 3
            let deleted = Set(Array(from..<min(n, from + g.next(30))) + (0..<scattered).map { _ in g.next(n) })
            let kept = n - deleted.count
            let at = g.next(kept + 1)
            var inserted = Set(at..<at + g.next(25))
            for _ in 0..<scattered { inserted.insert(g.next(kept + inserted.count + 1)) }

            var tags: [Int?] = (0..<n).filter { !deleted.contains($0) }
            for i in inserted.sorted() { tags.insert(nil, at: i) }
            let old = naive.heights
            let oldOrder = order()
            naive.heights = tags.map { $0.flatMap { old[$0] } }
            naive.starts = naive.starts.map { s in tags.firstIndex { ($0 ?? -1) >= s } ?? tags.count }
            layout.apply(inserted: inserted.sorted(), deleted: deleted.sorted())
            // Sections that now start at one row keep their old order in the layout, which the
            // running sum, ordering them by index, may not share: checked where the orders agree.
            if order() == oldOrder {
                checkedBetween += 1
                check(layout, against: naive, probes: &g)
            }
            for r in naive.heights.indices {
                #expect(layout.isMeasured(r) == (naive.heights[r] != nil), "round \(round): row \(r) measured")
            }
            if round % 3 == 0 {
                naive.starts = naive.starts.map { min(naive.heights.count, max(0, $0 + g.next(5) - 2)) }
            }
            naive.setSections(in: &layout)
            check(layout, against: naive, probes: &g)
        }
        #expect(checkedBetween >= 20)
        layout.forgetMeasurements()
        naive.heights = Array(repeating: nil, count: naive.heights.count)
        for r in naive.heights.indices { #expect(!layout.isMeasured(r), "row \(r) still measured") }
        check(layout, against: naive, probes: &g)
    }

    /// A new width with only a screenful measured forgets those rows one by one, and with most
    /// rows measured builds the tree again: both end where a layout that never measured is, and
    /// the rows measured after an insert are the ones forgotten.
    @Test func forgettingAFewMeasurementsOrMostEndsAtTheEstimates() {
        var g = Lcg(state: 11)
        var naive = Naive(
            heights: Array(repeating: nil, count: 300), starts: [0, 10, 11, 40, 299, 300], estimate: 56, header: 32)
        var layout = RowLayout(
            count: 300, sectionStartRows: naive.starts, estimate: naive.estimate, headerHeight: naive.header)
        check(layout, against: naive, probes: &g)
        for rows in [[3, 4, 5, 120, 299], Array(0..<250)] {
            for r in rows { layout.setHeight(r, 30 + Double(r % 17) / 3) }
            layout.apply(inserted: [7], deleted: [])
            naive.heights.insert(nil, at: 7)
            naive.starts = naive.starts.map { $0 > 7 ? $0 + 1 : $0 }
            naive.setSections(in: &layout)
            // The inserted row moved every measured row below it one down.
            layout.setHeight(8, 77)
            layout.forgetMeasurements()
            for r in naive.heights.indices { #expect(!layout.isMeasured(r), "row \(r) still measured") }
            check(layout, against: naive, probes: &g)
        }
    }

    /// Ten rows of 40 in four sections (headers 30, footers 20): rows 0–3, an empty one,
    /// rows 4–9, and an empty one after the last row, worked by hand. The band before row 4
    /// holds section 0's footer, section 1's header and footer, and section 2's header.
    @Test func footersFollowEachSectionsLastRowAndEmptySectionsHeaders() {
        var layout = RowLayout(
            count: 10, sectionStartRows: [0, 4, 4, 10], estimate: 40, headerHeight: 30, footerHeight: 20)
        #expect((0..<4).map { layout.top($0) } == [30, 70, 110, 150])
        #expect(layout.footerTop(endingBefore: 4) == 190)  // section 0's footer
        #expect(layout.headerTop(row: 4, slot: 0) == 210)  // section 1's header, its footer at 240
        #expect(layout.headerTop(row: 4, slot: 1) == 260)  // section 2's header
        #expect((4..<10).map { layout.top($0) } == [290, 330, 370, 410, 450, 490])
        #expect(layout.footerTop(endingBefore: 10) == 530)  // section 2's footer
        #expect(layout.headerTop(row: 10, slot: 0) == 550)  // section 3's header, its footer at 580
        #expect(layout.footerTop == 600 && layout.totalHeight == 600)
        // The band belongs to the row below it.
        #expect(layout.row(at: 189) == 3 && layout.row(at: 190) == 4 && layout.row(at: 289) == 4)
        // Footers off: the headers alone, as before.
        layout.setSections([0, 4, 4, 10], header: 30)
        #expect(layout.top(4) == 30 + 160 + 60 && layout.totalHeight == 30 + 160 + 60 + 240 + 30)
        // Rows before the first section have no footer; the first section's band has none above.
        let late = RowLayout(count: 4, sectionStartRows: [2], estimate: 40, headerHeight: 30, footerHeight: 20)
        #expect(late.top(2) == 110 && late.footerTop(endingBefore: 4) == 190 && late.totalHeight == 210)
    }

    @Test func anEmptyLayoutAndOneRow() {
        var layout = RowLayout(measured: [], sectionStartRows: [], estimate: 44, headerHeight: 20)
        #expect(layout.totalHeight == 0 && layout.row(at: 100) == 0)
        layout.apply(inserted: [0], deleted: [])
        layout.setSections([0], header: 20)
        #expect(layout.top(0) == 20 && layout.totalHeight == 64)
        #expect(layout.row(at: -5) == 0 && layout.row(at: 63.9) == 0 && layout.row(at: 1e9) == 0)
    }

    /// After `markPlaced`, every row above `firstMovedRow` has the top and height it had then:
    /// checked against the tops and heights recorded at the mark, through measurements that
    /// move rows and ones that do not, forgotten measurements, and changes that move everything.
    @Test func rowsAboveTheFirstMovedOneKeepTheirRects() {
        var layout = RowLayout(count: 200, sectionStartRows: [0, 50, 120], estimate: 56, headerHeight: 32)
        #expect(layout.firstMovedRow == 0)
        var rects: [(top: Double, height: Double)] = []
        func mark() {
            layout.markPlaced()
            rects = (0..<layout.count).map { (layout.top($0), layout.height($0)) }
        }
        func expectKept(_ step: String) {
            for r in 0..<min(layout.firstMovedRow, layout.count) {
                #expect(layout.top(r) == rects[r].top && layout.height(r) == rects[r].height, "\(step): row \(r)")
            }
            // And the first moved row did move (or the whole layout was rebuilt).
            let first = layout.firstMovedRow
            if first > 0 && first < layout.count {
                #expect(layout.top(first) != rects[first].top || layout.height(first) != rects[first].height, "\(step)")
            }
        }
        mark()
        #expect(layout.firstMovedRow == 200)
        layout.setHeight(40, 80)
        #expect(layout.firstMovedRow == 40)
        layout.setHeight(90, 30)
        #expect(layout.firstMovedRow == 40)
        expectKept("two rows measured below 40")
        mark()
        // Measured at the height it already had (the estimate): nothing moved.
        layout.setHeight(10, 56)
        #expect(layout.firstMovedRow == 200)
        layout.setHeight(150, 20)
        layout.setHeight(149, 70)
        #expect(layout.firstMovedRow == 149)
        expectKept("a fling's rows measured upwards")
        mark()
        layout.forgetMeasurement(90)
        #expect(layout.firstMovedRow == 90)
        expectKept("a measurement forgotten")
        mark()
        // The same sections again: nothing moves.
        layout.setSections([0, 50, 120], header: 32)
        #expect(layout.firstMovedRow == 200)
        for change in 0..<4 {
            mark()
            switch change {
            case 0: layout.setSections([0, 50, 120], header: 40)
            case 1: layout.setEstimate(60)
            case 2: layout.setSections([0, 60], header: 32)
            default: layout.apply(inserted: [3], deleted: [])
            }
            #expect(layout.firstMovedRow == 0, "change \(change) moves every row")
        }
    }
}

extension RowLayout {
    /// Sections starting at `starts` (ascending), every header `header` and every footer
    /// `footer` high.
    mutating func setSections(_ starts: [Int], header: Double, footer: Double = 0) {
        setSections(
            starts: starts, headerHeights: starts.map { _ in header }, footerHeights: starts.map { _ in footer })
    }
}
