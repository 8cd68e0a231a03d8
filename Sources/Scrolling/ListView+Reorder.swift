import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayViews

/// A row being moved by hand (`ListView.beginInteractiveMovementForRow`): which row of the
/// data source it is, where it stands in the list now, its cell, and where the finger holds it.
@MainActor
final class RowMovement {
    /// Its index in the data source, which has not moved it yet.
    let original: Int
    /// Its index in the list as it stands now (the rows between moved a place for it).
    var current: Int
    let cell: ListCell
    /// How far below the cell's top the finger holds it.
    let grab: Double
    /// The finger's last position, in the window (the content scrolls under it).
    var finger: Point
    var autoscroll: ReorderAutoscroll?

    init(original: Int, cell: ListCell, grab: Double, finger: Point) {
        self.original = original
        current = original
        self.cell = cell
        self.grab = grab
        self.finger = finger
    }

    /// Where a section the data source starts at row `start` starts in the list now: its rows
    /// other than the lifted one keep their order around it. The lifted row standing right at
    /// the section's edge stays in the section it came from (the data source decides where it
    /// goes when it is dropped).
    func listStart(ofSectionStartingAt start: Int) -> Int {
        Self.sectionStart(start, afterMovingRow: original, to: current)
    }

    /// Where a section starting at row `start` starts once the row at `from` stands at `to`
    /// (its index after the move): the other rows keep their order around it, and a row right
    /// at the section's edge stays on the side it came from. A diffable data source writes a
    /// hand move back into its snapshot by the same rule, so the sections it gives after the
    /// drop are those the list showed during it.
    static func sectionStart(_ start: Int, afterMovingRow from: Int, to: Int) -> Int {
        // The rows other than the moved one that come before the section's first.
        let before = start - (from < start ? 1 : 0)
        let movedBefore = to < before || (to == before && from < start)
        return before + (movedBefore ? 1 : 0)
    }

    /// The data source's index of the row the list shows at `row` while this one is away from
    /// its place: the list's rows between its old and new places are one place along.
    func dataRow(_ row: Int) -> Int {
        if row == current { return original }
        if original < current, row >= original, row < current { return row + 1 }
        if current < original, row > current, row <= original { return row - 1 }
        return row
    }
}

extension ListView {
    /// The row being moved by hand, where it stands now (nil: none).
    public var interactiveMovementRow: Int? { movement?.current }

    /// Lifts `row` to move it by hand (UICollectionView's interactive movement, for a list):
    /// false when the data source does not let it move (`list(_:canMoveRow:)`), it has no cell,
    /// or a row is already moving. The lifted row follows
    /// `updateInteractiveMovementTargetPosition`, and the rows it passes make room for it; the
    /// data source hears of the move once it is dropped (`endInteractiveMovement`).
    /// `reordersRowsOnLongPress` drives all of it from a long press.
    @discardableResult
    public func beginInteractiveMovementForRow(_ row: Int) -> Bool {
        guard let cell = visibleCells[row] else { return false }
        return lift(row, at: Point(x: cell.frame.midX, y: cell.frame.midY))
    }

    /// Lifts `row`, held at `point` (list coordinates, on its cell); false as
    /// `beginInteractiveMovementForRow` says.
    private func lift(_ row: Int, at point: Point) -> Bool {
        guard movement == nil, row >= 0, row < rowCount, let dataSource, dataSource.list(self, canMoveRow: row),
            let cell = visibleCells[row]
        else { return false }
        closeSwipeActions(animated: false)
        stopMotion()
        movement = RowMovement(
            original: row, cell: cell, grab: point.y - cell.frame.minY, finger: convert(point, to: nil))
        cell.isHighlighted = true
        placeLiftedCell()
        return true
    }

