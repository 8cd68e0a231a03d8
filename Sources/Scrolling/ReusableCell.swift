import ScrollwayGeometry
import ScrollwayViews

/// What a list's row and a collection's item share, as UITableViewCell and UICollectionViewCell
/// share a base: a reuse identifier, the highlight a finger gives (after the scroll view's
/// arbitration; a drag that begins cancels it), the tap that selects, the focus ring Tab and
/// the arrows show, and the activation a screen reader performs.
open class ReusableCell: View {
    public let reuseIdentifier: String
    /// Touched: drawn in the highlight colour until the touch ends or is cancelled.
    public internal(set) var isHighlighted = false {
        didSet { if isHighlighted != oldValue { appearanceDidChange() } }
    }
    var onTap: (() -> Void)?
    /// On top of whatever the subclass adds: it is brought to the front when it shows.
    private let focusRing = FocusRingView(idleColor: nil, cornerRadius: 0)

    public init(reuseIdentifier: String) {
        self.reuseIdentifier = reuseIdentifier
        super.init()
        canBecomeFocused = true
        focusRing.isHidden = true
        addSubview(focusRing)
    }

    /// The highlight or selection changed: subclasses recolour here.
    open func appearanceDidChange() {}

    /// Subclasses that override call this for the focus ring's frame.
    open override func layoutSubviews() {
        focusRing.frame = Rect(origin: .zero, size: bounds.size)
    }

    open override func focusDidChange() {
        focusRing.isHidden = !showsFocus
        if showsFocus, subviews.last !== focusRing { bringSubviewToFront(focusRing) }
        focusRing.setNeedsDisplay()
    }

    /// Selects the cell as a tap does.
    open override func accessibilityActivate() -> Bool {
        guard let onTap else { return false }
        onTap()
        return true
    }

    /// Called before reuse for another item.
    open func prepareForReuse() { isHighlighted = false }

    /// A cell recycled under a finger (a reload, a delete) gets a cancel from the window and
    /// hears no more of that touch, so it never taps its next item.
    open override func touchesBegan(_ touches: [Touch]) { isHighlighted = true }
    open override func touchesCancelled(_ touches: [Touch]) { isHighlighted = false }
    open override func touchesEnded(_ touches: [Touch]) {
        let inside = touches.first.map { bounds.contains(convert($0.location, from: nil)) } ?? false
        isHighlighted = false
        if inside { onTap?() }
    }
}
