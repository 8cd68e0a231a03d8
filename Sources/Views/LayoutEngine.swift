import Logging
import ScrollwayGeometry
import ScrollwayLayout

/// A required constraint layout could not keep: the app's constraint, left out of the solution
/// until what it conflicts with goes, and the constraints it conflicts with (the app's, and
/// the engine's own: frames set by hand, a guide's definition), as UIKit's log names them.
@MainActor
public struct UnsatisfiableLayout: @MainActor CustomStringConvertible {
    public let constraint: LayoutConstraint
    /// Every constraint it met, as written (the engine's own included).
    public let conflicts: [String]
    /// Those of them that are the app's.
    public let conflictingConstraints: [LayoutConstraint]
    /// Why it was left out when it met no other: a constant or multiplier that is not a finite
    /// number (it would have made every frame NaN). Nil for a conflict.
    public let problem: String?

    /// What makes a refusal the same one again: the app's constraints it conflicts with and its
    /// problem. Not its text, which names the engine's own constraints with their constants (a
    /// hand-set frame's, new at every step of a live resize).
    var identity: Identity {
        Identity(
            constraints: [ObjectIdentifier(constraint)] + conflictingConstraints.map { ObjectIdentifier($0) },
            problem: problem)
    }

    struct Identity: Equatable {
        let constraints: [ObjectIdentifier]
        let problem: String?
    }

    public var description: String {
        if let problem { return "unable to use \(constraint): \(problem)" }
        return "unable to satisfy \(constraint); it conflicts with: " + conflicts.joined(separator: "; ")
    }
}

/// Solves a window's constraints (or, for `systemLayoutSizeFitting`, a subtree's) and writes
/// the frames they decide.
///
/// Each view or guide a constraint names gets four variables: `left` and `top` in its
/// container's bounds coordinates (a view's superview, a guide's owning view), `width` and
/// `height`. A constraint between items in different containers is written in their nearest
/// common ancestor's coordinates: an item's edge there is its own `left` plus the `left` of
/// every view between it and the ancestor (bounds origins are not counted, so a scroll
/// offset never moves a layout: a scroll view's subviews are placed in content coordinates).
///
/// A view whose `translatesAutoresizingMaskIntoConstraints` is true has its four variables
/// held to its frame by required constraints, replaced when the frame changes; one whose flag
/// is false is the engine's to place, and its intrinsic content size adds two constraints
/// per axis: `size ≤ intrinsic` at its hugging priority, `size ≥ intrinsic` at its
/// compression resistance. The solver is incremental (Cassowary): a resize replaces one pin
/// and re-solves from the last solution.
@MainActor
final class LayoutEngine {
    private let solver = LayoutSolver()
    /// How many refusals were logged (each a new one, or one refused another way).
    private(set) var refusalsLogged = 0
    /// The view whose size is being found (`systemLayoutSizeFitting`): never pinned to its
    /// frame, its origin held at (0,0). nil for a window's engine.
    private let freeRoot: View?
    /// The window's engine (which marks views `isInLayoutEngine` and asks for frames).
    private weak var window: Window?
    private var items: [ObjectIdentifier: ItemState] = [:]
    /// Items in the order they joined, for a deterministic pass over them.
    private var itemOrder: [ObjectIdentifier] = []
    private var nextSerial = 0
    private var installed: [ObjectIdentifier: Installed] = [:]
    /// The installed constraints the solver refused, tried again whenever what they met may
    /// have gone (a constraint removed, a pin moved or dropped, an intrinsic size changed).
    private var refused: Set<ObjectIdentifier> = []
    /// The view whose frame the engine is writing: its own change notice is not news (others',
    /// a hand-set subview it moves in `didChangeBounds`, are).
    private var applyingView: View?
    /// Items whose pins or intrinsic constraints must be brought up to date.
    private var dirty: Set<ObjectIdentifier> = []
    /// Of those, the ones whose pins may be out of date: a constraint added brings pins up to
    /// date before it goes in, and leaves intrinsic sizes to the solve.
    private var pinsDirty: Set<ObjectIdentifier> = []
    private(set) var needsSolve = false
    /// A fitting engine's target: the fitted view's width and height constraints.
    private var fittingTarget: (width: LinearConstraint, height: LinearConstraint)?
    private(set) var isLayingOut = false
    private let log = Logger(label: "scrollway.layout")

    var isInUse: Bool { !installed.isEmpty }
    /// The solver's variables: those of the items its constraints name.
    var variableCount: Int { solver.variableCount }

    init(window: Window) {
        self.window = window
        freeRoot = nil
    }

    init(fitting root: View) {
        freeRoot = root
        window = nil
    }

