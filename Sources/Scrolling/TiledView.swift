import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews

/// Supplies a tiled view's pixels (CATiledLayer's drawing role).
///
/// Threads: while the tiled view draws synchronously, `draw` runs on the main thread; with
/// `TiledView.rasterizesAsynchronously` it runs on worker threads, several tiles at once, and
/// not on the main thread unless the system refuses every worker (a limit on processes): then
/// the thread that asks for the tiles draws them, inside its update. Hence `Sendable`: keep a
/// source immutable, or guard what changes with a `Mutex`. A source must not wait for the main
/// thread, or for anything the main thread holds: headless frames wait for tiles.
public protocol TileSource: AnyObject, Sendable {
    /// Draws `rect` of the content (content coordinates) into `canvas`, whose origin is
    /// `rect.origin` and whose scale is the level's. The canvas belongs to this call alone. It
    /// is transparent, unless the source `isOpaque`.
    func draw(_ rect: Rect, in canvas: Canvas)
    /// Whether every tile it draws is opaque over all of its rect (a map, a photo): tiles are
    /// then copied onto the screen and nothing beneath them is painted (`View.isOpaque`). Such
    /// a source paints every pixel of the canvas it is given, as an opaque UIView fills its
    /// bounds: the workers hand it an evicted tile's memory as it was, not cleared first, so a
    /// pixel it leaves holds what that tile showed.
    var isOpaque: Bool { get }
}

extension TileSource {
    public var isOpaque: Bool { false }
}

