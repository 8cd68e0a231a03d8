import ScrollwayGeometry
import Testing

@testable import ScrollwayScrolling
@testable import ScrollwayViews

/// A tiled view's margin follows its motion: along one axis (a fling down a map) only ahead
/// and behind, since the tiles beside the motion would scroll away unseen as each row of them
/// passes; at rest, and across a diagonal move, all round.
@MainActor
@Suite struct TileMarginTests {
    /// `TiledRig`'s 400 × 300 viewport, 256 px tiles, a 128 px margin, frames a 64th of a
    /// second apart; each frame's tiles are drawn before the next.
    @MainActor final class Frames {
        let rig = TiledRig(source: RecordingSource())
        var time = 0.0

        func frame(at origin: Point) throws {
            rig.viewport.bounds.origin = origin
            time += 1.0 / 64
            try rig.window.prepareFrame(time: time)
            rig.window.finishBackgroundWork()
        }

        /// The (column, row) of each tile drawn since `start` entries of the log.
        func drawn(since start: Int) -> Set<[Int]> {
            Set(
                rig.tiled.rasterized[start...].map {
                    [
                        Int(clamping: $0.tile.minX / 256, rounding: .down),
                        Int(clamping: $0.tile.minY / 256, rounding: .down),
                    ]
                })
        }
    }

    @Test func aMotionAlongOneAxisLeavesOutTheMarginBesideItUntilTheFrameAfter() throws {
        let f = Frames()
        try f.frame(at: Point(x: 1024, y: 1024))
        // At rest: 128 px all round (columns 3 to 6, rows 3 to 5).
        #expect(f.rig.tiled.allowedRect == Rect(x: 896, y: 896, width: 656, height: 556))
        // (The view asked for its tiles at the origin when given its source, too.)
        #expect(f.drawn(since: 0).isSuperset(of: (3...6).flatMap { c in (3...5).map { [c, $0] } }))
        #expect(!f.rig.window.lastFrameAskedForNext)
        // Down 40 points a frame: the margin above and below only. Row 6 comes into reach in
        // the third frame, and only its two columns in view are drawn.
        let start = f.rig.tiled.rasterized.count
        for k in 1...6 {
            try f.frame(at: Point(x: 1024, y: 1024 + 40 * Double(k)))
            #expect(
                f.rig.tiled.allowedRect
                    == Rect(x: 1024, y: 1024 + 40 * Double(k) - 128, width: 400, height: 556), "frame \(k)")
            // The frame after the motion is asked for, with no animation kept running for it.
            #expect(f.rig.window.lastFrameAskedForNext && !f.rig.window.hasActiveAnimations, "frame \(k)")
        }
        #expect(f.drawn(since: start) == [[4, 6], [5, 6]])
        // Still for a frame (the one the motion asked for): the margin beside it comes back,
        // the tiles of it not drawn yet are (those beside rows 4 and 5 wait in the cache since
        // the first frame), and the window rests.
        let still = f.rig.tiled.rasterized.count
        try f.frame(at: Point(x: 1024, y: 1264))
        #expect(f.rig.tiled.allowedRect == Rect(x: 896, y: 1136, width: 656, height: 556))
        #expect(f.drawn(since: still) == [[3, 6], [6, 6]])
        #expect(!f.rig.window.lastFrameAskedForNext && !f.rig.window.hasActiveAnimations)
    }

    @Test func aMoveAcrossMoreThanAnEighthOfItKeepsTheMarginAllRound() throws {
        let f = Frames()
        try f.frame(at: Point(x: 1024, y: 1024))
        // 41 down and 5 across: 5 × 8 < 41, within about 7° of the vertical: none beside it.
        try f.frame(at: Point(x: 1029, y: 1065))
        #expect(f.rig.tiled.allowedRect == Rect(x: 1029, y: 937, width: 400, height: 556))
        // 40 down and 5 across: 5 × 8 is not less than 40: all round.
        try f.frame(at: Point(x: 1034, y: 1105))
        #expect(f.rig.tiled.allowedRect == Rect(x: 906, y: 977, width: 656, height: 556))
        #expect(!f.rig.window.lastFrameAskedForNext)
        // Across only: the margin left and right, none above and below.
        try f.frame(at: Point(x: 1074, y: 1105))
        #expect(f.rig.tiled.allowedRect == Rect(x: 946, y: 1105, width: 656, height: 300))
        #expect(f.rig.window.lastFrameAskedForNext)
        try f.frame(at: Point(x: 1074, y: 1105))
        #expect(f.rig.tiled.allowedRect == Rect(x: 946, y: 977, width: 656, height: 556))
    }
}