    // MARK: Items

    @MainActor
    final class ItemState {
        // Weak: the window can be an item (a view pinned to its edges), and the window holds
        // the engine.
        private weak var view: View?
        private weak var guide: LayoutGuide?
        /// For diagnostics.
        let name: String
        let left, top, width, height: LayoutVariable
        var references = 0
        /// When it joined: items are brought up to date in this order, so that the same
        /// constraints give the same solution every time.
        var serial = 0
        /// The constraints holding a hand-set frame: left, top, width, height.
        var pins: [LinearConstraint?] = [nil, nil, nil, nil]
        var pinnedFrame: Rect?
        var intrinsicKey: IntrinsicKey?
        /// The intrinsic width's and height's hugging and compression-resistance constraints
        /// (nil: that axis has none), and the value they hold the size to.
        var intrinsic: [(hug: LinearConstraint, resist: LinearConstraint, value: Double)?] = [nil, nil]
        var intrinsicConstraints: [LinearConstraint] { intrinsic.compactMap { $0 }.flatMap { [$0.hug, $0.resist] } }
        /// What a guide's role adds (a frame guide's size is its owner's).
        var roleConstraints: [LinearConstraint] = []
        /// Items this one keeps registered (a frame guide's owner).
        var dependencies: [ObjectIdentifier] = []
        /// The view's baselines, made when a constraint first names one.
        var baselines: BaselineHolds?
        /// The width layout last solved for a view it places, at which its baselines are
        /// measured (nil: its bounds' width, until a solve).
        var solvedWidth: Double?

        /// The view or guide, while it lives.
        var item: LayoutItem? {
            if let view { return .view(view) }
            return guide.map { .guide($0) }
        }

        init(_ item: LayoutItem) {
            switch item {
            case .view(let v): view = v
            case .guide(let g): guide = g
            }
            name = item.name
            let n = name
            left = LayoutVariable("\(n).left")
            top = LayoutVariable("\(n).top")
            width = LayoutVariable("\(n).width")
            height = LayoutVariable("\(n).height")
        }
    }

    /// What the intrinsic constraints' shape depends on: which axes have a size, and the
    /// priorities. A new size alone moves the constraints' constants and keeps them.
    struct IntrinsicKey: Equatable {
        var axes: (Bool, Bool)
        var hugging: (Double, Double)
        var compression: (Double, Double)
        static func == (a: IntrinsicKey, b: IntrinsicKey) -> Bool {
            a.axes == b.axes && a.hugging == b.hugging && a.compression == b.compression
        }
    }

    /// A view's first and last baselines as variables, their distances below its top: each
    /// held to its height by a required equality (`baseline == fraction × height + offset`,
    /// `BaselinePosition`), whose offset moves in place when its text does.
    struct BaselineHolds {
        let first, last: LayoutVariable
        var definitions: [LinearConstraint]
        var value: Baselines
    }

    /// A required hugging or compression resistance acts at this, just below required: a
    /// constraint of the app's that contradicts it breaks it, and is not refused.
    static let strongestContentPriority: LayoutPriority = 999.99

    struct Installed {
        let constraint: LayoutConstraint
        /// When it was installed (refusals are retried in this order).
        var order = 0
        var linear: LinearConstraint?
        /// The items it keeps registered (its own and the views between them and the host).
        var items: [ObjectIdentifier]
        var inSolver = false
        var refusal: UnsatisfiableLayout?
        /// Whether it went into the solver mirrored (`isMirrored`).
        var mirrored = false
    }

    private func state(_ item: LayoutItem) -> ItemState? { items[ObjectIdentifier(item.object)] }

    @discardableResult
    private func retain(_ item: LayoutItem) -> ItemState {
        let key = ObjectIdentifier(item.object)
        if let s = items[key] {
            s.references += 1
            return s
        }
        let s = ItemState(item)
        s.references = 1
        nextSerial += 1
        s.serial = nextSerial
        items[key] = s
        itemOrder.append(key)
        dirty.insert(key)
        pinsDirty.insert(key)
        if case .view(let v) = item, window != nil { v.isInLayoutEngine = true }
        if case .guide(let g) = item, let owner = g.owningView {
            switch g.role {
            case .free:
                s.roleConstraints = [s.width >= 0, s.height >= 0]
            case .content:
                s.roleConstraints = [s.left == 0, s.top == 0, s.width >= 0, s.height >= 0]
            case .frame:
                let o = retain(.view(owner))
                s.dependencies = [ObjectIdentifier(owner)]
                s.roleConstraints = [s.left == 0, s.top == 0, s.width == o.width, s.height == o.height]
            }
            for c in s.roleConstraints {
                c.identifier = "\(g.identifier) (\(g.role))"
                addQuietly(c)
            }
        }
        if case .view(let v) = item, v === freeRoot {
            for c in [s.left == 0, s.top == 0] {
                c.identifier = "\(item.name) (the view being fitted)"
                addQuietly(c)
                s.roleConstraints.append(c)
            }
        }
        return s
    }

