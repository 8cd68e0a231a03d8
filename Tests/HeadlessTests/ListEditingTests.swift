import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// A list that edits its rows (UITableView's `isEditing`): each row's editing control at its
/// leading edge, a grip on each row that may move, Delete shown by the delete control, the
/// data source asked for the change, grips dragged at once; no swipes, no selection by a tap.
@MainActor
@Suite struct ListEditingTests {
    /// Rows "Item n"; row 1 has no control, every fifth (4, 9, …) an insert control, the
    /// others a delete control; every row but 0 may move. Commits change the model and tell
    /// the list, as an app does.
    final class Items: ListDataSource {
        var items: [String]
        var commits: [(RowEditingStyle, String)] = []
        var moves: [(Int, Int)] = []
        /// The Delete button's title for each row (nil: the default).
        var deleteTitle: String?
        init(count: Int) { items = (0..<count).map { "Item \($0)" } }
        func numberOfRows(in list: ListView) -> Int { items.count }
        func list(_ list: ListView, cellForRow row: Int) -> ListCell {
            let cell = list.dequeueReusableCell(withIdentifier: "r")
            cell.textLabel.text = items[row]
            return cell
        }
        func list(_ list: ListView, editingStyleForRow row: Int) -> RowEditingStyle {
            row == 1 ? .none : row % 5 == 4 ? .insert : .delete
        }
        func list(_ list: ListView, canMoveRow row: Int) -> Bool { row != 0 }
        func list(_ list: ListView, titleForDeleteConfirmationButtonForRow row: Int) -> String {
            deleteTitle ?? "Delete"
        }
        func list(_ list: ListView, moveRowAt source: Int, to destination: Int) {
            moves.append((source, destination))
            items.insert(items.remove(at: source), at: destination)
        }
        func list(_ list: ListView, commit style: RowEditingStyle, forRow row: Int) {
            commits.append((style, items[row]))
            switch style {
            case .delete:
                items.remove(at: row)
                list.deleteRows(at: [row], with: .fade)
            case .insert:
                items.insert("New after \(items[row])", at: row + 1)
                list.insertRows(at: [row + 1], with: .fade)
            case .none:
                break
            }
        }
    }

    func make(_ items: Items, rightToLeft: Bool = false) -> (FrameDriver, ListView) {
        let window = Window(size: Size(width: 320, height: 480))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        if rightToLeft { list.semanticContentAttribute = .forceRightToLeft }
        list.register("r") { ListCell(reuseIdentifier: "r") }
        list.dataSource = items
        window.addSubview(list)
        list.reloadData()
        let driver = FrameDriver(window: window)
        driver.advance(by: 0.05)
        return (driver, list)
    }

    /// Where `view` is in the window.
    func onScreen(_ view: View) -> Rect { view.convert(view.bounds, to: nil) }

