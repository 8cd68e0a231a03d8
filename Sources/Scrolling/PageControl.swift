import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayViews

/// Dots, one per page, the current one solid: UIKit's UIPageControl, for a paging scroll view.
///
/// Touches, as UIKit's (iOS 14 and later):
/// - a tap (or a click) on either side of the current dot turns one page that way;
/// - a drag along the dots (`allowsContinuousInteraction`, on by default) scrubs: the current
///   page follows the dot under the finger. A pan along the dots that starts on the control is
///   its own, not a scroll view's it sits in. A cancelled scrub goes back to the page it found.
///
/// Focused (Tab), Left and Right (swapped right to left) turn a page, Home and End go to the
/// first and the last. A screen reader reads it as a slider whose value is the page number and
/// whose words are "Page 2 of 6" (UIKit's), steps it a page at a time, or sets a page.
///
/// `onValueChanged` hears the user's changes, not those made in code. Given a `scrollView` (a
/// Scrollway addition: UIKit leaves the wiring to the app's delegate), the control follows it,
/// its current page the one whose half is in view, and the user's changes scroll it to the page
/// chosen, animated; the count stays the app's (`numberOfPages`).
open class PageControl: Control {
    /// How many dots; the current page stays within them.
    public var numberOfPages = 0 {
        didSet {
            if numberOfPages < 0 { numberOfPages = 0 }
            guard numberOfPages != oldValue else { return }
            if currentPage > lastPage { currentPage = lastPage }
            setNeedsDisplay()
            invalidateIntrinsicContentSize()
            window?.postAccessibilityNotification(.valueChanged(self))
        }
    }
    /// The page shown solid, from 0, kept within the pages. Setting it does not scroll a
    /// `scrollView` nor call `onValueChanged`.
    public var currentPage: Int {
        get { storedPage }
        set { setPage(newValue, byUser: false) }
    }
    /// Whether the control is left out when there is one page or none.
    public var hidesForSinglePage = false { didSet { setNeedsDisplay() } }
    /// Whether a drag along the dots scrubs through the pages (UIKit's, on by default).
    public var allowsContinuousInteraction = true
    /// The other pages' dots.
    public var pageIndicatorTintColor = Color.white.withAlpha(0.45) { didSet { setNeedsDisplay() } }
    /// The current page's dot.
    public var currentPageIndicatorTintColor: Color = .white { didSet { setNeedsDisplay() } }
    /// Called after the user chose a page (a tap, a scrub, a key, a screen reader).
    public var onValueChanged: ((Int) -> Void)?

    /// The paging scroll view the control follows and turns (held weakly).
    public weak var scrollView: ScrollView? {
        didSet {
            guard scrollView !== oldValue else { return }
            oldValue?.removeEventObserver(follower)
            follower.turningTo = nil
            if let scrollView {
                scrollView.addEventObserver(follower)
                follower.follow(scrollView)
            }
        }
    }

    /// A dot's diameter and the space between two dots.
    public static let dotDiameter = 9.0
    public static let dotSpacing = 10.0
    /// A dot standing for pages beyond those shown (when they do not all fit) is this much of
    /// a dot.
    static let edgeDotScale = 0.55

    private var storedPage = 0
    private lazy var follower = PageFollower(control: self)
    /// A touch on the control: where it landed, the page then, whether it scrubs, and the first
    /// page of the run of dots it found (a scrub reads the finger's place against that run, not
    /// against the run the pages it picks re-centre).
    private var press: (id: Int, start: Point, pageBefore: Int, scrubbing: Bool, runFirst: Int)?

    public init(numberOfPages: Int = 0, frame: Rect = .zero) {
        self.numberOfPages = max(0, numberOfPages)
        super.init(frame: frame)
        canBecomeFocused = true
    }

    private var lastPage: Int { max(0, numberOfPages - 1) }

