/// A width and height in logical pixels. A view's frame and bounds share one size.
public struct Size: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public static let zero = Size(width: 0, height: 0)

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)×\(height)" }

    /// True when either side is zero or negative: such a size covers no pixel.
    public var isEmpty: Bool { !(width > 0 && height > 0) }

    public static func * (s: Size, k: Double) -> Size { Size(width: s.width * k, height: s.height * k) }
}
