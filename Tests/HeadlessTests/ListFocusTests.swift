import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// List rows in the Tab order: Tab focuses the first row in view, goes on row by row past the
/// rows that have cells (the list scrolls each into view), a focused row shows its ring, and
/// Space or Return selects it when the list has a selection callback. A focused row moves the
/// focus through all 100,000 rows as a desktop list does (and a screen reader says each row it
/// lands on): Up and Down by a row, Page Up and Page Down by a page, Home and End to the ends,
/// the list following so the focused row is in full view.
@MainActor
@Suite struct ListFocusTests {
    let d = SceneDriver(.list)

    func press(_ key: Key, _ modifiers: Modifiers = []) {
        let t = d.time + 0.02
        d.send(.key(key, pressed: true, modifiers: modifiers), at: t)
        d.send(.key(key, pressed: false, modifiers: modifiers), at: t + 0.05)
        d.driver.settle()
    }

    var focusedRow: Int? {
        (d.window.focusedView as? ListCell).flatMap { d.list.row(for: $0) }
    }

    @Test func tabGoesRowByRowAndTheListFollows() {
        press(.tab)
        #expect(focusedRow == 0)
        let inView = d.list.visibleCells.keys.max()!
        // Past every row that has a cell now: the list scrolls, and the focused row is in view
        // with the margin.
        for _ in 0..<(inView + 5) { press(.tab) }
        #expect(focusedRow == inView + 5)
        let cell = d.window.focusedView!
        let r = cell.convert(cell.bounds, to: nil)
        #expect(r.minY >= 0 && r.maxY + ScrollView.focusMargin <= d.list.bounds.height + 0.5, "\(r)")
        #expect(d.list.contentOffset.y > 0)
        press(.tab, .shift)
        #expect(focusedRow == inView + 4)
    }

    @Test func aFocusedRowShowsItsRingAndSpaceSelectsIt() throws {
        var selected: [Int] = []
        d.list.onSelectRow = { selected.append($0) }
        d.list.reloadData()
        d.driver.settle()
        press(.tab)
        press(.tab)
        #expect(focusedRow == 1)
        let offset = d.list.contentOffset
        press(.space)
        press(.enter)
        #expect(selected == [1, 1])
        // Space selected rather than paging the list.
        #expect(d.list.contentOffset == offset)
        // The ring: the tint along the row's top edge.
        let cell = try #require(d.window.focusedView)
        let canvas = try Offscreen.render(d.window)
        let p = cell.convert(Point(x: cell.bounds.midX, y: 1), to: nil)
        let ring = canvas.color(x: Int(clamping: p.x), y: Int(clamping: p.y))
        #expect(ring.blue > 0.9 && ring.red < 0.3, "\(ring)")
        // Unfocused (Escape is not the row's; focus it away), no ring.
        d.window.focus(nil, byTouch: false)
        d.driver.settle()
        let after = try Offscreen.render(d.window).color(x: Int(clamping: p.x), y: Int(clamping: p.y))
        #expect(after.red > 0.5, "\(after)")
    }

    /// Without a selection callback Space pages the list as ever, even with a row focused.
    @Test func withoutASelectionCallbackSpaceStillPages() {
        press(.tab)
        #expect(focusedRow == 0)
        press(.space)
        #expect(d.list.contentOffset.y > 0)
    }

    /// A focused row scrolled far away keeps its cell and the focus, as GTK 4's list keeps
    /// its focused item: no other row's cell inherits the focus, and Down goes on from the
    /// focused row, the list coming back to it. (The focus had been given up: Down then did
    /// nothing, and a screen reader was left on a cell showing another row.)
    @Test func aFocusedRowScrolledFarAwayKeepsTheFocusAndDownGoesOnFromIt() throws {
        press(.tab)
        press(.down)
        #expect(focusedRow == 1)
        let kept = try #require(d.window.focusedView as? ListCell)
        d.list.scrollToRow(500)
        d.driver.settle()
        #expect(d.window.focusedView === kept && focusedRow == 1)
        #expect(d.list.visibleCells.values.filter(\.isFocused).count == 1)
        #expect(kept.textLabel.text == ListRows.text(1))
        // Reused cells for the rows in view: none is focused but the kept one.
        #expect(d.list.visibleCells.filter { $0.value.isFocused }.map(\.key) == [1])
        press(.down)
        #expect(focusedRow == 2)
        let r = try #require(d.window.focusedView).convert(try #require(d.window.focusedView).bounds, to: nil)
        #expect(r.minY >= 0 && r.maxY <= d.list.bounds.height + 0.5, "row 3 is not in view: \(r)")
        // Its cell, no longer focused, goes back to the pool once it is out of range.
        d.list.scrollToRow(800)
        d.driver.settle()
        #expect(d.list.visibleCells[1] == nil)
    }

