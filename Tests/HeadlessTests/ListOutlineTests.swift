import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayHeadless
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// A section shown as an outline (a section snapshot applied to a diffable data source): its
/// rows are the visible items, indented by level, parents with chevrons; a chevron's tap, Right
/// and Left, and a reader's action open and close rows (children inserted and deleted, the
/// other rows keeping their cells); Left and Right walk to a parent and a first child; the
/// handlers refuse, hear and load children; a reader hears expandable, expanded and the level.
@MainActor
@Suite struct ListOutlineTests {
    typealias Rig = ListDiffableTests.Rig

    /// The folders outline (SectionSnapshotTests') in section "F", after a flat section "A"
    /// of two items when `flatFirst`.
    static func rig(flatFirst: Bool = false) -> Rig {
        var flat = DataSourceSnapshot<String, String>()
        if flatFirst {
            flat.appendSections(["A"])
            flat.appendItems(["A0", "A1"])
        }
        let rig = Rig(flat, headers: false)
        rig.source.apply(SectionSnapshotTests.folders(), to: "F", animatingDifferences: false)
        rig.driver.advance(by: 0.05)
        return rig
    }

    func rows(_ rig: Rig) -> [String] {
        (0..<rig.source.numberOfRows(in: rig.list)).map { rig.source.itemIdentifier(forRow: $0)! }
    }

    func cell(_ rig: Rig, _ item: String) throws -> ListCell {
        try #require(rig.source.row(for: item).flatMap { rig.list.visibleCells[$0] }, "\(item) has no cell")
    }

    func press(_ key: Key, _ rig: Rig) {
        let t = rig.driver.time + 0.02
        rig.driver.send(.key(key, pressed: true, modifiers: []), at: t)
        rig.driver.send(.key(key, pressed: false, modifiers: []), at: t + 0.05)
        rig.driver.settle()
    }

    var focused: (Rig) -> String? {
        { rig in
            (rig.window.focusedView as? ListCell).flatMap { rig.list.row(for: $0) }.flatMap {
                rig.source.itemIdentifier(forRow: $0)
            }
        }
    }

    /// The visible items in order; each row indented by 20 a level, its text after the
    /// chevron's slot (16 + 20 × level + 28); a chevron on parents, pointing by their state; a
    /// reader's states and level.
    @Test func anOutlineShowsItsVisibleItemsIndentedWithChevrons() throws {
        let rig = Self.rig(flatFirst: true)
        #expect(rows(rig) == ["A0", "A1", "Documents", "Work", "Plans", "Notes", "Letters", "Music", "Pictures"])
        #expect(rig.source.sectionStarts(in: rig.list) == [0, 2])
        let expected: [(String, Int, OutlineDisclosure)] = [
            ("Documents", 0, .expanded), ("Work", 1, .expanded), ("Plans", 2, .leaf), ("Notes", 2, .collapsed),
            ("Letters", 1, .leaf), ("Music", 0, .leaf), ("Pictures", 0, .collapsed),
        ]
        for (item, level, disclosure) in expected {
            let c = try cell(rig, item)
            #expect(c.indentationLevel == level && c.outlineDisclosure == disclosure, "\(item)")
            #expect(c.textLabel.frame.minX == 16 + 20 * Double(level) + 28, "\(item)")
            #expect(c.textLabel.frame.width == 320 - 32 - 20 * Double(level) - 28, "\(item)")
            #expect(c.accessibilityLevel == level + 1)
            let states = try #require(c.accessibilityNode(in: rig.window)).states
            #expect(states.contains(.expandable) == (disclosure != .leaf), "\(item)")
            #expect(states.contains(.expanded) == (disclosure == .expanded), "\(item)")
        }
        // A reader hears an outline's row's place among its siblings.
        #expect(try cell(rig, "Documents").accessibilityPosition! == (1, 3))
        #expect(try cell(rig, "Letters").accessibilityPosition! == (2, 2))
        #expect(try cell(rig, "Notes").accessibilityPosition! == (2, 2))
        #expect(try cell(rig, "Pictures").accessibilityPosition! == (3, 3))
        // The flat section's rows are in no outline: their place is among all rows.
        let a0 = try cell(rig, "A0")
        #expect(a0.outlineDisclosure == nil && a0.indentationLevel == 0 && a0.textLabel.frame.minX == 16)
        #expect(a0.accessibilityLevel == nil && a0.accessibilityPosition! == (1, 9))
        #expect(rig.source.snapshot(for: "F") == SectionSnapshotTests.folders())
        #expect(rig.source.snapshot(for: "A").rootItems == ["A0", "A1"])
    }