/// Content of any size drawn in tiles (the seeds' CATiledLayer idea): only the tiles that meet
/// the visible rect (the window cut by every clipping ancestor) plus a margin are rasterized, at
/// the power-of-two level of detail nearest the zoom, and a memory cap evicts the least recently
/// used tiles out of view. Only the tiles in reach (the visible rect plus margin) are in the
/// view tree; the cached rest wait outside it, so a frame's walks never visit them.
///
/// Tiles are views with their own backing images at the level's scale, so composition, clipping
/// and the zoom transform treat them like any view. Tiles of other levels stay behind the
/// current level's (finer in front) until those cover the visible rect, so a zoom shows the
/// coarser picture, scaled, rather than holes.
///
/// Synchronous by default: a requested tile is drawn in the next frame, on the main thread (and
/// not at all if an update before that frame no longer wants it). With
/// `rasterizesAsynchronously` the main thread only asks and installs: worker threads draw each
/// tile into its own canvas (TiledView+Async.swift; when the system refuses every worker, the
/// asking thread draws them), a finished tile joins the next frame, and
/// one that arrives after a frame went out without it where it shows fades in over
/// `fadeDuration` (a tile drawn ahead in the margin appears at once: nobody saw it missing;
/// so does one that arrives while the view moves faster than `fadeSpeedLimit`).
///
/// It keeps its tiles up to date itself, as the tiled layer does: once in a window, every
/// frame, after animations and layout and before anything is drawn, it asks for what it shows
/// then (a scroll, a zoom, a resize, a move of any ancestor); a frame in which nothing it shows
/// changed, with no request in flight, costs a comparison. (A change of `margin` or
/// `memoryCap` asks for a frame.)
public final class TiledView: View, WindowObserver {
    /// Tile edge in device pixels at its level.
    public let tileSize: Int
    /// Bytes of tile images kept at most (64 MiB by default): installed tiles and tiles a worker
    /// holds (being drawn, or drawn and not yet received). Queued requests hold no image yet and
    /// do not count, though eviction makes room for them ahead (see `evict`). Never evicted: the
    /// current level's tiles meeting the visible rect plus margin and, until those cover the
    /// visible rect, other levels' tiles meeting it (the coarser picture shown meanwhile). A cap
    /// smaller than those (plus one tile per worker) is exceeded by them.
    public var memoryCap: Int { didSet { if memoryCap != oldValue { setNeedsLayout() } } }
    /// Extra content around the visible rect that gets tiles too (in on-screen pixels). While
    /// the view moves along one axis (a vertical fling, say: its move between the last two
    /// frames more than `motionAxisRatio` times as long on one axis as on the other), only
    /// along that axis: tiles beside the motion would scroll away unseen, as each row of them
    /// passes. The frame after the motion's last finds the view at rest and asks for the
    /// tiles beside it again (`reach`).
    public var margin = 128.0 { didSet { if margin != oldValue { setNeedsLayout() } } }
    /// Where the pixels come from (held weakly). Changing it redraws every tile; setting none
    /// removes them all (no tile is drawn without a source).
    public weak var source: TileSource? {
        didSet {
            guard source !== oldValue else { return }
            if source == nil {
                cancelAllRequests()
                for key in Array(tiles.keys) { remove(key) }
            }
            invalidateTiles()
        }
    }
    /// Draw tiles on worker threads, so the main thread never waits for one while a worker can
    /// start (see `TileSource` for what that asks of the source, and for when the system
    /// refuses workers). Turning it off cancels tiles in flight;
    /// turning it on hands tiles not drawn yet to the workers.
    public var rasterizesAsynchronously = false {
        didSet {
            guard rasterizesAsynchronously != oldValue else { return }
            if rasterizesAsynchronously { handPendingDrawsToWorkers() } else { cancelAllRequests() }
        }
    }
    /// Seconds a tile that arrives late (after a frame showed its place without it) takes to
    /// fade in, on the window's clock (0: no fade).
    public var fadeDuration = 0.2
    /// On-screen speed (points a second) above which a late tile appears at once instead of
    /// fading in: a fade softens a tile appearing in a still picture, the eye cannot follow one
    /// on content sweeping past, and a tile fading in is composited translucently over its
    /// whole area in every frame of the fade, which with a fling's band of late tiles is most
    /// of a frame's work. Measured from the last two frames' visible rects at one zoom
    /// (`screenSpeed`). `.infinity` fades every late tile, as CATiledLayer does.
    public var fadeSpeedLimit = 1000.0
    /// How fast the visible rect moved on screen between the last two frames that updated the
    /// tiles, points a second (0 across a zoom: a new level's tiles fade in over the old).
    public private(set) var screenSpeed = 0.0
    /// Where the visible rect was (content coordinates), at which zoom and when, as of the
    /// last update (`screenSpeed`).
    private var lastPlace: (origin: Point, zoom: Double, time: Double)?
    /// The visible rect's move on screen between the last two updates at one zoom (zero across
    /// a zoom, or when it did not move).
    private var lastMove = Point.zero
    /// Worker threads for asynchronous tiles; read when the first one is requested. By default
    /// one per core less one, which stays free for the main thread (at least one).
    public var workerCount: Int?
    /// How the workers start, read with `workerCount`: nil for threads of the system's
    /// (`BackgroundThread.start`); tests give a starter that refuses as a limit on processes
    /// does, to see the tiles drawn without workers.
    package var workerStarter: WorkerThreadStarter?
    /// Worker threads used when `workerCount` is nil: one per core less one (at least one).
    nonisolated public static var defaultWorkerCount: Int { TileRasterizer.defaultWidth }
    /// Added to the level's power-of-two exponent (CATiledLayer's `levelsOfDetailBias`): 1 draws
    /// at twice the nearest level's scale (sharper, four times the pixels), -1 at half.
    public var levelOfDetailBias = 0 {
        didSet { if levelOfDetailBias != oldValue { updateTiles() } }
    }
    /// Whether `rasterized` logs each tile drawn (tests, diagnostics). Off by default, so a
    /// long-running app keeps no history; `rasterizedTileCount` counts either way.
    public var recordsRasterization = false {
        didSet { if !recordsRasterization { rasterized = [] } }
    }

    struct Key: Hashable, Comparable, Sendable {
        let level: Double
        let column: Int
        let row: Int

        /// Painting order: coarser levels behind finer ones, then rows, then columns. A fixed
        /// order, whatever order tiles arrive in, keeps headless output identical run to run.
        static func < (a: Key, b: Key) -> Bool {
            (a.level, a.row, a.column) < (b.level, b.row, b.column)
        }

