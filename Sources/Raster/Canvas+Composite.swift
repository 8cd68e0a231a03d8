import Glibc
import ScrollwayCPixman
import ScrollwayCStreaming
import ScrollwayGeometry

/// Compositing: drawing one canvas's pixels onto another. This is the second step of the seeds'
/// model; views composite their cached images with it and never redraw content to move it.
extension Canvas {
    /// Draws `source` with its top-left at `position` (logical coordinates), OVER what is
    /// there, multiplied by `alpha`, restricted to `clip` (logical) if given.
    ///
    /// The position is rounded to the device pixel grid, so an unscaled image is copied pixel
    /// for pixel (exact colours, no resampling).
    public func draw(_ source: Canvas, at position: Point, alpha: Double = 1, clip: Rect? = nil) {
        let dst = Rect(origin: position, size: source.size).rounded(toScale: scale)
        draw(source, in: dst, alpha: alpha, clip: clip)
    }

    /// Draws `source` scaled to fill `destination` (logical coordinates): the transform path
    /// used for zoom. Bilinear filtering when scaled, none when the sizes match. `opaque`: the
    /// caller knows every source pixel is opaque, so at full alpha and unscaled the pixels are
    /// copied (the same result as OVER, without reading what is beneath).
    public func draw(_ source: Canvas, in destination: Rect, alpha: Double = 1, clip: Rect? = nil, opaque: Bool = false)
    {
        guard alpha > 0, source.width > 0, source.height > 0 else { return }
        var area = destination
        if let clip {
            guard let visible = destination.intersection(clip) else { return }
            area = visible
        }
        guard let box = deviceBox(area) else { return }

        // Device-space destination origin and the source-to-destination scale.
        let dx = destination.minX * scale
        let dy = destination.minY * scale
        let sx = destination.width * scale / Double(source.width)
        let sy = destination.height * scale / Double(source.height)
        let unscaled = abs(sx - 1) < 1e-9 && abs(sy - 1) < 1e-9
        // pixman takes the source origin as 32-bit integers and the inverse scale as 16.16:
        // an image shrunk more than 32767× or enlarged so far that its origin leaves Int32 is
        // beyond what can be drawn (and would trap in the conversions below).
        let sourceX = (Double(box.x1) - dx).rounded()
        let sourceY = (Double(box.y1) - dy).rounded()
        guard 1 / sx < 32767, 1 / sy < 32767, abs(sourceX) < Double(Int32.max), abs(sourceY) < Double(Int32.max)
        else { return }

        noteDrawn(PixelRect(box))
        let mask: OpaquePointer? = alpha < 1 ? solidFill(Color(red: 0, green: 0, blue: 0, alpha: alpha)) : nil
        defer { if let mask { pixman_image_unref(mask) } }

        if unscaled {
            let ox = Int32(clamping: dx, rounding: .toNearestOrAwayFromZero)
            let oy = Int32(clamping: dy, rounding: .toNearestOrAwayFromZero)
            pixman_image_composite32(
                opaque && mask == nil ? PIXMAN_OP_SRC : PIXMAN_OP_OVER, source.image, mask, image, box.x1 - ox,
                box.y1 - oy, 0, 0, box.x1, box.y1, box.x2 - box.x1, box.y2 - box.y1)
            return
        }
        // The transform maps destination pixels to source pixels: src = (dst - d) / s.
        var t = pixman_transform_t()
        pixman_transform_init_scale(&t, fixed(1 / sx), fixed(1 / sy))
        pixman_image_set_transform(source.image, &t)
        pixman_image_set_filter(source.image, PIXMAN_FILTER_BILINEAR, nil, 0)
        // Pad the edges: bilinear samples half a pixel beyond them, which would otherwise blend
        // the border with transparency. The destination box already bounds what is written.
        pixman_image_set_repeat(source.image, PIXMAN_REPEAT_PAD)
        pixman_image_composite32(
            PIXMAN_OP_OVER, source.image, mask, image,
            Int32(clamping: sourceX), Int32(clamping: sourceY), 0, 0,
            box.x1, box.y1, box.x2 - box.x1, box.y2 - box.y1)
        pixman_image_set_transform(source.image, nil)
        pixman_image_set_filter(source.image, PIXMAN_FILTER_NEAREST, nil, 0)
        pixman_image_set_repeat(source.image, PIXMAN_REPEAT_NONE)
    }