    /// A tap on a parent's chevron opens it (its children come in below it, and only they are
    /// asked for), another closes it; a tap on the row's text does neither.
    @Test func aChevronsTapOpensAndClosesItsRow() throws {
        let rig = Self.rig()
        let pictures = try cell(rig, "Pictures")
        let others = rig.list.visibleCells
        func tapChevron() throws {
            let row = try #require(rig.source.row(for: "Pictures"))
            let r = rig.list.convert(rig.list.rectForRow(row), to: nil)
            // The chevron's slot: 16 to 40 in from the leading edge.
            rig.driver.send(from: rig.driver.time + 0.05) {
                $0.tap(at: Point(x: r.minX + 28, y: r.midY), at: 0, hold: 60)
            }
            rig.driver.settle()
        }
        rig.asked = []
        try tapChevron()
        #expect(rows(rig).suffix(2) == ["Pictures", "Summer"] && rig.asked == ["Summer"])
        #expect(pictures.outlineDisclosure == .expanded && rig.source.snapshot(for: "F").isExpanded("Pictures"))
        for (row, c) in others { #expect(rig.list.visibleCells[row] === c, "row \(row) got a new cell") }
        #expect(try cell(rig, "Summer").indentationLevel == 1)
        try tapChevron()
        #expect(rows(rig).last == "Pictures" && pictures.outlineDisclosure == .collapsed)
        // The text of the row is the row's, not the chevron's.
        var selected: [Int] = []
        rig.list.onSelectRow = { selected.append($0) }
        let row = try #require(rig.source.row(for: "Pictures"))
        let r = rig.list.convert(rig.list.rectForRow(row), to: nil)
        rig.driver.send(from: rig.driver.time + 0.05) { $0.tap(at: Point(x: r.minX + 150, y: r.midY), at: 0, hold: 60) }
        rig.driver.settle()
        #expect(selected == [row] && pictures.outlineDisclosure == .collapsed)
    }

    /// Right opens a closed parent, then goes to its first child; Left goes from a child to
    /// its parent, then closes it; a closed row's Left goes up again.
    @Test func rightAndLeftOpenCloseAndWalkTheOutline() throws {
        let rig = Self.rig()
        try cell(rig, "Notes").becomeFocused()
        press(.right, rig)
        #expect(rig.source.snapshot(for: "F").isExpanded("Notes") && rows(rig).contains("Monday"))
        #expect(focused(rig) == "Notes")
        press(.right, rig)
        #expect(focused(rig) == "Monday")
        press(.right, rig)
        #expect(focused(rig) == "Monday", "a leaf has nothing to open")
        press(.left, rig)
        #expect(focused(rig) == "Notes")
        press(.left, rig)
        #expect(!rig.source.snapshot(for: "F").isExpanded("Notes") && !rows(rig).contains("Monday"))
        press(.left, rig)
        #expect(focused(rig) == "Work")
        press(.left, rig)
        #expect(focused(rig) == "Work" && rows(rig) == ["Documents", "Work", "Letters", "Music", "Pictures"])
        press(.left, rig)
        #expect(focused(rig) == "Documents")
        press(.left, rig)
        press(.left, rig)
        #expect(focused(rig) == "Documents" && rows(rig) == ["Documents", "Music", "Pictures"], "a top row stays")
        // Down and Up still go row by row.
        press(.down, rig)
        #expect(focused(rig) == "Music")
    }

    /// Closing a parent whose descendant has the focus gives the focus to the parent, as the
    /// row that had it goes.
    @Test func closingAroundTheFocusGivesItToTheParent() throws {
        let rig = Self.rig()
        try cell(rig, "Plans").becomeFocused()
        #expect(rig.source.collapse("Documents", animatingDifferences: false))
        rig.driver.settle()
        #expect(focused(rig) == "Documents" && rows(rig) == ["Documents", "Music", "Pictures"])
        #expect(!rig.source.collapse("Documents"), "already closed")
        #expect(!rig.source.expand("Music") || rows(rig) == ["Documents", "Music", "Pictures"])
    }

    /// A focused control in a row under a closing parent gives the focus to the parent too.
    @Test func closingAroundAFocusedControlGivesTheFocusToTheParent() throws {
        let rig = Self.rig()
        let toggle = Switch()
        try cell(rig, "Plans").addSubview(toggle)
        toggle.becomeFocused()
        #expect(rig.window.focusedView === toggle)
        #expect(rig.source.collapse("Work", animatingDifferences: false))
        rig.driver.settle()
        #expect(focused(rig) == "Work")
    }

    /// A handler that opens another row as one opens: both end open (the outline is read
    /// again after the handler, not applied from before it).
    @Test func aHandlerThatOpensAnotherRowKeepsItOpen() throws {
        let rig = Self.rig()
        rig.source.sectionSnapshotHandlers.willExpandItem = { [source = rig.source] item in
            if item == "Pictures" { source.expand("Notes", animatingDifferences: false) }
        }
        #expect(rig.source.expand("Pictures", animatingDifferences: false))
        rig.driver.settle()
        let outline = rig.source.snapshot(for: "F")
        #expect(outline.isExpanded("Pictures") && outline.isExpanded("Notes"))
        #expect(rows(rig).contains("Monday") && rows(rig).contains("Summer"))
    }

    /// A handler that opens the very row being opened (an outline applied with it open) shows
    /// its children once; with a loader too, the loaded children take the place of those the
    /// handler showed. The rows stay the outline's visible items, each once.
    @Test func aHandlerThatOpensTheRowItselfShowsItsChildrenOnce() throws {
        for loads in [false, true] {
            let rig = Self.rig()
            rig.source.sectionSnapshotHandlers.willExpandItem = { [source = rig.source] item in
                var opened = source.snapshot(for: "F")
                opened.expand([item])
                source.apply(opened, to: "F", animatingDifferences: false)
            }
            if loads {
                rig.source.sectionSnapshotHandlers.snapshotForExpandingParent = { _, _ in
                    var loaded = SectionSnapshot<String>()
                    loaded.append(["Autumn", "Winter"])
                    return loaded
                }
            }
            #expect(rig.source.expand("Pictures", animatingDifferences: false))
            rig.driver.settle()
            let outline = rig.source.snapshot(for: "F")
            let expected = outline.visibleItems
            #expect(rows(rig) == expected, "loads: \(loads)")
            #expect(
                expected.suffix(loads ? 3 : 2) == (loads ? ["Pictures", "Autumn", "Winter"] : ["Pictures", "Summer"]))
            #expect(rig.source.snapshot().numberOfItems == expected.count && rig.list.rowCount == expected.count)
            #expect(try cell(rig, loads ? "Winter" : "Summer").indentationLevel == 1)
        }
    }

