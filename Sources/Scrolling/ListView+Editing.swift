import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayViews

/// What a row's editing control does while its list edits (UITableViewCell's `EditingStyle`).
public enum RowEditingStyle: Hashable, Sendable {
    /// No control.
    case none
    /// A red circle with a bar: tapped, it shows the row's Delete button, which deletes it.
    case delete
    /// A green circle with a cross: tapped, it inserts (a new item after it, an address's
    /// "add phone").
    case insert
}

extension ListView {
    /// Whether the list edits its rows (UITableView's `isEditing`); `setEditing(_:animated:)`
    /// animates the change.
    public var isEditing: Bool {
        get { editingRows }
        set { setEditing(newValue, animated: false) }
    }

    /// Starts or ends editing (UITableView's `setEditing(_:animated:)`, an Edit button's
    /// action). While the list edits, every row the data source gives an editing style
    /// (`list(_:editingStyleForRow:)`) shows its control at its leading edge, its content
    /// moved in to make room, and every row it lets move (`list(_:canMoveRow:)`) shows a grip
    /// at its trailing edge that a finger drags at once, no long press. The delete control
    /// shows the row's Delete button, and Delete (or the insert control) asks the data source
    /// to make the change (`list(_:commit:forRow:)`). Rows are not swiped open and, unless
    /// `allowsSelectionDuringEditing` or `allowsMultipleSelectionDuringEditing`, not selected
    /// by a tap; the selection ends as the mode changes. Rows whose text wraps anew at
    /// the narrower width are measured again. Animated, the content slides and the controls
    /// fade in or out over `rowAnimationDuration`, the rows below moving with the heights.
    public func setEditing(_ editing: Bool, animated: Bool) {
        guard editing != editingRows else { return }
        if isUpdating { return refuseUpdate("setEditing: made while the list asks for rows") }
        closeSwipeActions(animated: false)
        if movement != nil { cancelInteractiveMovement(animated: animated) }
        // A selection made in one mode means nothing in the other, as in UIKit.
        setSelection([])
        editingRows = editing
        updateSwipeActions()
        updateGripDrag()
        let animates = animated && window != nil
        for (row, cell) in visibleCells {
            showEditing(of: row, on: cell, animated: animates)
            offerActions(of: row, on: cell)
        }
        // The rows in view measured at their new width now, the others when next in view.
        let heights = visibleCells.map { r, cell in (r, wantedHeight(of: cell)) }
        animatingRows(animates ? .automatic : .none, departing: [], arriving: [], newIndex: { $0 }) {
            keepingRowsInViewStill(
                mutate: {
                    layout.forgetMeasurements(except: Set(heights.map(\.0)))
                    for (r, h) in heights { layout.setHeight(r, h) }
                }, newIndex: { $0 })
        }
    }

    /// `cell`, about to show `row` (or showing it), in the list's editing state: its editing
    /// style and whether it shows a grip, from the data source.
    func showEditing(of row: Int, on cell: ListCell, animated: Bool = false) {
        guard editingRows || cell.isEditing else { return }
        let dataRow = movement?.dataRow(row) ?? row
        let selecting = editingRows && allowsMultipleSelectionDuringEditing
        let style = editingRows && !selecting ? dataSource?.list(self, editingStyleForRow: dataRow) ?? .none : .none
        let grip = editingRows && dataSource?.list(self, canMoveRow: dataRow) == true
        cell.setEditing(editingRows, style: style, reorder: grip, selecting: selecting, animated: animated)
    }

    /// The row of `cell`'s editing control was tapped: a delete control shows the row's Delete
    /// button (`list(_:titleForDeleteConfirmationButtonForRow:)`), an insert control asks for
    /// the insert.
    func editingControlTapped(in cell: ListCell) {
        guard editingRows, let row = row(for: cell), let dataSource else { return }
        if cell.showsSelectionControl { return rowTapped(row) }
        switch cell.editingStyle {
        case .delete:
            let title = dataSource.list(self, titleForDeleteConfirmationButtonForRow: movement?.dataRow(row) ?? row)
            swipeActions?.confirm(cell, with: deleteAction(title: title))
        case .insert:
            dataSource.list(self, commit: .insert, forRow: movement?.dataRow(row) ?? row)
        case .none:
            break
        }
    }

