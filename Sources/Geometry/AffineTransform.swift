/// A scale-and-translate transform, `p' = (a·x + tx, d·y + ty)`: enough for zoom, which scales
/// the zoomed view about its centre and never rotates or shears.
public struct AffineTransform: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Horizontal scale.
    public var a: Double
    /// Vertical scale.
    public var d: Double
    public var tx: Double
    public var ty: Double

    public static let identity = AffineTransform(a: 1, d: 1, tx: 0, ty: 0)

    public init(a: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    public init(scaleX: Double, y: Double) { self.init(a: scaleX, d: y, tx: 0, ty: 0) }
    public init(scale: Double) { self.init(a: scale, d: scale, tx: 0, ty: 0) }
    public init(translationX tx: Double, y ty: Double) { self.init(a: 1, d: 1, tx: tx, ty: ty) }

    public var description: String { "[\(a) 0 \(tx); 0 \(d) \(ty)]" }
    public var isIdentity: Bool { self == .identity }

    /// `self` applied first, then `t` (as CGAffineTransform.concatenating).
    public func concatenating(_ t: AffineTransform) -> AffineTransform {
        AffineTransform(a: a * t.a, d: d * t.d, tx: tx * t.a + t.tx, ty: ty * t.d + t.ty)
    }

    /// Scale applied after this transform.
    public func scaledBy(x sx: Double, y sy: Double) -> AffineTransform {
        concatenating(AffineTransform(scaleX: sx, y: sy))
    }

    /// Translation applied after this transform.
    public func translatedBy(x: Double, y: Double) -> AffineTransform {
        concatenating(AffineTransform(translationX: x, y: y))
    }

    /// The inverse, or nil when a scale is zero (a collapsed view maps back to nothing).
    public var inverted: AffineTransform? {
        guard a != 0, d != 0 else { return nil }
        return AffineTransform(a: 1 / a, d: 1 / d, tx: -tx / a, ty: -ty / d)
    }

    public func apply(to p: Point) -> Point { Point(x: a * p.x + tx, y: d * p.y + ty) }

    /// The image of a rect (normalised so that a negative scale still gives a positive size).
    /// The size is the scaled size, not the difference of the moved corners: a translation
    /// keeps a size exactly, where `(y + h + ty) − (y + ty)` can be off by an ulp.
    public func apply(to r: Rect) -> Rect {
        let p0 = apply(to: r.origin)
        let w = abs(a) * r.width
        let h = abs(d) * r.height
        return Rect(x: a < 0 ? p0.x - w : p0.x, y: d < 0 ? p0.y - h : p0.y, width: w, height: h)
    }

    /// This transform applied about `anchor` instead of the coordinate origin: UIKit applies a
    /// view's transform about its centre, so a scale of 2 doubles the view around its centre.
    public func about(_ anchor: Point) -> AffineTransform {
        AffineTransform(translationX: -anchor.x, y: -anchor.y)
            .concatenating(self)
            .concatenating(AffineTransform(translationX: anchor.x, y: anchor.y))
    }
}
