import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews

/// Pull to refresh (UIRefreshControl): a spinner just above the content, outside the scrollable
/// area. Pulling reveals it progressively (its segments fill with the pull); once the shown
/// overscroll reaches 1.5·h it triggers, even mid-drag, and while refreshing h joins the top of
/// the scroll view's adjusted inset, so the offset rests at −adjusted.top and the spinner stays
/// in view. `endRefreshing()` removes h again; the offset springs back only if it is then outside
/// the allowed range. It never writes the offset itself.
public final class RefreshControl: View, FrameAnimation {
    /// The control's height h.
    public static let height = 60.0
    /// Shown overscroll, as a multiple of h, that triggers a refresh.
    public static let triggerFactor = 1.5
    static let segments = 12

    public private(set) var isRefreshing = false
    /// Called when a pull triggers a refresh (UIControl's valueChanged).
    public var onValueChanged: (() -> Void)?
    /// What a screen reader is told when a refresh ends (nil: nothing).
    public var accessibilityFinishedAnnouncement: String? = "Refreshed"
    public var tintColor = Color(rgb: 120, 120, 128) { didSet { setNeedsDisplay() } }
    /// 0…1 while pulling: how far towards the trigger the pull is.
    public private(set) var progress = 0.0 { didSet { if progress != oldValue { setNeedsDisplay() } } }
    /// The spinner's rotation while refreshing (radians), advanced per frame.
    private var spinStart: Double?
    private var rotation = 0.0 { didSet { if rotation != oldValue { setNeedsDisplay() } } }
    weak var scrollView: ScrollView?
    /// Set when this pull has triggered, so one pull triggers once.
    private var triggeredThisPull = false

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        name = "refreshControl"
        isUserInteractionEnabled = false
    }

    public override var drawsContent: Bool { true }

    /// A spinner while it shows (it is hidden otherwise, and so out of the tree), busy while
    /// refreshing.
    public override var accessibilityDefaults: AccessibilityDefaults {
        AccessibilityDefaults(
            role: .progressIndicator, label: isRefreshing ? "Refreshing" : "Pull to refresh", isElement: true)
    }

    public override var accessibilityExtraStates: AccessibilityStates { isRefreshing ? .busy : [] }

    /// Starts a refresh as a pull that reached the trigger does (`onValueChanged` called): what
    /// a screen reader's scroll up at the top does, where a sighted user pulls.
    func triggerRefresh() {
        guard !isRefreshing else { return }
        beginRefreshing()
        onValueChanged?()
    }

    /// Starts refreshing (programmatically too): h joins the adjusted inset. The offset is not
    /// moved (as UIKit); scroll to −adjustedContentInset.top to show the spinner.
    public func beginRefreshing() {
        guard !isRefreshing else { return }
        isRefreshing = true
        progress = 1
        spinStart = window?.now
        window?.addAnimation(self)
        scrollView?.setInsetContribution(
            EdgeInsets(top: Self.height, left: 0, bottom: 0, right: 0), for: Self.insetKey)
        setNeedsDisplay()
    }

    /// Ends refreshing: h leaves the adjusted inset; the offset springs back only if it is now
    /// outside the range and nothing holds it.
    public func endRefreshing() {
        guard isRefreshing else { return }
        isRefreshing = false
        spinStart = nil
        window?.removeAnimation(self)
        scrollView?.setInsetContribution(.zero, for: Self.insetKey)
        updateFromScroll()
        if let words = accessibilityFinishedAnnouncement {
            window?.postAccessibilityNotification(.announcement(words))
        }
    }

    static let insetKey = ScrollView.InsetContributionKey.refreshControl

    public func advance(to time: Double) -> Bool {
        guard isRefreshing else { return false }
        if spinStart == nil { spinStart = time }
        rotation = (time - spinStart!) * 2 * Double.pi  // one turn a second
        return true
    }

    /// The overscroll past the top that shows now (positive when pulled down), measured from the
    /// rest position without this control's own inset part.
    var shownOverscroll: Double {
        guard let s = scrollView else { return 0 }
        let ownPart = isRefreshing ? Self.height : 0
        return -(s.contentOffset.y + s.adjustedContentInset.top - ownPart)
    }

    /// Called by the scroll view on every scroll, drag start and release.
    func updateFromScroll() {
        guard let s = scrollView else { return }
        // Just above the content, outside the scrollable area.
        frame = Rect(x: 0, y: -Self.height, width: s.bounds.width, height: Self.height)
        if !isRefreshing {
            progress = min(1, max(0, shownOverscroll / (Self.triggerFactor * Self.height)))
        }
        if !s.isDragging { triggeredThisPull = false }
        if s.isDragging, !isRefreshing, !triggeredThisPull,
            shownOverscroll >= Self.triggerFactor * Self.height - 1e-9
        {
            triggeredThisPull = true
            triggerRefresh()
        }
        isHidden = !isRefreshing && shownOverscroll <= 0
    }

    /// Twelve segments around a circle: as many filled as the pull's progress, all of them
    /// (fading round) and turning while refreshing.
    public override func draw(in canvas: Canvas) {
        let lit = Int(clamping: progress * Double(Self.segments), rounding: .down)
        ActivityIndicatorView.drawSegments(
            in: canvas, centre: Point(x: bounds.width / 2, y: bounds.height / 2), inner: 8, outer: 16,
            lineWidth: 2.5, rotation: rotation, lit: isRefreshing ? nil : lit, color: tintColor)
    }
}

extension ScrollView {
    /// The pull-to-refresh control, placed just above the content: the one last set here, while
    /// it stays a subview (one taken out with `removeFromSuperview()` is no longer this view's).
    /// A control another scroll view has is taken from it first, as setting that one's to nil
    /// does: its refresh ends there and its inset goes (it had stayed, 60 px for good).
    public var refreshControl: RefreshControl? {
        get { installedRefreshControl.flatMap { $0.superview === self ? $0 : nil } }
        set {
            if let control = newValue, let other = control.scrollView, other !== self, other.refreshControl === control
            {
                other.refreshControl = nil
            }
            refreshControl?.endRefreshing()
            refreshControl?.removeFromSuperview()
            installedRefreshControl = newValue
            guard let control = newValue else { return }
            control.scrollView = self
            insertSubview(control, at: 0)
            control.updateFromScroll()
        }
    }
}
