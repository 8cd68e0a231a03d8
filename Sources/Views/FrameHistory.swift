import ScrollwayGeometry

/// The recent frames' updates, and how to bring a buffer that holds an older frame up to the
/// newest one for the least pixel work.
///
/// A compositor keeps the buffer it shows (and may keep more), so a client cycles two or three
/// buffers and the one it draws into is usually a few frames old. Two ways bring it up to date:
/// - **its own pixels moved**: the missed frames' moves add up to one move of the same rect
///   (`FrameUpdate.combining`), done in place — a memmove, or nothing at all where the platform
///   moves the buffer's offset in its memory instead (then everything outside the moved rect is
///   repainted too) — and the missed damage is composited;
/// - **copied from the newest buffer**: what changed since it was drawn is copied over from the
///   newest buffer (which holds the frame before this one), this frame's move as a shifted
///   copy, and only this frame's damage is composited. Nothing this frame repaints is copied.
/// The plan with the fewest pixels of work wins (compositing counts double: it reads and blends
/// several layers, a copy reads one).
public struct FrameHistory: Sendable {
    /// How many frames back a buffer can be brought up to date (older ones are repainted).
    public let depth: Int
    public private(set) var frameNumber = 0
    private var updates: [Int: FrameUpdate] = [:]

    public init(depth: Int = 8) { self.depth = depth }

    /// Records the next frame's update and returns its number.
    public mutating func record(_ update: FrameUpdate) -> Int {
        frameNumber += 1
        updates[frameNumber] = update
        updates[frameNumber - depth] = nil
        return frameNumber
    }

    /// Forgets every frame (a resize, a new scale): buffers are repainted whole.
    public mutating func reset() { updates.removeAll() }

    /// How to make a buffer that holds frame `held` (nil: nothing valid) show the newest frame,
    /// given the buffer holding frame `newest` (nil when none other is valid) and the window's
    /// device pixels. `movesByOffset`: the platform can move this buffer's pixels for free by
    /// changing where the buffer starts in its memory (everything outside the moved rect is then
    /// lost and repainted).
    public func plan(held: Int?, newest: Int?, window: PixelRect, movesByOffset: Bool) -> PresentPlan {
        planAndCost(held: held, newest: newest, window: window, movesByOffset: movesByOffset).plan
    }

    /// `plan` and its cost in pixels (compositing counts double).
    private func planAndCost(
        held: Int?, newest: Int?, window: PixelRect, movesByOffset: Bool
    ) -> (plan: PresentPlan, cost: Int) {
        let n = frameNumber
        let repaint = (plan: PresentPlan.repaint(window), cost: 2 * window.area)
        guard let held, held <= n, n - held < depth, let current = updates[n] else { return repaint }
        var best: (cost: Int, plan: PresentPlan)?
        func consider(_ plan: PresentPlan, _ cost: Int) {
            if best == nil || cost < best!.cost { best = (cost, plan) }
        }
        // Its own pixels, moved.
        if held == n {
            // Already drawn (nothing to do but the update itself was applied): no work.
            return (.own(move: nil, byOffset: false, damage: PixelRegion()), 0)
        }
        let missed = ((held + 1)...n).compactMap { updates[$0] }
        if missed.count == n - held, let combined = FrameUpdate.combining(missed) {
            if let m = combined.move {
                // The plans that move by offset first: they usually win, and then the others
                // need not be worked out (each costs at least a lower bound checked below).
                var outside = combined.damage
                if movesByOffset {
                    for r in window.subtracting(m.rect) { outside.add(r) }
                    consider(.own(move: m, byOffset: true, damage: outside), 2 * outside.area)
                }
                // Moved, and what the older frames repainted copied from the newest buffer: a
                // buffer two frames old would otherwise composite two frames' exposed strips
                // (during a fast fling, a third of the window at 1080p); the older strip is
                // already in the newest buffer and costs one copy.
                let copiesOlder = newest.map { $0 == n - 1 && held < $0 } ?? false
                if copiesOlder && movesByOffset,
                    let mixed = Self.ownAndCopy(move: m, byOffset: true, wrong: outside, current: current)
                {
                    consider(mixed.plan, mixed.cost)
                }
                // In place with a memmove: the kept part is read and written once.
                let kept = m.kept?.area ?? 0
                if best.map({ $0.cost > kept }) ?? true {
                    consider(.own(move: m, byOffset: false, damage: combined.damage), kept + 2 * combined.damage.area)
                    if copiesOlder,
                        let mixed = Self.ownAndCopy(
                            move: m, byOffset: false, wrong: combined.damage, current: current)
                    {
                        consider(mixed.plan, kept + mixed.cost)
                    }
                }
            } else {
                consider(.own(move: nil, byOffset: false, damage: combined.damage), 2 * combined.damage.area)
            }
        }
        // Copied from the newest buffer, which holds frame n − 1: at least this frame's move's
        // kept part and twice its damage, so not worked out when a plan already costs less.
        let copyAtLeast = (current.move?.kept?.area ?? 0) + 2 * current.damage.area
        if let newest, newest == n - 1, held < newest, best.map({ $0.cost > copyAtLeast }) ?? true {
            if let stale = changes(after: held, through: newest) {
                let copy = Self.copyPlan(stale: stale, current: current)
                consider(copy.plan, copy.cost)
            }
        }
        return best.map { ($0.plan, $0.cost) } ?? repaint
    }

