import ScrollwayGeometry
import ScrollwayScrolling
import ScrollwayViews
import Testing

@testable import ScrollwayBench

/// The bench's feed: its two kinds of card must lay out alike, or its line would compare
/// different work.
@MainActor
@Suite struct FeedRunTests {
    /// The feed's cells in view, by item.
    func cards(_ window: Window) throws -> [Int: FeedRun.Card] {
        let feed = try #require(window.firstView(of: CollectionView.self))
        var cards: [Int: FeedRun.Card] = [:]
        for (path, cell) in feed.visibleCells { cards[path.item] = try #require(cell as? FeedRun.Card) }
        return cards
    }

    @Test func cardsByConstraintsAndByHandLayOutAlike() throws {
        let byHand = FeedRun.makeWindow(byConstraints: false)
        let byConstraints = FeedRun.makeWindow(byConstraints: true)
        for window in [byHand, byConstraints] { window.layoutIfNeeded() }
        let (hand, constraints) = (try cards(byHand), try cards(byConstraints))
        #expect(hand.count >= 6 && Set(hand.keys) == Set(constraints.keys))
        var heights: Set<Double> = []
        for (item, card) in hand {
            let other = try #require(constraints[item])
            #expect(card.byConstraints == false && other.byConstraints)
            #expect(card.frame == other.frame, "item \(item)")
            #expect(card.title.frame == other.title.frame, "item \(item)")
            #expect(card.body.frame == other.body.frame, "item \(item)")
            // Inside the insets; the body below the title, as tall as its wrapped text.
            #expect(card.body.frame.minY == card.title.frame.maxY + FeedRun.gap)
            #expect(card.body.frame.maxY == card.frame.height - FeedRun.inset)
            heights.insert(card.frame.height)
        }
        // Posts of one to four sentences: cards of more than one height.
        #expect(heights.count >= 3, "\(heights)")
    }
}
