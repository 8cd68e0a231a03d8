import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayPhysics
import ScrollwayRaster
import ScrollwayViews

/// A button a row reveals when swiped to the left (UIKit's `UIContextualAction`): a title on a
/// coloured band, and what it does to the row.
public struct RowAction {
    public enum Style: Hashable, Sendable {
        /// Grey.
        case normal
        /// Red: the row goes (a delete).
        case destructive
    }

    public var title: String
    public var style: Style
    /// The band's colour (nil: the style's).
    public var backgroundColor: Color?
    /// Runs with the row's index when the button is tapped (or a screen reader performs it);
    /// the row closes first.
    public var handler: @MainActor (Int) -> Void

    public init(
        title: String, style: Style = .normal, backgroundColor: Color? = nil,
        handler: @escaping @MainActor (Int) -> Void
    ) {
        self.title = title
        self.style = style
        self.backgroundColor = backgroundColor
        self.handler = handler
    }

    var color: Color {
        backgroundColor ?? (style == .destructive ? Color(rgb: 255, 59, 48) : Color(rgb: 142, 142, 147))
    }
}

extension ListView {
    /// The row whose actions show (nil: none).
    public var openSwipeRow: Int? { swipeActions?.openCell.flatMap { row(for: $0) } }

    /// Slides an open row shut (at once, or with a short spring).
    public func closeSwipeActions(animated: Bool = true) { swipeActions?.close(animated: animated) }

    /// Turns row swiping on or off as `trailingSwipeActions` is set.
    func updateSwipeActions() {
        if trailingSwipeActions != nil, swipeActions == nil {
            swipeActions = RowSwipeActions(list: self)
        } else if trailingSwipeActions == nil, let s = swipeActions {
            s.uninstall()
            swipeActions = nil
        }
    }

    /// The actions for `row`, as the app gives them.
    func actions(forRow row: Int) -> [RowAction] { trailingSwipeActions?(row) ?? [] }
}

/// Row swiping for a list: a horizontal pan on the list (its delegate lets it begin only
/// sideways, on a row with actions) that slides the row's content left over its action buttons,
/// while a vertical pan still scrolls the list (the two are arbitrated as recognizers: the
/// first to begin makes the other fail). The row slides by its bounds: the cell's bounds origin
/// moves right by what is revealed, so its subviews (and the buttons placed just past its right
/// edge) move left on screen while its background stays, the same model as a scroll.
///
/// Released past half the buttons' width (or flicked left) the row stays open; otherwise it
/// closes. In a right-to-left list all of it is mirrored, as UIKit's trailing actions are: the
/// row slides right over buttons at its left edge (`side`). An open row closes when the list starts scrolling, when a touch taps anywhere but
/// its buttons (that tap does nothing else), when its cell is recycled, and after a button.
@MainActor
final class RowSwipeActions: GestureRecognizerDelegate {
    unowned let list: ListView
    let pan = PanGestureRecognizer()
    /// Closes an open row on a tap elsewhere (only takes touches while a row is open), a tap on
    /// a button in another row too: that tap only closes the row, as UITableView's does.
    let dismissTap = DismissTap()

    /// A tap that takes a control's tap too (`overlapsControlActions`).
    final class DismissTap: TapGestureRecognizer {
        override var overlapsControlActions: Bool { false }
    }
    /// The row being swiped or open, its buttons, and how far it is revealed.
    private(set) var openCell: ListCell?
    private var buttons: RowActionButtons?
    private var revealAtStart = 0.0
    /// Which way the open row's content moves on screen as it is revealed, as a sign on x:
    /// 1 (left, its buttons at its right edge) or −1 in a right-to-left list. Reveals are
    /// counted positive either way; the cell's bounds origin is the reveal times the side.
    private var side = 1.0
    private var animation: RevealAnimation?
    /// Whether the open cell clipped its subviews before it opened (it clips while open).
    private var cellClipped = false
    /// The action it added to the list's own pan (removed when swiping is turned off).
    private var scrollAction: Int?
    /// A release faster than this (px/s) decides open or closed by its direction.
    static let flickSpeed = 300.0