    /// What a buffer holding frame `held` (nil: nothing valid) should copy from the buffer
    /// holding the newest frame to show it too, while the window rests: every pixel that
    /// changed since, when copying them costs less than the way a frame would bring the buffer
    /// up by its own pixels (`plan` without the newest buffer: compositing counts double).
    /// Nil when the buffer is up to date, or its own way is cheaper: after a scroll, a move by
    /// offset and a strip, which the next frame's own move joins at no cost.
    public func catchUpCopy(held: Int?, window: PixelRect, movesByOffset: Bool) -> PixelRegion? {
        let stale = changed(since: held, window: window)
        guard !stale.isEmpty else { return nil }
        let own = planAndCost(held: held, newest: nil, window: window, movesByOffset: movesByOffset).cost
        return stale.area < own ? stale : nil
    }

    /// Every pixel that differs between frame `held` (nil: nothing valid) and the newest
    /// frame: what a buffer holding `held` must copy from the one holding the newest to show it
    /// too. The whole `window` when a frame between is no longer known.
    public func changed(since held: Int?, window: PixelRect) -> PixelRegion {
        guard let held, held <= frameNumber, frameNumber - held < depth else { return PixelRegion(window) }
        return changes(after: held, through: frameNumber) ?? PixelRegion(window)
    }

    /// The pixels frames `held + 1 ... last` changed, nil when one of them is no longer known.
    private func changes(after held: Int, through last: Int) -> PixelRegion? {
        var changed = PixelRegion()
        for f in stride(from: held + 1, through: last, by: 1) {
            guard let u = updates[f] else { return nil }
            changed.add(u.changed)
        }
        return changed
    }

    /// How to make a buffer whose pixels are all stale (a buffer recentred in its memory
    /// without keeping them) show the newest frame by copying from the buffer holding frame
    /// `newest`: a `.copy` plan, or nil unless `newest` is the frame before the newest.
    public func planFromNewest(newest: Int?, window: PixelRect) -> PresentPlan? {
        guard let newest, newest == frameNumber - 1, let current = updates[frameNumber] else { return nil }
        return Self.copyPlan(stale: PixelRegion(window), current: current).plan
    }

    /// Copying `stale` from the newest buffer (which holds the frame before): nothing this
    /// frame repaints is copied; this frame's move's kept part comes shifted, the rest of the
    /// moved rect is exposed (damage). The cost counts compositing double, as `plan` does.
    private static func copyPlan(stale: PixelRegion, current: FrameUpdate) -> (plan: PresentPlan, cost: Int) {
        var copy = stale.subtracting(current.damage)
        var shifted: FrameUpdate.Move?
        if let m = current.move, let kept = m.kept {
            copy = copy.subtracting(m.rect)
            shifted = FrameUpdate.Move(rect: kept, dx: m.dx, dy: m.dy)
        }
        copy = copy.simplified(limit: 64)
        return (
            .copy(unshifted: copy, shifted: shifted, damage: current.damage),
            copy.area + (shifted?.rect.area ?? 0) + 2 * current.damage.area
        )
    }

