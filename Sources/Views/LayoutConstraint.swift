import ScrollwayGeometry
import ScrollwayLayout

/// A relation between two anchors (or an anchor and a constant) that layout keeps true
/// (UIKit's `NSLayoutConstraint`): `first relation second × multiplier + constant`, at a
/// priority. Made inactive by the anchors' `constraint(…)` methods; `isActive = true` (or
/// `activate`) installs it on the nearest common ancestor of its items, and the window's
/// engine solves it before the next frame's layout.
///
/// The items are held weakly: a constraint keeps no view alive, and one whose view has gone
/// is dropped from layout. Removing a view from its superview deactivates the constraints that
/// tie its subtree to views outside it, as UIKit does.
@MainActor
public final class LayoutConstraint: @MainActor CustomStringConvertible {
    private weak var firstView: View?
    private weak var firstGuide: LayoutGuide?
    private weak var secondView: View?
    private weak var secondGuide: LayoutGuide?
    public let firstAttribute: LayoutAttribute
    public let secondAttribute: LayoutAttribute?
    public let relation: LinearConstraint.Relation
    public let multiplier: Double
    /// Changing it re-solves from the last solution (a constant animated each frame costs a
    /// few pivots).
    public var constant: Double {
        didSet { if constant != oldValue { engine?.constraintChanged(self) } }
    }
    /// Below required, the engine may break it to satisfy stronger ones.
    public var priority: LayoutPriority = .required {
        didSet { if priority != oldValue { engine?.constraintChanged(self) } }
    }
    /// Named in diagnostics (an unsatisfiable set lists constraints by it).
    public var identifier: String?
    /// Made by the toolkit to define a guide, below required (the readable content guide's pull
    /// to its margins' width): giving way is its job, so it is not among
    /// `Window.brokenLayoutConstraints`.
    var isGuideDefinition = false
    /// The view it is installed on while active (the items' nearest common ancestor).
    public internal(set) weak var installedOn: View?

    init(
        first: LayoutItem, firstAttribute: LayoutAttribute, relation: LinearConstraint.Relation, second: LayoutItem?,
        secondAttribute: LayoutAttribute?, multiplier: Double, constant: Double
    ) {
        switch first {
        case .view(let v): firstView = v
        case .guide(let g): firstGuide = g
        }
        switch second {
        case .view(let v): secondView = v
        case .guide(let g): secondGuide = g
        case nil: break
        }
        self.firstAttribute = firstAttribute
        self.secondAttribute = secondAttribute
        self.relation = relation
        self.multiplier = multiplier
        self.constant = constant
    }

    var first: LayoutItem? {
        if let firstView { return .view(firstView) }
        return firstGuide.map { .guide($0) }
    }
    var second: LayoutItem? {
        if let secondView { return .view(secondView) }
        return secondGuide.map { .guide($0) }
    }
    /// Whether the second item was named (and may since have gone).
    var hasSecondItem: Bool { secondAttribute != nil }

    /// The view or layout guide on the left of the relation.
    public var firstItem: AnyObject? { first?.object }
    public var secondItem: AnyObject? { second?.object }

    /// The same constraint at another priority (for chaining: `a.constraint(…).withPriority(.defaultLow)`).
    public func withPriority(_ priority: LayoutPriority) -> LayoutConstraint {
        self.priority = priority
        return self
    }

    /// The engine solving it, while it is active in a window.
    var engine: LayoutEngine? { installedOn?.window?.layoutEngineIfCreated }

    public var isActive: Bool {
        get { installedOn != nil }
        set {
            if newValue { activate() } else { deactivate() }
        }
    }

    /// Activates all of `constraints`.
    public static func activate(_ constraints: [LayoutConstraint]) {
        for c in constraints { c.isActive = true }
    }

    /// Deactivates all of `constraints`.
    public static func deactivate(_ constraints: [LayoutConstraint]) {
        for c in constraints { c.isActive = false }
    }

    private func activate() {
        guard installedOn == nil else { return }
        guard let first else { return }
        let host: View
        if let second {
            guard let common = LayoutConstraint.commonAncestor(first, second) else {
                preconditionFailure(
                    "cannot activate \(self): its items have no common ancestor (add both to one view tree first)")
            }
            host = common
        } else {
            // A size alone belongs to its item (a guide's to its owner).
            guard let v = first.anchorView else {
                preconditionFailure("cannot activate \(self): its layout guide is not added to a view")
            }
            host = v
        }
        installedOn = host
        host.installedConstraints.append(self)
        host.window?.layoutEngine.add(self)
    }

