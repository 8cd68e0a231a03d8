import Geometry
import Raster
import Views

/// Supplies a tiled view's pixels (CATiledLayer's drawing role).
///
/// Threads: while the tiled view draws synchronously, `draw` runs on the main thread; with
/// `TiledView.rasterizesAsynchronously` it runs on worker threads, several tiles at once, and
/// never on the main thread. Hence `Sendable`: keep a source immutable, or guard what changes
/// with a `Mutex`. A source must not wait for the main thread: headless frames wait for tiles.
public protocol TileSource: AnyObject, Sendable {
    /// Draws `rect` of the content (content coordinates) into `canvas`, whose origin is
    /// `rect.origin` and whose scale is the level's. The canvas belongs to this call alone.
    func draw(_ rect: Rect, in canvas: Canvas)
}

/// Content of any size drawn in tiles (the seeds' CATiledLayer idea): only the tiles that meet
/// the visible rect plus a margin are rasterized, at the power-of-two level of detail nearest
/// above the zoom, and a memory cap evicts the least recently used tiles out of view.
///
/// Tiles are views with their own backing images at the level's scale, so composition, clipping
/// and the zoom transform treat them like any view. Tiles of other levels stay behind the
/// current level's (finer in front) until those cover the visible rect, so a zoom shows the
/// coarser picture, scaled, rather than holes.
///
/// Synchronous by default: a requested tile is drawn in the next frame, on the main thread. With
/// `rasterizesAsynchronously` the main thread only asks and installs: worker threads draw each
/// tile into its own canvas (TiledView+Async.swift), a finished tile joins the next frame, and
/// one that arrives after a frame went out without it fades in over `fadeDuration`.
public final class TiledView: View {
    /// Tile edge in device pixels at its level.
    public let tileSize: Int
    /// Bytes of tile images kept at most (64 MiB by default), counting tiles being drawn. Only
    /// tiles outside the visible rect plus margin are evicted: a cap smaller than that area's
    /// tiles (plus one tile per worker still finishing a cancelled one) is exceeded by them.
    public var memoryCap: Int
    /// Extra content around the visible rect that gets tiles too (in on-screen pixels).
    public var margin = 128.0
    public weak var source: TileSource?
    /// Draw tiles on worker threads, so the main thread never waits for one (see
    /// `TileSource` for what that asks of the source). Turning it off cancels tiles in flight.
    public var rasterizesAsynchronously = false {
        didSet { if !rasterizesAsynchronously { cancelAllRequests() } }
    }
    /// Seconds a tile that arrives late takes to fade in, on the window's clock (0: no fade).
    public var fadeDuration = 0.2
    /// Worker threads for asynchronous tiles; read when the first one is requested. By default
    /// one per core less one, which stays free for the main thread (at least one).
    public var workerCount: Int?
    /// Worker threads used when `workerCount` is nil: one per core less one (at least one).
    public static var defaultWorkerCount: Int { TileRasterizer.defaultWidth }

    struct Key: Hashable, Comparable, Sendable {
        let level: Double
        let column: Int
        let row: Int

        /// Painting order: coarser levels behind finer ones, then rows, then columns. A fixed
        /// order, whatever order tiles arrive in, keeps headless output identical run to run.
        static func < (a: Key, b: Key) -> Bool {
            (a.level, a.row, a.column) < (b.level, b.row, b.column)
        }
    }

    var tiles: [Key: TileView] = [:]
    var installedBytes = 0
    var clock = 0
    /// The current level's tiles meeting the visible rect, as of the last update.
    var visibleKeys: [Key] = []
    /// The visible rect (content coordinates) as of the last update.
    var visibleRect: Rect?
    /// Asynchronous requests in flight (TiledView+Async.swift).
    var requests = TileRequests()
    /// The level in use (device pixels per content pixel).
    public private(set) var level = 1.0
    /// Every tile rasterized so far, with the visible-plus-margin rect at the moment it was
    /// requested (tests). Asynchronous tiles are logged when their image arrives, cancelled ones
    /// that were drawn anyway included.
    public internal(set) var rasterized: [(tile: Rect, allowed: Rect)] = []
    /// Bytes of tile images held now, tiles being drawn on worker threads included.
    public var memoryInUse: Int { installedBytes + requests.bytes }
    /// Tiles installed (on screen or cached).
    public var tileCount: Int { tiles.count }

    public init(contentSize: Size, tileSize: Int = 256, memoryCap: Int = 64 << 20) {
        self.tileSize = tileSize
        self.memoryCap = memoryCap
        super.init(frame: Rect(origin: .zero, size: contentSize))
    }

    deinit { closeRasterizer() }

    /// The level for a zoom: the nearest power of two at or above zoom × device scale, within
    /// 1/64 … 16.
    public static func level(forZoom zoom: Double, deviceScale: Double = 1) -> Double {
        let z = max(1.0 / 64, min(16, zoom * deviceScale))
        var l = 1.0 / 64
        while l < z - 1e-9 { l *= 2 }
        return l
    }

    /// Whether every tile of the current level that meets the visible rect is on screen, fully
    /// faded in: from then on tiles of other levels are no longer needed behind it.
    public var coversVisibleRect: Bool {
        visibleKeys.allSatisfy { key in tiles[key].map { $0.alpha >= 1 } ?? false }
    }

    /// Tiles of the current level that meet the visible rect and are not installed yet (on
    /// their way from a worker): where the view shows a coarser level, or nothing.
    public var missingVisibleTileCount: Int { visibleKeys.filter { tiles[$0] == nil }.count }