    /// An outline whose hidden item another section shows is refused whole; one applied
    /// before a whole-list snapshot put its hidden item elsewhere stops being an outline, so
    /// opening its parent cannot half-happen.
    @Test func hiddenItemsAreUniqueToo() throws {
        let rig = Self.rig(flatFirst: true)
        var clash = SectionSnapshot<String>()
        clash.append(["P"])
        clash.append(["A0"], to: "P")  // hidden: P is closed
        rig.source.apply(clash, to: "G", animatingDifferences: false)
        #expect(rig.source.snapshot().numberOfSections == 2 && !rows(rig).contains("P"))
        var moved = rig.source.snapshot()
        moved.appendItems(["Summer"], toSection: "A")  // Summer is hidden under Pictures
        rig.source.apply(moved, animatingDifferences: false)
        rig.driver.settle()
        #expect(!rig.source.expand("Pictures"), "the outline is flat now")
        #expect(try cell(rig, "Work").outlineDisclosure == nil)
    }

    /// A row dropped into an outline's section makes it flat: the rows in view lose their
    /// chevrons at once.
    @Test func aRowDroppedIntoAnOutlineFlattensIt() throws {
        let rig = Self.rig(flatFirst: true)
        rig.source.list(rig.list, moveRowAt: 0, to: 3)
        #expect(rows(rig)[3] == "A0" && rig.source.snapshot(for: "F").rootItems.count == 8)
        #expect(rig.list.visibleCells.values.allSatisfy { $0.outlineDisclosure == nil && $0.indentationLevel == 0 })
    }

