import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayPhysics
import ScrollwayRaster
import ScrollwayViews

/// A button a row reveals when swiped sideways (UIKit's `UIContextualAction`): a title on a
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

    /// Turns row swiping on or off as either side's actions are set.
    func updateSwipeActions() {
        // While editing, the Delete a row's delete control shows is an open row's button.
        let swipes = trailingSwipeActions != nil || leadingSwipeActions != nil || isEditing
        if swipes, swipeActions == nil {
            swipeActions = RowSwipeActions(list: self)
        } else if !swipes, let s = swipeActions {
            s.uninstall()
            swipeActions = nil
        }
    }

    /// The actions for `row` on both sides, trailing first (what a screen reader offers).
    func actions(forRow row: Int) -> [RowAction] {
        (trailingSwipeActions?(row) ?? []) + (leadingSwipeActions?(row) ?? [])
    }

    /// The actions a row reveals at its right edge (`side` 1: swiped leftwards) or its left
    /// edge (−1): the trailing ones at the right unless the list runs right to left.
    func actions(forRow row: Int, side: Double) -> [RowAction] {
        let rightToLeft = effectiveUserInterfaceLayoutDirection == .rightToLeft
        let trailing = (side > 0) != rightToLeft
        return (trailing ? trailingSwipeActions : leadingSwipeActions)?(row) ?? []
    }
}

