import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews

extension Scene {
    /// A 32,768 × 32,768 px synthetic map drawn in tiles, zoomable from 0.1× to 8×: only the
    /// tiles in view are drawn, at the level of detail of the zoom, on worker threads (the main
    /// thread never waits for a tile while a worker can start; headless platforms wait for
    /// them, so their output stays the same on every run).
    public static let zoom = Scene(
        name: "zoom",
        summary: "A 32768 × 32768 px tiled map, zoom 0.1× to 8× (pinch, Ctrl+wheel, double tap)",
        preferredSize: Size(width: 390, height: 844)
    ) { window in
        let main = addMainScrollView(to: window, contentSize: MapSource.size)
        let tiled = TiledView(contentSize: MapSource.size)
        tiled.name = "tiles"
        tiled.rasterizesAsynchronously = true
        let source = MapSource()
        tiled.source = source
        main.addSubview(tiled)
        main.minimumZoomScale = 0.1
        main.maximumZoomScale = 8
        // UIKit has no built-in double tap; the map adds one, as apps do.
        main.doubleTapZooms = true
        let delegate = ZoomSceneDelegate(tiled: tiled)
        main.delegate = delegate
        window.retainedObjects += [source, delegate]
        main.contentOffset = Point(x: 16_384 - 195, y: 16_384 - 422)  // the middle
        main.layoutIfNeeded()
    }
}

/// Names the map as the view that zooms (the tiles follow scrolling and zooming themselves).
final class ZoomSceneDelegate: ScrollViewDelegate {
    weak var tiled: TiledView?
    init(tiled: TiledView) { self.tiled = tiled }
    func viewForZooming(in scrollView: ScrollView) -> View? { tiled }
}

/// The map: 512 px blocks coloured by position, each labelled with its coordinates. Immutable
/// (its font is Sendable and safe to share, see `Font`), so worker threads may draw it at once.
public final class MapSource: TileSource {
    public static let size = Size(width: 32_768, height: 32_768)
    public static let block = 512.0
    private let font = try? Font.system(size: 28)

    public init() {}

    /// Every block is filled edge to edge.
    public var isOpaque: Bool { true }

    public static func color(column: Int, row: Int) -> Color {
        let h = (column &* 73_856_093) ^ (row &* 19_349_663)
        return Color(rgb: UInt8(120 + abs(h) % 110), UInt8(140 + abs(h >> 8) % 100), UInt8(150 + abs(h >> 16) % 100))
    }

    public func draw(_ rect: Rect, in canvas: Canvas) {
        let b = Self.block
        let c0 = Int(clamping: rect.minX / b, rounding: .down)
        let c1 = Int(clamping: (rect.maxX - 1e-9) / b, rounding: .down)
        let r0 = Int(clamping: rect.minY / b, rounding: .down)
        let r1 = Int(clamping: (rect.maxY - 1e-9) / b, rounding: .down)
        for row in r0...max(r0, r1) {
            for column in c0...max(c0, c1) {
                let cell = Rect(x: Double(column) * b - rect.minX, y: Double(row) * b - rect.minY, width: b, height: b)
                canvas.fill(cell, color: Self.color(column: column, row: row))
                canvas.strokeRect(cell, lineWidth: 2, color: Color(rgb: 60, 60, 70))
                if let font {
                    canvas.drawText(
                        "\(column), \(row)", font: font, in: cell.insetBy(dx: 20, dy: b / 2 - 20), color: .black,
                        alignment: .center, maxLines: 1)
                }
            }
        }
    }
}