    /// Whether it draws and takes touches: not with one page or none and `hidesForSinglePage`.
    private var isShown: Bool { numberOfPages > 0 && !(hidesForSinglePage && numberOfPages <= 1) }

    /// The size the dots of `pageCount` pages take (UIKit's `size(forNumberOfPages:)`), in a
    /// control 26 points high.
    public func size(forNumberOfPages pageCount: Int) -> Size {
        let n = Double(max(0, pageCount))
        let dots = n > 0 ? n * Self.dotDiameter + (n - 1) * Self.dotSpacing : 0
        return Size(width: dots + 2 * Self.dotSpacing, height: 26)
    }

    open override var intrinsicContentSize: Size { size(forNumberOfPages: numberOfPages) }
    open override func sizeThatFits(_ size: Size) -> Size { intrinsicContentSize }

    // MARK: Dots

    /// The dots shown: as many pages as fit across (all of them when they fit), a run of them
    /// around the current page; a dot at either end stands smaller for pages beyond it.
    struct Dots: Equatable {
        /// The first page shown and how many.
        var first: Int
        var count: Int
        /// The first dot's centre x and the distance between centres.
        var startX: Double
        var pitch: Double
    }

    var dots: Dots {
        let pitch = Self.dotDiameter + Self.dotSpacing
        let fit = max(1, Int(clamping: (bounds.width - Self.dotSpacing) / pitch, rounding: .down))
        let count = min(numberOfPages, fit)
        // The run keeps the current page off its ends while there are pages beyond them.
        var first = 0
        if count < numberOfPages {
            first = min(max(storedPage - count / 2, 0), numberOfPages - count)
        }
        let width = Double(count) * Self.dotDiameter + Double(max(0, count - 1)) * Self.dotSpacing
        return Dots(
            first: first, count: count, startX: (bounds.width - width) / 2 + Self.dotDiameter / 2, pitch: pitch)
    }

    /// The x (bounds coordinates) of page `page`'s dot, mirrored right to left.
    private func dotX(_ page: Int, in d: Dots) -> Double {
        let slot = Double(page - d.first)
        let x = d.startX + slot * d.pitch
        return effectiveUserInterfaceLayoutDirection == .rightToLeft ? bounds.width - x : x
    }

    /// The page whose dot is nearest `x` (bounds coordinates) in the run of dots starting at
    /// page `first`, going on past its ends (within the pages) when not all pages are shown.
    private func page(nearest x: Double, runFirst first: Int) -> Int {
        let d = dots
        guard d.count > 0 else { return 0 }
        var along = x
        if effectiveUserInterfaceLayoutDirection == .rightToLeft { along = bounds.width - x }
        let slot = Int(clamping: (along - d.startX) / d.pitch, rounding: .toNearestOrAwayFromZero)
        return min(max(first + min(max(slot, -numberOfPages), numberOfPages), 0), lastPage)
    }

    open override var drawsContent: Bool { true }

    open override func draw(in canvas: Canvas) {
        guard isShown else { return }
        let d = dots
        for page in d.first..<(d.first + d.count) {
            let beyond = (page == d.first && d.first > 0) || (page == d.first + d.count - 1 && page < lastPage)
            let size = Self.dotDiameter * (beyond ? Self.edgeDotScale : 1)
            let x = dotX(page, in: d)
            let dot = Rect(x: x - size / 2, y: bounds.midY - size / 2, width: size, height: size)
            canvas.fillEllipse(
                in: dot, color: drawn(page == storedPage ? currentPageIndicatorTintColor : pageIndicatorTintColor))
        }
        if showsFocus {
            let ring = bounds.insetBy(dx: 1, dy: 1)
            canvas.strokeRoundedRect(ring, radius: min(ring.height / 2, 13), lineWidth: 2, color: .tint)
        }
    }

    open override func point(inside point: Point) -> Bool { isShown && super.point(inside: point) }

    open override func layoutSubviews() {
        super.layoutSubviews()
        setNeedsDisplay()
    }

