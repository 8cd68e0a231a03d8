import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayPhysics
import ScrollwayRaster
import ScrollwayViews

/// A view whose bounds origin moves: `contentOffset` IS `bounds.origin`, so scrolling only
/// re-composites the cached images of its subviews (the content) and never redraws them.
///
/// `contentSize` and the adjusted inset define where the offset may rest: per axis
/// `min = −adjusted.top`, `max = max(min, contentSize.height + adjusted.bottom − bounds.height)`.
/// Past those edges it rubber-bands (`bounces`), and every motion is a closed-form curve of
/// `Physics` evaluated at the frame's time (see `docs/physics.md`).
open class ScrollView: View {
    public enum ContentInsetAdjustmentBehavior: String, Sendable, CaseIterable {
        /// Safe area on the vertical axis always; on the horizontal axis when it scrolls.
        case automatic
        /// Safe area on each axis that scrolls (content larger than the viewport, or always-bounce).
        case scrollableAxes
        /// Never the safe area.
        case never
        /// Always the safe area.
        case always
    }

    public enum KeyboardDismissMode: String, Sendable, CaseIterable {
        case none, onDrag, interactive
    }

    /// The scroll view's state, as traces report it.
    public enum Phase: String, Sendable {
        case idle, tracking, dragging, decelerating, bouncing, animating, zooming
    }

    public weak var delegate: ScrollViewDelegate?
    /// Sees every delegate event as a value, just before the observers and the delegate do (a
    /// test's quick look): all are told through `notify`, so they never disagree. Parties that
    /// coexist (a trace recorder, a checker) register with `addEventObserver(_:)` instead, so
    /// none has to chain another's closure.
    public var eventObserver: ((ScrollView, ScrollEvent) -> Void)?
    /// The registered `ScrollEventObserver`s, held weakly, in the order added.
    var eventObservers = ObserverList<any ScrollEventObserver>()
    /// The control `refreshControl` installed, kept so that every scrolled frame finds it
    /// without a look through the subviews (a list has dozens, none of them a control).
    weak var installedRefreshControl: RefreshControl?

    // MARK: Content

    // The geometry and flags marked `@exclusivity(unchecked)` in this class are read at every
    // frame of a scroll (the range, the indicators, the rubber band), each read a call into the
    // runtime's access set when checked. As `View`'s are: plain values, main actor only, never
    // handed out `inout` across a call.
    @exclusivity(unchecked) public var contentSize: Size = .zero {
        didSet {
            guard contentSize != oldValue else { return }
            adjustedInsetMayHaveChanged()
            // A zoom step sets the size and then the offset; it reacts once both are in place.
            if !isApplyingZoom { restAfterRangeChange() }
            setNeedsLayout()
        }
    }

    /// The content as a layout guide (iOS 11's): its origin is the content's (0,0) and its
    /// size, once constraints decide it, is `contentSize`. Pin a content view's edges to it and
    /// the content view's size scrolls; tie that view's width to `frameLayoutGuide`'s for
    /// vertical scrolling only.
    public var contentLayoutGuide: LayoutGuide {
        if let g = layoutGuides.first(where: { $0.isContentGuide }) { return g }
        let g = LayoutGuide.contentGuide(identifier: "\(name ?? "scroll").content")
        addLayoutGuide(g)
        return g
    }

    /// The scroll view's own rectangle as a layout guide: (0,0) to its size, in content
    /// coordinates at offset zero. Constraints to its size follow the scroll view's size (a
    /// content width that matches the visible width); an edge pinned to it marks where the
    /// visible area starts at offset zero, and scrolls with the content.
    public var frameLayoutGuide: LayoutGuide {
        if let g = layoutGuides.first(where: { $0.isFrameGuide }) { return g }
        let g = LayoutGuide.frameGuide(identifier: "\(name ?? "scroll").frame")
        addLayoutGuide(g)
        return g
    }

