import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayViews

extension ListView {
    /// Moves the focus from `cell`'s row as `key` says: Up and Down to the row above or below,
    /// Page Up and Page Down to the row a page (the bounds less `pageOverlap`) above or below,
    /// Home and End to the first and last row. The list scrolls at once so that row is in
    /// full view, then focuses its cell; at either end the focus stays.
    public func moveFocus(from cell: ListCell, by key: Key) {
        guard let row = row(for: cell), count > 0 else { return }
        let page = max(1, bounds.inset(by: adjustedContentInset).height - Self.pageOverlap)
        let r = rectForRow(row)
        let target: Int
        switch key {
        case .up: target = row - 1
        case .down: target = row + 1
        case .pageUp: target = min(row - 1, self.row(at: max(0, r.minY - page)))
        case .pageDown: target = max(row + 1, self.row(at: r.minY + page))
        case .home: target = 0
        case .end: target = count - 1
        default: return
        }
        let goal = min(max(target, 0), count - 1)
        guard goal != row else { return }
        focusRow(goal)
    }

    /// Scrolls `row` into full view at once and gives its cell the focus.
    public func focusRow(_ row: Int) {
        guard row >= 0 && row < count else { return }
        scrollToRow(row, animated: false)
        visibleCells[row]?.becomeFocused()
    }

    /// Scrolls so that `row` is fully in view with the least scroll: a row above comes in at
    /// the top (below a pinned header), a row below at the bottom (above a pinned footer).
    /// Measuring the rows that come into view can move the row, so the chosen edge is aligned
    /// again until nothing moves. Animated, the list goes back to where it was and animates to
    /// the measured offset.
    ///
    /// `position` (UITableView's `scrollToRow(at:at:animated:)`) puts the row at the top, in the
    /// middle or at the bottom of the view instead, wherever it is; `.none` is the least scroll
    /// above.
    public func scrollToRow(_ row: Int, at position: ScrollPosition = .none, animated: Bool = false) {
        guard row >= 0 && row < count else { return }
        scroll(to: RowTarget(row: row, offset: nil, height: nil, x: nil), at: position, animated: animated)
    }

    /// What `scroll(to:)` brings into view: a row (offset and height nil), or a rect that starts
    /// `offset` below the row's top with its own height; `x` is where the offset's x goes (nil:
    /// where it is).
    struct RowTarget {
        let row: Int
        let offset: Double?
        let height: Double?
        let x: Double?
    }

    /// The shared path of `scrollToRow` and `scrollRectToVisible`: pick the edge to align (the
    /// nearer one for `.none`), align it again while measuring moves it, then (animated) go back
    /// and follow it there.
    func scroll(to target: RowTarget, at position: ScrollPosition = .none, animated: Bool) {
        settleZoomAnimation()
        // A fling or an earlier scroll-to-row would go on moving the list from where this
        // one puts it: this call replaces them (UITableView's too).
        follower?.list = nil
        follower = nil
        stopMotion()
        let startRow = self.row(at: max(0, bounds.minY))
        let startDelta = bounds.minY - rectForRow(startRow).minY
        let startOffset = contentOffset
        let visible = bounds.inset(by: adjustedContentInset)
        let rect = targetRect(target)
        let edge: ScrollPosition
        if position != .none {
            edge = position
        } else if rect.minY < visible.minY || rect.height >= visible.height {
            edge = .top
        } else if rect.maxY > visible.maxY {
            edge = .bottom
        } else {
            if let x = target.x, x != contentOffset.x {
                setContentOffset(Point(x: x, y: contentOffset.y), animated: animated)
            }
            return
        }
        for _ in 0..<12 {
            let before = contentOffset
            contentOffset = offset(aligning: target, at: edge)
            updateVisibleRows()
            contentOffset = clampedOffset(contentOffset)
            if contentOffset == before { break }
        }
        guard animated, let window else { return }
        let goal = contentOffset
        // Back to the start view (its rows may have been re-measured meanwhile), then animate.
        let start = startRow < count ? rectForRow(startRow).minY + startDelta : startOffset.y
        contentOffset = clampedOffset(Point(x: startOffset.x, y: start))
        setContentOffset(goal, animated: true)
        let follower = RowScrollFollower(list: self, target: target, edge: edge)
        self.follower = follower
        window.addAnimation(follower)
    }

    /// The rect a target covers now, extended upwards by its section's header height when a
    /// pinned header would cover a row's top, and downwards by its footer height when a pinned
    /// footer would cover its bottom.
    private func targetRect(_ target: RowTarget) -> Rect {
        let r = rectForRow(target.row)
        if let offset = target.offset, let height = target.height {
            return Rect(x: r.minX, y: r.minY + offset, width: r.width, height: height)
        }
        guard let section = section(containingRow: target.row) else { return r }
        let above = pinsSectionHeaders ? headerHeight(section) : 0
        let below = pinsSectionFooters ? footerHeight(section) : 0
        return Rect(x: r.minX, y: r.minY - above, width: r.width, height: r.height + above + below)
    }

    /// The offset that puts the target at the top (below a pinned header), at the bottom (above
    /// a pinned footer), or its own middle (the pinned bands left out) at the view's middle,
    /// all inside the adjusted inset.
    func offset(aligning target: RowTarget, at edge: ScrollPosition) -> Point {
        let rect = targetRect(target)
        let inset = adjustedContentInset
        let y: Double
        switch edge {
        case .none, .top: y = rect.minY - inset.top
        case .bottom: y = rect.maxY - bounds.height + inset.bottom
        case .middle:
            let r = rectForRow(target.row)
            let own = target.offset.map { r.minY + $0 + (target.height ?? 0) / 2 } ?? r.midY
            y = own - inset.top - max(0, bounds.height - inset.top - inset.bottom) / 2
        }
        return clampedOffset(Point(x: target.x ?? contentOffset.x, y: y))
    }
}

/// Follows an animated `scrollToRow` (or `scrollRectToVisible`): the rows measured on the way
/// (their heights were estimates) move the row, so each frame re-aims the animation at where
/// the row is now, keeping its velocity. It lets go when the row is reached, or when anything
/// else moves the list: a finger, a wheel, a key, a fling, another `setContentOffset` (any
/// motion it did not start itself, told by `motionGeneration`).
final class RowScrollFollower: FrameAnimation {
    weak var list: ListView?
    let target: ListView.RowTarget
    /// The edge it keeps the target at (`.top`, `.middle` or `.bottom`).
    let edge: ScrollPosition
    /// The list's motion generation right after this follower last aimed it.
    private var generation: Int

    /// Call right after starting the animation to the row.
    init(list: ListView, target: ListView.RowTarget, edge: ScrollPosition) {
        self.list = list
        self.target = target
        self.edge = edge
        generation = list.motionGeneration
    }

    /// Whether the list still moves as this follower last aimed it.
    var isLeading: Bool {
        guard let list else { return false }
        return list.motionGeneration == generation && list.animationTarget != nil
    }

    func advance(to time: Double) -> Bool {
        guard let list, list.motionGeneration == generation, !list.isTracking, !list.isDragging,
            !list.isDecelerating, target.row < list.rowCount
        else {
            return false
        }
        let desired = list.offset(aligning: target, at: edge)
        let heading = list.animationTarget ?? list.contentOffset
        if abs(heading.y - desired.y) > 0.25 {
            list.setContentOffset(desired, animated: true)
            generation = list.motionGeneration
        }
        return list.animationTarget != nil
    }
}
