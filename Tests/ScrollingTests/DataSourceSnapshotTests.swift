import ScrollwayGeometry
import ScrollwayTestSupport
import Testing

@testable import ScrollwayScrolling

/// Snapshots built and edited as UIKit's `NSDiffableDataSourceSnapshot`s are, edits they cannot
/// make refused whole, and the differences between two worked out as the fewest moves.
@Suite struct DataSourceSnapshotTests {
    typealias Snap = DataSourceSnapshot<String, String>

    /// Sections "A", "B", "C" holding "A0"..., `counts` items each.
    static func snap(_ counts: [Int] = [3, 2, 4]) -> Snap {
        var s = Snap()
        for (k, n) in counts.enumerated() {
            let name = String(UnicodeScalar(UInt8(65 + k)))
            s.appendSections([name])
            s.appendItems((0..<n).map { "\(name)\($0)" })
        }
        return s
    }

    /// An edit's answer (`#expect` cannot take a mutating call on its own).
    func edited(_ edit: () -> Bool) -> Bool { edit() }

    @Test func editsPlaceSectionsAndItemsWhereTheyAreNamed() {
        var s = Self.snap()
        #expect(s.sectionIdentifiers == ["A", "B", "C"])
        #expect(s.itemIdentifiers == ["A0", "A1", "A2", "B0", "B1", "C0", "C1", "C2", "C3"])
        #expect(s.numberOfItems == 9 && s.numberOfSections == 3 && s.numberOfItems(inSection: "C") == 4)
        #expect(edited { s.insertItems(["x", "y"], beforeItem: "B1") })
        #expect(edited { s.insertItems(["z"], afterItem: "C3") })
        #expect(s.itemIdentifiers(inSection: "B") == ["B0", "x", "y", "B1"])
        #expect(s.itemIdentifiers(inSection: "C").last == "z")
        // An item moved next to one in another section joins that section.
        #expect(edited { s.moveItem("A0", afterItem: "B1") })
        #expect(edited { s.moveItem("C3", beforeItem: "A1") })
        #expect(s.itemIdentifiers(inSection: "A") == ["C3", "A1", "A2"])
        #expect(s.itemIdentifiers(inSection: "B") == ["B0", "x", "y", "B1", "A0"])
        #expect(s.sectionIdentifier(containingItem: "A0") == "B" && s.sectionIdentifier(containingItem: "C3") == "A")
        #expect(s.indexOfItem("A0") == 7 && s.indexOfItem("C0") == 8 && s.indexOfItem("nobody") == nil)
        #expect(edited { s.moveSection("C", beforeSection: "A") })
        #expect(s.sectionIdentifiers == ["C", "A", "B"] && s.indexOfSection("B") == 2)
        #expect(s.indexOfItem("A1") == 5)  // after C0, C1, C2, z and C3
        #expect(edited { s.insertSections(["D"], afterSection: "C") && s.insertSections(["E"], beforeSection: "C") })
        #expect(s.sectionIdentifiers == ["E", "C", "D", "A", "B"])
        #expect(edited { s.appendItems(["d0"], toSection: "D") && s.appendItems(["b9"]) })
        #expect(s.itemIdentifiers(inSection: "D") == ["d0"] && s.itemIdentifiers(inSection: "B").last == "b9")
        #expect(edited { s.reloadItems(["x"]) && s.reloadSections(["A"]) && s.reconfigureItems(["x", "y"]) })
        #expect(edited { s.deleteItems(["x", "B0"]) && s.deleteSections(["A"]) })
        #expect(s.itemIdentifiers(inSection: "B") == ["y", "B1", "A0", "b9"])
        #expect(s.sectionIdentifier(containingItem: "A1") == nil && !s.contains("x"))
        // The marks of what is gone go with it.
        #expect(s.reloadedItemIdentifiers.isEmpty && s.reloadedSectionIdentifiers.isEmpty)
        #expect(s.reconfiguredItemIdentifiers == ["y"])
        #expect(s.numberOfItems == 9)
        s.deleteAllItems()
        #expect(s == Snap())
    }