    private func release(_ key: ObjectIdentifier) {
        guard let s = items[key] else { return }
        s.references -= 1
        guard s.references <= 0 else { return }
        let baselines = s.baselines?.definitions ?? []
        for c in s.pins.compactMap({ $0 }) + s.intrinsicConstraints + s.roleConstraints + baselines
        where solver.contains(c) {
            try? solver.remove(c)
        }
        items[key] = nil
        itemOrder.removeAll { $0 == key }
        dirty.remove(key)
        pinsDirty.remove(key)
        if case .view(let v)? = s.item, window != nil { v.isInLayoutEngine = false }
        for d in s.dependencies { release(d) }
        needsSolve = true
    }

    /// A required constraint of the engine's own; one that cannot hold is logged (an app's
    /// constraint conflicting with it is the one refused when added later).
    private func addQuietly(_ c: LinearConstraint) {
        do {
            try solver.add(c)
        } catch {
            log.warning("layout: \(error)")
        }
    }

    // MARK: Constraints

    func add(_ c: LayoutConstraint) {
        let key = ObjectIdentifier(c)
        guard installed[key] == nil, let host = c.installedOn, let first = c.first else { return }
        if c.hasSecondItem, c.second == nil { return }
        var registered: [ObjectIdentifier] = []
        for item in [first] + (c.second.map { [$0] } ?? []) {
            retain(item)
            registered.append(ObjectIdentifier(item.object))
            // The views between the item and the host, whose offsets the item's edges add.
            var p = item.container
            if case .view(let v) = item, v === host { p = nil }
            while let x = p, x !== host {
                retain(.view(x))
                registered.append(ObjectIdentifier(x))
                p = x.superview
            }
        }
        nextSerial += 1
        installed[key] = Installed(constraint: c, order: nextSerial, linear: nil, items: registered)
        // Hand-set frames hold first: a constraint that contradicts one is the one refused.
        // Intrinsic sizes wait for the solve: they never refuse a constraint, and a required
        // constraint on a size that its intrinsic constraints already hold would have no
        // variable left to solve for and take the artificial variable's many pivots
        // (decisions.md, "The solver's walks, and constants moved in place").
        refreshDirtyPins()
        insert(key)
        needsSolve = true
        window?.setNeedsLayout()
    }

    func remove(_ c: LayoutConstraint) {
        guard let entry = installed.removeValue(forKey: ObjectIdentifier(c)) else { return }
        refused.remove(ObjectIdentifier(c))
        if let linear = entry.linear, entry.inSolver { try? solver.remove(linear) }
        for key in entry.items { release(key) }
        needsSolve = true
        window?.setNeedsLayout()
        retryRefused()
    }

    /// A constant or priority changed. A new constant of a constraint in the solver moves in
    /// place (`LayoutSolver.updateConstant`: a few pivots from the last solution, for a
    /// constant animated every frame); a new priority, or a constant the solver refuses, goes
    /// out and back in as it is now, which also records why it cannot hold. (The right-hand
    /// side's constant is the constraint's own: `expression(_:_:in:)` has none.)
    func constraintChanged(_ c: LayoutConstraint) {
        let key = ObjectIdentifier(c)
        guard let entry = installed[key] else { return }
        if let linear = entry.linear, entry.inSolver, linear.priority == c.priority,
            (try? solver.updateConstant(of: linear, to: entry.mirrored ? -c.constant : c.constant)) != nil
        {
            needsSolve = true
            window?.setNeedsLayout()
            retryRefused()
            return
        }
        reinsert(key)
        needsSolve = true
        window?.setNeedsLayout()
        retryRefused()
    }

    /// Takes an installed constraint out of the solver and puts it back as it is now (resolved
    /// anew: its constant, its priority, its direction), recording why if it cannot go.
    private func reinsert(_ key: ObjectIdentifier) {
        guard var entry = installed[key] else { return }
        if let linear = entry.linear, entry.inSolver { try? solver.remove(linear) }
        entry.inSolver = false
        entry.refusal = nil
        installed[key] = entry
        insert(key)
    }

