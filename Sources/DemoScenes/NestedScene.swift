import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews

extension Scene {
    /// Scroll views inside a vertical list: a horizontal pager of cards ("pager") and a notes
    /// box that scrolls vertically on its own ("notes"). A vertical drag on the pager scrolls
    /// the list; a horizontal one turns cards. A drag in the notes scrolls them until their
    /// edge, then the list carries on with the same finger (the hand-off shows in the trace).
    /// All three lock to the gesture's first direction.
    public static let nested = Scene(
        name: "nested",
        summary: "A horizontal pager and a scrolling notes box inside a vertical list (hand-off at the edges)",
        preferredSize: Size(width: 390, height: 844)
    ) { window in
        // The feed, top to bottom: each view with its height and side inset. Heights are fixed;
        // widths follow the window (see `relayout` below).
        var feed: [(view: View, height: Double, inset: Double, gapAfter: Double)] = []
        func add(_ v: View, height: Double, inset: Double = 0, gapAfter: Double = 0) {
            feed.append((v, height, inset, gapAfter))
        }
        add(NestedFeed.sectionHeader("Featured"), height: NestedFeed.headerHeight)

        let pager = ScrollView()
        pager.name = "pager"
        pager.isPagingEnabled = true
        pager.isDirectionalLockEnabled = true
        // This scene shows Scrollway's scroll chaining: drags continue outwards at the edges.
        pager.handsOffDragsAtEdges = true
        // One scroll view answers scroll-to-top (UIKit scrolls none when several could).
        pager.scrollsToTop = false
        pager.showsHorizontalScrollIndicator = false
        add(pager, height: NestedFeed.pagerHeight)
        var cards: [(card: View, label: Label)] = []
        for i in 0..<NestedFeed.cards {
            let card = RoundedPanel(color: Pages.colors[i % Pages.colors.count], radius: 14)
            let label = Label(text: "Card \(i + 1)")
            label.textAlignment = .center
            label.textColor = .white
            label.font = try? Font.system(size: 30, bold: true)
            card.addSubview(label)
            pager.addSubview(card)
            cards.append((card, label))
        }
        let indicator = PageControl(numberOfPages: NestedFeed.cards)
        indicator.name = "pageIndicator"
        indicator.accessibilityLabel = "Cards"
        indicator.scrollView = pager

        for i in 1...NestedFeed.rowsAbove { add(NestedFeed.row("Story \(i)"), height: NestedFeed.rowHeight) }

        add(NestedFeed.sectionHeader("Notes"), height: NestedFeed.headerHeight)
        let notes = ScrollView()
        notes.name = "notes"
        notes.isDirectionalLockEnabled = true
        notes.handsOffDragsAtEdges = true
        notes.scrollsToTop = false
        notes.backgroundColor = Color(rgb: 250, 247, 230)
        let text = Label(
            text: (1...NestedFeed.noteLines).map { "Note line \($0): the box scrolls first." }.joined(separator: "\n"))
        text.numberOfLines = 0
        text.textColor = Color(rgb: 70, 60, 30)
        notes.addSubview(text)
        add(notes, height: NestedFeed.notesHeight, inset: 16, gapAfter: 12)

        for i in 1...NestedFeed.rowsBelow {
            add(NestedFeed.row("Story \(NestedFeed.rowsAbove + i)"), height: NestedFeed.rowHeight)
        }

        let main = addMainScrollView(to: window, contentSize: .zero)
        main.isDirectionalLockEnabled = true
        for item in feed { main.addSubview(item.view) }
        main.addSubview(indicator)
        // Everything is as wide as the window; a resize keeps the pager on its card and the
        // notes where they were (clamped to their new range: wider notes wrap less).
        main.relayout = { main, old in
            let w = main.bounds.width
            var y = 0.0
            for item in feed {
                item.view.frame = Rect(x: item.inset, y: y, width: max(0, w - 2 * item.inset), height: item.height)
                y += item.height + item.gapAfter
            }
            let card = old.width > 0 ? (pager.contentOffset.x / old.width).rounded() : 0
            for (i, c) in cards.enumerated() {
                c.card.frame = Rect(
                    x: Double(i) * w + 16, y: 12, width: max(0, w - 32), height: NestedFeed.pagerHeight - 24)
                c.label.frame = Rect(x: 0, y: c.card.bounds.height / 2 - 40, width: c.card.bounds.width, height: 44)
            }
            pager.contentSize = Size(width: w * Double(NestedFeed.cards), height: NestedFeed.pagerHeight)
            pager.setContentOffset(
                Point(x: min(max(card, 0), Double(NestedFeed.cards - 1)) * w, y: 0), animated: false)
            indicator.frame = Rect(x: 0, y: pager.frame.maxY - 48, width: w, height: 24)
            let textWidth = max(0, notes.bounds.width - 24)
            let textHeight = text.sizeThatFits(Size(width: textWidth, height: .greatestFiniteMagnitude)).height
            text.frame = Rect(x: 12, y: 10, width: textWidth, height: textHeight)
            notes.contentSize = Size(width: notes.bounds.width, height: textHeight + 20)
            notes.setContentOffset(notes.clampedOffset(notes.contentOffset), animated: false)
            main.contentSize = Size(width: w, height: y)
        }
        main.layoutIfNeeded()
    }
}

/// The nested scene's layout constants and row views.
@MainActor
public enum NestedFeed {
    public static let cards = 5
    public static let headerHeight = 40.0
    public static let pagerHeight = 240.0
    public static let rowHeight = 56.0
    public static let rowsAbove = 4
    public static let rowsBelow = 24
    public static let notesHeight = 200.0
    public static let noteLines = 24

    static func sectionHeader(_ title: String) -> View {
        let label = Label(text: title.uppercased())
        label.font = try? Font.system(size: 13, bold: true)
        label.textColor = Color(rgb: 110, 110, 118)
        return FeedItem(label: label, background: Color(rgb: 242, 242, 247), labelTop: 14, labelHeight: 22, rule: nil)
    }

    static func row(_ title: String) -> View {
        FeedItem(
            label: Label(text: title), background: .white, labelTop: 16, labelHeight: 24,
            rule: Color(rgb: 225, 225, 230))
    }
}

/// A header or row of the nested feed: a label 16 px in from the left, and optionally a
/// hairline rule along the bottom from the label's edge, both as wide as the item.
final class FeedItem: View {
    let label: Label
    let labelTop: Double
    let labelHeight: Double
    let rule: View?

    init(label: Label, background: Color, labelTop: Double, labelHeight: Double, rule ruleColor: Color?) {
        self.label = label
        self.labelTop = labelTop
        self.labelHeight = labelHeight
        rule = ruleColor.map { color in
            let v = View()
            v.backgroundColor = color
            return v
        }
        super.init()
        backgroundColor = background
        addSubview(label)
        if let rule { addSubview(rule) }
    }

    override func layoutSubviews() {
        label.frame = Rect(x: 16, y: labelTop, width: max(0, bounds.width - 32), height: labelHeight)
        rule?.frame = Rect(x: 16, y: bounds.height - 1, width: max(0, bounds.width - 16), height: 1)
    }
}

/// A filled rounded rectangle (the pager's cards).
final class RoundedPanel: View {
    let color: Color
    let radius: Double

    init(color: Color, radius: Double) {
        self.color = color
        self.radius = radius
        super.init()
    }

    override var drawsContent: Bool { true }

    override func draw(in canvas: Canvas) { canvas.fillRoundedRect(bounds, radius: radius, color: color) }
}
