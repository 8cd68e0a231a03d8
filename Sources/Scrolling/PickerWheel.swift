import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayViews

/// Where a picker's row is drawn on its drum, seen side on: a row whose middle lies `d` from
/// the wheel's middle along the drum (its place in the flat column of rows, less the
/// offset's) sits at the angle `θ = d / R` on a drum of radius `R`, so it shows `R·sin θ` from
/// the middle, `cos θ` as high, and fades towards the edge; past a quarter turn (`|θ| ≥ π/2`)
/// it is round the back and not shown. The picked row (`θ = 0`) is drawn as it is.
public struct PickerWheelProjection: Equatable, Sendable {
    /// How far from the wheel's middle the row's middle shows.
    public var shownOffset: Double
    /// How high it shows, as a share of its height.
    public var heightScale: Double
    /// How opaque it is.
    public var alpha: Double

    /// The faintest a shown row gets (at the drum's edge).
    public static let edgeAlpha = 0.25

    /// The row `d` from the middle on a drum of `radius`; nil when it is round the back.
    public static func place(distance d: Double, radius: Double) -> PickerWheelProjection? {
        guard radius > 0, d.isFinite else { return nil }
        let theta = d / radius
        guard abs(theta) < Double.pi / 2 else { return nil }
        let c = cosine(theta)
        return PickerWheelProjection(
            shownOffset: radius * sine(theta), heightScale: c, alpha: edgeAlpha + (1 - edgeAlpha) * c)
    }

    /// How far along the drum, either side of the middle, rows are shown: a quarter turn.
    public static func reach(radius: Double) -> Double { radius * Double.pi / 2 }
}

/// One wheel of a `PickerView`: a scroll view over a column of `rowHeight` rows whose offset
/// picks the row in the middle (`PickerView`'s doc). Only the rows on the front of the drum
/// have views, reused as the wheel turns; the focused one is kept while the focus is on it.
final class PickerWheel: ScrollView, ScrollEventObserver {
    unowned let picker: PickerView
    let component: Int
    private(set) var rowCount = 0
    /// The picked row, −1 while there are none.
    private(set) var selectedRow = -1
    /// The rows with views, by row.
    private var rows: [Int: PickerRow] = [:]
    private var spareRows: [PickerRow] = []
    /// Wheel clicks (and a trackpoint's distance, in rows) not yet turned into rows.
    private var pendingClicks = 0.0

    init(picker: PickerView, component: Int) {
        self.picker = picker
        self.component = component
        super.init(frame: .zero)
        showsVerticalScrollIndicator = false
        showsHorizontalScrollIndicator = false
        contentInsetAdjustmentBehavior = .never
        alwaysBounceVertical = true
        scrollsToTop = false
        clipsToBounds = true
        addEventObserver(self)
    }

    var rowHeight: Double { picker.rowHeight }

    /// The inset above and below that lets the first and the last row reach the middle:
    /// negative when the wheel is lower than a row (the row's middle is still the wheel's).
    private var edgeInset: Double { (bounds.height - rowHeight) / 2 }

    /// The offset at which `row` is picked.
    func offset(for row: Int) -> Point { Point(x: 0, y: Double(row) * rowHeight - edgeInset) }

    /// The row nearest the middle at offset `y`, within the rows.
    func row(atOffset y: Double) -> Int {
        guard rowCount > 0 else { return -1 }
        return Int(clamping: (y + edgeInset) / rowHeight, rounding: .toNearestOrAwayFromZero, in: 0...(rowCount - 1))
    }

    // MARK: Rows

    /// Reads the rows again: every row's view is made afresh (titles may have changed), the
    /// pick kept (or the last row), and the focus, if a row had it, given to the picked row.
    func reload() {
        rowCount = picker.dataSource.map { max(0, $0.picker(picker, numberOfRowsInComponent: component)) } ?? 0
        let hadFocus = rows.values.contains { $0.isFocused }
        pendingClicks = 0
        for (_, row) in rows { retire(row) }
        rows.removeAll()
        let picked = rowCount == 0 ? -1 : min(max(selectedRow, 0), rowCount - 1)
        setSelectedRow(picked)
        updateContentSize()
        if !isHeldByGesture, picked >= 0 { setContentOffset(offset(for: picked), animated: false) }
        layoutRows()
        if hadFocus, picked >= 0 { focusRow(picked) }
    }

