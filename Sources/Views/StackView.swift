import ScrollwayGeometry
import ScrollwayLayout

/// Lines up its arranged subviews in a column or a row with constraints, as UIStackView does:
/// each arranged view's frame is the engine's (`translatesAutoresizingMaskIntoConstraints`
/// false), sized by its intrinsic content size or the app's constraints, `spacing` apart,
/// within `insets` of the stack's edges; `alignment` places them across the axis and
/// `distribution` shares the length along it. A hidden arranged view takes no room.
///
/// The stack's own size is either set by hand (then the arranged views fill it as
/// `distribution` says) or left to constraints (then it is what its arranged views need:
/// pin it to a scroll view's content guide and the content size follows the content).
open class StackView: View {
    public enum Axis: Sendable { case vertical, horizontal }

    /// How the arranged views share the stack's length (UIStackView's names).
    public enum Distribution: Sendable {
        /// Each its own size; if the stack is longer or shorter, the view that hugs least
        /// (lowest hugging or compression resistance priority) takes up the difference.
        case fill
        /// All the same length.
        case fillEqually
        /// Lengths in the proportion of their intrinsic sizes.
        case fillProportionally
        /// Their own sizes, the gaps between them equal (at least `spacing`).
        case equalSpacing
        /// Their own sizes, their centres equally far apart (gaps at least `spacing`).
        case equalCentering
    }

    /// Where the arranged views sit across the axis.
    public enum Alignment: Sendable {
        /// As wide (in a column; as tall in a row) as the stack's inside.
        case fill
        /// At the leading (top, in a row) edge, their own size.
        case leading
        case center
        /// At the trailing (bottom, in a row) edge.
        case trailing
        /// In a row, their first baselines on one line (UIKit's): a label beside a larger title
        /// reads as one line of text. None stands above the stack's inside or below it; in a
        /// taller stack they stand as high as they can. A column treats it as `.fill`.
        case firstBaseline
        /// In a row, their last baselines on one line (a wrapping label's last line beside a
        /// button); as `.firstBaseline` otherwise.
        case lastBaseline
        public static let top = Alignment.leading
        public static let bottom = Alignment.trailing
    }

    public var axis: Axis = .vertical { didSet { if axis != oldValue { setNeedsArrangement() } } }
    public var spacing: Double = 0 { didSet { if spacing != oldValue { setNeedsArrangement() } } }
    /// Room left between the stack's edges and its arranged views. Across a row or a column,
    /// `left` is taken at the leading edge and `right` at the trailing one, so a right-to-left
    /// stack mirrors them with its views (as UIStackView's directional margins).
    public var insets: EdgeInsets = .zero { didSet { if insets != oldValue { setNeedsArrangement() } } }
    public var alignment: Alignment = .fill { didSet { if alignment != oldValue { setNeedsArrangement() } } }
    public var distribution: Distribution = .fill { didSet { if distribution != oldValue { setNeedsArrangement() } } }

    /// The views the stack lines up, in order (a subset of its subviews, as in UIKit).
    public private(set) var arrangedSubviews: [View] = []
    /// The constraints the stack made (installed on itself), replaced on every change.
    private var arrangement: [LayoutConstraint] = []
    /// The gaps, as guides, for the equal-spacing distributions.
    private var gapGuides: [LayoutGuide] = []

    public init(
        frame: Rect = .zero, axis: Axis = .vertical, spacing: Double = 0, insets: EdgeInsets = .zero,
        alignment: Alignment = .fill, distribution: Distribution = .fill
    ) {
        self.axis = axis
        self.spacing = spacing
        self.insets = insets
        self.alignment = alignment
        self.distribution = distribution
        super.init(frame: frame)
    }

    open override var translatesAutoresizingMaskIntoConstraints: Bool {
        didSet { if translatesAutoresizingMaskIntoConstraints != oldValue { setNeedsArrangement() } }
    }

    /// Adds `view` at the end of the line (and as the top subview).
    public func addArrangedSubview(_ view: View) { insertArrangedSubview(view, at: arrangedSubviews.count) }

    public func insertArrangedSubview(_ view: View, at index: Int) {
        arrangedSubviews.removeAll { $0 === view }
        arrangedSubviews.insert(view, at: max(0, min(index, arrangedSubviews.count)))
        view.translatesAutoresizingMaskIntoConstraints = false
        if view.superview !== self { addSubview(view) }
        setNeedsArrangement()
    }

    /// Takes `view` out of the line; it stays a subview (UIKit's rule), unplaced.
    public func removeArrangedSubview(_ view: View) {
        guard arrangedSubviews.contains(where: { $0 === view }) else { return }
        arrangedSubviews.removeAll { $0 === view }
        setNeedsArrangement()
    }

    /// An arranged view was shown or hidden (`View.isHidden`): the line closes or opens.
    func arrangedSubviewVisibilityChanged(_ view: View) {
        if arrangedSubviews.contains(where: { $0 === view }) { setNeedsArrangement() }
    }