    /// Adds `view` as the content, laid out by constraints: its edges pinned to the content
    /// guide (its size becomes `contentSize`) and, unless `scrollsHorizontally`, its width tied
    /// to the frame guide's, so it follows the scroll view's width and scrolls only vertically.
    /// The view's height (and width, when it scrolls sideways) comes from its own constraints.
    @discardableResult
    public func addContentView(_ view: View, scrollsHorizontally: Bool = false) -> [LayoutConstraint] {
        view.translatesAutoresizingMaskIntoConstraints = false
        addSubview(view)
        var made = view.constraints(pinningEdgesTo: contentLayoutGuide)
        if !scrollsHorizontally { made.append(view.widthAnchor.constraint(equalTo: frameLayoutGuide.widthAnchor)) }
        LayoutConstraint.activate(made)
        return made
    }

    /// Constraints decided the content guide: its size is the content size.
    open override func layoutGuidesDidChange() {
        super.layoutGuidesDidChange()
        if let g = layoutGuides.first(where: { $0.isContentGuide }) { contentSize = g.layoutFrame.size }
    }

    /// The scroll position. It IS `bounds.origin`: setting one sets the other. Set here, an
    /// offset that is not finite is ignored (as `setContentOffset` ignores one), and one past
    /// `largestOffset` is brought back to it: a spring or a range from such a place is NaN ever
    /// after, and a window whose scroll view is never at rest. (`bounds` itself takes what it is
    /// given.)
    public var contentOffset: Point {
        get { bounds.origin }
        set {
            guard newValue.isFinite else { return }
            bounds.origin = Self.withinLargestOffset(newValue)
        }
    }

    /// The farthest an offset or an inset goes from 0: 2^53, past which a `Double` no longer
    /// holds every whole pixel (and a spring's arithmetic over the distance overflows long
    /// before the range of a `Double` ends).
    public nonisolated static let largestOffset = 9_007_199_254_740_992.0

    static func withinLargestOffset(_ p: Point) -> Point {
        Point(
            x: min(max(p.x, -largestOffset), largestOffset), y: min(max(p.y, -largestOffset), largestOffset))
    }

    private static func withinLargestOffset(_ e: EdgeInsets) -> EdgeInsets {
        func c(_ v: Double) -> Double { min(max(v, -largestOffset), largestOffset) }
        return EdgeInsets(top: c(e.top), left: c(e.left), bottom: c(e.bottom), right: c(e.right))
    }

    /// Insets that are not finite are ignored (a NaN trapped in the range's arithmetic, an
    /// infinite one left the offset NaN for good), and each is at most `largestOffset`.
    @exclusivity(unchecked) public var contentInset: EdgeInsets = .zero {
        didSet {
            contentInset = Self.usable(contentInset, else: oldValue)
            if contentInset != oldValue { adjustedInsetMayHaveChanged() }
        }
    }
    /// The part of the viewport covered by system UI (set by the window's owner); as
    /// `contentInset`, only finite insets are taken, within `largestOffset`.
    @exclusivity(unchecked) public var safeAreaInsets: EdgeInsets = .zero {
        didSet {
            safeAreaInsets = Self.usable(safeAreaInsets, else: oldValue)
            if safeAreaInsets != oldValue { adjustedInsetMayHaveChanged() }
        }
    }

    /// `e` within `largestOffset`, or `old` when any of `e` is not finite.
    private static func usable(_ e: EdgeInsets, else old: EdgeInsets) -> EdgeInsets {
        guard e.top.isFinite && e.left.isFinite && e.bottom.isFinite && e.right.isFinite else { return old }
        return withinLargestOffset(e)
    }
    public var contentInsetAdjustmentBehavior: ContentInsetAdjustmentBehavior = .automatic {
        didSet { adjustedInsetMayHaveChanged() }
    }
    /// Extra insets other parts add (refresh control, keyboard), by key.
    public private(set) var insetContributions: [InsetContributionKey: EdgeInsets] = [:]
    @exclusivity(unchecked) public private(set) var adjustedContentInset: EdgeInsets = .zero

    // MARK: Behaviour

