import ScrollwayDemoScenes
import ScrollwayRigs
import ScrollwayScrolling
import ScrollwayViews
import Testing

@testable import ScrollwayWayland

/// A window's buffer scale and its cursor's follow the outputs they are on, on sway's two outputs (the rig's and its
/// parking output to the right, which the scenario makes a 2× output of 400×300): the only rig
/// here with a second output, and one whose outputs a command changes and moves a window
/// between. (An output removed is not played: sway 1.7 answers `output HEADLESS-2 disable` with
/// success and leaves the headless output active, its global in place.)
@MainActor
@Suite(.serialized) struct OutputScaleConformanceTests {
    /// A 2× output the window is not on leaves it drawing at 1× (it drew four times the pixels);
    /// moved onto that output it draws at 2×, and moved back at 1× again.
    @Test func aWindowDrawsAtTheScaleOfTheOutputsItIsOn() throws {
        let desk = try Desk(.sway, scene: .list)
        let sway = try #require(desk.rig as? SwayRig)
        let window = desk.app.window
        #expect(window.bufferSize?.width == 400)

        try sway.command("output HEADLESS-2 resolution 800x600 scale 2")
        // Once the client has heard of the 2× output, the window has chosen its scale again.
        try desk.app.pump(until: { window.connection.bufferScale == 2 }, "the 2× output's scale heard")
        try desk.settle()
        #expect(desk.window.scale == 1, "a 2× output the window is not on set its scale")
        #expect(window.bufferSize?.width == 400)
        // The cursor over the window on the 1× output is drawn at 1× (it was drawn at the
        // largest scale of any output, 2×).
        try pointer(desk, to: (x: 200, y: 150))
        try desk.app.pump(until: { cursorScale(window) != nil }, "the cursor shown over the window")
        try desk.settle()
        #expect(cursorScale(window) == 1, "the cursor over a 1× output beside a 2× one")

        try sway.command("[app_id=scrollway] move container to output HEADLESS-2")
        try desk.app.pump(until: { window.bufferSize?.width == 800 }, "buffers at scale 2 on the 2× output")
        #expect(desk.window.scale == 2)
        // The cursor over the window on the 2× output: its surface enters that output, and its
        // image is the 2× one.
        try pointer(desk, to: (x: 600, y: 150))
        try desk.app.pump(until: { cursorScale(window) == 2 }, "the cursor at scale 2 on the 2× output")

        try sway.command("[app_id=scrollway] move container to output HEADLESS-1")
        try desk.app.pump(until: { window.bufferSize?.width == 400 }, "buffers at scale 1 back on the 1× output")
        #expect(desk.window.scale == 1)
        try pointer(desk, to: (x: 200, y: 150))
        try desk.app.pump(until: { cursorScale(window) == 1 }, "the cursor at scale 1 back on the 1× output")
    }

    /// A feed moved onto the 2× output measures its cards again at 2× (text is measured in
    /// device pixels): each card in view has the frame a window made at 2× gives it. Before,
    /// the cards kept the heights measured at 1×.
    @Test func aFeedMovedToA2xOutputMeasuresItsCardsAgain() throws {
        let desk = try Desk(.sway, scene: .feed)
        let sway = try #require(desk.rig as? SwayRig)
        try sway.command("output HEADLESS-2 resolution 800x600 scale 2")
        try desk.app.pump(until: { desk.app.window.connection.bufferScale == 2 }, "the 2× output's scale heard")
        try sway.command("[app_id=scrollway] move container to output HEADLESS-2")
        try desk.app.pump(until: { desk.app.window.bufferSize?.width == 800 }, "buffers at scale 2 on the 2× output")
        try desk.settle()
        #expect(desk.window.scale == 2)
        let fresh = Scene.feed.makeWindow(size: desk.window.bounds.size, scale: 2)
        fresh.layoutIfNeeded()
        let feed = try #require(desk.window.view(named: "main") as? CollectionView)
        let expected = try #require(fresh.view(named: "main") as? CollectionView)
        #expect(feed.visibleCells.count >= 2 && Set(feed.visibleCells.keys) == Set(expected.visibleCells.keys))
        for (path, cell) in feed.visibleCells {
            #expect(cell.frame == expected.visibleCells[path]?.frame, "item \(path)")
        }
    }

    /// A window across a 1× and a 2× output draws at 2×; the cursor over it is drawn at the
    /// scale of the output it is on, by its own surface's enters and leaves.
    @Test func theCursorIsDrawnAtTheScaleOfTheOutputItIsOn() throws {
        let desk = try Desk(.sway, scene: .list)
        let sway = try #require(desk.rig as? SwayRig)
        let window = desk.app.window
        try sway.command("output HEADLESS-2 resolution 800x600 scale 2")
        try desk.app.pump(until: { window.connection.bufferScale == 2 }, "the 2× output's scale heard")
        try sway.command("[app_id=scrollway] floating enable, resize set 300 200, move absolute position 250 50")
        try desk.app.pump(until: { window.enteredOutputs.count == 2 }, "the window across both outputs")
        try desk.app.pump(until: { desk.window.scale == 2 }, "the window at the larger scale")

        // First over the 2× part, so that each step below changes the cursor's scale.
        try pointer(desk, to: (x: 500, y: 150))
        try desk.app.pump(until: { cursorScale(window) == 2 }, "the cursor at scale 2 over the 2× output")
        try pointer(desk, to: (x: 300, y: 150))
        try desk.app.pump(until: { cursorScale(window) == 1 }, "the cursor at scale 1 over the 1× output")
        try pointer(desk, to: (x: 500, y: 150))
        try desk.app.pump(until: { cursorScale(window) == 2 }, "the cursor at scale 2 again")
    }

    /// The scale of the cursor the window shows, nil when it shows none.
    func cursorScale(_ window: WaylandWindow) -> Int? { window.connection.input?.pointer?.cursorScale }

    /// Moves sway's pointer to `point` of its output layout once the parking output is the 2×
    /// one of 400×300: the virtual pointer's absolute positions are fractions of the layout,
    /// whose size the rig took when that output was 64×64 (`SwayProcess.layoutSize`).
    func pointer(_ desk: Desk, to point: (x: Double, y: Double)) throws {
        let rigLayout = try #require(desk.rig as? SwayRig).process.layoutSize
        let layout = (width: 400.0 + 400, height: 300.0)
        desk.time += 100
        desk.rig.seat.pointerMotion(
            x: point.x / layout.width * Double(rigLayout.width), y: point.y / layout.height * Double(rigLayout.height),
            time: UInt32(clamping: desk.time, rounding: .down))
        desk.rig.seat.pointerFrame()
        try desk.rig.seat.flush()
    }
}