    /// Entering editing: the controls fade in and the text slides in by the control's 38 px
    /// over the row animation's 0.3 s; the grips stand at the trailing edge; a row without a
    /// control keeps its text where it was; a row that may not move has no grip. Rows whose
    /// text wraps anew at the narrower width are measured again, and rows brought into view
    /// later are editing too. Leaving it puts everything back.
    @Test func editingShowsControlsAndGripsAndMeasuresRowsAgain() throws {
        let items = Items(count: 40)
        items.items[3] = "A row with words enough to fill the width of this list once"
        for r in 18..<36 { items.items[r] = items.items[3] }
        let (driver, list) = make(items)
        // Cells waiting in the pool from before editing began: reused, they take it up.
        list.setContentOffset(Point(x: 0, y: 900), animated: false)
        driver.advance(by: 0.05)
        list.setContentOffset(.zero, animated: false)
        driver.advance(by: 0.05)
        let cell = try #require(list.visibleCells[2])
        let long = try #require(list.visibleCells[3])
        let oneLine = list.rectForRow(3).height
        #expect(cell.textLabel.frame.minX == 16 && !cell.isEditing && cell.editingStyle == .none)

        list.setEditing(true, animated: true)
        #expect(list.isEditing && cell.isEditing && cell.editingStyle == .delete && cell.showsReorderControl)
        driver.advance(by: ListView.rowAnimationDuration / 2)
        let halfway = cell.textLabel.frame.minX
        #expect(halfway > 16 && halfway < 54, "half way: \(halfway)")
        driver.settle()
        #expect(cell.textLabel.frame == Rect(x: 54, y: 0, width: 320 - 32 - 38 - 44, height: cell.bounds.height))
        #expect(cell.editingLeadingInset == 38 && cell.editingTrailingInset == 44)
        let control = try #require(list.visibleCells[2]?.subviews.first { $0.frame.minX == 0 && $0.frame.width == 54 })
        #expect(control.alpha == 1 && !control.isHidden)
        // A red disc, and the grip's grey lines at the trailing edge.
        let canvas = try Offscreen.render(driver.window)
        let row = list.convert(list.rectForRow(2), to: nil)
        let disc = canvas.color(x: Int(clamping: row.minX + 27), y: Int(clamping: row.midY - 6))
        #expect(disc.red > 0.95 && disc.green < 0.3, "\(disc)")
        let lines = (0..<12).map { canvas.color(x: Int(clamping: row.maxX - 22), y: Int(clamping: row.midY - 6) + $0) }
        #expect(lines.filter { $0.red < 0.85 && $0.red > 0.7 }.count >= 3, "\(lines)")
        let first = try #require(list.visibleCells[0])
        #expect(first.showsReorderControl == false && first.textLabel.frame.width == 320 - 32 - 38)
        let second = try #require(list.visibleCells[1])
        #expect(second.editingStyle == .none && second.textLabel.frame.minX == 16 && second.showsReorderControl)
        #expect(try #require(list.visibleCells[4]).editingStyle == .insert)
        // The long row wraps at the narrower width, and is as tall as its cell wants.
        let wants = long.sizeThatFits(Size(width: 320, height: .greatestFiniteMagnitude)).height
        #expect(list.rectForRow(3).height == wants && wants > oneLine)
        // Rows brought in are editing.
        list.setContentOffset(Point(x: 0, y: 900), animated: false)
        driver.advance(by: 0.05)
        let later = try #require(list.visibleCells.keys.max().flatMap { list.visibleCells[$0] })
        #expect(later.isEditing && later.textLabel.frame.minX == 54)
        // Measured with the controls' room when they first came into view, in cells that
        // were editing rows before and in cells pooled before editing began.
        for (r, c) in list.visibleCells where (18..<36).contains(r) {
            let wants = c.sizeThatFits(Size(width: 320, height: .greatestFiniteMagnitude)).height
            #expect(list.rectForRow(r).height == wants && wants > oneLine, "row \(r)")
        }

        list.setContentOffset(.zero, animated: false)
        list.setEditing(false, animated: false)
        driver.advance(by: 0.05)
        let back = try #require(list.visibleCells[2])
        #expect(!back.isEditing && back.textLabel.frame == Rect(x: 16, y: 0, width: 288, height: back.bounds.height))
        #expect(back.subviews.allSatisfy { $0 === back.textLabel || $0.isHidden })
        #expect(list.rectForRow(3).height == oneLine)
    }

