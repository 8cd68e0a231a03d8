import Foundation
import ScrollwayAtSpi
import ScrollwayDBus
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayHeadless
import ScrollwayRigs
import ScrollwayScrolling
import ScrollwayTestSupport
import ScrollwayViews
import ScrollwayWestonHarness
import Testing

/// What a screen reader hears and does beyond reading the tree (issue 37): a list's rows with
/// their places among all rows, the focused row as the list's selection and active descendant,
/// rows coming and going as cells are reused, names that change, the scroll actions, the
/// announcements of a refresh and a page, and keys that go to the reader first. Read by
/// libatspi through Scripts/atspi-client.py, on a real accessibility bus.
@MainActor
@Suite struct AtSpiEventsTests {
    /// A scene's window at 390 × 844, laid out and served on the AT-SPI bus of a private
    /// session; `serve` answers what came for it.
    @MainActor
    final class Served {
        let bus: AccessibilityBus
        let window: Window
        let connection: DBusConnection
        let bridge: AtSpiBridge

        init(_ scene: Scene) throws {
            window = scene.makeWindow(size: Size(width: 390, height: 844))
            try window.prepareFrame()
            bus = try AccessibilityBus()
            do {
                (connection, bridge) = try AtSpiBridgeTests.serve(window, on: bus)
            } catch {
                bus.stop()
                throw error
            }
        }

        func serve() throws { try connection.wait(timeout: 0.01) }

        /// The scene's "main" view.
        func main<V: View>(_ type: V.Type) throws -> V { try #require(window.view(named: "main") as? V) }

        func stop() {
            bridge.unregister()
            bus.stop()
        }
    }

    /// Rows say where they stand among all the list's rows (`posinset`, `setsize`), though only
    /// rows with cells are elements; selecting a row through `Selection` focuses it; and the
    /// focus moving onto a row is heard as the row selected, the list's selection and active
    /// descendant changed, then the row focused, in that order.
    @Test func theFocusedRowIsTheListsSelection() throws {
        let served = try Served(.list)
        defer { served.stop() }
        let (bus, window) = (served.bus, served.window)
        let list = try served.main(ListView.self)
        let serve = served.serve

        let desktop = try AccessibilityBusTests.client(["tree", "--depth", "5"], in: bus, serve: serve)
        let items = Self.all(desktop).filter { $0["role"] as? String == "list item" }
        #expect(items.count == list.visibleCells.count, "\(items.count) items, \(list.visibleCells.count) cells")
        let first = try #require(items.first)
        let attributes = try #require(first["attributes"] as? [String: String], "\(first)")
        #expect(attributes["posinset"] == "1" && attributes["setsize"] == "\(list.rowCount)", "\(attributes)")
        #expect((first["states"] as? [String])?.contains("selectable") == true, "\(first)")

        let listener = try AccessibilityBusTests.listen(
            [
                "object:state-changed:selected", "object:selection-changed", "object:active-descendant-changed",
                "object:state-changed:focused",
            ], count: 4, in: bus, serve: serve)
        let cell = try #require(list.visibleCells[2])
        cell.becomeFocused()
        let events = try listener.finish(serve: serve)
        #expect(
            events.map { $0["type"] as? String } == [
                "object:state-changed:selected", "object:selection-changed", "object:active-descendant-changed",
                "object:state-changed:focused",
            ], "\(events)")
        #expect(events.map { $0["role"] as? String } == ["list item", "list", "list", "list item"], "\(events)")
        #expect(events.first?["name"] as? String == cell.textLabel.text, "\(events)")

        // Child 6 of the list (its children are the section headers' titles and the rows).
        let children = list.accessibilityChildren(in: window)
        let index = try #require(children.indices.filter { children[$0].role == .listItem }.dropFirst(5).first)
        let row = children[index]
        let selected = try AccessibilityBusTests.client(["select", "role:list", "\(index)"], in: bus, serve: serve)
        #expect(selected["done"] as? Bool == true && selected["count"] as? Int == 1, "\(selected)")
        #expect(selected["selected"] as? String == row.label && row.view.isFocused, "\(selected) \(row.label)")
    }

