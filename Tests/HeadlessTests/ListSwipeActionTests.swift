import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayHeadless
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// Rows that swipe open to reveal their actions, on the list scene, while vertical drags still
/// scroll the list.
@MainActor
@Suite struct ListSwipeActionTests {
    /// The list scene with a Delete and a Flag action on every row; `performed` says which ran.
    final class Actions {
        var performed: [String] = []
    }

    func scene() -> (SceneDriver, Actions) {
        let d = SceneDriver(.list)
        let actions = Actions()
        d.list.trailingSwipeActions = { [unowned actions] _ in
            [
                RowAction(title: "Delete", style: .destructive) { actions.performed.append("delete \($0)") },
                RowAction(title: "Flag") { actions.performed.append("flag \($0)") },
            ]
        }
        d.list.onSelectRow = { [unowned actions] in actions.performed.append("select \($0)") }
        return (d, actions)
    }

    /// The middle of row `row` in window coordinates.
    func center(of row: Int, in d: SceneDriver) -> Point { d.list.convert(d.list.rectForRow(row), to: nil).center }

    /// A swipe left across row `row` by `dx` px (fast: 10 ms a move), lifted at the end.
    @discardableResult
    func swipe(_ d: SceneDriver, row: Int, by dx: Double, moves: Int = 6) -> Double {
        let p = center(of: row, in: d)
        return d.send(from: d.time + 0.1) { $0.flick(from: p, by: Point(x: dx, y: 0), at: 0, moves: moves, id: 1) }
    }

    @Test func aLeftSwipeOpensTheRowOverItsButtonsAndTheListDoesNotScroll() throws {
        let (d, actions) = scene()
        d.settle()
        let offset = d.list.contentOffset
        var began = 0
        d.list.panGestureRecognizer.addAction { g in if g.state == .began { began += 1 } }
        swipe(d, row: 2, by: -120)
        d.settle()
        #expect(d.list.openSwipeRow == 2)
        let cell = try #require(d.list.visibleCells[2])
        // Open: the row's content moved left by the buttons' width, its buttons in view at its
        // right edge, Delete (the first action) outermost as UIKit puts it; the list stayed
        // where it was and never began to drag.
        let buttons = try #require(cell.subviews.first { $0.subviews.contains { ($0 as? Button)?.title == "Delete" } })
        #expect(cell.bounds.origin.x == buttons.bounds.width)
        #expect(buttons.frame.minX == cell.bounds.width)
        let titles = buttons.subviews.compactMap { $0 as? Button }.sorted { $0.frame.minX < $1.frame.minX }.map(\.title)
        #expect(titles == ["Flag", "Delete"])
        let deleteButton = try #require(buttons.subviews.first as? Button)
        #expect(deleteButton.title == "Delete")
        let shown = deleteButton.convert(deleteButton.bounds, to: nil)
        #expect(shown.maxX == d.list.convert(cell.frame, to: nil).maxX)
        #expect(d.list.contentOffset == offset && began == 0)
        #expect(actions.performed.isEmpty)

        // Its Delete runs with the row, and the row closes.
        d.send(from: d.time + 0.2) { $0.tap(at: shown.center, at: 0, hold: 60) }
        d.settle()
        #expect(actions.performed == ["delete 2"])
        #expect(d.list.openSwipeRow == nil && cell.bounds.origin.x == 0)
    }