    /// The lifted row follows `point` (list coordinates, where the finger is): its cell's middle
    /// goes where the finger holds it, the row takes the place of each row whose middle it
    /// passes, and near the top or bottom edge the list scrolls on by itself.
    public func updateInteractiveMovementTargetPosition(_ point: Point) {
        guard let movement else { return }
        movement.finger = convert(point, to: nil)
        followFinger()
        startAutoscrollIfNeeded()
    }

    /// Drops the lifted row where it stands: the data source is told of the move (when it
    /// moved), the row settles into its place and the sections are read again.
    public func endInteractiveMovement() {
        guard let movement else { return }
        let (from, to) = (movement.original, movement.current)
        // Over before the data source hears of the move: the list already shows the row where it
        // was dropped, so an update the data source makes then (an app applying a snapshot from
        // a diffable source's `didReorder`) finds the list in the model's order, where it had put
        // the row back where it was lifted under an update naming rows in the new order.
        self.movement = nil
        // The model first: the update that settles the row may ask for rows it brings in.
        if from != to { dataSource?.list(self, moveRowAt: from, to: to) }
        finishMovement(movement)
        // The data source's sections may have moved with the row.
        if from != to { sectionsMayHaveChanged() }
    }

    /// Puts the lifted row back where it was, the rows it passed sliding back as it settles
    /// there; the data source hears nothing.
    public func cancelInteractiveMovement() { cancelInteractiveMovement(animated: true) }

    /// `cancelInteractiveMovement()`, at once unless `animated`.
    func cancelInteractiveMovement(animated: Bool) {
        guard let movement else { return }
        let from = movement.current
        // Back in the data source's order before any row is asked for again.
        let to = movement.original
        movement.current = to
        if from != to { moveInLayout(from: from, to: to, animated: animated) }
        finishMovement(movement, animated: animated)
    }

    /// A lifted row's cell leaves the list (a reload): the movement ends where it is, with no
    /// word to the data source (a reload reads its order afresh).
    func dropMovement() {
        guard let movement else { return }
        movement.autoscroll?.stopped = true
        movement.cell.isHighlighted = false
        self.movement = nil
    }

    /// The dropped (or put back) row settles from where the finger left it into its place,
    /// as UIKit's does, and rows still making room go on to theirs: every cell in view slides
    /// from where it stands (`animatingRows`, an update that changes nothing), at once outside
    /// a window.
    private func finishMovement(_ movement: RowMovement, animated: Bool = true) {
        movement.autoscroll?.stopped = true
        if self.movement === movement { self.movement = nil }
        movement.cell.isHighlighted = false
        animatingRows(animated ? .automatic : .none, departing: [], arriving: [], newIndex: { $0 }) {}
        updateVisibleRows()
    }

    /// The lifted cell where the finger holds it (never beyond the content's ends), in front
    /// of the rows and headers. Called at the end of every update while a row moves.
    func placeLiftedCell() {
        guard let movement, movement.cell.superview === self else { return }
        let cell = movement.cell
        let fingerY = convert(movement.finger, from: nil).y
        let h = cell.frame.height
        let y = min(max(0, fingerY - movement.grab), max(0, contentSize.height - h))
        let rect = Rect(x: 0, y: y, width: bounds.width, height: h)
        // Under the finger, never on its way anywhere: an update that slid the rows gave it a
        // slide too, from where it stood (the finger's place already, an autoscroll's frame
        // having put it there), which setting the same frame would leave running.
        cell.removeCenterAnimation()
        if cell.frame != rect { cell.frame = rect }
        let front = headersFront
        if subviews.index(ofIdentical: cell) != front - 1 { insertSubview(cell, at: front - 1) }
    }