    /// Scrolling a list reuses its cells: rows that leave are heard as `children-changed:remove`
    /// and rows that come as `children-changed:add`, from the list, each naming the row.
    @Test func cellsReusedInAFlingAreHeardAsChildrenChanging() throws {
        let served = try Served(.list)
        defer { served.stop() }
        let (bus, window, connection) = (served.bus, served.window, served.connection)
        let serve = served.serve
        let listener = try AccessibilityBusTests.listen(
            ["object:children-changed"], count: 4, in: bus, serve: serve)
        // The reader asks about each event's source as it hears it: answered between frames.
        let driver = FrameDriver(window: window)
        driver.afterFrame = { _ in try? connection.process() }
        driver.send { $0.flick(from: Point(x: 200, y: 780), by: Point(x: 0, y: -600), at: 0, id: 1) }
        driver.settle()
        let events = try listener.finish(serve: serve)
        let kinds = Set(events.compactMap { $0["type"] as? String })
        #expect(kinds == ["object:children-changed:remove", "object:children-changed:add"], "\(events)")
        #expect(events.allSatisfy { $0["role"] as? String == "list" }, "\(events)")
    }

    /// The children that change while a list moves (a finger down, an animation) are told once
    /// it is still, or every `childrenCoalescing` seconds of motion, as what changed since last
    /// told: a fling through dozens of rows sends a few bursts of at most a remove and an add per
    /// cell, not two events per row passed, and the last burst's adds name the list's elements.
    /// The list's children before the fling, changed as the events say, are its children after
    /// it, section headers' titles included (they had come and gone unheard), and a child never
    /// told of again keeps the name the reader knew. The same of the grid, whose headers had
    /// been reused for later sections unheard ("Roll 1" became "Roll 7").
    @Test(arguments: [Scene.list, .grid])
    func childrenChangesAreToldInBurstsAsTheListSettles(scene: Scene) throws {
        let served = try Served(scene)
        defer { served.stop() }
        let (bus, window, connection, bridge) = (served.bus, served.window, served.connection, served.bridge)
        let list = try served.main(ScrollView.self)

        let watcher = try DBusConnection(address: bus.accessibilityAddress)
        var heard: [(kind: String, path: String, time: Double)] = []
        let watch = try watcher.watch(interface: "org.a11y.atspi.Event.Object", member: "ChildrenChanged") { signal in
            if case .variant(.structure(let child))? = signal.arguments.dropFirst(3).first,
                case .objectPath(let path)? = child.last, let kind = signal.arguments.first?.stringValue
            {
                MainActor.assumeIsolated { heard.append((kind, path, window.now)) }
            }
        }
        defer { watch.cancel() }
        func children() -> Set<String> {
            Set(list.accessibilityChildren(in: window).map { bridge.path(of: $0.view) })
        }
        func names() -> [String: String] {
            Dictionary(
                list.accessibilityChildren(in: window).map { (bridge.path(of: $0.view), $0.label) },
                uniquingKeysWith: { a, _ in a })
        }
        let before = children()
        let namesBefore = names()
        let driver = FrameDriver(window: window)
        var moving: ClosedRange<Double>?
        driver.afterFrame = { _ in
            try? connection.process()
            try? watcher.process()
            if window.hasActiveAnimations || window.hasTouchesDown {
                moving = (moving?.lowerBound ?? window.now)...window.now
            }
        }
        driver.send { $0.flick(from: Point(x: 200, y: 780), by: Point(x: 0, y: -600), at: 0, id: 1) }
        driver.settle()
        // The first row (or item) in view: how many the fling passed.
        let passed: Int
        if let rows = list as? ListView {
            passed = rows.row(for: try #require(rows.visibleCells.values.min { $0.frame.minY < $1.frame.minY })) ?? 0
        } else {
            let grid = try #require(list as? CollectionView)
            let first = try #require(grid.visibleCells.keys.min())
            passed = first.section * PhotoGrid.rollLength + first.item
        }
        #expect(passed > 50, "the fling passed only \(passed) rows")
        // The last events may still be on their way through the bus.
        var count = -1
        while heard.count != count {
            count = heard.count
            try watcher.wait(timeout: 0.1)
        }
        let motion = try #require(moving)
        let cells = list.subviews.filter { $0 is ListCell || $0 is CollectionCell }
        let bursts = Set(heard.map(\.time))
        let most = Int(
            clamping: (motion.upperBound - motion.lowerBound) / AtSpiBridge.childrenCoalescing, rounding: .down)
        #expect(bursts.count <= most + 2, "\(bursts.count) bursts in \(motion)")
        #expect(heard.count <= bursts.count * 2 * cells.count, "\(heard.count) events, \(cells.count) cells")
        #expect(heard.count < passed, "\(heard.count) events for \(passed) rows passed")
        let last = try #require(bursts.max())
        let after = children()
        #expect(heard.filter { $0.time == last && $0.kind == "add" }.allSatisfy { after.contains($0.path) }, "\(heard)")
        var told = before
        for e in heard {
            if e.kind == "add" { told.insert(e.path) } else { told.remove(e.path) }
        }
        #expect(
            told == after, "told but gone: \(told.subtracting(after)); there but not told: \(after.subtracting(told))")
        // A child never told of again is the one the reader knew: a view reused for another
        // row or header while out of the view is told as gone and back, under its new name.
        let retold = Set(heard.map(\.path))
        let namesAfter = names()
        for path in after.subtracting(retold) {
            #expect(namesAfter[path] == namesBefore[path], "\(path) became \(namesAfter[path] ?? "?") unheard")
        }
        #expect(list.accessibilityChildren(in: window).contains { $0.role == .staticText }, "no header in view")
    }

