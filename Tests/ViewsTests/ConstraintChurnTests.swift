import ScrollwayGeometry
import Testing

@testable import ScrollwayViews

/// Views with constraints that join a window and leave it, over and over, as a feed's cells
/// do when the collection recycles them: the window's engine keeps only what is in it.
@MainActor
@Suite struct ConstraintChurnTests {
    /// A feed's card: its frame set by hand, a title and a wrapping body pinned inside it.
    final class Card: View {
        let title = Label(text: "Post")
        let body = Label(text: "")

        init(y: Double) {
            super.init(frame: Rect(x: 8, y: y, width: 374, height: 100))
            body.numberOfLines = 0
            for label in [title, body] {
                label.translatesAutoresizingMaskIntoConstraints = false
                addSubview(label)
            }
            LayoutConstraint.activate([
                title.topAnchor.constraint(equalTo: topAnchor, constant: 12),
                title.leadingAnchor.constraint(equalTo: leadingAnchor, constant: 12),
                title.trailingAnchor.constraint(equalTo: trailingAnchor, constant: -12),
                body.topAnchor.constraint(equalTo: title.bottomAnchor, constant: 6),
                body.leadingAnchor.constraint(equalTo: leadingAnchor, constant: 12),
                body.trailingAnchor.constraint(equalTo: trailingAnchor, constant: -12),
                body.bottomAnchor.constraint(equalTo: bottomAnchor, constant: -12),
            ])
        }
    }

    /// Three cards stay; 300 more come in one at a time and go, and one card leaves and comes
    /// back 300 times with new text: the engine's variables are the staying cards' (a card,
    /// its title and its body, four each) whenever the churn is between cards, and what stays
    /// is laid out as before. (The solver kept every variable it had ever seen: a fling down
    /// a feed slowed as it went, and held each card's variables for good.)
    @Test func cardsThatComeAndGoLeaveTheEngineAsItWas() throws {
        let window = Window(size: Size(width: 390, height: 844))
        let column = View(frame: window.bounds)
        window.addSubview(column)
        let staying = (0..<3).map { Card(y: 8 + Double($0) * 108) }
        for card in staying { column.addSubview(card) }
        window.layoutIfNeeded()
        let engine = try #require(window.layoutEngineIfCreated)
        #expect(engine.variableCount == 3 * 3 * 4)
        let frames = staying.map { [$0.title.frame, $0.body.frame] }
        // The body fills what the title and the gaps leave of the card's 100.
        let titleHeight = staying[0].title.frame.height
        #expect(titleHeight > 0)
        #expect(frames[0][1] == Rect(x: 12, y: 12 + titleHeight + 6, width: 350, height: 100 - 30 - titleHeight))

        weak var gone: Card?
        for n in 0..<300 {
            let card = Card(y: 400)
            card.body.text = "Card \(n)"
            column.addSubview(card)
            window.layoutIfNeeded()
            #expect(engine.variableCount == 4 * 3 * 4)
            #expect(card.body.frame.height > 0)
            card.removeFromSuperview()
            window.layoutIfNeeded()
            #expect(engine.variableCount == 3 * 3 * 4, "after card \(n)")
            gone = card
        }
        #expect(gone == nil)

        let recycled = Card(y: 400)
        for n in 0..<300 {
            recycled.body.text = String(repeating: "Again and again. ", count: 1 + n % 5)
            column.addSubview(recycled)
            window.layoutIfNeeded()
            #expect(engine.variableCount == 4 * 3 * 4)
            recycled.removeFromSuperview()
            window.layoutIfNeeded()
            #expect(engine.variableCount == 3 * 3 * 4, "after its return \(n)")
        }
        #expect(staying.map { [$0.title.frame, $0.body.frame] } == frames)
    }
}
