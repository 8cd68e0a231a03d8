import Geometry
import Raster
import Scrolling
import Views

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
        let w = window.bounds.width
        var y = 0.0
        var views: [View] = []
        func add(_ v: View, height: Double, inset: Double = 0) {
            v.frame = Rect(x: inset, y: y, width: w - 2 * inset, height: height)
            views.append(v)
            y += height
        }
        add(NestedFeed.sectionHeader("Featured"), height: NestedFeed.headerHeight)

        let pager = ScrollView()
        pager.name = "pager"
        pager.isPagingEnabled = true
        pager.isDirectionalLockEnabled = true
        pager.showsHorizontalScrollIndicator = false
        add(pager, height: NestedFeed.pagerHeight)
        pager.contentSize = Size(width: w * Double(NestedFeed.cards), height: NestedFeed.pagerHeight)
        for i in 0..<NestedFeed.cards {
            let card = RoundedPanel(color: Pages.colors[i % Pages.colors.count], radius: 14)
            card.frame = Rect(x: Double(i) * w + 16, y: 12, width: w - 32, height: NestedFeed.pagerHeight - 24)
            let label = Label(text: "Card \(i + 1)")
            label.textAlignment = .center
            label.textColor = .white
            label.font = try? Font.system(size: 30, bold: true)
            label.frame = Rect(x: 0, y: card.bounds.height / 2 - 40, width: card.bounds.width, height: 44)
            card.addSubview(label)
            pager.addSubview(card)
        }
        let indicator = PageIndicator(count: NestedFeed.cards)
        indicator.name = "pageIndicator"
        indicator.frame = Rect(x: 0, y: pager.frame.maxY - 48, width: w, height: 24)
        let tracker = PageTracker(indicator: indicator)
        pager.delegate = tracker
        window.retainedObjects.append(tracker)

        for i in 1...NestedFeed.rowsAbove { add(NestedFeed.row("Story \(i)"), height: NestedFeed.rowHeight) }

        add(NestedFeed.sectionHeader("Notes"), height: NestedFeed.headerHeight)
        let notes = ScrollView()
        notes.name = "notes"
        notes.isDirectionalLockEnabled = true
        notes.backgroundColor = Color(rgb: 250, 247, 230)
        let text = Label(
            text: (1...NestedFeed.noteLines).map { "Note line \($0): the box scrolls first." }.joined(separator: "\n"))
        text.numberOfLines = 0
        text.textColor = Color(rgb: 70, 60, 30)
        add(notes, height: NestedFeed.notesHeight, inset: 16)
        let textHeight = text.sizeThatFits(Size(width: notes.bounds.width - 24, height: .greatestFiniteMagnitude))
            .height
        text.frame = Rect(x: 12, y: 10, width: notes.bounds.width - 24, height: textHeight)
        notes.addSubview(text)
        notes.contentSize = Size(width: notes.bounds.width, height: textHeight + 20)
        y += 12

        for i in 1...NestedFeed.rowsBelow {
            add(NestedFeed.row("Story \(NestedFeed.rowsAbove + i)"), height: NestedFeed.rowHeight)
        }

        let main = addMainScrollView(to: window, contentSize: Size(width: w, height: y))
        main.isDirectionalLockEnabled = true
        for v in views { main.addSubview(v) }
        main.addSubview(indicator)
    }
}

/// The nested scene's layout constants and row views.
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
        let header = View()
        header.backgroundColor = Color(rgb: 242, 242, 247)
        let label = Label(text: title.uppercased())
        label.font = try? Font.system(size: 13, bold: true)
        label.textColor = Color(rgb: 110, 110, 118)
        label.frame = Rect(x: 16, y: 14, width: 300, height: 22)
        header.addSubview(label)
        return header
    }

    static func row(_ title: String) -> View {
        let row = View()
        row.backgroundColor = .white
        let label = Label(text: title)
        label.frame = Rect(x: 16, y: 16, width: 300, height: 24)
        row.addSubview(label)
        let rule = View(frame: Rect(x: 16, y: rowHeight - 1, width: 374, height: 1))
        rule.backgroundColor = Color(rgb: 225, 225, 230)
        row.addSubview(rule)
        return row
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
