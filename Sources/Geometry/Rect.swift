/// An axis-aligned rectangle in logical pixels: an origin (top-left, y grows downwards as on
/// Wayland) and a size. Frames, bounds, damage and clip rectangles are all `Rect`s.
///
/// Sizes are expected to be non-negative; a rect with a zero or negative side is *empty*:
/// it contains no point, intersects nothing, and `union` ignores it (so damage can be
/// accumulated starting from an empty rect).
public struct Rect: Hashable, Sendable, Codable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public static let zero = Rect(origin: .zero, size: .zero)

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    public var description: String { "(\(origin.x), \(origin.y), \(size.width), \(size.height))" }

    public var width: Double { size.width }
    public var height: Double { size.height }
    public var minX: Double { origin.x }
    public var midX: Double { origin.x + size.width / 2 }
    public var maxX: Double { origin.x + size.width }
    public var minY: Double { origin.y }
    public var midY: Double { origin.y + size.height / 2 }
    public var maxY: Double { origin.y + size.height }
    public var center: Point { Point(x: midX, y: midY) }
    public var isEmpty: Bool { size.isEmpty }

    /// Half-open containment, `[minX, maxX) × [minY, maxY)`, so that abutting rects (pixels,
    /// tiles, rows) never both claim the point on their shared edge.
    public func contains(_ p: Point) -> Bool {
        !isEmpty && p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// Whether `r` lies entirely inside this rect. An empty `r` is contained by nothing.
    public func contains(_ r: Rect) -> Bool {
        !isEmpty && !r.isEmpty && r.minX >= minX && r.maxX <= maxX && r.minY >= minY && r.maxY <= maxY
    }

    /// Whether the two rects share a region of positive area.
    public func intersects(_ r: Rect) -> Bool { intersection(r) != nil }

    /// The common region, or nil when the rects share no area (touching edges share none).
    public func intersection(_ r: Rect) -> Rect? {
        guard !isEmpty, !r.isEmpty else { return nil }
        let x0 = Swift.max(minX, r.minX)
        let y0 = Swift.max(minY, r.minY)
        let x1 = Swift.min(maxX, r.maxX)
        let y1 = Swift.min(maxY, r.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rect containing both. Empty rects are ignored; two empty rects give `.zero`.
    public func union(_ r: Rect) -> Rect {
        if r.isEmpty { return isEmpty ? .zero : self }
        if isEmpty { return r }
        let x0 = Swift.min(minX, r.minX)
        let y0 = Swift.min(minY, r.minY)
        let x1 = Swift.max(maxX, r.maxX)
        let y1 = Swift.max(maxY, r.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Shrinks (positive) or grows (negative) every side: `dx` from left and right, `dy` from
    /// top and bottom. Sizes are clamped at zero.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(
            x: minX + dx, y: minY + dy,
            width: Swift.max(0, width - 2 * dx), height: Swift.max(0, height - 2 * dy))
    }

    /// The same size, moved by (dx, dy).
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(origin: origin.offsetBy(dx: dx, dy: dy), size: size)
    }

    /// The same size, moved by `delta`.
    public func offset(by delta: Point) -> Rect { offsetBy(dx: delta.x, dy: delta.y) }

    /// The smallest rect with integer edges that contains this one (edges rounded outwards).
    public var integral: Rect { aligned(toScale: 1) }

    /// The smallest rect whose edges lie on the device pixel grid at `scale` and that contains
    /// this one: what a renderer must repaint to cover it fully.
    public func aligned(toScale scale: Double) -> Rect {
        precondition(scale > 0 && scale.isFinite, "device scale must be positive and finite")
        if isEmpty { return Rect(origin: origin.rounded(toScale: scale), size: .zero) }
        // A tolerance keeps 10.000000001 from becoming 11 when the value is a float artefact.
        let eps = 1e-9
        let x0 = ((minX * scale) + eps).rounded(.down) / scale
        let y0 = ((minY * scale) + eps).rounded(.down) / scale
        let x1 = ((maxX * scale) - eps).rounded(.up) / scale
        let y1 = ((maxY * scale) - eps).rounded(.up) / scale
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Origin and size each rounded to the nearest device pixel (for placing, not covering).
    public func rounded(toScale scale: Double) -> Rect {
        let x0 = minX.roundedToDevicePixel(scale: scale)
        let y0 = minY.roundedToDevicePixel(scale: scale)
        let x1 = maxX.roundedToDevicePixel(scale: scale)
        let y1 = maxY.roundedToDevicePixel(scale: scale)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The rect scaled about the coordinate origin (device pixels from logical ones).
    public func scaled(by s: Double) -> Rect {
        Rect(x: minX * s, y: minY * s, width: width * s, height: height * s)
    }

    /// Whether every field is finite.
    public var isFinite: Bool {
        origin.isFinite && size.width.isFinite && size.height.isFinite
    }
}