        /// One word hashed instead of three: an update looks each wanted tile up in the tables
        /// of tiles and requests, and the hasher's cost grows with the words it is given. The
        /// column and row are spread by odd multipliers (so neighbouring tiles differ in many
        /// bits) and the level's bits added; equal keys hash alike, and the tables compare whole
        /// keys on a collision.
        func hash(into hasher: inout Hasher) {
            let c = UInt(bitPattern: column) &* 0x9E37_79B9_7F4A_7C15
            let r = UInt(bitPattern: row) &* 0xC2B2_AE3D_27D4_EB4F
            hasher.combine(c ^ r ^ UInt(level.bitPattern))
        }
    }

    var tiles: [Key: TileView] = [:]
    var installedBytes = 0
    /// Installed tiles per level: an update whose level is the only one held has no other
    /// level's tiles to look through (`removeCoveredLevels`, each update of a fling).
    private var tilesPerLevel: [Double: Int] = [:]
    var clock = 0
    /// Bumped by every change an update reacts to besides scrolling and zooming: a tile
    /// installed, removed, drawn or marked out of date, a tile delivered.
    var tilesGeneration = 0
    /// What the last update that did the whole work saw (`updateTiles`).
    private var lastUpdate: UpdateInputs?

    /// Everything an update's outcome depends on when no request is in flight: if it is the
    /// same as last time, the update would ask for nothing, drop nothing and evict nothing.
    private struct UpdateInputs: Equatable {
        var level: Double
        /// First and last tile columns and rows meeting the visible rect plus margin.
        var allowed: [Int]
        /// The same for the visible rect.
        var visible: [Int]
        var generation: Int
        var memoryCap: Int
        var source: ObjectIdentifier?
        var window: ObjectIdentifier
        var asynchronous: Bool
    }
    /// The current level's tiles meeting the visible rect, as of the last update.
    var visibleKeys: [Key] = []
    /// The current level's tiles meeting the visible rect plus margin, as of the last update
    /// (empty while the view shows nothing): never evicted.
    var wantedKeys = WantedBlock()
    /// The visible rect (content coordinates) as of the last update.
    var visibleRect: Rect?
    /// The visible rect plus margin (content coordinates) as of the last update, nil while the
    /// view shows nothing.
    var allowedRect: Rect?
    /// Asynchronous requests in flight (TiledView+Async.swift).
    var requests = TileRequests()
    /// The level in use (device pixels per content pixel).
    public private(set) var level = 1.0
    /// With `recordsRasterization`, every tile drawn since, with the visible-plus-margin rect
    /// current when it was drawn (synchronous tiles, logged in `draw`) or asked for
    /// (asynchronous ones, logged when their image arrives, cancelled ones drawn anyway
    /// included).
    public internal(set) var rasterized: [(tile: Rect, allowed: Rect)] = []
    /// Tiles drawn so far (synchronously, or delivered by a worker).
    public internal(set) var rasterizedTileCount = 0
    /// Bytes of tile images held now: installed tiles, tiles a worker holds, and evicted tiles'
    /// memory kept for the tiles queued (none once nothing is).
    public var memoryInUse: Int { installedBytes + bytesInHand }
    /// Tiles installed (on screen or cached).
    public var tileCount: Int { tiles.count }
    /// Every tile installed, in painting order: those in the view tree (its subviews: the current
    /// level's tiles meeting the visible rect plus margin, and other levels' tiles while they
    /// show) and those cached out of it.
    public var installedTiles: [View] { tiles.sorted { $0.key < $1.key }.map(\.value) }

    /// `tileSize` is a tile's side in device pixels, 16 to 4096 (a programming error otherwise).
    public init(contentSize: Size, tileSize: Int = 256, memoryCap: Int = 64 << 20) {
        precondition((16...4096).contains(tileSize), "a tile is 16 to 4096 px on a side, not \(tileSize)")
        self.tileSize = tileSize
        self.memoryCap = memoryCap
        super.init(frame: Rect(origin: .zero, size: contentSize))
    }

