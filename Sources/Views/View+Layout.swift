import ScrollwayGeometry
import ScrollwayLayout

/// The axis a hugging or compression-resistance priority is for.
public enum LayoutAxis: Sendable { case horizontal, vertical }

extension View {
    /// What `intrinsicContentSize` says for an axis the content does not size (UIKit's
    /// `noIntrinsicMetric`).
    public static let noIntrinsicMetric = -1.0

    /// The priority with which the view resists growing past its intrinsic size on `axis`
    /// (250 unless set).
    public func contentHuggingPriority(for axis: LayoutAxis) -> LayoutPriority {
        axis == .horizontal ? huggingPriorities.horizontal : huggingPriorities.vertical
    }

    public func setContentHuggingPriority(_ priority: LayoutPriority, for axis: LayoutAxis) {
        if axis == .horizontal {
            huggingPriorities.horizontal = priority
        } else {
            huggingPriorities.vertical = priority
        }
        layoutEngineItemChanged()
    }

    /// The priority with which the view resists shrinking below its intrinsic size on `axis`
    /// (750 unless set).
    public func contentCompressionResistancePriority(for axis: LayoutAxis) -> LayoutPriority {
        axis == .horizontal ? compressionPriorities.horizontal : compressionPriorities.vertical
    }

    public func setContentCompressionResistancePriority(_ priority: LayoutPriority, for axis: LayoutAxis) {
        if axis == .horizontal {
            compressionPriorities.horizontal = priority
        } else {
            compressionPriorities.vertical = priority
        }
        layoutEngineItemChanged()
    }

    /// Tells layout that `intrinsicContentSize` changed (a label's text, a button's title):
    /// the next layout re-solves with the new size.
    public func invalidateIntrinsicContentSize() {
        layoutEngineItemChanged()
        (superview as? StackView)?.arrangedSubviewIntrinsicSizeChanged(self)
    }

    /// A view's frame set by hand, its flag, priorities or intrinsic size changed: the
    /// window's engine, if it holds the view, re-solves.
    func layoutEngineItemChanged() {
        guard isInLayoutEngine, let engine = window?.layoutEngineIfCreated else { return }
        engine.itemChanged(self)
    }

    /// Whether the constraints leave this view's frame open (UIKit's `hasAmbiguousLayout`):
    /// another frame would satisfy them as well. False for a view no constraint names.
    public var hasAmbiguousLayout: Bool {
        guard isInLayoutEngine, let engine = window?.layoutEngineIfCreated else { return false }
        return engine.isAmbiguous(self)
    }

    /// The constraints on this view or below it (UIKit's `constraintsAffectingLayout` for a
    /// subtree): what an app walks to explain a layout.
    public var constraintsInSubtree: [LayoutConstraint] {
        var all: [LayoutConstraint] = []
        var stack = [self]
        while let v = stack.popLast() {
            v.updateOwnConstraintsIfNeeded()
            all += v.installedConstraints
            stack += v.subviews
        }
        return all
    }

    /// The smallest size (`fittingSize` priorities low) or the size nearest `target` that this
    /// view's constraints allow, found by solving the constraints installed in its subtree
    /// alone (UIKit's `systemLayoutSizeFitting`). With a required horizontal priority the width
    /// is `target.width` and the height follows (a self-sizing cell); the view's own frame
    /// and its window's layout are untouched.
    public func systemLayoutSizeFitting(
        _ target: Size, horizontalFittingPriority: LayoutPriority = .fittingSizeLevel,
        verticalFittingPriority: LayoutPriority = .fittingSizeLevel
    ) -> Size {
        let engine = LayoutEngine(fitting: self)
        engine.addFitting(self, target, horizontal: horizontalFittingPriority, vertical: verticalFittingPriority)
        var stack = [self]
        while let v = stack.popLast() {
            v.updateOwnConstraintsIfNeeded()
            for c in v.installedConstraints { engine.add(c) }
            stack += v.subviews
        }
        engine.solveForFitting()
        return engine.solvedSize(of: self) ?? target
    }

    /// The subtree's constraints go into `window`'s engine (the subtree just joined it).
    func installConstraints(in window: Window) {
        var stack = [self]
        while let v = stack.popLast() {
            if !v.installedConstraints.isEmpty {
                let engine = window.layoutEngine
                for c in v.installedConstraints { engine.add(c) }
            }
            stack += v.subviews
        }
    }

    /// The subtree's constraints leave `window`'s engine (the subtree is leaving it).
    func uninstallConstraints(from window: Window) {
        guard let engine = window.layoutEngineIfCreated else { return }
        var stack = [self]
        while let v = stack.popLast() {
            for c in v.installedConstraints { engine.remove(c) }
            stack += v.subviews
        }
    }

    /// Deactivates the constraints installed above this view that name a view or guide in its
    /// subtree: removing a view from its superview cuts its ties to the rest of the tree.
    func deactivateConstraintsCrossing() {
        var ancestor = superview
        while let a = ancestor {
            for c in a.installedConstraints {
                let items = [c.first, c.second].compactMap { $0?.anchorView }
                if items.contains(where: { $0.isDescendant(of: self) }) { c.isActive = false }
            }
            ancestor = a.superview
        }
    }
}

extension Window {
    /// The engine that solves this window's constraints, made when a first constraint is
    /// activated in it.
    var layoutEngine: LayoutEngine {
        if let e = layoutEngineIfCreated { return e }
        let e = LayoutEngine(window: self)
        layoutEngineIfCreated = e
        return e
    }

    /// The required constraints layout could not keep, each with what it conflicts with
    /// (also logged as they happen): an app's test asserts this is empty.
    public var unsatisfiableLayouts: [UnsatisfiableLayout] { layoutEngineIfCreated?.refusals ?? [] }

    /// The app's non-required constraints the last solution does not satisfy.
    public var brokenLayoutConstraints: [LayoutConstraint] { layoutEngineIfCreated?.brokenConstraints ?? [] }
}