    /// An arranged view's intrinsic size changed: proportions made from it are made again.
    func arrangedSubviewIntrinsicSizeChanged(_ view: View) {
        if distribution == .fillProportionally, arrangedSubviews.contains(where: { $0 === view }) {
            setNeedsArrangement()
        }
    }

    /// An arranged view left the stack's subviews: it leaves the line too. Its constraints left
    /// with it (those crossing a detached subtree go, as in UIKit); the rest of the line is made
    /// again at the next pass.
    func arrangedSubviewLeft(_ view: View) { removeArrangedSubview(view) }

    /// The stack's size at `width` (a column's height for its width): what its constraints
    /// need with the width required and the height as small as they allow.
    public func fittingSize(width: Double) -> Size {
        systemLayoutSizeFitting(Size(width: width, height: 0), horizontalFittingPriority: .required)
    }

    /// Whether a change left the arrangement to be made again.
    private var needsArrangement = false
    /// How many times the arrangement was made (what the tests count).
    private(set) var arrangementsMade = 0

    /// The arrangement is made again at the next layout pass (or when the constraints are
    /// read or a fitting size is asked), once for any number of changes: a stack filled one
    /// view at a time made it anew for each, every constraint out of the solver and back in,
    /// so that n views cost n² constraint changes (decisions.md, "A stack view arranged once
    /// a pass").
    private func setNeedsArrangement() {
        needsArrangement = true
        setNeedsLayout()
    }

    override func updateOwnConstraintsIfNeeded() {
        if needsArrangement { arrange() }
    }

    /// Makes the arrangement if a change left it to be made. A subclass that overrides this
    /// calls `super`, as UIStackView's must.
    open override func layoutSubviews() {
        super.layoutSubviews()
        updateOwnConstraintsIfNeeded()
    }

    open override func sizeThatFits(_ size: Size) -> Size {
        switch axis {
        case .vertical: return fittingSize(width: size.width)
        case .horizontal:
            return systemLayoutSizeFitting(Size(width: 0, height: size.height), verticalFittingPriority: .required)
        }
    }