    // MARK: Pages

    /// Moves to `page` (kept within the pages): redraws, and for the user's change tells
    /// `onValueChanged` and turns the scroll view.
    private func setPage(_ page: Int, byUser: Bool) {
        let clamped = min(max(page, 0), lastPage)
        guard clamped != storedPage else { return }
        storedPage = clamped
        setNeedsDisplay()
        window?.postAccessibilityNotification(.valueChanged(self))
        guard byUser else { return }
        if let scrollView { follower.turn(scrollView, to: clamped) }
        onValueChanged?(clamped)
    }

    /// The scroll view moved: the page whose half is in view becomes the current one.
    func scrollViewShows(page: Int) { setPage(page, byUser: false) }

    // MARK: Touches

    open override func touchesBegan(_ touches: [Touch]) {
        guard let t = touches.first, press == nil else { return }
        press = (t.id, convert(t.location, from: nil), storedPage, false, dots.first)
    }

    open override func touchesMoved(_ touches: [Touch]) {
        guard let t = touches.first, var p = press, p.id == t.id else { return }
        let at = convert(t.location, from: nil)
        if !p.scrubbing, allowsContinuousInteraction, abs(at.x - p.start.x) > scrubSlop(t.source) {
            p.scrubbing = true
        }
        press = p
        // Against the run the press found: the run shown moves with the page, and read against
        // it, the dot under a finger held still would be another page at each move.
        if p.scrubbing { setPage(page(nearest: at.x, runFirst: p.runFirst), byUser: true) }
    }

    open override func touchesEnded(_ touches: [Touch]) {
        guard let t = touches.first, let p = press, p.id == t.id else { return }
        press = nil
        guard !p.scrubbing else { return }
        let at = convert(t.location, from: nil)
        guard bounds.insetBy(dx: -20, dy: -20).contains(at) else { return }
        // A tap before the current dot turns back, one after it turns on (in reading order).
        let current = dotX(storedPage, in: dots)
        let forward = (at.x > current) != (effectiveUserInterfaceLayoutDirection == .rightToLeft)
        if at.x != current { setPage(storedPage + (forward ? 1 : -1), byUser: true) }
    }

    open override func touchesCancelled(_ touches: [Touch]) {
        guard let t = touches.first, let p = press, p.id == t.id else { return }
        press = nil
        if p.scrubbing { setPage(p.pageBefore, byUser: true) }
    }

    /// How far a press moves along the dots before it scrubs: the scroll views' slop.
    private func scrubSlop(_ source: Touch.Source) -> Double {
        source == .mouse ? PanTracker.mouseSlop : PanTracker.touchSlop
    }

    /// A pan along the dots that starts on the control is its scrub, not a scroll view's.
    open override func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
        guard allowsContinuousInteraction, let pan = recognizer as? PanGestureRecognizer, recognizer.view !== self
        else { return true }
        let t = pan.translation(in: self)
        return abs(t.x) <= abs(t.y)
    }

    /// A press under way when it was disabled ends as a cancel does.
    open override func enabledDidChange() {
        super.enabledDidChange()
        if !isEnabled, let p = press {
            press = nil
            if p.scrubbing { setPage(p.pageBefore, byUser: true) }
        }
    }

    // MARK: Keys

    open override func handleInput(_ event: InputEvent) -> Bool {
        guard isFocused, isEnabled, isShown, case .key(let key, let pressed, let modifiers) = event.kind,
            modifiers.isDisjoint(with: [.control, .alt, .logo])
        else { return false }
        let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        let target: Int
        switch key {
        case .right: target = storedPage + (rtl ? -1 : 1)
        case .left: target = storedPage + (rtl ? 1 : -1)
        case .home: target = 0
        case .end: target = lastPage
        default: return false
        }
        if pressed, press == nil { setPage(target, byUser: true) }
        return true
    }

    // MARK: Accessibility

    open override var accessibilityDefaults: AccessibilityDefaults {
        AccessibilityDefaults(role: .slider, isElement: isShown)
    }

    /// The page number, from 1, said as UIKit says it.
    open override var accessibilityValue: AccessibilityValue? {
        guard isShown else { return nil }
        return AccessibilityValue(
            current: Double(storedPage + 1), minimum: 1, maximum: Double(numberOfPages), step: 1,
            text: "Page \(storedPage + 1) of \(numberOfPages)")
    }

    open override func accessibilityIncrement() { setPage(storedPage + 1, byUser: true) }
    open override func accessibilityDecrement() { setPage(storedPage - 1, byUser: true) }

    open override func accessibilitySetValue(_ value: Double) -> Bool {
        guard isShown, !value.isNaN else { return false }
        // Brought to the pages as a number: a huge one (or an infinity) is the last page, not an
        // overflow of the page's Int.
        let number = min(max(value, 1), Double(numberOfPages))
        setPage(Int(clamping: number, rounding: .toNearestOrAwayFromZero) - 1, byUser: true)
        return true
    }
}

