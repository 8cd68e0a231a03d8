import ScrollwayGeometry

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