    /// The feed's cards, which the app names nothing, are read by the labels they hold (a
    /// collection's cell is named by its content), with their places among all posts; a
    /// card's title changing is heard as the card's new name, from the card.
    @Test func aFeedsCardsAreReadByTheLabelsTheyHold() throws {
        let served = try Served(.feed)
        defer { served.stop() }
        let bus = served.bus
        let feed = try served.main(CollectionView.self)
        let serve = served.serve

        let desktop = try AccessibilityBusTests.client(["tree", "--depth", "5"], in: bus, serve: serve)
        let items = Self.all(desktop).filter { $0["role"] as? String == "list item" }
        #expect(items.count == feed.visibleCells.count, "\(items.count) items, \(feed.visibleCells.count) cells")
        let expected = Set(feed.visibleCells.keys.map { "\(Posts.title($0.item)), \(Posts.body($0.item))" })
        #expect(Set(items.compactMap { $0["name"] as? String }) == expected, "\(items.map { $0["name"] ?? "" })")
        let first = try #require(items.first { $0["name"] as? String == "Post 1, \(Posts.body(0))" })
        let attributes = try #require(first["attributes"] as? [String: String], "\(first)")
        #expect(attributes["posinset"] == "1" && attributes["setsize"] == "\(Posts.count)", "\(attributes)")

        let card = try #require(feed.visibleCells[ItemPath(item: 0)] as? PostCard)
        let listener = try AccessibilityBusTests.listen(
            ["object:property-change:accessible-name"], count: 1, in: bus, serve: serve)
        card.title.text = "Post 1 (edited)"
        let events = try listener.finish(serve: serve)
        #expect(events.first?["data"] as? String == "Post 1 (edited), \(Posts.body(0))", "\(events)")
        #expect(events.first?["role"] as? String == "list item", "\(events)")
    }

    /// A label's new text is heard as `property-change:accessible-name` carrying it, from the
    /// element it names.
    @Test func aNewLabelIsHeard() throws {
        let bus = try AccessibilityBus()
        defer { bus.stop() }
        let window = Window(size: Size(width: 300, height: 100))
        let status = Label(text: "Loading", frame: Rect(x: 10, y: 10, width: 200, height: 30))
        window.addSubview(status)
        let (connection, bridge) = try AtSpiBridgeTests.serve(window, on: bus)
        defer { bridge.unregister() }
        let serve = { try connection.wait(timeout: 0.01) }
        let listener = try AccessibilityBusTests.listen(
            ["object:property-change:accessible-name"], count: 1, in: bus, serve: serve)
        status.text = "3 new posts"
        let events = try listener.finish(serve: serve)
        #expect(events.first?["data"] as? String == "3 new posts" && events.first?["role"] as? String == "label")
    }

