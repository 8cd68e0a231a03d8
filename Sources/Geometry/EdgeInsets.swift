/// Distances inwards from each edge, as UIKit's UIEdgeInsets. A scroll view's `contentInset`
/// widens the allowed offset range without touching content: the range on y is
/// `-inset.top ... max(-inset.top, contentSize.height + inset.bottom - bounds.height)`.
public struct EdgeInsets: Hashable, Sendable, Codable, CustomStringConvertible {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public var description: String { "(top \(top), left \(left), bottom \(bottom), right \(right))" }

    /// left + right.
    public var horizontal: Double { left + right }
    /// top + bottom.
    public var vertical: Double { top + bottom }

    /// Insets add per edge: the adjusted inset is the sum of the content inset, the safe area,
    /// the refresh control and the keyboard parts.
    public static func + (a: EdgeInsets, b: EdgeInsets) -> EdgeInsets {
        EdgeInsets(top: a.top + b.top, left: a.left + b.left, bottom: a.bottom + b.bottom, right: a.right + b.right)
    }

    public static func - (a: EdgeInsets, b: EdgeInsets) -> EdgeInsets {
        EdgeInsets(top: a.top - b.top, left: a.left - b.left, bottom: a.bottom - b.bottom, right: a.right - b.right)
    }

    public static func += (a: inout EdgeInsets, b: EdgeInsets) { a = a + b }
}

extension Rect {
    /// The rect with each edge moved inwards by the insets (outwards where negative).
    /// Sizes are clamped at zero.
    public func inset(by i: EdgeInsets) -> Rect {
        Rect(
            x: minX + i.left, y: minY + i.top,
            width: Swift.max(0, width - i.horizontal), height: Swift.max(0, height - i.vertical))
    }
}

/// Distances inwards from each edge, by leading and trailing rather than left and right
/// (UIKit's `NSDirectionalEdgeInsets`): in a right-to-left layout the leading edge is the right.
public struct DirectionalEdgeInsets: Hashable, Sendable, Codable, CustomStringConvertible {
    public var top: Double
    public var leading: Double
    public var bottom: Double
    public var trailing: Double

    public static let zero = DirectionalEdgeInsets(top: 0, leading: 0, bottom: 0, trailing: 0)

    public init(top: Double, leading: Double, bottom: Double, trailing: Double) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    public var description: String { "(top \(top), leading \(leading), bottom \(bottom), trailing \(trailing))" }

    /// The insets by left and right, for a layout that reads right to left or not.
    public func absolute(rightToLeft: Bool) -> EdgeInsets {
        EdgeInsets(
            top: top, left: rightToLeft ? trailing : leading, bottom: bottom, right: rightToLeft ? leading : trailing)
    }

    /// `insets` by leading and trailing, for a layout that reads right to left or not.
    public init(_ insets: EdgeInsets, rightToLeft: Bool) {
        self.init(
            top: insets.top, leading: rightToLeft ? insets.right : insets.left, bottom: insets.bottom,
            trailing: rightToLeft ? insets.left : insets.right)
    }
}
