import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayReplay
import ScrollwayRigs
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWestonHarness
import Testing

/// The same scenarios under every compositor the rigs know (weston with our module, sway), each
/// run where it is installed and cancelled, with the reason, where it is not or where the
/// compositor cannot do what the scenario needs.
@MainActor
@Suite(.serialized) struct ConformanceTests {
    /// The first configure sizes the window to the output (kiosk-shell and sway's tiling both
    /// do), and the compositor shows exactly the pixels the offscreen composite draws.
    @Test(arguments: Compositor.allCases) func theFirstFrameIsTheOffscreenComposite(_ c: Compositor) throws {
        let desk = try Desk(c, scene: .list)
        #expect(desk.window.bounds.size == Size(width: 400, height: 300))
        let shown = try desk.rig.capture()
        let expected = try Offscreen.render(desk.window)
        let d = Desk.differences(shown, expected)
        #expect(d.count == 0, "\(d)")

    }
}
