/// A rectangle of whole device pixels, half-open: columns `x0..<x1`, rows `y0..<y1`.
///
/// Present paths reason in device pixels, where a shift by a whole number of pixels is exact:
/// a scroll that moves content by (dx, dy) device pixels moves every pixel's value with it, so
/// what is already in a buffer can be reused instead of composited again.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x0: Int
    public var y0: Int
    public var x1: Int
    public var y1: Int

    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(x0: x, y0: y, x1: x + width, y1: y + height)
    }

    /// The device pixels that any part of `rect` (logical) touches at `scale`: edges rounded
    /// outwards, as `Rect.aligned(toScale:)` does. Values far outside any buffer are clamped to
    /// ±2³⁰ so that no conversion can trap; nil for empty or non-finite rects.
    public init?(covering rect: Rect, scale: Double) {
        guard rect.isFinite, !rect.isEmpty else { return nil }
        let eps = 1e-9
        self.init(
            x0: Self.clamp(((rect.minX * scale) + eps).rounded(.down)),
            y0: Self.clamp(((rect.minY * scale) + eps).rounded(.down)),
            x1: Self.clamp(((rect.maxX * scale) - eps).rounded(.up)),
            y1: Self.clamp(((rect.maxY * scale) - eps).rounded(.up)))
        if isEmpty { return nil }
    }

    /// The device pixels of `rect` (logical) when its edges are rounded to the nearest device
    /// pixel, as composition places images (`Rect.rounded(toScale:)`). May be empty.
    public init(placing rect: Rect, scale: Double) {
        self.init(
            x0: Self.clamp((rect.minX * scale).rounded()), y0: Self.clamp((rect.minY * scale).rounded()),
            x1: Self.clamp((rect.maxX * scale).rounded()), y1: Self.clamp((rect.maxY * scale).rounded()))
    }

    /// A device coordinate, clamped to a range every later sum stays far inside of.
    public static func clamp(_ v: Double) -> Int {
        // NaN goes to the lower bound.
        Int(clamping: v, in: -1_073_741_824...1_073_741_824)
    }

    public var description: String { "[\(x0),\(y0) \(width)×\(height)]" }
    public var width: Int { x1 - x0 }
    public var height: Int { y1 - y0 }
    public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    /// Pixels covered (0 when empty).
    public var area: Int { isEmpty ? 0 : width * height }

    /// This rect in logical coordinates at `scale`.
    public func logical(scale: Double) -> Rect {
        Rect(
            x: Double(x0) / scale, y: Double(y0) / scale, width: Double(width) / scale,
            height: Double(height) / scale)
    }

    public func intersection(_ r: PixelRect) -> PixelRect? {
        let out = PixelRect(
            x0: Swift.max(x0, r.x0), y0: Swift.max(y0, r.y0), x1: Swift.min(x1, r.x1), y1: Swift.min(y1, r.y1))
        return out.isEmpty ? nil : out
    }

    public func intersects(_ r: PixelRect) -> Bool { intersection(r) != nil }

    public func contains(_ r: PixelRect) -> Bool {
        !r.isEmpty && r.x0 >= x0 && r.y0 >= y0 && r.x1 <= x1 && r.y1 <= y1
    }

    public func offsetBy(dx: Int, dy: Int) -> PixelRect {
        PixelRect(x0: x0 + dx, y0: y0 + dy, x1: x1 + dx, y1: y1 + dy)
    }

    /// What is left of this rect once `r` is taken out: up to four disjoint rects (bands above
    /// and below `r`, then the parts beside it).
    public func subtracting(_ r: PixelRect) -> [PixelRect] {
        var out: [PixelRect] = []
        appendDifference(minus: r, to: &out)
        return out
    }

    /// `subtracting(r)`'s pieces appended to `out`: a region's difference builds one array
    /// instead of one per rect (every frame's occlusion and damage work does this).
    func appendDifference(minus r: PixelRect, to out: inout [PixelRect]) {
        guard let cut = intersection(r) else {
            if !isEmpty { out.append(self) }
            return
        }
        if cut.y0 > y0 { out.append(PixelRect(x0: x0, y0: y0, x1: x1, y1: cut.y0)) }
        if cut.y1 < y1 { out.append(PixelRect(x0: x0, y0: cut.y1, x1: x1, y1: y1)) }
        if cut.x0 > x0 { out.append(PixelRect(x0: x0, y0: cut.y0, x1: cut.x0, y1: cut.y1)) }
        if cut.x1 < x1 { out.append(PixelRect(x0: cut.x1, y0: cut.y0, x1: x1, y1: cut.y1)) }
    }
}

