import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWestonHarness
import Testing

/// A scene made at its preferred size (as `scrollway demo` makes it) and mapped by kiosk-shell,
/// which configures it to the output's size: the scene lays itself out again for that size.
@MainActor
@Suite(.serialized) struct ResizeInWestonTests {
    @Test func thePagingSceneFillsAKioskOutputOfAnotherSizePageByPage() throws {
        let rig = try WestonRig(width: 600, height: 500)
        let window = Scene.paging.makeWindow()  // 390 × 844
        let app = try WaylandApp(content: window, title: "Scrollway resize test", socket: rig.socketPath)
        try app.settle()
        let main = try #require(window.view(named: "main") as? ScrollView)
        #expect(window.bounds.size == Size(width: 600, height: 500))
        #expect(main.contentSize == Size(width: 600 * Double(Pages.count), height: 500))
        try rig.parkPointer()
        try app.settle()
        func rgb(_ c: Canvas, _ x: Int, _ y: Int) -> UInt32 { c.pixel(x: x, y: y) & 0xFF_FFFF }
        let red: UInt32 = 0xD0_021B
        let orange: UInt32 = 0xF5_A623
        var shown = try rig.capture()
        // Page 1 spans the whole output (at 390 wide, page 2 would begin at x = 390).
        #expect(rgb(shown, 10, 100) == red)
        #expect(rgb(shown, 590, 100) == red)
        // A flick turns exactly one page of the new width.
        try flick(rig, app, from: Point(x: 500, y: 250), step: Point(x: -40, y: 0))
        try app.settle()
        #expect(main.contentOffset == Point(x: 600, y: 0))
        try rig.parkPointer()
        try app.settle()
        shown = try rig.capture()
        #expect(rgb(shown, 10, 100) == orange)
        #expect(rgb(shown, 590, 100) == orange)
    }
}
