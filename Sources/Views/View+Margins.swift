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

    /// The margins content keeps, by left and right: `layoutMargins`, raised where the view
    /// preserves its superview's (`preservesSuperviewLayoutMargins`) and an edge comes within
    /// them, by as much as keeps the content inside the superview's effective margins too.
    /// What `layoutMarginsGuide` stands inside; a view that lays out by hand within its
    /// margins reads this. (UIKit reports the raised margins through `layoutMargins` itself;
    /// here that stays what was set, so that reading and writing it back does not keep
    /// margins the view had only from where it stood.)
    public var effectiveLayoutMargins: EdgeInsets {
        let own = layoutMargins
        guard preservesSuperviewLayoutMargins, let s = superview else { return own }
        return own.preserving(s.effectiveLayoutMargins, frame: frame, superviewSize: s.bounds.size)
    }

    /// `effectiveLayoutMargins` by leading and trailing, as the margins guide's constraints
    /// take them.
    var effectiveDirectionalLayoutMargins: DirectionalEdgeInsets {
        guard preservesSuperviewLayoutMargins else { return directionalLayoutMargins }
        let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        return DirectionalEdgeInsets(effectiveLayoutMargins, rightToLeft: rtl)
    }

    /// A guide inside the view by its effective margins (UIKit's `layoutMarginsGuide`):
    /// content pinned to it keeps the margins from the view's edges, leading and trailing
    /// mirrored with the view's direction.
    public var layoutMarginsGuide: LayoutGuide {
        if let made = marginsGuide { return made.guide }
        let guide = LayoutGuide(identifier: "\(name ?? "\(type(of: self))").layoutMarginsGuide")
        addLayoutGuide(guide)
        let m = effectiveDirectionalLayoutMargins
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

    /// The margins changed (set, or inherited anew): the guide's constraints take the
    /// effective ones (each a constant moved in place), then the view hears of it, and lays
    /// out again, so that subviews that preserve its margins look again.
    func marginsChanged() {
        let m = effectiveDirectionalLayoutMargins
        preservedMargins = preservesSuperviewLayoutMargins ? m : nil
        if let edges = marginsGuide?.edges {
            for (c, constant) in zip(edges, [m.leading, m.top, -m.trailing, -m.bottom]) where c.constant != constant {
                c.constant = constant
            }
        }
        setNeedsLayout()
        layoutMarginsDidChange()
    }

    /// A layout pass reached a view that may inherit other margins than it was last told of
    /// (it moved, or its superview's size or margins changed; or it stopped preserving them).
    func updatePreservedMargins() {
        let now = preservesSuperviewLayoutMargins ? effectiveDirectionalLayoutMargins : nil
        guard now != preservedMargins else { return }
        marginsChanged()
    }
}

extension LayoutPriority {
    /// The readable content guide's pull to its margins' width, just below required: the
    /// guide fills its margins unless the readable width or a required constraint holds it.
    static let readableFill: LayoutPriority = 999
}

extension EdgeInsets {
    /// These margins of a view at `frame` in a superview `superviewSize` large, each edge
    /// raised where it lies within the superview's `margins`: to as much as keeps the content
    /// inside them too (the superview's margin less the edge's distance from the superview's
    /// edge). An edge at or beyond the superview's margin keeps its own. The superview's
    /// bounds origin is not counted, as layout does not count it: a scroll offset moves no
    /// margin.
    func preserving(_ margins: EdgeInsets, frame: Rect, superviewSize: Size) -> EdgeInsets {
        func edge(_ own: Double, _ theirs: Double, _ distance: Double) -> Double {
            distance < theirs ? max(own, theirs - distance) : own
        }
        return EdgeInsets(
            top: edge(top, margins.top, frame.minY), left: edge(left, margins.left, frame.minX),
            bottom: edge(bottom, margins.bottom, superviewSize.height - frame.maxY),
            right: edge(right, margins.right, superviewSize.width - frame.maxX))
    }
}
