import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayViews

extension ListView {
    /// Reads the section index's titles from the data source again (UITableView's
    /// `reloadSectionIndexTitles`): the index shows, changes or goes. `reloadData` does it too.
    /// A new index width reflows the rows (their text is laid out beside it), so the list
    /// reloads when the width changes.
    public func reloadSectionIndexTitles() {
        let before = sectionIndexInset
        loadSectionIndex()
        if sectionIndexInset != before { reloadData() }
    }

    /// How much of the list's trailing edge the section index covers (0: none): a
    /// `ListCell` lays its text out short of it, as UITableView's cells do.
    public var sectionIndexInset: Double {
        guard let index = sectionIndex, index.superview === self else { return 0 }
        return index.preferredWidth
    }

    /// Whether `touch` lands on the section index while it shows: the list's own recognizers
    /// (row swipes, the reorder press) let such a touch be, as the index keeps it.
    func sectionIndexTakes(_ touch: Touch) -> Bool {
        guard let index = sectionIndex, index.superview === self, !index.isHidden else { return false }
        return index.bounds.contains(index.convert(touch.location, from: nil))
    }

    /// The row in view whose cell is under `point` (list coordinates), and the cell.
    func visibleRow(at point: Point) -> (row: Int, cell: ListCell)? {
        visibleCells.first { $0.value.frame.contains(point) }.map { ($0.key, $0.value) }
    }

    /// Makes, updates or removes the index for the data source's titles.
    func loadSectionIndex() {
        let titles = dataSource?.sectionIndexTitles(in: self) ?? []
        guard !titles.isEmpty, rowCount >= sectionIndexMinimumDisplayRowCount else {
            sectionIndex?.removeFromSuperview()
            sectionIndex = nil
            return
        }
        let index = sectionIndex ?? SectionIndexView(list: self)
        sectionIndex = index
        index.isHidden = openSwipeRow != nil  // away while a row is open (RowSwipeActions)
        index.titles = titles
        index.applyColors()
        if index.superview !== self {
            // Above the rows and headers, below the scroll indicators (`headersFront`).
            insertSubview(index, at: indicatorsFront)
        }
        placeSectionIndex()
    }

    /// Keeps the index along the visible part of the trailing edge: it stays in place while
    /// the content scrolls under it (set at every update, as the pinned header is).
    func placeSectionIndex() {
        guard let index = sectionIndex else { return }
        let visible = bounds.inset(by: adjustedContentInset)
        let w = index.preferredWidth
        let x = effectiveUserInterfaceLayoutDirection == .rightToLeft ? bounds.minX : bounds.maxX - w
        let rect = Rect(x: x, y: visible.minY, width: w, height: max(0, visible.height))
        if index.frame != rect { index.frame = rect }
    }

    /// Scrolls so that the section the data source names for index title `i` starts at the
    /// top: its header just below the top inset (clamped to the range), at once.
    func scrollToSectionIndexTitle(_ i: Int) {
        guard let dataSource, let index = sectionIndex, index.titles.indices.contains(i) else { return }
        let section = dataSource.list(self, sectionForSectionIndexTitle: index.titles[i], at: i)
        guard sectionStarts.indices.contains(section), rowCount > 0 else { return }
        let row = min(sectionStarts[section], rowCount - 1)
        let header = rectForHeader(inSection: section)
        let rowTop = rectForRow(row).minY
        // Taller than the view, so the top is what is aligned.
        let target = RowTarget(
            row: row, offset: header.minY - rowTop, height: bounds.height + header.height + 1, x: nil)
        scroll(to: target, animated: false)
    }
}

/// A list's section index (UITableView's): its titles down the trailing edge, small and
/// tinted, over the content. A touch on it, or a drag along it, scrolls the list to the
/// section of the title under the finger at once; it takes its touches itself
/// (`TouchInterceptor`), so a drag along it never scrolls the list or swipes a row. When the
/// titles do not fit, every other one shown is a bullet standing for those left out, as
/// UIKit's are, and the finger still picks among all of them by where it is.
@MainActor
final class SectionIndexView: View, TouchInterceptor {
    /// Weak: an element a screen reader holds may outlive the list, and its actions then do
    /// nothing.
    weak var list: ListView?
    var titles: [String] = [] {
        didSet {
            guard titles != oldValue else { return }
            measure()
            setNeedsDisplay()
            accessibilityCustomActions = titles.indices.map { i in
                AccessibilityCustomAction(name: titles[i]) { [weak self] in
                    guard let list = self?.list else { return false }
                    list.scrollToSectionIndexTitle(i)
                    return true
                }
            }
        }
    }
    /// The width it takes at the list's edge: its widest title with room on each side.
    private(set) var preferredWidth = SectionIndexView.minimumWidth
    /// The title a touch is on (nil: not touched).
    private(set) var trackedTitle: Int?
    /// The touch it follows (a second finger is ignored).
    private var trackedTouch: Int?
    static let minimumWidth = 16.0
    /// The height a title takes down the index.
    static let entryHeight = 14.0
    let font = try? Font.system(size: 11, bold: true)