    /// Puts an installed constraint into the solver, or records why it cannot go.
    private func insert(_ key: ObjectIdentifier) {
        guard var entry = installed[key], !entry.inSolver, let host = entry.constraint.installedOn else { return }
        let c = entry.constraint
        let mirrored = isMirrored(c)
        entry.mirrored = mirrored
        let constant = mirrored ? -c.constant : c.constant
        guard let first = c.first, let lhs = expression(first, resolved(c.firstAttribute, mirrored), in: host) else {
            return
        }
        var rhs = LinearExpression(constant: constant)
        if let second = c.second, let attribute = c.secondAttribute {
            guard let e = expression(second, resolved(attribute, mirrored), in: host) else { return }
            rhs = e * c.multiplier + constant
        }
        let linear = LinearConstraint(
            lhs, mirrored ? Self.mirrored(c.relation) : c.relation, rhs, priority: c.priority,
            identifier: c.identifier)
        entry.linear = linear
        let previous = entry.refusal?.identity
        do {
            try solver.add(linear)
            entry.inSolver = true
            entry.refusal = nil
            refused.remove(key)
        } catch {
            entry.inSolver = false
            refused.insert(key)
            if case .unsatisfiable(_, let conflicts) = error {
                let mine = Dictionary(
                    installed.values.compactMap { e in e.linear.map { (ObjectIdentifier($0), e.constraint) } },
                    uniquingKeysWith: { a, _ in a })
                entry.refusal = UnsatisfiableLayout(
                    constraint: c,
                    conflicts: conflicts.map { mine[ObjectIdentifier($0)]?.description ?? $0.description },
                    conflictingConstraints: conflicts.compactMap { mine[ObjectIdentifier($0)] }, problem: nil)
            } else {
                // Not a conflict (a NaN constant, an infinite multiplier): refused all the same,
                // and listed with the conflicts, which is where an app's test looks.
                entry.refusal = UnsatisfiableLayout(
                    constraint: c, conflicts: [], conflictingConstraints: [], problem: "\(error)")
            }
            // Refused constraints are tried again at every layout pass: one that is refused the
            // same way again is not logged again (a window resized live logged it every frame).
            if entry.refusal?.identity != previous {
                log.warning("layout: \(entry.refusal!)")
                refusalsLogged += 1
            }
        }
        installed[key] = entry
    }

    private func retryRefused() {
        for key in refused.sorted(by: { installed[$0]?.order ?? 0 < installed[$1]?.order ?? 0 }) { insert(key) }
    }

    var refusals: [UnsatisfiableLayout] {
        installed.values.compactMap(\.refusal).sorted { "\($0.constraint)" < "\($1.constraint)" }
    }

    // MARK: Layout direction

    /// Whether `c` is laid out mirrored: it names a leading or trailing edge, and its first
    /// item's view reads right to left. A mirrored constraint is its left-to-right self seen in
    /// a mirror: leading is the right edge, trailing the left, and its constant runs leftwards
    /// (an inset of 16 from the leading edge is 16 from the right), which keeps constraints
    /// between a leading edge and a centre or a width meaning what they mean left to right.
    private func isMirrored(_ c: LayoutConstraint) -> Bool {
        guard Self.isDirectional(c.firstAttribute) || c.secondAttribute.map(Self.isDirectional) == true else {
            return false
        }
        return c.first?.anchorView?.effectiveUserInterfaceLayoutDirection == .rightToLeft
    }

    private static func isDirectional(_ a: LayoutAttribute) -> Bool { a == .leading || a == .trailing }

    /// An inequality seen in the mirror points the other way: `b.leading >= a.trailing + 8`
    /// (b at least 8 past a, reading on) is `b.right <= a.left - 8` right to left, where it
    /// had stayed `>=` and let b overlap a.
    private static func mirrored(_ relation: LinearConstraint.Relation) -> LinearConstraint.Relation {
        switch relation {
        case .equal: .equal
        case .lessOrEqual: .greaterOrEqual
        case .greaterOrEqual: .lessOrEqual
        }
    }

    /// The edge `attribute` is on screen: leading and trailing swap sides when mirrored.
    private func resolved(_ attribute: LayoutAttribute, _ mirrored: Bool) -> LayoutAttribute {
        switch attribute {
        case .leading: mirrored ? .right : .left
        case .trailing: mirrored ? .left : .right
        default: attribute
        }
    }

    /// A window's or a view's direction changed (`userInterfaceLayoutDirection`,
    /// `semanticContentAttribute`): every constraint whose mirroring no longer matches goes out
    /// of the solver and back in, resolved anew.
    func directionChanged() {
        var changed = false
        for key in installed.keys.sorted(by: { installed[$0]!.order < installed[$1]!.order }) {
            guard let entry = installed[key], entry.linear != nil, isMirrored(entry.constraint) != entry.mirrored else {
                continue
            }
            reinsert(key)
            changed = true
        }
        guard changed else { return }
        needsSolve = true
        window?.setNeedsLayout()
        retryRefused()
    }

