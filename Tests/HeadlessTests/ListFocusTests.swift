import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// A focused row moves the focus through the list's 100,000 rows as a desktop list does (and a
/// screen reader says each row it lands on): Up and Down by a row, Page Up and Page Down by a
/// page, Home and End to the ends, the list following so the focused row is in full view.
@MainActor
@Suite struct ListFocusTests {
    let d = SceneDriver(.list)

    /// Presses and releases `key` 50 ms apart, a frame after now, then lets motion settle.
    func press(_ key: Key) {
        let t = d.time + 0.02
        d.send(.key(key, pressed: true, modifiers: []), at: t)
        d.send(.key(key, pressed: false, modifiers: []), at: t + 0.05)
        d.driver.settle()
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