    /// Gives row `r` the focus, making its view if it has none yet.
    private func focusRow(_ r: Int) {
        if rows[r] == nil, bounds.height > 0 { place(r, middle: bounds.midY, radius: bounds.height / 2) }
        (rows[r] ?? makeRow(r)).becomeFocused(byTouch: false)
    }

    func rowHeightChanged() {
        updateContentSize()
        if !isHeldByGesture, selectedRow >= 0 { setContentOffset(offset(for: selectedRow), animated: false) }
        layoutRows()
    }

    func redrawRows() { for (_, row) in rows { row.setNeedsDisplay() } }

    func rowView(_ row: Int) -> PickerRow? { rows[row] }

    private func updateContentSize() {
        let inset = edgeInset
        contentInset = EdgeInsets(top: inset, left: 0, bottom: inset, right: 0)
        contentSize = Size(width: bounds.width, height: Double(rowCount) * rowHeight)
    }

    override func layoutSubviews() {
        let old = contentInset.top
        updateContentSize()
        // A new height moves the picked row's offset: it stays in the middle.
        if old != contentInset.top, !isHeldByGesture, !isDecelerating, selectedRow >= 0 {
            setContentOffset(offset(for: selectedRow), animated: false)
        }
        super.layoutSubviews()
        layoutRows()
    }

    /// A scroll turns the drum; a new size waits for the layout, which first centres the
    /// picked row again (placed before that, rows were made for where the middle was).
    override func didChangeBounds(from old: Rect) {
        super.didChangeBounds(from: old)
        if old.size == bounds.size { layoutRows() } else { setNeedsLayout() }
    }

    /// Puts the rows on the front of the drum in place (`PickerWheelProjection`) and lets the
    /// others' views go.
    private func layoutRows() {
        guard rowCount > 0, bounds.height > 0, rowHeight > 0 else {
            for (r, row) in rows where !row.isFocused {
                retire(row)
                rows[r] = nil
            }
            return
        }
        let radius = bounds.height / 2
        let middle = bounds.midY
        let reach = PickerWheelProjection.reach(radius: radius)
        let first = Int(clamping: (middle - reach) / rowHeight, rounding: .down, in: 0...(rowCount - 1))
        let last = Int(clamping: (middle + reach) / rowHeight, rounding: .up, in: 0...(rowCount - 1))
        let shown = first <= last ? first...last : 1...0
        for (r, row) in rows where !shown.contains(r) {
            guard !row.isFocused else { continue }
            retire(row)
            rows[r] = nil
        }
        for r in shown { place(r, middle: middle, radius: radius) }
        if let focused = rows.first(where: { !shown.contains($0.key) }) {
            place(focused.key, middle: middle, radius: radius)
        }
    }

    /// Puts row `r` on the drum, with a view if it has none; one round the back has none, or,
    /// focused, keeps its view unseen.
    private func place(_ r: Int, middle: Double, radius: Double) {
        let center = (Double(r) + 0.5) * rowHeight
        let projection = PickerWheelProjection.place(distance: center - middle, radius: radius)
        guard let projection else {
            guard let row = rows[r] else { return }
            if row.isFocused {
                row.alpha = 0
            } else {
                retire(row)
                rows[r] = nil
            }
            return
        }
        let row = rows[r] ?? makeRow(r)
        row.bounds = Rect(x: 0, y: 0, width: bounds.width, height: rowHeight)
        row.center = Point(x: bounds.width / 2, y: center)
        row.transform = AffineTransform(
            a: 1, d: projection.heightScale, tx: 0, ty: middle + projection.shownOffset - center)
        row.alpha = projection.alpha
    }

    private func makeRow(_ r: Int) -> PickerRow {
        let row = spareRows.popLast() ?? PickerRow(wheel: self)
        row.row = r
        row.title = picker.dataSource?.picker(picker, titleForRow: r, forComponent: component) ?? ""
        row.content = picker.dataSource?.picker(picker, viewForRow: r, forComponent: component, reusing: row.content)
        row.isPicked = r == selectedRow
        row.canBecomeFocused = r == selectedRow
        rows[r] = row
        addSubview(row)
        // One of the wheel's list's rows: a reader hears it come (a view reused for another
        // row comes back under its new title), as a list's cells are.
        window?.postAccessibilityNotification(.elementAdded(row, container: self))
        return row
    }

    /// Lets a row's view go (kept for reuse). One with the focus gives it up as it leaves the
    /// window (`Window.viewWillLeave`), so it is not focused again as whatever row it is reused
    /// for (`reload` gives the focus back to the picked row).
    private func retire(_ row: PickerRow) {
        if row.superview === self { window?.postAccessibilityNotification(.elementRemoved(row, container: self)) }
        row.removeFromSuperview()
        row.transform = .identity
        if spareRows.count < 16 { spareRows.append(row) }
    }