    isolated deinit { closeRasterizer() }

    /// Leaving the window: nothing of it shows any more, so nothing stays queued for it, and it
    /// stops following the window's frames.
    public override func willLeaveWindow() {
        cancelAllRequests()
        window?.removeObserver(self)
    }

    /// In a window (added to one, or its ancestor was): it follows the window's frames from
    /// here on; the next frame asks for its tiles.
    public override func didMoveToWindow() {
        window?.addObserver(self)
        setNeedsLayout()
    }

    /// Each frame, once laid out: the tiles for what it shows now.
    public func window(_ window: Window, didLayOutFrameAt time: Double) {
        guard window === self.window else {
            window.removeObserver(self)
            return
        }
        updateTiles()
    }

    /// A new device scale asks for another level at once (not at the next scroll).
    public override func windowScaleDidChange() {
        updateTiles()
    }

    /// The level for a zoom: the power of two nearest zoom × device scale (in log2, so 2.8
    /// gives 2 and 2.9 gives 4), its exponent moved by `bias`, within 1/64 … 16.
    public static func level(forZoom zoom: Double, deviceScale: Double = 1, bias: Int = 0) -> Double {
        let z = zoom * deviceScale
        guard z.isFinite, z > 0 else { return z > 0 ? 16 : 1.0 / 64 }
        // z = significand × 2^exponent with significand in [1, 2): round(log2 z) is the
        // exponent, plus one when the significand is at least √2.
        let nearest = Int(z.exponent) + (z.significand >= 2.0.squareRoot() ? 1 : 0)
        let e = min(4, max(-6, nearest + bias))
        return Double(sign: .plus, exponent: e, significand: 1)
    }

    /// Whether every tile of the current level that meets the visible rect is on screen, fully
    /// faded in: from then on tiles of other levels are no longer needed behind it.
    public var coversVisibleRect: Bool {
        // Loops, here and in the other per-update walks, not closures (see `wantedTiles`).
        for key in visibleKeys {
            guard let tile = tiles[key], tile.alpha >= 1 else { return false }
        }
        return true
    }

    /// Tiles of the current level that meet the visible rect and are not installed yet (on
    /// their way from a worker): where the view shows a coarser level, or nothing.
    public var missingVisibleTileCount: Int {
        var n = 0
        for key in visibleKeys where tiles[key] == nil { n += 1 }
        return n
    }

    /// Brings the tiles up to date for what is visible now (each frame does; an app may call it
    /// to ask at once). While the view shows nothing (no window, hidden, clipped away), requests
    /// in flight are cancelled.
    public func updateTiles() {
        let zoom = abs(toWindow.a)  // content px → window logical px
        guard let window, zoom > 0, !isInvisible, let visible = clippedVisibleRect(in: window) else {
            stopRequesting()
            return
        }
        noteMotion(of: visible.origin, zoom: zoom, at: window.now)
        let reach = self.reach
        guard let allowed = visible.insetBy(dx: -reach.x / zoom, dy: -reach.y / zoom).intersection(bounds) else {
            stopRequesting()
            return
        }
        // The frame after this one finds the view still, if the motion ended, and asks for the
        // margin beside it.
        if reach.x < margin || reach.y < margin { window.setNeedsFrameAfterThis() }
        level = Self.level(forZoom: zoom, deviceScale: window.scale, bias: levelOfDetailBias)
        visibleRect = visible.intersection(bounds)
        allowedRect = allowed
        // A scroll within the same tiles, with every wanted tile installed and none in flight,
        // changes nothing but the rects above: the work below (and its walk over every tile,
        // each scrolled frame of a fling) is skipped. Least-recently-used order is kept: the
        // wanted tiles would all have been stamped with the same, newest clock.
        var inputs = UpdateInputs(
            level: level, allowed: tileRange(allowed), visible: visibleRect.map(tileRange) ?? [],
            generation: tilesGeneration, memoryCap: memoryCap, source: source.map(ObjectIdentifier.init),
            window: ObjectIdentifier(window), asynchronous: rasterizesAsynchronously)
        if inputs == lastUpdate, requests.idByKey.isEmpty { return }
        clock += 1
        let wanted = wantedTiles(in: allowed, visible: visibleRect)
        wantedKeys = WantedBlock(wanted)
        visibleKeys = wanted.filter(\.isVisible).map(\.key)
        if rasterizesAsynchronously {
            requestAsynchronously(wanted, allowed: allowed, in: window)
        } else {
            requestSynchronously(wanted)
        }
        removeCoveredLevels()
        evict()
        parkTilesOutOfReach()
        inputs.generation = tilesGeneration  // the changes this update made are seen
        lastUpdate = inputs
    }