    /// Brings the tiles up to date for what is visible now (call on scroll and zoom).
    public func updateTiles() {
        guard let window else { return }
        let zoom = abs(toWindow.a)  // content px → window logical px
        guard zoom > 0 else { return }
        level = Self.level(forZoom: zoom, deviceScale: window.scale)
        let visible = convert(Rect(origin: .zero, size: window.bounds.size), from: nil)
        let pad = margin / zoom
        guard let allowed = visible.insetBy(dx: -pad, dy: -pad).intersection(bounds) else { return }
        visibleRect = visible.intersection(bounds)
        clock += 1
        let wanted = wantedTiles(in: allowed, visible: visibleRect)
        visibleKeys = wanted.filter(\.isVisible).map(\.key)
        if rasterizesAsynchronously {
            requestAsynchronously(wanted, allowed: allowed, in: window)
        } else {
            for tile in wanted {
                if let t = tiles[tile.key] {
                    t.lastUsed = clock
                    continue
                }
                let view = TileView(frame: tile.rect, key: tile.key, source: source)
                rasterized.append((tile.rect, allowed))
                install(view)
            }
        }
        removeCoveredLevels()
        evict(keeping: Set(wanted.map(\.key)))
    }

    /// A tile the current view wants: where it is and how urgent.
    struct WantedTile {
        let key: Key
        let rect: Rect
        let isVisible: Bool
        /// Lower first: visible tiles by distance from the middle, then the margin's.
        let priority: Double
    }

    /// The current level's tiles meeting `allowed`, most urgent first.
    private func wantedTiles(in allowed: Rect, visible: Rect?) -> [WantedTile] {
        let edge = Double(tileSize) / level  // a tile's content size at this level
        let c0 = Int((allowed.minX / edge).rounded(.down))
        let c1 = Int(((allowed.maxX - 1e-9) / edge).rounded(.down))
        let r0 = Int((allowed.minY / edge).rounded(.down))
        let r1 = Int(((allowed.maxY - 1e-9) / edge).rounded(.down))
        let middle = visible?.center ?? allowed.center
        var wanted: [WantedTile] = []
        for row in r0...max(r0, r1) {
            for column in c0...max(c0, c1) {
                let full = Rect(x: Double(column) * edge, y: Double(row) * edge, width: edge, height: edge)
                guard let rect = full.intersection(bounds) else { continue }
                let isVisible = visible.map { rect.intersects($0) } ?? false
                let dx = rect.center.x - middle.x
                let dy = rect.center.y - middle.y
                let distance = (dx * dx + dy * dy).squareRoot() * level
                wanted.append(
                    WantedTile(
                        key: Key(level: level, column: column, row: row), rect: rect, isVisible: isVisible,
                        priority: isVisible ? distance : 1e9 + distance))
            }
        }
        return wanted.sorted { $0.priority != $1.priority ? $0.priority < $1.priority : $0.key < $1.key }
    }

    /// Adds a tile view in painting order and counts its bytes.
    func install(_ view: TileView) {
        view.lastUsed = clock
        tiles[view.key] = view
        installedBytes += view.bytes
        let index =
            subviews.firstIndex { ($0 as? TileView).map { $0.key > view.key } ?? false } ?? subviews.count
        insertSubview(view, at: index)
    }

    func remove(_ key: Key) {
        guard let view = tiles.removeValue(forKey: key) else { return }
        installedBytes -= view.bytes
        view.removeFromSuperview()
    }

    /// Tiles of other levels go once the current level covers the visible rect; before that,
    /// only those that no longer meet the visible rect (they show nothing).
    func removeCoveredLevels() {
        let covered = coversVisibleRect
        for (key, view) in tiles where key.level != level {
            if covered || !(visibleRect.map { view.frame.intersects($0) } ?? false) { remove(key) }
        }
    }

    /// The cap: least recently used tiles outside `wanted` go first (ties in painting order, so
    /// the choice never depends on hashing).
    private func evict(keeping wanted: Set<Key>) {
        guard memoryInUse > memoryCap else { return }
        let candidates = tiles.filter { !wanted.contains($0.key) }.sorted {
            $0.value.lastUsed != $1.value.lastUsed ? $0.value.lastUsed < $1.value.lastUsed : $0.key < $1.key
        }
        for (key, _) in candidates {
            remove(key)
            if memoryInUse <= memoryCap { break }
        }
    }
}

/// One tile: its content rect at its level, drawn by the source (synchronous tiles) or given
/// an image drawn on a worker thread (`setContents`).
final class TileView: View {
    let key: TiledView.Key
    weak var source: TileSource?
    var lastUsed = 0
    /// Bytes of its image (bounds × level, four per pixel), counted against the cap.
    let bytes: Int

    init(frame: Rect, key: TiledView.Key, source: TileSource?) {
        self.key = key
        self.source = source
        bytes = Self.bytes(for: frame.size, level: key.level)
        super.init(frame: frame)
        contentsScale = key.level
        isUserInteractionEnabled = false
    }

    var level: Double { key.level }

    override var drawsContent: Bool { true }

    /// The canvas size in device pixels for `size` at `level` (what `displayIfNeeded` allocates).
    static func pixels(for size: Size, level: Double) -> (width: Int, height: Int) {
        (Int((size.width * level).rounded(.up)), Int((size.height * level).rounded(.up)))
    }

    static func bytes(for size: Size, level: Double) -> Int {
        let p = pixels(for: size, level: level)
        return p.width * p.height * 4
    }

    override func draw(in canvas: Canvas) {
        source?.draw(frame, in: canvas)
    }
}
