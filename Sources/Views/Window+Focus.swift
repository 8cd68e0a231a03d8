import ScrollwayGeometry
import ScrollwayGestures

extension View {
    /// Whether this view has its window's keyboard focus.
    public var isFocused: Bool { window?.focusedView === self }

    /// Whether this view shows that it has the focus (a ring, a caret): it has its window's
    /// focus and the window has the keyboard (`Window.isKeyWindow`). A window in the
    /// background keeps its focused view, and shows it again when it comes back.
    public var showsFocus: Bool { isFocused && (window?.isKeyWindow ?? false) }

    /// Gives the keyboard focus up, if this view has it.
    public func resignFocus() {
        if isFocused { window?.focus(nil, byTouch: false) }
    }
}

extension Window {
    /// The views Tab stops at, in reading order: top to bottom, then left to right, by their
    /// frames' top-left corners in window coordinates. Views scrolled out of view count; a
    /// hidden or transparent one (or one under a hidden ancestor), one that takes no input, a
    /// disabled control (and what it holds), and one whose `canBecomeFocused` is false do not.
    /// Controls, text views and list rows alike: what counts is `canBecomeFocused`, not the
    /// class.
    public var focusableViews: [View] {
        var found: [(view: View, origin: Point)] = []
        func visit(_ v: View) {
            guard !v.isHidden, v.alpha > 0.01, v.isUserInteractionEnabled else { return }
            // A disabled control and what it holds are passed over.
            if let control = v as? Control, !control.isEnabled { return }
            if v.canBecomeFocused {
                found.append((v, v.convert(Point.zero, to: nil)))
            }
            v.subviews.forEach(visit)
        }
        visit(self)
        // A stable sort, so views at the same place keep their order in the tree.
        return found.enumerated().sorted { a, b in
            let (p, q) = (a.element.origin, b.element.origin)
            if p.y != q.y { return p.y < q.y }
            if p.x != q.x { return p.x < q.x }
            return a.offset < b.offset
        }.map(\.element.view)
    }

    /// Moves the keyboard focus to the next focusable view (Tab) or the previous one
    /// (Shift+Tab), wrapping at the ends; with nothing focused, to the first (or the last).
    /// The focus is not by touch, so an on-screen keyboard stays down under its `touchOnly`
    /// policy. The newly focused view's nearest `FocusScrollTarget` ancestor scrolls it into
    /// view. Returns the view focused, nil when there is none to focus.
    @discardableResult
    public func moveFocus(backwards: Bool = false) -> View? {
        let views = focusableViews
        guard !views.isEmpty else { return nil }
        let next: View
        if let current = focusedView, let i = views.firstIndex(where: { $0 === current }) {
            next = views[(i + (backwards ? views.count - 1 : 1)) % views.count]
        } else {
            next = backwards ? views[views.count - 1] : views[0]
        }
        next.becomeFocused(byTouch: false)
        showFocused(next)
        return next
    }

    /// Asks `view`'s nearest `FocusScrollTarget` ancestor to bring it into view.
    func showFocused(_ view: View) {
        var v = view.superview
        while let current = v {
            if let target = current as? FocusScrollTarget {
                target.scrollToShowFocused(view)
                return
            }
            v = current.superview
        }
    }
}
