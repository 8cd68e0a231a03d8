import Geometry
import Gestures
import Raster

/// The root of a view tree: lays out, rasterizes what needs it, works out what changed on
/// screen since the last frame, and composites the cached images into a target canvas.
///
/// It never renders on its own: a change anywhere below calls `onNeedsFrame` once (until the
/// next `prepareFrame`), and the platform answers with a frame (a Wayland frame callback, or the
/// offscreen clock's next tick). That is how "one frame callback in flight" starts.
public final class Window: View {
    /// Device pixels per logical pixel (the output's buffer scale).
    public var scale: Double {
        didSet {
            precondition(scale > 0 && scale.isFinite, "window scale must be positive and finite")
            guard scale != oldValue else { return }
            forceFullDamage = true
            setNeedsFrame()
            var stack: [View] = [self]
            while let v = stack.popLast() {
                v.windowScaleDidChange()
                stack += v.subviews
            }
        }
    }
    /// What fills window pixels no view covers.
    public var clearColor: Color = .white { didSet { forceFullDamage = true; setNeedsFrame() } }
    /// Called (once per frame request) when something changed and a frame is wanted.
    public var onNeedsFrame: (() -> Void)?
    /// Called before each frame with its target time (seconds): animations advance here.
    public var onFrame: ((Double) -> Void)?
    /// Called after each frame is prepared (animations run, layout done), with its time: what
    /// the frame shows is final here (traces record it).
    public var onFramePrepared: ((Double) -> Void)?

    /// Objects kept alive as long as the window (a scene's data source, which views hold
    /// weakly as UIKit does).
    public var retainedObjects: [AnyObject] = []

    public private(set) var needsFrame = true
    /// Messages from other threads and their handlers (Window+Inbox.swift).
    var inboxRegistry = InboxRegistry()
    private var pendingDamage = Region()
    private var forceFullDamage = true
    /// True while a frame is being prepared: changes made then are part of that frame.
    private var preparingFrame = false

    /// The latest time the window knows of (seconds, platform clock): the last frame's target
    /// time or the last event's time, whichever is later. Programmatic animations start here.
    public internal(set) var now: Double = 0
    var timers: [WindowTimer] = []
    var nextTimerID = 0
    var animations: [any FrameAnimation] = []
    /// Where each touch's events go, by touch id (the mouse uses `Window.mouseTouchID`).
    var touchRoutes: [Int: TouchRoute] = [:]
    /// The last pointer position (window coordinates), nil when the pointer is outside.
    public internal(set) var pointerPosition: Point?
    /// The view that receives keys first (a focused text field).
    public weak var focusedView: View? {
        didSet {
            if focusedView !== oldValue {
                oldValue?.setNeedsDisplay()
                focusedView?.setNeedsDisplay()
                onFocusChange?(focusedView, focusedByTouch)
            }
        }
    }
    /// Whether the current focus came from a touch (an on-screen keyboard shows for those).
    public internal(set) var focusedByTouch = false
    /// Called when the focused view changes: the new one (nil: none) and whether by touch.
    public var onFocusChange: ((View?, Bool) -> Void)?
    /// Scroll views with interactive keyboard dismissal report the dragging finger's window y
    /// here (nil when the drag ends); an on-screen keyboard follows it.
    public var onInteractiveKeyboardDrag: ((Double?) -> Void)?

    /// Focuses `view` (nil clears), remembering whether a touch did it.
    public func focus(_ view: View?, byTouch: Bool) {
        focusedByTouch = byTouch && view != nil
        focusedView = view
    }
    /// Keyboard modifiers as of the last key event (Shift swaps wheel axes, Ctrl zooms).
    public internal(set) var modifiers: Modifiers = []

    public init(size: Size, scale: Double = 1) {
        self.scale = scale
        super.init(frame: Rect(origin: .zero, size: size))
        clipsToBounds = true
    }

    /// Resizes the window (a configure from the compositor): everything is damaged.
    public func resize(to size: Size) {
        guard size != bounds.size else { return }
        frame = Rect(origin: .zero, size: size)
        forceFullDamage = true
        setNeedsFrame()
    }

    func setNeedsFrame() {
        guard !needsFrame, !preparingFrame else { return }
        needsFrame = true
        onNeedsFrame?()
    }

    /// Cancels the touches held in `view`'s subtree and damages what it last showed, since it
    /// is leaving the window.
    func viewWillLeave(_ view: View) {
        cancelTouches(leaving: view)
        forgetComposites(of: view) { $0.willLeaveWindow() }
    }

    /// Damages what `view` and its subtree last showed, since it is moving to another place in
    /// this window: touches and work in flight carry on there.
    func viewWillMove(_ view: View) {
        forgetComposites(of: view) { _ in }
    }

    /// Damages what `view` and its subtree last showed and forgets it, calling `each` on every
    /// view of the subtree.
    private func forgetComposites(of view: View, _ each: (View) -> Void) {
        var stack = [view]
        while let v = stack.popLast() {
            if let shown = v.lastComposite?.visible { pendingDamage.add(shown) }
            v.lastComposite = nil
            each(v)
            stack += v.subviews
        }
        setNeedsFrame()
    }

