import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayRigs
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWestonHarness
import Testing

@testable import ScrollwayWayland

/// Outputs unplugged while the window or the cursor is on them, on weston (our module plugs in
/// headless outputs and unplugs them, in either of weston's two orders: `OutputRemoval`). sway
/// 1.7 cannot play it: wlroots 0.15's headless backend refuses to disable an output
/// (`output HEADLESS-2 disable` succeeds in swaymsg and leaves the output, its global in place),
/// and sway 1.7 has no `output unplug`.
///
/// Each unplugged output's wl_output is released (`WaylandConnection.removeOutput`); the window
/// then draws at the scale of the outputs left, the cursor likewise, and frames go on.
@MainActor
@Suite(.serialized) struct OutputRemovalConformanceTests {
    /// A window on the rig's 1× output and on a 2× output mirroring it draws at 2×; the 2× one
    /// unplugged, it draws at 1× (buffers of 400×300), the cursor over it too, and a flick still
    /// scrolls it, frame after frame. With the heads detached first no wl_surface.leave comes
    /// for the output: the registry's global_remove alone takes it off the window and cursor.
    @Test(arguments: [TestInputClient.OutputRemoval.outputFirst, .headsFirst])
    func aWindowOnAnUnplugged2xOutputDrawsAt1x(_ how: TestInputClient.OutputRemoval) throws {
        let desk = try Desk(.weston, scene: .list, needs: [.pointer, .touch])
        let weston = try #require(desk.rig as? WestonRig)
        let window = desk.app.window
        try plug(desk, "mirror", scale: 2)
        try desk.app.pump(until: { window.enteredOutputs.count == 2 }, "the window on both outputs")
        try desk.app.pump(until: { window.bufferSize?.width == 800 }, "buffers at scale 2")
        try pointer(desk, to: Point(x: 200, y: 150))
        try desk.app.pump(until: { cursorScale(window) == 2 }, "the cursor at scale 2 on both outputs")

        try unplug(weston, "mirror", how)
        try desk.app.pump(until: { window.connection.outputCount == 1 }, "the 2× output forgotten")
        try desk.app.pump(until: { window.bufferSize?.width == 400 }, "buffers at scale 1 on the output left")
        #expect(window.enteredOutputs.count == 1)
        #expect(desk.window.scale == 1)
        try desk.app.pump(until: { cursorScale(window) == 1 }, "the cursor at scale 1 on the output left")

        let list = try desk.scrollView
        let frames = window.framesCommitted
        try desk.play { $0.flick(from: Point(x: 200, y: 250), by: Point(x: 0, y: -150), at: 0) }
        #expect(list.contentOffset.y > 150, "the flick moved the list to \(list.contentOffset.y)")
        #expect(window.framesCommitted > frames + 5, "\(window.framesCommitted - frames) frames for a flick")
        #expect(window.bufferSize?.width == 400)
    }

    /// The only output unplugged leaves the window on none (its frame callback waits); a 2×
    /// output plugged in then takes it, and it draws at 2×, comes to rest and scrolls.
    @Test(arguments: [TestInputClient.OutputRemoval.outputFirst, .headsFirst])
    func theOnlyOutputUnpluggedThenA2xOnePluggedIn(_ how: TestInputClient.OutputRemoval) throws {
        let desk = try Desk(.weston, scene: .list, needs: [.touch])
        let weston = try #require(desk.rig as? WestonRig)
        let window = desk.app.window
        #expect(window.bufferSize?.width == 400)

        try unplug(weston, "headless", how)
        try desk.app.pump(until: { window.connection.outputCount == 0 }, "no output left")
        #expect(window.enteredOutputs.isEmpty)

        try plug(desk, "new", scale: 2)
        try desk.app.pump(until: { window.enteredOutputs.count == 1 }, "the window on the new output")
        try desk.app.pump(until: { window.bufferSize?.width == 800 }, "buffers at the new output's scale")
        try desk.settle()
        #expect(desk.window.scale == 2)
        let list = try desk.scrollView
        try desk.play { $0.flick(from: Point(x: 200, y: 250), by: Point(x: 0, y: -150), at: 0) }
        #expect(list.contentOffset.y > 150, "the flick moved the list to \(list.contentOffset.y)")
        #expect(window.bufferSize?.width == 800)
    }

    /// Outputs plugged in and unplugged again and again, both ways: each is forgotten (its
    /// proxy released), the count of outputs comes back to the one the window started with, and
    /// the window is back at 1× on the rig's output each time.
    @Test func outputsPluggedInAndUnpluggedAgainLeaveNoneBehind() throws {
        let desk = try Desk(.weston, scene: .list)
        let weston = try #require(desk.rig as? WestonRig)
        let window = desk.app.window
        let before = window.connection.outputCount
        for round in 0..<6 {
            try plug(desk, "extra\(round)", scale: 2)
            try desk.app.pump(until: { window.bufferSize?.width == 800 }, "buffers at scale 2 (round \(round))")
            try unplug(weston, "extra\(round)", round % 2 == 0 ? .outputFirst : .headsFirst)
            try desk.app.pump(until: { window.bufferSize?.width == 400 }, "buffers at scale 1 (round \(round))")
            #expect(window.connection.outputCount == before, "round \(round)")
            #expect(window.enteredOutputs.count == 1, "round \(round)")
        }
        try desk.settle()
    }

    /// Plugs in a `scale`× output of the rig's size over the rig's output (a mirrored monitor)
    /// and, once the app has bound it, puts the window on it (weston sends wl_surface.enter
    /// only for outputs bound by then: `TestInputClient.reassignViews`).
    func plug(_ desk: Desk, _ name: String, scale: Int) throws {
        let weston = try #require(desk.rig as? WestonRig)
        let connection = desk.app.window.connection
        let before = connection.outputCount
        weston.input.addOutput(name: name, x: 0, y: 0, width: 400, height: 300, scale: scale)
        try weston.input.roundtrip()
        try desk.app.pump(until: { connection.outputCount == before + 1 }, "output \(name) bound")
        try connection.roundtrip()
        weston.input.reassignViews()
        try weston.input.roundtrip()
    }

    func unplug(_ weston: WestonRig, _ name: String, _ how: TestInputClient.OutputRemoval) throws {
        weston.input.removeOutput(name: name, how)
        try weston.input.roundtrip()
    }

    /// The scale of the cursor the window shows, nil when it shows none.
    func cursorScale(_ window: WaylandWindow) -> Int? { window.connection.input?.pointer?.cursorScale }

    func pointer(_ desk: Desk, to point: Point) throws {
        desk.time += 100
        desk.rig.seat.pointerMotion(x: point.x, y: point.y, time: UInt32(clamping: desk.time, rounding: .down))
        desk.rig.seat.pointerFrame()
        try desk.rig.seat.flush()
    }
}