    /// In a right-to-left window a row's actions are at its left edge and a swipe rightwards
    /// opens it, mirrored: its content moves right by the buttons' width, Delete (the first
    /// action) outermost, at the row's left edge, and a swipe leftwards does not open it. A release short of
    /// half the buttons closes it again; a tap runs the action.
    @Test func aRightToLeftRowSwipesRightOverButtonsAtItsLeft() throws {
        let (d, actions) = scene()
        d.window.userInterfaceLayoutDirection = .rightToLeft
        d.settle()
        swipe(d, row: 2, by: -120)
        d.settle()
        #expect(d.list.openSwipeRow == nil)
        swipe(d, row: 2, by: 120)
        d.settle()
        #expect(d.list.openSwipeRow == 2)
        let cell = try #require(d.list.visibleCells[2])
        let buttons = try #require(cell.subviews.first { $0.subviews.contains { ($0 as? Button)?.title == "Delete" } })
        #expect(cell.bounds.origin.x == -buttons.bounds.width)
        #expect(buttons.frame.maxX == 0)
        let titles = buttons.subviews.compactMap { $0 as? Button }.sorted { $0.frame.minX < $1.frame.minX }.map(\.title)
        #expect(titles == ["Delete", "Flag"])
        // On screen: the buttons fill the row's left part, Delete at the row's edge.
        let row = d.list.convert(cell.frame, to: nil)
        let delete = try #require(buttons.subviews.compactMap { $0 as? Button }.first { $0.title == "Delete" })
        let shown = delete.convert(delete.bounds, to: nil)
        #expect(shown.minX == row.minX)
        let flag = try #require(buttons.subviews.compactMap { $0 as? Button }.first { $0.title == "Flag" })
        #expect(flag.convert(flag.bounds, to: nil).maxX == row.minX + buttons.bounds.width)
        d.send(from: d.time + 0.2) { $0.tap(at: shown.center, at: 0, hold: 60) }
        d.settle()
        #expect(actions.performed == ["delete 2"])
        #expect(d.list.openSwipeRow == nil && cell.bounds.origin.x == 0)
        // A slow, short drag rightwards: released short of half the buttons, it closes.
        let p = center(of: 3, in: d)
        d.send(from: d.time + 0.2) {
            $0.drag(from: p, through: [p + Point(x: 20, y: 0), p + Point(x: 40, y: 0)], at: 0, id: 1)
        }
        d.send(.touchUp(id: 1), at: d.time + 0.3)
        d.settle()
        #expect(d.list.openSwipeRow == nil)
        #expect(d.list.visibleCells[3]?.bounds.origin.x == 0)
    }

    /// A row is named by its text; one whose text label the app left empty, by the labels it
    /// put in the row, and never by its swipe buttons, open or not (they are its actions).
    @Test func aRowIsNamedByItsLabelsNotItsSwipeButtons() throws {
        let (d, _) = scene()
        d.settle()
        let cell = try #require(d.list.visibleCells[2])
        #expect(cell.resolvedAccessibility.label == cell.textLabel.text && !cell.textLabel.text.isEmpty)
        swipe(d, row: 2, by: -120)
        d.settle()
        #expect(d.list.openSwipeRow == 2)
        #expect(cell.resolvedAccessibility.label == cell.textLabel.text)
        cell.textLabel.text = ""
        #expect(cell.resolvedAccessibility.label == nil)
        let (name, detail) = (Label(), Label())
        name.text = "Ada"
        detail.text = "3 new messages"
        cell.addSubview(name)
        cell.addSubview(detail)
        #expect(cell.resolvedAccessibility.label == "Ada, 3 new messages")
        let node = try #require(cell.accessibilityNode(in: d.window, depth: 1))
        #expect(node.label == "Ada, 3 new messages" && node.children.isEmpty)
    }

    /// A cell that clips its subviews still does after it opened and closed.
    @Test func aCellKeepsItsOwnClippingAfterASwipe() throws {
        let (d, _) = scene()
        d.settle()
        let cell = try #require(d.list.visibleCells[2])
        cell.clipsToBounds = true
        swipe(d, row: 2, by: -150)
        d.settle()
        #expect(d.list.openSwipeRow == 2)
        d.list.closeSwipeActions(animated: false)
        #expect(cell.clipsToBounds)
    }

    @Test func aVerticalDragOnARowScrollsAndOpensNothing() {
        let (d, _) = scene()
        d.settle()
        let p = center(of: 4, in: d)
        d.send(from: d.time + 0.1) { $0.flick(from: p, by: Point(x: 8, y: -300), at: 0, moves: 6, id: 1) }
        d.settle()
        #expect(d.list.contentOffset.y > 300)
        #expect(d.list.openSwipeRow == nil)
        #expect(d.list.visibleCells.values.allSatisfy { $0.bounds.origin.x == 0 })
    }

