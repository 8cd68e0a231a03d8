import Glibc
import ScrollwayCPixman
import ScrollwayCStreaming
import ScrollwayGeometry

/// Fills, strokes and gradients. Rectangles on the pixel grid are filled exactly (no
/// antialiasing, so flat colours are exact); other shapes are antialiased triangles that pixman
/// accumulates into one coverage mask (shared edges add up to full coverage: no seams).
extension Canvas {
    /// Fills the whole canvas (inside the clip) with `color`, replacing what was there.
    public func clear(_ color: Color = .clear) {
        fill(Rect(origin: .zero, size: size), color: color, blend: .copy)
    }

    /// Fills `rect` with `color`. The rect is widened to whole device pixels.
    public func fill(_ rect: Rect, color: Color, blend: BlendMode = .over) {
        guard let box = deviceBox(rect) else { return }
        fill(box, color: color, blend: blend)
    }

    /// `fill` of `box`, device pixels already inside the canvas.
    private func fill(_ box: pixman_box32_t, color: Color, blend: BlendMode) {
        if blend == .over && color.alpha <= 0 { return }
        let op = (blend == .over && color.isOpaque) ? PIXMAN_OP_SRC : blend.pixmanOp
        // Opaque SRC fills are what a canvas that tracks its fills keeps; anything else it marks.
        let tracked = knownFills != nil && op == PIXMAN_OP_SRC && color.isOpaque
        if knownFills != nil && !tracked { noteDrawn(PixelRect(box)) }
        if tracked || (op == PIXMAN_OP_SRC && streamsFills) {
            return fillSolid(box, pixel: color.premultipliedARGB, tracked: tracked)
        }
        let c = color.premultiplied16
        var pc = pixman_color_t(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
        var b = box
        _ = pixman_image_fill_boxes(op, image, &pc, 1, &b)
    }

    /// Bytes an opaque fill of `box` moves through memory (`Traffic`): written only when
    /// streamed (`streamsFills`, rows of `streamingFillWidth` and more); through pixman each
    /// line is read into the cache before it is written.
    public func opaqueFillBytes(_ box: PixelRect) -> Int {
        box.area * (streamsFills && box.width >= Self.streamingFillWidth ? Traffic.streamedFill : Traffic.copy)
    }

    /// Rows narrower than this are filled by pixman even when `streamsFills`: a streaming store
    /// pays off for whole cache lines, and a short row is mostly its unaligned ends.
    static let streamingFillWidth = 128

    /// What pixman's SRC fill of `box` makes (`pixel` is the colour's premultiplied ARGB, which
    /// pixman's 16-bit colour converts back to exactly), within the clip, each part with
    /// streaming stores when `streamsFills` and its rows are wide enough. Clip boxes may overlap
    /// (pixman takes their union): a pixel filled twice gets the same value. On a canvas that
    /// tracks its fills only the pixels its tracker does not know to hold `pixel` already are
    /// written (`KnownFills.fill`, in runs of rows) when `tracked` (the colour is opaque); an
    /// overlapping clip box finds the rows the first filled known.
    private func fillSolid(_ box: pixman_box32_t, pixel: UInt32, tracked: Bool) {
        guard let data = pixman_image_get_data(image) else { return }
        let streams = streamsFills
        func write(_ part: PixelRect) {
            if streams && part.width >= Self.streamingFillWidth {
                let start = UnsafeMutableRawPointer(data) + part.y0 * stride + part.x0 * 4
                sw_fill_streaming(start, stride, part.width, part.height, pixel)
            } else {
                pixman_fill(
                    data, Int32(stride / 4), 32, Int32(part.x0), Int32(part.y0), Int32(part.width),
                    Int32(part.height), pixel)
            }
        }
        let known = tracked ? knownFills : nil
        let row = knownFillsRow
        func fill(_ part: PixelRect) {
            guard let known else { return write(part) }
            known.fill((part.y0 + row)..<(part.y1 + row), x0: part.x0, x1: part.x1, pixel: pixel) { rows, x0, x1 in
                write(PixelRect(x0: x0, y0: rows.lowerBound - row, x1: x1, y1: rows.upperBound - row))
            }
        }
        let whole = PixelRect(box)
        // Every composited item's background comes here: no array is built for its parts.
        guard let clipBoxes else { return fill(whole) }
        for b in clipBoxes { if let part = PixelRect(b).intersection(whole) { fill(part) } }
    }

    /// Fills a convex polygon (points in order, logical coordinates) with antialiased edges.
    ///
    /// The polygon is cut into horizontal trapezoids between its vertices' heights, each bounded
    /// by the two outline edges that span it, and pixman rasterizes those. pixman samples every
    /// edge the same way whichever shape it bounds (half-open in x and y), so the coverage is
    /// exactly that of any other cutting into triangles or trapezoids: the same pixels as a fan
    /// of triangles from the first vertex, for far less work. A fan's triangles each span nearly
    /// the whole height, so a rounded rect of 16 vertices was rasterized about 14 times over
    /// (a scroll indicator's thumb, redrawn every frame of a fling, cost more than the rest of
    /// the frame's logic); trapezoids cover each sample row once.
    public func fillConvexPolygon(_ points: [Point], color: Color) {
        guard points.count >= 3, color.alpha > 0 else { return }
        let traps = Self.trapezoids(ofConvex: points.map(fixedPoint))
        if !compositeRepeatingRows(traps, color: color) { compositeTrapezoids(traps, color: color) }
    }

    /// What `pixman_composite_trapezoids` does (a zeroed a8 mask over the trapezoids' extents,
    /// each rasterized into it, the colour composited through it), except that a band with
    /// vertical sides is rasterized down to its first whole device row only and that row is
    /// copied to the band's other whole rows: pixman samples every row of such a band alike
    /// (the same sample heights within a row, the same edge x), so the mask, and the pixels,
    /// are the same. A rounded rect's straight middle (a scroll indicator's thumb, a button)
    /// costs one row instead of fifteen sample rows per pixel row. False when no band has
    /// three whole rows to gain (the caller then lets pixman do it all).
    private func compositeRepeatingRows(_ traps: [pixman_trapezoid_t], color: Color) -> Bool {
        // In Int: fixed-point values near pixman's limits (±32768) would overflow Int32 here.
        func vertical(_ l: pixman_line_fixed_t) -> Bool { l.p1.x == l.p2.x }
        func floorInt(_ f: pixman_fixed_t) -> Int { Int(f) >> 16 }
        func ceilInt(_ f: pixman_fixed_t) -> Int { (Int(f) + 0xFFFF) >> 16 }
        func repeats(_ t: pixman_trapezoid_t) -> Bool {
            vertical(t.left) && vertical(t.right) && floorInt(t.bottom) - ceilInt(t.top) >= 3
        }
        guard traps.contains(where: repeats) else { return false }
        // Only what can be drawn: the mask covers the part of the extents inside the clip.
        var extents = PixelExtents()
        for t in traps { extents.add(t) }
        let (x1, y1, x2, y2) = clipped(extents)
        guard x1 < x2, y1 < y2, let mask = pixman_image_create_bits(PIXMAN_a8, Int32(x2 - x1), Int32(y2 - y1), nil, 0)
        else { return true }
        defer { pixman_image_unref(mask) }
        let stride = Int(pixman_image_get_stride(mask))
        let bytes = UnsafeMutableRawPointer(pixman_image_get_data(mask)!)
        for var t in traps {
            // The band's whole rows within the mask: the first is rasterized, the rest copy it
            // (pixman clips what falls outside the mask, rows and columns alike).
            let first = max(ceilInt(t.top), y1)
            let end = min(floorInt(t.bottom), y2)
            guard repeats(t), end - first >= 2 else {
                pixman_rasterize_trapezoid(mask, &t, Int32(-x1), Int32(-y1))
                continue
            }
            var head = t
            head.bottom = pixman_fixed_t((first + 1) << 16)
            pixman_rasterize_trapezoid(mask, &head, Int32(-x1), Int32(-y1))
            let row = bytes + (first - y1) * stride
            for r in (first + 1)..<end { (bytes + (r - y1) * stride).copyMemory(from: row, byteCount: stride) }
            if Int(t.bottom) > end << 16 {
                var tail = t
                tail.top = pixman_fixed_t(end << 16)
                pixman_rasterize_trapezoid(mask, &tail, Int32(-x1), Int32(-y1))
            }
        }
        let src = solidFill(color)
        defer { pixman_image_unref(src) }
        noteDrawn(PixelRect(x0: x1, y0: y1, x1: x2, y1: y2))
        pixman_image_composite32(
            PIXMAN_OP_OVER, src, mask, image, Int32(x1), Int32(y1), 0, 0, Int32(x1), Int32(y1), Int32(x2 - x1),
            Int32(y2 - y1))
        return true
    }

    /// The same fill as `fillConvexPolygon`, as pixman's triangles fanned from the first vertex,
    /// composited by pixman itself over their whole extents (the reference the trapezoids and
    /// the clipped masks are checked against).
    func fillConvexPolygonByTriangles(_ points: [Point], color: Color) {
        guard points.count >= 3, color.alpha > 0 else { return }
        var tris: [pixman_triangle_t] = []
        tris.reserveCapacity(points.count - 2)
        let p0 = fixedPoint(points[0])
        for i in 1..<(points.count - 1) {
            tris.append(pixman_triangle_t(p1: p0, p2: fixedPoint(points[i]), p3: fixedPoint(points[i + 1])))
        }
        compositeTrianglesByPixman(tris, color: color)
    }

    /// `tris` composited by `pixman_composite_triangles`, whose mask covers their whole
    /// extents: the reference for `compositeTriangles`.
    private func compositeTrianglesByPixman(_ tris: [pixman_triangle_t], color: Color) {
        guard !tris.isEmpty else { return }
        forgetKnownFills()
        let src = solidFill(color)
        defer { pixman_image_unref(src) }
        tris.withUnsafeBufferPointer {
            pixman_composite_triangles(
                PIXMAN_OP_OVER, src, image, PIXMAN_a8, 0, 0, 0, 0, Int32($0.count), $0.baseAddress)
        }
    }

    /// Horizontal trapezoids covering a convex polygon given in order (either winding): one per
    /// band between consecutive distinct vertex heights, its sides the outline edges crossing
    /// that band. Edges keep their end points exactly, so pixman steps along each the same way
    /// it would for a triangle sharing it. A polygon that is not convex (or degenerate) gets
    /// the trapezoids of its two monotone chains' outermost edges, never a crash.
    static func trapezoids(ofConvex pts: [pixman_point_fixed_t]) -> [pixman_trapezoid_t] {
        let n = pts.count
        guard n >= 3 else { return [] }
        // Both chains run from the top vertex to the bottom one, each as a list of edges.
        var top = 0
        var bottom = 0
        for i in 1..<n {
            if pts[i].y < pts[top].y { top = i }
            if pts[i].y > pts[bottom].y { bottom = i }
        }
        guard pts[top].y < pts[bottom].y else { return [] }
        func chain(step: Int) -> [pixman_line_fixed_t] {
            var edges: [pixman_line_fixed_t] = []
            var i = top
            var guardCount = 0
            while i != bottom && guardCount < n {
                let j = (i + step + n) % n
                if pts[j].y != pts[i].y { edges.append(pixman_line_fixed_t(p1: pts[i], p2: pts[j])) }
                i = j
                guardCount += 1
            }
            return edges
        }
        let a = chain(step: 1)
        let b = chain(step: -1)
        // The vertices' heights, sorted, each once (a handful: no set, which hashes each).
        var bands = pts.map(\.y)
        bands.sort()
        var unique = 0
        for i in bands.indices where unique == 0 || bands[i] != bands[unique - 1] {
            bands[unique] = bands[i]
            unique += 1
        }
        bands.removeLast(bands.count - unique)
        var traps: [pixman_trapezoid_t] = []
        traps.reserveCapacity(bands.count - 1)
        var ia = 0
        var ib = 0
        func lower(_ e: pixman_line_fixed_t) -> pixman_fixed_t { max(e.p1.y, e.p2.y) }
        func upper(_ e: pixman_line_fixed_t) -> pixman_fixed_t { min(e.p1.y, e.p2.y) }
        /// x of `e` at height `y` (only to tell left from right).
        func x(_ e: pixman_line_fixed_t, _ y: Double) -> Double {
            let (y1, y2) = (Double(e.p1.y), Double(e.p2.y))
            let t = (y - y1) / (y2 - y1)
            return Double(e.p1.x) + t * (Double(e.p2.x) - Double(e.p1.x))
        }
        for k in 0..<(bands.count - 1) {
            let y0 = bands[k]
            let y1 = bands[k + 1]
            while ia < a.count && lower(a[ia]) <= y0 { ia += 1 }
            while ib < b.count && lower(b[ib]) <= y0 { ib += 1 }
            guard ia < a.count, ib < b.count, upper(a[ia]) <= y0, upper(b[ib]) <= y0 else { continue }
            let mid = (Double(y0) + Double(y1)) / 2
            let (l, r) = x(a[ia], mid) <= x(b[ib], mid) ? (a[ia], b[ib]) : (b[ib], a[ia])
            traps.append(pixman_trapezoid_t(top: y0, bottom: y1, left: l, right: r))
        }
        return traps
    }

    /// Fills a rectangle with rounded corners (radius clamped to half the shorter side).
    public func fillRoundedRect(_ rect: Rect, radius: Double, color: Color) {
        let r = min(max(0, radius), rect.width / 2, rect.height / 2)
        if r <= 0 {
            fill(rect, color: color)
            return
        }
        fillConvexPolygon(roundedRectOutline(rect, radius: r), color: color)
    }

    /// Fills the ellipse inscribed in `rect`.
    public func fillEllipse(in rect: Rect, color: Color) {
        fillConvexPolygon(ellipseOutline(rect), color: color)
    }

    /// Strokes the outline of `rect` with lines `lineWidth` wide, centred on the rect's edges
    /// like UIKit's stroke.
    public func strokeRect(_ rect: Rect, lineWidth: Double, color: Color) {
        strokeRoundedRect(rect, radius: 0, lineWidth: lineWidth, color: color)
    }

    /// Strokes a rounded rectangle's outline: the ring between the outline grown and shrunk by
    /// half the line width, filled as one mask.
    public func strokeRoundedRect(_ rect: Rect, radius: Double, lineWidth: Double, color: Color) {
        strokeRoundedRect(rect, radius: radius, lineWidth: lineWidth, color: color, byPixman: false)
    }

    /// `byPixman`: the ring composited by pixman itself over its whole extents (the reference
    /// the clipped mask is checked against).
    func strokeRoundedRect(_ rect: Rect, radius: Double, lineWidth: Double, color: Color, byPixman: Bool) {
        guard lineWidth > 0, color.alpha > 0 else { return }
        let h = lineWidth / 2
        let outer = rect.insetBy(dx: -h, dy: -h)
        let inner = rect.insetBy(dx: h, dy: h)
        let rOuter = radius > 0 ? radius + h : 0
        let rInner = max(0, radius - h)
        if inner.isEmpty {
            fillRoundedRect(outer, radius: rOuter, color: color)
            return
        }
        if rOuter == 0, !byPixman, let bands = Self.ringBands(outer: fixedBox(outer), inner: fixedBox(inner)) {
            // Square corners on the pixel grid: every pixel of the ring is covered whole and
            // every other not at all, which pixman's triangles would work out sample by sample
            // over the ring's height (a map block's outline cost a tile far more than its fill).
            // An empty band (the boxes share a side) has no pixel box.
            for band in bands { if let box = pixelBox(PixelRect(band)) { fill(box, color: color, blend: .over) } }
            return
        }
        // Both outlines with the same number of vertices, so the ring is a strip of quads.
        let o = roundedRectOutline(outer, radius: rOuter, forceSegments: true)
        let i = roundedRectOutline(inner, radius: rInner, forceSegments: true)
        var tris: [pixman_triangle_t] = []
        for k in 0..<o.count {
            let k2 = (k + 1) % o.count
            tris.append(pixman_triangle_t(p1: fixedPoint(o[k]), p2: fixedPoint(o[k2]), p3: fixedPoint(i[k])))
            tris.append(pixman_triangle_t(p1: fixedPoint(i[k]), p2: fixedPoint(o[k2]), p3: fixedPoint(i[k2])))
        }
        if byPixman { compositeTrianglesByPixman(tris, color: color) } else { compositeTriangles(tris, color: color) }
    }

    /// Strokes a straight line with butt caps.
    public func strokeLine(from a: Point, to b: Point, lineWidth: Double, color: Color) {
        let d = b - a
        let len = d.length
        guard len > 0, lineWidth > 0 else { return }
        let n = Point(x: -d.y / len * lineWidth / 2, y: d.x / len * lineWidth / 2)
        fillConvexPolygon([a + n, b + n, b - n, a - n], color: color)
    }

    /// Fills `rect` with a linear gradient from `start` to `end` (logical coordinates), through
    /// `stops` (location 0...1, colour). Outside the segment the end colours extend (pad).
    public func fillLinearGradient(_ rect: Rect, from start: Point, to end: Point, stops: [(Double, Color)]) {
        guard let box = deviceBox(rect), stops.count >= 1 else { return }
        var p1 = pixman_point_fixed_t(x: fixed(start.x * scale), y: fixed(start.y * scale))
        var p2 = pixman_point_fixed_t(x: fixed(end.x * scale), y: fixed(end.y * scale))
        var pstops = stops.map { location, color in
            let c = color.premultiplied16
            return pixman_gradient_stop_t(
                x: fixed(min(1, max(0, location))),
                color: pixman_color_t(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha))
        }
        guard let gradient = pixman_image_create_linear_gradient(&p1, &p2, &pstops, Int32(pstops.count)) else {
            return
        }
        defer { pixman_image_unref(gradient) }
        pixman_image_set_repeat(gradient, PIXMAN_REPEAT_PAD)
        noteDrawn(PixelRect(box))
        pixman_image_composite32(
            PIXMAN_OP_OVER, gradient, nil, image, box.x1, box.y1, 0, 0, box.x1, box.y1, box.x2 - box.x1,
            box.y2 - box.y1)
    }

    // MARK: Helpers

    /// pixman's 16.16 fixed point, clamped to what it holds (±32768): a coordinate or factor
    /// beyond it is drawn at the edge rather than trapping in the conversion.
    func fixed(_ v: Double) -> pixman_fixed_t {
        v.isNaN ? 0 : pixman_fixed_t(clamping: v * 65536, rounding: .toNearestOrAwayFromZero)
    }

    /// `rect`'s corners in pixman's fixed point at this scale, as `fixedPoint` gives them.
    func fixedBox(
        _ rect: Rect
    ) -> (x1: pixman_fixed_t, y1: pixman_fixed_t, x2: pixman_fixed_t, y2: pixman_fixed_t) {
        (fixed(rect.minX * scale), fixed(rect.minY * scale), fixed(rect.maxX * scale), fixed(rect.maxY * scale))
    }

    /// The ring between two boxes (fixed point, `inner` inside `outer`) as four boxes in whole
    /// device pixels that do not overlap (the top and bottom bands full width, the sides
    /// between them; a band where the boxes share a side is empty), or nil when a side of
    /// either box is off the pixel grid.
    static func ringBands(
        outer o: (x1: pixman_fixed_t, y1: pixman_fixed_t, x2: pixman_fixed_t, y2: pixman_fixed_t),
        inner i: (x1: pixman_fixed_t, y1: pixman_fixed_t, x2: pixman_fixed_t, y2: pixman_fixed_t)
    ) -> [pixman_box32_t]? {
        // Every side whole: no fraction bits in any of them.
        guard (o.x1 | o.y1 | o.x2 | o.y2 | i.x1 | i.y1 | i.x2 | i.y2) & 0xFFFF == 0 else { return nil }
        // Whole pixels (an arithmetic shift: negative coordinates stay exact).
        let (ox1, oy1, ox2, oy2) = (o.x1 >> 16, o.y1 >> 16, o.x2 >> 16, o.y2 >> 16)
        let (ix1, iy1, ix2, iy2) = (i.x1 >> 16, i.y1 >> 16, i.x2 >> 16, i.y2 >> 16)
        guard ox1 <= ix1, ix1 < ix2, ix2 <= ox2, oy1 <= iy1, iy1 < iy2, iy2 <= oy2 else { return nil }
        return [
            pixman_box32_t(x1: ox1, y1: oy1, x2: ox2, y2: iy1),
            pixman_box32_t(x1: ox1, y1: iy2, x2: ox2, y2: oy2),
            pixman_box32_t(x1: ox1, y1: iy1, x2: ix1, y2: iy2),
            pixman_box32_t(x1: ix2, y1: iy1, x2: ox2, y2: iy2),
        ]
    }

    private func fixedPoint(_ p: Point) -> pixman_point_fixed_t {
        pixman_point_fixed_t(x: fixed(p.x * scale), y: fixed(p.y * scale))
    }

    private func compositeTrapezoids(_ traps: [pixman_trapezoid_t], color: Color) {
        var extents = PixelExtents()
        // pixman skips a trapezoid that is not valid, extents and all.
        for t in traps where t.left.p1.y != t.left.p2.y && t.right.p1.y != t.right.p2.y && t.bottom > t.top {
            extents.add(t)
        }
        compositeShapes(traps, color: color, extents: extents) {
            pixman_add_trapezoids($0, Int16(clamping: $1), $2, $3, $4)
        }
    }

    private func compositeTriangles(_ tris: [pixman_triangle_t], color: Color) {
        // A triangle's trapezoids span its corners (a degenerate one's none, and a larger
        // mask than needed changes nothing drawn).
        var extents = PixelExtents()
        for t in tris {
            extents.add(x: t.p1.x, y: t.p1.y)
            extents.add(x: t.p2.x, y: t.p2.y)
            extents.add(x: t.p3.x, y: t.p3.y)
        }
        compositeShapes(tris, color: color, extents: extents) { pixman_add_triangles($0, $1, $2, $3, $4) }
    }

    /// Fills `shapes` with `color` OVER the canvas as `pixman_composite_trapezoids` does (their
    /// coverage accumulated into one a8 mask, the colour composited through it), but with the
    /// mask cut to the clip: pixman's covers the shapes' whole extents, however little of them
    /// the canvas holds (a map block's outline in a zoomed tile; docs/decisions.md, "A shape's
    /// mask cut to the clip"). `extents` are the shapes' device-pixel bounds as pixman takes them;
    /// `rasterize` adds the shapes into the mask at an offset. The coverage of a pixel does not
    /// depend on where the mask starts (whole-pixel offsets move pixman's sample grid with it),
    /// so what is drawn is the same.
    private func compositeShapes<Shape>(
        _ shapes: [Shape], color: Color, extents: PixelExtents,
        _ rasterize: (OpaquePointer, Int32, Int32, Int32, UnsafePointer<Shape>?) -> Void
    ) {
        guard !shapes.isEmpty else { return }
        let (x1, y1, x2, y2) = clipped(extents)
        guard x1 < x2, y1 < y2, let mask = pixman_image_create_bits(PIXMAN_a8, Int32(x2 - x1), Int32(y2 - y1), nil, 0)
        else { return }
        defer { pixman_image_unref(mask) }
        shapes.withUnsafeBufferPointer { rasterize(mask, Int32(-x1), Int32(-y1), Int32($0.count), $0.baseAddress) }
        let src = solidFill(color)
        defer { pixman_image_unref(src) }
        noteDrawn(PixelRect(x0: x1, y0: y1, x1: x2, y1: y2))
        pixman_image_composite32(
            PIXMAN_OP_OVER, src, mask, image, Int32(x1), Int32(y1), 0, 0, Int32(x1), Int32(y1), Int32(x2 - x1),
            Int32(y2 - y1))
    }

    /// A device-pixel box cut to what drawing can reach: the canvas, and the clip's bounds
    /// while one is set (empty when nothing is left: x1 ≥ x2 or y1 ≥ y2).
    private func clipped(_ e: PixelExtents) -> (Int, Int, Int, Int) {
        var (cx1, cy1, cx2, cy2) = (0, 0, width, height)
        if let boxes = clipBoxes {
            cx1 = max(cx1, boxes.lazy.map { Int($0.x1) }.min() ?? 0)
            cy1 = max(cy1, boxes.lazy.map { Int($0.y1) }.min() ?? 0)
            cx2 = min(cx2, boxes.lazy.map { Int($0.x2) }.max() ?? 0)
            cy2 = min(cy2, boxes.lazy.map { Int($0.y2) }.max() ?? 0)
        }
        return (max(e.x1, cx1), max(e.y1, cy1), min(e.x2, cx2), min(e.y2, cy2))
    }

    /// Segments per quarter circle: enough that the polygon is within ~0.1 device px of the arc.
    private func segments(forRadius r: Double) -> Int {
        let rd = r * scale
        guard rd > 0.5 else { return 1 }
        // Clamped before the conversion: for a huge radius the angle rounds to 0.
        let n = (Double.pi / 2 / (2 * (1 - 0.1 / rd).clampedAcos)).rounded(.up)
        return n.isNaN ? 64 : Int(clamping: n, in: 2...64)
    }

    func roundedRectOutline(_ rect: Rect, radius r: Double, forceSegments: Bool = false) -> [Point] {
        // A fixed segment count when stroking, so inner and outer outlines pair up.
        let n = forceSegments ? 16 : segments(forRadius: r)
        var pts: [Point] = []
        pts.reserveCapacity(4 * (n + 1))
        let corners: [(Point, Double)] = [
            (Point(x: rect.maxX - r, y: rect.minY + r), -Double.pi / 2),  // top right
            (Point(x: rect.maxX - r, y: rect.maxY - r), 0),  // bottom right
            (Point(x: rect.minX + r, y: rect.maxY - r), Double.pi / 2),  // bottom left
            (Point(x: rect.minX + r, y: rect.minY + r), Double.pi),  // top left
        ]
        for (c, start) in corners {
            for k in 0...n {
                let a = start + Double(k) / Double(n) * Double.pi / 2
                pts.append(Point(x: c.x + r * cos(a), y: c.y + r * sin(a)))
            }
        }
        return pts
    }

    func ellipseOutline(_ rect: Rect) -> [Point] {
        let n = 4 * segments(forRadius: max(rect.width, rect.height) / 2)
        return (0..<n).map { k in
            let a = Double(k) / Double(n) * 2 * Double.pi
            return Point(x: rect.midX + rect.width / 2 * cos(a), y: rect.midY + rect.height / 2 * sin(a))
        }
    }
}

extension Double {
    fileprivate var clampedAcos: Double { acos(Swift.min(1, Swift.max(-1, self))) }
}

/// Device-pixel bounds of fixed-point points as pixman takes a shape's extents: from the
/// floor of the least coordinate to the ceiling of the greatest. In Int: fixed-point values
/// near pixman's limits (±32768) would overflow Int32 here.
private struct PixelExtents {
    var x1 = Int.max
    var y1 = Int.max
    var x2 = Int.min
    var y2 = Int.min

    mutating func add(x: pixman_fixed_t, y: pixman_fixed_t) {
        x1 = min(x1, Int(x) >> 16)
        y1 = min(y1, Int(y) >> 16)
        x2 = max(x2, (Int(x) + 0xFFFF) >> 16)
        y2 = max(y2, (Int(y) + 0xFFFF) >> 16)
    }

    /// A trapezoid as pixman's `get_trap_extents` takes it: rows from the top's floor to the
    /// bottom's ceiling, columns over every edge's end points.
    mutating func add(_ t: pixman_trapezoid_t) {
        add(x: t.left.p1.x, y: t.top)
        add(x: t.left.p2.x, y: t.bottom)
        add(x: t.right.p1.x, y: t.top)
        add(x: t.right.p2.x, y: t.bottom)
    }
}