    /// A scroll view offers its scrolls as actions; "scroll down" moves a list by a page less
    /// the overlap, as Page Down does, and says which rows it shows.
    @Test func scrollDownPagesAndSaysWhichRowsShow() throws {
        let served = try Served(.list)
        defer { served.stop() }
        let (bus, window) = (served.bus, served.window)
        let list = try served.main(ListView.self)
        let serve = served.serve
        let listener = try AccessibilityBusTests.listen(["object:announcement"], count: 1, in: bus, serve: serve)
        let answer = try AccessibilityBusTests.client(
            ["action", "role:list", "--do", "scroll down"], in: bus, serve: serve)
        #expect(
            answer["actions"] as? [String] == ["scroll up", "scroll down", "scroll to top", "scroll to bottom"],
            "\(answer)")
        #expect(answer["done"] as? Bool == true)
        let events = try listener.finish(serve: serve)
        let start = list.contentOffset.y
        let driver = FrameDriver(window: window)
        driver.settle()
        #expect(list.contentOffset.y == start + 844 - ScrollView.pageOverlap, "\(list.contentOffset)")
        #expect(events.first?["data"] as? String == list.accessibilityScrollStatus(at: list.contentOffset), "\(events)")
        #expect((events.first?["data"] as? String)?.hasPrefix("Rows ") == true, "\(events)")
    }

    /// "scroll up" at the top of the refresh scene starts a refresh, as a pull does, and its
    /// end is announced from the window.
    @Test func scrollingUpAtTheTopRefreshesAndTheEndIsAnnounced() throws {
        let served = try Served(.refresh)
        defer { served.stop() }
        let bus = served.bus
        let main = try served.main(ScrollView.self)
        let serve = served.serve
        let heard = try AccessibilityBusTests.listen(["object:announcement"], count: 1, in: bus, serve: serve)
        let pulled = try AccessibilityBusTests.client(
            ["action", "role:scroll pane", "--do", "scroll up"], in: bus, serve: serve)
        #expect(pulled["done"] as? Bool == true && main.refreshControl?.isRefreshing == true, "\(pulled)")
        main.refreshControl?.endRefreshing()
        let said = try heard.finish(serve: serve)
        #expect(said.first?["data"] as? String == "Refreshed" && said.first?["role"] as? String == "frame", "\(said)")
    }

    /// A pager that comes to rest on another page says which ("Page 2 of 5"), once.
    @Test func aTurnedPageIsAnnounced() throws {
        let served = try Served(.paging)
        defer { served.stop() }
        let (bus, window, connection) = (served.bus, served.window, served.connection)
        let pager = try served.main(ScrollView.self)
        let serve = served.serve
        let listener = try AccessibilityBusTests.listen(["object:announcement"], count: 1, in: bus, serve: serve)
        let pages = Int(clamping: (pager.contentSize.width / 390).rounded(), rounding: .down)
        let driver = FrameDriver(window: window)
        driver.afterFrame = { _ in try? connection.process() }
        driver.send { $0.flick(from: Point(x: 300, y: 400), by: Point(x: -150, y: 0), at: 0, id: 1) }
        driver.settle()
        let events = try listener.finish(serve: serve)
        #expect(pager.contentOffset.x == 390, "\(pager.contentOffset)")
        #expect(events.map { $0["data"] as? String } == ["Page 2 of \(pages)"], "\(events)")
    }

    /// Keys go to the reader's keystroke listener first (`NotifyListenersSync`, as Qt does on
    /// Wayland): it hears each press and release with its keysym, name and modifiers, and the
    /// window gets only the keys it did not consume, in the order they came.
    @Test func keysGoToTheReaderFirst() throws {
        let bus = try AccessibilityBus()
        defer { bus.stop() }
        let window = Window(size: Size(width: 200, height: 100))
        let (connection, bridge) = try AtSpiBridgeTests.serve(window, on: bus)
        defer { bridge.unregister() }
        let serve = { try connection.wait(timeout: 0.01) }
        let listener = try AccessibilityBusTests.listenToKeys(
            count: 4, consume: ["Page_Down"], in: bus, serve: serve)
        var delivered: [String] = []
        func key(_ name: String, _ sym: UInt32, _ code: UInt32, pressed: Bool) -> AtSpiKeyEvent {
            AtSpiKeyEvent(
                pressed: pressed, keysym: sym, keycode: code, modifiers: [.shift], timestamp: 1000, string: name,
                isText: false)
        }
        for (name, sym, code) in [("Tab", UInt32(0xff09), UInt32(23)), ("Page_Down", 0xff56, 117)] {
            for pressed in [true, false] {
                bridge.forward(key(name, sym, code, pressed: pressed)) { delivered.append("\(name) \(pressed)") }
            }
        }
        let events = try listener.finish(serve: serve)
        try eventually("the keys' answers", timeout: 10) {
            try serve()
            return bridge.pendingKeyCount == 0
        }
        #expect(events.map { $0["string"] as? String } == ["Tab", "Tab", "Page_Down", "Page_Down"], "\(events)")
        #expect(events.map { $0["pressed"] as? Bool } == [true, false, true, false], "\(events)")
        #expect(events.map { $0["keysym"] as? Int } == [0xff09, 0xff09, 0xff56, 0xff56], "\(events)")
        #expect(events.map { $0["keycode"] as? Int } == [23, 23, 117, 117], "\(events)")
        #expect(events.allSatisfy { $0["modifiers"] as? Int == 1 }, "\(events)")
        #expect(delivered == ["Tab true", "Tab false"])

        // With no listener, every key reaches the window.
        delivered = []
        bridge.forward(key("Tab", 0xff09, 23, pressed: true)) { delivered.append("Tab") }
        try eventually("the key's answer", timeout: 10) {
            try serve()
            return delivered == ["Tab"]
        }
    }

    /// An outline's rows: a parent says it is expandable and whether it is expanded, every row
    /// its level (from 1); the parent's own action closes it, heard as its `expanded` state
    /// going off, and its children go.
    @Test func anOutlinesRowsSayTheirLevelAndOpenAndCloseByTheirAction() throws {
        let served = try Served(.files)
        defer { served.stop() }
        let bus = served.bus
        let serve = served.serve
        let desktop = try AccessibilityBusTests.client(["tree", "--depth", "5"], in: bus, serve: serve)
        let items = Self.all(desktop).filter { $0["role"] as? String == "list item" }
        func item(_ name: String) throws -> [String: Any] {
            try #require(items.first { $0["name"] as? String == name }, "no row \(name)")
        }
        let documents = try item("Documents")
        let states = documents["states"] as? [String] ?? []
        #expect(states.contains("expandable") && states.contains("expanded"), "\(documents)")
        #expect((documents["attributes"] as? [String: String])?["level"] == "1", "\(documents)")
        // Its place among the disk's top folders, not among all rows.
        #expect((documents["attributes"] as? [String: String])?["posinset"] == "1", "\(documents)")
        #expect((documents["attributes"] as? [String: String])?["setsize"] == "\(FileTree.topFolders.count)")
        let folder = try #require(FileTree.contents(of: "/Documents").folders.first?.split(separator: "/").last)
        let child = try item(String(folder))
        #expect((child["attributes"] as? [String: String])?["level"] == "2", "\(child)")
        let home = try item("Home")
        #expect((home["attributes"] as? [String: String])?["level"] == nil, "a flat row has no level: \(home)")
        #expect(!(home["states"] as? [String] ?? []).contains("expandable"), "\(home)")

        let list = try served.main(ListView.self)
        let source = try #require(
            served.window.retainedObjects.compactMap { $0 as? ListDiffableDataSource<String, String> }.first)
        let rows = list.rowCount
        let under = source.snapshot(for: FileTree.disk).snapshot(of: "/Documents").visibleItems.count
        let listener = try AccessibilityBusTests.listen(
            ["object:state-changed:expanded"], count: 1, in: bus, serve: serve)
        let acted = try AccessibilityBusTests.client(
            ["action", "Documents", "--do", "expand or contract"], in: bus, serve: serve)
        #expect(acted["done"] as? Bool == true, "\(acted)")
        let events = try listener.finish(serve: serve)
        #expect(events.first?["name"] as? String == "Documents" && events.first?["detail1"] as? Int == 0, "\(events)")
        let row = try #require(source.row(for: "/Documents"))
        #expect(source.itemIdentifier(forRow: row + 1) == "/Music")
        #expect(under > 5 && list.rowCount == rows - under, "the rows under Documents went")
    }

    /// Every node of a client's tree, depth first.
    static func all(_ node: [String: Any]) -> [[String: Any]] {
        [node] + ((node["children"] as? [[String: Any]]) ?? []).flatMap(all)
    }
}