    @Test func aShortSlowSwipeClosesAgainAndAFlickOpensEvenIfShort() {
        let (d, _) = scene()
        d.settle()
        // 30 px over 0.6 s: less than half the buttons, slowly: it closes.
        let p = center(of: 3, in: d)
        d.send(from: d.time + 0.1) { $0.drag(from: p, to: p + Point(x: -30, y: 0), at: 0, ms: 600, id: 1) }
        d.settle()
        #expect(d.list.openSwipeRow == nil)
        #expect(d.list.visibleCells[3]?.bounds.origin.x == 0)
        // 40 px in 40 ms: a flick, it opens.
        swipe(d, row: 3, by: -40, moves: 4)
        d.settle()
        #expect(d.list.openSwipeRow == 3)
    }

    @Test func anOpenRowClosesOnATapElsewhereWithoutSelectingAndWhenTheListScrolls() {
        let (d, actions) = scene()
        d.settle()
        swipe(d, row: 2, by: -150)
        d.settle()
        #expect(d.list.openSwipeRow == 2)
        // A tap on another row closes the open one and selects nothing.
        d.send(from: d.time + 0.2) { $0.tap(at: center(of: 6, in: d), at: 0, hold: 60) }
        d.settle()
        #expect(d.list.openSwipeRow == nil && actions.performed.isEmpty)
        // The next tap selects as usual.
        d.send(from: d.time + 0.2) { $0.tap(at: center(of: 6, in: d), at: 0, hold: 60) }
        d.settle()
        #expect(actions.performed == ["select 6"])
        // Open again, then scroll: it closes as the list begins to drag.
        swipe(d, row: 2, by: -150)
        d.settle()
        #expect(d.list.openSwipeRow == 2)
        d.flick(from: center(of: 8, in: d), by: Point(x: 0, y: -200))
        d.settle()
        #expect(d.list.openSwipeRow == nil)
        #expect(d.list.visibleCells.values.allSatisfy { $0.bounds.origin.x == 0 && !$0.clipsToBounds })
    }

    /// A tap on a button in another row only closes the open row, as any tap elsewhere does:
    /// the button does not fire (a control's press comes before an ancestor's single tap, but
    /// the list's closing tap takes controls' taps too).
    @Test func aTapOnAButtonInAnotherRowOnlyClosesTheOpenRow() throws {
        let (d, actions) = scene()
        d.settle()
        swipe(d, row: 2, by: -150)
        d.settle()
        #expect(d.list.openSwipeRow == 2)
        let other = try #require(d.list.visibleCells[6])
        var fired = 0
        let button = Button(title: "Go")
        button.frame = Rect(x: 10, y: 2, width: 80, height: other.bounds.height - 4)
        button.onTap = { fired += 1 }
        other.addSubview(button)
        let at = button.convert(button.bounds, to: nil).center
        d.send(from: d.time + 0.2) { $0.tap(at: at, at: 0, hold: 60) }
        d.settle()
        #expect(d.list.openSwipeRow == nil && fired == 0 && actions.performed.isEmpty)
        // With no row open, the button's tap is its own.
        d.send(from: d.time + 0.2) { $0.tap(at: at, at: 0, hold: 60) }
        d.settle()
        #expect(fired == 1)
        button.removeFromSuperview()
    }

    @Test func eachRowOffersItsActionsToAScreenReader() throws {
        let (d, actions) = scene()
        d.settle()
        let cell = try #require(d.list.visibleCells[5])
        #expect(cell.accessibilityCustomActions.map(\.name) == ["Delete", "Flag"])
        #expect(cell.accessibilityCustomActions[1].handler())
        #expect(actions.performed == ["flag 5"])
        d.list.trailingSwipeActions = nil
        #expect(cell.accessibilityCustomActions.isEmpty)
        // Without actions a sideways swipe does nothing to the row.
        swipe(d, row: 5, by: -150)
        d.settle()
        #expect(d.list.openSwipeRow == nil && cell.bounds.origin.x == 0)
    }

