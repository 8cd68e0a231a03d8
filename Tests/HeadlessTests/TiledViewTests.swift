import Dispatch
import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews
import Synchronization
import Testing

@MainActor
/// Tile geometry the tests derive their bounds from (independently of `TiledView`).
enum TileGeometry {
    static let tileBytes = 256 * 256 * 4

    /// The most tiles of `edge` content pixels a `width` × `height` rect can meet.
    static func maxTiles(width: Double, height: Double, edge: Double) -> Int {
        (Int(clamping: width / edge, rounding: .up) + 1) * (Int(clamping: height / edge, rounding: .up) + 1)
    }

    /// The tiles (column, row) of `edge` content pixels meeting `rect`.
    static func keys(meeting rect: Rect, edge: Double) -> Set<[Int]> {
        var keys: Set<[Int]> = []
        let c0 = Int(clamping: rect.minX / edge, rounding: .down)
        let c1 = Int(clamping: (rect.maxX - 1e-9) / edge, rounding: .down)
        let r0 = Int(clamping: rect.minY / edge, rounding: .down)
        let r1 = Int(clamping: (rect.maxY - 1e-9) / edge, rounding: .down)
        for r in r0...max(r0, r1) { for c in c0...max(c0, c1) { keys.insert([c, r]) } }
        return keys
    }

    /// The visible content rect of a scroll view at `offset` and its zoom, plus `margin` screen
    /// pixels around it, within `content` (nil margin: the visible rect alone).
    static func allowed(_ s: ScrollView, offset: Point? = nil, margin: Double, content: Size) -> Rect? {
        let z = s.zoomScale
        let o = offset ?? s.contentOffset
        let visible = Rect(x: o.x / z, y: o.y / z, width: s.bounds.width / z, height: s.bounds.height / z)
        return visible.insetBy(dx: -margin / z, dy: -margin / z).intersection(Rect(origin: .zero, size: content))
    }

    /// Bytes of the tile images really held (the backing images of the installed tiles, in the
    /// view tree or cached out of it).
    static func backingBytes(_ tiled: TiledView) -> Int {
        tiled.installedTiles.reduce(0) { $0 + ($1.backingImage.map { $0.width * $0.height * 4 } ?? 0) }
    }
}

@MainActor
@Suite struct TiledViewTests {
    func tiles(_ d: SceneDriver) -> TiledView { d.window.view(named: "tiles") as! TiledView }

    /// A fast fling in direction (dx, dy) from the centre.
    func fling(_ d: SceneDriver, dx: Double, dy: Double) {
        d.flick(from: Point(x: 195, y: 422), by: Point(x: dx, y: dy))
        d.advance(to: d.time + 2)
    }

    /// The zoom scene with tiles drawn synchronously, or on worker threads with every frame
    /// waiting for them (as the headless platform does): both must behave alike.
    func zoomScene(asynchronous: Bool) -> SceneDriver {
        let d = SceneDriver(.zoom)
        let tiled = tiles(d)
        d.window.waitsForBackgroundWork = true
        tiled.recordsRasterization = true
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
        var peakBacking = 0
        var checked = 0
        var violations: [String] = []
        var everVisible: Set<[Int]> = []
        var everAllowed: Set<[Int]> = []
        d.afterFrame = {
            peak = max(peak, tiled.memoryInUse)
            peakBacking = max(peakBacking, TileGeometry.backingBytes(tiled))
            // Every tile drawn since the last frame meets what is visible (from the scroll view's
            // own offset and zoom) plus the margin.
            guard let allowed = TileGeometry.allowed(d.main, margin: tiled.margin, content: MapSource.size),
                let visible = TileGeometry.allowed(d.main, margin: 0, content: MapSource.size)
            else { return }
            everVisible.formUnion(TileGeometry.keys(meeting: visible, edge: 256))
            everAllowed.formUnion(TileGeometry.keys(meeting: allowed, edge: 256))
            for entry in tiled.rasterized[checked...] where !entry.tile.intersects(allowed) {
                violations.append("\(entry.tile) outside \(allowed)")
            }
            checked = tiled.rasterized.count
        }
        let before = tiled.rasterized.count
        let firstAllowed = TileGeometry.allowed(d.main, margin: tiled.margin, content: MapSource.size)
        let drawnBefore = firstAllowed.map { TileGeometry.keys(meeting: $0, edge: 256) } ?? []
        for (dx, dy) in [(-300.0, 0.0), (0, -400), (300, 0), (0, 400), (-300, -400), (300, 400)] {
            fling(d, dx: dx, dy: dy)
        }
        // It drew every tile that was ever visible, and only tiles that were ever allowed.
        let drawn = Set(
            tiled.rasterized[before...].map { [Int(clamping: $0.tile.minX / 256), Int(clamping: $0.tile.minY / 256)] })
        #expect(everVisible.count > 40)  // the flings crossed the map
        #expect(everVisible.isSubset(of: drawn.union(drawnBefore)), "\(everVisible.subtracting(drawn).prefix(3))")
        #expect(drawn.isSubset(of: everAllowed), "\(drawn.subtracting(everAllowed).prefix(3))")
        #expect(peak <= tiled.memoryCap, "peak \(peak) bytes")
        #expect(peakBacking <= tiled.memoryCap, "peak backing \(peakBacking) bytes")
        #expect(violations.isEmpty, "\(violations.prefix(3))")
    }

