import ScrollwayGeometry
import ScrollwayLayout

/// Which edge, centre, size or baseline of a view or layout guide an anchor names (UIKit's
/// `NSLayoutConstraint.Attribute`). Leading and trailing are left and right, or right and left
/// in a right-to-left layout. The baselines are a view's alone (`View.baselines(forWidth:)`).
public enum LayoutAttribute: String, Sendable {
    case left, right, top, bottom, leading, trailing, width, height, centerX, centerY
    case firstBaseline, lastBaseline
}

/// The thing an anchor belongs to: a view or a layout guide.
@MainActor
enum LayoutItem {
    case view(View)
    case guide(LayoutGuide)

    var object: AnyObject {
        switch self {
        case .view(let v): v
        case .guide(let g): g
        }
    }

    /// The view whose coordinates this item's position is in: a view's superview, a guide's
    /// owning view.
    var container: View? {
        switch self {
        case .view(let v): v.superview
        case .guide(let g): g.owningView
        }
    }

    /// The view this item stands in for when finding a constraint's common ancestor: a view
    /// itself, a guide's owner.
    var anchorView: View? {
        switch self {
        case .view(let v): v
        case .guide(let g): g.owningView
        }
    }

    var name: String {
        switch self {
        case .view(let v): v.name ?? String(describing: type(of: v))
        case .guide(let g): g.identifier
        }
    }
}

/// Marks an anchor's kind, so that only like anchors constrain each other (UIKit's
/// `NSLayoutXAxisAnchor`, `NSLayoutYAxisAnchor`, `NSLayoutDimension`).
public enum XAxis {}
public enum YAxis {}
public enum Dimension {}

/// An edge, centre or size of a view or layout guide, to make constraints with
/// (`a.leadingAnchor.constraint(equalTo: b.leadingAnchor, constant: 16)`).
@MainActor
public struct LayoutAnchor<Kind> {
    let item: LayoutItem
    public let attribute: LayoutAttribute

    init(_ item: LayoutItem, _ attribute: LayoutAttribute) {
        self.item = item
        self.attribute = attribute
    }

    /// The view or layout guide it belongs to.
    public var owner: AnyObject { item.object }

    func relate(
        _ relation: LinearConstraint.Relation, _ other: LayoutAnchor<Kind>?, multiplier: Double, constant: Double
    ) -> LayoutConstraint {
        LayoutConstraint(
            first: item, firstAttribute: attribute, relation: relation, second: other?.item,
            secondAttribute: other?.attribute, multiplier: multiplier, constant: constant)
    }
}

public typealias LayoutXAxisAnchor = LayoutAnchor<XAxis>
public typealias LayoutYAxisAnchor = LayoutAnchor<YAxis>
public typealias LayoutDimension = LayoutAnchor<Dimension>

extension LayoutAnchor {
    /// `self == other + constant`.
    public func constraint(equalTo other: LayoutAnchor<Kind>, constant: Double = 0) -> LayoutConstraint {
        relate(.equal, other, multiplier: 1, constant: constant)
    }
    /// `self >= other + constant`.
    public func constraint(greaterThanOrEqualTo other: LayoutAnchor<Kind>, constant: Double = 0) -> LayoutConstraint {
        relate(.greaterOrEqual, other, multiplier: 1, constant: constant)
    }
    /// `self <= other + constant`.
    public func constraint(lessThanOrEqualTo other: LayoutAnchor<Kind>, constant: Double = 0) -> LayoutConstraint {
        relate(.lessOrEqual, other, multiplier: 1, constant: constant)
    }
}

extension LayoutAnchor where Kind == Dimension {
    /// `self == other × multiplier + constant`.
    public func constraint(
        equalTo other: LayoutDimension, multiplier: Double, constant: Double = 0
    )
        -> LayoutConstraint
    {
        relate(.equal, other, multiplier: multiplier, constant: constant)
    }
    public func constraint(
        greaterThanOrEqualTo other: LayoutDimension, multiplier: Double, constant: Double = 0
    )
        -> LayoutConstraint
    {
        relate(.greaterOrEqual, other, multiplier: multiplier, constant: constant)
    }
    public func constraint(
        lessThanOrEqualTo other: LayoutDimension, multiplier: Double, constant: Double = 0
    )
        -> LayoutConstraint
    {
        relate(.lessOrEqual, other, multiplier: multiplier, constant: constant)
    }
    /// `self == constant`.
    public func constraint(equalToConstant constant: Double) -> LayoutConstraint {
        relate(.equal, nil, multiplier: 1, constant: constant)
    }
    public func constraint(greaterThanOrEqualToConstant constant: Double) -> LayoutConstraint {
        relate(.greaterOrEqual, nil, multiplier: 1, constant: constant)
    }
    public func constraint(lessThanOrEqualToConstant constant: Double) -> LayoutConstraint {
        relate(.lessOrEqual, nil, multiplier: 1, constant: constant)
    }
}

