import ScrollwayGeometry
import ScrollwayViews

/// Section footers (UITableView's `sectionFooterHeight`, `heightForFooterInSection` and
/// `titleForFooterInSection`): a band after each section's last row, of the section's own
/// height (0: none), its text the data source's. The
/// layout keeps them in the bands between rows (RowLayout): a section with rows has its footer
/// where the next section's band starts (or after the last row); an empty one, right under
/// its own header. In the plain style the footer of the section at the bottom of the viewport
/// stays pinned there while the section runs on below, and is pushed down by its own header
/// as the section's top comes up the screen:
/// `y = max(min(natural, bottomPin − footerHeight), headerNatural + headerHeight)` (that
/// section's heights), with
/// `bottomPin = bounds.maxY − adjustedContentInset.bottom` (above an on-screen keyboard).
extension ListView {
    /// The natural top of section `section`'s footer (`rectForFooter`'s, without the rect).
    func footerTop(_ section: Int) -> Double {
        let position = headerPosition[section]
        let start = sectionStarts[section]
        let end = position + 1 < headerOrder.count ? sectionStarts[headerOrder[position + 1]] : count
        // An empty section (ending where it starts, or after the last row): under its header.
        if end <= start || start >= count { return headerTop(section) + headerHeight(section) }
        return layout.footerTop(endingBefore: end)
    }

    /// The rect of section `section`'s footer where the content puts it (before pinning); a
    /// zero-height rect for a section without one.
    public func rectForFooter(inSection section: Int) -> Rect {
        precondition(
            section >= 0 && section < sectionStarts.count, "section \(section) out of 0..<\(sectionStarts.count)")
        return Rect(x: 0, y: footerTop(section), width: bounds.width, height: footerHeight(section))
    }

    /// Footers for the sections whose footer meets the viewport plus the margin, and for the
    /// section at the bottom (pinned); the rest go back to the pool. Without footers, nothing
    /// (a frame of a scroll asks).
    func updateFooters() {
        guard layout.hasFooters, let dataSource, !headerOrder.isEmpty else {
            recycleBands(\.visibleFooters, keeping: [])
            return
        }
        // A few at most: an array kept from frame to frame, as the headers' is.
        var wanted = wantedFooters
        wantedFooters = []
        defer { wantedFooters = wanted }
        wanted.removeAll(keepingCapacity: true)
        let (from, to) = (bounds.minY - margin, bounds.maxY + margin)
        // Footers follow the headers' order, each at or above the next section's header: from
        // the last header above the range's end, upwards until one ends above its start.
        if let last = lastHeader(atOrAbove: to) {
            var i = last
            while i >= 0 {
                let (s, height) = (headerOrder[i], footerHeight(headerOrder[i]))
                let top = footerTop(s)
                if top + height <= from { break }
                if top < to && height > 0 { wanted.append(s) }
                i -= 1
            }
        }
        let pin = bounds.maxY - adjustedContentInset.bottom
        // A section without a footer has none pinned.
        let bottom =
            pinsSectionFooters
            ? lastHeader(atOrAbove: pin).map { headerOrder[$0] }.flatMap { footerHeight($0) > 0 ? $0 : nil } : nil
        if let bottom, !wanted.contains(bottom) { wanted.append(bottom) }
        wanted.sort()
        recycleBands(\.visibleFooters, keeping: wanted)
        let front = headersFront
        for s in wanted {
            var rect = rectForFooter(inSection: s)
            if s == bottom {
                rect.origin.y = max(min(rect.minY, pin - rect.height), headerTop(s) + headerHeight(s))
            }
            showBand(
                s, at: rect, in: \.visibleFooters, pool: \.footerPool, front: front, pinned: s == bottom,
                make: sectionFooterFactory
            ) { band, s in
                band.textLabel.text = dataSource.list(self, titleForFooterInSection: s)
                dataSource.list(self, willDisplayFooter: band, forSection: s)
            }
        }
    }
}