    /// The Delete a delete control shows: the data source deletes the row.
    func deleteAction(title: String) -> RowAction {
        RowAction(title: title, style: .destructive) { [weak self] row in
            guard let self, let dataSource = self.dataSource else { return }
            dataSource.list(self, commit: .delete, forRow: row)
        }
    }

    /// While editing, a screen reader is offered the row's change as an action (the Delete
    /// button's title, "Insert"), its control's and Delete's work in one, found by the cell's
    /// row when performed (inserts, deletes and moves renumber cells).
    func editingActions(forRow row: Int, on cell: ListCell) -> [AccessibilityCustomAction] {
        guard editingRows, !allowsMultipleSelectionDuringEditing, let dataSource else { return [] }
        let dataRow = movement?.dataRow(row) ?? row
        let style = dataSource.list(self, editingStyleForRow: dataRow)
        guard style != .none else { return [] }
        let name = style == .delete ? dataSource.list(self, titleForDeleteConfirmationButtonForRow: dataRow) : "Insert"
        return [
            AccessibilityCustomAction(name: name) { [weak self, weak cell] in
                guard let self, self.editingRows, let cell, let row = self.row(for: cell), self.movement == nil,
                    let dataSource = self.dataSource, dataSource.list(self, editingStyleForRow: row) == style
                else { return false }
                self.closeSwipeActions(animated: false)
                dataSource.list(self, commit: style, forRow: row)
                return true
            }
        ]
    }

    /// The grips' drag, while the list edits.
    func updateGripDrag() {
        if editingRows, gripDrag == nil {
            gripDrag = RowReorder(list: self, byGrip: true)
        } else if !editingRows, let g = gripDrag {
            removeGestureRecognizer(g.press)
            gripDrag = nil
        }
    }

    /// Whether `point` (list coordinates) is on the grip of a row in view (not one showing its
    /// Delete, whose grip has slid aside with its content).
    func gripTakes(_ point: Point) -> Bool {
        guard let cell = visibleRow(at: point)?.cell, let grip = cell.reorderGrip, !grip.isHidden,
            swipeActions?.openCell !== cell
        else { return false }
        return grip.bounds.contains(grip.convert(point, from: self))
    }
}

/// A row's editing control: a red circle with a white bar (delete) or a green one with a white
/// cross (insert), in the slot its cell keeps at its leading edge while editing. Its hit area
/// runs the row's height, from the row's edge to its content (to the outline chevron's reach,
/// in an outline).
final class RowEditingControl: PressableControl {
    /// The room the row's content moves in by (UIKit's is about as wide).
    static let slotWidth = 38.0
    /// The circle's diameter.
    static let diameter = 22.0

    var style = RowEditingStyle.delete { didSet { if style != oldValue { setNeedsDisplay() } } }
    /// A selection circle instead (a list selecting several rows while it edits): ticked
    /// while its row is selected.
    var selects = false { didSet { if selects != oldValue { setNeedsDisplay() } } }
    /// What a tap does (the list shows Delete, or inserts).
    var onPress: (() -> Void)?

    override init(frame: Rect = .zero) {
        super.init(frame: frame)
        canBecomeFocused = false
    }

    override var drawsContent: Bool { true }

    /// The circle sits 16 px in from the row's edge (mirrored right to left).
    override func draw(in canvas: Canvas) {
        let d = Self.diameter
        let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        let x = rtl ? bounds.width - 16 - d : 16
        let circle = Rect(x: x, y: (bounds.height - d) / 2, width: d, height: d)
        if selects {
            drawSelection(in: circle, canvas: canvas)
            return
        }
        let fill = style == .insert ? Color(rgb: 52, 199, 89) : Color(rgb: 255, 59, 48)
        canvas.fillEllipse(in: circle, color: drawn(isHighlighted ? fill.withAlpha(0.6) : fill))
        let bar = 12.0
        let c = Point(x: circle.midX, y: circle.midY)
        canvas.fill(Rect(x: c.x - bar / 2, y: c.y - 1, width: bar, height: 2), color: drawn(.white))
        if style == .insert {
            canvas.fill(Rect(x: c.x - 1, y: c.y - bar / 2, width: 2, height: bar), color: drawn(.white))
        }
    }