    /// `item`'s `attribute` in `host`'s bounds coordinates.
    private func expression(_ item: LayoutItem, _ attribute: LayoutAttribute, in host: View) -> LinearExpression? {
        guard let s = state(item) else { return nil }
        switch attribute {
        case .width: return LinearExpression(s.width)
        case .height: return LinearExpression(s.height)
        case .firstBaseline, .lastBaseline:
            // A guide has no baseline (nor has UIKit's); no anchor names one.
            guard case .view(let v) = item, let top = expression(item, .top, in: host) else { return nil }
            let b = baselineHolds(s, v)
            return top + (attribute == .firstBaseline ? b.first : b.last)
        default: break
        }
        let horizontal = [.left, .right, .leading, .trailing, .centerX].contains(attribute)
        var position = LinearExpression()
        if case .view(let v) = item, v === host {
            // The host's own edges, in its own coordinates: (0,0) to its size.
        } else {
            position = LinearExpression(horizontal ? s.left : s.top)
            var p = item.container
            while let x = p, x !== host {
                guard let xs = state(.view(x)) else { return nil }
                position = position + (horizontal ? xs.left : xs.top)
                p = x.superview
            }
        }
        switch attribute {
        case .left, .leading, .top: return position
        case .right, .trailing: return position + s.width
        case .bottom: return position + s.height
        case .centerX: return position + s.width * 0.5
        case .centerY: return position + s.height * 0.5
        case .width, .height, .firstBaseline, .lastBaseline: return nil
        }
    }

    // MARK: Baselines

    /// `v`'s baselines, made and put in the solver the first time a constraint names one.
    private func baselineHolds(_ s: ItemState, _ v: View) -> BaselineHolds {
        if let made = s.baselines { return made }
        let value = v.baselines(forWidth: baselineWidth(s, v))
        let b = BaselineHolds(
            first: LayoutVariable("\(s.name).firstBaseline"), last: LayoutVariable("\(s.name).lastBaseline"),
            definitions: [], value: value)
        s.baselines = b
        defineBaselines(s, value)
        return s.baselines!
    }

    /// Holds `s`'s baseline variables to its height as `value` says (new constraints).
    private func defineBaselines(_ s: ItemState, _ value: Baselines) {
        guard var b = s.baselines else { return }
        for c in b.definitions where solver.contains(c) { try? solver.remove(c) }
        b.definitions = [(b.first, value.first, "firstBaseline"), (b.last, value.last, "lastBaseline")].map {
            variable, position, name in
            let c = LinearExpression(variable) == LinearExpression(s.height) * position.heightFraction + position.offset
            c.identifier = "\(s.name).\(name) (its text)"
            return c
        }
        b.value = value
        s.baselines = b
        for c in b.definitions { addQuietly(c) }
    }

    /// The width `v`'s baselines are measured at: what layout solved for a view it places (a
    /// wrapping label's lines are broken at it), a hand-set frame's own.
    private func baselineWidth(_ s: ItemState, _ v: View) -> Double {
        isPinned(v) ? v.bounds.width : (s.solvedWidth ?? v.bounds.width)
    }

    /// The baselines as the view now says: a new offset moves in place (a new text, a new
    /// width), a new fraction of the height makes the constraints anew.
    private func refreshBaselines(_ s: ItemState, _ v: View) {
        guard let b = s.baselines else { return }
        let value = v.baselines(forWidth: baselineWidth(s, v))
        guard value != b.value else { return }
        if value.first.heightFraction == b.value.first.heightFraction,
            value.last.heightFraction == b.value.last.heightFraction,
            (try? solver.updateConstants(zip(b.definitions, [value.first.offset, value.last.offset]).map { $0 }))
                != nil
        {
            s.baselines?.value = value
            return
        }
        defineBaselines(s, value)
    }

    /// Whether a view whose baselines a constraint names, just solved `width` wide, has them
    /// elsewhere at that width than where the solve put them: it is then measured again there
    /// and solved again, as a wrapping label's intrinsic height is.
    private func baselinesMoved(_ s: ItemState, _ v: View, width: Double) -> Bool {
        guard let b = s.baselines, s.solvedWidth != width else { return false }
        s.solvedWidth = width
        return v.baselines(forWidth: width) != b.value
    }

    // MARK: Changes from the views

    /// Runs `body`, an animation setting `view`'s frame on its way between frames the
    /// constraints gave it: not news to the engine, whose solution stands (news, it would put
    /// the view at its end at the next layout). A view laid out by hand is news: the
    /// constraints that name it follow it.
    func animating(_ view: View, _ body: () -> Void) {
        guard !view.translatesAutoresizingMaskIntoConstraints else { return body() }
        let previous = applyingView
        applyingView = view
        body()
        applyingView = previous
    }