    /// The delete control shows the row's Delete (a second tap, or a tap elsewhere, hides it);
    /// Delete asks the data source, which deletes the row. The insert control asks at once.
    @Test func theDeleteControlShowsDeleteAndTheDataSourceDeletes() throws {
        let items = Items(count: 40)
        let (driver, list) = make(items)
        list.setEditing(true, animated: false)
        driver.advance(by: 0.05)
        func tapControl(_ row: Int) {
            let r = list.convert(list.rectForRow(row), to: nil)
            driver.send(from: driver.time + 0.05) { $0.tap(at: Point(x: r.minX + 27, y: r.midY), at: 0) }
            driver.settle()
        }
        func deleteButton(_ row: Int) -> Button? {
            list.visibleCells[row]?.subviews.flatMap(\.subviews).compactMap { $0 as? Button }.first {
                $0.title == "Delete" && !$0.isHidden
            }
        }
        tapControl(2)
        #expect(list.openSwipeRow == 2 && deleteButton(2) != nil)
        tapControl(2)
        #expect(list.openSwipeRow == nil && items.commits.isEmpty)
        tapControl(3)
        #expect(list.openSwipeRow == 3)
        // A tap on another row only closes it (and selects nothing while editing).
        let other = list.convert(list.rectForRow(6), to: nil)
        driver.send(from: driver.time + 0.05) { $0.tap(at: Point(x: 200, y: other.midY), at: 0) }
        driver.settle()
        #expect(list.openSwipeRow == nil && items.commits.isEmpty && list.selectedRows.isEmpty)

        tapControl(3)
        let delete = try #require(deleteButton(3))
        driver.send(from: driver.time + 0.05) { $0.tap(at: onScreen(delete).center, at: 0) }
        driver.settle()
        #expect(items.commits.count == 1 && items.commits[0].0 == .delete && items.commits[0].1 == "Item 3")
        #expect(list.rowCount == 39 && list.visibleCells[3]?.textLabel.text == "Item 4")
        #expect(list.openSwipeRow == nil)

        // Row 3 is "Item 4" now, whose style the data source gives by row: every fifth row
        // (4) inserts.
        tapControl(4)
        #expect(items.commits.count == 2 && items.commits[1].0 == .insert && items.commits[1].1 == "Item 5")
        #expect(list.rowCount == 40 && list.visibleCells[5]?.textLabel.text == "New after Item 5")
    }

    /// A finger on a grip lifts its row at once, no hold, and drags it; dropped, the data
    /// source hears the move once. A drag that starts on the row's text scrolls the list.
    @Test func aGripDragsItsRowAtOnce() throws {
        let items = Items(count: 40)
        let (driver, list) = make(items)
        list.setEditing(true, animated: false)
        driver.advance(by: 0.05)
        let row = list.convert(list.rectForRow(3), to: nil)
        let grip = Point(x: row.maxX - 22, y: row.midY)
        let moves = (1...8).map { (t: 16 * Double($0), to: grip + Point(x: 0, y: 14 * Double($0))) }
        let end = driver.send(from: driver.time + 0.05) {
            $0.touch(from: grip, at: 0, moves: moves, liftAt: nil, id: 1)
        }
        driver.advance(to: end + 0.02)
        let now = try #require(list.interactiveMovementRow)
        #expect(now > 3 && list.contentOffset.y == 0 && items.moves.isEmpty)
        driver.send(.touchUp(id: 1), at: driver.time + 0.01)
        driver.send(.touchFrame, at: driver.time)
        driver.settle()
        #expect(items.moves.count == 1 && items.moves[0] == (3, now) && items.items[now] == "Item 3")

        let text = Point(x: 120, y: list.convert(list.rectForRow(8), to: nil).midY)
        driver.send(from: driver.time + 0.05) { $0.flick(from: text, by: Point(x: 0, y: -200), at: 0) }
        driver.settle()
        #expect(list.contentOffset.y > 100 && items.moves.count == 1 && list.interactiveMovementRow == nil)
    }

    /// While editing a row swiped sideways does not open, and a tap selects only with
    /// `allowsSelectionDuringEditing`; a reader is offered the row's change and its moves.
    @Test func editingRowsAreNotSwipedOrSelectedAndAReaderDeletes() throws {
        let items = Items(count: 40)
        let (driver, list) = make(items)
        var swiped = 0
        list.trailingSwipeActions = { _ in [RowAction(title: "Flag") { _ in swiped += 1 }] }
        list.setEditing(true, animated: false)
        driver.advance(by: 0.05)
        let r = list.convert(list.rectForRow(5), to: nil)
        driver.send(from: driver.time + 0.05) { $0.flick(from: r.center, by: Point(x: -150, y: 0), at: 0, id: 1) }
        driver.settle()
        #expect(list.openSwipeRow == nil)
        driver.send(from: driver.time + 0.05) { $0.tap(at: Point(x: 200, y: r.midY), at: 0) }
        driver.settle()
        #expect(list.selectedRows.isEmpty)
        list.allowsSelectionDuringEditing = true
        driver.send(from: driver.time + 0.05) { $0.tap(at: Point(x: 200, y: r.midY), at: 0) }
        driver.settle()
        #expect(list.selectedRows == [5])

        let cell = try #require(list.visibleCells[2])
        #expect(cell.accessibilityCustomActions.map(\.name) == ["Delete", "Move up", "Move down"])
        #expect(try #require(list.visibleCells[0]).accessibilityCustomActions.map(\.name) == ["Delete"])
        let delete = try #require(cell.accessibilityCustomActions.first)
        #expect(delete.handler())
        driver.settle()
        #expect(items.commits.count == 1 && items.commits[0].1 == "Item 2" && !items.items.contains("Item 2"))
        // Out of editing, the swipe actions again.
        list.setEditing(false, animated: false)
        driver.advance(by: 0.05)
        #expect(try #require(list.visibleCells[2]).accessibilityCustomActions.map(\.name) == ["Flag"])
        #expect(swiped == 0)
    }