    /// An empty grey ring, or, for a selected row, a tinted disc with a white tick.
    private func drawSelection(in circle: Rect, canvas: Canvas) {
        let selected = (superview as? ListCell)?.isSelected ?? false
        guard selected else {
            canvas.fillEllipse(in: circle, color: drawn(Color(rgb: 199, 199, 204)))
            let inner = circle.insetBy(dx: 1.5, dy: 1.5)
            canvas.fillEllipse(in: inner, color: drawn(superview?.backgroundColor ?? .white))
            return
        }
        canvas.fillEllipse(in: circle, color: drawn(.tint))
        let c = Point(x: circle.midX, y: circle.midY)
        let elbow = Point(x: c.x - 1.5, y: c.y + 4)
        canvas.strokeLine(from: Point(x: c.x - 5.5, y: c.y), to: elbow, lineWidth: 2, color: drawn(.white))
        canvas.strokeLine(from: elbow, to: Point(x: c.x + 5.5, y: c.y - 4.5), lineWidth: 2, color: drawn(.white))
    }

    override func pressDidComplete() { onPress?() }

    /// A reader reaches the change through the row's action ("Delete", "Insert"), not this.
    override var accessibilityDefaults: AccessibilityDefaults { AccessibilityDefaults(role: .button, isElement: false) }
}

/// A row's grip (UITableView's reorder control): three grey lines in the slot its cell keeps
/// at its trailing edge while editing a row that may move. A finger on it lifts the row at
/// once (`RowReorder` by grip, on the list).
final class RowReorderGrip: View {
    /// The slot's width: a finger's.
    static let slotWidth = 44.0

    override init(frame: Rect = .zero) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
    }

    override var drawsContent: Bool { true }

    override func draw(in canvas: Canvas) {
        let width = 18.0
        let x = (bounds.width - width) / 2
        let y = bounds.midY - 6
        for k in 0..<3 {
            canvas.fill(Rect(x: x, y: y + 5 * Double(k), width: width, height: 2), color: Color(rgb: 199, 199, 204))
        }
    }
}

extension ListCell {
    /// How far the row's content starts in from its leading margin for its editing control
    /// (38 px while it shows one, else 0). A cell with views of its own lays them out after it,
    /// as UIKit's `contentView` moves in.
    public var editingLeadingInset: Double {
        isEditing && (editingStyle != .none || showsSelectionControl) ? RowEditingControl.slotWidth : 0
    }
    /// How much room its content leaves at its trailing edge for the grip (44 px while it
    /// shows one, else 0): a cell's views of its own end short of it.
    public var editingTrailingInset: Double { isEditing && showsReorderControl ? RowReorderGrip.slotWidth : 0 }
    var editingLead: Double { editingLeadingInset }
    var editingTrail: Double { editingTrailingInset }

    /// The editing control and the grip in their slots, shown or not (one fading out keeps its
    /// place until it is hidden).
    func placeEditingControls(index: Double, rtl: Bool) {
        let w = bounds.width
        if let control = editingControl {
            // Short of an outline chevron's hit area, which reaches back over the slot's end.
            let reach = outlineDisclosure == nil ? 0 : OutlineDisclosureControl.reach
            let width = 16 + RowEditingControl.slotWidth - reach
            control.frame = Rect(x: rtl ? w - width : 0, y: 0, width: width, height: bounds.height)
        }
        if let grip = reorderGrip {
            let width = RowReorderGrip.slotWidth
            grip.frame = Rect(x: rtl ? index : w - index - width, y: 0, width: width, height: bounds.height)
        }
    }
}