    /// Off, the view does not scroll (a text view then sizes itself to its text).
    @exclusivity(unchecked) public var isScrollEnabled = true {
        didSet { if isScrollEnabled != oldValue { invalidateIntrinsicContentSize() } }
    }
    /// Whether the offset rubber-bands past the edges (and a fling meets them with a spring), on
    /// both axes: setting it sets `bouncesHorizontally` and `bouncesVertically` (as UIKit's
    /// does); it reads true only while both are.
    public var bounces: Bool {
        get { bouncesHorizontally && bouncesVertically }
        set {
            bouncesHorizontally = newValue
            bouncesVertically = newValue
        }
    }
    /// Whether the offset rubber-bands past the left and right edges (off: it stops there).
    @exclusivity(unchecked) public var bouncesHorizontally = true
    /// Whether the offset rubber-bands past the top and bottom edges (off: it stops there).
    @exclusivity(unchecked) public var bouncesVertically = true
    /// Whether a wheel or touchpad scroll that reaches the left or right edge goes on in the
    /// enclosing scroll view that can move that way (UIKit's, on by default). Touch drags hand
    /// off at edges only with `handsOffDragsAtEdges`.
    public var transfersHorizontalScrollingToParent = true
    /// Whether a wheel or touchpad scroll that reaches the top or bottom edge goes on in the
    /// enclosing scroll view that can move that way (UIKit's, on by default).
    public var transfersVerticalScrollingToParent = true
    /// Whether the arrows, Page Up and Page Down, Home, End and Space scroll it (UIKit's,
    /// on by default); off, keys pass on as if it did not scroll.
    public var allowsKeyboardScrolling = true
    @exclusivity(unchecked) public var alwaysBounceVertical = false
    @exclusivity(unchecked) public var alwaysBounceHorizontal = false
    public var decelerationRate: DecelerationRate = .normal
    @exclusivity(unchecked) public var isPagingEnabled = false
    public var isDirectionalLockEnabled = false
    public var delaysContentTouches = true
    public var canCancelContentTouches = true
    public var scrollsToTop = true
    public var keyboardDismissMode: KeyboardDismissMode = .none
    /// Touchpad (finger axis) distance multiplier.
    public var touchpadMultiplier = 2.5
    /// Kiosk option: the left mouse button drags the content (4 px slop, no delay).
    public var allowsMouseDrag = false
    /// Whether a mouse drag flings on release (off by default, as the spec says).
    public var mouseDragMomentum = false
    /// Device pixels per logical pixel used to land on whole device pixels.
    public var deviceScale: Double { window?.scale ?? 1 }

    // MARK: Indicators

    @exclusivity(unchecked) public var showsVerticalScrollIndicator = true { didSet { layoutIndicators() } }
    @exclusivity(unchecked) public var showsHorizontalScrollIndicator = true { didSet { layoutIndicators() } }
    @exclusivity(unchecked) public var verticalScrollIndicatorInsets: EdgeInsets = .zero {
        didSet { layoutIndicators() }
    }
    @exclusivity(unchecked) public var horizontalScrollIndicatorInsets: EdgeInsets = .zero {
        didSet { layoutIndicators() }
    }
    /// Both indicators' insets at once (UIKit's older combined property, still in its reference:
    /// `sv.scrollIndicatorInsets = sv.contentInset`); reads as the vertical one's.
    public var scrollIndicatorInsets: EdgeInsets {
        get { verticalScrollIndicatorInsets }
        set {
            verticalScrollIndicatorInsets = newValue
            horizontalScrollIndicatorInsets = newValue
        }
    }
    /// Adds the adjusted inset's automatic parts (safe area, refresh control, keyboard) to the
    /// indicator insets.
    @exclusivity(unchecked) public var automaticallyAdjustsScrollIndicatorInsets = true {
        didSet { layoutIndicators() }
    }
    /// How far in from the trailing edge the vertical indicator stands, clear of what a
    /// subclass keeps along that edge (a list's section index, whose touches it would take).
    var verticalIndicatorClearance: Double { 0 }

    // MARK: Zoom

