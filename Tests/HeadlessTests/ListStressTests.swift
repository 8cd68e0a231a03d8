import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayHeadless
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// A seeded stream of list edits, jumps, reloads, resizes and flings, with the list's invariants
/// checked after every step: each cell shows the row it is filed under (after every renumbering),
/// sits at that row's rect, every row meeting the viewport has one, the section headers shown are
/// those a walk over every section finds, nothing else is in the view tree, and the content ends
/// where the last row does.
@MainActor
@Suite struct ListStressTests {
    @MainActor
    /// Rows with identities: an insert makes new ones, a delete removes them; a row's height
    /// (one to four lines) belongs to its identity, so it moves with the row.
    final class Rows: ListDataSource {
        var ids: [Int]
        var nextID: Int
        var lines: [Int: Int] = [:]
        var sections: [Int] = []

        init(count: Int) {
            ids = Array(0..<count)
            nextID = count
        }

        func numberOfRows(in list: ListView) -> Int { ids.count }
        func sectionStarts(in list: ListView) -> [Int] { sections }
        func list(_ list: ListView, titleForSection section: Int) -> String { "S\(section)" }
        func list(_ list: ListView, cellForRow row: Int) -> ListCell {
            let cell = list.dequeueReusableCell(withIdentifier: "r")
            cell.textLabel.text = text(ofRow: row)
            return cell
        }
        func text(ofRow row: Int) -> String {
            let id = ids[row]
            return (0..<(lines[id] ?? (1 + id % 3))).map { "id \(id) line \($0)" }.joined(separator: "\n")
        }
    }

