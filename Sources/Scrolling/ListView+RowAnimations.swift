import ScrollwayGeometry
import ScrollwayPhysics
import ScrollwayViews

/// How rows come and go in an animated update (UITableView.RowAnimation's role): inserted
/// rows come in this way, deleted ones go out this way, a reloaded row's old cell goes as its
/// new one comes. Whatever the animation, the rows that stay slide from where they stood on
/// screen to their new places.
public enum RowAnimation: Sendable, Hashable {
    /// At once: the rows are in their new places at the next frame.
    case none
    /// Fading in, or out, where they stand.
    case fade
    /// Sliding in from beyond the list's left edge, or out past it.
    case left
    /// Sliding in from beyond the list's right edge, or out past it.
    case right
    /// The list's choice (UIKit's `.automatic`): a fade.
    case automatic
}

extension ListView {
    /// How long an animated update takes (UITableView's row animations take about as long),
    /// on UIKit's ease-in-out curve.
    public static let rowAnimationDuration = 0.3

    /// Whether an animated update is under way (its rows still on their way).
    public var hasRowAnimations: Bool { rowAnimationsRunning > 0 }

    /// Runs `update`, a change to the rows that renumbers the cells it keeps, and animates it:
    /// the cells of the `departing` rows (before it) are kept out of the rows, where they
    /// stood on screen, and go out by `animation`, to the pool once gone; the cells of the
    /// `arriving` rows (after it) come in by `animation`; every other cell, and the headers
    /// while the sections stay as many, slide from where it stood on screen (a cell new to
    /// the view from the rows around it) to its place. Re-composited only.
    ///
    /// A scroll meanwhile that moves rows (one measured above the others) puts them at their
    /// places at once: the animation gives way to what the list sets.
    func animatingRows(_ animation: RowAnimation, departing: [Int], arriving: [Int], update: () -> Void) {
        guard animation != .none, window != nil, bounds.width > 0 else {
            update()
            return
        }
        let oldTop = bounds.minY
        var stood: [ObjectIdentifier: Double] = [:]
        for (_, cell) in visibleCells { stood[ObjectIdentifier(cell)] = cell.frame.minY - oldTop }
        let sections = numberOfSections
        var headersStood: [Int: Double] = [:]
        for (s, header) in visibleHeaders { headersStood[s] = header.frame.minY - oldTop }
        var leaving: [ListCell] = []
        for r in departing {
            guard let cell = visibleCells.removeValue(forKey: r) else { continue }
            retire(cell)
            cell.isUserInteractionEnabled = false
            leaving.append(cell)
        }
        update()
        let shift = bounds.minY - oldTop
        // Where each cell starts: where it stood on screen, in the content's new coordinates.
        var starts: [(view: View, from: Double, to: Double)] = []
        var displacements: [(row: Int, by: Double)] = []
        let arrivingRows = Set(arriving)
        var coming: [ListCell] = []
        var newcomers: [(row: Int, cell: ListCell)] = []
        for (r, cell) in visibleCells {
            if arrivingRows.contains(r) {
                coming.append(cell)
            } else if let y = stood[ObjectIdentifier(cell)] {
                let from = y + bounds.minY
                displacements.append((r, from - cell.frame.minY))
                if from != cell.frame.minY { starts.append((cell, from, cell.frame.minY)) }
            } else {
                newcomers.append((r, cell))
            }
        }
        // A cell new to the view (brought in by rows that went, or by a new height) moves with
        // the rows around it: by the nearest staying row's displacement, above it if any.
        displacements.sort { $0.row < $1.row }
        for (r, cell) in newcomers {
            let i = displacements.firstIndex { $0.row > r } ?? displacements.count
            let by = i > 0 ? displacements[i - 1].by : displacements.first?.by ?? 0
            if by != 0 { starts.append((cell, cell.frame.minY + by, cell.frame.minY)) }
        }
        if numberOfSections == sections {
            for (s, header) in visibleHeaders {
                guard let y = headersStood[s], y + bounds.minY != header.frame.minY else { continue }
                starts.append((header, y + bounds.minY, header.frame.minY))
            }
        }
        for cell in leaving {
            // Still where it stood on screen, behind the rows.
            cell.center.y += shift
            insertSubview(cell, at: 0)
        }
        guard !starts.isEmpty || !coming.isEmpty || !leaving.isEmpty else { return }
        for (view, from, to) in starts { view.center.y += from - to }
        let width = bounds.width
        let out: Double =
            switch animation {
            case .left: -width
            case .right: width
            default: 0
            }
        for cell in coming {
            if out == 0 { cell.alpha = 0 } else { cell.center.x += out }
        }
        rowAnimationsRunning += 1
        animate(withDuration: Self.rowAnimationDuration) {
            for (view, from, to) in starts { view.center.y += to - from }
            for cell in coming {
                if out == 0 { cell.alpha = 1 } else { cell.center.x -= out }
            }
            for cell in leaving {
                if out == 0 { cell.alpha = 0 } else { cell.center.x += out }
            }
        } completion: { [weak self] _ in
            // Whether or not they finished: the cells that went are put right for reuse.
            for cell in leaving {
                cell.removeAllAnimations()
                cell.alpha = 1
                cell.center.x = cell.bounds.width / 2
                cell.isUserInteractionEnabled = true
                guard let self, cell.superview === self else {
                    cell.removeFromSuperview()
                    continue
                }
                self.shelve(cell)
            }
            self?.rowAnimationsRunning -= 1
        }
    }
}
