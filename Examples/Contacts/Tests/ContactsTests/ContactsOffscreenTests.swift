import ContactsApp
import Scrollway
import Testing

/// The address book offscreen, on the frame driver's clock: gestures whose timing a compositor
/// could not pin down.
@MainActor
@Suite struct ContactsOffscreenTests {
    /// The address book in a phone-sized window on the frame driver, at rest.
    static func offscreen() -> (Window, ContactsScreen, FrameDriver) {
        let window = Window(size: screenSize)
        let screen = ContactsScreen(book: AddressBook())
        screen.install(in: window)
        let driver = FrameDriver(window: window)
        driver.settle()
        return (window, screen, driver)
    }

    /// A person's page let go of short of halfway springs back in; a finger from the edge that
    /// lands before it is back catches it where it stands, takes it on, and thrown, it goes.
    @Test func anEdgeSwipeCatchesThePageOnItsWayBack() throws {
        let (window, screen, driver) = Self.offscreen()
        screen.open(screen.shown[2])
        driver.settle()
        let page = try #require(screen.detail)
        #expect(page.frame.minX == 0)
        // Out by 100 px, slowly, held still, let go: it springs back in.
        let y = 400.0
        driver.send { b in
            b.touch(
                from: Point(x: 4, y: y), at: 0,
                moves: (1...20).map { (t: Double(40 * $0), to: Point(x: 4 + 6 * Double($0), y: y)) },
                liftAt: 1000)
        }
        let out = page.frame.minX
        #expect(out > 90 && out < 120)
        // Caught on its way back by a finger that lands on it within the window's edge band
        // and crosses the slop at once, while the page still moves.
        while page.frame.minX >= 17 { driver.advance(by: 1 / 60) }
        let caught = page.frame.minX
        #expect(caught > 0)
        let x = caught + 2
        let end = driver.send { b in
            b.touch(
                from: Point(x: x, y: y), at: 0,
                moves: [(t: 2, to: Point(x: x + 12, y: y))]
                    + (1...10).map { (t: 2 + Double(40 * $0), to: Point(x: x + 12 + 8 * Double($0), y: y)) },
                liftAt: nil)
        }
        driver.advance(to: end + 0.05)
        // It follows the finger from where it stood as the drag began: 92 px of travel less
        // the 10 px slop.
        #expect(page.frame.minX >= 82 - 1e-9 && page.frame.minX <= caught + 82)
        #expect(screen.detail === page)
        // Thrown: out it goes, and the list is back.
        driver.send { b in
            b.move(through: (1...4).map { Point(x: x + 92 + 40 * Double($0), y: y) }, after: 0)
            b.add(.touchUp(id: 0), at: 80)
            b.add(.touchFrame, at: 80)
        }
        driver.settle()
        #expect(screen.detail == nil && page.superview == nil && !window.hasViewAnimations)
    }

    /// Edit puts the list in editing (the button says Done): a person's delete control shows
    /// Delete, which takes them out of the book and the list; a tap on a person opens no page
    /// meanwhile; Done ends it.
    @Test func editDeletesAPersonByTheirDeleteControl() throws {
        let (_, screen, driver) = Self.offscreen()
        func tap(_ p: Point) {
            driver.send(from: driver.time + 0.1) { $0.tap(at: p, at: 0, hold: 60) }
            driver.settle()
        }
        func onScreen(_ v: View) -> Rect { v.convert(v.bounds, to: nil) }
        tap(onScreen(screen.editButton).center)
        #expect(screen.list.isEditing && screen.editButton.title == "Done")
        let second = screen.shown[1]
        let cell = try #require(screen.list.visibleCells[1])
        #expect(cell.editingStyle == .delete && cell.textLabel.text == second.name)
        let row = onScreen(cell)
        tap(Point(x: row.minX + 27, y: row.midY))
        #expect(screen.list.openSwipeRow == 1)
        let delete = try #require(
            cell.subviews.flatMap(\.subviews).compactMap { $0 as? Button }.first { $0.title == "Delete" })
        tap(onScreen(delete).center)
        #expect(screen.book.count == 2999 && !screen.shown.contains { $0.id == second.id })
        #expect(screen.countLabel.text == "2999 people")
        tap(onScreen(try #require(screen.list.visibleCells[2])).center)
        #expect(screen.detail == nil)
        tap(onScreen(screen.editButton).center)
        #expect(!screen.list.isEditing && screen.editButton.title == "Edit")
    }
}