    @Test(arguments: [false, true])
    func theLevelOfDetailFollowsTheZoom(asynchronous: Bool) {
        let d = zoomScene(asynchronous: asynchronous)
        let tiled = tiles(d)
        #expect(tiled.level == 1)
        // The nearest power of two in log2: 0.3 → 1/4 (not 1/2), 0.7 → 1/2, 1.2 → 1 (not 2).
        for (zoom, level) in [
            (0.25, 0.25), (0.1, 0.125), (0.3, 0.25), (0.7, 0.5), (1.2, 1.0), (3.0, 4.0), (8.0, 8.0), (1.0, 1.0),
        ] {
            d.main.setZoomScale(zoom, animated: false)
            d.advance(to: d.time + 0.05)
            #expect(tiled.level == level, "zoom \(zoom)")
            // The tiles on screen are all at that level, drawn at its scale.
            let shown = tiled.subviews.compactMap(\.contentsScale)
            #expect(!shown.isEmpty && shown.allSatisfy { $0 == level }, "zoom \(zoom): \(Set(shown))")
        }
        #expect(TiledView.level(forZoom: 1.5, deviceScale: 2) == 4)
        // A 4K screen at scale 2 barely zoomed in draws at 2, not 4 (four times the pixels).
        #expect(TiledView.level(forZoom: 1.01, deviceScale: 2) == 2)
        #expect(TiledView.level(forZoom: 1.01, deviceScale: 2, bias: 1) == 4)
        #expect(TiledView.level(forZoom: 0.001) == 1.0 / 64)
        #expect(TiledView.level(forZoom: 100) == 16)
    }

    /// A scale-2 window: the level follows zoom × scale, and a scale change moves it at once.
    @Test(arguments: [false, true])
    func theLevelOfDetailFollowsZoomTimesTheWindowScale(asynchronous: Bool) {
        let d = zoomScene(asynchronous: asynchronous)
        let tiled = tiles(d)
        d.advance(to: 0.05)
        #expect(tiled.level == 1)
        d.window.scale = 2  // a move to a HiDPI output: no scroll needed
        #expect(tiled.level == 2)
        d.advance(to: d.time + 0.05)
        #expect(tiled.subviews.allSatisfy { $0.contentsScale == 2 } && tiled.coversVisibleRect)
        for (zoom, level) in [(0.1, 0.25), (0.25, 0.5), (1.0, 2.0), (3.0, 8.0)] {
            d.main.setZoomScale(zoom, animated: false)
            d.advance(to: d.time + 0.05)
            #expect(tiled.level == level, "zoom \(zoom)")
            let shown = tiled.subviews.compactMap(\.contentsScale)
            #expect(!shown.isEmpty && shown.allSatisfy { $0 == level }, "zoom \(zoom): \(Set(shown))")
        }
        tiled.levelOfDetailBias = 1  // sharper: twice the nearest level
        #expect(tiled.level == 16)
        tiled.levelOfDetailBias = -1
        #expect(tiled.level == 4)
    }

    /// Zoomed out, the whole map passes by screen after screen under a cap that fits one
    /// screenful plus margin (and a tile per worker): the tile images really held never exceed it.
    @Test(arguments: [(false, 0.1), (true, 0.1), (false, 0.2), (true, 0.2)])
    func theWholeMapTraversedZoomedOutStaysUnderATightCap(asynchronous: Bool, zoom: Double) {
        let d = zoomScene(asynchronous: asynchronous)
        let tiled = tiles(d)
        let s = d.main
        s.setZoomScale(zoom, animated: false)
        d.advance(to: d.time + 0.05)
        let level = TiledView.level(forZoom: zoom)
        #expect(tiled.level == level)
        let edge = 256 / level  // content pixels per tile
        let screenEdge = edge * zoom
        let m = tiled.margin
        let wanted = TileGeometry.maxTiles(width: 390 + 2 * m, height: 844 + 2 * m, edge: screenEdge)
        tiled.memoryCap = (wanted + TiledView.defaultWorkerCount) * TileGeometry.tileBytes
        let start = tiled.rasterizedTileCount
        var peak = 0
        var peakBacking = 0
        var seen: Set<[Int]> = []
        let width = MapSource.size.width * zoom
        let height = MapSource.size.height * zoom
        var y = 0.0
        var row = 0
        while true {
            var xs = Array(stride(from: 0.0, to: width - 390, by: 390)) + [width - 390]
            if row % 2 == 1 { xs.reverse() }
            for x in xs {
                s.contentOffset = Point(x: x, y: y)
                d.advance(to: d.time + 1.0 / 60)
                peak = max(peak, tiled.memoryInUse)
                peakBacking = max(peakBacking, TileGeometry.backingBytes(tiled))
                if let v = TileGeometry.allowed(s, margin: 0, content: MapSource.size) {
                    seen.formUnion(TileGeometry.keys(meeting: v, edge: edge))
                }
            }
            guard y < height - 844 else { break }
            y = min(y + 844, height - 844)
            row += 1
        }
        let all = Int(clamping: MapSource.size.width / edge) * Int(clamping: MapSource.size.height / edge)
        #expect(seen.count == all)  // every tile of the map was on screen once
        #expect(tiled.rasterizedTileCount - start >= all - wanted)  // at most the first screen was drawn before
        #expect(peak <= tiled.memoryCap, "peak \(peak) of \(tiled.memoryCap)")
        #expect(peakBacking <= tiled.memoryCap, "backing peak \(peakBacking) of \(tiled.memoryCap)")
    }
}

@MainActor
@Suite struct PagingSceneTests {
    @Test func aFlickTurnsOnePageAndTheIndicatorFollows() {
        let d = SceneDriver(.paging)
        let indicator = d.window.view(named: "pageIndicator") as! PageControl
        #expect(indicator.currentPage == 0)
        func flick(_ dx: Double) {
            d.flick(from: Point(x: 200, y: 400), by: Point(x: dx, y: 0), moves: 3)
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
