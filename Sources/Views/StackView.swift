import ScrollwayGeometry

/// Arranges subviews top to bottom, each as wide as the stack (minus insets) and as tall as its
/// `sizeThatFits` says. `fittingSize(width:)` is what a scroll view's `contentSize` is fed.
open class StackView: View {
    public var spacing: Double = 0 { didSet { setNeedsLayout() } }
    public var insets: EdgeInsets = .zero { didSet { setNeedsLayout() } }

    public init(frame: Rect = .zero, spacing: Double = 0, insets: EdgeInsets = .zero) {
        self.spacing = spacing
        self.insets = insets
        super.init(frame: frame)
    }

    /// The arranged subviews, in order (all subviews).
    public var arrangedSubviews: [View] { subviews }

    public func addArrangedSubview(_ view: View) {
        addSubview(view)
        setNeedsLayout()
    }

    /// The height each arranged subview gets at `width`.
    private func heights(width: Double) -> [Double] {
        let inner = max(0, width - insets.horizontal)
        return subviews.map {
            $0.isHidden ? 0 : $0.sizeThatFits(Size(width: inner, height: .greatestFiniteMagnitude)).height
        }
    }

    /// The size the stack needs at `width`: insets, rows and the spacing between visible rows.
    public func fittingSize(width: Double) -> Size {
        let hs = heights(width: width)
        let visible = zip(subviews, hs).filter { !$0.0.isHidden }
        let total = visible.reduce(0) { $0 + $1.1 } + spacing * Double(max(0, visible.count - 1))
        return Size(width: width, height: insets.vertical + total)
    }

    open override func sizeThatFits(_ size: Size) -> Size { fittingSize(width: size.width) }

    open override func layoutSubviews() {
        let inner = max(0, bounds.width - insets.horizontal)
        var y = insets.top
        for (view, h) in zip(subviews, heights(width: bounds.width)) where !view.isHidden {
            view.frame = Rect(x: insets.left, y: y, width: inner, height: h)
            y += h + spacing
        }
    }
}
