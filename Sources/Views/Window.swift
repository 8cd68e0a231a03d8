import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster

/// The root of a view tree: lays out, rasterizes what needs it, works out what changed on
/// screen since the last frame, and composites the cached images into a target canvas.
///
/// It never renders on its own: a change anywhere below asks its host for a frame once (until
/// the next `prepareFrame`), and the platform answers with a frame (a Wayland frame callback, or
/// the offscreen clock's next tick). That is how "one frame per repaint" starts; the whole
/// contract is `WindowHost`'s.
public final class Window: View {
    // The plain values marked `@exclusivity(unchecked)` here are read by every frame's walks
    // and phases, as `View`'s geometry is, and unchecked for the same reasons.
    /// Device pixels per logical pixel (the output's buffer scale).
    @exclusivity(unchecked) public var scale: Double {
        didSet {
            precondition(scale > 0 && scale.isFinite, "window scale must be positive and finite")
            guard scale != oldValue else { return }
            forceFullDamage = true
            setNeedsFrame()
            var stack: [View] = [self]
            while let v = stack.popLast() {
                v.windowScaleDidChange()
                // Text is measured in device pixels: a label's or a button's intrinsic size at
                // one scale is not its size at another (a label sized at 1 is cut short with an
                // ellipsis at 1.25), so constraints solve again with the sizes at this scale.
                v.invalidateIntrinsicContentSize()
                stack += v.subviews
            }
        }
    }
    /// What fills window pixels no view covers.
    public var clearColor: Color = .white { didSet { forceFullDamage = true; setNeedsFrame() } }
    /// The platform showing this window, told when a frame is wanted (`WindowHost`). Weak: the
    /// platform owns the window, not the other way round.
    public weak var host: (any WindowHost)?
    /// Who follows frames, focus and keyboard drags (`WindowObserver`), in the order added.
    var observers = ObserverList<any WindowObserver>()

    /// Objects kept alive as long as the window (a scene's data source, which views hold
    /// weakly as UIKit does).
    public var retainedObjects: [AnyObject] = []

    @exclusivity(unchecked) public internal(set) var needsFrame = true
    /// Messages from other threads and their handlers (Window+Inbox.swift).
    var inboxRegistry = InboxRegistry()
    /// What views that left or hid showed (window logical coordinates), repainted next frame.
    var pendingDamage = Region()
    /// How many unvisited subtrees the walks have forgotten (`forgetUnvisited`; what the tests
    /// count).
    private(set) var subtreesForgotten = 0
    @exclusivity(unchecked) var forceFullDamage = true
    /// The scale the last frame's walk used (subtrees are skipped only at the same scale).
    @exclusivity(unchecked) var lastWalkScale: Double?
    /// Set by a shrinking resize while a view has the focus: the next frame, once laid out at the
    /// new size, scrolls the focused view into sight.
    var showsFocusedAfterLayout = false
    /// True while a frame is being prepared: changes made then are part of that frame.
    @exclusivity(unchecked) var preparingFrame = false
    /// Asked while a frame was being prepared: the frame after it (`setNeedsFrameAfterThis`).
    @exclusivity(unchecked) var wantsFrameAfterThis = false
    /// Whether the frame last prepared asked for the one after it (`setNeedsFrameAfterThis`).
    @exclusivity(unchecked) var lastFrameAskedForNext = false
    /// Whether frames may describe a scroll as pixels that moved (`FrameUpdate.move`), so that a
    /// present path reuses them; off, every change is damage to composite again (the general
    /// path, kept for comparison and for platforms that cannot move pixels).
    @exclusivity(unchecked) public var detectsScrollMoves = true
    /// When set, each frame times its phases with it (seconds; a monotonic clock) into
    /// `phases`: a platform sets it for a listener that wants them (`demo --frame-stats`).
    /// Nil (default): no clock is read.
    public var phaseClock: (@MainActor () -> Double)?
    /// The last frame's phases (`phaseClock`), from its `prepareFrameUpdate` through its
    /// composites; zero when nothing times them.
    @exclusivity(unchecked) public var phases = FramePhases()

