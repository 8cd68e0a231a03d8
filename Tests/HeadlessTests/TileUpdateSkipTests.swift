import ScrollwayGeometry
import ScrollwayViews
import Testing

@testable import ScrollwayScrolling

/// `updateTiles` runs on every scrolled frame; when the scroll stays within the same tiles and
/// nothing is in flight it only records the new rects (the clock, which stamps tiles for
/// eviction, does not move), and any change that needs work makes it do the work again.
@MainActor
@Suite struct TileUpdateSkipTests {
    @Test func aScrollWithinTheSameTilesSkipsTheWorkAndAnythingElseDoesNot() throws {
        let rig = TiledRig(source: RecordingSource())
        rig.tiled.updateTiles()
        rig.window.finishBackgroundWork()
        try rig.window.prepareFrame(time: 0)
        // 400 × 300 at the origin: columns 0–1 and rows 0–1 show, the margin reaches column 2.
        #expect(rig.tiled.tileCount == 6)
        rig.tiled.updateTiles()  // the first update after deliveries does the work
        let clock = rig.tiled.clock
        rig.tiled.updateTiles()
        #expect(rig.tiled.clock == clock)
        let drawn = rig.tiled.rasterizedTileCount

        rig.scroll(to: Point(x: 10, y: 10))  // the same tiles show and are wanted
        #expect(rig.tiled.clock == clock)
        #expect(rig.tiled.visibleRect == Rect(x: 10, y: 10, width: 400, height: 300))
        #expect(rig.tiled.allowedRect == Rect(x: 0, y: 0, width: 538, height: 438))

        rig.scroll(to: Point(x: 200, y: 0))  // column 2 now shows
        #expect(rig.tiled.clock == clock + 1)
        rig.scroll(to: Point(x: 201, y: 0))
        #expect(rig.tiled.clock == clock + 1)

        rig.tiled.setNeedsDisplay(in: Rect(x: 0, y: 0, width: 10, height: 10))  // same place, stale tile
        #expect(rig.tiled.clock == clock + 2)
        rig.window.finishBackgroundWork()
        try rig.window.prepareFrame(time: 0.1)
        #expect(rig.tiled.rasterizedTileCount > drawn)
        rig.scroll(to: Point(x: 202, y: 0))  // the redrawn tile arrived: one more update does the work
        #expect(rig.tiled.clock == clock + 3)
        rig.scroll(to: Point(x: 203, y: 0))
        #expect(rig.tiled.clock == clock + 3)

        rig.tiled.memoryCap = 1 << 20  // a smaller cap: evicts on the next update
        rig.scroll(to: Point(x: 204, y: 0))
        #expect(rig.tiled.clock == clock + 4)
    }
}