    /// The row takes the place of each neighbour whose middle the lifted cell's middle has
    /// passed, one place at a time (a taller or shorter neighbour never makes it swing back),
    /// the rows between sliding aside; the places are the layout's at once, so the next
    /// neighbour is judged by where it is going, not where its slide has it.
    func followFinger() {
        guard let movement else { return }
        let middle = convert(movement.finger, from: nil).y - movement.grab + movement.cell.frame.height / 2
        var target = movement.current
        while target > 0, middle < rectForRow(target - 1).midY { target -= 1 }
        while target < rowCount - 1, middle > rectForRow(target + 1).midY { target += 1 }
        // The data source may send it elsewhere (a pinned first row stays first).
        if target != movement.current, let dataSource {
            let asked = dataSource.list(self, targetRowForMoveFrom: movement.original, toProposedRow: target)
            target = min(max(asked, 0), rowCount - 1)
        }
        if target != movement.current {
            let from = movement.current
            movement.current = target
            // The rows it passed slide to their new places (UIKit's rows making room), each
            // from where it stands, so a row passed and passed back turns round smoothly.
            moveInLayout(from: from, to: target, animated: true)
        }
        placeLiftedCell()
    }

    /// How fast the list scrolls by itself with the finger `depth` px into the band along an
    /// edge (`ReorderAutoscroll.band` deep): faster the deeper, to `maximumSpeed` at the edge.
    static func autoscrollSpeed(depth: Double) -> Double {
        let band = ReorderAutoscroll.band
        guard depth > 0 else { return 0 }
        return ReorderAutoscroll.maximumSpeed * min(1, depth / band)
    }

    /// The list's own speed (px/s, positive downwards) for where the finger is: in the band
    /// along the visible top it scrolls up, along the bottom down, and not past its range.
    func autoscrollVelocity() -> Double {
        guard let movement else { return 0 }
        let visible = bounds.inset(by: adjustedContentInset)
        let y = convert(movement.finger, from: nil).y
        let band = ReorderAutoscroll.band
        let range = verticalRange
        if y < visible.minY + band, contentOffset.y > range.lowerBound {
            return -Self.autoscrollSpeed(depth: visible.minY + band - y)
        }
        if y > visible.maxY - band, contentOffset.y < range.upperBound {
            return Self.autoscrollSpeed(depth: y - (visible.maxY - band))
        }
        return 0
    }

    private func startAutoscrollIfNeeded() {
        guard let movement, movement.autoscroll == nil, autoscrollVelocity() != 0, let window else { return }
        let a = ReorderAutoscroll(list: self, start: window.now)
        movement.autoscroll = a
        window.addAnimation(a)
    }

    /// A frame of the autoscroll: the list moves on by the speed for where the finger is, the
    /// lifted row with the finger; false once the finger left the bands or the list its range
    /// (the next move that brings it back starts another). A long frame (a stall, frames
    /// throttled) goes in steps no longer than a 60 Hz frame: each moves the viewport by less
    /// than the margin, so the lifted row's cell stays among the rows with cells (one jump
    /// past them recycled it, and the movement was dropped under the finger).
    func autoscrollStep(dt: Double) -> Bool {
        var left = dt
        repeat {
            guard let movement else { return false }
            let step = min(left, Self.autoscrollMaximumStep)
            left -= step
            let v = autoscrollVelocity()
            guard v != 0 else {
                movement.autoscroll = nil
                return false
            }
            let range = verticalRange
            let y = min(max(contentOffset.y + v * step, range.lowerBound), range.upperBound)
            contentOffset = Point(x: contentOffset.x, y: y)
            followFinger()
        } while left > 0
        return true
    }

    /// The longest time one step of the autoscroll covers (s).
    static let autoscrollMaximumStep = 1.0 / 60