    init(list: ListView) {
        self.list = list
        super.init()
    }

    override var drawsContent: Bool { true }

    /// A group named for what it is; each title is one of its actions (a reader's way to jump).
    override var accessibilityDefaults: AccessibilityDefaults {
        AccessibilityDefaults(role: .group, label: "Section index", isElement: true)
    }

    private func measure() {
        let widest = titles.map { font?.width(of: $0) ?? 0 }.max() ?? 0
        preferredWidth = max(Self.minimumWidth, widest + 6)
    }

    /// The list's colours (`sectionIndexColor` and the backgrounds) as they are now.
    func applyColors() {
        backgroundColor =
            (trackedTitle != nil ? list?.sectionIndexTrackingBackgroundColor : nil)
            ?? list?.sectionIndexBackgroundColor
        setNeedsDisplay()
    }

    /// What is drawn down the index, top to bottom: each a title (its index) or a bullet.
    /// All of them when they fit; otherwise the most that fit, an odd count, titles at the
    /// even places spread evenly from the first to the last, bullets between.
    func entries(height: Double) -> [Int?] {
        let n = titles.count
        let fit = Int(clamping: height / Self.entryHeight, rounding: .down)
        guard n > fit else { return titles.indices.map { $0 } }
        let shown = max(1, fit - (fit % 2 == 0 ? 1 : 0))
        guard shown >= 3 else { return [0] }
        let kept = (shown + 1) / 2
        return (0..<shown).map { k in
            k % 2 == 1 ? nil : (k / 2) * (n - 1) / (kept - 1)
        }
    }

    /// The band the entries take, centred down the index.
    private func band() -> (top: Double, height: Double) {
        let h = Double(entries(height: bounds.height).count) * Self.entryHeight
        return ((bounds.height - h) / 2, h)
    }

    /// The title under `y` (index coordinates): the band split evenly among all the titles,
    /// shown or not, clamped to the first and last above and below it.
    func title(atY y: Double) -> Int {
        let (top, h) = band()
        guard h > 0, !titles.isEmpty else { return 0 }
        let i = Int(clamping: (y - top) / h * Double(titles.count), rounding: .down)
        return min(max(i, 0), titles.count - 1)
    }

    override func draw(in canvas: Canvas) {
        guard let font else { return }
        let (top, _) = band()
        for (k, entry) in entries(height: bounds.height).enumerated() {
            let text = entry.map { titles[$0] } ?? "•"
            let layout = font.layout(text, maxWidth: bounds.width, maxLines: 1, scale: canvas.scale)
            let h = layout.size.height
            let y = top + Double(k) * Self.entryHeight + (Self.entryHeight - h) / 2
            canvas.drawText(
                layout, font: font, in: Rect(x: 0, y: y, width: bounds.width, height: h),
                color: list?.sectionIndexColor ?? .black, alignment: .center)
        }
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        setNeedsDisplay()  // the entries depend on the height
    }

    // MARK: Touches: its own, from the first

    func interceptsTouches(from source: Touch.Source) -> Bool { true }

    func interceptedTouchBegan(_ touch: Touch, target: View?) {
        guard trackedTouch == nil else { return }
        trackedTouch = touch.id
        track(touch)
    }

    func interceptedTouchMoved(_ touch: Touch) {
        if touch.id == trackedTouch { track(touch) }
    }

    func interceptedTouchEnded(_ touch: Touch) { endTracking(touch) }
    func interceptedTouchCancelled(_ touch: Touch) { endTracking(touch) }
    func interceptedTouchTargetWillLeave(_ touch: Touch) { endTracking(touch) }

    private func track(_ touch: Touch) {
        let i = title(atY: convert(touch.location, from: nil).y)
        let began = trackedTitle == nil
        guard i != trackedTitle else { return }
        trackedTitle = i
        if began { applyColors() }
        list?.scrollToSectionIndexTitle(i)
    }

    private func endTracking(_ touch: Touch) {
        guard touch.id == trackedTouch else { return }
        trackedTouch = nil
        trackedTitle = nil
        applyColors()
    }
}