    /// What UIKit raises on changes nothing here: the call returns false and logs why.
    @Test func anEditThatCannotBeMadeChangesNothing() {
        var empty = Snap()
        #expect(edited { !empty.appendItems(["a"]) })
        #expect(empty == Snap())
        let before = Self.snap()
        var s = before
        #expect(edited { !s.appendItems(["A1"]) })  // already there
        #expect(edited { !s.appendItems(["n", "n"]) })  // twice
        #expect(edited { !s.appendItems(["n"], toSection: "Q") })
        #expect(edited { !s.insertItems(["n"], beforeItem: "nobody") })
        #expect(edited { !s.insertItems(["n", "A2"], afterItem: "A0") })
        #expect(edited { !s.deleteItems(["A0", "nobody"]) })
        #expect(edited { !s.moveItem("A0", beforeItem: "A0") })
        #expect(edited { !s.moveItem("nobody", afterItem: "A0") })
        #expect(edited { !s.moveItem("A0", afterItem: "nobody") })
        #expect(edited { !s.reloadItems(["A0", "nobody"]) })
        #expect(edited { !s.reconfigureItems(["A0", "nobody"]) })
        #expect(edited { !s.appendSections(["B"]) })
        #expect(edited { !s.appendSections(["Q", "Q"]) })
        #expect(edited { !s.insertSections(["Q"], beforeSection: "Z") })
        #expect(edited { !s.deleteSections(["A", "Z"]) })
        #expect(edited { !s.moveSection("A", afterSection: "A") })
        #expect(edited { !s.reloadSections(["Z"]) })
        #expect(s == before)
    }

    /// UIKit's batch rules applied to `old` by hand: the rows deleted and the moves' sources
    /// go, then the inserted rows and the moves' destinations take their new indices and the
    /// rest fill the places left, in order.
    static func applied(_ rows: SnapshotDifference.Rows, to old: [String], new: [String]) -> [String?] {
        let leaving = Set(rows.deleted).union(rows.moves.map(\.from))
        var staying = old.indices.filter { !leaving.contains($0) }.map { old[$0] }[...]
        let count = old.count - rows.deleted.count + rows.inserted.count
        var result = [String?](repeating: nil, count: count)
        for j in rows.inserted { result[j] = new[j] }
        for m in rows.moves { result[m.to] = old[m.from] }
        for j in result.indices where result[j] == nil { result[j] = staying.popFirst() }
        return result
    }

    @Test func aSwapMovesOneRowAndAReloadedRowThatMovesIsDeletedAndInserted() {
        let old = Self.snap([5])
        var swapped = old
        swapped.moveItem("A1", afterItem: "A3")
        swapped.moveItem("A3", beforeItem: "A2")
        let rows = SnapshotDifference.rows(from: old, to: swapped)
        #expect(swapped.itemIdentifiers == ["A0", "A3", "A2", "A1", "A4"])
        #expect(rows.moves.count == 2 && rows.deleted.isEmpty && rows.inserted.isEmpty)
        var turned = old
        turned.moveItem("A0", afterItem: "A4")
        turned.reloadItems(["A0", "A2"])
        let reload = SnapshotDifference.rows(from: old, to: turned)
        #expect(reload == SnapshotDifference.Rows(deleted: [0], inserted: [4], reloaded: [2], moves: []))
        // The reverse of five keeps one row (any) and moves four.
        var reversed = Snap()
        reversed.appendSections(["A"])
        reversed.appendItems(["A4", "A3", "A2", "A1", "A0"])
        #expect(SnapshotDifference.rows(from: old, to: reversed).moves.count == 4)
    }