    @exclusivity(unchecked) public var minimumZoomScale = 1.0
    @exclusivity(unchecked) public var maximumZoomScale = 1.0
    /// Rubber-band past the zoom limits (in log space) and spring back.
    public var bouncesZoom = true
    /// A double tap at the minimum scale zooms to twice the minimum (within the maximum) about
    /// the tap, and above the minimum back to it (a photo viewer's toggle), when there is a
    /// zoom view.
    /// Off by default: UIKit's scroll view has no double tap of its own (apps add one); the zoom
    /// scene turns it on.
    public var doubleTapZooms = false { didSet { updateDoubleTapRecognizer() } }
    /// Scrollway's extension, off by default as in UIKit: a drag that reaches this view's edge
    /// continues in the enclosing scroll view that can move that way (scroll chaining, as
    /// browsers do), with no travel lost. Off, the drag stays here and rubber-bands; only a drag
    /// along an axis this view does not scroll goes to an ancestor. (Wheel and touchpad
    /// scrolling chain at the edges either way, as on every desktop.)
    public var handsOffDragsAtEdges = false
    /// The indicators' colours (UIScrollView.IndicatorStyle).
    public var indicatorStyle: IndicatorStyle = .default {
        didSet {
            horizontalIndicator.setNeedsDisplay()
            verticalIndicator.setNeedsDisplay()
        }
    }

    /// UIKit's indicator styles.
    public enum IndicatorStyle: String, CaseIterable, Sendable {
        /// Dark with a light border: visible on any background.
        case `default`
        /// Dark: for light content.
        case black
        /// Light: for dark content.
        case white
    }
    @exclusivity(unchecked) public internal(set) var zoomScaleStorage = 1.0
    public var zoomScale: Double {
        get { zoomScaleStorage }
        set { setZoomScale(newValue, animated: false) }
    }
    /// The scroll view's drag as a recognizer (ScrollView+Recognizers.swift): its settings
    /// (`minimumNumberOfTouches`, `isEnabled`, `require(toFail:)`, a delegate) decide whether a
    /// touch may scroll, and its states follow the drag.
    public let panGestureRecognizer = PanGestureRecognizer()
    /// The two-finger (and touchpad) zoom as a recognizer; there whether or not the view
    /// zooms, as `pinchGestureRecognizer` is only while it can.
    let ownPinch = PinchGestureRecognizer()
    /// The pinch recognizer while the view can zoom (a zoom view, and a scale range), nil
    /// otherwise, as in UIKit.
    public var pinchGestureRecognizer: PinchGestureRecognizer? {
        zoomView != nil && maximumZoomScale > minimumZoomScale ? ownPinch : nil
    }
    /// The recognizer behind `doubleTapZooms`, while it is on.
    var doubleTapRecognizer: TapGestureRecognizer?
    /// A double tap recognized while the scroll view still held its touch: it zooms once the
    /// touch's release is settled.
    var pendingDoubleTap: Point?
    /// True while the scroll view itself sets its pan's or pinch's state.
    var isDrivingOwnRecognizers = false
    /// True while a zoom step changes contentSize and offset together.
    var isApplyingZoom = false

    // MARK: State

    /// What the scroll view is doing (ScrollView+State.swift): written only by `transition(to:)`.
    private(set) var state: ScrollState = .idle
    /// The bounds size at the last layout: a change means the range changed with it.
    @exclusivity(unchecked) var lastLaidOutSize: Size?
    /// Counts the motions started or stopped (not those merely re-aimed by `contentShifted`), so
    /// whoever started one can tell later whether it is still theirs (`RowScrollFollower`).
    @exclusivity(unchecked) var motionGeneration = 0
    let horizontalIndicator = ScrollIndicator(axis: .horizontal)
    let verticalIndicator = ScrollIndicator(axis: .vertical)
    var indicatorFadeTimer: TimerToken?
    /// A paging view's wheel detents (in 120ths) not yet turned into a page, and their axis: a
    /// high-resolution wheel sends parts of a detent, and a page turns per whole detent.
    var pagingWheelCredit = (vertical: true, detents120: 0.0)
    /// The page a pager last told assistive technology it shows ("Page 2 of 5").
    var lastAnnouncedPage: String?
    /// The cells of rows or items gone, still going out after an animated update
    /// (`ChangeAnimation`): they move with what is in view when the offset moves for it.
    var departingViews: [View] = []

    /// What the scroll view is doing, for traces.
    public var phase: Phase {
        if isZooming || isZoomBouncing { return .zooming }
        switch motion {
        case .idle:
            if isDragging { return .dragging }
            return isTracking ? .tracking : .idle
        case .fling(let f):
            return f.phase(at: window?.now ?? f.start)
        case .spring(_, _, _, let kind):
            return kind == .programmatic ? .animating : .decelerating
        case .wheel: return .animating
        case .zoom: return .zooming
        }
    }

