import ScrollwayCFcft
import ScrollwayCPixman
import ScrollwayGeometry

/// Horizontal placement of each line inside the text rect.
public enum TextAlignment: Sendable {
    case left, center, right
}

extension Canvas {
    /// Draws a laid-out text in `rect` (logical coordinates): line `i`'s baseline sits at
    /// `rect.minY + ascent + i·lineHeight`, each line aligned horizontally. Nothing is drawn
    /// outside `rect` (glyph overhangs are clipped with it).
    public func drawText(
        _ layout: TextLayout, font: Font, in rect: Rect, color: Color, alignment: TextAlignment = .left
    ) {
        guard color.alpha > 0, let f = try? font.instance(scale: scale), let clipBox = deviceBox(rect) else { return }
        let src = solidFill(color)
        defer { pixman_image_unref(src) }
        // Rasterizing needs no lock of ours (fcft guards its glyph cache itself), so it runs
        // before taking the instance's lock, and the glyphs' pointers stay valid as long as the
        // instance (fcft caches them in it).
        let placed = placeGlyphs(layout, font: f, in: rect, alignment: alignment)
        // Glyph images are shared between threads, and pixman validates an image lazily on its
        // first composite (a write): composite them under the instance's lock, and only that.
        f.compositingGlyphs {
            for g in placed { composite(glyph: g.pix, at: g.at, color: src, clip: clipBox) }
        }
    }

    /// Every glyph image of `layout` with its top-left corner in device pixels (rasterized by
    /// fcft, cached there).
    private func placeGlyphs(
        _ layout: TextLayout, font f: FcftFont, in rect: Rect, alignment: TextAlignment
    ) -> [(pix: OpaquePointer, at: (Int, Int))] {
        var placed: [(pix: OpaquePointer, at: (Int, Int))] = []
        for (i, line) in layout.lines.enumerated() {
            let x: Double
            switch alignment {
            case .left: x = rect.minX
            case .center: x = rect.minX + (rect.width - line.width) / 2
            case .right: x = rect.maxX - line.width
            }
            let baseline = rect.minY + layout.metrics.ascent + Double(i) * layout.metrics.lineHeight
            var pen = Int((x * scale).rounded())
            let base = Int((baseline * scale).rounded())
            var previous: Unicode.Scalar?
            for s in line.text.unicodeScalars {
                if let p = previous { pen += f.kerning(p, s) }
                previous = s
                guard let glyph = f.glyph(s) else { continue }
                let g = glyph.pointee
                if let pix = g.pix { placed.append((pix, (pen + Int(g.x), base - Int(g.y)))) }
                pen += Int(g.advance.x)
            }
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

    /// A coverage (a8) glyph is a mask for the colour; a colour glyph (emoji) is drawn as is.
    private func composite(glyph pix: OpaquePointer, at p: (Int, Int), color src: OpaquePointer, clip: pixman_box32_t) {
        let w = Int(pixman_image_get_width(pix))
        let h = Int(pixman_image_get_height(pix))
        let x1 = max(p.0, Int(clip.x1))
        let y1 = max(p.1, Int(clip.y1))
        let x2 = min(p.0 + w, Int(clip.x2))
        let y2 = min(p.1 + h, Int(clip.y2))
        guard x2 > x1, y2 > y1 else { return }
        let mx = Int32(x1 - p.0)
        let my = Int32(y1 - p.1)
        if pixman_image_get_format(pix) == PIXMAN_a8 {
            pixman_image_composite32(
                PIXMAN_OP_OVER, src, pix, image, 0, 0, mx, my, Int32(x1), Int32(y1), Int32(x2 - x1), Int32(y2 - y1))
        } else {
            pixman_image_composite32(
                PIXMAN_OP_OVER, pix, nil, image, mx, my, 0, 0, Int32(x1), Int32(y1), Int32(x2 - x1), Int32(y2 - y1))
        }
    }
}
