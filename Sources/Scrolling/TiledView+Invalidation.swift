import ScrollwayGeometry
import ScrollwayViews

extension TiledView {
    /// Marks the tiles meeting `rect` (content coordinates) out of date, as CATiledLayer's
    /// `setNeedsDisplay(in:)` does: requests in flight for them are cancelled (a worker's tile
    /// in hand is dropped when it arrives, being drawn from the old content), and the wanted
    /// ones are drawn again: in the next frame when synchronous, by the workers otherwise, each
    /// keeping its old image on screen until the new one replaces it. Tiles not wanted now are
    /// dropped (synchronous) or asked for again when wanted (asynchronous).
    public func setNeedsDisplay(in rect: Rect) {
        tilesGeneration += 1
        cancelRequests { $0.rect.intersects(rect) }
        for (key, view) in tiles where view.frame.intersects(rect) {
            view.isStale = true
            guard !rasterizesAsynchronously else { continue }
            if wantedKeys.contains(key) && source != nil {
                view.drawPending = true
                view.setNeedsDisplay()
            } else if !wantedKeys.contains(key) {
                remove(key)  // redrawn for nothing otherwise
            }
        }
        updateTiles()
    }

    /// Marks every tile out of date (`setNeedsDisplay(in:)` of the whole content).
    public func invalidateTiles() { setNeedsDisplay(in: bounds) }

    /// Turning asynchronous drawing on: tiles waiting for a main-thread draw go to the workers
    /// instead (a tile never drawn is removed and asked for; one with an image keeps it until
    /// the workers' replaces it).
    func handPendingDrawsToWorkers() {
        tilesGeneration += 1
        for (key, view) in tiles where view.drawPending {
            view.drawPending = false
            if let image = view.backingImage {
                view.setContents(image)  // clears the pending draw, keeps what it shows
            } else {
                remove(key)
            }
        }
        updateTiles()
    }
}