    /// The one place the state changes. A curve that starts is driven by the window's frames
    /// from here on; one that ends or stops is no longer.
    func transition(to next: ScrollState) {
        let wasMoving: Bool
        if case .idle = state.motion { wasMoving = false } else { wasMoving = true }
        state = next
        if case .idle = next.motion {
            if wasMoving { window?.removeAnimation(self) }
        } else {
            window?.addAnimation(self)
        }
    }

    /// A scroll view leaving its window completes its motion at once (`completeMotion`: where
    /// the curve rests, in range and on a page, with the delegate's end call): nothing drives a
    /// curve outside a window, and one left running was found again later at its old start
    /// time, so that the next touch jumped the content to where that curve had come to in the
    /// meantime (3,460 px). A release whose `didEndDragging` took the view out of its window
    /// completes the same way, once `willBeginDecelerating` has been sent.
    open override func willLeaveWindow() {
        super.willLeaveWindow()
        completeMotion()
    }

    /// A scroll area; its content views stand inside it.
    open override var accessibilityDefaults: AccessibilityDefaults { AccessibilityDefaults(role: .scrollArea) }

    /// Brings `rect` (content coordinates) into sight at once, then asks the scroll views
    /// around this one to show where it now is.
    open override func accessibilityScrollToVisible(_ rect: Rect) -> Bool {
        scrollRectToVisible(rect, animated: false)
        if let superview { _ = superview.accessibilityScrollToVisible(convert(rect, to: superview)) }
        return true
    }

    /// Pages as Page Up and Page Down do (a pager by a whole page), and goes to either end;
    /// up at the top starts the refresh control's refresh. Says where it went
    /// (`pageScrolled`, with `accessibilityScrollStatus`).
    open override func accessibilityScroll(_ direction: AccessibilityScrollDirection) -> Bool {
        scrollForAccessibility(direction)
    }

    open override var accessibilityScrollDirections: [AccessibilityScrollDirection] {
        (scrollsVertically ? [.up, .down, .top, .bottom] : []) + (scrollsHorizontally ? [.left, .right] : [])
    }