    /// Turned off before the controls have faded in, they fade out from where they got to,
    /// and are hidden only once they have.
    @Test func editingEndedHalfWayFadesTheControlsOut() throws {
        let items = Items(count: 40)
        let (driver, list) = make(items)
        let cell = try #require(list.visibleCells[2])
        list.setEditing(true, animated: true)
        driver.advance(by: 0.1)
        list.setEditing(false, animated: true)
        let control = try #require(cell.subviews.first { $0.frame.minX == 0 && $0.frame.width == 54 })
        driver.advance(by: 0.1)
        #expect(!control.isHidden && control.alpha > 0 && control.alpha < 1, "fading: \(control.alpha)")
        driver.settle()
        #expect(control.isHidden && cell.textLabel.frame.minX == 16)
    }

    /// A row whose control comes or goes with a new number (the data source answers by row)
    /// is measured again at its new width; a reader's Delete, offered before the rows were
    /// renumbered, deletes the row its cell shows now; the Delete button takes the data
    /// source's title, and a row showing it has no grip to take.
    @Test func renumberedRowsKeepTheirRoomAndTheirActions() throws {
        let items = Items(count: 40)
        items.items[2] = "A row with words enough to fill the width of this list once"
        items.deleteTitle = "Remove"
        let (driver, list) = make(items)
        list.setEditing(true, animated: false)
        driver.advance(by: 0.05)
        let long = try #require(list.visibleCells[2])
        let narrow = list.rectForRow(2).height
        let third = try #require(list.visibleCells[3])
        let offered = try #require(third.accessibilityCustomActions.first { $0.name == "Remove" })
        // Row 0 goes: the long row is row 1 now, which has no control.
        items.items.remove(at: 0)
        list.deleteRows(at: [0])
        driver.advance(by: 0.05)
        #expect(list.visibleCells[1] === long && long.editingStyle == .none && long.editingLeadingInset == 0)
        let wants = long.sizeThatFits(Size(width: 320, height: .greatestFiniteMagnitude)).height
        #expect(list.rectForRow(1).height == wants && wants < narrow)
        // The old offer removes "Item 3", on row 2 now.
        #expect(offered.handler())
        driver.settle()
        #expect(items.commits.count == 1 && items.commits[0].1 == "Item 3")

        let row = list.convert(list.rectForRow(3), to: nil)
        driver.send(from: driver.time + 0.05) { $0.tap(at: Point(x: row.minX + 27, y: row.midY), at: 0) }
        driver.settle()
        let open = try #require(list.visibleCells[3])
        #expect(list.openSwipeRow == 3)
        #expect(open.subviews.flatMap(\.subviews).contains { ($0 as? Button)?.title == "Remove" })
        #expect(open.accessibilityCustomActions.first?.name == "Remove")
        // Where the grip stood, a touch lifts nothing: the row shows its Remove.
        let grip = Point(x: row.maxX - 22, y: row.midY)
        let moves = (1...4).map { (t: 16 * Double($0), to: grip + Point(x: 0, y: 14 * Double($0))) }
        let end = driver.send(from: driver.time + 0.05) {
            $0.touch(from: grip, at: 0, moves: moves, liftAt: nil, id: 1)
        }
        driver.advance(to: end + 0.02)
        #expect(list.interactiveMovementRow == nil)
        driver.send(.touchUp(id: 1), at: driver.time + 0.01)
        driver.send(.touchFrame, at: driver.time)
        driver.settle()
        #expect(items.moves.isEmpty)
    }

