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
        let n = frameNumber
        guard let held, held <= n, n - held < depth, let current = updates[n] else { return .repaint(window) }
        var best: (cost: Int, plan: PresentPlan)?
        func consider(_ plan: PresentPlan, _ cost: Int) {
            if best == nil || cost < best!.cost { best = (cost, plan) }
        }
        // Its own pixels, moved.
        if held == n {
            // Already drawn (nothing to do but the update itself was applied): no work.
            return .own(move: nil, byOffset: false, damage: PixelRegion())
        }
        let missed = ((held + 1)...n).compactMap { updates[$0] }
        if missed.count == n - held, let combined = FrameUpdate.combining(missed) {
            if let m = combined.move {
                // In place with a memmove: the kept part is read and written once.
                consider(
                    .own(move: m, byOffset: false, damage: combined.damage),
                    (m.kept?.area ?? 0) + 2 * combined.damage.area)
                if movesByOffset {
                    var damage = combined.damage
                    for outside in window.subtracting(m.rect) { damage.add(outside) }
                    consider(.own(move: m, byOffset: true, damage: damage), 2 * damage.area)
                }
            } else {
                consider(.own(move: nil, byOffset: false, damage: combined.damage), 2 * combined.damage.area)
            }
        }
        // Copied from the newest buffer, which holds frame n − 1.
        if let newest, newest == n - 1, held < newest {
            var stale = PixelRegion()
            var complete = true
            for f in (held + 1)...newest {
                guard let u = updates[f] else {
                    complete = false
                    break
                }
                stale.add(u.changed)
            }
            if complete {
                var copy = stale.subtracting(current.damage)
                var shifted: FrameUpdate.Move?
                if let m = current.move, let kept = m.kept {
                    // The kept part comes shifted from the newest buffer; the rest of the moved
                    // rect is exposed (damage).
                    copy = copy.subtracting(m.rect)
                    shifted = FrameUpdate.Move(rect: kept, dx: m.dx, dy: m.dy)
                }
                copy = copy.simplified(limit: 64)
                consider(
                    .copy(unshifted: copy, shifted: shifted, damage: current.damage),
                    copy.area + (shifted?.rect.area ?? 0) + 2 * current.damage.area)
            }
        }
        return best?.plan ?? .repaint(window)
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

    /// A word for the plan (statistics, test messages): `repaint`, `offset` (own pixels moved
    /// by buffer offset), `in-place` (own pixels moved by memmove), `damage` (own pixels, only
    /// composited) or `copy`.
    public var kind: String {
        switch self {
        case .repaint: return "repaint"
        case .own(let move, let byOffset, _): return move == nil ? "damage" : byOffset ? "offset" : "in-place"
        case .copy: return "copy"
        }
    }

}