    /// The latest time the window knows of (seconds, platform clock): the last frame's target
    /// time or the last event's time, whichever is later. Programmatic animations start here.
    @exclusivity(unchecked) public internal(set) var now: Double = 0
    var timers: [WindowTimer] = []
    var nextTimerID = 0
    var animations: [any FrameAnimation] = []
    /// The views' property animations (`animate(withDuration:)`), made with the first.
    var viewAnimator: ViewAnimator?
    /// Where each touch's events go, by touch id (the mouse uses `Window.mouseTouchID`).
    var touchRoutes: [Int: TouchRoute] = [:]
    /// The gesture recognizers following touches, and what the views under them are owed.
    var gestureArena = GestureArena()
    /// Solves the window's constraints (made with the first one activated in it).
    var layoutEngineIfCreated: LayoutEngine?
    /// The direction the app's interface reads in (UIKit's application-wide
    /// `userInterfaceLayoutDirection`): right to left for an app shown in Hebrew or Arabic. Its
    /// views' leading and trailing anchors follow it, unless a view says otherwise
    /// (`semanticContentAttribute`). Left to right by default: an app is laid out right to left
    /// because it is shown in such a language, which only the app knows.
    public var userInterfaceLayoutDirection = UserInterfaceLayoutDirection.leftToRight {
        didSet {
            guard userInterfaceLayoutDirection != oldValue else { return }
            layoutEngineIfCreated?.directionChanged()
            notifyLayoutDirectionChanged()
        }
    }
    /// The last pointer position (window coordinates), nil when the pointer is outside.
    public internal(set) var pointerPosition: Point?
    /// The view a button press went to: its release goes there too, wherever the pointer is
    /// by then (a compositor's implicit grab delivers it to us even outside the window).
    weak var pointerPressView: View?
    /// Where the touchpad scroll in progress began, and the axes it has not stopped yet.
    weak var touchpadLatch: View?
    var touchpadAxes: Set<Axis> = []
    /// The view that receives keys first (a focused text field).
    public weak var focusedView: View? {
        didSet {
            if focusedView !== oldValue {
                // What an input method was composing in the view that lost the focus goes with
                // it (it was never committed), as the input method is told by the disable.
                if let old = oldValue as? TextEditingView, !old.editing.preedit.isEmpty {
                    old.editing.cancelPreedit()
                }
                oldValue?.setNeedsDisplay()
                focusedView?.setNeedsDisplay()
                oldValue?.focusDidChange()
                focusedView?.focusDidChange()
                let (view, byTouch) = (focusedView, focusedByTouch)
                notifyObservers { $0.window(self, focusDidChangeTo: view, byTouch: byTouch) }
            }
        }
    }
    /// Whether the window has the seat's keyboard (UIKit's key window): the platform says so
    /// as the keyboard focus comes and goes; offscreen a window always has it. Focus rings and
    /// carets show only while it does (`View.showsFocus`).
    public var isKeyWindow = true {
        didSet {
            guard isKeyWindow != oldValue else { return }
            becameKeyAwaitingPress = isKeyWindow
            notifyObservers { $0.window(self, keyWindowDidChange: isKeyWindow) }
            guard let view = focusedView else { return }
            view.setNeedsDisplay()
            view.focusDidChange()
        }
    }
    /// Set as the window becomes key; the next press or motion clears it.
    var becameKeyAwaitingPress = false
    /// Whether the current focus came from a touch (an on-screen keyboard shows for those).
    public internal(set) var focusedByTouch = false
    /// Whether the platform hands text fields to a system input method (the compositor offers
    /// zwp_text_input_v3): an in-app keyboard under `systemWhenAvailable` then stays down. The
    /// platform sets it; offscreen it stays false.
    public var hasSystemInputMethod = false
    /// The clipboard Ctrl+C, Ctrl+X and Ctrl+V use in this window's text fields and views. An
    /// in-memory one until the platform installs the system's (Wayland: wl_data_device);
    /// offscreen it stays in memory, so tests copy and paste deterministically.
    public var pasteboard: any Pasteboard = MemoryPasteboard()
    /// Which visible view the scroll-to-top gesture goes to (`requestScrollToTop()`).
    public var scrollToTopRule: ScrollToTopRule = .nearest
    /// The window became the key window and no press has come since: a press now is the one
    /// that activated it (a click on an inactive window raises and focuses it, and does no
    /// more: the title bar does not scroll to the top for it).
    public internal(set) var isActivatingPress = false

