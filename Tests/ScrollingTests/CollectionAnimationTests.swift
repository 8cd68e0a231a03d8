import ScrollwayGeometry
import ScrollwayViews
import Testing

@testable import ScrollwayScrolling

/// A collection's animated updates (`updateAnimation`): items that stay slide, across columns
/// and rows alike, from where they stood on screen to their new places over
/// `ListView.rowAnimationDuration` on the ease-in-out curve (half the time, half the way);
/// new items come in and deleted ones go out; a batch's completion waits for the end.
@MainActor
@Suite struct CollectionAnimationTests {
    typealias Rig = CollectionUpdateTests

    /// The grid of CollectionUpdateTests (three columns 140 apart, rows 90 apart), its clock
    /// at 1 s and its first frame drawn, animating updates by `animation`.
    func rig(_ count: Int, _ animation: RowAnimation) -> (Window, CollectionView, CollectionUpdateTests.Model) {
        let (bench, collection, model, _) = Rig().rig([CollectionUpdateTests.names(count)])
        collection.updateAnimation = animation
        bench.window.advanceClock(to: 1)
        _ = try? bench.window.prepareFrame(time: 1)
        return (bench.window, collection, model)
    }

    func path(_ i: Int) -> ItemPath { ItemPath(item: i) }

    /// An item going out stays where it stands on screen when a later update moves the offset
    /// (items inserted above the viewport, those in view kept still), as the items around it do.
    @Test func anItemGoingOutStaysPutWhenALaterUpdateMovesTheOffset() throws {
        // The bench kept: its frame driver hears of the scroll.
        let (bench, collection, model, _) = Rig().rig([CollectionUpdateTests.names(90)])
        defer { withExtendedLifetime(bench) {} }
        collection.updateAnimation = .fade
        let window = bench.window
        window.advanceClock(to: 1)
        collection.contentOffset = Point(x: 0, y: 450)
        try window.prepareFrame(time: 1.01)
        let first = try #require(
            collection.visibleCells.keys.map(\.item).sorted().first {
                collection.frameForItem(at: path($0)).minY >= 450
            })
        let gone = try #require(collection.visibleCells[path(first + 1)])
        let screen = gone.frame.minY - collection.bounds.minY
        model.names[0].remove(at: first + 1)
        collection.deleteItems(at: [path(first + 1)])
        try window.prepareFrame(time: 1.01 + ListView.rowAnimationDuration / 2)
        model.names[0].insert(contentsOf: ["A", "B", "C"], at: 0)
        collection.insertItems(at: [path(0), path(1), path(2)])
        #expect(collection.contentOffset.y == 540)
        #expect(gone.frame.minY - collection.bounds.minY == screen && gone.superview === collection)
        try window.prepareFrame(time: 1.01 + ListView.rowAnimationDuration * 3 / 4)
        #expect(gone.frame.minY - collection.bounds.minY == screen && gone.alpha > 0)
        try window.prepareFrame(time: 3)
        for (p, cell) in collection.visibleCells { #expect(cell.frame == collection.frameForItem(at: p)) }
        #expect(!collection.hasUpdateAnimations)
    }

    @Test func aDeletionFadesTheItemAndSlidesTheRestAcrossAndUp() throws {
        let (window, collection, model) = rig(30, .fade)
        let gone = try #require(collection.visibleCells[path(1)])
        let second = try #require(collection.visibleCells[path(2)])
        let fourth = try #require(collection.visibleCells[path(3)])
        let (secondFrom, fourthFrom) = (second.frame.origin, fourth.frame.origin)
        var completions: [Bool] = []
        model.names[0].remove(at: 1)
        collection.performBatchUpdates {
            collection.deleteItems(at: [path(1)])
        } completion: {
            completions.append($0)
        }
        // Nothing on screen has moved yet; the places are the new ones.
        #expect(collection.visibleCells[path(1)] === second && second.frame.origin == secondFrom)
        #expect(collection.visibleCells[path(2)] === fourth && fourth.frame.origin == fourthFrom)
        #expect(gone.superview === collection && !gone.isUserInteractionEnabled && gone.alpha == 1)
        #expect(collection.hasUpdateAnimations && completions.isEmpty)
        let (secondTo, fourthTo) = (
            collection.frameForItem(at: path(1)).origin, collection.frameForItem(at: path(2)).origin
        )
        #expect(secondTo.x < secondFrom.x && secondTo.y == secondFrom.y)
        // The first item of the second row goes up to the end of the first: across and up.
        #expect(fourthTo.x > fourthFrom.x && fourthTo.y < fourthFrom.y)
        try window.prepareFrame(time: 1 + ListView.rowAnimationDuration / 2)
        #expect(abs(second.frame.minX - (secondFrom.x + secondTo.x) / 2) < 1e-9)
        #expect(abs(fourth.frame.minX - (fourthFrom.x + fourthTo.x) / 2) < 1e-9)
        #expect(abs(fourth.frame.minY - (fourthFrom.y + fourthTo.y) / 2) < 1e-9)
        #expect(abs(gone.alpha - 0.5) < 1e-9)
        #expect(completions.isEmpty)
        try window.prepareFrame(time: 1 + ListView.rowAnimationDuration + 0.01)
        #expect(second.frame.origin == secondTo && fourth.frame.origin == fourthTo)
        #expect(completions == [true] && !collection.hasUpdateAnimations)
        // The cell that went is in the pool, whole, and out of sight.
        #expect(gone.alpha == 1 && gone.isUserInteractionEnabled)
        #expect(gone.superview == nil || gone.isHidden)
        for (p, cell) in collection.visibleCells {
            #expect(cell.frame == collection.frameForItem(at: p) && cell.alpha == 1)
            #expect(Rig().text(cell) == model.name(at: p))
        }
    }

