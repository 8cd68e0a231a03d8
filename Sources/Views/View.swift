import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayLayout
import ScrollwayRaster

/// A rectangle on screen that draws its own content once and is composited many times.
///
/// The seeds' model: `draw(in:)` fills the view's own backing image, in its own bounds
/// coordinates, and runs only after `setNeedsDisplay()` (or a size change). Composition places
/// that image at `frame.origin − superview.bounds.origin`. Moving a bounds origin, a frame or an
/// ancestor therefore never redraws content: a scroll view only moves its `bounds.origin`.
///
/// As in UIKit, `center`, `bounds` and `transform` are the truth and `frame` is derived from
/// them (`frame` = `transform` applied about `center` to the untransformed rect).
@MainActor
open class View {
    /// Unowned, not weak: a parent always outlives its link from a child (removal clears it, and
    /// a parent going away clears its children's in `deinit`). A weak reference gave every view
    /// with subviews (every list cell) a side table, which sends each retain and release of it
    /// down the runtime's slow path: a fifth of a scrolled frame's logic.
    public internal(set) unowned var superview: View?
    public internal(set) var subviews: [View] = []
    /// A name for traces and `--set` (a scene's outer scroll view is "main").
    public var name: String?

    // The geometry and state below are marked `@exclusivity(unchecked)`: every frame's two walks
    // of the tree read them for every view (some 2,000 reads a frame of a list fling at
    // 1920×1080, each a call into the runtime's access set when checked). They are plain values
    // (no references, nothing to free), only touched on the main actor, and none is handed out
    // `inout` across a call, so an overlapping access, the only thing the check catches, cannot
    // corrupt memory; `subviews` and `backingImage`, which hold references, keep the check.
    @exclusivity(unchecked) public var bounds: Rect {
        didSet {
            guard bounds != oldValue else { return }
            if bounds.size != oldValue.size {
                needsDisplay = drawsContent
                setNeedsLayout()
                if isInLayoutEngine { layoutEngineItemChanged() }
            }
            didChangeBounds(from: oldValue)
            invalidate()
        }
    }

    @exclusivity(unchecked) public var center: Point {
        didSet {
            guard center != oldValue else { return }
            invalidate()
            if isInLayoutEngine { layoutEngineItemChanged() }
            // Its distance from its superview's margins changed.
            if preservesSuperviewLayoutMargins { setNeedsLayout() }
        }
    }

    /// A scale-and-translate transform applied about `center` (used by zoom).
    @exclusivity(unchecked) public var transform: AffineTransform = .identity {
        didSet { if transform != oldValue { invalidate() } }
    }

    @exclusivity(unchecked) public var backgroundColor: Color? {
        didSet { if backgroundColor != oldValue { invalidate() } }
    }
    @exclusivity(unchecked) public var alpha: Double = 1 { didSet { if alpha != oldValue { invalidate() } } }
    @exclusivity(unchecked) public var isHidden = false {
        didSet {
            guard isHidden != oldValue else { return }
            invalidate()
            (superview as? StackView)?.arrangedSubviewVisibilityChanged(self)
        }
    }
    /// Subviews are clipped to this view's bounds (and hit-testing never leaves them anyway).
    @exclusivity(unchecked) public var clipsToBounds = false {
        didSet { if clipsToBounds != oldValue { invalidate() } }
    }
    /// A promise that the view's backing image fills its bounds with opaque pixels (UIKit's
    /// `isOpaque`). Where the image is drawn unscaled and fully opaque on screen, composition
    /// paints nothing beneath it and copies the image instead of blending it (the same pixels:
    /// an opaque pixel over anything is itself). A broken promise puts the image's translucent
    /// pixels on screen as they are.
    @exclusivity(unchecked) public var isOpaque = false
    public var isUserInteractionEnabled = true
    /// Keeps this view's frame equal to its superview's bounds rectangle (at origin 0,0) through
    /// every resize: the outer scroll view of a window, for example.
    public var fillsSuperview = false { didSet { if fillsSuperview { superview?.setNeedsLayout() } } }
    /// What subviews that fill this view leave free at the edges (a window's client-side title
    /// bar, for example).
    public var fillInsets: EdgeInsets = .zero { didSet { if fillInsets != oldValue { setNeedsLayout() } } }
    /// The gesture recognizers attached to this view, in the order added: each hears of the
    /// touches that land in the view or its subviews before the views do.
    public private(set) var gestureRecognizers: [GestureRecognizer] = []