    private func deactivate() {
        guard let host = installedOn else { return }
        host.window?.layoutEngineIfCreated?.remove(self)
        host.installedConstraints.removeAll { $0 === self }
        installedOn = nil
    }

    /// The deepest view that is or contains both items' views (a guide stands for its owner).
    static func commonAncestor(_ a: LayoutItem, _ b: LayoutItem) -> View? {
        guard let va = a.anchorView, let vb = b.anchorView else { return nil }
        var ancestors = Set<ObjectIdentifier>()
        var v: View? = va
        while let x = v {
            ancestors.insert(ObjectIdentifier(x))
            v = x.superview
        }
        v = vb
        while let x = v {
            if ancestors.contains(ObjectIdentifier(x)) { return x }
            v = x.superview
        }
        return nil
    }

    /// As UIKit writes one: `label.leading == content.leading + 16 @750`.
    public var description: String {
        var s = "\(first?.name ?? "(gone)").\(firstAttribute.rawValue) \(relation.rawValue) "
        if let secondAttribute {
            var rhs = "\(second?.name ?? "(gone)").\(secondAttribute.rawValue)"
            if multiplier != 1 { rhs = "\(formatted(multiplier))×\(rhs)" }
            if constant > 0 { rhs += " + \(formatted(constant))" }
            if constant < 0 { rhs += " - \(formatted(-constant))" }
            s += rhs
        } else {
            s += formatted(constant)
        }
        if !priority.isRequired { s += " @\(formatted(priority.rawValue))" }
        return identifier.map { "\($0): \(s)" } ?? s
    }

    private func formatted(_ v: Double) -> String {
        if let whole = Int(exactly: v) { return String(whole) }
        return String(v)
    }
}

/// A rectangle that takes part in layout without being a view (UIKit's `UILayoutGuide`): space
/// between views, a region to centre in, a scroll view's content and frame. Its position is in
/// its owning view's bounds coordinates; `layoutFrame` is what layout last solved.
@MainActor
public final class LayoutGuide {
    /// For diagnostics.
    public var identifier: String
    public internal(set) weak var owningView: View?
    /// The solved rectangle, in the owning view's coordinates.
    public internal(set) var layoutFrame: Rect = .zero
    /// What the guide stands for, when its owner defines it (a scroll view's frame guide).
    let role: Role

    enum Role {
        /// Free: constraints alone place it.
        case free
        /// Its origin is the owner's (0,0); its size is free (a scroll view's content guide).
        case content
        /// The owner's bounds at (0,0): the owner's own size (a scroll view's frame guide).
        case frame
    }

    public convenience init(identifier: String = "guide") { self.init(identifier: identifier, role: .free) }

    /// A guide whose origin is its owner's (0,0) and whose size constraints decide: a scroll
    /// view's content guide.
    public static func contentGuide(identifier: String) -> LayoutGuide {
        LayoutGuide(identifier: identifier, role: .content)
    }
    /// A guide that is its owner's bounds at (0,0): a scroll view's frame guide.
    public static func frameGuide(identifier: String) -> LayoutGuide {
        LayoutGuide(identifier: identifier, role: .frame)
    }
    public var isContentGuide: Bool { role == .content }
    public var isFrameGuide: Bool { role == .frame }

    init(identifier: String, role: Role) {
        self.identifier = identifier
        self.role = role
    }
}

extension View {
    /// Adds `guide` to this view: its anchors are then in this view's coordinates.
    public func addLayoutGuide(_ guide: LayoutGuide) {
        precondition(guide.owningView == nil || guide.owningView === self, "a layout guide belongs to one view")
        guard guide.owningView == nil else { return }
        guide.owningView = self
        layoutGuides.append(guide)
    }

    /// Removes `guide` and deactivates the constraints installed on this view or above that use it.
    public func removeLayoutGuide(_ guide: LayoutGuide) {
        guard guide.owningView === self else { return }
        var v: View? = self
        while let x = v {
            for c in x.installedConstraints where c.firstItem === guide || c.secondItem === guide {
                c.isActive = false
            }
            v = x.superview
        }
        layoutGuides.removeAll { $0 === guide }
        guide.owningView = nil
    }
}