/// Anchors, the same on views and layout guides.
@MainActor
public protocol LayoutAnchorProviding: AnyObject {
    var leadingAnchor: LayoutXAxisAnchor { get }
    var trailingAnchor: LayoutXAxisAnchor { get }
    var leftAnchor: LayoutXAxisAnchor { get }
    var rightAnchor: LayoutXAxisAnchor { get }
    var centerXAnchor: LayoutXAxisAnchor { get }
    var topAnchor: LayoutYAxisAnchor { get }
    var bottomAnchor: LayoutYAxisAnchor { get }
    var centerYAnchor: LayoutYAxisAnchor { get }
    var widthAnchor: LayoutDimension { get }
    var heightAnchor: LayoutDimension { get }
}

extension View: LayoutAnchorProviding {
    public var leadingAnchor: LayoutXAxisAnchor { LayoutAnchor(.view(self), .leading) }
    public var trailingAnchor: LayoutXAxisAnchor { LayoutAnchor(.view(self), .trailing) }
    public var leftAnchor: LayoutXAxisAnchor { LayoutAnchor(.view(self), .left) }
    public var rightAnchor: LayoutXAxisAnchor { LayoutAnchor(.view(self), .right) }
    public var centerXAnchor: LayoutXAxisAnchor { LayoutAnchor(.view(self), .centerX) }
    public var topAnchor: LayoutYAxisAnchor { LayoutAnchor(.view(self), .top) }
    public var bottomAnchor: LayoutYAxisAnchor { LayoutAnchor(.view(self), .bottom) }
    public var centerYAnchor: LayoutYAxisAnchor { LayoutAnchor(.view(self), .centerY) }
    public var widthAnchor: LayoutDimension { LayoutAnchor(.view(self), .width) }
    public var heightAnchor: LayoutDimension { LayoutAnchor(.view(self), .height) }
    /// The baseline of the first line of text the view draws, or its bottom edge if it draws
    /// none (UIKit's): views of different fonts aligned on it read as one line.
    public var firstBaselineAnchor: LayoutYAxisAnchor { LayoutAnchor(.view(self), .firstBaseline) }
    /// The baseline of the last line of text the view draws (a wrapping label's last line), or
    /// its bottom edge if it draws none.
    public var lastBaselineAnchor: LayoutYAxisAnchor { LayoutAnchor(.view(self), .lastBaseline) }
}

extension LayoutGuide: LayoutAnchorProviding {
    public var leadingAnchor: LayoutXAxisAnchor { LayoutAnchor(.guide(self), .leading) }
    public var trailingAnchor: LayoutXAxisAnchor { LayoutAnchor(.guide(self), .trailing) }
    public var leftAnchor: LayoutXAxisAnchor { LayoutAnchor(.guide(self), .left) }
    public var rightAnchor: LayoutXAxisAnchor { LayoutAnchor(.guide(self), .right) }
    public var centerXAnchor: LayoutXAxisAnchor { LayoutAnchor(.guide(self), .centerX) }
    public var topAnchor: LayoutYAxisAnchor { LayoutAnchor(.guide(self), .top) }
    public var bottomAnchor: LayoutYAxisAnchor { LayoutAnchor(.guide(self), .bottom) }
    public var centerYAnchor: LayoutYAxisAnchor { LayoutAnchor(.guide(self), .centerY) }
    public var widthAnchor: LayoutDimension { LayoutAnchor(.guide(self), .width) }
    public var heightAnchor: LayoutDimension { LayoutAnchor(.guide(self), .height) }
}

extension LayoutAnchorProviding {
    /// Four constraints that put this item's edges on `other`'s, inset by `insets` (not
    /// active: pass them to `LayoutConstraint.activate`).
    public func constraints(
        pinningEdgesTo other: some LayoutAnchorProviding, insets: EdgeInsets = .zero
    )
        -> [LayoutConstraint]
    {
        [
            leadingAnchor.constraint(equalTo: other.leadingAnchor, constant: insets.left),
            trailingAnchor.constraint(equalTo: other.trailingAnchor, constant: -insets.right),
            topAnchor.constraint(equalTo: other.topAnchor, constant: insets.top),
            bottomAnchor.constraint(equalTo: other.bottomAnchor, constant: -insets.bottom),
        ]
    }
}