    /// The handlers: a refusal leaves the row as it is; the will-handlers hear before the
    /// update; a loader's children replace the placeholder a folder held.
    @Test func handlersRefuseHearAndLoadChildren() throws {
        let rig = Self.rig()
        var heard: [String] = []
        rig.source.sectionSnapshotHandlers.shouldExpandItem = { $0 != "Pictures" }
        rig.source.sectionSnapshotHandlers.willExpandItem = { heard.append("open \($0)") }
        rig.source.sectionSnapshotHandlers.willCollapseItem = { heard.append("close \($0)") }
        rig.source.sectionSnapshotHandlers.shouldCollapseItem = { $0 != "Work" }
        #expect(!rig.source.expand("Pictures") && !rig.source.collapse("Work"))
        #expect(rows(rig).count == 7 && heard.isEmpty)
        rig.source.sectionSnapshotHandlers.shouldExpandItem = nil
        rig.source.sectionSnapshotHandlers.snapshotForExpandingParent = { parent, children in
            heard.append("load \(parent): \(children.items)")
            var loaded = SectionSnapshot<String>()
            loaded.append(["\(parent) 1", "\(parent) 2"])
            return loaded
        }
        #expect(rig.source.expand("Pictures", animatingDifferences: false))
        rig.driver.settle()
        #expect(heard == ["open Pictures", "load Pictures: [\"Summer\"]"])
        #expect(rows(rig).suffix(3) == ["Pictures", "Pictures 1", "Pictures 2"])
        #expect(rig.source.collapse("Documents", animatingDifferences: false) && heard.last == "close Documents")
    }

    /// A loader's children may stand nowhere else: one another section shows ("A1"), one
    /// hidden in another outline ("Q", under a closed "P"), or one of this outline outside the
    /// opening row ("Work") leaves the row closed and the list as it was.
    @Test func aLoadersChildrenThatStandElsewhereAreRefused() throws {
        let rig = Self.rig(flatFirst: true)
        var other = SectionSnapshot<String>()
        other.append(["P"])
        other.append(["Q"], to: "P")
        rig.source.apply(other, to: "G", animatingDifferences: false)
        rig.driver.settle()
        let before = rows(rig)
        for clash in ["A1", "Q", "Work"] {
            rig.source.sectionSnapshotHandlers.snapshotForExpandingParent = { _, _ in
                var loaded = SectionSnapshot<String>()
                loaded.append(["New", clash])
                return loaded
            }
            #expect(!rig.source.expand("Pictures", animatingDifferences: false), "\(clash)")
            let outline = rig.source.snapshot(for: "F")
            #expect(rows(rig) == before && !outline.isExpanded("Pictures") && !outline.contains("New"), "\(clash)")
            #expect(outline.children(of: "Pictures") == ["Summer"] && outline.parent(of: "Work") == "Documents")
        }
        rig.source.sectionSnapshotHandlers.snapshotForExpandingParent = nil
        #expect(rig.source.expand("Pictures", animatingDifferences: false))
        #expect(rows(rig) == before.prefix(9) + ["Summer"] + before.suffix(1))
    }

