import ScrollwayGeometry

/// An sRGB colour with straight (non-premultiplied) alpha, components in 0...1.
///
/// pixman works in premultiplied ARGB; conversion happens here, once, so callers never
/// premultiply by hand. No colour management: sRGB values go to the buffer as they are.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// 8-bit sRGB components, as CSS's rgb(): `Color(rgb: 208, 2, 27)`.
    public init(rgb r: UInt8, _ g: UInt8, _ b: UInt8, alpha: Double = 1) {
        self.init(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, alpha: alpha)
    }

    /// From a premultiplied ARGB8888 pixel (pixman's a8r8g8b8, as read back from a canvas).
    public init(premultipliedARGB p: UInt32) {
        let a = Double(p >> 24) / 255
        func channel(_ shift: UInt32) -> Double {
            a == 0 ? 0 : min(1, Double((p >> shift) & 0xff) / 255 / a)
        }
        self.init(red: channel(16), green: channel(8), blue: channel(0), alpha: a)
    }

    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)
    public static let red = Color(rgb: 255, 0, 0)
    public static let green = Color(rgb: 0, 255, 0)
    public static let blue = Color(rgb: 0, 0, 255)
    public static let gray = Color(rgb: 128, 128, 128)
    public static let lightGray = Color(rgb: 211, 211, 211)
    public static let darkGray = Color(rgb: 64, 64, 64)
    /// The system tint used for buttons and indicators.
    public static let tint = Color(rgb: 0, 122, 255)

    public var description: String {
        func byte(_ c: Double) -> Int { c.isFinite ? Int(clamping: min(max(c, 0), 1) * 255 + 0.5) : 0 }
        return "rgba(\(byte(red)), \(byte(green)), \(byte(blue)), \(alpha))"
    }

    /// The same colour with another alpha.
    public func withAlpha(_ a: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: a) }

    /// Fully opaque: drawing it covers what is below.
    public var isOpaque: Bool { alpha >= 1 }

    /// The premultiplied ARGB8888 pixel value this colour writes (with SRC).
    public var premultipliedARGB: UInt32 {
        let a = clamp(alpha)
        func byte(_ v: Double) -> UInt32 { UInt32(clamping: v * 255, rounding: .toNearestOrAwayFromZero) }
        return byte(a) << 24 | byte(clamp(red) * a) << 16 | byte(clamp(green) * a) << 8 | byte(clamp(blue) * a)
    }

    /// 16-bit premultiplied channels, as pixman_color_t wants them (8-bit value × 257 so that
    /// pixman's conversion back to 8 bits gives the exact byte).
    var premultiplied16: (red: UInt16, green: UInt16, blue: UInt16, alpha: UInt16) {
        let p = premultipliedARGB
        func wide(_ shift: UInt32) -> UInt16 { UInt16((p >> shift) & 0xff) * 257 }
        return (wide(16), wide(8), wide(0), wide(24))
    }
}

private func clamp(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }
