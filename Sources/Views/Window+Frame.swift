import ScrollwayGeometry
import ScrollwayRaster

/// One frame: animations, layout, rasterizing what needs it, working out what changed
/// (`FrameUpdate`), and compositing it.
extension Window {
    /// Runs animations for `time`, lays out, rasterizes views that need display, and returns
    /// the region (window logical coordinates) that differs from the last frame.
    @discardableResult
    public func prepareFrame(time: Double = 0) throws -> Region {
        try changedRegion(prepareFrameUpdate(time: time))
    }

    /// What `update` changed, in window logical coordinates.
    private func changedRegion(_ update: FrameUpdate) -> Region {
        var region = Region()
        for r in update.changed.rects { region.add(r.logical(scale: scale)) }
        return region
    }

    /// Runs animations for `time`, lays out, rasterizes views that need display, and returns
    /// how the frame differs from the last one: a scroll's moved pixels and the damage.
    public func prepareFrameUpdate(time: Double = 0) throws -> FrameUpdate {
        needsFrame = false
        preparingFrame = true
        defer {
            preparingFrame = false
            inboxRegistry.framesPrepared += 1
            // Running animations want the next frame, and views that asked for it
            // (`setNeedsFrameAfterThis`); nothing else does (what changed during this frame is
            // in it).
            lastFrameAskedForNext = wantsFrameAfterThis
            wantsFrameAfterThis = false
            if !animations.isEmpty || backgroundWorkWantsFrame || lastFrameAskedForNext { setNeedsFrame() }
        }
        now = max(now, time)
        notifyObservers { $0.window(self, willPrepareFrameAt: time) }
        let clock = phaseClock
        phases = FramePhases()
        let started = clock?() ?? 0
        runAnimations(at: time)
        let animated = clock?() ?? 0
        // Frames that animate or follow a touch are the ones a CPU quota must keep coming:
        // background work keeps to its busy share meanwhile (`BackgroundBudget`).
        if !animations.isEmpty || !touchRoutes.isEmpty { backgroundBudget?.noteActivity() }
        layoutIfNeeded()
        if showsFocusedAfterLayout {
            showsFocusedAfterLayout = false
            if let focused = focusedView {
                showFocused(focused)
                layoutIfNeeded()
            }
        }
        // Views that draw on demand ask for what they will show now, before the frame takes
        // what other threads finished (so a headless frame that waits for them waits for these).
        notifyObservers { $0.window(self, didLayOutFrameAt: time) }
        layoutIfNeeded()
        // Work finished on other threads (tiles) joins this frame.
        if receiveBackgroundWork() { layoutIfNeeded() }
        let scale = self.scale
        var tracker = DamageTracker(scale: scale, allowsMoves: detectsScrollMoves, full: pixelBounds)
        // A subtree that moved with a scroll exactly as its pixels did, and in which nothing
        // changed, is not visited (its pixels are right where the move put them): a fling's
        // rows each cost one visit, not one per label. Not across a change of scale (every
        // view draws again).
        let skipsLanded = lastWalkScale == scale
        lastWalkScale = scale
        let walking = clock?() ?? 0
        var drawing = 0.0
        try walk(
            { view, state, covered in
                if let clock {
                    // Every view is asked; the clock is read again only for one that drew.
                    let before = clock()
                    if try view.displayIfNeeded(scale: scale) { drawing += clock() - before }
                } else {
                    try view.displayIfNeeded(scale: scale)
                }
                let snapshot = CompositeSnapshot(view: view, state: state, scale: scale)
                let old = view.lastComposite
                view.lastComposite = snapshot
                return tracker.visit(view, old: old, new: snapshot, state: state, covered: covered)
            }, leave: { tracker.leave($0) }, tracksSubtrees: true,
            skips: { view in
                if skipsLanded, tracker.landed, !view.subtreeChanged, let m = tracker.move {
                    view.compositeDrift += Point(x: Double(m.dx) / scale, y: Double(m.dy) / scale)
                    return true
                }
                view.handDownCompositeDrift(scale: scale)
                return false
            },
            skipsBeforeVisit: { view, screen, clip, alpha, covered in
                // Inside the move, a subtree in which nothing changed is only placed anew: if it
                // landed, the visit's snapshot is its old one moved (and clipped anew), and the
                // visit itself (drawing, a snapshot taken whole, the tracker's comparison) is
                // not needed. A list's rows each cost this, not a visit, in a fling's frames.
                guard skipsLanded, tracker.insideMove, !covered, !view.subtreeChanged, let m = tracker.move
                else { return false }
                return view.landedWithoutVisit(screen: screen, clip: clip, alpha: alpha, move: m, scale: scale)
            })
        if let clock {
            let walked = clock()
            phases.animate = animated - started
            phases.layout = walking - animated
            phases.draw = drawing
            phases.damage = walked - walking - drawing
        }
        // Views that left or became invisible (also during the walk just done) damage what they
        // showed: taken now, so this frame repaints them rather than a frame that may never come.
        tracker.addRemoved(pendingDamage)
        pendingDamage.removeAll()
        notifyObservers { $0.window(self, didPrepareFrameAt: time) }
        if forceFullDamage {
            forceFullDamage = false
            return FrameUpdate(damage: PixelRegion(tracker.full))
        }
        return tracker.update()
    }

    /// The window's device pixels at its scale.
    public var pixelBounds: PixelRect {
        PixelRect(
            x: 0, y: 0, width: PixelRect.clamp((bounds.width * scale).rounded(.up)),
            height: PixelRect.clamp((bounds.height * scale).rounded(.up)))
    }

    /// Composites the tree into `canvas` (whose scale should be `scale`), repainting only
    /// `region` (window logical coordinates; nil repaints everything).
    public func composite(into canvas: Canvas, region: Region? = nil) {
        guard let region else {
            composite(into: canvas, pixels: PixelRegion(pixelBounds))
            return
        }
        var pixels = PixelRegion()
        for r in region.rects {
            if let box = PixelRect(covering: r, scale: canvas.scale), let b = box.intersection(pixelBounds) {
                pixels.add(b)
            }
        }
        composite(into: canvas, pixels: pixels)
    }

    /// Composites the tree into `canvas`, repainting only `area` (device pixels).
    public func composite(into canvas: Canvas, pixels area: PixelRegion) {
        guard !area.isEmpty else { return }
        paint(compositeWork(area, scale: canvas.scale), into: canvas)
    }

    /// `work`'s time into `phases[keyPath:]` when the phases are timed.
    private func timed<T>(_ phase: WritableKeyPath<FramePhases, Double>, _ work: () -> T) -> T {
        guard let clock = phaseClock else { return work() }
        let start = clock()
        defer { phases[keyPath: phase] += clock() - start }
        return work()
    }

    /// What compositing `area` (device pixels at `scale`, the canvas's) paints, worked out and
    /// not painted yet: each view's part of it, back to front, and what the clear colour fills.
    ///
    /// Nothing is painted under an opaque view (an opaque background, or an image `isOpaque`
    /// promises covers it): each view (and the clear colour) is clipped to what the opaque views
    /// painted after it leave free, so every pixel is filled once by the front-most opaque
    /// surface and only translucent content (text) blends over it.
    public func compositeWork(_ area: PixelRegion, scale s: Double) -> CompositeWork {
        guard !area.isEmpty else { return CompositeWork(items: [], clear: PixelRegion()) }
        return timed(\.plan) { planComposite(area, scale: s) }
    }

    private func planComposite(_ area: PixelRegion, scale s: Double) -> CompositeWork {
        var items: [CompositeWork.Item] = []
        walk(
            { view, state, _ in
                guard let visible = state.visible, let seen = PixelRect(covering: visible, scale: s),
                    area.intersects(seen)
                else {
                    // Nothing of it is repainted, nor of what it clips.
                    return view.clipsToBounds
                }
                let background = view.backgroundColor.flatMap { $0.alpha > 0 ? $0 : nil }
                guard background != nil || view.backingImage != nil else { return false }
                let rect = state.screenRect.rounded(toScale: s)
                guard let shown = rect.intersection(state.clip), let box = PixelRect(covering: shown, scale: s),
                    area.intersects(box)
                else { return false }
                let copiesImage = state.alpha >= 1 && view.opaqueImageCovers(rect, scale: s)
                let opaque = ((background?.alpha ?? 0) >= 1 || copiesImage) && state.alpha >= 1
                items.append(
                    CompositeWork.Item(
                        view: view, state: state, rect: rect, box: box, opaque: opaque, copiesImage: copiesImage,
                        clip: PixelRegion()))
                return false
            }, prunes: true)
        // Back to front, each item gets the part of the area no opaque item after it covers.
        var occluders: [PixelRect] = []
        for i in items.indices.reversed() {
            var clip = area.intersection(items[i].box)
            for o in occluders where clip.intersects(o) {
                clip = clip.subtracting(o)
                if clip.isEmpty { break }
            }
            items[i].clip = clip
            if items[i].opaque { occluders.append(items[i].box) }
        }
        var clear = area
        for o in occluders where clear.intersects(o) { clear = clear.subtracting(o) }
        return CompositeWork(items: items, clear: clear)
    }

    /// A buffer whose pixels are all stale (recentred in its ring: `ShmRing`) is brought to
    /// the newest frame either by copying `copied` from the buffer holding the frame before and
    /// compositing the rest of `window`, or by compositing all of `window` again. Returns the
    /// work to paint when compositing `copied` moves fewer bytes through memory than copying it
    /// (`CompositeWork.bytesMoved`, `Canvas.Traffic`), nil when the copy is cheaper.
    ///
    /// Why: a copy reads and writes every pixel, while a list's repaint is mostly opaque
    /// backgrounds that a buffer streaming its fills only writes, and small text images. Where
    /// images cover the window (the zoom scene's tiles) or fills read each line in (small
    /// windows) the copy is cheaper, and chosen (the measurements: docs/decisions.md).
    /// The composite is worked out only when `canvas` streams its fills: otherwise it can never
    /// move fewer bytes than the copy (a fill through pixman moves as many as a copy).
    public func repaintWork(insteadOf copied: PixelRegion, window: PixelRect, canvas: Canvas) -> CompositeWork? {
        guard canvas.streamsFills, !copied.isEmpty else { return nil }
        let work = compositeWork(PixelRegion(window), scale: canvas.scale)
        return work.bytesMoved(within: copied, into: canvas) < copied.area * Canvas.Traffic.copy ? work : nil
    }

    /// Paints `work` (worked out for this window's present state) into `canvas`.
    public func paint(_ work: CompositeWork, into canvas: Canvas) {
        timed(\.paint) { paintNow(work, into: canvas) }
    }

    private func paintNow(_ work: CompositeWork, into canvas: Canvas) {
        if !work.clear.isEmpty {
            canvas.withClip(pixels: work.clear.rects) {
                canvas.fill(Rect(origin: .zero, size: bounds.size), color: clearColor, blend: .copy)
            }
        }
        for item in work.items where !item.clip.isEmpty {
            canvas.withClip(pixels: item.clip.rects) {
                let view = item.view
                let state = item.state
                if let bg = view.backgroundColor, bg.alpha > 0 {
                    canvas.fill(
                        item.rect.intersection(state.clip) ?? .zero, color: bg.withAlpha(bg.alpha * state.alpha))
                }
                if let image = view.backingImage {
                    canvas.draw(
                        image, in: view.imageDestination(in: item.rect), alpha: state.alpha, clip: state.clip,
                        opaque: item.copiesImage)
                }
            }
        }
    }

    /// Applies `update` to `canvas`, which must hold the last frame: moves the scrolled pixels,
    /// then composites the damage.
    public func apply(_ update: FrameUpdate, to canvas: Canvas) {
        if let m = update.move { canvas.shift(m.rect, dx: m.dx, dy: m.dy) }
        composite(into: canvas, pixels: update.damage)
    }

    /// Brings `canvas` to the newest frame as `plan` says (`FrameHistory.plan`): its own pixels
    /// moved in place, or copied from `newest` (the buffer holding the frame before), then the
    /// composite. A move by offset is the platform's to make before this call (it changes where
    /// the canvas's memory starts); here only its damage is composited.
    public func present(_ plan: PresentPlan, into canvas: Canvas, newest: Canvas?) {
        switch plan {
        case .repaint(let r):
            composite(into: canvas, pixels: PixelRegion(r))
        case .own(let move, let byOffset, let damage):
            if let move, !byOffset { canvas.shift(move.rect, dx: move.dx, dy: move.dy) }
            composite(into: canvas, pixels: damage)
        case .copy(let unshifted, let shifted, let damage):
            guard let newest else { preconditionFailure("a copy plan needs the newest buffer") }
            for r in unshifted.rects { canvas.copyPixels(from: newest, to: r) }
            if let s = shifted { canvas.copyPixels(from: newest, to: s.rect, dx: s.dx, dy: s.dy) }
            composite(into: canvas, pixels: damage)
        case .ownAndCopy(let move, let byOffset, let unshifted, let shifted, let dx, let dy, let damage):
            guard let newest else { preconditionFailure("a copy plan needs the newest buffer") }
            if !byOffset { canvas.shift(move.rect, dx: move.dx, dy: move.dy) }
            for r in unshifted.rects { canvas.copyPixels(from: newest, to: r) }
            for r in shifted.rects { canvas.copyPixels(from: newest, to: r, dx: dx, dy: dy) }
            composite(into: canvas, pixels: damage)
        }
    }

    /// prepareFrame + applying the update: one frame into `canvas`, which holds the frame
    /// before (or is new: the first frame is whole). Returns the changed region.
    @discardableResult
    public func render(into canvas: Canvas, time: Double = 0) throws -> Region {
        let update = try prepareFrameUpdate(time: time)
        apply(update, to: canvas)
        return changedRegion(update)
    }

    /// Visits every shown view in painting order (back to front) with its on-screen state.
    /// `visit` returns whether the subtree's damage is already covered; `leave` follows a view's
    /// subtree.
    ///
    /// Bounds origins are snapped to the device pixel grid before they place subviews (a scroll
    /// at offset 10.4 draws its content 10 device pixels up at scale 1): content lands where
    /// whole pixels are, so the same content scrolled by whole pixels is the same pixels moved,
    /// and text never blurs between two rows. Offsets themselves (physics, delegates, traces)
    /// keep their exact values.
    /// `prunes`: a true from `visit` skips the view's subtree instead of passing "covered" on.
    /// `tracksSubtrees`: the walk keeps `subtreeChanged` (cleared as a subtree's visit starts,
    /// set again on it and every ancestor when not all of it was visited: a clipping view
    /// scrolled out of sight leaves its subviews undrawn, and a later frame that finds its
    /// ancestors landed must still visit it, or it comes back into sight without them), and
    /// asks `skips` after `visit` whether to leave the view's subtree unvisited, and
    /// `skipsBeforeVisit` (a subview, its rect on screen and clip, its parent's alpha, whether it
    /// is covered) whether to leave a subview unvisited altogether (without `tracksSubtrees`,
    /// neither is asked: a walk that skips must keep `subtreeChanged`).
    ///
    /// The closures are not optional: an optional closure is escaping, and state that an
    /// escaping closure captures (the damage tracker) is boxed on the heap and checked for
    /// exclusive access at run time on every use, in a walk that visits every view every frame.
    func walk(
        _ visit: (View, ViewState, Bool) throws -> Bool, leave: (View) -> Void = { _ in }, prunes: Bool = false,
        tracksSubtrees: Bool = false, skips: (View) -> Bool = { _ in false },
        skipsBeforeVisit: (View, Rect, Rect, Double, Bool) -> Bool = { _, _, _, _, _ in false }
    )
        rethrows
    {
        let rootClip = Rect(origin: .zero, size: bounds.size)
        let scale = self.scale
        /// Returns whether part of the view's subtree was left unvisited (with `tracksSubtrees`).
        @discardableResult
        func recurse(
            _ view: View, _ toWindow: AffineTransform, _ screen: Rect, _ clip: Rect, _ alpha: Double, _ covered: Bool
        ) throws -> Bool {
            guard !view.isHidden, view.alpha > 0 else {
                // Hidden now: what it showed is damaged through its snapshot going away (showing
                // it again invalidates it, which marks its ancestors).
                forgetUnvisited(view)
                return false
            }
            view.snapshotsForgotten = false
            let a = alpha * view.alpha
            let visible = screen.intersection(clip)
            let state = ViewState(
                toWindow: toWindow, screenRect: screen, clip: clip, visible: visible, alpha: a)
            let subCovered = try visit(view, state, covered)
            defer { leave(view) }
            if prunes && subCovered { return false }
            if tracksSubtrees {
                if skips(view) { return false }
                view.subtreeChanged = false
            }
            let childClip = view.clipsToBounds ? (visible ?? .zero) : clip
            if view.clipsToBounds && visible == nil {
                for sub in view.subviews { forgetUnvisited(sub) }
                guard tracksSubtrees else { return false }
                view.subtreeChanged = true  // its subviews were not visited
                return true
            }
            var childBase = toWindow
            if toWindow.a == 1, toWindow.d == 1, view.bounds.origin != .zero {
                let o = view.bounds.origin
                let snapped = o.rounded(toScale: scale)
                if snapped.isFinite, snapped != o {
                    childBase = AffineTransform(translationX: o.x - snapped.x, y: o.y - snapped.y)
                        .concatenating(toWindow)
                }
            }
            var unvisited = false
            for sub in view.subviews {
                // Its frame placed by its superview, not its bounds through its own transform:
                // `minY + (frameY − minY)` rounds differently at every offset, and a scrolled
                // view's rect must not change when only its bounds origin does.
                let screen = childBase.apply(to: sub.frame)
                if tracksSubtrees && skipsBeforeVisit(sub, screen, childClip, a, subCovered) { continue }
                if try recurse(sub, sub.toSuperview.concatenating(childBase), screen, childClip, a, subCovered) {
                    unvisited = true
                }
            }
            if unvisited { view.subtreeChanged = true }
            return unvisited
        }
        try recurse(
            self, AffineTransform(translationX: -bounds.minX, y: -bounds.minY), rootClip, rootClip, 1, false)
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

extension View {
    /// Whether this view, in whose subtree nothing changed, landed exactly where `move` put its
    /// old pixels, now at `screen` (window coordinates) under `clip` inside a parent of
    /// `parentAlpha`: if so, its snapshot becomes the one a visit would take (its old one
    /// placed anew) and the move is its subtree's drift, as a visit that found it landed and
    /// skipped its subtree leaves them. Only for a view that showed, and shows, something:
    /// anything else is visited.
    func landedWithoutVisit(
        screen: Rect, clip: Rect, alpha parentAlpha: Double, move m: FrameUpdate.Move, scale: Double
    ) -> Bool {
        guard !isHidden, let old = lastComposite, old.visible != nil, old.alpha == parentAlpha * alpha,
            old.contentVersion == contentVersion, old.background == backgroundColor, old.boundsOrigin == bounds.origin,
            let visible = screen.intersection(clip)
        else { return false }
        let placed = PixelRect(placing: screen, scale: scale)
        guard placed == old.placed.offsetBy(dx: m.dx, dy: m.dy) else { return false }
        lastComposite?.screenRect = screen
        lastComposite?.visible = visible
        lastComposite?.painted = CompositeSnapshot.painted(
            by: self, screen: screen, visible: visible, clip: clip, scale: scale)
        lastComposite?.placed = placed
        compositeDrift += Point(x: Double(m.dx) / scale, y: Double(m.dy) / scale)
        return true
    }

    /// Moves the subviews' snapshots by this view's drift and hands it down to them (their own
    /// subviews' snapshots are still where they were): the frame is about to visit them.
    func handDownCompositeDrift(scale: Double) {
        guard compositeDrift != .zero else { return }
        for sub in subviews {
            sub.lastComposite = sub.lastComposite?.moved(by: compositeDrift, scale: scale)
            sub.compositeDrift += compositeDrift
        }
        compositeDrift = .zero
    }
}

/// What a view put on screen last frame; a view whose snapshot changed is damaged.
struct CompositeSnapshot: Equatable {
    var screenRect: Rect
    var visible: Rect?
    var alpha: Double
    var background: Color?
    var contentVersion: Int
    var boundsOrigin: Point
    /// The device pixels its background and image are placed on (`screenRect` rounded).
    var placed: PixelRect
    /// Its bounds origin on the device pixel grid (what places its subviews).
    var snappedOrigin: (x: Int, y: Int)
    /// What of the window it paints itself (window logical coordinates): its visible rect when
    /// it has a background or subviews; for a leaf without a background, only where its
    /// backing image lands (a label's words, a scroll indicator's thumb), or nothing. A change
    /// damages this, before and after.
    var painted: Rect?

    @MainActor
    init(view: View, state: ViewState, scale: Double) {
        screenRect = state.screenRect
        visible = state.visible
        alpha = state.alpha
        background = view.backgroundColor
        contentVersion = view.contentVersion
        boundsOrigin = view.bounds.origin
        placed = PixelRect(placing: state.screenRect, scale: scale)
        snappedOrigin = (
            PixelRect.clamp((boundsOrigin.x * scale).rounded()), PixelRect.clamp((boundsOrigin.y * scale).rounded())
        )
        painted = Self.painted(
            by: view, screen: state.screenRect, visible: state.visible, clip: state.clip, scale: scale)
    }

    /// What `view` paints of the window at `screen` under `clip` (see `painted`).
    @MainActor
    static func painted(by view: View, screen: Rect, visible: Rect?, clip: Rect, scale: Double) -> Rect? {
        if !view.subviews.isEmpty || (view.backgroundColor?.alpha ?? 0) > 0 { return visible }
        guard view.backingImage != nil, visible != nil else { return nil }
        return view.imageDestination(in: screen.rounded(toScale: scale)).intersection(clip)
    }

    static func == (a: CompositeSnapshot, b: CompositeSnapshot) -> Bool {
        a.screenRect == b.screenRect && a.visible == b.visible && a.alpha == b.alpha && a.background == b.background
            && a.contentVersion == b.contentVersion && a.boundsOrigin == b.boundsOrigin
    }

    /// This snapshot carried by `drift` (window logical coordinates; whole device pixels at
    /// `scale`, as scroll moves are): where the view's pixels went when the frames that moved
    /// them skipped it.
    func moved(by drift: Point, scale: Double) -> CompositeSnapshot {
        var s = self
        s.screenRect = screenRect.offsetBy(dx: drift.x, dy: drift.y)
        s.visible = visible?.offsetBy(dx: drift.x, dy: drift.y)
        s.painted = painted?.offsetBy(dx: drift.x, dy: drift.y)
        s.placed = placed.offsetBy(
            dx: Int(clamping: drift.x * scale, rounding: .toNearestOrAwayFromZero),
            dy: Int(clamping: drift.y * scale, rounding: .toNearestOrAwayFromZero))
        return s
    }

    /// True when the only difference is the view's own bounds origin (it scrolled).
    func onlyBoundsOriginMoved(to new: CompositeSnapshot) -> Bool {
        var same = new
        same.boundsOrigin = boundsOrigin
        return same == self && new.boundsOrigin != boundsOrigin
    }

    /// Whether `new` paints exactly this snapshot's pixels moved by `move`: placed on the same
    /// pixels shifted, with the same content, background and alpha, and (for a view that
    /// scrolls its own subviews) the same snapped origin.
    func landed(movedBy move: FrameUpdate.Move, as new: CompositeSnapshot) -> Bool {
        new.placed == placed.offsetBy(dx: move.dx, dy: move.dy) && new.alpha == alpha && new.background == background
            && new.contentVersion == contentVersion && new.snappedOrigin == snappedOrigin
    }
}