    init(list: ListView) {
        self.list = list
        pan.name = "rowSwipe"
        pan.maximumNumberOfTouches = 1
        pan.delegate = self
        pan.addAction { [unowned self] g in self.panChanged(g) }
        list.addGestureRecognizer(pan)
        dismissTap.name = "rowSwipeDismiss"
        dismissTap.delegate = self
        dismissTap.addAction { [unowned self] _ in self.close(animated: true) }
        list.addGestureRecognizer(dismissTap)
        // The list scrolling closes an open row.
        scrollAction = list.panGestureRecognizer.addAction { [weak self] g in
            if g.state == .began { self?.close(animated: true) }
        }
    }

    func uninstall() {
        close(animated: false)
        list.removeGestureRecognizer(pan)
        list.removeGestureRecognizer(dismissTap)
        if let scrollAction { list.panGestureRecognizer.removeAction(scrollAction) }
    }

    // MARK: Recognizer rules

    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
        guard recognizer === pan else { return true }
        let t = pan.translation(in: nil)
        guard abs(t.x) > abs(t.y) else { return false }
        guard let cell = cell(at: pan.location(in: list)) else { return false }
        // An open row drags in either direction; a closed one opens towards its leading edge
        // only (leftwards, or rightwards in a right-to-left list).
        if cell === openCell { return true }
        guard t.x * Self.side(of: list) < 0, let row = list.row(for: cell), !list.actions(forRow: row).isEmpty else {
            return false
        }
        return true
    }

    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
        guard recognizer === dismissTap else { return true }
        // Only while a row is open, and not for its buttons (they take their own taps).
        guard openCell != nil, let buttons else { return false }
        return !buttons.bounds.contains(buttons.convert(touch.location, from: nil))
    }

    /// The cell under `point` (list coordinates).
    private func cell(at point: Point) -> ListCell? {
        list.visibleCells.values.first { $0.frame.contains(point) }
    }

    // MARK: Sliding

    private func panChanged(_ g: GestureRecognizer) {
        switch g.state {
        case .began:
            guard let cell = cell(at: pan.location(in: list)) else { return }
            if cell !== openCell { close(animated: false) }
            guard open(cell) else { return }
            animation?.stop()
            revealAtStart = cell.bounds.origin.x * side
            follow()
        case .changed:
            follow()
        case .ended:
            guard let cell = openCell, let buttons else { return }
            let width = buttons.bounds.width
            let vx = pan.velocity(in: nil).x * side
            let reveal = cell.bounds.origin.x * side
            let stays = vx < -Self.flickSpeed || (vx <= Self.flickSpeed && reveal > width / 2)
            slide(to: stays ? width : 0, velocity: -vx)
        case .cancelled:
            close(animated: true)
        default:
            break
        }
    }

    /// The sign a list's reveals move its rows' content by on x (`side`).
    private static func side(of list: ListView) -> Double {
        list.effectiveUserInterfaceLayoutDirection == .rightToLeft ? -1 : 1
    }

    /// Puts the row's buttons just past its trailing edge; false if it has no actions.
    private func open(_ cell: ListCell) -> Bool {
        if cell === openCell, buttons != nil { return true }
        guard let row = list.row(for: cell) else { return false }
        let actions = list.actions(forRow: row)
        guard !actions.isEmpty else { return false }
        side = Self.side(of: list)
        let b = RowActionButtons(actions: actions, height: cell.bounds.height, rightToLeft: side < 0) {
            [unowned self, unowned cell] action in
            guard let row = self.list.row(for: cell) else { return }
            self.close(animated: false)
            action.handler(row)
        }
        let x = side > 0 ? cell.bounds.width : -b.preferredWidth
        b.frame = Rect(x: x, y: 0, width: b.preferredWidth, height: cell.bounds.height)
        cell.addSubview(b)
        cellClipped = cell.clipsToBounds
        cell.clipsToBounds = true
        openCell = cell
        buttons = b
        return true
    }

    /// The row follows the finger: revealed by what it travelled towards the leading edge,
    /// rubber-banded past the buttons' width (as content past its edge), never past closed.
    private func follow() {
        guard let cell = openCell, let buttons else { return }
        let wanted = revealAtStart - pan.translation(in: nil).x * side
        let width = buttons.bounds.width
        let reveal = RubberBand.clamp(max(0, wanted), min: 0, max: width, dimension: cell.bounds.width)
        cell.bounds.origin = Point(x: reveal * side, y: cell.bounds.origin.y)
    }

    /// Springs the row to `reveal` (0: closed), taking the finger's speed (px/s of reveal).
    private func slide(to reveal: Double, velocity: Double) {
        guard let cell = openCell, let window = list.window else {
            if reveal == 0 { close(animated: false) }
            return
        }
        animation?.stop()
        let a = RevealAnimation(
            cell: cell, side: side,
            spring: Spring(
                from: cell.bounds.origin.x * side, to: reveal, velocity: velocity, omega: Spring.animationOmega),
            start: window.now
        ) { [weak self] in
            if reveal == 0 { self?.close(animated: false) }
        }
        animation = a
        window.addAnimation(a)
    }

    /// Shuts the open row: its content back in place, its buttons gone.
    func close(animated: Bool) {
        guard let cell = openCell else { return }
        if animated, cell.bounds.origin.x * side > 0, list.window != nil {
            slide(to: 0, velocity: 0)
            return
        }
        animation?.stop()
        animation = nil
        buttons?.removeFromSuperview()
        buttons = nil
        cell.bounds.origin = Point(x: 0, y: cell.bounds.origin.y)
        cell.clipsToBounds = cellClipped
        openCell = nil
    }

    /// A cell leaves the list (recycled for another row): if it is the open one, it closes.
    func cellWillRecycle(_ cell: ListCell) {
        if cell === openCell { close(animated: false) }
    }
}

