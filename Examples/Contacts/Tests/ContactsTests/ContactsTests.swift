import ContactsApp
import Scrollway
import ScrollwayWestonHarness
import Testing

/// The address book in a headless weston, driven by real touches and keys through the rig,
/// judged by what the compositor shows and by the window's view tree.
@MainActor
@Suite(.serialized) struct ContactsTests {
    let headerColor = Color(rgb: 242, 242, 247)
    let barBottom = ContactsScreen.barHeight

    @Test func theFirstSectionHeaderSitsUnderTheBarAndTheCurrentOneSticksThere() throws {
        let (rig, app, screen) = try startContacts()
        let list = screen.list
        #expect(screen.countLabel.text == "3000 people")
        #expect(list.numberOfSections > 20)
        let first = try #require(list.visibleHeaders[0])
        #expect(first.textLabel.text == "A")
        #expect(first.windowFrame == Rect(x: 0, y: barBottom, width: screenSize.width, height: 32))
        let shot = try rig.capture()
        // The grey band across the window, the letter at its left, nothing to its right.
        #expect(shot.shows(headerColor, x: 200, y: Int(barBottom) + 16))
        #expect(shot.darkPixels(in: Rect(x: 14, y: barBottom + 6, width: 16, height: 20)) > 10)
        #expect(shot.darkPixels(in: Rect(x: 40, y: barBottom + 6, width: 340, height: 20)) == 0)

        // A flick up: the header of the section at the top is pinned under the bar.
        var fingers = Fingers(rig, app)
        try fingers.drag(from: Point(x: 195, y: 700), step: Point(x: 0, y: -60), moves: 6)
        try app.settle()
        #expect(list.contentOffset.y > 2000, "the flick went only to \(list.contentOffset.y)")
        let top = list.contentOffset.y
        let topRow = try #require(screen.shown.indices.first { list.rectForRow($0).maxY > top })
        let section = try #require(list.section(containingRow: topRow))
        let pinned = try #require(list.visibleHeaders[section])
        #expect(pinned.textLabel.text == screen.shown[topRow].initial)
        #expect(pinned.windowFrame.minY == barBottom)
        #expect(try rig.capture().shows(headerColor, x: 200, y: Int(barBottom) + 16))
    }

    /// The alphabet down the right edge: a touch on "M" shows the M people at the top, their
    /// header under the bar; a drag down the letters to "T" goes on to the T people, and the
    /// list never scrolls by the drag. Searching hides the index.
    @Test func theAlphabetJumpsToALetterAndFollowsADragDownIt() throws {
        let (rig, app, screen) = try startContacts()
        let list = screen.list
        let index = try #require(list.subviews.first { $0.resolvedAccessibility.label == "Section index" })
        let frame = index.windowFrame
        #expect(frame.maxX == screenSize.width && frame.minY == barBottom)
        // 26 letters of 14 px, centred down the index.
        func letter(_ i: Int) -> Point {
            Point(x: frame.midX, y: frame.minY + (frame.height - 26 * 14) / 2 + (Double(i) + 0.5) * 14)
        }
        func showsAtTop(_ initial: String) throws {
            let section = try #require(
                (0..<list.numberOfSections).first {
                    list.rectForHeader(inSection: $0).minY >= 0 && list.visibleHeaders[$0]?.textLabel.text == initial
                })
            #expect(list.visibleHeaders[section]?.windowFrame.minY == barBottom)
            let top = try #require(screen.shown.indices.first { list.rectForRow($0).maxY > list.contentOffset.y + 32 })
            #expect(screen.shown[top].initial == initial)
        }
        var fingers = Fingers(rig, app)
        try fingers.tap(letter(12))
        try app.settle()
        try showsAtTop("M")
        try fingers.drag(from: letter(12), step: Point(x: 0, y: 14), moves: 7)
        try app.settle()
        try showsAtTop("T")
        #expect(!list.isDecelerating && list.openSwipeRow == nil)
        // On screen, the letters are drawn in the index's column: blue ink there.
        let shot = try rig.capture()
        let ink = shot.darkPixels(in: Rect(x: frame.minX, y: letter(0).y - 7, width: frame.width, height: 26 * 14))
        #expect(ink > 26 * 4)