/// Row swiping for a list: a horizontal pan on the list (its delegate lets it begin only
/// sideways, on a row with actions on that side) that slides the row's content over its action
/// buttons, while a vertical pan still scrolls the list (the two are arbitrated as recognizers:
/// the first to begin makes the other fail). The row slides by its bounds: swiped leftwards,
/// the cell's bounds origin moves right by what is revealed, so its subviews (and the buttons
/// placed just past its right edge) move left on screen while its background stays, the same
/// model as a scroll; swiped rightwards, all of it is mirrored (`side`). Leftwards reveals the
/// trailing actions and rightwards the leading ones, the other way round in a right-to-left
/// list, as UIKit's are.
///
/// Released past half the buttons' width (or flicked open) the row stays open; otherwise it
/// closes. With `performsFirstActionWithFullSwipe`, a row drawn past `fullSwipeReveal` shows
/// its first action across all it reveals, and released there performs it. An open row closes
/// when the list starts scrolling, when a touch taps anywhere but its buttons (that tap does
/// nothing else), when its cell is recycled, and after a button.
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
    /// 1 (left, its buttons at its right edge) or −1 (right, its buttons at its left edge).
    /// Reveals are counted positive either way; the cell's bounds origin is the reveal times
    /// the side.
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
        // An open row drags in either direction; a closed one opens towards the side that has
        // actions, and none while the list edits.
        if cell === openCell { return true }
        guard !list.isEditing, let row = list.row(for: cell), !list.actions(forRow: row, side: t.x < 0 ? 1 : -1).isEmpty
        else {
            return false
        }
        return true
    }

    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
        // The section index keeps its touches (a drag along it is no row's swipe).
        if list.sectionIndexTakes(touch) { return false }
        guard recognizer === dismissTap else { return true }
        // Only while a row is open, and not for its buttons (they take their own taps).
        guard openCell != nil, let buttons else { return false }
        return !buttons.bounds.contains(buttons.convert(touch.location, from: nil))
    }

    /// The cell under `point` (list coordinates).
    private func cell(at point: Point) -> ListCell? { list.visibleRow(at: point)?.cell }

    // MARK: Sliding

    private func panChanged(_ g: GestureRecognizer) {
        switch g.state {
        case .began:
            guard let cell = cell(at: pan.location(in: list)) else { return }
            if cell !== openCell { close(animated: false) }
            guard open(cell, side: pan.translation(in: nil).x < 0 ? 1 : -1) else { return }
            animation?.stop()
            revealAtStart = cell.bounds.origin.x * side
            follow()
        case .changed:
            follow()
        case .ended:
            guard let cell = openCell, let buttons else { return }
            let reveal = cell.bounds.origin.x * side
            if buttons.expanded, let row = list.row(for: cell), let action = buttons.actions.first {
                // A full swipe: the row closes as its first action runs (the action may take
                // the row away, and the cell with it).
                close(animated: true)
                action.handler(row)
                return
            }
            let width = buttons.preferredWidth
            let vx = pan.velocity(in: nil).x * side
            let stays = vx < -Self.flickSpeed || (vx <= Self.flickSpeed && reveal > width / 2)
            slide(to: stays ? width : 0, velocity: -vx)
        case .cancelled:
            close(animated: true)
        default:
            break
        }
    }

    /// Puts the row's buttons for `side` just past its edge on that side; false if it has no
    /// actions there. An open row keeps the side it opened to.
    private func open(_ cell: ListCell, side: Double, actions given: [RowAction]? = nil) -> Bool {
        if cell === openCell, buttons != nil { return true }
        guard let row = list.row(for: cell) else { return false }
        let actions = given ?? list.actions(forRow: row, side: side)
        guard !actions.isEmpty else { return false }
        self.side = side
        let b = RowActionButtons(actions: actions, height: cell.bounds.height, atRightEdge: side > 0) {
            [unowned self, unowned cell] action in
            guard let row = self.list.row(for: cell) else { return }
            // The action first, the row still open: one that takes the row away animated takes
            // it as it stands (`letGo`); after any other the row closes.
            action.handler(row)
            if self.openCell === cell { self.close(animated: false) }
        }
        cell.addSubview(b)
        cellClipped = cell.clipsToBounds
        cell.clipsToBounds = true
        openCell = cell
        buttons = b
        // The section index would stand over the outermost button and take its taps: it is
        // away while a row is open, as UITableView's is while it edits.
        list.sectionIndex?.isHidden = true
        show(reveal: 0)
        return true
    }

    /// How far a row is drawn before its first action fills what it reveals and a release
    /// performs it: `fullSwipeMargin` past the buttons at least, and `fullSwipeFraction` of the
    /// row (short of its whole width, which the finger cannot pass), so that a long ordinary
    /// swipe opens the row rather than performs (physics.md).
    static func fullSwipeReveal(rowWidth: Double, buttonsWidth: Double) -> Double {
        max(buttonsWidth + fullSwipeMargin, fullSwipeFraction * rowWidth)
    }
    static let fullSwipeMargin = 32.0
    static let fullSwipeFraction = 0.6

    /// The row follows the finger: revealed by what it travelled towards the buttons, never
    /// past closed. Past the buttons' width it follows on to the row's width when a full swipe
    /// may perform the first action, else it is rubber-banded (as content past its edge).
    private func follow() {
        guard let cell = openCell, let buttons else { return }
        let wanted = max(0, revealAtStart - pan.translation(in: nil).x * side)
        let width = buttons.preferredWidth
        let reveal =
            list.performsFirstActionWithFullSwipe
            ? min(wanted, cell.bounds.width)
            : RubberBand.clamp(wanted, min: 0, max: width, dimension: cell.bounds.width)
        show(reveal: reveal)
    }

    /// The open row's height changed (it was reconfigured): its buttons fill it again.
    func openRowResized() {
        guard let cell = openCell, buttons != nil else { return }
        show(reveal: cell.bounds.origin.x * side)
    }

    /// Moves the open row's content by `reveal` and lays its buttons over what that uncovers.
    private func show(reveal: Double) {
        guard let cell = openCell, let buttons else { return }
        cell.bounds.origin = Point(x: reveal * side, y: cell.bounds.origin.y)
        buttons.bounds.size = Size(width: buttons.bounds.width, height: cell.bounds.height)
        let rowWidth = cell.bounds.width
        let expanded =
            list.performsFirstActionWithFullSwipe
            && reveal >= Self.fullSwipeReveal(rowWidth: rowWidth, buttonsWidth: buttons.preferredWidth)
        buttons.lay(out: reveal, expanded: expanded)
        let w = buttons.bounds.width
        buttons.frame = Rect(x: side > 0 ? rowWidth : -w, y: 0, width: w, height: cell.bounds.height)
    }

    /// Springs the row to `reveal` (0: closed), taking the finger's speed (px/s of reveal).
    private func slide(to reveal: Double, velocity: Double) {
        guard let cell = openCell, let window = list.window else {
            if reveal == 0 { close(animated: false) }
            return
        }
        animation?.stop()
        let a = RevealAnimation(
            window: window,
            spring: Spring(
                from: cell.bounds.origin.x * side, to: reveal, velocity: velocity, omega: Spring.animationOmega),
            start: window.now,
            show: { [weak self] in self?.show(reveal: $0) }
        ) { [weak self] in
            if reveal == 0 { self?.close(animated: false) }
        }
        animation = a
        window.addAnimation(a)
    }

    /// Shows `action` alone on `cell`'s trailing side, the row opened over it (a delete
    /// control's Delete); a tap anywhere else closes it (`dismissTap`), the control having
    /// slid away with the row's content.
    func confirm(_ cell: ListCell, with action: RowAction) {
        close(animated: false)
        let trailing: Double = list.effectiveUserInterfaceLayoutDirection == .rightToLeft ? -1 : 1
        guard open(cell, side: trailing, actions: [action]), let buttons else { return }
        slide(to: buttons.preferredWidth, velocity: 0)
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
        list.sectionIndex?.isHidden = false
    }

    /// A cell leaves the list (recycled for another row): if it is the open one, it closes.
    func cellWillRecycle(_ cell: ListCell) {
        if cell === openCell { close(animated: false) }
    }

    /// The open cell's row goes out animated (`ListView.animatingRows`): the cell goes as it
    /// stands, open over its buttons (a full swipe's first action filling the row), as
    /// UITableView's row does, and the list forgets it; nil for a cell not open. The closure
    /// returned puts the cell right for reuse: its content back in place, its buttons gone.
    func letGo(_ cell: ListCell) -> (() -> Void)? {
        guard cell === openCell, let buttons else { return nil }
        animation?.stop()
        animation = nil
        let clipped = cellClipped
        openCell = nil
        self.buttons = nil
        list.sectionIndex?.isHidden = false
        return {
            buttons.removeFromSuperview()
            cell.bounds.origin = Point(x: 0, y: cell.bounds.origin.y)
            cell.clipsToBounds = clipped
        }
    }
}