    /// A view's hand-set frame, its flag or its intrinsic size changed.
    func itemChanged(_ view: View) {
        guard view !== applyingView else { return }
        let key = ObjectIdentifier(view)
        guard items[key] != nil else { return }
        dirty.insert(key)
        pinsDirty.insert(key)
        needsSolve = true
        window?.setNeedsLayout()
    }

    // MARK: Solving

    /// Lays out `window`: its views' own layout, then the constraints, again until neither
    /// changes anything (a frame set by a constraint may resize a view that lays out its
    /// subviews by hand, whose frames other constraints refer to).
    func layOut(_ window: Window) {
        isLayingOut = true
        defer { isLayingOut = false }
        for _ in 0..<8 {
            window.layoutSubtreeIfNeeded()
            guard needsSolve else { return }
            solveAndApply()
        }
        window.layoutSubtreeIfNeeded()
        if needsSolve { log.warning("layout: frames still changing after 8 passes; the last solution stands") }
    }

    /// Brings pins and intrinsic sizes up to date and solves; a window's engine writes the
    /// frames and tells guide owners.
    func solveAndApply() {
        needsSolve = false
        refreshDirtyItems()
        solver.updateVariables()
        guard window != nil else { return }
        var owners: [View] = []
        let scale = window?.scale ?? 1
        for key in itemOrder {
            guard let s = items[key] else { continue }
            switch s.item {
            case nil: continue
            case .view(let v)?:
                guard !v.translatesAutoresizingMaskIntoConstraints else { continue }
                let f = snapped(s, scale: scale)
                if v.frame != f {
                    applyingView = v
                    v.frame = f
                    applyingView = nil
                }
                if v.intrinsicContentSizeDependsOnWidth, v.layoutWidthForIntrinsicSize != f.width {
                    v.layoutWidthForIntrinsicSize = f.width
                    dirty.insert(key)
                    needsSolve = true
                }
                if baselinesMoved(s, v, width: f.width) {
                    dirty.insert(key)
                    needsSolve = true
                }
            case .guide(let g)?:
                // On the grid too: a content guide's size is the content size the views pinned
                // to it fill.
                let f = snapped(s, scale: scale)
                if g.layoutFrame != f {
                    g.layoutFrame = f
                    if let o = g.owningView, !owners.contains(where: { $0 === o }) { owners.append(o) }
                }
            }
        }
        for o in owners { o.layoutGuidesDidChange() }
    }

    /// A solved frame with its edges on the device pixel grid, as UIKit's engine rounds them:
    /// a view at y = 21.5 would be sampled differently at each scroll offset (half a pixel
    /// rounds one way above the window's top and the other below), so a scrolled frame that
    /// moves pixels would no longer match a full composite. Edges are rounded, not the size,
    /// so neighbours that touch still touch.
    private func snapped(_ s: ItemState, scale: Double) -> Rect {
        func grid(_ v: Double) -> Double { (clean(v) * scale).rounded() / scale }
        let minX = grid(s.left.value)
        let minY = grid(s.top.value)
        let maxX = grid(s.left.value + max(0, s.width.value))
        let maxY = grid(s.top.value + max(0, s.height.value))
        return Rect(x: minX, y: minY, width: max(0, maxX - minX), height: max(0, maxY - minY))
    }

    /// Solves without writing frames, for a fitting size: wrapping views are measured at the
    /// widths solved for them until the widths settle.
    func solveForFitting() {
        for _ in 0..<4 {
            needsSolve = false
            refreshDirtyItems()
            solver.updateVariables()
            for key in itemOrder {
                guard let s = items[key], case .view(let v)? = s.item, !isPinned(v) else { continue }
                let w = max(0, clean(s.width.value))
                if v.intrinsicContentSizeDependsOnWidth, v.layoutWidthForIntrinsicSize != w {
                    v.layoutWidthForIntrinsicSize = w
                    dirty.insert(key)
                    needsSolve = true
                }
                if baselinesMoved(s, v, width: w) {
                    dirty.insert(key)
                    needsSolve = true
                }
            }
            guard needsSolve else { return }
        }
        refreshDirtyItems()
        solver.updateVariables()
    }

    func solvedSize(of view: View) -> Size? {
        state(.view(view)).map { Size(width: max(0, clean($0.width.value)), height: max(0, clean($0.height.value))) }
    }

