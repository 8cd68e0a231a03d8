import ScrollwayGeometry
import ScrollwayViews

extension ScrollView {
    /// `accessibilityScroll`: the page keys' move (a page less `pageOverlap`, a pager's whole
    /// page), animated; false when the content cannot go that way (a reader says so).
    func scrollForAccessibility(_ direction: AccessibilityScrollDirection) -> Bool {
        guard accessibilityScrollDirections.contains(direction) else { return false }
        settleZoomAnimation()
        let base = animationTarget ?? contentOffset
        if direction == .up, base.y <= verticalRange.lowerBound + 0.5, let control = refreshControl,
            !control.isRefreshing
        {
            control.triggerRefresh()
            setContentOffset(Point(x: base.x, y: verticalRange.lowerBound), animated: true)
            return true
        }
        let pageY = isPagingEnabled ? bounds.height : max(0, bounds.height - Self.pageOverlap)
        let pageX = isPagingEnabled ? bounds.width : max(0, bounds.width - Self.pageOverlap)
        var target = base
        switch direction {
        case .up: target.y -= pageY
        case .down: target.y += pageY
        case .left: target.x -= pageX
        case .right: target.x += pageX
        case .top: target.y = verticalRange.lowerBound
        case .bottom: target.y = verticalRange.upperBound
        }
        target = clampedOffset(target)
        guard abs(target.x - base.x) > 0.5 || abs(target.y - base.y) > 0.5 else { return false }
        setContentOffset(
            target, animated: true,
            goal: direction == .bottom ? .end : direction == .top ? .top(announces: false) : .offset)
        showIndicatorsIfScrolling()
        let status = accessibilityScrollStatus(at: target)
        if isPagingEnabled { lastAnnouncedPage = status }
        window?.postAccessibilityNotification(.pageScrolled(status))
        return true
    }

    /// "Page n of m" on the axis that scrolls (vertical first), pages the bounds' size from
    /// the top of the range.
    func pageStatus(at offset: Point) -> String {
        func pages(_ x: Double, _ page: Double, _ r: ClosedRange<Double>) -> (Int, Int) {
            guard page > 0 else { return (1, 1) }
            let count = Int(clamping: ((r.upperBound - r.lowerBound) / page - 1e-6).rounded(.up), rounding: .down)
            let index = Int(clamping: ((x - r.lowerBound) / page).rounded(), rounding: .down)
            return (min(max(index, 0), max(count, 0)) + 1, max(count, 0) + 1)
        }
        let (n, m) =
            scrollsVertically || !scrollsHorizontally
            ? pages(offset.y, bounds.height, verticalRange) : pages(offset.x, bounds.width, horizontalRange)
        return "Page \(n) of \(m)"
    }

    /// A pager that came to rest on another page than it last told says which ("Page 3 of
    /// 5"), as VoiceOver does after a swipe.
    func announcePageIfTurned() {
        guard isPagingEnabled, let window else { return }
        let status = pageStatus(at: contentOffset)
        guard status != lastAnnouncedPage else { return }
        lastAnnouncedPage = status
        window.postAccessibilityNotification(.pageScrolled(status))
    }
}