    /// The row's buttons shown, left to right on screen: their titles and spans on x.
    func shownButtons(of cell: ListCell) -> [(title: String, minX: Double, maxX: Double)] {
        let buttons = cell.subviews.first { $0.subviews.contains { $0 is Button } }
        return (buttons?.subviews ?? []).compactMap { $0 as? Button }.filter { !$0.isHidden }
            .map { b in
                let r = b.convert(b.bounds, to: nil); return (b.title, r.minX, r.maxX)
            }
            .sorted { $0.minX < $1.minX }
    }

    /// Leading actions: a swipe rightwards reveals them at the row's left edge, the first
    /// outermost, while a swipe leftwards still reveals the trailing ones; a row without
    /// actions on a side does not open towards it.
    @Test func aRightwardSwipeRevealsTheLeadingActionsAtTheLeft() throws {
        let (d, actions) = scene()
        d.list.leadingSwipeActions = { [unowned actions] row in
            row == 4
                ? []
                : [
                    RowAction(title: "Unread") { actions.performed.append("unread \($0)") },
                    RowAction(title: "Pin") { actions.performed.append("pin \($0)") },
                ]
        }
        d.settle()
        swipe(d, row: 2, by: 150)
        d.settle()
        #expect(d.list.openSwipeRow == 2)
        let cell = try #require(d.list.visibleCells[2])
        let row = d.list.convert(cell.frame, to: nil)
        let shown = shownButtons(of: cell)
        #expect(shown.map(\.title) == ["Unread", "Pin"])
        let revealed = -cell.bounds.origin.x
        #expect(revealed > 0 && shown.first?.minX == row.minX && shown.last?.maxX == row.minX + revealed)
        let pin = try #require(shown.last)
        d.send(from: d.time + 0.2) { $0.tap(at: Point(x: (pin.minX + pin.maxX) / 2, y: row.midY), at: 0, hold: 60) }
        d.settle()
        #expect(actions.performed == ["pin 2"])
        #expect(d.list.openSwipeRow == nil && cell.bounds.origin.x == 0)

        // Leftwards, the same row shows its trailing actions at its right edge.
        swipe(d, row: 2, by: -150)
        d.settle()
        #expect(d.list.openSwipeRow == 2 && cell.bounds.origin.x > 0)
        #expect(shownButtons(of: cell).map(\.title) == ["Flag", "Delete"])
        d.list.closeSwipeActions(animated: false)

        // Row 4 has no leading actions: a swipe rightwards leaves it shut.
        swipe(d, row: 4, by: 150)
        d.settle()
        #expect(d.list.openSwipeRow == nil && d.list.visibleCells[4]?.bounds.origin.x == 0)

        // With only leading actions, leftwards opens nothing and a screen reader is offered
        // the leading ones.
        d.list.trailingSwipeActions = nil
        swipe(d, row: 2, by: -150)
        d.settle()
        #expect(d.list.openSwipeRow == nil && cell.bounds.origin.x == 0)
        #expect(cell.accessibilityCustomActions.map(\.name) == ["Unread", "Pin"])
        swipe(d, row: 2, by: 150)
        d.settle()
        #expect(d.list.openSwipeRow == 2)
        d.list.leadingSwipeActions = nil
        #expect(d.list.openSwipeRow == nil && cell.bounds.origin.x == 0 && cell.accessibilityCustomActions.isEmpty)
    }