    /// Adds a constraint of the caller's on an item's variables (a fitting size's target).
    func addFitting(_ view: View, _ size: Size, horizontal: LayoutPriority, vertical: LayoutPriority) {
        let s = retain(.view(view))
        let w = (LinearExpression(s.width) == LinearExpression(constant: size.width)) ~ horizontal
        let h = (LinearExpression(s.height) == LinearExpression(constant: size.height)) ~ vertical
        w.identifier = "fitting width"
        h.identifier = "fitting height"
        s.roleConstraints += [w, h]
        fittingTarget = (w, h)
        addQuietly(w)
        addQuietly(h)
    }

    /// Whether a fitting engine can be asked again (`refit`): its target and every constraint
    /// went in, so that moving the target in place solves what a new engine would.
    var canRefit: Bool {
        guard let (w, h) = fittingTarget else { return false }
        return refused.isEmpty && solver.contains(w) && solver.contains(h)
    }

    /// A kept fitting engine asked again at `size`: the target moved in place, and every item
    /// read anew at the solve, since nothing tells this engine of a new text, frame or flag
    /// (the window's engine hears of them). False, changing nothing, when the solver refuses
    /// the target: a new engine then reports it as before.
    func refit(_ view: View, _ size: Size) -> Bool {
        guard canRefit, let (w, h) = fittingTarget, state(.view(view)) != nil else { return false }
        do {
            try solver.updateConstants([(w, size.width), (h, size.height)])
        } catch {
            return false
        }
        dirty.formUnion(itemOrder)
        needsSolve = true
        return true
    }

    private func refreshDirtyItems() {
        guard !dirty.isEmpty else { return }
        var moves: [IntrinsicMove] = []
        for s in dirty.compactMap({ items[$0] }).sorted(by: { $0.serial < $1.serial }) {
            guard case .view(let v)? = s.item else { continue }
            let pinned = isPinned(v)
            refreshPins(s, v, pinned: pinned)
            refreshIntrinsic(s, v, active: !pinned, moves: &moves)
            refreshBaselines(s, v)
        }
        moveIntrinsicSizes(moves)
        dirty.removeAll()
        pinsDirty.removeAll()
        if !refused.isEmpty { retryRefused() }
    }

    /// The pins alone, of the items that may need them; a pin that moved may let a refused
    /// constraint in again.
    private func refreshDirtyPins() {
        guard !pinsDirty.isEmpty else { return }
        var moved = false
        for s in pinsDirty.compactMap({ items[$0] }).sorted(by: { $0.serial < $1.serial }) {
            guard case .view(let v)? = s.item else { continue }
            let before = s.pinnedFrame
            refreshPins(s, v, pinned: isPinned(v))
            moved = moved || s.pinnedFrame != before
        }
        pinsDirty.removeAll()
        if moved, !refused.isEmpty { retryRefused() }
    }

    /// A view whose frame is set by hand (its pins hold it), unless it is the view being fitted.
    private func isPinned(_ v: View) -> Bool { v.translatesAutoresizingMaskIntoConstraints && v !== freeRoot }

    /// Holds a hand-set frame: one required equality per variable, its constant moved when the
    /// frame moves (`LayoutSolver.updateConstant`).
    private func refreshPins(_ s: ItemState, _ v: View, pinned: Bool) {
        let frame = pinned ? v.frame : nil
        guard frame != s.pinnedFrame else { return }
        let values = frame.map { [$0.minX, $0.minY, $0.width, $0.height] }
        let old = s.pinnedFrame.map { [$0.minX, $0.minY, $0.width, $0.height] }
        let vars = [s.left, s.top, s.width, s.height]
        let names = ["left", "top", "width", "height"]
        for i in 0..<4 where values?[i] != old?[i] {
            // A pin that stays moves its constant: the solver re-solves from where it was (a
            // resize), instead of taking the constraint out and putting it back.
            if let c = s.pins[i], let value = values?[i], solver.contains(c) {
                do {
                    try solver.updateConstant(of: c, to: value)
                    continue
                } catch {
                    log.warning("layout: \(error)")
                }
            }
            if let c = s.pins[i], solver.contains(c) { try? solver.remove(c) }
            s.pins[i] = nil
            guard let value = values?[i] else { continue }
            let c = LinearExpression(vars[i]) == LinearExpression(constant: value)
            c.identifier = "\(s.name).\(names[i]) (frame set by hand)"
            s.pins[i] = c
            addQuietly(c)
        }
        s.pinnedFrame = frame
    }

    /// A size whose intrinsic value changed: its two constraints' constants to move.
    struct IntrinsicMove {
        let item: ItemState
        let axis: Int
        let value: Double
    }