        // A search narrows the people down, and the index goes.
        screen.searchField.text = "an"
        screen.searchField.onChange?("an")
        try app.settle()
        #expect(!screen.shown.isEmpty && screen.shown.count < 3000)
        #expect(!list.subviews.contains { $0.resolvedAccessibility.label == "Section index" })
    }

    @Test func theListEndsWithHowManyPeopleItHolds() throws {
        let (rig, app, screen) = try startContacts()
        let list = screen.list
        #expect(screen.footerLabel.text == "3000 Contacts" && list.listFooterView === screen.footerLabel)
        list.scrollToRow(screen.shown.count - 1)
        try app.settle()
        list.setContentOffset(
            Point(x: 0, y: list.contentSize.height + list.adjustedContentInset.bottom - list.bounds.height),
            animated: false)
        try app.settle()
        // The last row, then the count under it, in grey on white.
        let footer = screen.footerLabel.windowFrame
        let last = list.convert(list.rectForRow(screen.shown.count - 1), to: nil)
        #expect(footer.minY == last.maxY && footer.maxY <= screenSize.height)
        let shot = try rig.capture()
        #expect(shot.darkPixels(in: footer.insetBy(dx: 100, dy: 16)) > 20)
        #expect(shot.shows(.white, x: 20, y: Int(footer.midY)))
        // A search counts what it found; one that finds nobody says so in the list instead.
        screen.searchField.text = "an"
        screen.searchField.onChange?("an")
        try app.settle()
        #expect(screen.shown.count > 1 && screen.shown.count < 3000)
        #expect(screen.footerLabel.text == "\(screen.shown.count) Contacts")
        screen.searchField.text = "zzzz"
        screen.searchField.onChange?("zzzz")
        try app.settle()
        #expect(screen.shown.isEmpty && screen.footerLabel.text == "")
    }

    @Test func aTappedRowOpensItsPersonAndBackOrEscapeReturns() throws {
        let (rig, app, screen) = try startContacts()
        var fingers = Fingers(rig, app)
        let row = 2
        let person = screen.shown[row]
        try fingers.tap(screen.list.convert(screen.list.rectForRow(row), to: nil).center)
        try app.pump(until: { screen.detail != nil }, "the person's page")
        try app.settle()
        let page = try #require(screen.detail)
        #expect(page.contact == person)
        #expect(page.nameLabel.text == person.name)
        // The avatar's colour above its initials, where the list showed a row before.
        let avatar = page.avatar.windowFrame
        #expect(try rig.capture().shows(page.avatar.color, x: Int(avatar.midX), y: Int(avatar.minY) + 10))

        try fingers.tap(page.backButton.windowFrame.center)
        try app.pump(until: { screen.detail == nil }, "the back button")
        try app.settle()
        #expect(try rig.capture().shows(headerColor, x: 200, y: Int(barBottom) + 16))
        // Back on the list, the row tapped is not left selected: white, not the selection's grey.
        let cell = try #require(screen.list.visibleCells[row])
        #expect(screen.list.selectedRows.isEmpty && !cell.isSelected)
        #expect(try rig.capture().shows(.white, x: 200, y: Int(cell.windowFrame.minY) + 4))

        try fingers.tap(screen.list.convert(screen.list.rectForRow(row), to: nil).center)
        try app.pump(until: { screen.detail != nil }, "the person's page again")
        try fingers.key("Escape")
        try app.pump(until: { screen.detail == nil }, "Escape")
    }

    @Test func anEdgeSwipeTakesThePageBackUnderTheFingerAndLetGoItGoesBackInOrOut() throws {
        let (rig, app, screen) = try startContacts()
        var fingers = Fingers(rig, app)
        try fingers.tap(screen.list.convert(screen.list.rectForRow(2), to: nil).center)
        try app.pump(until: { screen.detail != nil }, "the person's page")
        try app.settle()
        let page = try #require(screen.detail)
        #expect(page.frame.minX == 0)
        let avatar = page.avatar.windowFrame
        let y = 400.0

        // A slow drag from the left edge, the finger held down at its end: the page has moved
        // with it, over the list, by the finger's travel past the slop.
        try fingers.play(after: 200) { b in
            b.touch(
                from: Point(x: 4, y: y), at: 0,
                moves: (1...20).map { (t: Double(32 * $0), to: Point(x: 4 + 6 * Double($0), y: y)) }, liftAt: nil)
        }
        try app.pump(until: { page.frame.minX > 100 }, "the page to follow the finger")
        #expect(page.frame.minX <= 120 && screen.detail === page)
        let moved = page.frame.minX
        let held = try rig.capture()
        #expect(held.shows(page.avatar.color, x: Int(avatar.midX + moved), y: Int(avatar.minY) + 10))
        #expect(!held.shows(page.avatar.color, x: Int(avatar.minX) + 4, y: Int(avatar.midY)))
        // Let go short of halfway, still: back in, where it was.
        try fingers.play(after: 150) { b in
            b.add(.touchUp(id: 0), at: 0)
            b.add(.touchFrame, at: 0)
        }
        try app.settle()
        #expect(page.frame.minX == 0 && screen.detail === page && page.superview === screen)
        #expect(try rig.capture().shows(page.avatar.color, x: Int(avatar.midX), y: Int(avatar.minY) + 10))

        // A quick swipe: the page goes on out by itself, and the list is back.
        try fingers.drag(from: Point(x: 4, y: y), step: Point(x: 30, y: 0), moves: 6)
        try app.pump(until: { screen.detail == nil }, "the swipe to take the page back")
        try app.settle()
        #expect(page.superview == nil)
        #expect(try rig.capture().shows(headerColor, x: 200, y: Int(barBottom) + 16))
    }

    @Test func aRowSwipedLeftShowsDeleteWhichDeletesItAsAFullSwipeDoesAndAVerticalDragStillScrolls() throws {
        let (rig, app, screen) = try startContacts()
        let list = screen.list
        let row = 3
        let person = screen.shown[row]
        let next = screen.shown[row + 1]
        let rowFrame = list.convert(list.rectForRow(row), to: nil)
        var fingers = Fingers(rig, app)
        // A quick swipe left along the row, as real wl_touch events.
        try fingers.drag(from: Point(x: 300, y: rowFrame.midY), step: Point(x: -25, y: 0), moves: 6)
        try app.pump(until: { list.openSwipeRow == row && app.isAtRest }, "the row to open")
        #expect(list.contentOffset.y == -list.adjustedContentInset.top, "the list scrolled under a sideways swipe")
        // The compositor shows the red Delete band at the row's right end, the row's name moved
        // left of it.
        let cell = try #require(list.visibleCells[row])
        let revealed = cell.bounds.origin.x
        #expect(revealed >= 74)
        let shot = try rig.capture()
        let red = Color(rgb: 255, 59, 48)
        #expect(shot.shows(red, x: Int(rowFrame.maxX) - 4, y: Int(rowFrame.minY) + 4))
        #expect(shot.shows(red, x: Int(rowFrame.maxX - revealed) + 4, y: Int(rowFrame.minY) + 4))
        #expect(shot.shows(.white, x: Int(rowFrame.maxX - revealed) - 4, y: Int(rowFrame.minY) + 4))

        // Tapping Delete takes the person out; the next one moves up into the row.
        try fingers.tap(Point(x: rowFrame.maxX - revealed / 2, y: rowFrame.midY))
        try app.pump(until: { !screen.shown.contains(person) }, "the delete")
        try app.settle()
        #expect(screen.book.count == 2999 && screen.countLabel.text == "2999 people")
        #expect(screen.shown[row] == next && list.openSwipeRow == nil)
        #expect(screen.detail == nil)  // the tap on Delete did not also open the row

        // A full swipe across the row deletes the person there without a tap, and the row
        // closes.
        let after = screen.shown[row + 1]
        try fingers.drag(from: Point(x: rowFrame.maxX - 40, y: rowFrame.midY), step: Point(x: -40, y: 0), moves: 8)
        try app.pump(until: { !screen.shown.contains(next) }, "the full swipe's delete")
        try app.settle()
        #expect(screen.book.count == 2998 && screen.shown[row] == after && list.openSwipeRow == nil)
        #expect(list.visibleCells[row]?.bounds.origin.x == 0 && screen.detail == nil)

        // A vertical drag starting on a row scrolls the list, as before.
        try fingers.drag(from: Point(x: 300, y: rowFrame.midY + 200), step: Point(x: 0, y: -30), moves: 6)
        try app.settle()
        #expect(list.contentOffset.y > 150 && list.openSwipeRow == nil)
    }

    @Test func aTouchOnTheSearchFieldBringsTheKeyboardAndTheListMakesRoomAboveIt() throws {
        let (rig, app, screen) = try startContacts()
        let window = try #require(screen.window)
        let keyboard = try #require(window.view(named: "keyboard") as? OnScreenKeyboard)
        var fingers = Fingers(rig, app)
        try fingers.tap(screen.searchField.windowFrame.center)
        #expect(screen.searchField.isFocused)
        try app.pump(until: { keyboard.visibleFraction == 1 && app.isAtRest }, "the keyboard to slide in")
        #expect(keyboard.top == screenSize.height - OnScreenKeyboard.height)
        #expect(screen.searchField.windowFrame.maxY < keyboard.top)
        // On screen: the field, white, well above the keyboard's grey.
        let shot = try rig.capture()
        #expect(shot.shows(.white, x: 300, y: Int(screen.searchField.windowFrame.midY)))
        #expect(shot.shows(keyboard.backgroundColor!, x: 2, y: Int(keyboard.top) + 2))
        // The list's bottom inset is what the keyboard covers of it.
        #expect(screen.list.adjustedContentInset.bottom == OnScreenKeyboard.height)

        // Typed on the on-screen keyboard: the list follows each key.
        for ch in "zoe" {
            try fingers.tap(try #require(keyboard.keyFrame(for: String(ch))).center)
        }
        try app.settle()
        #expect(screen.searchField.text == "zoe")
        #expect(!screen.shown.isEmpty && screen.shown.count < 100)
        #expect(screen.shown.allSatisfy { $0.givenName == "Zoe" })
        #expect(screen.countLabel.text == "\(screen.shown.count) of 3000")

        // Scrolled to its end, the last row and the count under it rest just above the
        // keyboard, not under it.
        let list = screen.list
        list.setContentOffset(Point(x: 0, y: list.verticalRange.upperBound), animated: false)
        try app.settle()
        let last = list.convert(list.rectForRow(screen.shown.count - 1), to: nil)
        let count = screen.footerLabel.windowFrame
        #expect(last.maxY == count.minY && abs(count.maxY - keyboard.top) < 0.5)

        // Escape clears the search; the keyboard goes, and the inset with it.
        try fingers.key("Escape")
        try app.pump(until: { keyboard.visibleFraction == 0 && app.isAtRest }, "the keyboard to go")
        #expect(screen.searchField.text.isEmpty && screen.shown.count == 3000)
        #expect(screen.list.adjustedContentInset.bottom == 0)
    }

    /// A pull to refresh: the new people arrive under "New" at the top of the list, which rests
    /// at its top, so they show there and the people who were in view move down below them (a
    /// list at its top keeps its offset through an insertion, as UIKit's does).
    @Test func aPullRefreshesAndTheNewPeopleArriveAtTheTopInView() throws {
        let (rig, app, screen) = try startContacts()
        let list = screen.list
        let control = try #require(list.refreshControl)
        let firstPerson = screen.shown[0]
        // Long enough for the pulled list to come to rest with the spinner in view first.
        screen.syncDuration = 3
        var fingers = Fingers(rig, app)
        try fingers.drag(from: Point(x: 195, y: 300), step: Point(x: 0, y: 20), moves: 14)
        try app.catchUp()
        #expect(control.isRefreshing)
        try app.pump(
            until: { list.contentOffset.y == -list.adjustedContentInset.top && !list.isDecelerating },
            "the list to rest with the spinner in view")
        #expect(control.isRefreshing && list.adjustedContentInset.top == RefreshControl.height)
        try app.pump(until: { !control.isRefreshing && app.isAtRest }, "the refresh to end")
        #expect(screen.book.count == 3003)
        #expect(screen.countLabel.text == "3003 people")
        #expect(list.dataSource?.list(list, titleForSection: 0) == "New")
        #expect(list.contentOffset.y == -list.adjustedContentInset.top)
        #expect(list.visibleHeaders[0]?.textLabel.text == "New")
        // The new people in view at the top, the first person who was in view below them.
        let shown = list.convert(list.bounds, to: nil)
        let newRows = (0..<3).map { list.convert(list.rectForRow($0), to: nil) }
        #expect(newRows.allSatisfy { $0.minY >= shown.minY && $0.maxY <= shown.maxY }, "\(newRows) in \(shown)")
        let moved = try #require(screen.shown.firstIndex(of: firstPerson))
        #expect(moved == 3)
        #expect(list.convert(list.rectForRow(moved), to: nil).minY >= newRows[2].maxY)
    }
}