/// A set of device pixels as disjoint rects: exact unions, differences and areas, for deciding
/// what a frame copies, shifts and repaints. Small by design (a frame's damage is a handful of
/// rects); `simplified(limit:)` trades exactness for size where a caller needs a bound.
public struct PixelRegion: Hashable, Sendable, CustomStringConvertible {
    /// Disjoint, non-empty rects.
    public private(set) var rects: [PixelRect] = []

    public init() {}
    public init(_ rect: PixelRect?) { if let rect, !rect.isEmpty { rects = [rect] } }
    public init(_ rects: [PixelRect]) { for r in rects { add(r) } }

    public var description: String { rects.isEmpty ? "∅" : rects.map(\.description).joined(separator: " ∪ ") }
    public var isEmpty: Bool { rects.isEmpty }
    public var area: Int { rects.reduce(0) { $0 + $1.area } }
    /// The smallest rect holding the whole region (nil when empty).
    public var bounds: PixelRect? {
        guard var b = rects.first else { return nil }
        for r in rects.dropFirst() {
            b = PixelRect(x0: min(b.x0, r.x0), y0: min(b.y0, r.y0), x1: max(b.x1, r.x1), y1: max(b.y1, r.y1))
        }
        return b
    }

    /// Adds the pixels of `rect` not already in the region (the region stays disjoint).
    public mutating func add(_ rect: PixelRect) {
        guard !rect.isEmpty else { return }
        // Usually the rect meets nothing there yet, or lies inside a rect already there: no
        // pieces to cut (a frame's damage tracking adds a rect per changed view).
        var meets = false
        for existing in rects where existing.intersects(rect) {
            if existing.contains(rect) { return }
            meets = true
        }
        guard meets else {
            rects.append(rect)
            return
        }
        var pieces = [rect]
        var cut: [PixelRect] = []
        for existing in rects where pieces.contains(where: { $0.intersects(existing) }) {
            cut.removeAll(keepingCapacity: true)
            for p in pieces { p.appendDifference(minus: existing, to: &cut) }
            swap(&pieces, &cut)
            if pieces.isEmpty { return }
        }
        rects += pieces
    }

    public mutating func add(_ other: PixelRegion) { for r in other.rects { add(r) } }

    /// Untouched rects are kept as they are, and a region `rect` misses is returned itself (no
    /// new storage).
    public func subtracting(_ rect: PixelRect) -> PixelRegion {
        guard intersects(rect) else { return self }
        var out = PixelRegion()
        out.rects.reserveCapacity(rects.count + 3)
        for r in rects { r.appendDifference(minus: rect, to: &out.rects) }
        return out
    }

    public func subtracting(_ other: PixelRegion) -> PixelRegion {
        var out = self
        for r in other.rects where out.intersects(r) { out = out.subtracting(r) }
        return out
    }

    /// A region inside `rect` is returned itself (no new storage).
    public func intersection(_ rect: PixelRect) -> PixelRegion {
        if rects.allSatisfy({ rect.contains($0) }) { return self }
        var out = PixelRegion()
        out.rects = rects.compactMap { $0.intersection(rect) }
        return out
    }

    public func intersects(_ rect: PixelRect) -> Bool { rects.contains { $0.intersects(rect) } }

    public func offsetBy(dx: Int, dy: Int) -> PixelRegion {
        var out = PixelRegion()
        out.rects = rects.map { $0.offsetBy(dx: dx, dy: dy) }
        return out
    }

    /// At most `limit` rects covering at least the same pixels: past the limit, the bounds.
    public func simplified(limit: Int) -> PixelRegion {
        guard rects.count > limit, let b = bounds else { return self }
        return PixelRegion(b)
    }
}