    /// The kept cell follows its row while away: rows inserted above it move it down, and back
    /// in view it stands where its row is, not where it was left (it had kept its old frame
    /// over a neighbour); a list still at the same rows takes its fast path with it kept.
    @Test func aKeptFocusedRowComesBackWhereItsRowIs() throws {
        press(.tab)
        press(.down)
        let kept = try #require(d.window.focusedView as? ListCell)
        d.list.scrollToRow(500)
        d.driver.settle()
        d.insertRows(at: [0, 1, 2])
        d.driver.settle()
        #expect(d.list.row(for: kept) == 4 && kept.isFocused)
        #expect(kept.frame == d.list.rectForRow(4), "\(kept.frame) against \(d.list.rectForRow(4))")
        d.list.contentOffset = Point(x: 0, y: 0)
        d.driver.settle()
        #expect(kept.frame == d.list.rectForRow(4))
        let others = d.list.visibleCells.filter { $0.value !== kept }.map(\.value.frame)
        #expect(others.allSatisfy { !$0.intersects(kept.frame.insetBy(dx: 0, dy: 0.5)) }, "a row overlaps the kept one")
    }

    /// The focus on a control inside a row's cell (a switch in a settings row) keeps the cell
    /// too: it had been recycled with the control still focused, which another row then showed.
    @Test func aFocusedControlInsideARowKeepsItsCell() throws {
        d.driver.settle()
        let cell = try #require(d.list.visibleCells[1])
        let toggle = Switch(frame: Rect(x: 300, y: 0, width: 59, height: 44))
        cell.addSubview(toggle)
        toggle.becomeFocused()
        d.list.scrollToRow(500)
        d.driver.settle()
        #expect(toggle.isFocused && d.list.visibleCells[1] === cell && toggle.superview === cell)
        #expect(
            d.list.visibleCells.filter { d.window.focusedView?.isDescendant(of: $0.value) == true }.map(\.key) == [1])
    }

    /// The focused row's number and whether its cell is in full view (below any pinned header).
    func focused() throws -> (row: Int, inView: Bool) {
        let cell = try #require(d.window.focusedView as? ListCell, "no row has the focus")
        let row = try #require(d.list.row(for: cell))
        let r = cell.convert(cell.bounds, to: d.list)
        let visible = d.list.bounds.inset(by: d.list.adjustedContentInset)
        return (row, r.minY >= visible.minY - 0.5 && r.maxY <= visible.maxY + 0.5)
    }

    @Test func theFocusMovesByRowsPagesAndToTheEnds() throws {
        press(.tab)
        #expect(try focused().row == 0)
        press(.down)
        press(.down)
        #expect(try focused().row == 2)
        press(.up)
        #expect(try focused().row == 1)

        // A page down lands on the row a page (the view less the overlap) below, in view.
        let from = d.list.rectForRow(1).minY
        press(.pageDown)
        let paged = try focused()
        let page = d.list.bounds.inset(by: d.list.adjustedContentInset).height - ScrollView.pageOverlap
        #expect(paged.inView)
        #expect(d.list.rectForRow(paged.row).contains(Point(x: 1, y: from + page)), "row \(paged.row)")
        let back = d.list.rectForRow(paged.row).minY - page
        press(.pageUp)
        let up = try focused()
        #expect(up.inView && d.list.rectForRow(up.row).contains(Point(x: 1, y: max(0, back))), "row \(up.row)")

        press(.end)
        #expect(try focused() == (d.list.rowCount - 1, true))
        press(.down)
        #expect(try focused().row == d.list.rowCount - 1)
        press(.home)
        #expect(try focused() == (0, true))
        press(.up)
        #expect(try focused().row == 0)
    }
}
