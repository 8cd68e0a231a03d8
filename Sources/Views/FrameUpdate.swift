import ScrollwayGeometry

/// What one frame changed on screen, in the form a present path can reuse: pixels that moved
/// rigidly (a scroll), then the pixels to composite again.
///
/// The seeds' model makes a scroll a move of a bounds origin: every subview of the scroll view
/// lands `frame.origin − bounds.origin` further, drawn from the same cached image. When that
/// move is a whole number of device pixels, the scroll view's whole visible rect is last
/// frame's pixels shifted, except for what the scroll newly exposes and what did not move with
/// the content (indicators, pinned headers, overlays). A buffer that holds last frame's pixels
/// becomes this frame's by applying `move` and then compositing `damage`; the cost is then in
/// proportion to what the scroll exposes, not to the window.
public struct FrameUpdate: Equatable, Sendable {
    /// Pixels inside `rect` (device pixels of the window) moved by (`dx`, `dy`) device pixels:
    /// the new pixel at p is the old one at p − (dx, dy). What moved out of `rect` is gone; what
    /// `rect` gained from outside itself is in the update's `damage`.
    public struct Move: Equatable, Sendable, CustomStringConvertible {
        public var rect: PixelRect
        public var dx: Int
        public var dy: Int

        public init(rect: PixelRect, dx: Int, dy: Int) {
            self.rect = rect
            self.dx = dx
            self.dy = dy
        }

        public var description: String { "move \(rect) by (\(dx), \(dy))" }

        /// The part of `rect` whose new pixels come from inside `rect`: `rect ∩ (rect + d)`.
        public var kept: PixelRect? { rect.intersection(rect.offsetBy(dx: dx, dy: dy)) }

        /// The part of `rect` the move uncovers: `rect − (rect + d)`.
        public var exposed: [PixelRect] {
            guard let kept else { return [rect] }
            return rect.subtracting(kept)
        }
    }

    public var move: Move?
    /// Device pixels to composite after the move.
    public var damage: PixelRegion

    public init(move: Move? = nil, damage: PixelRegion = PixelRegion()) {
        self.move = move
        self.damage = damage
    }

    /// Nothing changed.
    public var isEmpty: Bool { move == nil && damage.isEmpty }

    /// Every pixel that differs from the last frame: the moved rect and the damage.
    public var changed: PixelRegion {
        var r = PixelRegion(move?.rect)
        r.add(damage)
        return r
    }

    /// The update that takes a buffer from the frame before `updates.first` to the frame of
    /// `updates.last` in one step (a buffer that missed some frames): the moves add up and every
    /// earlier damage moves along with the later moves. nil when two of the moves are of
    /// different rects (then only the changed pixels, without moves, describe it).
    public static func combining(_ updates: [FrameUpdate]) -> FrameUpdate? {
        var acc = FrameUpdate()
        for u in updates {
            if let m = u.move {
                if let am = acc.move, am.rect != m.rect { return nil }
                acc.damage = acc.damage.moved(by: m)
                let dx = (acc.move?.dx ?? 0) + m.dx
                let dy = (acc.move?.dy ?? 0) + m.dy
                acc.move = Move(rect: m.rect, dx: dx, dy: dy)
            }
            acc.damage.add(u.damage)
        }
        if let m = acc.move {
            if m.dx == 0 && m.dy == 0 {
                acc.move = nil
            } else if m.kept == nil {
                // Moved further than the rect is large: nothing of it survives.
                acc.move = nil
                acc.damage.add(m.rect)
            }
        }
        return acc
    }

    /// The same pixels without a move: everything the move touched is damage.
    public var withoutMove: FrameUpdate { FrameUpdate(damage: changed) }
}

extension PixelRegion {
    /// Where these pixels are after `move`: the parts inside its rect move with it (and what
    /// leaves the rect is gone); the parts outside stay.
    func moved(by move: FrameUpdate.Move) -> PixelRegion {
        var out = PixelRegion()
        for r in rects {
            for outside in r.subtracting(move.rect) { out.add(outside) }
            if let inside = r.intersection(move.rect),
                let landed = inside.offsetBy(dx: move.dx, dy: move.dy).intersection(move.rect)
            {
                out.add(landed)
            }
        }
        return out
    }
}

/// Works out a frame's update during the window's walk, view by view in painting order.
///
/// A clipping view with an opaque background whose only change is its bounds origin, by whole
/// device pixels, becomes the frame's move; its subtree is then judged against the move (a view
/// that landed exactly where the move put its old pixels costs nothing); views painted after
/// it that overlap its rect had their pixels moved with it and are repainted. Anything else
/// that changed damages what it painted and what it paints (`CompositeSnapshot.painted`).
@MainActor
struct DamageTracker {
    let scale: Double
    let allowsMoves: Bool
    let full: PixelRect
    private(set) var damage = PixelRegion()
    private(set) var move: FrameUpdate.Move?
    /// The moved view while its subtree is being visited.
    private var movedView: ObjectIdentifier?
    /// The view just visited lies inside the moved view and landed exactly where the move put
    /// its pixels, having shown something before and showing something now.
    private(set) var landed = false