    /// Where `offset` shows the content, as a screen reader says it after a scroll: "Page 2 of
    /// 5", by pages of the bounds' size (a list says which rows).
    open func accessibilityScrollStatus(at offset: Point) -> String {
        pageStatus(at: offset)
    }

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        clipsToBounds = true
        adjustedContentInset = computeAdjustedInset()
        setUpIndicators()
        for own in [panGestureRecognizer, ownPinch] as [GestureRecognizer] {
            own.isDrivenByOwner = true
            addGestureRecognizer(own)
        }
        watchOwnRecognizers()
    }

    // MARK: Insets and range

    /// Who owns a part of the adjusted inset: typed, so the keyboard's and the refresh
    /// control's parts are found by their names in code, not by strings. An app's own part is
    /// a new key (a string literal makes one). Parts add up in key order.
    public struct InsetContributionKey: Hashable, Comparable, Sendable, ExpressibleByStringLiteral {
        public let name: String
        public init(_ name: String) { self.name = name }
        public init(stringLiteral name: String) { self.name = name }
        public static func < (a: Self, b: Self) -> Bool { a.name < b.name }
        /// The on-screen keyboard's height over the scroll view (bottom).
        public static let keyboard = InsetContributionKey("keyboard")
        /// The refresh control while refreshing (top).
        public static let refreshControl = InsetContributionKey("refreshControl")
    }

    /// Adds (or with `.zero`, removes) a part of the adjusted inset owned by `key`.
    public func setInsetContribution(_ insets: EdgeInsets, for key: InsetContributionKey) {
        if insets == .zero { insetContributions.removeValue(forKey: key) } else { insetContributions[key] = insets }
        adjustedInsetMayHaveChanged()
    }

    /// Whether content can move on an axis: its offset range is longer than nothing (content
    /// with the adjusted inset, keyboard and safe area included, larger than the viewport), or
    /// always-bounce on that axis. A keyboard's inset alone makes a form that fits scroll, as
    /// in UIKit, so that the fields under the keyboard can be brought up.
    public var scrollsHorizontally: Bool { scrolls(vertically: false, with: adjustedContentInset) }
    public var scrollsVertically: Bool { scrolls(vertically: true, with: adjustedContentInset) }

    /// Whether an axis scrolls with `inset` around the content. The safe area's part of the
    /// adjusted inset (`scrollableAxes`, `automatic`) asks with the scroll view's own
    /// `contentInset`, since the adjusted inset is what that decides.
    private func scrolls(vertically: Bool, with inset: EdgeInsets) -> Bool {
        vertically
            ? alwaysBounceVertical || contentSize.height + inset.vertical > bounds.height + 1e-9
            : alwaysBounceHorizontal || contentSize.width + inset.horizontal > bounds.width + 1e-9
    }

    func computeAdjustedInset() -> EdgeInsets {
        var safe = EdgeInsets.zero
        let s = safeAreaInsets
        switch contentInsetAdjustmentBehavior {
        case .never: break
        case .always: safe = s
        case .automatic:
            safe.top = s.top
            safe.bottom = s.bottom
            if scrolls(vertically: false, with: contentInset) {
                safe.left = s.left
                safe.right = s.right
            }
        case .scrollableAxes:
            if scrolls(vertically: true, with: contentInset) {
                safe.top = s.top
                safe.bottom = s.bottom
            }
            if scrolls(vertically: false, with: contentInset) {
                safe.left = s.left
                safe.right = s.right
            }
        }
        return insetContributions.keys.sorted().reduce(contentInset + safe) { $0 + insetContributions[$1]! }
    }

    /// Recomputes the adjusted inset; on a change, tells the delegate and springs back to the
    /// nearest edge if the offset is now outside the range and nothing is touching. The offset
    /// itself is never written here.
    func adjustedInsetMayHaveChanged() {
        let new = computeAdjustedInset()
        guard new != adjustedContentInset else { return }
        adjustedContentInset = new
        rebaseGesturesToCurrentOffset()
        adjustedContentInsetDidChange()
        notify(.didChangeAdjustedContentInset)
        restAfterRangeChange()
        setNeedsLayout()
    }

    /// Called when the adjusted inset changes (UIKit's hook for subclasses).
    open func adjustedContentInsetDidChange() {}

    /// The offset range on x.
    public var horizontalRange: ClosedRange<Double> {
        let lo = -adjustedContentInset.left
        return lo...max(lo, contentSize.width + adjustedContentInset.right - bounds.width)
    }

    /// The offset range on y.
    public var verticalRange: ClosedRange<Double> {
        let lo = -adjustedContentInset.top
        return lo...max(lo, contentSize.height + adjustedContentInset.bottom - bounds.height)
    }

    /// The nearest offset inside the range.
    public func clampedOffset(_ p: Point) -> Point {
        Point(
            x: min(max(p.x, horizontalRange.lowerBound), horizontalRange.upperBound),
            y: min(max(p.y, verticalRange.lowerBound), verticalRange.upperBound))
    }

    /// Whether the offset lies inside the range (within half a device pixel).
    public var isOffsetInRange: Bool {
        let c = clampedOffset(contentOffset)
        return abs(c.x - contentOffset.x) < 0.5 / deviceScale && abs(c.y - contentOffset.y) < 0.5 / deviceScale
    }

    // MARK: Scrolling notifications

    open override func didChangeBounds(from old: Rect) {
        if old.origin != bounds.origin {
            notify(.didScroll)
            layoutIndicators()
            refreshControl?.updateFromScroll()
        }
        if old.size != bounds.size { adjustedInsetMayHaveChanged() }
    }

    /// Where a released drag comes to rest, given where its deceleration would (`proposed`)
    /// and its velocity in px/s: a subclass in this module with resting places of its own (a
    /// picker's wheel, on a row) moves it there, before the delegate's
    /// `scrollViewWillEndDragging` may move it again (an app's way to the same end), and the
    /// fling is aimed at it. Not asked when paging.
    func restingOffset(forProposed proposed: Point, velocity: Point) -> Point { proposed }

    /// The content came to rest with no delegate call to say so: a bounce back into the range
    /// ended, or a touch let go (or was taken over by an enclosing scroll view) leaving it
    /// where it was. A subclass in this module with resting places of its own (a picker's
    /// wheel) checks here that it rests on one.
    func cameToRestUnheard() {}

    open var takesScrollToTop: Bool { scrollsToTop }
    open func performScrollToTop() { scrollToTopForGesture() }

    open override func layoutSubviews() {
        super.layoutSubviews()
        layoutIndicators()
        // A new size (a resized window) moves the range's far edge. Checked here, after the
        // ancestors' layout has set this frame's content size and offset for the new size,
        // rather than when the bounds change: an offset left beyond the new range springs back
        // like any other range change (the fuzzer found a window grown under a list resting
        // at its old end, showing blank space below the content for good).
        if let last = lastLaidOutSize, last != bounds.size { restAfterRangeChange() }
        lastLaidOutSize = bounds.size
    }

    open var acceptsKeyboardScrolling: Bool { isScrollEnabled && allowsKeyboardScrolling }

    // MARK: Input (overrides live here; the work is in +Touch, +Pointer and +Zoom)

    /// Touches that land in a scroll view are its to arbitrate; the mouse only in kiosk mode.
    open func interceptsTouches(from source: Touch.Source) -> Bool { source == .finger || allowsMouseDrag }
    open func interceptedTouchBegan(_ touch: Touch, target: View?) { scrollTouchBegan(touch, target: target) }
    open func interceptedTouchMoved(_ touch: Touch) { scrollTouchMoved(touch) }
    open func interceptedTouchEnded(_ touch: Touch) { scrollTouchEnded(touch) }
    open func interceptedTouchCancelled(_ touch: Touch) { scrollTouchCancelled(touch) }
    open func interceptedTouchTargetWillLeave(_ touch: Touch) { scrollTouchTargetWillLeave(touch) }
    open override func handleInput(_ event: InputEvent) -> Bool { handleScrollInput(event) }

    /// Whether the content under the finger gets this touch at all (UIKit's hook). Asked when
    /// the content would get it: when the 150 ms of `delaysContentTouches` pass without the
    /// finger moving far enough (or the finger lifts first), or at touch-down when content
    /// touches are not delayed. A touch that became a scroll first is never offered. Returning
    /// false keeps the touch for scrolling.
    open func touchesShouldBegin(_ touches: [Touch], in view: View) -> Bool { true }

    /// Whether a touch the content already has may be cancelled to scroll instead. UIKit's
    /// default: not when the view is a control (`Control`: buttons, text fields), yes
    /// otherwise; ours also yes for a disabled control, which does nothing with the touch, so a
    /// finger held on a greyed button still scrolls. `ListView` says yes for every view, as
    /// UITableView does, so a drag that starts on a row's button still scrolls the list.
    open func touchesShouldCancel(in view: View) -> Bool {
        !Control.contains(view, below: self) || Control.isDisabled(view)
    }

    /// Scrolls the least distance that brings `rect` (content coordinates) inside the visible
    /// area (the bounds less the adjusted inset), clamped to the range; animated with the
    /// ω = 14 spring. Open, so content that measures itself as it comes into view (`ListView`)
    /// can land exactly.
    open func scrollRectToVisible(_ rect: Rect, animated: Bool) {
        scrollLeastDistance(toShow: rect, animated: animated)
    }

    /// The margin kept above and below a view shown because it gained focus (Tab, or the
    /// on-screen keyboard coming up under a field).
    public static let focusMargin = 12.0

    /// Shows `view` (a descendant), grown by `focusMargin` above and below, with
    /// `scrollRectToVisible(_:animated:)`: the least distance, animated.
    open func scrollToShowFocused(_ view: View) {
        let rect = view.convert(view.bounds, to: self).insetBy(dx: 0, dy: -Self.focusMargin)
        scrollRectToVisible(rect, animated: true)
    }
}

/// The routing roles a scroll view takes (InputRoles.swift). Declared here, with the members in
/// the class body above: `open` there, so subclasses can still override them.
extension ScrollView: TouchInterceptor, ScrollToTopTarget, KeyboardScrollTarget, FocusScrollTarget {}