    /// How many times longer than its move on the other axis a move on one axis is, at least,
    /// for the margin to be left out across it (`margin`): a fling within about 7° of an axis.
    static let motionAxisRatio = 8.0

    /// The margin on each axis (on-screen points) for the last move: `margin`, but none across
    /// a move along the other axis (`margin`).
    private var reach: Point {
        let (dx, dy) = (abs(lastMove.x), abs(lastMove.y))
        return Point(
            x: dx * Self.motionAxisRatio < dy ? 0 : margin, y: dy * Self.motionAxisRatio < dx ? 0 : margin)
    }

    /// Updates `screenSpeed` and `lastMove` from the visible rect's move since the last update.
    /// An update at the same time as the last (an app's scroll between frames) moves the place
    /// without a speed: the frames on either side of it show where it landed.
    private func noteMotion(of origin: Point, zoom: Double, at time: Double) {
        defer { lastPlace = (origin, zoom, time) }
        guard let last = lastPlace, time > last.time else { return }
        guard last.zoom == zoom else {
            screenSpeed = 0
            lastMove = .zero
            return
        }
        let dx = (origin.x - last.origin.x) * zoom
        let dy = (origin.y - last.origin.y) * zoom
        lastMove = Point(x: dx, y: dy)
        screenSpeed = (dx * dx + dy * dy).squareRoot() / (time - last.time)
    }

    /// The tiles out of reach (the current level's, away from the visible rect plus margin,
    /// kept as a cache) leave the view tree: every frame's walks visit a view's subviews one by
    /// one, and a cache of a few hundred tiles out of sight would cost each frame of a fling more
    /// than the tiles in view. They leave in batches, once the tree holds `parkingSlack` more
    /// tiles than are wanted, since each removal makes the next frame visit the tiles again
    /// (a changed subtree). A held tile wanted again returns at once, images and all (`show`).
    private func parkTilesOutOfReach() {
        guard subviews.count > wantedKeys.count + Self.parkingSlack else { return }
        for case let view as TileView in subviews where view.key.level == level && !wantedKeys.contains(view.key) {
            view.alpha = 1  // a fade under way ends (`TileFade`): back in reach, it shows whole
            view.removeFromSuperview()
        }
    }

    /// Tiles out of reach the view tree may hold before they leave it together.
    static let parkingSlack = 32

    /// A held tile that is wanted, or shows as another level's, goes back into the view tree.
    func show(_ view: TileView) {
        if view.superview == nil { attach(view) }
    }

    /// The first and last columns and rows of the current level's tiles meeting `rect` (what
    /// `wantedTiles` walks, and what an update compares to skip its work).
    private func tileRange(_ rect: Rect) -> [Int] {
        let edge = Double(tileSize) / level  // a tile's content size at this level
        // Tile indices within what an Int holds (content of any finite size).
        func index(_ d: Double) -> Int {
            Int(clamping: d, rounding: .down, in: -1_000_000_000_000_000...1_000_000_000_000_000)
        }
        return [
            index(rect.minX / edge), index((rect.maxX - 1e-9) / edge), index(rect.minY / edge),
            index((rect.maxY - 1e-9) / edge),
        ]
    }

