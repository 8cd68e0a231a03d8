import ScrollwayGeometry
import ScrollwayLayout
import ScrollwayTestSupport
import Testing

@testable import ScrollwayViews

/// `systemLayoutSizeFitting` keeps its solver for the next call: whatever changed between
/// calls, a kept solver gives what a new one gives, and it is built anew when the
/// constraints are not the same.
@MainActor
@Suite struct FittingEngineTests {
    /// A card as a self-sizing cell's content: a badge whose frame is set by hand, a title
    /// beside it and a wrapping body below, pinned inside by constraints.
    final class Card: View {
        let badge = View(frame: Rect(x: 12, y: 12, width: 24, height: 24))
        let title = Label(text: "Title")
        let body = Label(text: "")
        var titleTop: LayoutConstraint!

        init() {
            super.init(frame: Rect(x: 0, y: 0, width: 300, height: 50))
            body.numberOfLines = 0
            addSubview(badge)
            for label in [title, body] {
                label.translatesAutoresizingMaskIntoConstraints = false
                addSubview(label)
            }
            titleTop = title.topAnchor.constraint(equalTo: topAnchor, constant: 12)
            LayoutConstraint.activate([
                titleTop,
                title.leadingAnchor.constraint(equalTo: badge.trailingAnchor, constant: 8),
                title.trailingAnchor.constraint(equalTo: trailingAnchor, constant: -12),
                body.topAnchor.constraint(greaterThanOrEqualTo: title.bottomAnchor, constant: 6),
                body.topAnchor.constraint(greaterThanOrEqualTo: badge.bottomAnchor, constant: 6),
                body.leadingAnchor.constraint(equalTo: leadingAnchor, constant: 12),
                body.trailingAnchor.constraint(equalTo: trailingAnchor, constant: -12),
                body.bottomAnchor.constraint(equalTo: bottomAnchor, constant: -12),
            ])
        }

        func fitted(_ width: Double) -> Size {
            systemLayoutSizeFitting(Size(width: width, height: 0), horizontalFittingPriority: .required)
        }

        /// What a solver built from nothing gives.
        func fittedAnew(_ width: Double) -> Size {
            let kept = fittingEngine
            forgetFittingEngine()
            defer { fittingEngine = kept }
            return fitted(width)
        }
    }

    static let words = ["ferry", "harbour", "a", "clear", "evening", "over", "the", "ridge", "library", "walk"]

    /// A cell reused for 200 items: new texts, widths, badge sizes and a title that comes and
    /// goes; one solver throughout, each size what a new solver gives.
    @Test func aKeptSolverFitsAsANewOneDoes() {
        var random = SeededRandom(state: 2026)
        let card = Card()
        _ = card.fitted(300)
        let kept = card.fittingEngine
        #expect(kept != nil)
        var heights: Set<Double> = []
        for n in 0..<200 {
            card.title.text = n % 7 == 0 ? "" : "Post \(n)"
            card.body.text = (0..<Int.random(in: 0..<40, using: &random)).map { _ in
                Self.words[Int.random(in: 0..<Self.words.count, using: &random)]
            }
            .joined(separator: " ")
            card.badge.frame.size = Size(
                width: 16 + Double(Int.random(in: 0..<3, using: &random)) * 8,
                height: 16 + Double(Int.random(in: 0..<5, using: &random)) * 8)
            let width = [300.0, 240, 360, 301][Int.random(in: 0..<4, using: &random)]
            let size = card.fitted(width)
            #expect(card.fittingEngine === kept, "item \(n)")
            #expect(size == card.fittedAnew(width), "item \(n)")
            #expect(size.width == width)
            heights.insert(size.height)
        }
        #expect(heights.count > 10)
    }

    /// A constant or priority changed, a constraint added or taken away, or other fitting
    /// priorities: a new solver, and the size those constraints give.
    @Test func otherConstraintsBuildANewSolver() throws {
        let card = Card()
        card.body.text = "Three new photos from the walk along the ridge, and one of the harbour."
        let first = card.fitted(300)
        let kept = try #require(card.fittingEngine)

        // The body's top is under the badge (12 + 24 + 6), then under the moved title.
        let titleHeight = card.title.intrinsicContentSize.height
        #expect(first.height == card.body.intrinsicContentSize.height + max(42, 12 + titleHeight + 6) + 12)
        card.titleTop.constant = 40
        let lower = card.fitted(300)
        #expect(lower.height == first.height - max(42, 12 + titleHeight + 6) + 40 + titleHeight + 6)
        #expect(card.fittingEngine !== kept)
        #expect(lower == card.fittedAnew(300))

        let second = try #require(card.fittingEngine)
        let tall = card.body.heightAnchor.constraint(greaterThanOrEqualToConstant: 200)
        tall.isActive = true
        let taller = card.fitted(300)
        #expect(card.fittingEngine !== second)
        #expect(taller.height == 12 + 17 + 6 + 200 + 12 || taller == card.fittedAnew(300))
        #expect(taller == card.fittedAnew(300))
        tall.isActive = false
        #expect(card.fitted(300) == lower)

        let third = try #require(card.fittingEngine)
        let smallest = card.systemLayoutSizeFitting(.zero)
        #expect(card.fittingEngine !== third)
        #expect(smallest.width < 300)
    }

    /// A badge no longer placed by hand (its flag turned off, its size then from constraints
    /// alone) is read anew by the kept solver, as a new one reads it.
    @Test func aFlagTurnedIsReadAnew() throws {
        let card = Card()
        card.body.text = "Rain all afternoon."
        _ = card.fitted(300)
        let kept = try #require(card.fittingEngine)
        card.badge.frame.size = Size(width: 24, height: 80)
        let tallBadge = card.fitted(300)
        #expect(card.fittingEngine === kept)
        #expect(tallBadge == card.fittedAnew(300))
        #expect(tallBadge.height >= 12 + 80 + 6)
        card.badge.translatesAutoresizingMaskIntoConstraints = false
        let free = card.fitted(300)
        #expect(free == card.fittedAnew(300))
        #expect(free.height < tallBadge.height)
    }

    /// A required width the constraints cannot meet (the body as wide as 400 between
    /// margins of a 100 wide card): the body's width is refused, nothing is kept, and each
    /// fitting gives what a new solver gives.
    @Test func aRefusedConstraintIsNotKept() {
        let card = Card()
        card.body.widthAnchor.constraint(equalToConstant: 400).isActive = true
        let size = card.fitted(100)
        #expect(size.width == 100)
        #expect(card.fittingEngine == nil)
        #expect(size == card.fitted(100))
        #expect(card.fitted(424) == Size(width: 424, height: size.height))
        #expect(card.fittingEngine != nil)
    }
}