    struct Lcg {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(max(1, n)))
        }
    }

    func checkInvariants(_ list: ListView, _ rows: Rows, step: Int) {
        let count = rows.ids.count
        #expect(list.rowCount == count, "step \(step)")
        for (r, cell) in list.visibleCells {
            guard r < count else {
                Issue.record("step \(step): a cell filed under row \(r) of \(count)")
                continue
            }
            #expect(cell.textLabel.text == rows.text(ofRow: r), "step \(step): row \(r) shows another row")
            #expect(cell.frame == list.rectForRow(r), "step \(step): row \(r) is not at its rect")
            #expect(cell.superview === list)
        }
        checkHeaders(list, rows, step: step)
        let indicators = list.subviews.filter { $0 is ScrollIndicator }.count
        #expect(
            list.subviews.count == list.visibleCells.count + list.visibleHeaders.count + indicators,
            "step \(step): views left in the list")
        guard count > 0 else {
            #expect(list.contentSize.height == Double(rows.sections.count) * list.sectionHeaderHeight)
            #expect(list.visibleCells.isEmpty)
            return
        }
        // The rows, then the headers of sections past the last row (empty ones at the end).
        let trailing = Double(rows.sections.filter { $0 >= count }.count) * list.sectionHeaderHeight
        #expect(list.contentSize.height == list.rectForRow(count - 1).maxY + trailing, "step \(step)")
        #expect(list.visibleHeaders.allSatisfy { $0.value.superview === list })
        #expect(list.contentOffset.isFinite)
        // Every row meeting the viewport has a cell.
        let visible = list.bounds
        // Binary search for the first row whose bottom is below the top of the viewport.
        var lo = 0
        var hi = count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if list.rectForRow(mid).maxY <= visible.minY { lo = mid + 1 } else { hi = mid }
        }
        var r = lo
        while r < count, list.rectForRow(r).minY < visible.maxY {
            #expect(list.visibleCells[r] != nil, "step \(step): row \(r) in view has no cell")
            r += 1
        }
    }

    /// The headers shown are exactly those whose natural rect meets the viewport and the margin
    /// around it, and the pinned one (the last whose top is at or above the pin line), each where
    /// `rectForHeader` puts it, the pinned one held at the pin and pushed up by the next: worked
    /// out here from every section, which the list's searches must agree with.
    func checkHeaders(_ list: ListView, _ rows: Rows, step: Int) {
        let count = rows.ids.count
        let h = list.sectionHeaderHeight
        let starts = rows.sections.map { min(max(0, $0), count) }
        let order = starts.indices.sorted { (starts[$0], $0) < (starts[$1], $1) }
        let tops = order.map { list.rectForHeader(inSection: $0).minY }
        let from = list.bounds.minY - list.margin
        let to = list.bounds.maxY + list.margin
        var expected = Set(order.indices.filter { tops[$0] <= to && tops[$0] + h > from }.map { order[$0] })
        let pin = list.bounds.minY + list.adjustedContentInset.top
        let pinned = list.pinsSectionHeaders ? order.indices.last { tops[$0] <= max(0, pin) } : nil
        if let pinned { expected.insert(order[pinned]) }
        #expect(
            Set(list.visibleHeaders.keys) == expected,
            "step \(step): headers \(list.visibleHeaders.keys.sorted()), expected \(expected.sorted())")
        for (section, header) in list.visibleHeaders {
            var rect = list.rectForHeader(inSection: section)
            if let pinned, order[pinned] == section {
                let next = pinned + 1 < order.count ? tops[pinned + 1] : .infinity
                rect.origin.y = min(max(rect.minY, pin), next - h)
            }
            #expect(header.frame == rect, "step \(step): section \(section)'s header")
        }
    }

    @Test(arguments: [1, 2, 3])
    func aSeededStreamOfEditsKeepsEveryCellOnItsRow(seed: UInt64) {
        var g = Lcg(state: seed)
        let rows = Rows(count: 3000)
        rows.sections = Array(stride(from: 0, to: 3000, by: 40))
        let window = Window(size: Size(width: 360, height: 640))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 360, height: 640))
        list.fillsSuperview = true
        list.register("r") { ListCell(reuseIdentifier: "r") }
        list.dataSource = rows
        window.addSubview(list)
        list.reloadData()
        // Frames at 60 Hz, each drawn when the window needs it (as a platform draws them).
        let driver = FrameDriver(window: window)
        func frames(_ n: Int) { driver.advance(to: driver.frameTime(driver.frame + n)) }
        frames(1)
        for step in 0..<400 {
            let count = rows.ids.count
            // Half the edits land among the rows in view (renumbering what shows), half anywhere.
            let shown = list.visibleCells.keys.sorted()
            func anyRow(_ n: Int) -> Int {
                guard g.next(2) == 0, let lo = shown.min(), let hi = shown.max() else { return g.next(n) }
                return min(n - 1, max(0, lo - 3 + g.next(hi - lo + 7)))
            }
            switch g.next(10) {
            case 0:  // insert a few rows
                let k = 1 + g.next(5)
                var at = Set<Int>()
                while at.count < k { at.insert(anyRow(count + k)) }
                let sorted = at.sorted()
                for i in sorted {
                    rows.ids.insert(rows.nextID, at: i)
                    rows.nextID += 1
                }
                list.insertRows(at: sorted)
            case 1 where count > 0:  // delete a few
                var at = Set<Int>()
                for _ in 0..<(1 + g.next(6)) { at.insert(anyRow(count)) }
                for i in at.sorted().reversed() { rows.ids.remove(at: i) }
                list.deleteRows(at: Array(at))
            case 2 where count > 0:  // a row in view (or anywhere) grows or shrinks
                let r = list.visibleCells.keys.sorted().randomElement(using: &g) ?? g.next(count)
                rows.lines[rows.ids[r]] = 1 + g.next(4)
                list.reloadRows(at: [r])
            case 3 where count > 0:
                list.scrollToRow(g.next(count), animated: g.next(2) == 0)
            case 4:
                list.contentOffset = Point(x: 0, y: Double(g.next(Int(clamping: list.contentSize.height) + 1)))
            case 5:  // a flick: four moves a frame apart, lifted with the last
                let y0 = 500.0
                let dy = Double(g.next(800)) - 400
                var b = ScriptBuilder()
                let path = (1...4).map { Point(x: 180, y: y0 + dy * Double($0) / 4) }
                b.drag(from: Point(x: 180, y: y0), through: path, at: 0, step: 1000 / 60, liftAfter: 0, id: 1)
                driver.send(b.script)
            case 6:  // sections change; some empty (starting where another does), some past the end
                let every = 10 + g.next(60)
                var starts = Array(stride(from: 0, to: rows.ids.count, by: every))
                for _ in 0..<g.next(5) {
                    starts.append(g.next(3) == 0 ? rows.ids.count + g.next(3) : starts.randomElement(using: &g) ?? 0)
                }
                rows.sections = starts
                list.reloadData()
            case 7:  // a new width
                window.resize(to: Size(width: Double(280 + g.next(200)), height: 640))
            default:
                break
            }
            frames(1 + g.next(12))
            checkInvariants(list, rows, step: step)
        }
        #expect(driver.failure == nil)
    }
}

extension ListStressTests.Lcg: RandomNumberGenerator {
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
}