    /// Which visible view answers the scroll-to-top gesture (`requestScrollToTop()`), UIKit's two
    /// rules.
    public enum ScrollToTopRule: Hashable, Sendable {
        /// UIKit on larger screens, and the default here (a desktop window is one): the visible
        /// view nearest the top of the window (its title bar) takes it; of views as near, the
        /// innermost (a list in a pager, not the pager). If that view is already at its top, or
        /// its delegate declines, nothing scrolls.
        case nearest
        /// UIKit on a phone: only when exactly one visible view takes it; with several, none does
        /// (an app turns `scrollsToTop` off on all but one).
        case onlyCandidate
    }

    /// The scroll-to-top gesture (UIKit's status-bar tap; here a click or tap on the title bar,
    /// or an app's own request): the visible view `scrollToTopRule` picks among those that take
    /// it scrolls to its top. A view counts as visible where it shows through every clipping
    /// ancestor and the window. Returns whether a view took it.
    @discardableResult
    public func requestScrollToTop() -> Bool {
        var takers: [(target: any ScrollToTopTarget, top: Double, depth: Int)] = []
        func visit(_ v: View, clip: Rect, depth: Int) {
            guard !v.isHidden, v.alpha > 0.01 else { return }
            let shown = v.convert(v.bounds, to: nil).intersection(clip)
            if let target = v as? ScrollToTopTarget, target.takesScrollToTop, let shown, !shown.isEmpty {
                takers.append((target, shown.minY, depth))
            }
            // What a clipping view does not show, its subviews do not either.
            let inner = v.clipsToBounds ? shown : clip
            guard let inner, !inner.isEmpty else { return }
            for sub in v.subviews { visit(sub, clip: inner, depth: depth + 1) }
        }
        visit(self, clip: Rect(origin: .zero, size: bounds.size), depth: 0)
        let chosen: (any ScrollToTopTarget)?
        switch scrollToTopRule {
        case .onlyCandidate:
            chosen = takers.count == 1 ? takers[0].target : nil
        case .nearest:
            chosen = takers.min { a, b in a.top != b.top ? a.top < b.top : a.depth > b.depth }?.target
        }
        guard let chosen else { return false }
        chosen.performScrollToTop()
        return true
    }

    /// Focuses `view` (nil clears), remembering whether a touch did it. A disabled control
    /// (or a view inside one) takes no focus: the call does nothing.
    public func focus(_ view: View?, byTouch: Bool) {
        if let view, Control.isDisabled(view) { return }
        focusedByTouch = byTouch && view != nil
        focusedView = view
    }
    /// Keyboard modifiers as of the last key event (Shift swaps wheel axes, Ctrl zooms).
    public internal(set) var modifiers: Modifiers = []

    public init(size: Size, scale: Double = 1) {
        // As the setter does: at the call that gave it, not in the first frame's canvas.
        precondition(scale > 0 && scale.isFinite, "window scale must be positive and finite")
        self.scale = scale
        super.init(frame: Rect(origin: .zero, size: size))
        clipsToBounds = true
    }