    /// Replaces the stack's constraints with those its arranged views and settings call for.
    private func arrange() {
        needsArrangement = false
        arrangementsMade += 1
        LayoutConstraint.deactivate(arrangement)
        for g in gapGuides { removeLayoutGuide(g) }
        gapGuides = []
        arrangement = []
        // An arranged view that left the stack (removed from its subviews) drops out.
        arrangedSubviews.removeAll { $0.superview !== self }
        let shown = arrangedSubviews.filter { !$0.isHidden }
        var made: [LayoutConstraint] = []
        let vertical = axis == .vertical
        // Along the axis: edges, in order, `start` to `end` of the stack's inside.
        func start(_ v: LayoutAnchorProviding) -> LayoutConstraint.AxisAnchor {
            vertical ? .y(v.topAnchor) : .x(v.leadingAnchor)
        }
        func end(_ v: LayoutAnchorProviding) -> LayoutConstraint.AxisAnchor {
            vertical ? .y(v.bottomAnchor) : .x(v.trailingAnchor)
        }
        func middle(_ v: LayoutAnchorProviding) -> LayoutConstraint.AxisAnchor {
            vertical ? .y(v.centerYAnchor) : .x(v.centerXAnchor)
        }
        func length(_ v: LayoutAnchorProviding) -> LayoutDimension { vertical ? v.heightAnchor : v.widthAnchor }
        let (insetStart, insetEnd) = vertical ? (insets.top, insets.bottom) : (insets.left, insets.right)
        if let first = shown.first, let last = shown.last {
            made.append(start(first).equal(start(self), insetStart))
            made.append(end(last).equal(end(self), -insetEnd))
        }
        for (i, (a, b)) in zip(shown, shown.dropFirst()).enumerated() {
            switch distribution {
            case .fill, .fillEqually, .fillProportionally:
                made.append(start(b).equal(end(a), spacing))
            case .equalSpacing, .equalCentering:
                let gap = LayoutGuide(identifier: "\(name ?? "stack").gap\(i)")
                addLayoutGuide(gap)
                gapGuides.append(gap)
                let from = distribution == .equalSpacing ? end(a) : middle(a)
                let to = distribution == .equalSpacing ? start(b) : middle(b)
                made += [start(gap).equal(from, 0), end(gap).equal(to, 0)]
                if distribution == .equalCentering { made.append(start(b).atLeast(end(a), spacing)) }
                if distribution == .equalSpacing {
                    made.append(length(gap).constraint(greaterThanOrEqualToConstant: spacing))
                }
                if let firstGap = gapGuides.first, firstGap !== gap {
                    made.append(length(gap).constraint(equalTo: length(firstGap)))
                }
            }
        }
        if let first = shown.first {
            for v in shown.dropFirst() {
                switch distribution {
                case .fillEqually:
                    made.append(length(v).constraint(equalTo: length(first)))
                case .fillProportionally:
                    let size = { (v: View) in vertical ? v.intrinsicContentSize.height : v.intrinsicContentSize.width }
                    if size(first) > 0, size(v) >= 0 {
                        made.append(length(v).constraint(equalTo: length(first), multiplier: size(v) / size(first)))
                    }
                default: break
                }
            }
        }
        // Across the axis.
        let (crossStart, crossEnd) = vertical ? (insets.left, insets.right) : (insets.top, insets.bottom)
        func cStart(_ v: LayoutAnchorProviding) -> LayoutConstraint.AxisAnchor {
            vertical ? .x(v.leadingAnchor) : .y(v.topAnchor)
        }
        func cEnd(_ v: LayoutAnchorProviding) -> LayoutConstraint.AxisAnchor {
            vertical ? .x(v.trailingAnchor) : .y(v.bottomAnchor)
        }
        func cMiddle(_ v: LayoutAnchorProviding) -> LayoutConstraint.AxisAnchor {
            vertical ? .x(v.centerXAnchor) : .y(v.centerYAnchor)
        }
        // Baselines line up in a row only (UIKit's are for horizontal stacks); a column fills.
        let alignment = vertical && [.firstBaseline, .lastBaseline].contains(self.alignment) ? .fill : self.alignment
        for v in shown {
            switch alignment {
            case .firstBaseline, .lastBaseline:
                let first = alignment == .firstBaseline
                let line = first ? shown[0].firstBaselineAnchor : shown[0].lastBaselineAnchor
                if v !== shown[0] {
                    made.append((first ? v.firstBaselineAnchor : v.lastBaselineAnchor).constraint(equalTo: line))
                }
                made += [
                    cStart(v).atLeast(cStart(self), crossStart), cEnd(v).atMost(cEnd(self), -crossEnd),
                    // As high as they can: the one that reaches highest touches the top.
                    cStart(v).equal(cStart(self), crossStart).withPriority(LayoutPriority(48)),
                ]
            case .fill:
                made += [cStart(v).equal(cStart(self), crossStart), cEnd(v).equal(cEnd(self), -crossEnd)]
            case .leading:
                made += [cStart(v).equal(cStart(self), crossStart), cEnd(v).atMost(cEnd(self), -crossEnd)]
            case .trailing:
                made += [cEnd(v).equal(cEnd(self), -crossEnd), cStart(v).atLeast(cStart(self), crossStart)]
            case .center:
                made += [
                    cMiddle(v).equal(cMiddle(self), (crossStart - crossEnd) / 2),
                    cStart(v).atLeast(cStart(self), crossStart),
                ]
            }
        }
        // A stack that constraints size hugs its widest view across the axis (nothing else
        // would stop it growing when the views do not fill it), and is no longer than its
        // content along it when it has none.
        if !translatesAutoresizingMaskIntoConstraints {
            let cross = vertical ? widthAnchor : heightAnchor
            if alignment != .fill {
                made.append(cross.constraint(equalToConstant: 0).withPriority(LayoutPriority(49)))
            }
            if shown.isEmpty {
                made.append(length(self).constraint(equalToConstant: 0).withPriority(LayoutPriority(49)))
            }
        }
        for c in made where c.identifier == nil { c.identifier = "\(name ?? "stack") arrangement" }
        arrangement = made
        LayoutConstraint.activate(made)
    }
}

extension LayoutConstraint {
    /// An x or a y anchor, for code that works on either axis (a stack's).
    @MainActor
    enum AxisAnchor {
        case x(LayoutXAxisAnchor)
        case y(LayoutYAxisAnchor)

        func equal(_ other: AxisAnchor, _ constant: Double) -> LayoutConstraint {
            switch (self, other) {
            case (.x(let a), .x(let b)): a.constraint(equalTo: b, constant: constant)
            case (.y(let a), .y(let b)): a.constraint(equalTo: b, constant: constant)
            default: preconditionFailure("an x anchor and a y anchor cannot be related")
            }
        }

        func atLeast(_ other: AxisAnchor, _ constant: Double) -> LayoutConstraint {
            switch (self, other) {
            case (.x(let a), .x(let b)): a.constraint(greaterThanOrEqualTo: b, constant: constant)
            case (.y(let a), .y(let b)): a.constraint(greaterThanOrEqualTo: b, constant: constant)
            default: preconditionFailure("an x anchor and a y anchor cannot be related")
            }
        }

        func atMost(_ other: AxisAnchor, _ constant: Double) -> LayoutConstraint {
            switch (self, other) {
            case (.x(let a), .x(let b)): a.constraint(lessThanOrEqualTo: b, constant: constant)
            case (.y(let a), .y(let b)): a.constraint(lessThanOrEqualTo: b, constant: constant)
            default: preconditionFailure("an x anchor and a y anchor cannot be related")
            }
        }
    }
}