    /// Attaches `recognizer` (taking it from the view it was on, if any).
    public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
        if let old = recognizer.view { old.removeGestureRecognizer(recognizer) }
        recognizer.view = self
        gestureRecognizers.append(recognizer)
    }

    /// Detaches `recognizer`: a gesture it was following stops (cancelled if it had begun).
    public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        guard let i = gestureRecognizers.firstIndex(where: { $0 === recognizer }) else { return }
        window?.abandon(recognizer)
        gestureRecognizers.remove(at: i)
        recognizer.view = nil
    }

    /// Whether `recognizer` may begin with touches that landed on this view or inside it (UIKit's
    /// `UIView.gestureRecognizerShouldBegin(_:)`), asked as it would leave `.possible`, after its
    /// delegate: of the view each of its touches landed on and of the views above it up to the
    /// recognizer's own. A view keeps a gesture of its own from recognizers above it this way,
    /// as UIKit's slider stops a pan along its track that starts on its thumb, a scroll view's
    /// pan included. True by default.
    open func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { true }

    /// How many times `draw(in:)` ran: tests and benchmarks use it to prove that scrolling
    /// re-composites and never re-rasterizes.
    public private(set) var drawCount = 0
    /// Bumped each time the backing image is redrawn; composition damages the view when it moves.
    @exclusivity(unchecked) public private(set) var contentVersion = 0
    @exclusivity(unchecked) private(set) var needsDisplay = true
    @exclusivity(unchecked) private(set) var needsLayout = true
    /// A view below this one needs layout: `layoutIfNeeded` skips subtrees without it (a frame
    /// of a fling lays out the list, not each of its rows and their labels). Set on the way up by
    /// `setNeedsLayout`; every ancestor of a view with it, or with `needsLayout`, has it.
    @exclusivity(unchecked) private var descendantNeedsLayout = false
    /// The cached rasterized content (nil for views that only have a background).
    public private(set) var backingImage: Canvas?
    /// Where the backing image lies in the view's full-size image (device pixels at the image's
    /// scale, (0,0) at the bounds' top-left): all of it unless `drawnRect(scale:)` said less.
    @exclusivity(unchecked) public private(set) var backingImageArea: PixelRect?
    /// The bounds size and scale the backing image was last checked against.
    @exclusivity(unchecked) private var displayedFor: (size: Size, scale: Double)?
    /// What the last composite put on screen, for damage tracking (window coordinates).
    @exclusivity(unchecked) var lastComposite: CompositeSnapshot?
    /// How far (window logical coordinates) scroll moves have carried this view's subviews
    /// since their snapshots were taken: a frame that skips a subtree which moved exactly as
    /// its pixels did (a scrolled row) leaves its snapshots as they were and adds the move
    /// here. A view's true snapshot is its `lastComposite` moved by the drift of every view
    /// above it; the drift is handed down a level whenever the subtree is visited again.
    @exclusivity(unchecked) var compositeDrift = Point.zero
    /// Something in this view or below it changed since the frame last visited the subtree
    /// (set by `invalidate` on the way up; cleared as a frame starts visiting it).
    @exclusivity(unchecked) var subtreeChanged = true
    /// The walk forgot this subtree's snapshots (hidden, or clipped out) and has not visited the
    /// view since: the subtree holds no snapshot and no drift but this view's own (only a visit
    /// takes a snapshot, and a view moved in forgot its own), so the next frame need not walk
    /// it again (`Window.forgetUnvisited`).
    @exclusivity(unchecked) var snapshotsForgotten = false

    // Constraint layout (View+Layout.swift).
    /// Whether this view's frame is set by hand (true, the default for a view made in code:
    /// constraints may refer to it and layout treats its frame as fixed) or by constraints
    /// (false: the engine sets the frame, and the intrinsic content size takes part).
    open var translatesAutoresizingMaskIntoConstraints = true {
        didSet { if translatesAutoresizingMaskIntoConstraints != oldValue { layoutEngineItemChanged() } }
    }
    /// The constraints installed on this view (it is their items' nearest common ancestor).
    public internal(set) var installedConstraints: [LayoutConstraint] = []
    /// The layout guides added to this view.
    public internal(set) var layoutGuides: [LayoutGuide] = []
    /// The engine of this view's last `systemLayoutSizeFitting`, kept for the next.
    var fittingEngine: FittingEngine?
    /// Whether the window's layout engine holds variables for this view (so a frame change
    /// set by hand, or a new intrinsic size, must reach it).
    @exclusivity(unchecked) var isInLayoutEngine = false
    /// How strongly the view resists growing past (hugging) or shrinking below (compression
    /// resistance) its intrinsic size, per axis: UIKit's defaults 250 and 750.
    var huggingPriorities = (horizontal: LayoutPriority.defaultLow, vertical: LayoutPriority.defaultLow)
    var compressionPriorities = (horizontal: LayoutPriority.defaultHigh, vertical: LayoutPriority.defaultHigh)
    /// The width the layout engine last solved for a view whose intrinsic height depends on its
    /// width (a wrapping label): its intrinsic size is measured at it.
    public internal(set) var layoutWidthForIntrinsicSize: Double?

    public init(frame: Rect = .zero) {
        bounds = Rect(origin: .zero, size: frame.size)
        center = frame.center
    }

    /// Subviews that outlive this view (held elsewhere) no longer name it as their superview.
    isolated deinit {
        for sub in subviews { sub.superview = nil }
    }

    // MARK: Frame

    /// The untransformed rect in the superview's bounds coordinates.
    var untransformedFrame: Rect {
        Rect(
            x: center.x - bounds.width / 2, y: center.y - bounds.height / 2, width: bounds.width, height: bounds.height)
    }

    /// The view's rect in its superview's bounds coordinates (transform included). Setting it
    /// sets `center` and `bounds.size` (divided by the transform's scale).
    public var frame: Rect {
        get { transform.isIdentity ? untransformedFrame : transform.about(center).apply(to: untransformedFrame) }
        set {
            center = newValue.center
            let sx = transform.a == 0 ? 1 : abs(transform.a)
            let sy = transform.d == 0 ? 1 : abs(transform.d)
            bounds.size = Size(width: newValue.width / sx, height: newValue.height / sy)
        }
    }

    /// Hook for subclasses (a scroll view turns a bounds-origin change into `didScroll`).
    open func didChangeBounds(from old: Rect) {}

    // MARK: Drawing

    /// Device pixels per logical pixel of this view's backing image (CALayer.contentsScale's
    /// role); nil uses the window's scale. A tile drawn for a zoom level sets it to the level.
    @exclusivity(unchecked) public var contentsScale: Double? {
        didSet { if contentsScale != oldValue { setNeedsDisplay() } }
    }

    /// Whether this view draws content of its own. Subclasses that override `draw(in:)` return
    /// true; plain views only composite their background and need no backing image.
    open var drawsContent: Bool { false }

    /// Draws the view's content into `canvas`, whose coordinates are the view's bounds
    /// coordinates with (0,0) at the bounds' top-left corner, moved by `drawnRect`'s origin
    /// when it names one. Runs only when needed.
    open func draw(in canvas: Canvas) {}

    /// The part of the bounds `draw(in:)` paints at `scale` ((0,0) at the bounds' top-left),
    /// nil for all of it. A view whose content is smaller than its bounds (a label's text in a
    /// row-wide frame) names it, and its backing image is only that large, widened to whole
    /// device pixels: less memory to fill, clear and blend. `draw(in:)` then gets a canvas whose
    /// (0,0) is that rect's top-left corner (on the device grid).
    open func drawnRect(scale: Double) -> Rect? { nil }

    /// Marks the content as changed: `draw(in:)` runs before the next frame.
    public func setNeedsDisplay() {
        guard drawsContent else { return }
        needsDisplay = true
        invalidate()
    }

    /// Installs `image`, drawn elsewhere (a tile drawn on a worker thread), as the backing image
    /// without calling `draw(in:)`: CALayer.contents' role. The image should be the size
    /// `displayIfNeeded` expects (bounds × `contentsScale`), or the next frame draws over it.
    public func setContents(_ image: Canvas) {
        backingImage = image
        backingImageArea = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        displayedFor = nil
        needsDisplay = false
        contentVersion += 1
        invalidate()
    }

    /// Takes the backing image away (`setContents` undone): for an owner that reuses the
    /// image's memory once the view is gone (a tiled view's evicted tile).
    package func takeContents() -> Canvas? {
        let image = backingImage
        backingImage = nil
        backingImageArea = nil
        displayedFor = nil
        contentVersion += 1
        invalidate()
        return image
    }

    /// Lets the backing image go; it is drawn again (`draw(in:)`) when the view is next shown.
    /// For a view whose picture is large and far from sight (a pager's other pages): the cache
    /// keeps every picture a view drew, in sight or not, so that scrolling back costs nothing.
    public func discardContents() {
        guard backingImage != nil else { return }
        backingImage = nil
        backingImageArea = nil
        displayedFor = nil
        needsDisplay = drawsContent
        contentVersion += 1
        invalidate()
    }

    /// Redraws the backing image if needed, at `scale`. Returns true when it drew.
    @discardableResult
    func displayIfNeeded(scale windowScale: Double) throws -> Bool {
        let scale = contentsScale ?? windowScale
        guard drawsContent else {
            backingImage = nil
            return false
        }
        // Every frame visits every view: one comparison settles the usual case.
        if !needsDisplay, let d = displayedFor, d.size == bounds.size, d.scale == scale { return false }
        defer { displayedFor = (bounds.size, scale) }
        let whole = PixelRect(
            x: 0, y: 0, width: PixelRect.clamp((bounds.width * scale).rounded(.up)),
            height: PixelRect.clamp((bounds.height * scale).rounded(.up)))
        var area: PixelRect? = whole
        if let drawn = drawnRect(scale: scale) {
            area = PixelRect(covering: drawn, scale: scale).flatMap { $0.intersection(whole) }
        }
        let sizeChanged =
            backingImage.map { $0.scale != scale || backingImageArea != area } ?? true
        guard needsDisplay || sizeChanged else { return false }
        needsDisplay = false
        if let image = backingImage, image.scale == scale, let old = backingImageArea, let area,
            old.width == area.width, old.height == area.height, contentsOnlyMoved(scale: scale)
        {
            // The same pixels somewhere else in the bounds: placed anew, not drawn again.
            if old != area {
                backingImageArea = area
                contentVersion += 1
            }
            return false
        }
        guard let area, !area.isEmpty else {
            backingImage = nil
            backingImageArea = nil
            return false
        }
        let canvas = try Canvas(width: area.width, height: area.height, scale: scale)
        backingImageArea = area
        draw(in: canvas)
        backingImage = canvas
        drawCount += 1
        contentVersion += 1
        return true
    }

    /// Whether what `draw(in:)` would draw now, at `scale`, is the backing image as last drawn,
    /// only placed elsewhere in the bounds (`drawnRect` moved by whole device pixels and its
    /// size kept): then `displayIfNeeded` moves the image instead of drawing it again. A scroll
    /// indicator's thumb, which moves every frame of a fling and keeps its length, says so;
    /// the default is false (draw again).
    open func contentsOnlyMoved(scale: Double) -> Bool { false }

    /// Where the canvas `draw(in:)` draws into starts in bounds coordinates ((0,0) unless
    /// `drawnRect` named a part): what a view that names one subtracts from its coordinates.
    public func backingOrigin(scale: Double) -> Point {
        guard let area = backingImageArea else { return .zero }
        return Point(x: Double(area.x0) / scale, y: Double(area.y0) / scale)
    }

    /// Where the backing image goes when the whole bounds land on `placed` (window logical
    /// coordinates): `placed` for a full-size image; for a part, the part of `placed` it covers,
    /// mapped as the full-size image would be.
    /// Whether the backing image, whole and unscaled, covers `placed` (window logical
    /// coordinates on the device grid at `scale`) with the opaque pixels `isOpaque` promises.
    func opaqueImageCovers(_ placed: Rect, scale: Double) -> Bool {
        guard isOpaque, let image = backingImage, let area = backingImageArea else { return false }
        return area.x0 == 0 && area.y0 == 0 && area.width == image.width && area.height == image.height
            && Double(image.width) == placed.width * scale && Double(image.height) == placed.height * scale
    }

    func imageDestination(in placed: Rect) -> Rect {
        guard let image = backingImage, let area = backingImageArea else { return placed }
        let fullWidth = PixelRect.clamp((bounds.width * image.scale).rounded(.up))
        let fullHeight = PixelRect.clamp((bounds.height * image.scale).rounded(.up))
        if area == PixelRect(x: 0, y: 0, width: fullWidth, height: fullHeight) || fullWidth <= 0 || fullHeight <= 0 {
            return placed
        }
        // Logical width of one image pixel on screen, as the full-size image would be drawn.
        let kx = placed.width / Double(fullWidth)
        let ky = placed.height / Double(fullHeight)
        return Rect(
            x: placed.minX + Double(area.x0) * kx, y: placed.minY + Double(area.y0) * ky,
            width: Double(area.width) * kx, height: Double(area.height) * ky)
    }

    // MARK: Layout

    public func setNeedsLayout() {
        needsLayout = true
        var v = superview
        while let p = v, !p.descendantNeedsLayout {
            p.descendantNeedsLayout = true
            v = p.superview
        }
        invalidate()
    }

    /// Lays out this view's subviews now if needed, then theirs; in a window that uses
    /// constraints, solves them first and lays out the whole window (a frame a constraint sets
    /// may be anywhere in it), as UIKit's engine does.
    public func layoutIfNeeded() {
        guard let window, !(window.layoutEngineIfCreated?.isLayingOut ?? false) else {
            layoutSubtreeIfNeeded()
            return
        }
        // Views laid out by hand may add the window's first constraints (a cell joining).
        if window.layoutEngineIfCreated == nil { layoutSubtreeIfNeeded() }
        if let engine = window.layoutEngineIfCreated, engine.isInUse || engine.needsSolve {
            engine.layOut(window)
        } else {
            // An engine whose constraints have all gone: the views' own layout alone.
            layoutSubtreeIfNeeded()
        }
    }

    /// Lays out this view's subviews now if needed, then theirs (no constraints solved).
    func layoutSubtreeIfNeeded() {
        guard needsLayout || descendantNeedsLayout else { return }
        descendantNeedsLayout = false
        if needsLayout {
            // A moved or resized view, or one whose superview's size or margins changed, may
            // inherit other margins: its guide takes them before constraints are solved, and
            // its own layout below sees them.
            if preservesSuperviewLayoutMargins { updatePreservedMargins() }
            needsLayout = false
            let fill = Rect(origin: .zero, size: bounds.size).inset(by: fillInsets)
            for v in subviews where v.fillsSuperview && v.frame != fill { v.frame = fill }
            for v in subviews where v.preservesSuperviewLayoutMargins { v.updatePreservedMargins() }
            layoutSubviews()
        }
        for v in subviews { v.layoutSubtreeIfNeeded() }
    }

    /// Positions subviews. Called before a frame when `setNeedsLayout` was called or the bounds
    /// size changed.
    open func layoutSubviews() {}

    /// Makes the constraints a view keeps for itself, if a change left them to be made (a
    /// stack view's arrangement: UIKit's `updateConstraints`), before they are read or solved
    /// without a layout pass. A layout pass makes them in `layoutSubviews`.
    func updateOwnConstraintsIfNeeded() {}

    /// The size the view's content needs, for constraint layout (UIKit's
    /// `intrinsicContentSize`): `noIntrinsicMetric` on an axis the content does not size
    /// (both, by default). Only a view whose `translatesAutoresizingMaskIntoConstraints` is
    /// false uses it; call `invalidateIntrinsicContentSize()` when it changes.
    open var intrinsicContentSize: Size { Size(width: View.noIntrinsicMetric, height: View.noIntrinsicMetric) }

    /// Whether `intrinsicContentSize` depends on the width layout gives the view (wrapping
    /// text): layout then measures it again at each width it solves
    /// (`layoutWidthForIntrinsicSize`) until the two agree.
    open var intrinsicContentSizeDependsOnWidth: Bool { false }

    /// Where this view's first and last baselines stand when it is `width` wide: what its
    /// `firstBaselineAnchor` and `lastBaselineAnchor` name (UIKit's baseline offsets). The
    /// bottom edge by default, as for any UIKit view without text; a view that draws text says
    /// where its lines' baselines are as it draws them at that width. Layout asks again at each
    /// width it solves (a wrapping label's last line moves with it); call
    /// `invalidateIntrinsicContentSize()` when they move otherwise (a new text or font).
    open func baselines(forWidth width: Double) -> Baselines { .bottom }

    /// Called after layout moved or resized one of this view's layout guides (`layoutFrame`):
    /// a scroll view takes its content size from its content guide. Nothing by default.
    open func layoutGuidesDidChange() {}

    /// The size this view would like within `size` (its current size by default).
    open func sizeThatFits(_ size: Size) -> Size { bounds.size }

    /// Resizes the view to `sizeThatFits` of its current size, keeping its origin.
    public func sizeToFit() {
        let s = sizeThatFits(Size(width: Double.greatestFiniteMagnitude, height: Double.greatestFiniteMagnitude))
        frame = Rect(origin: frame.origin, size: s)
    }

    // MARK: Change propagation

    /// Called on this view and every view below it just before it leaves its window (removed
    /// from the tree, or added to another window; not when it only moves within its window): a
    /// view can drop work it does only while on screen. Nothing by default.
    open func willLeaveWindow() {}
    /// Called on each view of a subtree that has just joined a window (added to one, from no
    /// window or another), after it is in place (UIKit's `didMoveToWindow`).
    open func didMoveToWindow() {}

    /// Called on every view of a window's tree when the window's scale changes (a view that
    /// picks a resolution from it, like a tiled view, follows at once). Nothing by default.
    open func windowScaleDidChange() {}

    /// Tells the window that the next frame must look at this view.
    func invalidate() {
        // Up to the root, marking the way: a frame may skip a subtree none of whose views
        // changed (`subtreeChanged`).
        var root = self
        root.subtreeChanged = true
        while let parent = root.superview {
            parent.subtreeChanged = true
            root = parent
        }
        (root as? Window)?.setNeedsFrame()
    }

    /// The window this view is in, if any: the root of its tree, when that is a window (a
    /// window is always a root). Asked of the root alone: a type check at every level of every
    /// invalidation cost more than the walk.
    public var window: Window? {
        var root = self
        while let parent = root.superview { root = parent }
        return root as? Window
    }

    // MARK: Hit-testing

    /// Whether `point` (bounds coordinates) is inside the view. Subclasses may widen it.
    open func point(inside point: Point) -> Bool { bounds.contains(point) }

    /// The deepest visible, interactive view containing `point` (in this view's bounds
    /// coordinates), front-most first. As in UIKit, a point outside a view's bounds never
    /// reaches its subviews, and hidden, alpha-0 or non-interactive views are skipped.
    open func hitTest(_ point: Point) -> View? {
        guard !isHidden, alpha > 0.01, isUserInteractionEnabled, self.point(inside: point) else { return nil }
        for sub in subviews.reversed() {
            guard let inverse = sub.toSuperview.inverted else { continue }
            if let hit = sub.hitTest(inverse.apply(to: point)) { return hit }
        }
        return self
    }

    // MARK: Touches (the gesture layer delivers these after arbitration)

    open func touchesBegan(_ touches: [Touch]) {}
    open func touchesMoved(_ touches: [Touch]) {}
    open func touchesEnded(_ touches: [Touch]) {}
    open func touchesCancelled(_ touches: [Touch]) {}

    // MARK: Input (the roles some views take in routing are protocols: InputRoles.swift)

    /// Axis, pinch, hold, key and text events, offered innermost view first. Return true when
    /// handled.
    open func handleInput(_ event: InputEvent) -> Bool { false }

    // MARK: Focus

    /// Whether Tab stops here (UIView's `canBecomeFocused`): false for a plain view, true for
    /// text fields, text views and buttons (their initializers set it). An app sets it to take
    /// a view out of the keyboard's path, or to put one in. It lives on every view, not only on
    /// controls, because some focusable views are scroll views (a text view) and list rows.
    public var canBecomeFocused = false

    /// Takes the keyboard focus (`byTouch` tells an on-screen keyboard whether a touch did it).
    open func becomeFocused(byTouch: Bool = false) {
        window?.focus(self, byTouch: byTouch)
    }

    /// Called when `directionalLayoutMargins` (or `layoutMargins`) changed: a view that lays
    /// out its subviews by hand within its margins does so again.
    open func layoutMarginsDidChange() { setNeedsLayout() }

    /// Called when this view gains or loses the keyboard focus (after `isFocused` changed; it
    /// is also redrawn): a view whose focus shows in subviews (a ring, a caret) updates them.
    open func focusDidChange() {}

    /// The room this view's content keeps from its edges, by leading and trailing (UIKit's
    /// `directionalLayoutMargins`, 8 on every side by default): `layoutMarginsGuide` stands
    /// that far inside the view, and constraints to it follow a change.
    public var directionalLayoutMargins = DirectionalEdgeInsets(top: 8, leading: 8, bottom: 8, trailing: 8) {
        didSet { if directionalLayoutMargins != oldValue { marginsChanged() } }
    }
    /// The margins' guide and the four constraints that hold it inside the view, made when the
    /// guide is first asked for (most views never are).
    var marginsGuide: (guide: LayoutGuide, edges: [LayoutConstraint])?
    /// The readable content guide, made when first asked for.
    var readableGuide: LayoutGuide?
    /// Whether the view's margins grow to keep its content inside its superview's margins
    /// where its edges come within them (UIKit's name; false by default): a panel flush with a
    /// card's edge then lines its content up with the card's. `effectiveLayoutMargins` is what
    /// results; `layoutMarginsGuide` stands inside it.
    @exclusivity(unchecked) public var preservesSuperviewLayoutMargins = false {
        didSet { if preservesSuperviewLayoutMargins != oldValue { updatePreservedMargins() } }
    }
    /// The effective margins the view was last told of, while it preserves its superview's:
    /// a layout pass that finds them moved tells it again (`updatePreservedMargins`).
    var preservedMargins: DirectionalEdgeInsets?

    /// Whether this view's content flips in a right-to-left layout (UIKit's name): its
    /// subviews' leading and trailing anchors follow it (`effectiveUserInterfaceLayoutDirection`).
    public var semanticContentAttribute = SemanticContentAttribute.unspecified {
        didSet {
            guard semanticContentAttribute != oldValue else { return }
            window?.layoutEngineIfCreated?.directionChanged()
            notifyLayoutDirectionChanged()
        }
    }

    /// Called when `effectiveUserInterfaceLayoutDirection` may have changed (the window's
    /// direction, or a `semanticContentAttribute` here or above, was set; UIKit tells it
    /// through `traitCollectionDidChange`): a view that lays out by hand in its direction
    /// does so again. The default asks for layout.
    open func layoutDirectionDidChange() { setNeedsLayout() }

    /// Tells this view and every view under it that the direction may have changed.
    func notifyLayoutDirectionChanged() {
        layoutDirectionDidChange()
        // Margins inherited by left and right are leading and trailing the other way round.
        if preservesSuperviewLayoutMargins { setNeedsLayout() }
        for v in subviews { v.notifyLayoutDirectionChanged() }
    }

    // MARK: Accessibility

    /// Whether assistive technology (a screen reader) presents this view as one element, its
    /// subviews part of it (UIKit's name); nil: the class decides (`accessibilityDefaults`).
    public var isAccessibilityElement: Bool?
    /// Whether assistive technology passes over this view and all it holds (UIKit's name), as
    /// it does a hidden one: a list's row on its way out while it fades.
    public var accessibilityElementsHidden = false
    /// What a screen reader says for the view; nil: the class's (a label's text, a button's
    /// title). A picture with no text needs one.
    public var accessibilityLabel: String? {
        didSet { if accessibilityLabel != oldValue { window?.postAccessibilityNotification(.labelChanged(self)) } }
    }
    /// What the view does, said after its label ("Opens the photo").
    public var accessibilityHint: String?
    /// What kind of thing it is; nil: the class's.
    public var accessibilityRole: AccessibilityRole?

    /// The class's answers where the properties above are nil. A plain view is a group, not an
    /// element, and unnamed: it is left out and its subviews stand in its place.
    open var accessibilityDefaults: AccessibilityDefaults { AccessibilityDefaults(role: .group) }

    /// Does what activating the element does (a button fires, a row is selected); false when
    /// it has no such action.
    open func accessibilityActivate() -> Bool { false }

    /// Selects this element among its list's, as a reader's `SelectChild` asks: by default it
    /// takes the focus, as a list's row is selected by focusing it; false when it cannot. A
    /// row selected otherwise (a picker's, by turning its wheel) says so itself.
    open func accessibilitySelect() -> Bool {
        guard canBecomeFocused else { return false }
        becomeFocused()
        return isFocused
    }

    /// Deselects this element, as a reader's `DeselectChild` asks: by default it gives the
    /// focus up, which was its selection; false when it had not the focus. A row whose
    /// selection is not the focus (a picker's picked row: a wheel always has one) refuses.
    open func accessibilityDeselect() -> Bool {
        guard isFocused else { return false }
        resignFocus()
        return true
    }

    /// Whether this element is selected while it has the focus, as a list's row is (a reader
    /// is told of its selection as the focus moves); a picker's row is selected while picked,
    /// and says so itself.
    open var accessibilitySelectionFollowsFocus: Bool { true }

    /// The app's own actions offered beside the role's (a row's "Delete").
    public var accessibilityCustomActions: [AccessibilityCustomAction] = []

    /// States the class adds to those the tree works out (a refresh control's busy).
    open var accessibilityExtraStates: AccessibilityStates { [] }

    /// Whether a reader hears it as enabled (able to act): not inside a disabled control, and
    /// not a part its control has disabled (a segment).
    open var accessibilityIsEnabled: Bool { !Control.isDisabled(self) }

    /// Its place in its set, from 1, and the set's size (a list's row); nil: not in a set.
    open var accessibilityPosition: (index: Int, count: Int)? { nil }

    /// Its depth in an outline, from 1 for a top row (ARIA's `aria-level`, AT-SPI's `level`
    /// attribute); nil when it is in none.
    open var accessibilityLevel: Int? { nil }

    /// Opens (`expanded`) or closes an element that says it is `.expandable` (an outline's
    /// parent row), as its own control does; false when it cannot.
    open func accessibilitySetExpanded(_ expanded: Bool) -> Bool { false }

    /// Its value when it is adjustable (a slider's, a page control's page); nil: it has none.
    /// A class that gives one also steps it (`accessibilityIncrement()`) and sets it
    /// (`accessibilitySetValue(_:)`), as UIKit's `.adjustable` elements do.
    open var accessibilityValue: AccessibilityValue? { nil }

    /// Moves the value up a step, as a reader's "increment" (a swipe up in VoiceOver).
    open func accessibilityIncrement() {}

    /// Moves the value down a step.
    open func accessibilityDecrement() {}

    /// Sets the value to `value` as a reader asks (AT-SPI's `CurrentValue`), brought into
    /// range; false when the view has no value to set.
    open func accessibilitySetValue(_ value: Double) -> Bool { false }

    /// Moves the content by a page `direction` as assistive technology asks (UIKit's
    /// `accessibilityScroll`); false when nothing here scrolls that way. A view passes the
    /// request to its superview; a scroll view takes it.
    open func accessibilityScroll(_ direction: AccessibilityScrollDirection) -> Bool {
        superview?.accessibilityScroll(direction) ?? false
    }

    /// Where `child` (one of this view's elements) stands among them, as a reader counts them
    /// (`accessibilityChildren`'s order); -1 when it is not one. A view whose elements are many
    /// and change often (a list's rows) answers without making them all.
    open func accessibilityIndex(ofChild child: View, in window: Window) -> Int {
        accessibilityChildren(in: window).firstIndex { $0.view === child } ?? -1
    }

    /// The directions `accessibilityScroll` can move this view's content (a scroll view's by
    /// its axes), offered to assistive technology as actions.
    open var accessibilityScrollDirections: [AccessibilityScrollDirection] { [] }

    /// Scrolls the scroll views around this view so that `rect` (in this view's coordinates)
    /// is in sight, innermost first, as assistive technology asks (`ScrollTo`); false when no
    /// scroll view holds it. A scroll view moves itself and passes on.
    open func accessibilityScrollToVisible(_ rect: Rect) -> Bool {
        guard let superview else { return false }
        return superview.accessibilityScrollToVisible(convert(rect, to: superview))
    }
}

/// One finger (or the mouse's left button) as a view sees it: its id, its location in window
/// coordinates, and when.
public struct Touch: Hashable, Sendable {
    public enum Source: Hashable, Sendable { case finger, mouse }

    public var id: Int
    public var location: Point
    /// Seconds, on the platform's clock.
    public var timestamp: Double
    public var source: Source

    public init(id: Int, location: Point, timestamp: Double, source: Source = .finger) {
        self.id = id
        self.location = location
        self.timestamp = timestamp
        self.source = source
    }
}
