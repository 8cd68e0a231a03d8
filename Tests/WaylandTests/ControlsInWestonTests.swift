import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayReplay
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWestonHarness
import Testing

/// The paging scene's page control under weston's real touch: a tap beside the dots turns a
/// page and a drag along them scrubs to the page under the finger; the pages are shown turned.
@MainActor
@Suite(.serialized) struct ControlsInWestonTests {
    @Test func thePageControlTurnsAndScrubsThePagesUnderRealTouch() throws {
        let rig = try WestonRig(width: 390, height: 844)
        let window = Scene.paging.makeWindow()
        let app = try WaylandApp(content: window, title: "Scrollway page control test", socket: rig.socketPath)
        try app.settle()
        let main = try #require(window.view(named: "main") as? ScrollView)
        let control = try #require(window.view(named: "pageIndicator") as? PageControl)
        // The control is 24 high at y 784; six dots' centres 19 px apart from x 147.5.
        func dot(_ page: Int) -> Point { Point(x: 147.5 + 19 * Double(page), y: 796) }
        func rgb(_ c: Canvas, _ x: Int, _ y: Int) -> UInt32 { c.pixel(x: x, y: y) & 0xFF_FFFF }

        try tap(rig, app, at: Point(x: 320, y: 796), time: 1000)
        try app.pump(
            until: { control.currentPage == 1 && main.contentOffset.x == 390 && !main.isScrollAnimating },
            "a page's turn")
        try rig.parkPointer()
        try app.settle()
        #expect(rgb(try rig.capture(), 200, 300) == 0xF5_A623)  // page 2, orange

        try WestonTarget(rig: rig, app: app).send(from: 3000) { b in
            b.touch(
                from: dot(1), at: 0, moves: (1...3).map { (t: Double($0 * 16), to: dot(1 + $0)) }, liftAt: 80)
        }
        try app.pump(until: { main.contentOffset.x == 1560 && !main.isScrollAnimating }, "the scrub's pages")
        #expect(control.currentPage == 4)
        try rig.parkPointer()
        try app.settle()
        #expect(rgb(try rig.capture(), 200, 300) == 0x90_13FE)  // page 5, purple
    }
}
