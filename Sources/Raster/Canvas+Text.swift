import ScrollwayCFcft
import ScrollwayCPixman
import ScrollwayGeometry

/// Horizontal placement of each line inside the text rect.
public enum TextAlignment: Sendable {
    case left, center, right
    /// Left for a left-to-right paragraph, right for a right-to-left one (per line, from the
    /// direction of the line's paragraph).
    case natural

    /// The concrete alignment for a line of a paragraph in that direction.
    public func resolved(rightToLeft: Bool) -> TextAlignment {
        self == .natural ? (rightToLeft ? .right : .left) : self
    }
}

extension Canvas {
    /// Draws a laid-out text in `rect` (logical coordinates): line `i`'s baseline sits at
    /// `rect.minY + ascent + i·lineHeight`, each line aligned horizontally. Nothing is drawn
    /// outside `rect` (glyph overhangs are clipped with it). The layout's shaped glyphs are
    /// drawn as they are; a layout made at another scale than the canvas's is shaped again at
    /// the canvas's, line by line. `shift` moves every line sideways from where its alignment
    /// puts it, the clip staying `rect` (a field scrolled sideways inside its text box).
    public func drawText(
        _ layout: TextLayout, font: Font, in rect: Rect, color: Color, alignment: TextAlignment = .left,
        shift: Double = 0
    ) {
        guard color.alpha > 0, let clipBox = deviceBox(rect) else { return }
        var layout = layout
        if layout.scale != scale || layout.instance == nil {
            layout = rescaled(layout, font: font)
        }
        guard let f = layout.instance else { return }
        // Shaping and rasterizing need no lock of ours (fcft guards its caches itself) and are
        // done: the layout holds the glyphs, and the font instance and segments that own them.
        let placed = placeGlyphs(layout, in: rect, alignment: alignment, shift: shift)
        // Coverage glyphs only (the usual text) and no clip set: blended here with pixman's
        // arithmetic (`CoverageBlend`), reading the glyphs' bits, which needs no lock. Text with
        // a colour glyph goes through pixman whole, keeping the glyphs' order where they meet.
        if clipBoxes == nil, placed.allSatisfy({ pixman_image_get_format($0.pix) == PIXMAN_a8 }) {
            let covered = CoverageBlend.coveredSource(color.premultipliedARGB)
            covered.withUnsafeBufferPointer { covered in
                for g in placed { blend(glyph: g.pix, at: g.at, covered: covered.baseAddress!, clip: clipBox) }
            }
            return
        }
        let src = solidFill(color)
        defer { pixman_image_unref(src) }
        // Glyph images are shared between threads, and pixman validates an image lazily on its
        // first composite (a write): composite them under the instance's lock, and only that.
        f.compositingGlyphs {
            for g in placed { composite(glyph: g.pix, at: g.at, color: src, clip: clipBox) }
        }
    }

    /// `layout`'s lines shaped again at this canvas's scale, unwrapped (their breaks and
    /// ellipses stay as they were).
    private func rescaled(_ layout: TextLayout, font: Font) -> TextLayout {
        var again = font.layout("", scale: scale)
        again.metrics = layout.metrics
        again.lines = layout.lines.map { line in
            // In the line's own paragraph's direction, which its text alone may not show.
            let direction: TextDirection = line.isRightToLeft ? .rightToLeft : .leftToRight
            return font.layout(line.text, scale: scale, direction: direction).lines.first ?? line
        }
        return again
    }

    /// Every glyph image of `layout` with its top-left corner in device pixels.
    private func placeGlyphs(
        _ layout: TextLayout, in rect: Rect, alignment: TextAlignment, shift: Double
    ) -> [(pix: OpaquePointer, at: (Int, Int))] {
        var placed: [(pix: OpaquePointer, at: (Int, Int))] = []
        placed.reserveCapacity(layout.lines.reduce(0) { $0 + $1.glyphs.count })
        for (i, line) in layout.lines.enumerated() {
            let x = rect.minX + layout.lineX(i, alignment: alignment, width: rect.width) + shift
            let baseline = rect.minY + layout.metrics.ascent + Double(i) * layout.metrics.lineHeight
            let pen = Int(clamping: x * scale, rounding: .toNearestOrAwayFromZero)
            let base = Int(clamping: baseline * scale, rounding: .toNearestOrAwayFromZero)
            for g in line.glyphs { placed.append((g.pix, (pen + g.x, base - g.y))) }
        }
        return placed
    }

    /// Convenience: lays out and draws `text` in `rect` with wrapping to the rect's width.
    public func drawText(
        _ text: String, font: Font, in rect: Rect, color: Color, alignment: TextAlignment = .left, maxLines: Int = 0
    ) {
        let layout = font.layout(text, maxWidth: rect.width, maxLines: maxLines, scale: scale)
        drawText(layout, font: font, in: rect, color: color, alignment: alignment)
    }

    /// Where glyph image `pix`, its top-left corner at `p`, meets `clip` (device pixels, ends
    /// exclusive); nil where they do not meet.
    private func area(
        of pix: OpaquePointer, at p: (Int, Int), clip: pixman_box32_t
    ) -> (x1: Int, y1: Int, x2: Int, y2: Int)? {
        let x1 = max(p.0, Int(clip.x1))
        let y1 = max(p.1, Int(clip.y1))
        let x2 = min(p.0 + Int(pixman_image_get_width(pix)), Int(clip.x2))
        let y2 = min(p.1 + Int(pixman_image_get_height(pix)), Int(clip.y2))
        return x2 > x1 && y2 > y1 ? (x1, y1, x2, y2) : nil
    }

    /// Blends a coverage (a8) glyph at `p` (device pixels) inside `clip` with `CoverageBlend`.
    private func blend(
        glyph pix: OpaquePointer, at p: (Int, Int), covered: UnsafePointer<UInt32>, clip: pixman_box32_t
    ) {
        guard let (x1, y1, x2, y2) = area(of: pix, at: p, clip: clip), let bits = pixman_image_get_data(pix),
            let pixels = pixman_image_get_data(image)
        else { return }
        noteDrawn(PixelRect(x0: x1, y0: y1, x1: x2, y1: y2))
        let maskStride = Int(pixman_image_get_stride(pix))
        let mask = UnsafeRawPointer(bits).assumingMemoryBound(to: UInt8.self)
        let pixelStride = stride / 4
        CoverageBlend.blend(
            covered, mask: mask + (y1 - p.1) * maskStride + (x1 - p.0), maskStride: maskStride,
            onto: pixels + y1 * pixelStride + x1, pixelStride: pixelStride, width: x2 - x1, height: y2 - y1)
    }

    /// A coverage (a8) glyph is a mask for the colour; a colour glyph (emoji) is drawn as is.
    private func composite(glyph pix: OpaquePointer, at p: (Int, Int), color src: OpaquePointer, clip: pixman_box32_t) {
        guard let (x1, y1, x2, y2) = area(of: pix, at: p, clip: clip) else { return }
        let mx = Int32(x1 - p.0)
        let my = Int32(y1 - p.1)
        noteDrawn(PixelRect(x0: x1, y0: y1, x1: x2, y1: y2))
        if pixman_image_get_format(pix) == PIXMAN_a8 {
            pixman_image_composite32(
                PIXMAN_OP_OVER, src, pix, image, 0, 0, mx, my, Int32(x1), Int32(y1), Int32(x2 - x1), Int32(y2 - y1))
        } else {
            pixman_image_composite32(
                PIXMAN_OP_OVER, pix, nil, image, mx, my, 0, 0, Int32(x1), Int32(y1), Int32(x2 - x1), Int32(y2 - y1))
        }
    }
}