    /// Synchronous tiles: installed now, drawn in the next frame (`TileView.draw`). Tiles still
    /// waiting for that frame that are no longer wanted go undrawn (several updates may come
    /// between two frames).
    private func requestSynchronously(_ wanted: [WantedTile]) {
        for (key, view) in tiles where view.drawPending && !wantedKeys.contains(key) { remove(key) }
        guard source != nil else { return }
        for tile in wanted {
            if let view = tiles[tile.key] {
                view.lastUsed = clock
                show(view)
                if view.isStale && !view.drawPending {
                    view.drawPending = true
                    view.setNeedsDisplay()
                }
                continue
            }
            let view = TileView(frame: tile.rect, key: tile.key, owner: self)
            view.drawPending = true
            install(view)
        }
    }

    /// Nothing shows: no request stays in flight and no tile waits to be drawn.
    private func stopRequesting() {
        lastUpdate = nil
        cancelAllRequests()
        wantedKeys = WantedBlock()
        allowedRect = nil
        visibleKeys = []
        visibleRect = nil
        for (key, view) in tiles where view.drawPending { remove(key) }
    }

    /// Hidden, or fully transparent, itself or through an ancestor.
    private var isInvisible: Bool {
        var v: View? = self
        while let current = v {
            if current.isHidden || current.alpha <= 0 { return true }
            v = current.superview
        }
        return false
    }

    /// What of this view the window shows, in its bounds coordinates: the window's rect cut by
    /// every ancestor that clips to its bounds (a tiled view in a small scroll view sees only
    /// that scroll view's bounds, not the whole window). Nil when nothing shows.
    private func clippedVisibleRect(in window: Window) -> Rect? {
        var rect: Rect? = convert(Rect(origin: .zero, size: window.bounds.size), from: nil)
        var ancestor = superview
        while let a = ancestor, let r = rect {
            if a.clipsToBounds { rect = r.intersection(convert(a.bounds, from: a)) }
            ancestor = a.superview
        }
        return rect
    }

    /// A tile the current view wants: where it is and how urgent.
    struct WantedTile {
        let key: Key
        let rect: Rect
        let isVisible: Bool
        /// Lower first: visible tiles by distance from the middle, then the margin's.
        let priority: Double
    }

    /// The tiles an update wants, as a block of one level's columns and rows: a tile meets a
    /// rect when it does along both axes, so the tiles meeting the visible rect plus margin and
    /// the bounds are every pair of a run of columns and a run of rows. Whether a tile is wanted
    /// is then four comparisons, not a hash of its key in a set made each update (eviction and
    /// parking ask it of every tile held).
    struct WantedBlock {
        /// How many tiles it holds.
        private(set) var count = 0
        private var level = 0.0
        private var columns = (first: 0, last: -1)
        private var rows = (first: 0, last: -1)

        /// No tile.
        init() {}

        /// The block `wanted` (an update's wanted tiles, of one level) fills.
        init(_ wanted: [WantedTile]) {
            guard let first = wanted.first?.key else { return }
            level = first.level
            columns = (first.column, first.column)
            rows = (first.row, first.row)
            for tile in wanted {
                columns = (min(columns.first, tile.key.column), max(columns.last, tile.key.column))
                rows = (min(rows.first, tile.key.row), max(rows.last, tile.key.row))
            }
            count = wanted.count
            assert(
                wanted.allSatisfy { $0.key.level == level }
                    && count == (columns.last - columns.first + 1) * (rows.last - rows.first + 1),
                "wanted tiles are a block of one level")
        }

        func contains(_ key: Key) -> Bool {
            count > 0 && key.level == level && key.column >= columns.first && key.column <= columns.last
                && key.row >= rows.first && key.row <= rows.last
        }
    }

