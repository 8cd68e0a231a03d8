import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayReplay
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWestonHarness
import Testing

/// The grid scene in a real window on headless weston, driven by real wl_touch events: a fling
/// through 100,000 thumbnails that reuses its cells and shows on screen exactly what the same
/// window composites offscreen, then a tap that opens the photo under the finger in the pager.
@MainActor
@Suite(.serialized) struct GridInWestonTests {
    @Test func aFlingReusesCellsAndATapOpensThePhoto() throws {
        let (rig, app, window) = try startScene(.grid)
        let grid = try #require(window.view(named: "main") as? CollectionView)
        let made = grid.cellsCreated
        // A fast flick up: the grid flies on after the finger lifts.
        try flick(rig, app, from: Point(x: 200, y: 520), step: Point(x: 0, y: -60), moves: 6)
        #expect(grid.isDecelerating)
        try app.pump(
            until: { app.isAtRest && app.window.content.nextTimerDeadline == nil }, timeout: 15,
            "the fling and the indicator fade to end")
        #expect(grid.contentOffset.y > 1500)
        // Thousands of pixels of thumbnails passed; a screenful of cells served them.
        #expect(grid.cellsCreated <= made + 12)
        let after = try offscreenMismatches(rig, app, width: 390, height: 600)
        #expect(after.count == 0, "\(after.count) pixels differ after the fling, within \(after.box)")

        // The thumbnail under a tap, found where the grid shows it now.
        let target = try #require(
            grid.visibleCells.keys.sorted().first { path in
                let f = grid.frameForItem(at: path)
                return f.minY >= grid.contentOffset.y + 100 && f.maxY <= grid.contentOffset.y + 500
            })
        let frame = grid.convert(grid.frameForItem(at: target), to: nil)
        try tap(rig, app, at: Point(x: frame.midX, y: frame.midY), time: 9000)
        try app.pump(until: { window.view(named: "viewer") != nil }, "the pager to open")
        let viewer = try #require(window.view(named: "viewer") as? PhotoViewer)
        #expect(viewer.currentPhoto == grid.flatIndex(ofItem: target))
        let opened = try offscreenMismatches(rig, app, width: 390, height: 600)
        #expect(opened.count == 0, "\(opened.count) pixels differ with the pager open, within \(opened.box)")
    }
}
