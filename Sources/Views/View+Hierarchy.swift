import ScrollwayGeometry

extension View {
    /// Adds `view` on top of the other subviews (removing it from its old superview first).
    public func addSubview(_ view: View) { insertSubview(view, at: subviews.count) }

    /// Inserts `view` at `index` in the subview order (0 is at the back).
    public func insertSubview(_ view: View, at index: Int) {
        precondition(view !== self, "a view cannot be its own subview")
        var a: View? = self
        while let v = a {
            precondition(v !== view, "adding an ancestor as a subview would make a cycle")
            a = v.superview
        }
        if view.superview === self, let i = subviews.index(ofIdentical: view) {
            subviews.remove(at: i)
            subviews.insert(view, at: min(index, subviews.count))
            invalidate()
            return
        }
        // Moving within one window is not leaving it: touches and work in flight carry on.
        let window = self.window
        let joins = window != nil && view.window !== window
        view.detach(stayingIn: window != nil && view.window === window ? window : nil)
        subviews.insert(view, at: max(0, min(index, subviews.count)))
        view.superview = self
        view.setNeedsLayout()
        // As in UIKit, the new superview lays out again too.
        setNeedsLayout()
        if joins, let window {
            view.installConstraints(in: window)
            var stack = [view]
            while let v = stack.popLast() {
                v.didMoveToWindow()
                stack += v.subviews
            }
        }
    }

    /// Detaches the view; what it showed on screen is damaged, and it leaves its window (touches
    /// held in it are cancelled, `willLeaveWindow` is called on its subtree).
    public func removeFromSuperview() { detach(stayingIn: nil) }

    /// Detaches the view. `staying`: the window it is about to be added to again (a move within
    /// it), where only what it showed is damaged.
    private func detach(stayingIn staying: Window?) {
        guard let parent = superview else { return }
        deactivateConstraintsCrossing()
        if let window {
            if window === staying {
                window.viewWillMove(self)
            } else {
                window.viewWillLeave(self)
                uninstallConstraints(from: window)
            }
        }
        if let i = parent.subviews.index(ofIdentical: self) { parent.subviews.remove(at: i) }
        superview = nil
        parent.invalidate()
        (parent as? StackView)?.arrangedSubviewLeft(self)
    }

    /// Moves `view` to the front (drawn last, hit-tested first).
    public func bringSubviewToFront(_ view: View) {
        guard view.superview === self else { return }
        insertSubview(view, at: subviews.count)
    }

    /// Moves `view` to the back.
    public func sendSubviewToBack(_ view: View) {
        guard view.superview === self else { return }
        insertSubview(view, at: 0)
    }

    /// Whether `self` is `view` or one of its descendants.
    public func isDescendant(of view: View) -> Bool {
        var v: View? = self
        while let current = v {
            if current === view { return true }
            v = current.superview
        }
        return false
    }

    /// The first view of type `T` in this subtree (depth first, this view included): a
    /// window's on-screen keyboard, without knowing what it is called.
    public func firstView<T: View>(of type: T.Type) -> T? {
        if let me = self as? T { return me }
        for v in subviews { if let found = v.firstView(of: type) { return found } }
        return nil
    }

    /// The first view in this subtree (depth first, this view included) that is an on-screen
    /// keyboard: what a script's `keyboard.show` and `keyboard.hide` act on, on every platform.
    public var onScreenKeyboard: (any OnScreenKeyboardRole)? {
        if let me = self as? any OnScreenKeyboardRole { return me }
        for v in subviews { if let found = v.onScreenKeyboard { return found } }
        return nil
    }

    /// The first view in this subtree (depth first) with `name`.
    public func view(named name: String) -> View? {
        if self.name == name { return self }
        for v in subviews { if let found = v.view(named: name) { return found } }
        return nil
    }
}

extension View {
    /// Maps this view's bounds coordinates into its superview's bounds coordinates:
    /// `p − bounds.origin + (center − size/2)`, then the transform about `center`.
    var toSuperview: AffineTransform {
        let local = AffineTransform(
            translationX: center.x - bounds.width / 2 - bounds.minX, y: center.y - bounds.height / 2 - bounds.minY)
        return transform.isIdentity ? local : local.concatenating(transform.about(center))
    }

    /// Maps this view's bounds coordinates to the coordinates of the root of its tree (the
    /// window), whose top-left corner is the origin: the root contributes `−bounds.origin`.
    public var toWindow: AffineTransform {
        var t = AffineTransform.identity
        var v: View = self
        while let parent = v.superview {
            t = t.concatenating(v.toSuperview)
            v = parent
        }
        return t.concatenating(AffineTransform(translationX: -v.bounds.minX, y: -v.bounds.minY))
    }

    /// Converts a point in this view's bounds coordinates to `view`'s (nil: the window's).
    public func convert(_ point: Point, to view: View?) -> Point {
        let w = toWindow.apply(to: point)
        guard let view else { return w }
        return view.toWindow.inverted?.apply(to: w) ?? w
    }

    /// Converts a point in `view`'s bounds coordinates (nil: the window's) to this view's.
    public func convert(_ point: Point, from view: View?) -> Point {
        let w = view?.toWindow.apply(to: point) ?? point
        return toWindow.inverted?.apply(to: w) ?? w
    }

    public func convert(_ rect: Rect, to view: View?) -> Rect {
        let w = toWindow.apply(to: rect)
        guard let view, let inv = view.toWindow.inverted else { return w }
        return inv.apply(to: w)
    }

    public func convert(_ rect: Rect, from view: View?) -> Rect {
        let w = view?.toWindow.apply(to: rect) ?? rect
        return toWindow.inverted?.apply(to: w) ?? w
    }
}

extension Array where Element: AnyObject {
    /// Where `object` is, by identity. A loop, not `firstIndex(where:)`: a closure written in a
    /// main-actor view checks at each call that it runs on the main actor, once per element
    /// here, and views are moved and removed among dozens of siblings every scrolled frame.
    /// Inlinable: called from another module (the list's headers), an unspecialized generic
    /// looked each element up through its array's metadata and retained it.
    @inlinable package func index(ofIdentical object: AnyObject) -> Int? {
        for i in indices where self[i] === object { return i }
        return nil
    }
}