    /// The current level's tiles meeting `allowed`, in painting order, each with its urgency
    /// (`priority`). Not sorted by it: the workers take the most urgent queued tile whatever
    /// the order it was asked in, and an update's new requests are queued together
    /// (`TileRasterizer.submit`).
    ///
    /// Here and in the other per-update walks the work is done in loops, not closures: a
    /// closure written in the view is formed on the main actor and checks its executor at every
    /// call.
    private func wantedTiles(in allowed: Rect, visible: Rect?) -> [WantedTile] {
        let edge = Double(tileSize) / level  // a tile's content size at this level
        let range = tileRange(allowed)
        let (c0, c1, r0, r1) = (range[0], range[1], range[2], range[3])
        let middle = visible?.center ?? allowed.center
        var wanted: [WantedTile] = []
        wanted.reserveCapacity((max(r0, r1) - r0 + 1) * (max(c0, c1) - c0 + 1))
        for row in r0...max(r0, r1) {
            for column in c0...max(c0, c1) {
                let full = Rect(x: Double(column) * edge, y: Double(row) * edge, width: edge, height: edge)
                guard let rect = full.intersection(bounds) else { continue }
                var isVisible = false
                if let visible { isVisible = rect.intersects(visible) }
                let dx = rect.center.x - middle.x
                let dy = rect.center.y - middle.y
                let distance = (dx * dx + dy * dy).squareRoot() * level
                wanted.append(
                    WantedTile(
                        key: Key(level: level, column: column, row: row), rect: rect, isVisible: isVisible,
                        priority: isVisible ? distance : 1e9 + distance))
            }
        }
        return wanted
    }

    /// Adds a tile view in painting order and counts its bytes.
    func install(_ view: TileView) {
        tilesGeneration += 1
        view.lastUsed = clock
        tiles[view.key] = view
        installedBytes += view.bytes
        tilesPerLevel[view.key.level, default: 0] += 1
        attach(view)
    }

    /// Puts a held tile into the view tree, in painting order.
    private func attach(_ view: TileView) {
        var index = subviews.count
        for (i, subview) in subviews.enumerated() {
            if let tile = subview as? TileView, tile.key > view.key {
                index = i
                break
            }
        }
        insertSubview(view, at: index)
    }

    func remove(_ key: Key) {
        guard let view = tiles.removeValue(forKey: key) else { return }
        tilesGeneration += 1
        installedBytes -= view.bytes
        tilesPerLevel[key.level] = tilesPerLevel[key.level].flatMap { $0 > 1 ? $0 - 1 : nil }
        view.removeFromSuperview()
        recycleImage(of: view)
    }

    /// Whether it holds tiles of a level other than the current one.
    private var holdsOtherLevels: Bool {
        tilesPerLevel.count > 1 || (tilesPerLevel.keys.first ?? level) != level
    }

    /// Tiles of other levels go once the current level covers the visible rect; before that,
    /// only those that no longer meet the visible rect (they show nothing).
    func removeCoveredLevels() {
        if !holdsOtherLevels { return }
        let covered = coversVisibleRect
        for (key, view) in tiles where key.level != level {
            var shows = false
            if let visibleRect { shows = view.frame.intersects(visibleRect) }
            if covered || !shows {
                remove(key)
            } else {
                show(view)  // held out of the tree at its own level, it shows behind this one
            }
        }
    }

    /// The cap: least recently used tiles go first (ties in painting order, so the choice never
    /// depends on hashing), never the wanted ones nor, until the current level covers the
    /// visible rect, the other levels' tiles showing in it (evicting those would blank the
    /// screen until the workers catch up).
    ///
    /// Queued requests hold no images yet but reserve room here: cached tiles out of view make
    /// way before the workers hand over the tiles that replace them, so the images really held
    /// stay under the cap between two updates too, and the workers draw those tiles in the
    /// evicted tiles' memory (`recycleImage`; `memoryInUse` counts it meanwhile). Since the
    /// tiles on screen are never evicted for them, a reservation only ever costs the cache.
    func evict() {
        let inFlight = bytesInFlight
        var inUse = installedBytes + inFlight.inHand + inFlight.queued
        guard inUse > memoryCap else { return }
        // Other levels' tiles showing in the visible rect stay until this level covers it; with
        // none held, whether it does (a lookup of every visible tile) need not be asked.
        let fallback = !holdsOtherLevels || coversVisibleRect ? nil : visibleRect
        // Plain values ordered without a closure (see `wantedTiles`) and without tile
        // references to retain and release at every move; taken least recently used first,
        // only as many as the cap needs (a fling's update drops a few of the tiles cached).
        var candidates: [Evictable] = []
        candidates.reserveCapacity(tiles.count)
        for (key, view) in tiles where !wantedKeys.contains(key) {
            if key.level != level, let fallback, view.frame.intersects(fallback) { continue }
            candidates.append(Evictable(lastUsed: view.lastUsed, key: key, bytes: view.bytes))
        }
        var order = LeastFirst(candidates)
        while inUse > memoryCap, let candidate = order.popLeast() {
            inUse -= candidate.bytes
            remove(candidate.key)
        }
    }

