import ScrollwayDemoScenes
import ScrollwayRigs
import ScrollwayViews
import Testing

@testable import ScrollwayWayland

/// A window's buffer scale follows the outputs it is on, on sway's two outputs (the rig's and its
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

        try sway.command("[app_id=scrollway] move container to output HEADLESS-2")
        try desk.app.pump(until: { window.bufferSize?.width == 800 }, "buffers at scale 2 on the 2× output")
        #expect(desk.window.scale == 2)

        try sway.command("[app_id=scrollway] move container to output HEADLESS-1")
        try desk.app.pump(until: { window.bufferSize?.width == 400 }, "buffers at scale 1 back on the 1× output")
        #expect(desk.window.scale == 1)
    }
}