    /// Resizes the window (a configure from the compositor): everything is damaged.
    public func resize(to size: Size) {
        guard size != bounds.size else { return }
        // A window that shrinks while a view has the focus (a system keyboard that reserves
        // space resizes it: Phosh does) keeps that view in sight, once the new size is laid out.
        if focusedView != nil, size.width < bounds.width || size.height < bounds.height {
            showsFocusedAfterLayout = true
        }
        frame = Rect(origin: .zero, size: size)
        forceFullDamage = true
        setNeedsFrame()
    }

    func setNeedsFrame() {
        guard !needsFrame, !preparingFrame else { return }
        needsFrame = true
        host?.windowNeedsFrame(self)
    }

    /// Asks for the frame after the one being prepared, for a view that wants something done
    /// once this frame is out (a tiled view, after a motion's frame, wants the one that finds
    /// it still); outside a frame's preparation, asks for a frame. A change made while a frame
    /// is prepared is part of that frame and asks for no other; this does, and unlike an
    /// animation it keeps nothing running (`hasActiveAnimations`) while it waits.
    public func setNeedsFrameAfterThis() {
        if preparingFrame { wantsFrameAfterThis = true } else { setNeedsFrame() }
    }

    /// Cancels the touches held in `view`'s subtree, takes the focus from it, and damages what
    /// it last showed, since it is leaving the window.
    func viewWillLeave(_ view: View) {
        // Recognizers first: what they hold for views in it is dropped (or cancelled) before
        // the touches' cancels could release it as ends.
        abandonRecognizers(leaving: view)
        cancelTouches(leaving: view)
        // A focused view that leaves gives the focus up, as UIKit's first responder does: keys
        // went on to a view out of the window (a picker's wheel removed by a reload), and a
        // view reused from a pool came back focused.
        if let focused = focusedView, focused === view || focused.isDescendant(of: view) { focus(nil, byTouch: false) }
        forgetComposites(of: view) { $0.willLeaveWindow() }
    }

    /// Damages what `view` and its subtree last showed, since it is moving to another place in
    /// this window: touches and work in flight carry on there.
    func viewWillMove(_ view: View) {
        forgetComposites(of: view) { _ in }
    }

    /// Damages what `view` and its subtree last showed and forgets it, calling `each` on every
    /// view of the subtree. What they showed is where their snapshots say, carried by the drift
    /// of every view above them (frames that skipped them moved their pixels).
    private func forgetComposites(of view: View, _ each: (View) -> Void) {
        forgetSnapshots(of: view, each)
        setNeedsFrame()
    }

    /// What the walk does with a subtree it does not visit (hidden, or clipped out): its
    /// snapshots are forgotten (what they showed damaged) the first frame, and later frames
    /// only drop the drift its parent handed it, until a walk visits it again. Walking a hidden
    /// form's hundred views twice a frame to find nothing cost every frame of a fling beside it
    /// (decisions.md, "A hidden subtree forgotten once").
    func forgetUnvisited(_ view: View) {
        if view.snapshotsForgotten {
            view.compositeDrift = .zero
            return
        }
        forgetSnapshots(of: view)
        view.snapshotsForgotten = true
        subtreesForgotten &+= 1
    }

    /// `forgetComposites` without asking for a frame (the walk calls it through
    /// `forgetUnvisited` for views it does not visit).
    func forgetSnapshots(of view: View, _ each: (View) -> Void = { _ in }) {
        if view.lastComposite == nil, view.compositeDrift == .zero, view.subviews.isEmpty {
            each(view)
            return
        }
        var inherited = Point.zero
        var above = view.superview
        while let a = above {
            inherited += a.compositeDrift
            above = a.superview
        }
        var stack = [(view, inherited)]
        while let next = stack.popLast() {
            let (v, drift) = next
            if let shown = v.lastComposite?.visible { pendingDamage.add(shown.offsetBy(dx: drift.x, dy: drift.y)) }
            v.lastComposite = nil
            let below = drift + v.compositeDrift
            v.compositeDrift = .zero
            each(v)
            for sub in v.subviews { stack.append((sub, below)) }
        }
    }
}