    init(scale: Double, allowsMoves: Bool, full: PixelRect) {
        self.scale = scale
        // Whole device pixels only shift exactly at an integer scale.
        self.allowsMoves = allowsMoves && scale == scale.rounded()
        self.full = full
    }

    private mutating func add(_ rect: Rect?) {
        guard let rect, let box = PixelRect(covering: rect, scale: scale), let r = box.intersection(full) else {
            return
        }
        damage.add(r)
    }

    /// Where `rect`'s old pixels went under the move (inside its rect), repainted.
    private mutating func addMoved(_ rect: Rect?, _ m: FrameUpdate.Move) {
        guard let rect, let box = PixelRect(covering: rect, scale: scale), let inside = box.intersection(m.rect),
            let landed = inside.offsetBy(dx: m.dx, dy: m.dy).intersection(m.rect)
        else { return }
        damage.add(landed)
    }

    /// Visits one view; returns whether its subtree's damage is already covered.
    mutating func visit(
        _ view: View, old: CompositeSnapshot?, new: CompositeSnapshot, state: ViewState, covered: Bool
    ) -> Bool {
        landed = false
        if let m = move {
            if movedView != nil {
                // Inside the moved view: compared with where the move put it.
                guard !covered else { return true }
                if let old, old.landed(movedBy: m, as: new) {
                    landed = old.visible != nil && new.visible != nil
                    return false
                }
                addMoved(old?.painted, m)
                add(new.painted)
                return view.clipsToBounds
            }
            // Painted after the moved view: its pixels over the rect moved too.
            addMoved(old?.painted, m)
            if let v = new.painted, let box = PixelRect(covering: v, scale: scale), let over = box.intersection(m.rect)
            {
                damage.add(over)
            }
        }
        guard !covered, old != new else { return covered }
        if let old, old.onlyBoundsOriginMoved(to: new), view.clipsToBounds {
            if move == nil, let m = eligibleMove(view, old: old, new: new, state: state) {
                move = m
                movedView = ObjectIdentifier(view)
                return false
            }
            // A clipping view scrolled: everything that moved is inside its visible rect.
            add(new.visible)
            return true
        }
        add(old?.painted)
        add(new.painted)
        return false
    }

    /// Whether the walk is inside the moved view's subtree.
    var insideMove: Bool { movedView != nil }

    /// After a view's subtree was visited.
    mutating func leave(_ view: View) {
        if movedView == ObjectIdentifier(view) { movedView = nil }
    }

    /// What views that left the window or hid showed (window logical coordinates): repainted
    /// where their pixels are now. Inside a move's rect that is only where the move took them:
    /// every pixel there moved, theirs included, and what the move brought to where they were
    /// is right (or is repainted for its own reasons). Repainting where they were as well cost a
    /// list flung faster than its margin a strip as tall as each row it recycled that was on
    /// screen the frame before: at 1920×1080, 18,000 pixels a frame on top of the exposed
    /// strip's 103,000, over a fling.
    mutating func addRemoved(_ region: Region) {
        for r in region.rects {
            guard let m = move else {
                add(r)
                continue
            }
            if let box = PixelRect(covering: r, scale: scale), let shown = box.intersection(full) {
                for outside in shown.subtracting(m.rect) { damage.add(outside) }
            }
            addMoved(r, m)
        }
    }

    /// The frame's update.
    func update() -> FrameUpdate {
        guard let m = move, m.dx != 0 || m.dy != 0 else { return FrameUpdate(damage: damage) }
        var d = damage
        for r in m.exposed { d.add(r) }
        return FrameUpdate(move: m, damage: d)
    }

    /// The move a scrolled view makes, if its pixels can be moved: it covers its rect with an
    /// opaque background and nothing of its own, sits untransformed on the pixel grid, and its
    /// snapped bounds origin moved by less than its size.
    private func eligibleMove(
        _ view: View, old: CompositeSnapshot, new: CompositeSnapshot, state: ViewState
    )
        -> FrameUpdate.Move?
    {
        guard allowsMoves, view.backingImage == nil, let bg = view.backgroundColor, bg.alpha >= 1, state.alpha >= 1,
            state.toWindow.a == 1, state.toWindow.d == 1, let visible = new.visible,
            let rect = PixelRect(covering: visible, scale: scale), rect == PixelRect(placing: visible, scale: scale),
            rect == rect.intersection(full)
        else { return nil }
        let dx = old.snappedOrigin.x - new.snappedOrigin.x
        let dy = old.snappedOrigin.y - new.snappedOrigin.y
        guard abs(dx) < rect.width, abs(dy) < rect.height else { return nil }
        return FrameUpdate.Move(rect: rect, dx: dx, dy: dy)
    }
}
