import Glibc
import ScrollwayCPixman
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
        if blend == .over && color.alpha <= 0 { return }
        let op = (blend == .over && color.isOpaque) ? PIXMAN_OP_SRC : blend.pixmanOp
        let c = color.premultiplied16
        var pc = pixman_color_t(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
        var b = box
        _ = pixman_image_fill_boxes(op, image, &pc, 1, &b)
    }

    /// Fills a convex polygon (points in order, logical coordinates) with antialiased edges.
    public func fillConvexPolygon(_ points: [Point], color: Color) {
        guard points.count >= 3, color.alpha > 0 else { return }
        var tris: [pixman_triangle_t] = []
        tris.reserveCapacity(points.count - 2)
        let p0 = fixedPoint(points[0])
        for i in 1..<(points.count - 1) {
            tris.append(pixman_triangle_t(p1: p0, p2: fixedPoint(points[i]), p3: fixedPoint(points[i + 1])))
        }
        compositeTriangles(tris, color: color)
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
        // Both outlines with the same number of vertices, so the ring is a strip of quads.
        let o = roundedRectOutline(outer, radius: rOuter, forceSegments: true)
        let i = roundedRectOutline(inner, radius: rInner, forceSegments: true)
        var tris: [pixman_triangle_t] = []
        for k in 0..<o.count {
            let k2 = (k + 1) % o.count
            tris.append(pixman_triangle_t(p1: fixedPoint(o[k]), p2: fixedPoint(o[k2]), p3: fixedPoint(i[k])))
            tris.append(pixman_triangle_t(p1: fixedPoint(i[k]), p2: fixedPoint(o[k2]), p3: fixedPoint(i[k2])))
        }
        compositeTriangles(tris, color: color)
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
        pixman_image_composite32(
            PIXMAN_OP_OVER, gradient, nil, image, box.x1, box.y1, 0, 0, box.x1, box.y1, box.x2 - box.x1,
            box.y2 - box.y1)
    }

    // MARK: Helpers

    /// pixman's 16.16 fixed point, clamped to what it holds (±32768): a coordinate or factor
    /// beyond it is drawn at the edge rather than trapping in the conversion.
    func fixed(_ v: Double) -> pixman_fixed_t {
        let f = (v * 65536).rounded()
        guard f.isFinite else { return f > 0 ? .max : f < 0 ? .min : 0 }
        return pixman_fixed_t(min(max(f, Double(Int32.min)), Double(Int32.max)))
    }

    private func fixedPoint(_ p: Point) -> pixman_point_fixed_t {
        pixman_point_fixed_t(x: fixed(p.x * scale), y: fixed(p.y * scale))
    }

    private func compositeTriangles(_ tris: [pixman_triangle_t], color: Color) {
        guard !tris.isEmpty else { return }
        let src = solidFill(color)
        defer { pixman_image_unref(src) }
        tris.withUnsafeBufferPointer { buf in
            pixman_composite_triangles(
                PIXMAN_OP_OVER, src, image, PIXMAN_a8, 0, 0, 0, 0, Int32(buf.count), buf.baseAddress)
        }
    }

    /// Segments per quarter circle: enough that the polygon is within ~0.1 device px of the arc.
    private func segments(forRadius r: Double) -> Int {
        let rd = r * scale
        guard rd > 0.5 else { return 1 }
        // Clamped before the conversion: for a huge radius the angle rounds to 0.
        let n = (Double.pi / 2 / (2 * (1 - 0.1 / rd).clampedAcos)).rounded(.up)
        return n.isFinite ? max(2, Int(min(64, n))) : 64
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
