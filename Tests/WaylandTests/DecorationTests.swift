import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayHeadless
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWestonHarness
import Testing

@MainActor
@Suite struct DecorationTests {
    @Test func theTitleBarSitsAboveTheContentAndItsControlsWork() throws {
        let window = Window(size: Size(width: 400, height: 300))
        let main = ScrollView()
        main.fillsSuperview = true
        window.addSubview(main)
        let bar = TitleBar(title: "Scrollway")
        var closed = 0
        var moves = 0
        bar.onClose = { closed += 1 }
        bar.onMoveRequest = { moves += 1 }
        bar.frame = Rect(x: 0, y: 0, width: 400, height: TitleBar.height)
        window.addSubview(bar)
        window.fillInsets = EdgeInsets(top: TitleBar.height, left: 0, bottom: 0, right: 0)
        let canvas = try Offscreen.render(window)
        #expect(main.frame == Rect(x: 0, y: 32, width: 400, height: 268))
        #expect(bar.frame.maxY == main.frame.minY)
        // The title is drawn in the bar (dark text pixels near the centre), nothing below it.
        let inked = (0..<32).contains { y in (150..<250).contains { canvas.pixel(x: $0, y: y) & 0xff < 100 } }
        #expect(inked)
        // A click on the close button closes; a press that travels on the bar moves the window;
        // a click on the bar is the scroll-to-top gesture (the desktop's status-bar tap).
        let driver = FrameDriver(window: window)
        func click(_ p: Point, at t: Double, drag: Double = 0) {
            driver.send(.pointerMotion(position: p), at: t)
            driver.send(.pointerButton(.left, pressed: true), at: t)
            if drag > 0 { driver.send(.pointerMotion(position: Point(x: p.x + drag, y: p.y)), at: t + 0.02) }
            driver.send(.pointerButton(.left, pressed: false), at: t + 0.05)
        }
        click(Point(x: 385, y: 16), at: 1)
        #expect(closed == 1 && moves == 0)
        click(Point(x: 100, y: 16), at: 2, drag: 30)
        #expect(moves == 1 && closed == 1)
        main.contentSize = Size(width: 400, height: 3000)
        main.contentOffset = Point(x: 0, y: 900)
        click(Point(x: 100, y: 16), at: 3)
        #expect(moves == 1 && closed == 1)
        driver.advance(to: 5)
        #expect(driver.failure == nil)
        #expect(main.contentOffset.y == 0)
        // The click that activates the window only raises and focuses it; the next one scrolls.
        main.contentOffset = Point(x: 0, y: 900)
        window.isKeyWindow = false
        window.isKeyWindow = true
        driver.send(.pointerButton(.left, pressed: true), at: 6)
        driver.send(.pointerButton(.left, pressed: false), at: 6.05)
        driver.advance(to: 7)
        #expect(main.contentOffset.y == 900)
        driver.send(.pointerButton(.left, pressed: true), at: 8)
        driver.send(.pointerButton(.left, pressed: false), at: 8.05)
        driver.advance(to: 10)
        #expect(main.contentOffset.y == 0)
    }

    @Test func resizeEdgesAreSixPixelsWideWithCorners() {
        let size = Size(width: 400, height: 300)
        #expect(ResizeEdge.at(Point(x: 200, y: 150), in: size) == 0)
        #expect(ResizeEdge.at(Point(x: 200, y: 5.9), in: size) == 1)  // top
        #expect(ResizeEdge.at(Point(x: 200, y: 6), in: size) == 0)
        #expect(ResizeEdge.at(Point(x: 200, y: 294), in: size) == 2)  // bottom
        #expect(ResizeEdge.at(Point(x: 3, y: 150), in: size) == 4)  // left
        #expect(ResizeEdge.at(Point(x: 396, y: 150), in: size) == 8)  // right
        #expect(ResizeEdge.at(Point(x: 2, y: 2), in: size) == 5)  // top left
        #expect(ResizeEdge.at(Point(x: 399, y: 299), in: size) == 10)  // bottom right
        #expect(ResizeEdge.at(Point(x: -1, y: 2), in: size) == 0)
    }
}

@MainActor
@Suite(.serialized) struct KioskDecorationTests {
    @Test func aKioskWindowIsFullscreenWithoutATitleBar() throws {
        let rig = try WestonRig(width: 390, height: 600)
        let window = Scene.list.makeWindow(size: Size(width: 390, height: 600))
        let app = try WaylandApp(content: window, title: "kiosk", socket: rig.socketPath)
        try app.settle()
        #expect(app.window.isFullscreen)
        #expect(!app.window.drawsTitleBar && app.window.titleBar == nil)
        #expect(window.view(named: "main")?.frame == Rect(x: 0, y: 0, width: 390, height: 600))
    }
}