    /// A tile `evict` may drop, in the order it would: least recently used first, ties in
    /// painting order (so the choice never depends on hashing).
    private struct Evictable: Comparable {
        let lastUsed: Int
        let key: Key
        let bytes: Int

        static func < (a: Evictable, b: Evictable) -> Bool {
            a.lastUsed != b.lastUsed ? a.lastUsed < b.lastUsed : a.key < b.key
        }

        static func == (a: Evictable, b: Evictable) -> Bool { a.lastUsed == b.lastUsed && a.key == b.key }
    }

    /// Logs a tile just drawn (`rasterized`, when recording).
    func noteRasterized(_ tile: Rect, allowed: Rect) {
        rasterizedTileCount += 1
        if recordsRasterization { rasterized.append((tile, allowed)) }
    }

    /// A synchronous tile's drawing (main thread, from the frame's display pass).
    func draw(_ view: TileView, in canvas: Canvas) {
        tilesGeneration += 1
        view.drawPending = false
        guard let source else { return }
        source.draw(view.frame, in: canvas)
        view.isStale = false
        noteRasterized(view.frame, allowed: allowedRect ?? view.frame)
    }
}

/// One tile: its content rect at its level, drawn through its tiled view's source (synchronous
/// tiles) or given an image drawn on a worker thread (`setContents`).
final class TileView: View {
    let key: TiledView.Key
    weak var owner: TiledView?
    // This and `isStale` are read and set for every wanted tile at each update of a fling:
    // unchecked as `View`'s geometry is (main actor only, never `inout` across a call).
    /// The tiled view's `clock` at the last update that wanted it (least recently used first
    /// when the cap evicts).
    @exclusivity(unchecked) var lastUsed = 0
    /// Bytes of its image (bounds × level, four per pixel), counted against the cap.
    let bytes: Int
    /// Its image is missing or out of date (never drawn, or invalidated): asked for again
    /// while wanted.
    @exclusivity(unchecked) var isStale = true
    /// Synchronous mode: marked to be drawn on the main thread in the next frame.
    var drawPending = false
    /// The memory a worker drew its image in (asynchronous tiles), given back when it goes.
    var memory: PixelMemory?

    init(frame: Rect, key: TiledView.Key, owner: TiledView) {
        self.key = key
        self.owner = owner
        bytes = Self.bytes(for: frame.size, level: key.level)
        super.init(frame: frame)
        contentsScale = key.level
        isUserInteractionEnabled = false
        isOpaque = owner.source?.isOpaque ?? false
    }

    var level: Double { key.level }

    override var drawsContent: Bool { true }

    /// The canvas size in device pixels for `size` at `level` (what `displayIfNeeded` allocates).
    static func pixels(for size: Size, level: Double) -> (width: Int, height: Int) {
        (Int(clamping: size.width * level, rounding: .up), Int(clamping: size.height * level, rounding: .up))
    }

    static func bytes(for size: Size, level: Double) -> Int {
        let p = pixels(for: size, level: level)
        return p.width * p.height * 4
    }

    override func draw(in canvas: Canvas) {
        owner?.draw(self, in: canvas)
    }
}
