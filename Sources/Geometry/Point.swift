/// A position in logical pixels. Views use it for frame and bounds origins; a scroll view's
/// `contentOffset` is such a point (it IS `bounds.origin`).
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public static let zero = Point(x: 0, y: 0)

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public var description: String { "(\(x), \(y))" }

    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    public static prefix func - (p: Point) -> Point { Point(x: -p.x, y: -p.y) }
    public static func * (p: Point, s: Double) -> Point { Point(x: p.x * s, y: p.y * s) }
    public static func += (a: inout Point, b: Point) { a = a + b }
    public static func -= (a: inout Point, b: Point) { a = a - b }

    /// Euclidean length of the vector from the origin: the touch slop is a radial test on it.
    public var length: Double { (x * x + y * y).squareRoot() }

    /// The point moved by (dx, dy).
    public func offsetBy(dx: Double, dy: Double) -> Point { Point(x: x + dx, y: y + dy) }

    /// Both coordinates rounded to the nearest device pixel at `scale` device px per logical px.
    public func rounded(toScale scale: Double) -> Point {
        Point(x: x.roundedToDevicePixel(scale: scale), y: y.roundedToDevicePixel(scale: scale))
    }

    /// Whether every coordinate is finite (no NaN, no infinity).
    public var isFinite: Bool { x.isFinite && y.isFinite }
}

extension Double {
    /// The nearest value on the device pixel grid: `round(v·scale)/scale`. Physics works in
    /// continuous logical pixels; only rendering and resting positions snap to this grid.
    public func roundedToDevicePixel(scale: Double) -> Double {
        precondition(scale > 0 && scale.isFinite, "device scale must be positive and finite")
        return (self * scale).rounded() / scale
    }
}