    /// The intrinsic size's hugging and compression-resistance constraints: per axis with a
    /// size, `size ≤ i` at the hugging priority and `size ≥ i` at the compression resistance.
    /// A new value `i` (a wrapping label at a new width, a longer title) is a move of both
    /// constants, added to `moves`: the refresh moves every size that changed at once
    /// (`moveIntrinsicSizes`), re-solved by a few dual simplex pivots from the last solution;
    /// removing and adding the two constraints instead rewrote the tableau and cost a resized
    /// form most of its layout time. The constraints are made anew only when an axis gains or
    /// loses its size or a priority changes.
    ///
    /// `i` is a constant, not an edit variable held at the value: the edit's row and its two
    /// error symbols, in the rows of the positions that a chain of sizes adds up, made a form's
    /// first solve and a fitting size dearer (decisions.md, "The solver's walks, and constants
    /// moved in place"). A required hugging or compression resistance still acts just below
    /// required (`strongestContentPriority`), as it did under the edit, so that a constraint
    /// that contradicts it breaks it instead of being refused.
    private func refreshIntrinsic(_ s: ItemState, _ v: View, active: Bool, moves: inout [IntrinsicMove]) {
        let size = active ? v.intrinsicContentSize : Size(width: -1, height: -1)
        let key =
            active
            ? IntrinsicKey(
                axes: (size.width >= 0, size.height >= 0),
                hugging: (v.huggingPriorities.horizontal.rawValue, v.huggingPriorities.vertical.rawValue),
                compression: (v.compressionPriorities.horizontal.rawValue, v.compressionPriorities.vertical.rawValue))
            : nil
        let values = [size.width, size.height]
        if key == s.intrinsicKey {
            for axis in 0..<2 {
                guard let hold = s.intrinsic[axis], hold.value != values[axis] else { continue }
                moves.append(IntrinsicMove(item: s, axis: axis, value: values[axis]))
            }
            return
        }
        for c in s.intrinsicConstraints where solver.contains(c) { try? solver.remove(c) }
        s.intrinsic = [nil, nil]
        s.intrinsicKey = key
        guard key != nil else { return }
        let axes: [(LayoutVariable, LayoutPriority, LayoutPriority, String)] = [
            (s.width, v.huggingPriorities.horizontal, v.compressionPriorities.horizontal, "width"),
            (s.height, v.huggingPriorities.vertical, v.compressionPriorities.vertical, "height"),
        ]
        for (axis, (variable, hugging, compression, name)) in axes.enumerated() where values[axis] >= 0 {
            let value = LinearExpression(constant: values[axis])
            let hug = (LinearExpression(variable) <= value) ~ min(hugging, Self.strongestContentPriority)
            hug.identifier = "\(s.name).\(name) (content hugging)"
            let resist = (LinearExpression(variable) >= value) ~ min(compression, Self.strongestContentPriority)
            resist.identifier = "\(s.name).\(name) (compression resistance)"
            s.intrinsic[axis] = (hug, resist, values[axis])
            addQuietly(hug)
            addQuietly(resist)
        }
    }

    /// Moves the intrinsic sizes that changed, all in one re-solve. The constraints are below
    /// required, so the solver cannot refuse them; if it did, nothing moved and the sizes keep
    /// their old values, to be tried again at the next change.
    private func moveIntrinsicSizes(_ moves: [IntrinsicMove]) {
        guard !moves.isEmpty else { return }
        var changes: [(LinearConstraint, Double)] = []
        changes.reserveCapacity(2 * moves.count)
        for m in moves {
            guard let hold = m.item.intrinsic[m.axis] else { continue }
            changes += [(hold.hug, m.value), (hold.resist, m.value)]
        }
        do {
            try solver.updateConstants(changes)
            for m in moves { m.item.intrinsic[m.axis]?.value = m.value }
        } catch {
            log.warning("layout: intrinsic sizes: \(error)")
        }
    }

    // MARK: Diagnostics

    func isAmbiguous(_ view: View) -> Bool {
        guard let s = state(.view(view)) else { return false }
        return [s.left, s.top, s.width, s.height].contains { solver.isAmbiguous($0) }
    }

    var brokenConstraints: [LayoutConstraint] {
        let broken = Set(solver.brokenConstraints.map(ObjectIdentifier.init))
        return installed.values.filter { $0.linear.map { broken.contains(ObjectIdentifier($0)) } ?? false }
            .map(\.constraint).filter { !$0.isGuideDefinition }
    }
}

/// Rounds away the solver's float noise (1e-9 off a whole number), so a frame that did not
/// change compares equal and nothing is redrawn.
private func clean(_ v: Double) -> Double {
    let r = (v * 1_000_000).rounded() / 1_000_000
    return r == 0 ? 0 : r
}