    /// After a buffer's own pixels are moved, `wrong` is what still differs from the newest
    /// frame. Of it, this frame's damage is composited; the rest is in the newest buffer (which
    /// holds the frame before): outside this frame's move as it is there, inside the move's kept
    /// part shifted by it. A pixel the move exposed without damaging it cannot be copied, so it
    /// is composited too. nil when nothing would be copied (the plain move is the same plan).
    static func ownAndCopy(
        move: FrameUpdate.Move, byOffset: Bool, wrong: PixelRegion, current: FrameUpdate
    ) -> (
        plan: PresentPlan, cost: Int
    )? {
        var damage = current.damage
        var fromNewest = wrong.subtracting(current.damage)
        var shifted = PixelRegion()
        var dx = 0
        var dy = 0
        if let cm = current.move {
            dx = cm.dx
            dy = cm.dy
            if let kept = cm.kept { shifted = fromNewest.intersection(kept) }
            let inMove = fromNewest.intersection(cm.rect).subtracting(shifted)
            damage.add(inMove)
            fromNewest = fromNewest.subtracting(cm.rect)
        }
        let unshifted = fromNewest.simplified(limit: 64)
        shifted = shifted.simplified(limit: 64)
        guard !unshifted.isEmpty || !shifted.isEmpty else { return nil }
        return (
            .ownAndCopy(
                move: move, byOffset: byOffset, unshifted: unshifted, shifted: shifted, dx: dx, dy: dy, damage: damage),
            unshifted.area + shifted.area + 2 * damage.area
        )
    }
}

/// What a present path does to bring one buffer up to the newest frame (`FrameHistory.plan`).
public enum PresentPlan: Equatable, Sendable {
    /// Composite everything in the rect (the buffer's pixels are unknown or too old).
    case repaint(PixelRect)
    /// Move the buffer's own pixels (in place, or by moving its offset in memory), then
    /// composite `damage`.
    case own(move: FrameUpdate.Move?, byOffset: Bool, damage: PixelRegion)
    /// Copy `unshifted` from the newest buffer, then `shifted.rect` from the newest buffer's
    /// pixels at `shifted.rect − (dx, dy)`, then composite `damage`.
    case copy(unshifted: PixelRegion, shifted: FrameUpdate.Move?, damage: PixelRegion)
    /// Move the buffer's own pixels as `.own` does, then copy `unshifted` from the newest buffer
    /// as it is there and `shifted` from the newest buffer's pixels at `shifted − (dx, dy)`
    /// (this frame's move), then composite `damage` (this frame's).
    case ownAndCopy(
        move: FrameUpdate.Move, byOffset: Bool, unshifted: PixelRegion, shifted: PixelRegion, dx: Int, dy: Int,
        damage: PixelRegion)

    /// The move the platform makes by moving the buffer's offset in its memory, if the plan
    /// has one.
    public var offsetMove: FrameUpdate.Move? {
        switch self {
        case .own(let move?, true, _), .ownAndCopy(let move, true, _, _, _, _, _): return move
        default: return nil
        }
    }

    /// A word for the plan (statistics, test messages): `repaint`, `offset` (own pixels moved
    /// by buffer offset), `in-place` (own pixels moved by memmove), `damage` (own pixels, only
    /// composited), `copy`, or `offset+copy` / `in-place+copy` (own pixels moved, the older
    /// frames' repaints copied from the newest buffer).
    public var kind: String {
        switch self {
        case .repaint: return "repaint"
        case .own(let move, let byOffset, _): return move == nil ? "damage" : byOffset ? "offset" : "in-place"
        case .copy: return "copy"
        case .ownAndCopy(_, let byOffset, _, _, _, _, _): return byOffset ? "offset+copy" : "in-place+copy"
        }
    }

}