    // MARK: Picking

    /// `pick` is moving the offset to the row it picked: a motion that ends meanwhile does
    /// not settle the wheel elsewhere.
    private var placingPick = false

    /// Picks `row` and turns the wheel to it; `byUser` tells the app. The user's picks are
    /// brought to the rows (Page Up near the top picks the first); the app's, outside them,
    /// are ignored.
    func pick(_ row: Int, byUser: Bool, animated: Bool) {
        guard rowCount > 0, byUser || (0..<rowCount).contains(row) else { return }
        let r = min(max(row, 0), rowCount - 1)
        let changed = r != selectedRow
        setSelectedRow(r)
        let target = offset(for: r)
        if contentOffset != target, !isHeldByGesture {
            // Setting the offset stops a glide, whose end would settle the wheel on the row
            // it had reached and tell the app of it as the user's pick, under the row picked
            // here.
            placingPick = true
            setContentOffset(target, animated: animated)
            placingPick = false
        }
        if changed, byUser { picker.userPicked(r, in: component) }
    }

    /// The picked row becomes `r`: the rows in view say so (a reader hears it), and the focus,
    /// when it was on the picked row, moves with it.
    private func setSelectedRow(_ r: Int) {
        guard r != selectedRow else { return }
        let old = rows[selectedRow]
        let hadFocus = old?.isFocused ?? false
        selectedRow = r
        for row in [old, rows[r]].compactMap({ $0 }) {
            let picked = row.row == r
            row.isPicked = picked
            row.canBecomeFocused = picked
            window?.postAccessibilityNotification(.stateChanged(row, .selected, picked))
        }
        guard hadFocus, r >= 0 else { return }
        focusRow(r)
        layoutRows()
    }

    /// The wheel came to rest: the row in the middle is picked (the user turned it there), or,
    /// resting between rows, it turns to the nearest.
    private func settle() {
        guard rowCount > 0, !placingPick, !holdsContent, !isDecelerating, !isScrollAnimating else { return }
        let r = row(atOffset: contentOffset.y)
        let target = offset(for: r)
        if abs(target.y - contentOffset.y) > 0.5 / deviceScale {
            setContentOffset(target, animated: true)
            return
        }
        pick(r, byUser: true, animated: false)
    }

    /// A bounce ended, or a touch (this wheel's, or one an enclosing pager took over) or a
    /// touchpad hold let the wheel go where it was: no end was heard, and it may rest between
    /// rows or on one not picked.
    override func cameToRestUnheard() { settle() }

    override func restingOffset(forProposed proposed: Point, velocity: Point) -> Point {
        guard rowCount > 0 else { return proposed }
        return Point(x: proposed.x, y: offset(for: row(atOffset: proposed.y)).y)
    }

    func scrollView(_ scrollView: ScrollView, didSend event: ScrollEvent) {
        switch event {
        case .didEndDecelerating, .didEndScrollingAnimation: settle()
        case .didEndDragging(let decelerate) where !decelerate: settle()
        default: break
        }
    }

    // MARK: Keys and wheels

    /// Up and Down pick the row above or below, Page Up and Page Down a wheelful on, Home
    /// and End the ends, while the focus is on the picked row. A wheel's clicks pick a row
    /// each (a trackpoint's distance, a row per row height); a touchpad's fingers turn the
    /// wheel as a drag does.
    override func handleInput(_ event: InputEvent) -> Bool {
        switch event.kind {
        case .key(let key, let pressed, let modifiers):
            guard rowCount > 0, isScrollEnabled, modifiers.isDisjoint(with: [.control, .alt, .logo]),
                let focused = window?.focusedView, focused.superview === self
            else { return super.handleInput(event) }
            let page = max(1, Int(clamping: bounds.height / rowHeight, rounding: .down, in: 0...10_000) - 1)
            let target: Int
            switch key {
            case .up: target = selectedRow - 1
            case .down: target = selectedRow + 1
            case .pageUp: target = selectedRow - page
            case .pageDown: target = selectedRow + page
            case .home: target = 0
            case .end: target = rowCount - 1
            default: return super.handleInput(event)
            }
            if pressed, !holdsContent { pick(target, byUser: true, animated: true) }
            return true
        case .axis(.vertical, let value, let source, let value120) where source != .finger:
            guard rowCount > 0, isScrollEnabled, value.isFinite else { return false }
            if holdsContent { return true }
            let clicks: Double
            switch source {
            case .continuous: clicks = value / rowHeight
            default: clicks = value120.map { $0 / 120 } ?? (value > 0 ? 1 : value < 0 ? -1 : 0)
            }
            // A turn the other way starts afresh: part of a click left over the other way
            // would swallow the first click back.
            if clicks * pendingClicks < 0 { pendingClicks = 0 }
            pendingClicks += clicks
            let steps = pendingClicks.rounded(.towardZero)
            guard steps != 0 else { return true }
            pendingClicks -= steps
            // Clicks add up from the row picked; a glide under way is stopped at the row it
            // has reached.
            let from = isDecelerating ? row(atOffset: contentOffset.y) : selectedRow
            let atEnd = (steps < 0 && from == 0) || (steps > 0 && from == rowCount - 1)
            // At an end the clicks go on to what encloses the picker (a form scrolls on).
            if atEnd, selectedRow == from { return false }
            pick(from + Int(clamping: steps, in: -rowCount...rowCount), byUser: true, animated: true)
            return true
        default:
            return super.handleInput(event)
        }
    }