    /// Random pairs of snapshots: the update the difference names turns the old rows into the
    /// new under UIKit's rules, and it moves the fewest rows (every order of the kept rows
    /// tried, for small lists).
    @Test func theRowsDifferenceTurnsOneSnapshotIntoTheOtherWithTheFewestMoves() {
        var g = SeededRandom(state: 0x5eed_d1ff)
        for _ in 0..<400 {
            let n = g.int(8)
            var old = Snap()
            old.appendSections(["A"])
            old.appendItems((0..<n).map { "i\($0)" })
            var new = Snap()
            new.appendSections(["A", "B"][..<(1 + g.int(2))].map { $0 })
            for item in old.itemIdentifiers.shuffled(using: &g) where g.int(4) > 0 {
                new.appendItems([item], toSection: new.sectionIdentifiers[g.int(new.numberOfSections)])
            }
            for k in 0..<g.int(3) { new.appendItems(["new\(k)"]) }
            if new.numberOfItems > 0, g.int(2) == 0 { new.reloadItems([new.itemIdentifiers[g.int(new.numberOfItems)]]) }
            let rows = SnapshotDifference.rows(from: old, to: new)
            #expect(Self.applied(rows, to: old.itemIdentifiers, new: new.itemIdentifiers) == new.itemIdentifiers)
            #expect(Set(rows.reloaded).isDisjoint(with: rows.moves.map(\.from)))
            // The fewest: the kept rows less the longest run still in order.
            // (A reloaded row that moves is deleted and inserted instead.)
            let kept = new.itemIdentifiers.compactMap { old.indexOfItem($0) }
            let fewest = kept.count - Self.longestAscending(kept)
            #expect(rows.moves.count + rows.deleted.count - (n - kept.count) == fewest)
        }
    }

    /// The longest ascending run, by trying every subset (the lists here are short).
    static func longestAscending(_ values: [Int]) -> Int {
        var best = 0
        for mask in 0..<(1 << values.count) {
            let picked = values.indices.filter { mask & (1 << $0) != 0 }.map { values[$0] }
            if zip(picked, picked.dropFirst()).allSatisfy({ $0 < $1 }) { best = max(best, picked.count) }
        }
        return best
    }

    /// A collection's update by hand: sections first, then items within them.
    @Test func theSectionsDifferenceNamesEachChangeOnce() {
        let old = Self.snap([3, 2, 4])
        var new = old
        new.moveSection("C", beforeSection: "A")  // one section move, not two
        new.deleteSections(["B"])
        new.insertSections(["D"], afterSection: "A")
        new.appendItems(["d0"], toSection: "D")
        new.moveItem("A2", beforeItem: "A0")  // within A: one move
        new.moveItem("C1", afterItem: "A1")  // C to A: a move across sections
        new.reloadItems(["C3"])
        let paths = SnapshotDifference.paths(from: old, to: new)
        let p = { (s: Int, i: Int) in ItemPath(item: i, section: s) }
        #expect(paths.deletedSections == [1] && paths.insertedSections == [2])
        #expect(paths.movedSections == [.init(from: 2, to: 0)] && paths.reloadedSections.isEmpty)
        // D's items come with it; B's go with it.
        #expect(paths.insertedItems.isEmpty && paths.deletedItems.isEmpty)
        #expect(paths.reloadedItems == [p(2, 3)])
        #expect(paths.movedItems.count == 2)
        #expect(paths.movedItems.contains(.init(from: p(0, 2), to: p(1, 0))))
        #expect(paths.movedItems.contains(.init(from: p(2, 1), to: p(1, 3))))
        // An item leaving a section that goes is inserted where it lands, and one going into a
        // section that comes is deleted where it was.
        var out = old
        out.moveItem("B0", afterItem: "A2")
        out.deleteSections(["B"])
        out.appendSections(["E"])
        out.moveItem("C0", afterItem: "B0")
        out.moveItem("C0", beforeItem: "B0")
        out.appendItems(["e0"], toSection: "E")
        out.moveItem("C2", afterItem: "e0")
        let moves = SnapshotDifference.paths(from: old, to: out)
        #expect(out.itemIdentifiers(inSection: "A") == ["A0", "A1", "A2", "C0", "B0"])
        #expect(out.itemIdentifiers(inSection: "E") == ["e0", "C2"])
        #expect(moves.deletedSections == [1] && moves.insertedSections == [2] && moves.movedSections.isEmpty)
        #expect(moves.insertedItems == [p(0, 4)] && moves.deletedItems == [p(2, 2)])
        #expect(moves.movedItems == [.init(from: p(2, 0), to: p(0, 3))])
    }
}