/// Keeps a page control on its scroll view's page, and turns the scroll view when the user
/// picks a page. While a turn it asked for runs, the pages the animation passes are not the
/// control's news; a drag or the animation's end hands the control back to the offset.
@MainActor
final class PageFollower: ScrollEventObserver {
    unowned let control: PageControl
    /// The page a turn under way goes to.
    var turningTo: Int?
    /// `turn` is starting its animation, which stops the one before it (another turn's).
    private var startingTurn = false

    init(control: PageControl) { self.control = control }

    func scrollView(_ scrollView: ScrollView, didSend event: ScrollEvent) {
        switch event {
        case .didScroll:
            // A turn the view no longer runs ends here at the latest (a touch stopping it ends it
            // at once, `scrollAnimationStoppedShort`).
            if turningTo != nil, !scrollView.isScrollAnimating { turningTo = nil }
            if turningTo == nil { follow(scrollView) }
        case .willBeginDragging, .didEndScrollingAnimation:
            turningTo = nil
            follow(scrollView)
        default: break
        }
    }

    /// The turn's animation stopped short (a touch that held the content still sends no
    /// scroll event): the control takes the page in view and follows the offset again.
    func scrollViewAnimationStoppedShort(_ scrollView: ScrollView) {
        guard turningTo != nil, !startingTurn else { return }
        turningTo = nil
        follow(scrollView)
    }

    /// Whether the scroll view pages across (its content wider than it) or down.
    private func pagesAcross(_ scrollView: ScrollView) -> Bool {
        scrollView.contentSize.width > scrollView.bounds.width
            || scrollView.contentSize.height <= scrollView.bounds.height
    }

    /// The page whose half is in view becomes the control's (a page is the view's size).
    func follow(_ scrollView: ScrollView) {
        let across = pagesAcross(scrollView)
        let size = across ? scrollView.bounds.width : scrollView.bounds.height
        guard size > 0 else { return }
        let offset = across ? scrollView.contentOffset.x : scrollView.contentOffset.y
        let page = (offset / size).rounded()
        control.scrollViewShows(page: Int(clamping: min(max(page, 0), Double(Int32.max)), rounding: .down))
    }

    /// Scrolls to `page`, animated, within the offsets the content allows.
    func turn(_ scrollView: ScrollView, to page: Int) {
        let across = pagesAcross(scrollView)
        var target = scrollView.contentOffset
        if across {
            target.x = Double(page) * scrollView.bounds.width
        } else {
            target.y = Double(page) * scrollView.bounds.height
        }
        turningTo = page
        startingTurn = true
        scrollView.setContentOffset(scrollView.clampedOffset(target), animated: true)
        startingTurn = false
        // Already there: no animation runs, so none will end.
        if !scrollView.isScrollAnimating { turningTo = nil }
    }
}