    /// Moves the pixels of `rect` (device pixels) by (`dx`, `dy`) inside this canvas: the new
    /// pixel at p is the old one at p − (dx, dy) wherever both lie in `rect`. The part of `rect`
    /// that nothing moved into keeps its old pixels (a caller repaints it). How a scroll reuses
    /// last frame's pixels in a buffer that holds them: one memmove per row, in the order that
    /// never reads a row already written.
    public func shift(_ rect: PixelRect, dx: Int, dy: Int) {
        guard dx != 0 || dy != 0,
            let r = rect.intersection(PixelRect(x: 0, y: 0, width: width, height: height)),
            let kept = r.intersection(r.offsetBy(dx: dx, dy: dy))
        else { return }
        let rowBytes = kept.width * 4
        if let known = knownFills {
            // Whole rows carry what their tracker knows; any other part is written over.
            if dx == 0 && kept.x0 == 0 && kept.width == width {
                known.copyRows(
                    from: known, kept.y0 - dy + knownFillsRow, to: kept.y0 + knownFillsRow, count: kept.height)
            } else {
                noteDrawn(kept)
            }
        }
        // Not `withPixels`, which would forget what the tracker was just told.
        guard let data = pixman_image_get_data(image) else { return }
        do {
            let base = UnsafeMutableRawPointer(data)
            func row(_ y: Int) {
                let dst = base + y * stride + kept.x0 * 4
                let src = base + (y - dy) * stride + (kept.x0 - dx) * 4
                memmove(dst, src, rowBytes)
            }
            if dx == 0 && kept.x0 == 0 && kept.width == width && stride == width * 4 {
                // Whole rows, contiguous: one move.
                memmove(
                    base + kept.y0 * stride, base + (kept.y0 - dy) * stride, kept.height * stride)
            } else if dy > 0 {
                for y in (kept.y0..<kept.y1).reversed() { row(y) }
            } else {
                for y in kept.y0..<kept.y1 { row(y) }
            }
        }
    }

    /// Copies `source`'s pixels of `rect` − (dx, dy) to `rect` here (device pixels; SRC): how a
    /// buffer is brought up to date from a newer one, which holds the same content moved by
    /// (dx, dy), or unmoved (0, 0).
    ///
    /// Whole rows between canvases of one width (a scroll view as wide as the window) are one
    /// block, copied with streaming stores (`copyStreaming`): the rows are for the compositor
    /// to read, not us (against pixman's SRC: docs/decisions.md).
    public func copyPixels(from source: Canvas, to rect: PixelRect, dx: Int = 0, dy: Int = 0) {
        guard
            let r = rect.intersection(PixelRect(x: 0, y: 0, width: width, height: height))?
                .intersection(PixelRect(x: dx, y: dy, width: source.width, height: source.height))
        else { return }
        if let known = knownFills {
            // Whole rows from a canvas that tracks its own carry what it knows of them.
            if let from = source.knownFills, dx == 0, r.x0 == 0, r.width == width, source.width == width {
                known.copyRows(
                    from: from, r.y0 - dy + source.knownFillsRow, to: r.y0 + knownFillsRow, count: r.height)
            } else {
                noteDrawn(r)
            }
        }
        if dx == 0, r.x0 == 0, r.width == width, source.width == width, stride == width * 4, source.stride == stride,
            let to = pixman_image_get_data(image), let from = pixman_image_get_data(source.image)
        {
            Self.copyStreaming(
                to: UnsafeMutableRawPointer(to) + r.y0 * stride, from: UnsafeRawPointer(from) + (r.y0 - dy) * stride,
                count: r.height * stride)
            return
        }
        pixman_image_composite32(
            PIXMAN_OP_SRC, source.image, nil, image, Int32(r.x0 - dx), Int32(r.y0 - dy), 0, 0, Int32(r.x0),
            Int32(r.y0), Int32(r.width), Int32(r.height))
    }

    /// `memmove` with streaming (non-temporal) stores, for blocks of whole rows that only the
    /// compositor reads next (a buffer's recentring in its ring, rows copied from the newest
    /// buffer), written without first reading each destination line into the cache as plain
    /// stores do. The source is fetched ahead non-temporally, so the megabytes read once do not
    /// evict the rest of the frame's working set from the caches. What each saved in weston is
    /// in docs/decisions.md. Overlap in either direction is fine. Off x86-64, `memmove`.
    public static func copyStreaming(to dst: UnsafeMutableRawPointer, from src: UnsafeRawPointer, count: Int) {
        sw_memmove_streaming(dst, src, count)
    }

}
