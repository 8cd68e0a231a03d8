import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews

/// A tiled view's requests to worker threads, kept on the main thread.
struct TileRequests {
    struct Request {
        let id: Int
        let key: TiledView.Key
        let rect: Rect
        /// The visible rect plus margin when it was requested (the `rasterized` log).
        let allowed: Rect
        /// Its image's bytes, counted against the cap once a worker holds it.
        let bytes: Int
        /// `Window.framesPrepared` when requested: a higher count on arrival means a frame went
        /// out without this tile, which then fades in.
        let framesBefore: Int
    }

    /// Every request a worker may still deliver, by id (queued, being drawn, or drawn and on its
    /// way through the inbox).
    var live: [Int: Request] = [:]
    /// The request still wanted for each key (a cancelled one being drawn is only in `live`).
    var idByKey: [TiledView.Key: Int] = [:]
    var nextID = 0
    var rasterizer: TileRasterizer?
    var channel: InboxChannel<TileDelivery>?
    weak var channelWindow: Window?
    var requested = 0
    var cancelled = 0
    var discarded = 0
}

extension TiledView {
    /// Tiles asked of the workers and not yet arrived (still wanted).
    public var pendingTileCount: Int { requests.idByKey.count }
    /// Tiles asked of the workers so far.
    public var requestedTileCount: Int { requests.requested }
    /// Requests cancelled (scrolled away, level changed) before a worker started them.
    public var cancelledTileCount: Int { requests.cancelled }
    /// Tiles drawn but dropped on arrival: cancelled while a worker was drawing them.
    public var discardedTileCount: Int { requests.discarded }
    /// Tiles a worker drew in the memory of a tile evicted for them (cleared, unless the source
    /// is opaque) instead of memory freed and allocated again.
    public var reusedTileImageCount: Int { requests.rasterizer?.reusedCount ?? 0 }

    /// Bytes of the images workers hold: requests a worker has taken (being drawn, or drawn and
    /// not yet received), cancelled ones included, and evicted tiles' memory kept for queued
    /// requests (`TileRasterizer.recycle`). Queued requests own no memory yet, so
    /// `memoryInUse` leaves them out (eviction only reserves room for them, see `evict`).
    var bytesInHand: Int { bytesInFlight.inHand + (requests.rasterizer?.spareBytes ?? 0) }

    /// Gives a removed tile's memory back to the workers for a queued tile of its size, when
    /// nothing else holds the tile's image (a frame being painted, an app): freeing it here
    /// would cost the main thread (see `PixelMemory`).
    func recycleImage(of view: TileView) {
        guard let memory = view.memory, let rasterizer = requests.rasterizer else { return }
        view.memory = nil
        var image = view.takeContents()
        let sole = isKnownUniquelyReferenced(&image)
        image = nil
        if sole { rasterizer.recycle(memory) }
    }

    /// Bytes of the requests workers hold (`bytesInHand`) and of those still queued.
    var bytesInFlight: (inHand: Int, queued: Int) {
        guard let rasterizer = requests.rasterizer, !requests.live.isEmpty else { return (0, 0) }
        let queued = rasterizer.queuedIDs()
        var result = (inHand: 0, queued: 0)
        for r in requests.live.values {
            if queued.contains(r.id) { result.queued += r.bytes } else { result.inHand += r.bytes }
        }
        return result
    }

    /// Cancels what `wanted` no longer has, re-ranks the rest, and asks the workers for the
    /// wanted tiles that are neither installed (up to date) nor on their way. Main thread; never
    /// waits.
    func requestAsynchronously(_ wanted: [WantedTile], allowed: Rect, in window: Window) {
        guard let source else {
            cancelAllRequests()
            return
        }
        let (channel, rasterizer) = connect(to: window)
        // Each wanted tile's request in flight and installed view, looked up once: the unwanted
        // requests forgotten below are none of these.
        let (inFlight, views) = lookUp(wanted)
        if !requests.idByKey.isEmpty {
            var priorities: [Int: Double] = [:]
            priorities.reserveCapacity(requests.idByKey.count)
            for (i, tile) in wanted.enumerated() {
                if let id = inFlight[i] { priorities[id] = tile.priority }
            }
            let removed = Set(rasterizer.reprioritize(priorities))
            var unwanted: [Int] = []
            for id in requests.idByKey.values where priorities[id] == nil { unwanted.append(id) }
            forget(unwanted, removedFromQueue: removed)
        }
        let stamp = clock
        let framesBefore = window.framesPrepared
        var jobs: [TileRasterizer.Job] = []
        for (i, tile) in wanted.enumerated() {
            if let view = views[i] {
                view.lastUsed = stamp
                show(view)
                if !view.isStale { continue }  // an invalidated tile is asked for again
            }
            guard inFlight[i] == nil else { continue }
            let pixels = TileView.pixels(for: tile.rect.size, level: tile.key.level)
            requests.nextID += 1
            let request = TileRequests.Request(
                id: requests.nextID, key: tile.key, rect: tile.rect, allowed: allowed,
                bytes: pixels.width * pixels.height * 4, framesBefore: framesBefore)
            requests.live[request.id] = request
            requests.idByKey[tile.key] = request.id
            requests.requested += 1
            jobs.append(
                TileRasterizer.Job(
                    id: request.id, rect: tile.rect, level: tile.key.level, pixelWidth: pixels.width,
                    pixelHeight: pixels.height, priority: tile.priority, source: source,
                    ticket: window.ticket(on: channel)))
        }
        // Queued together, so that a worker woken by the first takes the most urgent of them.
        rasterizer.submit(jobs)
    }

