import ScrollwayGeometry
import ScrollwayLayout

extension View {
    /// The margins by left and right (UIKit's `layoutMargins`): `directionalLayoutMargins` seen
    /// in this view's direction, so that in a right-to-left layout `left` is the trailing
    /// margin. Setting it sets the directional margins the same way.
    public var layoutMargins: EdgeInsets {
        get { directionalLayoutMargins.absolute(rightToLeft: effectiveUserInterfaceLayoutDirection == .rightToLeft) }
        set {
            let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
            directionalLayoutMargins = DirectionalEdgeInsets(newValue, rightToLeft: rtl)
        }
    }

    /// A guide inside the view by its margins (UIKit's `layoutMarginsGuide`): content pinned to
    /// it keeps the margins from the view's edges, leading and trailing mirrored with the
    /// view's direction.
    public var layoutMarginsGuide: LayoutGuide {
        if let made = marginsGuide { return made.guide }
        let guide = LayoutGuide(identifier: "\(name ?? "\(type(of: self))").layoutMarginsGuide")
        addLayoutGuide(guide)
        let m = directionalLayoutMargins
        let edges = [
            guide.leadingAnchor.constraint(equalTo: leadingAnchor, constant: m.leading),
            guide.topAnchor.constraint(equalTo: topAnchor, constant: m.top),
            guide.trailingAnchor.constraint(equalTo: trailingAnchor, constant: -m.trailing),
            guide.bottomAnchor.constraint(equalTo: bottomAnchor, constant: -m.bottom),
        ]
        LayoutConstraint.activate(edges)
        marginsGuide = (guide, edges)
        return guide
    }

    /// The widest a `readableContentGuide` is: UIKit's readable width at its default text size.
    /// Text here does not follow a size the user picks (no Dynamic Type), so neither does this.
    public static let readableContentWidth = 672.0

    /// A guide inside the margins guide, as tall, centred in it and as wide as it up to
    /// `readableContentWidth` (UIKit's `readableContentGuide`): a column of text pinned to it
    /// keeps lines short enough to read on a wide window and fills a narrow one. It follows the
    /// margins as the margins guide does.
    public var readableContentGuide: LayoutGuide {
        if let made = readableGuide { return made }
        let margins = layoutMarginsGuide
        let guide = LayoutGuide(identifier: "\(name ?? "\(type(of: self))").readableContentGuide")
        addLayoutGuide(guide)
        // As wide as the margins allow, giving way only to the readable width: the pull is
        // the toolkit's own, not listed as broken when the width holds it back.
        let fill = guide.widthAnchor.constraint(equalTo: margins.widthAnchor).withPriority(.readableFill)
        fill.isGuideDefinition = true
        LayoutConstraint.activate([
            guide.topAnchor.constraint(equalTo: margins.topAnchor),
            guide.bottomAnchor.constraint(equalTo: margins.bottomAnchor),
            guide.centerXAnchor.constraint(equalTo: margins.centerXAnchor),
            guide.widthAnchor.constraint(lessThanOrEqualTo: margins.widthAnchor),
            guide.widthAnchor.constraint(lessThanOrEqualToConstant: View.readableContentWidth),
            fill,
        ])
        readableGuide = guide
        return guide
    }

    /// The margins changed: the guide's constraints take the new ones (each a constant moved in
    /// place), then the view hears of it.
    func marginsChanged() {
        if let edges = marginsGuide?.edges {
            let m = directionalLayoutMargins
            for (c, constant) in zip(edges, [m.leading, m.top, -m.trailing, -m.bottom]) where c.constant != constant {
                c.constant = constant
            }
        }
        layoutMarginsDidChange()
    }
}

extension LayoutPriority {
    /// The readable content guide's pull to its margins' width, just below required: the
    /// guide fills its margins unless the readable width or a required constraint holds it.
    static let readableFill: LayoutPriority = 999
}
