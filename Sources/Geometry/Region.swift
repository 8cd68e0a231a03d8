/// A set of rectangles, for damage: what changed since the last frame, or since a buffer was
/// last shown. Kept small on purpose: a rect already covered is dropped, one that covers others
/// replaces them, and past `maxRects` the region collapses to its bounding box (repainting a
/// little more is cheaper than tracking many slivers).
public struct Region: Hashable, Sendable, CustomStringConvertible {
    public private(set) var rects: [Rect] = []
    public let maxRects: Int

    public init(maxRects: Int = 16) { self.maxRects = maxRects }

    public init(_ rect: Rect, maxRects: Int = 16) {
        self.maxRects = maxRects
        add(rect)
    }

    public var description: String { rects.map(\.description).joined(separator: " ∪ ") }
    public var isEmpty: Bool { rects.isEmpty }

    /// The smallest rect containing the whole region (`.zero` when empty).
    public var bounds: Rect { rects.reduce(Rect.zero) { $0.union($1) } }

    /// Adds a rect (empty and non-finite rects are ignored).
    public mutating func add(_ rect: Rect) {
        guard !rect.isEmpty, rect.isFinite else { return }
        if rects.contains(where: { $0.contains(rect) }) { return }
        rects.removeAll { rect.contains($0) }
        rects.append(rect)
        if rects.count > maxRects { rects = [bounds] }
    }

    public mutating func add(_ other: Region) { for r in other.rects { add(r) } }

    /// Whether any rect of the region shares area with `rect`.
    public func intersects(_ rect: Rect) -> Bool { rects.contains { $0.intersects(rect) } }

    /// The parts of the region inside `clip`.
    public func clipped(to clip: Rect) -> Region {
        var out = Region(maxRects: maxRects)
        for r in rects { if let i = r.intersection(clip) { out.add(i) } }
        return out
    }

    public mutating func removeAll() { rects.removeAll() }
}
