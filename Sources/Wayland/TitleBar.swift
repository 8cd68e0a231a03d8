import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews

/// The client-side title bar drawn when the compositor offers no server-side decorations and
/// the window is neither fullscreen nor turned off by the app: the title, a close button, and
/// a surface to drag the window by (the press becomes xdg_toplevel.move).
public final class TitleBar: View {
    public static let height = 32.0

    public let titleLabel: Label
    public let closeButton: Button
    /// The close button was tapped.
    public var onClose: (() -> Void)?
    /// A press on the bar (not on the button): the platform starts an interactive move.
    public var onMoveRequest: (() -> Void)?

    public init(title: String) {
        titleLabel = Label(text: title)
        titleLabel.textAlignment = .center
        titleLabel.textColor = Color(rgb: 40, 40, 40)
        titleLabel.isUserInteractionEnabled = false  // presses on the title move the window
        closeButton = Button(title: "\u{2715}")
        closeButton.fillColor = Color(rgb: 210, 210, 214)
        closeButton.titleColor = Color(rgb: 40, 40, 40)
        closeButton.cornerRadius = 4
        super.init()
        name = "titlebar"
        backgroundColor = Color(rgb: 236, 236, 240)
        addSubview(titleLabel)
        addSubview(closeButton)
        closeButton.onTap = { [weak self] in self?.onClose?() }
    }

    public override func layoutSubviews() {
        let h = bounds.height
        closeButton.frame = Rect(x: bounds.width - h + 4, y: 4, width: h - 8, height: h - 8)
        titleLabel.frame = Rect(x: h, y: 0, width: max(0, bounds.width - 2 * h), height: h)
    }

    /// Where a press on the bar began, until it moves the window or lifts.
    private var pressStart: Point?
    /// How far a press travels before it becomes a move (a shorter one is a click).
    public static let moveSlop = 4.0

    /// A press that travels starts an interactive move; a click or tap (one that lifts where it
    /// landed) is the scroll-to-top gesture, the desktop's status-bar tap, unless it is the
    /// click that activated the window (that one only raises and focuses it).
    public override func touchesBegan(_ touches: [Touch]) {
        guard let t = touches.first, t.source == .mouse || t.source == .finger else { return }
        pressStart = t.location
        pressActivated = window?.isActivatingPress ?? false
    }

    /// The press under way activated the window.
    private var pressActivated = false

    public override func touchesMoved(_ touches: [Touch]) {
        guard let start = pressStart, let t = touches.first, (t.location - start).length > Self.moveSlop else { return }
        pressStart = nil
        onMoveRequest?()
    }

    public override func touchesEnded(_ touches: [Touch]) {
        guard pressStart != nil else { return }
        pressStart = nil
        guard !pressActivated else { return }
        window?.requestScrollToTop()
    }

    public override func touchesCancelled(_ touches: [Touch]) { pressStart = nil }
}

/// Which window edge (for xdg_toplevel.resize) a point is on: within `border` px of an edge,
/// corners first. Values are xdg_toplevel.resize_edge's.
public enum ResizeEdge {
    public static let border = 6.0

    public static func at(_ p: Point, in size: Size, border: Double = ResizeEdge.border) -> UInt32 {
        guard p.x >= 0, p.y >= 0, p.x < size.width, p.y < size.height else { return 0 }
        var edge: UInt32 = 0
        if p.y < border { edge |= 1 }  // top
        if p.y >= size.height - border { edge |= 2 }  // bottom
        if p.x < border { edge |= 4 }  // left
        if p.x >= size.width - border { edge |= 8 }  // right
        return edge
    }
}