    /// Runs animations for `time`, lays out, rasterizes views that need display, and returns
    /// the region (window logical coordinates) that differs from the last frame.
    @discardableResult
    public func prepareFrame(time: Double = 0) throws -> Region {
        needsFrame = false
        preparingFrame = true
        defer {
            preparingFrame = false
            inboxRegistry.framesPrepared += 1
            // Running animations want the next frame; nothing else does (what changed during
            // this frame is in it).
            if !animations.isEmpty || backgroundWorkWantsFrame { setNeedsFrame() }
        }
        now = max(now, time)
        onFrame?(time)
        runAnimations(at: time)
        layoutIfNeeded()
        // Work finished on other threads (tiles) joins this frame.
        if receiveBackgroundWork() { layoutIfNeeded() }
        var damage = Region()
        let full = Rect(origin: .zero, size: bounds.size)
        try walk { view, state, covered in
            try view.displayIfNeeded(scale: scale)
            let snapshot = CompositeSnapshot(view: view, state: state)
            let old = view.lastComposite
            view.lastComposite = snapshot
            guard !covered, old != snapshot else { return covered }
            if let old, old.onlyBoundsOriginMoved(to: snapshot), view.clipsToBounds {
                // A clipping view scrolled: everything that moved is inside its visible rect.
                if let v = snapshot.visible { damage.add(v) }
                return true
            }
            if let v = old?.visible { damage.add(v) }
            if let v = snapshot.visible { damage.add(v) }
            return false
        }
        // Views that left or became invisible (also during the walk just done) damage what they
        // showed: taken now, so this frame repaints them rather than a frame that may never come.
        damage.add(pendingDamage)
        pendingDamage.removeAll()
        onFramePrepared?(time)
        if forceFullDamage {
            forceFullDamage = false
            return Region(full)
        }
        return damage.clipped(to: full)
    }

    /// Composites the tree into `canvas` (whose scale should be `scale`), repainting only
    /// `region` (window logical coordinates; nil repaints everything).
    public func composite(into canvas: Canvas, region: Region? = nil) {
        let full = Rect(origin: .zero, size: bounds.size)
        let area = region ?? Region(full)
        guard !area.isEmpty else { return }
        let limit = area.bounds
        canvas.withClip(area.rects) {
            canvas.fill(full, color: clearColor, blend: .copy)
            try? walk { view, state, _ in
                guard let visible = state.visible, visible.intersects(limit) else {
                    // Nothing of it shows here; its subviews may, unless it clips them.
                    return false
                }
                let rect = state.screenRect.rounded(toScale: canvas.scale)
                if let bg = view.backgroundColor, bg.alpha > 0 {
                    canvas.fill(rect.intersection(state.clip) ?? .zero, color: bg.withAlpha(bg.alpha * state.alpha))
                }
                if let image = view.backingImage {
                    canvas.draw(image, in: rect, alpha: state.alpha, clip: state.clip)
                }
                return false
            }
        }
    }

    /// prepareFrame + composite of the damage: one frame into `canvas`. Returns the damage.
    @discardableResult
    public func render(into canvas: Canvas, time: Double = 0) throws -> Region {
        let damage = try prepareFrame(time: time)
        composite(into: canvas, region: damage)
        return damage
    }

    /// Visits every shown view in painting order (back to front) with its on-screen state.
    /// `visit` returns whether the subtree's damage is already covered.
    private func walk(_ visit: (View, ViewState, Bool) throws -> Bool) throws {
        let rootClip = Rect(origin: .zero, size: bounds.size)
        func recurse(_ view: View, _ toWindow: AffineTransform, _ clip: Rect, _ alpha: Double, _ covered: Bool) throws {
            guard !view.isHidden, view.alpha > 0 else {
                // Hidden now: what it showed is damaged through its snapshot going away.
                try markHidden(view)
                return
            }
            let screen = toWindow.apply(to: view.bounds)
            let a = alpha * view.alpha
            let visible = screen.intersection(clip)
            let state = ViewState(
                toWindow: toWindow, screenRect: screen, clip: clip, visible: visible, alpha: a)
            let subCovered = try visit(view, state, covered)
            let childClip = view.clipsToBounds ? (visible ?? .zero) : clip
            if view.clipsToBounds && visible == nil {
                for sub in view.subviews { try markHidden(sub) }
                return
            }
            for sub in view.subviews {
                try recurse(sub, sub.toSuperview.concatenating(toWindow), childClip, a, subCovered)
            }
        }
        func markHidden(_ view: View) throws {
            if let shown = view.lastComposite?.visible { pendingDamage.add(shown) }
            view.lastComposite = nil
            for sub in view.subviews { try markHidden(sub) }
        }
        try recurse(self, AffineTransform(translationX: -bounds.minX, y: -bounds.minY), rootClip, 1, false)
    }
}

/// Where a view lands in the window during one walk.
struct ViewState {
    var toWindow: AffineTransform
    /// The view's bounds in window coordinates.
    var screenRect: Rect
    /// The clip its ancestors impose.
    var clip: Rect
    /// screenRect ∩ clip, nil when nothing shows.
    var visible: Rect?
    var alpha: Double
}

/// What a view put on screen last frame; a view whose snapshot changed is damaged.
struct CompositeSnapshot: Equatable {
    var screenRect: Rect
    var visible: Rect?
    var alpha: Double
    var background: Color?
    var contentVersion: Int
    var boundsOrigin: Point

    init(view: View, state: ViewState) {
        screenRect = state.screenRect
        visible = state.visible
        alpha = state.alpha
        background = view.backgroundColor
        contentVersion = view.contentVersion
        boundsOrigin = view.bounds.origin
    }

    /// True when the only difference is the view's own bounds origin (it scrolled).
    func onlyBoundsOriginMoved(to new: CompositeSnapshot) -> Bool {
        var same = new
        same.boundsOrigin = boundsOrigin
        return same == self && new.boundsOrigin != boundsOrigin
    }
}