    /// A full swipe (UIKit's default): drawn past 60% of the row, the first action alone fills
    /// all the row uncovers, and the release performs it as the row closes. Drawn back short
    /// of that before the release, the row only stays open over its buttons. Past its
    /// buttons and short of a full swipe, the buttons widen alike to fill what it uncovers.
    @Test func aFullSwipePerformsTheFirstActionOnRelease() throws {
        let (d, actions) = scene()
        d.settle()
        let cell = try #require(d.list.visibleCells[2])
        let width = cell.bounds.width
        let row = d.list.convert(cell.frame, to: nil)
        // The buttons' own width: what an open row rests at.
        swipe(d, row: 2, by: -150)
        d.settle()
        let buttonsWidth = cell.bounds.origin.x
        #expect(buttonsWidth > 0 && buttonsWidth < 0.5 * width)
        d.list.closeSwipeActions(animated: false)
        let p = center(of: 2, in: d)
        let far = (1...9).map { p + Point(x: -0.1 * Double($0) * width, y: 0) }
        var t = d.press(at: p, then: far, start: d.time + 0.1)
        d.advance(to: t + 0.05)
        let reveal = cell.bounds.origin.x
        #expect(reveal > 0.8 * width && reveal <= 0.9 * width)
        let full = shownButtons(of: cell)
        #expect(full.map(\.title) == ["Delete"])
        #expect(full.first?.minX == row.maxX - reveal && full.first?.maxX == row.maxX)
        #expect(actions.performed.isEmpty)
        d.send(.touchUp(id: 1), at: d.time + 0.01)
        d.settle()
        #expect(actions.performed == ["delete 2"])
        #expect(d.list.openSwipeRow == nil && cell.bounds.origin.x == 0)

        // As far, then back to 45% of the row before the release: both buttons, widened to
        // fill it, and the release leaves the row open over them.
        t = d.press(at: p, then: far, start: d.time + 0.2)
        let back = (1...4).map { p + Point(x: -(0.9 - 0.1 * Double($0)) * width, y: 0) }
        t = d.move(through: back + [p + Point(x: -0.45 * width, y: 0)], after: t + 0.016)
        d.advance(to: t + 0.05)
        let part = cell.bounds.origin.x
        #expect(part > buttonsWidth && part < 0.6 * width)
        let widened = shownButtons(of: cell)
        #expect(widened.map(\.title) == ["Flag", "Delete"])
        #expect(widened.first?.minX == row.maxX - part && widened.last?.maxX == row.maxX)
        #expect(widened[0].maxX == widened[1].minX)
        d.send(.touchUp(id: 1), at: d.time + 0.3)
        d.settle()
        #expect(actions.performed == ["delete 2"])
        #expect(d.list.openSwipeRow == 2 && cell.bounds.origin.x == buttonsWidth)
        d.list.closeSwipeActions(animated: false)

        // Without full swipes the same long swipe is held back past the buttons (rubber
        // band), which fill it, and opens the row without performing anything.
        d.list.performsFirstActionWithFullSwipe = false
        t = d.press(at: p, then: far, start: d.time + 0.2)
        d.advance(to: t + 0.05)
        let held = cell.bounds.origin.x
        let shown = shownButtons(of: cell)
        #expect(held > buttonsWidth && held < 0.7 * width)
        #expect(shown.map(\.title) == ["Flag", "Delete"] && shown.first?.minX == row.maxX - held)
        d.send(.touchUp(id: 1), at: d.time + 0.01)
        d.settle()
        #expect(actions.performed == ["delete 2"] && d.list.openSwipeRow == 2)
    }