    /// A screen reader's "Move up" or "Move down" (`step` −1 or 1) on the row of `cell`: the
    /// data source moves it a place, and so does the list, keeping the cell (and the reader's
    /// place on it); a reader hears where it went. False at either end, for a row that may not
    /// move, or where the data source keeps it (`list(_:targetRowForMoveFrom:toProposedRow:)`).
    func moveForReader(_ cell: ListCell, by step: Int) -> Bool {
        guard movement == nil, let dataSource, let row = row(for: cell) else { return false }
        guard row + step >= 0, row + step < rowCount, dataSource.list(self, canMoveRow: row) else { return false }
        let target = min(
            max(dataSource.list(self, targetRowForMoveFrom: row, toProposedRow: row + step), 0), rowCount - 1)
        guard target != row else { return false }
        // An update the data source makes on hearing of the move (an app applying a snapshot
        // from a diffable source's `didReorder`) makes the move in the list first.
        readerMoveToShow = (row, target)
        dataSource.list(self, moveRowAt: row, to: target)
        if readerMoveToShow != nil {
            readerMoveToShow = nil
            moveRow(at: row, to: target)
        }
        let now = self.row(for: cell) ?? target
        scrollToRow(now, animated: false)
        window?.postAccessibilityNotification(.announcement("Moved to row \(now + 1) of \(rowCount)"))
        return true
    }

    /// Turns the long press that lifts rows on or off.
    func updateRowReorder() {
        if reordersRowsOnLongPress, rowReorder == nil {
            rowReorder = RowReorder(list: self)
        } else if !reordersRowsOnLongPress, let r = rowReorder {
            cancelInteractiveMovement()
            removeGestureRecognizer(r.press)
            rowReorder = nil
        }
    }

    /// The long press that lifts a row (`reordersRowsOnLongPress`) and moves it.
    func reorderPressChanged(_ g: GestureRecognizer) {
        switch g.state {
        case .began:
            // Held where the finger took it, not by its middle.
            let p = g.location(in: self)
            if let row = visibleRow(at: p)?.row { _ = lift(row, at: p) }
        case .changed:
            updateInteractiveMovementTargetPosition(g.location(in: self))
        case .ended:
            endInteractiveMovement()
        case .cancelled, .failed:
            cancelInteractiveMovement()
        default:
            break
        }
    }
}

/// The long press on a list that lifts a row the data source lets move; it may begin only on
/// such a row, so a long press elsewhere leaves the list's own gestures alone. `byGrip` (a list
/// editing): a press of no duration, taking only touches on the rows' grips, lifts the row at
/// once.
@MainActor
final class RowReorder: GestureRecognizerDelegate {
    unowned let list: ListView
    let press = LongPressGestureRecognizer()
    let byGrip: Bool

    init(list: ListView, byGrip: Bool = false) {
        self.list = list
        self.byGrip = byGrip
        press.name = byGrip ? "rowGrip" : "rowReorder"
        if byGrip {
            press.minimumPressDuration = 0
            press.allowableMovement = .greatestFiniteMagnitude
        }
        press.delegate = self
        press.addAction { [unowned list] g in list.reorderPressChanged(g) }
        list.addGestureRecognizer(press)
    }

    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
        let p = recognizer.location(in: list)
        guard list.interactiveMovementRow == nil, !byGrip || list.gripTakes(p), let dataSource = list.dataSource,
            let row = list.visibleRow(at: p)?.row
        else { return false }
        return dataSource.list(list, canMoveRow: row)
    }

    /// A finger held on the section index reads it (or jumps along it): no row lifts under it.
    /// By grip, only a touch on a grip is taken.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
        guard byGrip else { return !list.sectionIndexTakes(touch) }
        return list.interactiveMovementRow == nil && list.gripTakes(list.convert(touch.location, from: nil))
    }
}

/// Scrolls a list while a lifted row is held near its top or bottom edge, a frame at a time.
@MainActor
final class ReorderAutoscroll: FrameAnimation {
    /// How deep the band along each edge is where the list scrolls by itself.
    static let band = 60.0
    /// Its speed at the edge (px/s).
    static let maximumSpeed = 1200.0
    weak var list: ListView?
    private var last: Double
    var stopped = false

    init(list: ListView, start: Double) {
        self.list = list
        last = start
    }

    func advance(to time: Double) -> Bool {
        guard !stopped, let list else { return false }
        let dt = max(0, time - last)
        last = time
        return list.autoscrollStep(dt: dt)
    }
}
