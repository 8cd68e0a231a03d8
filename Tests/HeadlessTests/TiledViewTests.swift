import DemoScenes
import Geometry
import Gestures
import Scrolling
import Testing
import Views

@Suite struct TiledViewTests {
    func tiles(_ d: SceneDriver) -> TiledView { d.window.view(named: "tiles") as! TiledView }

    /// A fast fling in direction (dx, dy) from the centre.
    func fling(_ d: SceneDriver, dx: Double, dy: Double) {
        let t0 = d.time + 0.1
        let c = Point(x: 195, y: 422)
        d.send(.touchDown(id: 1, position: c), at: t0)
        for i in 1...5 {
            d.send(
                .touchMotion(id: 1, position: Point(x: c.x + dx * Double(i) / 5, y: c.y + dy * Double(i) / 5)),
                at: t0 + Double(i) * 0.01)
        }
        d.send(.touchUp(id: 1), at: t0 + 0.06)
        d.run(until: d.time + 2)
    }

    /// The zoom scene with tiles drawn synchronously, or on worker threads with every frame
    /// waiting for them (as the headless platform does): both must behave alike.
    func zoomScene(asynchronous: Bool) -> SceneDriver {
        let d = SceneDriver(.zoom)
        let tiled = tiles(d)
        d.window.waitsForBackgroundWork = true
        if !asynchronous {
            tiled.rasterizesAsynchronously = false
            tiled.updateTiles()
        }
        return d
    }

    @Test(arguments: [false, true])
    func tileMemoryStaysUnderTheCapAndOnlyVisibleTilesAreDrawn(asynchronous: Bool) {
        let d = zoomScene(asynchronous: asynchronous)
        let tiled = tiles(d)
        tiled.memoryCap = 6 << 20  // 24 tiles of 256²: forces eviction
        var peak = 0
        var checked = 0
        var violations: [String] = []
        d.afterFrame = {
            peak = max(peak, tiled.memoryInUse)
            // Every tile drawn since the last frame meets what is visible (from the scroll view's
            // own offset and zoom) plus the margin.
            let s = d.main
            let z = s.zoomScale
            let visible = Rect(
                x: s.contentOffset.x / z, y: s.contentOffset.y / z, width: s.bounds.width / z,
                height: s.bounds.height / z)
            let pad = tiled.margin / z
            let allowed = visible.insetBy(dx: -pad, dy: -pad)
            for entry in tiled.rasterized[checked...] where !entry.tile.intersects(allowed) {
                violations.append("\(entry.tile) outside \(allowed)")
            }
            checked = tiled.rasterized.count
        }
        for (dx, dy) in [(-300.0, 0.0), (0, -400), (300, 0), (0, 400), (-300, -400), (300, 400)] {
            fling(d, dx: dx, dy: dy)
        }
        #expect(tiled.rasterized.count > 40)  // it really drew across the map
        #expect(peak <= tiled.memoryCap, "peak \(peak) bytes")
        #expect(violations.isEmpty, "\(violations.prefix(3))")
    }

    @Test(arguments: [false, true])
    func theLevelOfDetailFollowsTheZoom(asynchronous: Bool) {
        let d = zoomScene(asynchronous: asynchronous)
        let tiled = tiles(d)
        #expect(tiled.level == 1)
        for (zoom, level) in [(0.25, 0.25), (0.1, 0.125), (3.0, 4.0), (8.0, 8.0), (1.0, 1.0)] {
            d.main.setZoomScale(zoom, animated: false)
            d.run(until: d.time + 0.05)
            #expect(tiled.level == level, "zoom \(zoom)")
            // The tiles on screen are all at that level, drawn at its scale.
            let shown = tiled.subviews.compactMap(\.contentsScale)
            #expect(!shown.isEmpty && shown.allSatisfy { $0 == level }, "zoom \(zoom): \(Set(shown))")
        }
        #expect(TiledView.level(forZoom: 1.5, deviceScale: 2) == 4)
        #expect(TiledView.level(forZoom: 0.001) == 1.0 / 64)
    }
}

@Suite struct PagingSceneTests {
    @Test func aFlickTurnsOnePageAndTheIndicatorFollows() {
        let d = SceneDriver(.paging)
        let indicator = d.window.view(named: "pageIndicator") as! PageIndicator
        #expect(indicator.currentPage == 0)
        func flick(_ dx: Double) {
            let t0 = d.time + 0.1
            d.send(.touchDown(id: 1, position: Point(x: 200, y: 400)), at: t0)
            for i in 1...3 {
                d.send(
                    .touchMotion(id: 1, position: Point(x: 200 + dx * Double(i) / 3, y: 400)), at: t0 + Double(i) * 0.01
                )
            }
            d.send(.touchUp(id: 1), at: t0 + 0.04)
            d.settle()
        }
        flick(-120)
        #expect(d.main.contentOffset.x == 390)
        #expect(indicator.currentPage == 1)
        flick(-360)  // a violent flick still turns one page
        #expect(d.main.contentOffset.x == 780 && indicator.currentPage == 2)
        flick(150)
        #expect(d.main.contentOffset.x == 390 && indicator.currentPage == 1)
    }
}