    /// A full swipe whose action deletes its row animated: the row goes as it stands, its
    /// Delete filling it, sliding on out the way it was swiped; afterwards its cell is whole
    /// again for reuse. A tapped Delete that deletes animated takes the row open, too.
    @Test func aRowDeletedAnimatedGoesOutAsItStands() throws {
        let d = SceneDriver(.list)
        let rows = try #require(d.list.dataSource as? ListRows)
        d.list.trailingSwipeActions = { [unowned d] _ in
            [
                RowAction(title: "Delete", style: .destructive) { row in
                    rows.rowCount -= 1
                    d.list.deleteRows(at: [row], with: .left)
                },
                RowAction(title: "Flag") { _ in },
            ]
        }
        d.settle()
        let cell = try #require(d.list.visibleCells[2])
        let clipped = cell.clipsToBounds
        let width = cell.bounds.width
        let p = center(of: 2, in: d)
        let far = (1...9).map { p + Point(x: -0.1 * Double($0) * width, y: 0) }
        let t = d.press(at: p, then: far, start: d.time + 0.1)
        d.advance(to: t + 0.05)
        let reveal = cell.bounds.origin.x
        #expect(reveal > 0.8 * width)
        d.send(.touchUp(id: 1), at: d.time + 0.01)
        d.advance(to: d.time + 0.05)
        // Gone from the rows, still open over its Delete, on its way out to the left.
        #expect(!d.list.visibleCells.values.contains { $0 === cell } && d.list.openSwipeRow == nil)
        #expect(cell.superview === d.list && cell.bounds.origin.x == reveal)
        #expect(shownButtons(of: cell).map(\.title) == ["Delete"])
        #expect(cell.frame.minX < 0)
        d.settle()
        #expect(cell.bounds.origin.x == 0 && cell.frame.minX == 0 && cell.clipsToBounds == clipped)
        #expect(shownButtons(of: cell).isEmpty && cell.subviews.allSatisfy { !$0.subviews.contains { $0 is Button } })
        #expect(cell.superview !== d.list || cell.isHidden)

        // Opened over its buttons, then its Delete tapped: out as it stands too.
        let next = try #require(d.list.visibleCells[2])
        swipe(d, row: 2, by: -150)
        d.settle()
        let open = next.bounds.origin.x
        #expect(d.list.openSwipeRow == 2 && open > 0)
        let delete = try #require(next.subviews.flatMap(\.subviews).first { ($0 as? Button)?.title == "Delete" })
        d.send(from: d.time + 0.2) { $0.tap(at: delete.convert(delete.bounds, to: nil).center, at: 0, hold: 60) }
        d.advance(to: d.time + 0.02)
        #expect(!d.list.visibleCells.values.contains { $0 === next } && next.bounds.origin.x == open)
        d.settle()
        #expect(next.bounds.origin.x == 0 && d.list.openSwipeRow == nil)
        // A Flag, which leaves the row, closes it as before.
        swipe(d, row: 3, by: -150)
        d.settle()
        let flagged = try #require(d.list.visibleCells[3])
        let flag = try #require(flagged.subviews.flatMap(\.subviews).first { ($0 as? Button)?.title == "Flag" })
        d.send(from: d.time + 0.2) { $0.tap(at: flag.convert(flag.bounds, to: nil).center, at: 0, hold: 60) }
        d.settle()
        #expect(d.list.openSwipeRow == nil && flagged.bounds.origin.x == 0 && d.list.visibleCells[3] === flagged)
    }

    /// A row reconfigured while its swipe actions are open stays open, and its buttons grow
    /// with it (they kept the height the row had when it opened).
    @Test func aRowReconfiguredOpenKeepsItsButtonsAsHighAsItIs() throws {
        final class Rows: ListDataSource {
            var texts = (0..<30).map { "Row \($0)" }
            func numberOfRows(in list: ListView) -> Int { texts.count }
            func list(_ list: ListView, cellForRow row: Int) -> ListCell {
                let cell = list.dequeueReusableCell(withIdentifier: "c")
                cell.textLabel.text = texts[row]
                return cell
            }
        }
        let rows = Rows()
        let window = Window(size: Size(width: 320, height: 480))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        list.register("c") { ListCell(reuseIdentifier: "c") }
        list.trailingSwipeActions = { _ in [RowAction(title: "Delete", style: .destructive) { _ in }] }
        list.dataSource = rows
        window.addSubview(list)
        list.reloadData()
        let d = FrameDriver(window: window)
        d.advance(by: 0.05)
        let p = list.convert(list.rectForRow(2), to: nil).center
        d.send(from: d.time + 0.1) { $0.flick(from: p, by: Point(x: -120, y: 0), at: 0, moves: 6, id: 1) }
        d.settle()
        #expect(list.openSwipeRow == 2)
        let cell = try #require(list.visibleCells[2])
        let before = cell.bounds.height
        rows.texts[2] = "Row 2\nnow\nthree lines"
        list.reconfigureRows(at: [2])
        d.settle()
        #expect(list.openSwipeRow == 2 && list.visibleCells[2] === cell && cell.bounds.height > before)
        let delete = try #require(
            cell.subviews.flatMap(\.subviews).first { ($0 as? Button)?.title == "Delete" })
        #expect(delete.convert(delete.bounds, to: cell).height == cell.bounds.height)
    }
}
