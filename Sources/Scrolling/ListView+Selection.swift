import ScrollwayGeometry
import ScrollwayViews

extension ListView {
    /// Whether a tap adds a row to the selection (and takes a selected one out of it): with
    /// `allowsMultipleSelection`, or while editing with `allowsMultipleSelectionDuringEditing`.
    var selectsSeveral: Bool { editingRows ? allowsMultipleSelectionDuringEditing : allowsMultipleSelection }

    /// The selected rows, in order (UITableView's `indexPathsForSelectedRows`).
    public var selectedRows: [Int] { selection.sorted() }

    /// The first selected row (UITableView's `indexPathForSelectedRow`), nil when none is.
    public var selectedRow: Int? { selection.min() }

    /// Selects `row` as a tap does, without calling `onSelectRow` (as UIKit's `selectRow`
    /// does not call its delegate): with `allowsMultipleSelection` it joins the others, else
    /// it replaces them. A row the list does not have is ignored.
    public func selectRow(_ row: Int, scrollsIntoView: Bool = false) {
        guard row >= 0, row < rowCount else { return }
        setSelection(selectsSeveral ? selection.union([row]) : [row])
        if scrollsIntoView { scrollToRow(row) }
    }

    /// Deselects `row` (nothing if it is not selected), without calling `onDeselectRow`.
    public func deselectRow(_ row: Int) {
        guard selection.contains(row) else { return }
        setSelection(selection.subtracting([row]))
    }

    /// A tap (or Space or Return) on `row`: selected, or, among several, deselected if it was;
    /// the app hears which.
    func rowTapped(_ row: Int) {
        guard allowsSelection, !editingRows || allowsSelectionDuringEditing || allowsMultipleSelectionDuringEditing
        else { return }
        if selectsSeveral, selection.contains(row) {
            deselectRow(row)
            onDeselectRow?(row)
            return
        }
        selectRow(row)
        onSelectRow?(row)
    }

    /// The selection becomes `rows`; the cells in view whose state changed are redrawn.
    func setSelection(_ rows: Set<Int>) {
        guard rows != selection else { return }
        for r in selection.symmetricDifference(rows) {
            guard let cell = visibleCells[r] else { continue }
            cell.isSelected = rows.contains(r)
            window?.postAccessibilityNotification(.stateChanged(cell, .selected, rows.contains(r)))
        }
        selection = rows
    }
}
