import ScrollwayGeometry
import ScrollwayRaster

/// What compositing part of a window paints, worked out and not painted yet
/// (`Window.compositeWork`, painted by `Window.paint`): each view's part, back to front, and
/// what the clear colour fills. Worked out first so that its cost can be weighed against
/// another way to the same pixels before any is painted (`Window.repaintWork`).
@MainActor
public struct CompositeWork {
    struct Item {
        var view: View
        var state: ViewState
        /// Where it lands, snapped to device pixels (logical coordinates).
        var rect: Rect
        /// The device pixels it covers inside its clip.
        var box: PixelRect
        var opaque: Bool
        /// Its image is opaque and unscaled over all of it: copied, not blended.
        var copiesImage: Bool
        /// The part it paints: the area, less what opaque items in front of it cover.
        var clip: PixelRegion
    }

    var items: [Item]
    /// What no opaque item covers: the clear colour's (a `.copy` fill), under any translucent ones.
    var clear: PixelRegion

    /// Bytes that painting the part of this work inside `region` into `canvas` moves through
    /// memory (`Canvas.Traffic`): the clear colour's and opaque backgrounds' fills, translucent
    /// backgrounds, images. Every pixel of the work is filled or drawn at least once, so it is
    /// never less than `Canvas.Traffic.copy` per pixel unless `canvas` streams its fills.
    public func bytesMoved(within region: PixelRegion, into canvas: Canvas) -> Int {
        /// `body` for each piece of `a` ∩ `region` (both disjoint, so the pieces are).
        func pieces(_ a: PixelRegion, _ body: (PixelRect) -> Void) {
            for r in a.rects {
                for q in region.rects { if let piece = r.intersection(q) { body(piece) } }
            }
        }
        var bytes = 0
        pieces(clear) { bytes += canvas.opaqueFillBytes($0) }
        for item in items where !item.clip.isEmpty {
            let view = item.view
            if let bg = view.backgroundColor, bg.alpha > 0 {
                let opaque = bg.alpha * item.state.alpha >= 1
                pieces(item.clip) { bytes += opaque ? canvas.opaqueFillBytes($0) : $0.area * Canvas.Traffic.composite }
            }
            if view.backingImage != nil,
                let shown = view.imageDestination(in: item.rect).intersection(item.state.clip),
                let box = PixelRect(covering: shown, scale: canvas.scale)
            {
                pieces(item.clip.intersection(box)) { bytes += $0.area * Canvas.Traffic.composite }
            }
        }
        return bytes
    }
}