    @Test func anInsertionComesInAndAMoveSlides() throws {
        let (window, collection, model) = rig(30, .automatic)
        let first = try #require(collection.visibleCells[path(0)])
        let from = first.frame.origin
        model.names[0].insert("new", at: 0)
        collection.insertItems(at: [path(0)])
        let new = try #require(collection.visibleCells[path(0)])
        #expect(new !== first && new.alpha == 0 && Rig().text(new) == "new")
        #expect(collection.visibleCells[path(1)] === first && first.frame.origin == from)
        try window.prepareFrame(time: 1 + ListView.rowAnimationDuration / 2)
        #expect(abs(new.alpha - 0.5) < 1e-9)
        let to = collection.frameForItem(at: path(1)).origin
        #expect(abs(first.frame.minX - (from.x + to.x) / 2) < 1e-9)
        try window.prepareFrame(time: 1.5)
        #expect(new.alpha == 1 && first.frame.origin == to)
        // A move: the cell goes with its item, from its place to the new one.
        let moving = try #require(collection.visibleCells[path(7)])
        let start = moving.frame.origin
        let name = model.names[0].remove(at: 7)
        model.names[0].insert(name, at: 1)
        collection.moveItem(at: path(7), to: path(1))
        #expect(collection.visibleCells[path(1)] === moving && moving.frame.origin == start && moving.alpha == 1)
        try window.prepareFrame(time: 1.5 + ListView.rowAnimationDuration / 2)
        let end = collection.frameForItem(at: path(1)).origin
        #expect(abs(moving.frame.minY - (start.y + end.y) / 2) < 1e-9)
        try window.prepareFrame(time: 2)
        for (p, cell) in collection.visibleCells {
            #expect(cell.frame == collection.frameForItem(at: p) && cell.alpha == 1)
            #expect(Rig().text(cell) == model.name(at: p))
        }
    }

    @Test func aReloadCrossFadesAndWithoutAnimationTheCompletionIsAtOnce() throws {
        let (window, collection, model) = rig(30, .fade)
        let old = try #require(collection.visibleCells[path(4)])
        model.names[0][4] = "changed"
        var completions: [Bool] = []
        collection.performBatchUpdates {
            collection.reloadItems(at: [path(4)])
        } completion: {
            completions.append($0)
        }
        let new = try #require(collection.visibleCells[path(4)])
        #expect(new !== old && new.alpha == 0 && old.alpha == 1 && old.superview === collection)
        #expect(new.frame == old.frame)
        try window.prepareFrame(time: 1 + ListView.rowAnimationDuration / 2)
        #expect(abs(new.alpha - 0.5) < 1e-9 && abs(old.alpha - 0.5) < 1e-9)
        try window.prepareFrame(time: 2)
        #expect(completions == [true] && Rig().text(new) == "changed")
        // Not animated: applied, and over, at once.
        collection.updateAnimation = .none
        model.names[0].remove(at: 0)
        collection.performBatchUpdates {
            collection.deleteItems(at: [path(0)])
        } completion: {
            completions.append($0)
        }
        #expect(completions == [true, true] && !collection.hasUpdateAnimations)
        for (p, cell) in collection.visibleCells { #expect(cell.frame == collection.frameForItem(at: p)) }
    }

    /// An item deleted and one inserted in its place in one turn: the items after it end
    /// where they stood, the slide the deletion alone gave them (one place back) ended.
    @Test func itemsBackWhereTheyStoodAfterTwoUpdatesStayThere() throws {
        let (window, collection, model) = rig(30, .fade)
        let fourth = try #require(collection.visibleCells[path(3)])
        let from = fourth.frame
        model.names[0].remove(at: 1)
        collection.deleteItems(at: [path(1)])
        model.names[0].insert("new", at: 1)
        collection.insertItems(at: [path(1)])
        #expect(collection.visibleCells[path(3)] === fourth && fourth.frame == from)
        try window.prepareFrame(time: 1 + ListView.rowAnimationDuration / 2)
        #expect(fourth.frame == from)
        try window.prepareFrame(time: 1 + ListView.rowAnimationDuration + 0.01)
        #expect(fourth.frame == from && !collection.hasUpdateAnimations)
        for (p, cell) in collection.visibleCells {
            #expect(cell.frame == collection.frameForItem(at: p) && cell.alpha == 1)
            #expect(Rig().text(cell) == model.name(at: p))
        }
    }
}
