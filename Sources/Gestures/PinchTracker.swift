import ScrollwayGeometry

/// Two fingers: the scale (distance over the starting distance) and the centroid. Pan and pinch
/// are recognized together: the centroid's motion pans while the distance zooms.
public struct PinchTracker: Sendable {
    public let startDistance: Double
    public private(set) var scale: Double = 1
    public private(set) var center: Point
    public let startCenter: Point

    /// nil when the fingers are on the same point (no distance to scale).
    public init?(_ a: Point, _ b: Point) {
        let d = (a - b).length
        guard d > 1 else { return nil }
        startDistance = d
        center = Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
        startCenter = center
    }

    public mutating func update(_ a: Point, _ b: Point) {
        let d = (a - b).length
        guard d.isFinite, a.isFinite, b.isFinite else { return }
        scale = max(d, 1) / startDistance
        center = Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
    }
}