    /// Each wanted tile's request still wanted and installed view, from one read of each
    /// table (every access to the view's stored tables is checked for exclusivity at run time;
    /// the local copies go before the tables change).
    private func lookUp(_ wanted: [WantedTile]) -> (inFlight: [Int?], views: [TileView?]) {
        let idByKey = requests.idByKey
        let tiles = self.tiles
        var inFlight: [Int?] = []
        var views: [TileView?] = []
        inFlight.reserveCapacity(wanted.count)
        views.reserveCapacity(wanted.count)
        for tile in wanted {
            inFlight.append(idByKey.isEmpty ? nil : idByKey[tile.key])
            views.append(tiles[tile.key])
        }
        return (inFlight, views)
    }

    /// The channel into `window`'s inbox and the worker pool, opened on first use. Moving to
    /// another window forgets what was in flight for the old one.
    private func connect(to window: Window) -> (InboxChannel<TileDelivery>, TileRasterizer) {
        if let channel = requests.channel, requests.channelWindow === window, let r = requests.rasterizer {
            if r.budget !== window.backgroundBudget { r.budget = window.backgroundBudget }
            return (channel, r)
        }
        cancelAllRequests()
        if let old = requests.channel { requests.channelWindow?.closeChannel(old) }
        requests.live = [:]
        let channel = window.openChannel(TileDelivery.self) { [weak self] delivery in self?.receive(delivery) }
        requests.channel = channel
        requests.channelWindow = window
        let rasterizer =
            requests.rasterizer
            ?? TileRasterizer(width: workerCount ?? TileRasterizer.defaultWidth, startThread: workerStarter)
        rasterizer.budget = window.backgroundBudget
        requests.rasterizer = rasterizer
        return (channel, rasterizer)
    }

    /// Cancels every request in flight (tiles being drawn are dropped when they arrive).
    func cancelAllRequests() {
        cancelRequests { _ in true }
    }

    /// Cancels the requests in flight that `shouldCancel` picks: queued ones leave the queue,
    /// ones a worker holds are dropped when they arrive.
    func cancelRequests(where shouldCancel: (TileRequests.Request) -> Bool) {
        guard !requests.idByKey.isEmpty, let rasterizer = requests.rasterizer else { return }
        let doomed = Set(requests.idByKey.values.filter { requests.live[$0].map(shouldCancel) ?? true })
        guard !doomed.isEmpty else { return }
        forget(doomed, removedFromQueue: Set(rasterizer.cancel(doomed)))
    }

    /// No longer wants the requests `ids`; those `removed` from the queue will never arrive.
    private func forget(_ ids: some Sequence<Int>, removedFromQueue removed: Set<Int>) {
        tilesGeneration += 1
        for id in ids {
            guard let request = requests.live[id] else { continue }
            if requests.idByKey[request.key] == id { requests.idByKey[request.key] = nil }
            if removed.contains(id) {
                requests.live[id] = nil
                requests.cancelled += 1
            }
        }
    }

    /// The view is going: queued tiles are dropped and the worker threads end.
    func closeRasterizer() {
        requests.rasterizer?.close()
        if let channel = requests.channel { requests.channelWindow?.closeChannel(channel) }
    }

    /// A worker's tile arrives (main thread, from the inbox): installed if still wanted, fading
    /// in if a frame already went out without it while it was in the visible rect.
    func receive(_ delivery: TileDelivery) {
        guard let request = requests.live.removeValue(forKey: delivery.id) else { return }
        tilesGeneration += 1
        let image = delivery.image?.take()
        if image != nil { noteRasterized(request.rect, allowed: request.allowed) }
        guard requests.idByKey[request.key] == delivery.id else {
            requests.discarded += 1
            return
        }
        requests.idByKey[request.key] = nil
        // A canvas that could not be allocated is asked for again by the next update.
        guard let image else { return }
        let view = TileView(frame: request.rect, key: request.key, owner: self)
        view.setContents(image)
        view.memory = delivery.memory
        view.isStale = false
        if tiles[request.key] != nil {
            remove(request.key)  // an invalidated tile's new image: replaced in place, no fade
        } else if let window, window.framesPrepared > request.framesBefore, fadeDuration > 0,
            screenSpeed <= fadeSpeedLimit, visibleRect.map({ request.rect.intersects($0) }) ?? false
        {
            // Only a tile the screen went without fades in: one drawn ahead in the margin
            // (a fling's tiles, mostly) was never missed, and fading it would composite its
            // whole area translucently for every frame of the fade once it scrolls in. Nor
            // one that arrives while the view sweeps past (`fadeSpeedLimit`).
            view.alpha = 0
            window.addAnimation(TileFade(tile: view, owner: self, start: window.now, duration: fadeDuration))
        }
        install(view)
        removeCoveredLevels()
        evict()
    }
}

/// Fades a tile that arrived late from transparent to opaque, linearly, on the window's clock;
/// when done, tiles of other levels behind it may go.
final class TileFade: FrameAnimation {
    weak var tile: TileView?
    weak var owner: TiledView?
    let start: Double
    let duration: Double

    init(tile: TileView, owner: TiledView, start: Double, duration: Double) {
        self.tile = tile
        self.owner = owner
        self.start = start
        self.duration = duration
    }

    func advance(to time: Double) -> Bool {
        // A tile that left the view tree was made opaque there (`parkTilesOutOfReach`): its fade
        // is over.
        guard let tile, tile.superview != nil, tile.alpha < 1 else { return false }
        let progress = min(1, max(0, (time - start) / duration))
        tile.alpha = progress
        guard progress >= 1 else { return true }
        owner?.removeCoveredLevels()
        return false
    }
}
