import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews

extension Scene {
    /// A feed: 100,000 posts in a `CollectionView` named "main", one column of cards, each a
    /// title and a body of one to four sentences pinned by constraints, its height fitted to
    /// its text as it comes into view (UITableView's automatic dimension). Only the cards in
    /// view have cells; a recycled card keeps its constraints in the window's engine, hidden in
    /// place until it is reused.
    public static let feed = Scene(
        name: "feed",
        summary: "100,000 self-sizing posts whose cards are laid out by constraints, cells reused",
        preferredSize: Size(width: 390, height: 844)
    ) { window in
        Posts.make(in: window, byConstraints: true)
    }
}

/// The feed scene's posts, and its cards. `scrollway bench` flings the same feed with cards laid
/// out by hand (`sizeThatFits` and `layoutSubviews`) to price the constraints, so both kinds
/// are here and lay every card out alike (a test checks).
public final class Posts: CollectionViewDataSource {
    public static let count = 100_000
    /// Between a card's edges and its text, and between its title and its body.
    public static let inset = 12.0
    public static let gap = 6.0
    public static let sentences = [
        "The morning ferry left on time.", "Nobody expected the bakery to stay open this late.",
        "Rain all afternoon, then a clear evening over the harbour.",
        "Three new photos from the walk along the ridge.", "The library extends its hours next week.",
    ]

    public let byConstraints: Bool

    public init(byConstraints: Bool) { self.byConstraints = byConstraints }

    /// Post `n`'s title.
    public static func title(_ n: Int) -> String { "Post \(n + 1)" }

    /// Post `n`'s body: one to four sentences.
    public static func body(_ n: Int) -> String {
        (0...(n % 4)).map { sentences[(n + $0) % sentences.count] }.joined(separator: " ")
    }

    static func identifier(byConstraints: Bool) -> String { byConstraints ? "constraints" : "hand" }

    /// A collection named "main" filling `window`, one column of cards (light grey on white) 8
    /// apart.
    @MainActor
    @discardableResult
    public static func make(in window: Window, byConstraints: Bool) -> CollectionView {
        window.clearColor = .white
        let layout = FlowLayout()
        layout.columnCount = 1  // as wide as the window, whatever size it is given
        layout.estimatedItemHeight = 80
        layout.minimumLineSpacing = 8
        layout.sectionInset = EdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
        return Scene.addMainCollection(
            to: window, layout: layout, source: Posts(byConstraints: byConstraints),
            identifier: identifier(byConstraints: byConstraints)
        ) { PostCard(byConstraints: byConstraints) }
    }

    public func numberOfSections(in collectionView: CollectionView) -> Int { 1 }

    public func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        Self.count
    }

    public func collectionView(_ collectionView: CollectionView, cellForItemAt path: ItemPath) -> CollectionCell {
        let id = Self.identifier(byConstraints: byConstraints)
        guard let card = collectionView.dequeueReusableCell(withIdentifier: id) as? PostCard else {
            preconditionFailure("the feed registers only cards")
        }
        card.title.text = Self.title(path.item)
        card.body.text = Self.body(path.item)
        return card
    }

    public func collectionView(_ collectionView: CollectionView, titleForSection section: Int) -> String { "" }
}

/// A post's card: its title above its wrapping body, `Posts.inset` inside the card and
/// `Posts.gap` apart. By constraints, the content view pins the two labels and the card's height
/// is `systemLayoutSizeFitting`'s; by hand, the same from the labels' `sizeThatFits`.
public final class PostCard: CollectionCell {
    public let title = Label()
    public let body = Label()
    public let byConstraints: Bool

    public init(byConstraints: Bool) {
        self.byConstraints = byConstraints
        super.init(reuseIdentifier: Posts.identifier(byConstraints: byConstraints))
        normalColor = Color(rgb: 242, 244, 247)
        body.numberOfLines = 0
        body.textColor = Color(rgb: 60, 64, 72)
        contentView.addSubview(title)
        contentView.addSubview(body)
        guard byConstraints else { return }
        for label in [title, body] { label.translatesAutoresizingMaskIntoConstraints = false }
        let (inset, gap) = (Posts.inset, Posts.gap)
        LayoutConstraint.activate([
            title.topAnchor.constraint(equalTo: contentView.topAnchor, constant: inset),
            title.leadingAnchor.constraint(equalTo: contentView.leadingAnchor, constant: inset),
            title.trailingAnchor.constraint(equalTo: contentView.trailingAnchor, constant: -inset),
            body.topAnchor.constraint(equalTo: title.bottomAnchor, constant: gap),
            body.leadingAnchor.constraint(equalTo: contentView.leadingAnchor, constant: inset),
            body.trailingAnchor.constraint(equalTo: contentView.trailingAnchor, constant: -inset),
            body.bottomAnchor.constraint(equalTo: contentView.bottomAnchor, constant: -inset),
        ])
    }

    /// By hand: the labels' heights at the width inside the insets, the gap and the insets.
    public override func sizeThatFits(_ size: Size) -> Size {
        let inner = Size(width: size.width - 2 * Posts.inset, height: .greatestFiniteMagnitude)
        let height = title.sizeThatFits(inner).height + Posts.gap + body.sizeThatFits(inner).height
        return Size(width: size.width, height: height + 2 * Posts.inset)
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        guard !byConstraints else { return }
        let width = contentView.bounds.width - 2 * Posts.inset
        let inner = Size(width: width, height: .greatestFiniteMagnitude)
        let titleHeight = title.sizeThatFits(inner).height
        title.frame = Rect(x: Posts.inset, y: Posts.inset, width: width, height: titleHeight)
        body.frame = Rect(
            x: Posts.inset, y: title.frame.maxY + Posts.gap, width: width, height: body.sizeThatFits(inner).height)
    }
}
