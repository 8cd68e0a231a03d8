import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// The scenes in a resized window (what `WaylandWindow` does on a configure): pages stay a
/// page wide and keep the page in view, rows take the new width, text is measured again.
@MainActor
@Suite struct SceneResizeTests {
    @Test func thePagingSceneKeepsItsPageAtAnyWidth() throws {
        let d = SceneDriver(.paging)
        d.main.setContentOffset(Point(x: 390 * 2, y: 0), animated: false)
        d.advance(to: 0.1)
        d.window.resize(to: Size(width: 600, height: 700))
        d.advance(to: 0.2)
        #expect(d.main.bounds.size == Size(width: 600, height: 700))
        #expect(d.main.contentSize == Size(width: 600 * Double(Pages.count), height: 700))
        #expect(d.main.contentOffset == Point(x: 1200, y: 0))
        let pages = d.main.subviews.filter { !($0 is ScrollIndicator) }
        #expect(pages.count == Pages.count)
        #expect(pages[2].frame == Rect(x: 1200, y: 0, width: 600, height: 700))
        let indicator = try #require(d.window.view(named: "pageIndicator") as? PageControl)
        #expect(indicator.currentPage == 2)
        #expect(indicator.frame == Rect(x: 0, y: 640, width: 600, height: 24))
        // The page turns by the new width.
        // Five moves 16 ms apart, 200 px to the left; lifted 20 ms after the last.
        d.send(from: 0.3) {
            $0.drag(from: Point(x: 500, y: 300), to: Point(x: 300, y: 300), at: 0, ms: 80, hold: 20, id: 1)
        }
        d.settle()
        #expect(d.main.contentOffset == Point(x: 1800, y: 0))
        #expect(indicator.currentPage == 3)
    }

    @Test func theNestedSceneTakesTheNewWidthAndKeepsThePagersCard() throws {
        let d = SceneDriver(.nested)
        let pager = try #require(d.window.view(named: "pager") as? ScrollView)
        let notes = try #require(d.window.view(named: "notes") as? ScrollView)
        pager.setContentOffset(Point(x: 390, y: 0), animated: false)
        let notesHeightBefore = notes.contentSize.height
        let mainHeightBefore = d.main.contentSize.height
        d.advance(to: 0.1)
        d.window.resize(to: Size(width: 700, height: 800))
        d.advance(to: 0.2)
        #expect(pager.frame == Rect(x: 0, y: NestedFeed.headerHeight, width: 700, height: NestedFeed.pagerHeight))
        #expect(pager.contentSize.width == 700 * Double(NestedFeed.cards))
        #expect(pager.contentOffset == Point(x: 700, y: 0))  // still card 2
        let cards = pager.subviews.filter { !($0 is ScrollIndicator) }
        #expect(cards[1].frame == Rect(x: 716, y: 12, width: 668, height: NestedFeed.pagerHeight - 24))
        #expect(notes.frame.width == 700 - 32)
        // Wider notes wrap no more than before (each line fits): the same height or less.
        #expect(notes.contentSize.height <= notesHeightBefore)
        #expect(notes.contentSize.width == 700 - 32)
        #expect(d.main.contentSize == Size(width: 700, height: mainHeightBefore))
        // Every row and header spans the window.
        let feed = d.main.subviews.filter { $0 !== pager && $0 !== notes && !($0 is ScrollIndicator) }
        #expect(feed.allSatisfy { $0.frame.width == 700 })
        // Narrower than the text: the notes wrap, grow, and still scroll to their end.
        d.window.resize(to: Size(width: 240, height: 800))
        d.advance(to: 0.3)
        #expect(notes.contentSize.height > notesHeightBefore)
        #expect(pager.contentOffset == Point(x: 240, y: 0))
    }

    @Test func theListMeasuresItsRowsAgainAndKeepsTheRowInView() throws {
        let d = SceneDriver(.list)
        d.list.contentOffset = Point(x: 0, y: 5000)
        d.advance(to: 0.1)
        // The row at the top of the viewport is the one that stays put.
        let top = d.list.bounds.minY
        let row = try #require(
            d.list.visibleCells.first { $0.value.frame.minY <= top && $0.value.frame.maxY > top }?.key)
        let y = d.list.visibleCells[row]!.convert(Point.zero, to: nil).y
        let heightsBefore = (row..<row + 6).map { d.list.rectForRow($0).height }
        // So narrow that "A second line of text" wraps: two- and three-line rows grow.
        d.window.resize(to: Size(width: 150, height: 844))
        d.advance(to: 0.2)
        let cell = try #require(d.list.visibleCells[row])
        #expect(cell.frame.width == 150)
        #expect(cell.convert(Point.zero, to: nil).y == y)  // the row stayed where it was
        for r in row..<row + 6 {
            let c = try #require(d.list.visibleCells[r])
            let expected = c.sizeThatFits(Size(width: 150, height: .greatestFiniteMagnitude)).height
            #expect(d.list.rectForRow(r).height == expected)
            if r % 3 != 0 { #expect(expected > heightsBefore[r - row]) }
        }
        #expect(d.list.visibleCells.values.allSatisfy { $0.frame.width == 150 })
        #expect(d.list.contentSize.width == 150)
        // Back to the first width: the same heights as at first, the same row in the same place.
        d.window.resize(to: Size(width: 390, height: 844))
        d.advance(to: 0.3)
        #expect((row..<row + 6).map { d.list.rectForRow($0).height } == heightsBefore)
        #expect(d.list.visibleCells[row]!.convert(Point.zero, to: nil).y == y)
    }

    @Test func theZoomSceneDrawsTheTilesABiggerWindowShows() throws {
        let d = SceneDriver(.zoom)
        let tiled = try #require(d.window.view(named: "tiles") as? TiledView)
        d.window.resize(to: Size(width: 1000, height: 1000))
        d.advance(to: 0.1)
        d.window.finishBackgroundWork()
        d.advance(to: 0.5)  // past the fade-in
        #expect(tiled.coversVisibleRect)
        // Every point of the bigger window shows a tile (sampled every 40 px).
        let tiles = tiled.subviews.map(\.frame)
        var uncovered = 0
        for y in stride(from: 1.0, to: 1000, by: 40) {
            for x in stride(from: 1.0, to: 1000, by: 40) {
                let p = tiled.convert(Point(x: x, y: y), from: nil)
                if !tiles.contains(where: { $0.contains(p) }) { uncovered += 1 }
            }
        }
        #expect(uncovered == 0)
    }

    @Test func theRefreshAndKeyboardScenesSpanTheNewWidth() throws {
        let refresh = SceneDriver(.refresh)
        refresh.window.resize(to: Size(width: 640, height: 600))
        refresh.advance(to: 0.1)
        let rows = refresh.main.subviews.filter { !($0 is ScrollIndicator) && !($0 is RefreshControl) }
        #expect(rows.count == Feed.initialRows)
        #expect(rows.allSatisfy { $0.frame.width == 640 })
        #expect(refresh.main.contentSize == Size(width: 640, height: Double(Feed.initialRows) * Feed.rowHeight))

        let keyboard = SceneDriver(.keyboard)
        let field = try #require(keyboard.window.view(named: "field1"))
        #expect(field.frame.width == 390 - 32)
        keyboard.window.resize(to: Size(width: 640, height: 600))
        keyboard.advance(to: 0.1)
        #expect(field.frame.width == 640 - 32)
        #expect(keyboard.main.contentSize.width == 640)
    }
}
