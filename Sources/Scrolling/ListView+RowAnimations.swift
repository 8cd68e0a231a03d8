import ScrollwayGeometry
import ScrollwayViews

extension ListView {
    /// How long an animated update takes (UITableView's row animations take about as long),
    /// on UIKit's ease-in-out curve.
    public static var rowAnimationDuration: Double { ChangeAnimation.duration }

    /// Whether an animated update is under way (its rows still on their way).
    public var hasRowAnimations: Bool { rowAnimationsRunning > 0 }

    /// Runs `update`, a change to the rows that renumbers the cells it keeps by `newIndex`
    /// (nil: the row is gone), and animates it, then runs `done` (at once when not animated)
    /// (`ChangeAnimation`): the cells of the `departing` rows (before it) are kept out of the
    /// rows and go out by `animation`, to the pool once gone; the cells of the `arriving` rows
    /// (after it) come in by `animation`; every other cell, and the headers while the sections
    /// stay as many, slides from where it stood on screen to its place.
    ///
    /// A scroll meanwhile that moves rows (one measured above the others) moves their slides
    /// with them, each going on as far as it had left to its new place; rows going out
    /// (`departingViews`) move with what is in view when the offset does.
    func animatingRows(
        _ animation: RowAnimation, departing: [Int], arriving: [Int], newIndex: (Int) -> Int?,
        done: @escaping (_ finished: Bool) -> Void = { _ in }, update: () -> Void
    ) {
        var change = ChangeAnimation(animation, in: self)
        guard change.animates else {
            update()
            return done(true)
        }
        var before: [ObjectIdentifier: Int] = [:]
        for (r, cell) in visibleCells {
            change.noteCell(cell)
            before[ObjectIdentifier(cell)] = r
        }
        for (s, header) in visibleHeaders { change.noteHeader(header, section: s) }
        for (s, footer) in visibleFooters { change.noteFooter(footer, section: s) }
        let sections = numberOfSections
        // An open row goes out as it stands, its buttons with it (a full swipe's delete).
        var putRight: [ObjectIdentifier: () -> Void] = [:]
        for r in departing {
            guard let cell = visibleCells.removeValue(forKey: r) else { continue }
            if let letGo = swipeActions?.letGo(cell) { putRight[ObjectIdentifier(cell)] = letGo }
            retire(cell)
            change.noteLeaving(cell)
        }
        update()
        // Every cell at its place, that the change slides it there from where it stood: the
        // list leaves a row its update did not move where it stands, on its way elsewhere.
        for (r, cell) in visibleCells {
            let place = rectForRow(r)
            if cell.frame != place { cell.frame = place }
        }
        let arrivingRows = Set(arriving)
        rowAnimationsRunning += 1
        let cells = visibleCells.map { r, cell -> (Int, View, ChangeAnimation.Past) in
            if arrivingRows.contains(r) { return (r, cell, .arrives) }
            let stayed = before[ObjectIdentifier(cell)].flatMap(newIndex) == r
            return (r, cell, stayed ? .stayed : .cameIntoView)
        }
        change.run(
            cells: cells,
            headers: numberOfSections == sections
                ? ChangeAnimation.bands(headers: visibleHeaders, footers: visibleFooters) : nil,
            shelve: { [unowned self, putRight] view in
                // A cell that went open over its buttons is closed before it goes to the pool.
                putRight[ObjectIdentifier(view)]?()
                if let cell = view as? ListCell { shelve(cell) }
            }
        ) { [weak self] finished in
            self?.rowAnimationsRunning -= 1
            done(finished)
        }
    }
}