/// Springs an open row's reveal to a rest, then says so.
@MainActor
private final class RevealAnimation: FrameAnimation {
    weak var cell: ListCell?
    /// The sign of the cell's bounds origin for a reveal (`RowSwipeActions.side`).
    let side: Double
    let spring: Spring
    let start: Double
    let done: () -> Void
    private var stopped = false

    init(cell: ListCell, side: Double, spring: Spring, start: Double, done: @escaping () -> Void) {
        self.cell = cell
        self.side = side
        self.spring = spring
        self.start = start
        self.done = done
    }

    func stop() {
        stopped = true
        cell?.window?.removeAnimation(self)
    }

    func advance(to time: Double) -> Bool {
        guard !stopped, let cell else { return false }
        let dt = time - start
        if spring.isSettled(at: dt, scale: 1) {
            cell.bounds.origin = Point(x: spring.rest * side, y: cell.bounds.origin.y)
            done()
            return false
        }
        cell.bounds.origin = Point(x: max(0, spring.position(at: dt)) * side, y: cell.bounds.origin.y)
        return true
    }
}

/// A row's action buttons side by side, full height, the first action nearest the row (at
/// the left, or at the right when they stand at a right-to-left row's left edge).
@MainActor
final class RowActionButtons: View {
    let preferredWidth: Double

    init(
        actions: [RowAction], height: Double, rightToLeft: Bool = false,
        perform: @escaping @MainActor (RowAction) -> Void
    ) {
        let font = try? Font.system(size: 15, bold: true)
        var made: [Button] = []
        for action in actions {
            let b = Button(title: action.title)
            b.font = font
            b.fillColor = action.color
            b.cornerRadius = 0
            let width = max(74, (b.sizeThatFits(Size(width: 400, height: height)).width) + 24)
            b.frame = Rect(x: 0, y: 0, width: width, height: height)
            b.onTap = { perform(action) }
            made.append(b)
        }
        preferredWidth = made.reduce(0) { $0 + $1.frame.width }
        var x = 0.0
        for b in rightToLeft ? made.reversed() : made {
            b.frame.origin.x = x
            x += b.frame.width
        }
        super.init()
        for b in made { addSubview(b) }
    }
}
