import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayScrolling
import ScrollwayTestSupport
import Testing

@testable import ScrollwayViews

/// The feed scene: 100,000 posts whose cards are laid out by constraints and sized to their
/// text as they come into view, flung offscreen as a user would.
@MainActor
@Suite struct FeedSceneTests {
    /// The feed's cards in view, by item.
    func cards(_ feed: CollectionView) throws -> [Int: PostCard] {
        var cards: [Int: PostCard] = [:]
        for (path, cell) in feed.visibleCells { cards[path.item] = try #require(cell as? PostCard) }
        return cards
    }

    /// `scrollway bench` prices the constraints against the same cards laid out by hand: both
    /// must lay every card out alike, or its feed line would compare different work.
    @Test func cardsByConstraintsAndByHandLayOutAlike() throws {
        let byHand = Window(size: Scene.feed.preferredSize)
        let byConstraints = Window(size: Scene.feed.preferredSize)
        let (handFeed, constraintsFeed) = (
            Posts.make(in: byHand, byConstraints: false), Posts.make(in: byConstraints, byConstraints: true)
        )
        for window in [byHand, byConstraints] { window.layoutIfNeeded() }
        let (hand, constraints) = (try cards(handFeed), try cards(constraintsFeed))
        #expect(hand.count >= 6 && Set(hand.keys) == Set(constraints.keys))
        var heights: Set<Double> = []
        for (item, card) in hand {
            let other = try #require(constraints[item])
            #expect(card.byConstraints == false && other.byConstraints)
            #expect(card.frame == other.frame, "item \(item)")
            #expect(card.title.frame == other.title.frame, "item \(item)")
            #expect(card.body.frame == other.body.frame, "item \(item)")
            // Inside the insets; the body below the title, as tall as its wrapped text.
            #expect(card.body.frame.minY == card.title.frame.maxY + Posts.gap)
            #expect(card.body.frame.maxY == card.frame.height - Posts.inset)
            heights.insert(card.frame.height)
        }
        // Posts of one to four sentences: cards of more than one height.
        #expect(heights.count >= 3, "\(heights)")
    }

    /// A new width measures the cards again: the first card in view keeps its place on screen
    /// (its top, where a card that only straddles the top edge is measured anew), and a feed
    /// at rest stays inside its range, at the top and at the end (the fuzzer found a feed
    /// resting 3 px above its top after a resize).
    @Test func aResizeKeepsTheFirstCardInPlaceAndTheOffsetInRange() throws {
        let d = SceneDriver(.feed, size: Size(width: 320, height: 480))
        d.advance(to: 0.05)
        let feed = try #require(d.main as? CollectionView)
        feed.contentOffset = Point(x: 0, y: 13)
        d.advance(to: d.time + 0.1)
        let first = feed.frameForItem(at: ItemPath(item: 0))
        #expect(first.minY == 8 && first.maxY > 13)
        #expect(first.width == 320 - 16)
        d.window.resize(to: Size(width: 347, height: 388))
        d.advance(to: d.time + 0.5)
        // One column at every width: the cards widen with the window.
        #expect(feed.frameForItem(at: ItemPath(item: 0)).width == 347 - 16)
        #expect(try cards(feed).values.allSatisfy { $0.frame.minX == 8 && $0.frame.width == 347 - 16 })
        #expect(feed.frameForItem(at: ItemPath(item: 0)).minY - feed.contentOffset.y == first.minY - 13)
        #expect(feed.isOffsetInRange && feed.contentOffset.y == 13)

        // At the end: the cards there measured at the new width (shorter, wider) leave the
        // offset at the new end, not past it.
        feed.contentOffset = Point(x: 0, y: feed.contentSize.height - feed.bounds.height)
        d.advance(to: d.time + 0.2)
        feed.contentOffset = Point(x: 0, y: feed.contentSize.height - feed.bounds.height)
        d.advance(to: d.time + 0.2)
        #expect(feed.isOffsetInRange)
        d.window.resize(to: Size(width: 500, height: 388))
        d.advance(to: d.time + 0.5)
        #expect(feed.isOffsetInRange, "\(feed.contentOffset.y) of \(feed.contentSize.height - feed.bounds.height)")
        let last = try #require(try cards(feed)[Posts.count - 1])
        #expect(last.frame.maxY + 8 == feed.contentSize.height)
    }

    /// Flung far down and back: the cards in view are exactly the posts the visible rect (and
    /// the collection's margin) meets, each as tall as its text needs (a card laid out by hand measures it), its labels
    /// placed by the window's engine; recycled cards wait hidden, no more than the pool holds,
    /// and the engine holds the constraints of the cells there are, not of every card made.
    @Test func aFlungFeedShowsEachPostAtItsTextsHeight() throws {
        let d = SceneDriver(.feed)
        d.advance(to: 0.05)
        let feed = try #require(d.main as? CollectionView)
        #expect(feed.totalItems == Posts.count)
        let measure = PostCard(byConstraints: false)
        let width = d.window.bounds.width - 16
        func check(_ what: String) throws {
            let visible = feed.bounds.insetBy(dx: 0, dy: -feed.margin)
            let cards = try cards(feed)
            #expect(!cards.isEmpty, "\(what)")
            for (item, card) in cards {
                #expect(card.frame.intersects(visible), "\(what): item \(item) out of view")
                #expect(card.title.text == Posts.title(item) && card.body.text == Posts.body(item))
                measure.title.text = card.title.text
                measure.body.text = card.body.text
                let height = measure.sizeThatFits(Size(width: width, height: .greatestFiniteMagnitude)).height
                #expect(card.frame.size == Size(width: width, height: height), "\(what): item \(item)")
                #expect(card.body.frame.maxY == height - Posts.inset, "\(what): item \(item)")
                #expect(card.title.frame.minX == Posts.inset && card.title.frame.width == width - 2 * Posts.inset)
            }
            // Every post the visible rect meets has its card: the items are contiguous.
            let items = cards.keys.sorted()
            #expect(items.last! - items.first! + 1 == items.count, "\(what): \(items)")
            let first = try #require(items.first)
            if first > 0 { #expect(feed.frameForItem(at: ItemPath(item: first - 1)).maxY <= visible.minY) }
            let last = try #require(items.last)
            #expect(feed.frameForItem(at: ItemPath(item: last + 1)).minY >= visible.maxY)
            let cells = feed.subviews.compactMap { $0 as? PostCard }
            let waiting = cells.filter(\.isHidden)
            #expect(cells.count - waiting.count == cards.count, "\(what)")
            #expect(waiting.count <= CollectionView.poolLimit, "\(what): \(waiting.count) waiting")
            // Each card's constraints name 12 variables (x, y, width and height of its content
            // view and its two labels): 12 a card there is, shown or waiting. A card that left
            // for good would leave its 12 behind if variables outlived their constraints.
            let variables = d.window.layoutEngineIfCreated?.variableCount ?? 0
            #expect(variables == 12 * cells.count, "\(what): \(variables) for \(cells.count) cards")
            #expect(d.window.brokenLayoutConstraints.isEmpty && d.window.unsatisfiableLayouts.isEmpty)
        }
        try check("at the top")
        for _ in 0..<8 {
            d.flick(from: Point(x: 195, y: 780), by: Point(x: 0, y: -600))
            d.advance(to: d.time + 1.5)
        }
        let far = feed.contentOffset.y
        #expect(far > 20_000)
        try check("flung down")
        d.flick(from: Point(x: 195, y: 200), by: Point(x: 0, y: 600))
        d.advance(to: d.time + 2)
        #expect(feed.contentOffset.y < far - 1_000)
        try check("flung back")

        // A reader hears each card in view as one element: its title, then its body (a cell is
        // named by the labels it holds).
        let node = try #require(feed.accessibilityNode(in: d.window, depth: 1))
        let labels = Set(node.children.map(\.label))
        for (item, _) in try cards(feed) where feed.frameForItem(at: ItemPath(item: item)).intersects(feed.bounds) {
            #expect(labels.contains("\(Posts.title(item)), \(Posts.body(item))"), "item \(item)")
        }
    }

    /// A window moved to an output of another scale: every card in view is measured again
    /// (text is measured in device pixels), so each holds its body and sits where a window
    /// made at that scale puts it; cards measured at 1 kept their heights, and a body a line
    /// taller at the new scale spilled out of its card.
    @Test(arguments: [true, false], [1.25, 1.5, 3.0])
    func aNewScaleMeasuresTheCardsAgain(byConstraints: Bool, scale: Double) throws {
        let moved = Window(size: Scene.feed.preferredSize, scale: 1)
        let movedFeed = Posts.make(in: moved, byConstraints: byConstraints)
        moved.layoutIfNeeded()
        moved.scale = scale
        moved.layoutIfNeeded()
        let fresh = Window(size: Scene.feed.preferredSize, scale: scale)
        let freshFeed = Posts.make(in: fresh, byConstraints: byConstraints)
        fresh.layoutIfNeeded()
        let (shown, expected) = (try cards(movedFeed), try cards(freshFeed))
        #expect(shown.count >= 6 && Set(shown.keys) == Set(expected.keys))
        #expect(movedFeed.contentSize == freshFeed.contentSize)
        for (item, card) in shown {
            let other = try #require(expected[item])
            #expect(card.frame == other.frame, "item \(item) at \(scale)")
            #expect(card.body.frame == other.body.frame, "item \(item) at \(scale)")
            let text = try #require(card.body.textLayout(scale: scale)).size.height
            #expect(card.body.frame.maxY - text >= card.body.frame.minY - 1e-9, "item \(item) at \(scale)")
            #expect(card.body.frame.maxY <= card.frame.height, "item \(item) at \(scale)")
        }
    }
}
