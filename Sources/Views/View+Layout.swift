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

    /// Whether its window's constraint engine holds this view or one below it (constraints
    /// name them). Taking such a subtree out of the window takes each of those constraints out
    /// of the window's solver, and putting it back puts each in again: so a recycled cell for
    /// which this is true waits hidden in place (`ListView`, `CollectionView`).
    public var isInWindowLayoutEngine: Bool {
        guard window?.layoutEngineIfCreated?.isInUse == true else { return false }
        var stack = [self]
        while let v = stack.popLast() {
            if v.isInLayoutEngine { return true }
            stack += v.subviews
        }
        return false
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
    ///
    /// The solver is kept for the next call: a self-sizing cell measured for each item it is
    /// reused for, or a stack measured at another width, re-solves from the last solution with
    /// the target and the intrinsic sizes moved in place, instead of building every row again.
    /// It is built anew when the subtree's constraints are not the same ones with the same
    /// constants and priorities, or the priorities asked differ. (A layout the constraints
    /// leave ambiguous may then come out as another of its solutions.)
    public func systemLayoutSizeFitting(
        _ target: Size, horizontalFittingPriority: LayoutPriority = .fittingSizeLevel,
        verticalFittingPriority: LayoutPriority = .fittingSizeLevel
    ) -> Size {
        var constraints: [LayoutConstraint] = []
        var stack = [self]
        while let v = stack.popLast() {
            v.updateOwnConstraintsIfNeeded()
            constraints += v.installedConstraints
            stack += v.subviews
        }
        let priorities = (horizontalFittingPriority, verticalFittingPriority)
        if let kept = fittingEngine, kept.fits(constraints, priorities), kept.engine.refit(self, target) {
            kept.engine.solveForFitting()
            return kept.engine.solvedSize(of: self) ?? target
        }
        fittingEngine = nil
        let engine = LayoutEngine(fitting: self)
        engine.addFitting(self, target, horizontal: horizontalFittingPriority, vertical: verticalFittingPriority)
        for c in constraints { engine.add(c) }
        engine.solveForFitting()
        if engine.canRefit {
            fittingEngine = FittingEngine(engine: engine, constraints: constraints, priorities: priorities)
        }
        return engine.solvedSize(of: self) ?? target
    }

    /// Forgets the kept fitting engine: the next `systemLayoutSizeFitting` builds its solver
    /// from nothing (what the bench times a kept one against).
    public func forgetFittingEngine() { fittingEngine = nil }

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

/// A view's kept fitting engine, and what it was built from: the subtree's constraints in the
/// order they went in, their constants and priorities then, and the fitting priorities.
@MainActor
final class FittingEngine {
    let engine: LayoutEngine
    private let constraints: [LayoutConstraint]
    private let constants: [Double]
    private let constraintPriorities: [LayoutPriority]
    private let priorities: (LayoutPriority, LayoutPriority)

    init(engine: LayoutEngine, constraints: [LayoutConstraint], priorities: (LayoutPriority, LayoutPriority)) {
        self.engine = engine
        self.constraints = constraints
        constants = constraints.map(\.constant)
        constraintPriorities = constraints.map(\.priority)
        self.priorities = priorities
    }

    /// Whether `constraints` are the ones it was built from, as they were then.
    func fits(_ now: [LayoutConstraint], _ asked: (LayoutPriority, LayoutPriority)) -> Bool {
        guard asked == priorities, now.count == constraints.count else { return false }
        for (i, c) in now.enumerated()
        where c !== constraints[i] || c.constant != constants[i] || c.priority != constraintPriorities[i] {
            return false
        }
        return true
    }
}