    /// With `allowsMultipleSelectionDuringEditing`, every row shows a selection circle in its
    /// control's place (no Delete, a row without a style too); a tap on a row or on its circle
    /// adds it to the selection and another takes it out, the app hearing each; a reader hears
    /// that the list takes several; the selection ends with editing.
    @Test func editingSelectsSeveralRowsByTheirCircles() throws {
        let items = Items(count: 40)
        let (driver, list) = make(items)
        var heard: [String] = []
        list.onSelectRow = { heard.append("select \($0)") }
        list.onDeselectRow = { heard.append("deselect \($0)") }
        list.selectRow(7)
        list.allowsMultipleSelectionDuringEditing = true
        list.setEditing(true, animated: false)
        driver.advance(by: 0.05)
        #expect(list.selectedRows.isEmpty)
        let cell = try #require(list.visibleCells[2])
        #expect(cell.showsSelectionControl && cell.editingStyle == .none && cell.editingLeadingInset == 38)
        #expect(try #require(list.visibleCells[1]).showsSelectionControl)
        func tap(_ row: Int, x: Double) {
            let r = list.convert(list.rectForRow(row), to: nil)
            driver.send(from: driver.time + 0.05) { $0.tap(at: Point(x: x, y: r.midY), at: 0) }
            driver.settle()
        }
        tap(2, x: 200)
        tap(5, x: 27)
        #expect(list.selectedRows == [2, 5] && cell.isSelected && list.openSwipeRow == nil)
        tap(2, x: 200)
        #expect(list.selectedRows == [5] && !cell.isSelected)
        #expect(heard == ["select 2", "select 5", "deselect 2"])
        // Row 5's circle a tinted disc, row 2's an empty ring on the row's white.
        let canvas = try Offscreen.render(driver.window)
        func color(_ row: Int, dx: Double, dy: Double = 0) -> Color {
            let r = list.convert(list.rectForRow(row), to: nil)
            return canvas.color(x: Int(clamping: r.minX + 27 + dx), y: Int(clamping: r.midY + dy))
        }
        let ticked = color(5, dx: 0, dy: -6)
        #expect(ticked.blue > 0.9 && ticked.red < 0.1, "\(ticked)")
        let ring = color(2, dx: -10.5)
        let inside = color(2, dx: 0)
        #expect(ring.red > 0.7 && ring.red < 0.85 && inside.red > 0.95 && inside.blue > 0.95, "\(ring) \(inside)")
        #expect(list.accessibilityExtraStates.contains(.multiselectable))
        #expect(cell.accessibilityCustomActions.map(\.name) == ["Move up", "Move down"])
        list.setEditing(false, animated: false)
        driver.advance(by: 0.05)
        #expect(list.selectedRows.isEmpty && !cell.showsSelectionControl)
        #expect(!list.accessibilityExtraStates.contains(.multiselectable))
    }

    /// Right to left, the control stands at the right edge and the grip at the left, the text
    /// between them.
    @Test func rightToLeftTheControlsAreMirrored() throws {
        let items = Items(count: 40)
        let (driver, list) = make(items, rightToLeft: true)
        list.setEditing(true, animated: false)
        driver.advance(by: 0.05)
        let cell = try #require(list.visibleCells[2])
        #expect(cell.textLabel.frame == Rect(x: 16 + 44, y: 0, width: 320 - 32 - 38 - 44, height: cell.bounds.height))
        let shown = cell.subviews.filter { $0 !== cell.textLabel && !$0.isHidden }.map(\.frame).sorted {
            $0.minX < $1.minX
        }
        #expect(shown.map(\.minX) == [0, 320 - 54] && shown.map(\.width) == [44, 54])
    }
}