    /// A whole-list snapshot that changes only another section, with an item new to the list,
    /// keeps the outline: its rows keep their chevrons and still open and close.
    @Test func aSnapshotThatChangesOnlyAnotherSectionKeepsTheOutline() throws {
        let rig = Self.rig(flatFirst: true)
        var grown = rig.source.snapshot()
        grown.appendItems(["A2"], toSection: "A")
        grown.deleteItems(["A0"])
        rig.source.apply(grown, animatingDifferences: false)
        rig.driver.settle()
        #expect(try cell(rig, "Work").outlineDisclosure == .expanded)
        #expect(rig.source.expand("Pictures", animatingDifferences: false))
        #expect(
            rows(rig) == ["A1", "A2", "Documents", "Work", "Plans", "Notes", "Letters", "Music", "Pictures", "Summer"])
    }

    /// A reader opens and closes a parent through its action, and hears it change.
    @Test func aReaderOpensAndClosesARow() throws {
        let rig = Self.rig()
        let notes = try cell(rig, "Notes")
        let heard = StateWatch(notes)
        rig.window.addObserver(heard)
        #expect(notes.accessibilitySetExpanded(true))
        rig.driver.settle()
        #expect(rows(rig).contains("Monday") && notes.outlineDisclosure == .expanded)
        #expect(notes.accessibilitySetExpanded(false))
        rig.driver.settle()
        #expect(!rows(rig).contains("Monday"))
        #expect(heard.changes.map(\.1) == [true, false] && heard.changes.allSatisfy { $0.0 == .expanded })
        let plans = try cell(rig, "Plans")
        #expect(!plans.accessibilitySetExpanded(true), "a leaf does not open")
        // A leaf that gains a child becomes expandable, and says so.
        let gained = StateWatch(plans)
        rig.window.addObserver(gained)
        var outline = rig.source.snapshot(for: "F")
        outline.append(["Draft"], to: "Plans")
        rig.source.apply(outline, to: "F", animatingDifferences: false)
        rig.driver.settle()
        #expect(plans.outlineDisclosure == .collapsed)
        #expect(gained.changes.count == 1 && gained.changes.first?.0 == .expandable && gained.changes.first?.1 == true)
    }

    /// A full snapshot that changes an outline's section makes it flat: its rows lose their
    /// chevrons and indentation; one that leaves it as it is keeps the outline.
    @Test func aSnapshotThatChangesTheSectionMakesItFlat() throws {
        let rig = Self.rig()
        var same = rig.source.snapshot()
        same.reconfigureItems(["Music"])
        rig.source.apply(same, animatingDifferences: false)
        rig.driver.settle()
        #expect(try cell(rig, "Work").outlineDisclosure == .expanded)
        var changed = rig.source.snapshot()
        changed.deleteItems(["Music"])
        rig.source.apply(changed, animatingDifferences: false)
        rig.driver.settle()
        let work = try cell(rig, "Work")
        #expect(work.outlineDisclosure == nil && work.indentationLevel == 0 && work.textLabel.frame.minX == 16)
        #expect(rig.source.snapshot(for: "F").rootItems == rows(rig))
        // An outline may not take an item another section shows.
        var clash = SectionSnapshot<String>()
        clash.append(["Work"])
        rig.source.apply(clash, to: "G", animatingDifferences: false)
        #expect(rig.source.snapshot().numberOfSections == 1)
    }
}

/// The state changes a view posts for assistive technology.
@MainActor
final class StateWatch: WindowObserver {
    let view: View
    private(set) var changes: [(AccessibilityStates, Bool)] = []
    init(_ view: View) { self.view = view }
    func window(_ window: Window, accessibilityNotification notification: AccessibilityNotification) {
        if case .stateChanged(let v, let states, let on) = notification, v === view { changes.append((states, on)) }
    }
}

/// An outline's row is measured at the width its indentation leaves: a title that fits one
/// line at the top wraps at the fourth level, and the row grows to hold it.
@MainActor
@Suite struct ListOutlineMeasureTests {
    @Test func aDeepRowIsMeasuredAtItsIndentedWidth() throws {
        let window = Window(size: Size(width: 320, height: 480))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        list.register("r") { ListCell(reuseIdentifier: "r") }
        window.addSubview(list)
        let title = "A title of some thirty letters"
        let source = ListDiffableDataSource<String, String>(list: list) { list, _, item in
            let cell = list.dequeueReusableCell(withIdentifier: "r")
            cell.textLabel.text = item.hasPrefix("deep") ? title : item
            return cell
        }
        var outline = SectionSnapshot<String>()
        outline.append(["top"])
        outline.append(["one"], to: "top")
        outline.append(["two"], to: "one")
        outline.append(["deep"], to: "two")
        outline.expand(["top", "one", "two"])
        source.apply(outline, to: "s", animatingDifferences: false)
        window.layoutIfNeeded()
        let label = Label()
        label.text = title
        label.font = ListCell(reuseIdentifier: "x").textLabel.font
        label.numberOfLines = 0
        func height(at width: Double) -> Double {
            max(44, label.sizeThatFits(Size(width: width, height: .greatestFiniteMagnitude)).height + 20)
        }
        let indented = height(at: 320 - 32 - 3 * 20 - 28)
        #expect(indented > height(at: 320 - 32), "the title must wrap only when indented")
        #expect(list.rectForRow(3).height == indented)

        // Taken to the top, in the same cell: measured again at its new width.
        let cell = try #require(list.visibleCells[3])
        var flatter = SectionSnapshot<String>()
        flatter.append(["top", "one", "two", "deep"])
        source.apply(flatter, to: "s", animatingDifferences: false)
        window.layoutIfNeeded()
        #expect(list.visibleCells[3] === cell && cell.indentationLevel == 0)
        #expect(height(at: 320 - 32 - 28) < indented, "the title must fit one line less at the top")
        #expect(list.rectForRow(3).height == height(at: 320 - 32 - 28))
    }
}
