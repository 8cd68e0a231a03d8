import Geometry
import Raster
import Views

/// Supplies a tiled view's pixels (CATiledLayer's drawing role).
public protocol TileSource: AnyObject {
    /// Draws `rect` of the content (content coordinates) into `canvas`, whose origin is
    /// `rect.origin` and whose scale is the level's.
    func draw(_ rect: Rect, in canvas: Canvas)
}

/// Content of any size drawn in tiles (the seeds' CATiledLayer idea): only the tiles that meet
/// the visible rect plus a margin are rasterized, at the power-of-two level of detail nearest
/// above the zoom, and a memory cap evicts the least recently used tiles out of view.
///
/// Tiles are views with their own backing images at the level's scale, so composition, clipping
/// and the zoom transform treat them like any view. Rasterization here is synchronous; coarser
/// tiles stay behind finer ones until those cover the view.
public final class TiledView: View {
    /// Tile edge in device pixels at its level.
    public let tileSize: Int
    /// Bytes of tile images kept at most (64 MiB by default).
    public var memoryCap: Int
    /// Extra content around the visible rect that gets tiles too (in on-screen pixels).
    public var margin = 128.0
    public weak var source: TileSource?

    struct Key: Hashable {
        let level: Double
        let column: Int
        let row: Int
    }

    private var tiles: [Key: TileView] = [:]
    private var clock = 0
    /// The level in use (device pixels per content pixel).
    public private(set) var level = 1.0
    /// Every tile rasterized so far, with the visible-plus-margin rect at that moment (tests).
    public private(set) var rasterized: [(tile: Rect, allowed: Rect)] = []
    /// Bytes of tile images held now.
    public var memoryInUse: Int { tiles.values.reduce(0) { $0 + $1.bytes } }
    public var tileCount: Int { tiles.count }

    public init(contentSize: Size, tileSize: Int = 256, memoryCap: Int = 64 << 20) {
        self.tileSize = tileSize
        self.memoryCap = memoryCap
        super.init(frame: Rect(origin: .zero, size: contentSize))
    }

    /// The level for a zoom: the nearest power of two at or above zoom × device scale, within
    /// 1/64 … 16.
    public static func level(forZoom zoom: Double, deviceScale: Double = 1) -> Double {
        let z = max(1.0 / 64, min(16, zoom * deviceScale))
        var l = 1.0 / 64
        while l < z - 1e-9 { l *= 2 }
        return l
    }

    /// Brings the tiles up to date for what is visible now (call on scroll and zoom).
    public func updateTiles() {
        guard let window else { return }
        let toWindow = self.toWindow
        let zoom = abs(toWindow.a)  // content px → window logical px
        guard zoom > 0 else { return }
        level = Self.level(forZoom: zoom, deviceScale: window.scale)
        let visible = convert(Rect(origin: .zero, size: window.bounds.size), from: nil)
        let pad = margin / zoom
        guard let allowed = visible.insetBy(dx: -pad, dy: -pad).intersection(bounds) else { return }
        let edge = Double(tileSize) / level  // a tile's content size at this level
        let c0 = Int((allowed.minX / edge).rounded(.down))
        let c1 = Int(((allowed.maxX - 1e-9) / edge).rounded(.down))
        let r0 = Int((allowed.minY / edge).rounded(.down))
        let r1 = Int(((allowed.maxY - 1e-9) / edge).rounded(.down))
        clock += 1
        var wanted: Set<Key> = []
        for row in r0...max(r0, r1) {
            for column in c0...max(c0, c1) {
                let key = Key(level: level, column: column, row: row)
                wanted.insert(key)
                if let t = tiles[key] {
                    t.lastUsed = clock
                    continue
                }
                let rect = Rect(x: Double(column) * edge, y: Double(row) * edge, width: edge, height: edge)
                    .intersection(bounds)!
                let tile = TileView(frame: rect, level: level, source: source)
                tile.lastUsed = clock
                tiles[key] = tile
                rasterized.append((rect, allowed))
                // Finer levels in front of coarser ones.
                let index =
                    subviews.firstIndex { ($0 as? TileView).map { $0.level > level } ?? false } ?? subviews.count
                insertSubview(tile, at: index)
            }
        }
        // Other levels go once this level covers the view; then the cap, least recently used first.
        for (key, t) in tiles where key.level != level {
            tiles.removeValue(forKey: key)
            t.removeFromSuperview()
        }
        var held = memoryInUse
        if held > memoryCap {
            for (key, t) in tiles.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }) where !wanted.contains(key) {
                tiles.removeValue(forKey: key)
                t.removeFromSuperview()
                held -= t.bytes
                if held <= memoryCap { break }
            }
        }
    }
}

/// One tile: its content rect, drawn by the source at the tile's level.
final class TileView: View {
    let level: Double
    weak var source: TileSource?
    var lastUsed = 0

    init(frame: Rect, level: Double, source: TileSource?) {
        self.level = level
        self.source = source
        super.init(frame: frame)
        contentsScale = level
        isUserInteractionEnabled = false
    }

    override var drawsContent: Bool { true }

    var bytes: Int {
        backingImage?.byteCount ?? Int((frame.width * level).rounded(.up) * (frame.height * level).rounded(.up)) * 4
    }

    override func draw(in canvas: Canvas) {
        source?.draw(frame, in: canvas)
    }
}