    // MARK: Accessibility

    /// A list (named by the data source) whose rows are the shown rows, the picked one selected.
    override var accessibilityDefaults: AccessibilityDefaults {
        AccessibilityDefaults(
            role: .list, label: picker.dataSource?.picker(picker, accessibilityLabelForComponent: component))
    }
}

/// One row of a wheel: its title, centred, and a ring while it has the focus. A tap on it
/// picks it; a reader sees a list item, selected while picked.
final class PickerRow: View {
    unowned let wheel: PickerWheel
    var row = 0
    var title = "" { didSet { if title != oldValue { setNeedsDisplay() } } }
    var isPicked = false
    /// The app's view for the row (`viewForRow`), shown in place of the title, inside the
    /// room the focus ring takes; the row keeps its touches (the view takes none) and is
    /// read by its title.
    var content: View? {
        didSet {
            guard content !== oldValue else { return }
            if oldValue?.superview === self { oldValue?.removeFromSuperview() }
            if let content {
                content.isUserInteractionEnabled = false
                addSubview(content)
                setNeedsLayout()
            }
            setNeedsDisplay()
        }
    }
    /// How far inside the row an app's view stands: the focus ring's room.
    static let contentInset = 3.0

    init(wheel: PickerWheel) {
        self.wheel = wheel
        super.init(frame: .zero)
    }

    override var drawsContent: Bool { true }

    override func layoutSubviews() {
        super.layoutSubviews()
        content?.frame = bounds.insetBy(dx: Self.contentInset, dy: Self.contentInset)
    }

    override func draw(in canvas: Canvas) {
        let picker = wheel.picker
        if content == nil, let font = picker.font ?? PickerView.standardFont {
            let layout = font.layout(title, maxWidth: max(0, bounds.width - 8), maxLines: 1, scale: canvas.scale)
            let h = layout.size.height
            canvas.drawText(
                layout, font: font,
                in: Rect(x: 4, y: (bounds.height - h) / 2, width: max(0, bounds.width - 8), height: h),
                color: picker.textColor, alignment: .center)
        }
        if showsFocus {
            canvas.strokeRoundedRect(bounds.insetBy(dx: 1, dy: 1), radius: 6, lineWidth: 2, color: .tint)
        }
    }

    override func touchesEnded(_ touches: [Touch]) {
        wheel.pick(row, byUser: true, animated: true)
    }

    override var accessibilityDefaults: AccessibilityDefaults {
        AccessibilityDefaults(role: .listItem, label: title, isElement: true)
    }

    override var accessibilityExtraStates: AccessibilityStates { isPicked ? [.selected] : [] }

    override var accessibilityPosition: (index: Int, count: Int)? { (row + 1, wheel.rowCount) }

    override func accessibilityActivate() -> Bool {
        wheel.pick(row, byUser: true, animated: true)
        return true
    }

    /// A reader selects a row by picking it: the wheel turns to it (and the focus, if it was on
    /// the picked row, comes with it).
    override func accessibilitySelect() -> Bool {
        wheel.pick(row, byUser: true, animated: true)
        return isPicked
    }

    /// A wheel always picks a row: its pick cannot be taken away, only moved.
    override func accessibilityDeselect() -> Bool { false }

    override var accessibilitySelectionFollowsFocus: Bool { false }
}