/// Springs an open row's reveal to a rest, then says so.
@MainActor
private final class RevealAnimation: FrameAnimation {
    weak var window: Window?
    let spring: Spring
    let start: Double
    /// Shows a reveal (`RowSwipeActions.show`).
    let show: (Double) -> Void
    let done: () -> Void
    private var stopped = false

    init(
        window: Window, spring: Spring, start: Double, show: @escaping (Double) -> Void,
        done: @escaping () -> Void
    ) {
        self.window = window
        self.spring = spring
        self.start = start
        self.show = show
        self.done = done
    }

    func stop() {
        stopped = true
        window?.removeAnimation(self)
    }

    func advance(to time: Double) -> Bool {
        guard !stopped else { return false }
        let dt = time - start
        if spring.isSettled(at: dt, scale: 1) {
            show(spring.rest)
            done()
            return false
        }
        show(max(0, spring.position(at: dt)))
        return true
    }
}

/// A row's action buttons side by side, full height, the first action outermost (UIKit's
/// order: at the row's right edge for buttons there, at its left edge for buttons there).
/// Revealed past their own width they widen in proportion to fill what the row uncovers, and
/// `expanded` (a full swipe) gives the first all of it.
@MainActor
final class RowActionButtons: View {
    /// The actions, first outermost, and their buttons in the same order.
    let actions: [RowAction]
    private let made: [Button]
    private let widths: [Double]
    let preferredWidth: Double
    let atRightEdge: Bool
    private(set) var expanded = false

    init(
        actions: [RowAction], height: Double, atRightEdge: Bool,
        perform: @escaping @MainActor (RowAction) -> Void
    ) {
        let font = try? Font.system(size: 15, bold: true)
        var made: [Button] = []
        for action in actions {
            let b = Button(title: action.title)
            b.font = font
            b.fillColor = action.color
            b.cornerRadius = 0
            b.frame = Rect(x: 0, y: 0, width: 0, height: height)
            b.onTap = { perform(action) }
            made.append(b)
        }
        self.actions = actions
        self.made = made
        widths = made.map { max(74, $0.sizeThatFits(Size(width: 400, height: height)).width + 24) }
        preferredWidth = widths.reduce(0, +)
        self.atRightEdge = atRightEdge
        super.init()
        bounds.size = Size(width: 0, height: height)
        for b in made { addSubview(b) }
        lay(out: 0, expanded: false)
    }

    /// Lays the buttons out for a row revealed by `reveal`: their own widths until it passes
    /// them, then widened alike to fill it; expanded, the first fills it alone.
    func lay(out reveal: Double, expanded: Bool) {
        self.expanded = expanded
        let total = max(reveal, preferredWidth)
        bounds.size = Size(width: total, height: bounds.height)
        let stretch = total / preferredWidth
        // From the inner edge outwards: the last action innermost.
        var inner = 0.0
        for (i, b) in zip(made.indices, made).reversed() {
            let w = expanded ? (i == 0 ? total : 0) : widths[i] * stretch
            b.isHidden = w == 0
            b.frame = Rect(x: atRightEdge ? inner : total - inner - w, y: 0, width: w, height: bounds.height)
            inner += w
        }
    }
}
