import Scrollway
import Testing

/// The guides inside a view's margins beyond `layoutMarginsGuide`: `readableContentGuide`, no
/// wider than a readable line and centred in the margins; and margins that grow to keep
/// content inside the superview's (`preservesSuperviewLayoutMargins`).
@MainActor
@Suite struct MarginsGuideTests {
    /// A view placed by constraints with its four edges on `guide`'s.
    func content(pinnedTo guide: LayoutGuide, in view: View) -> View {
        let c = View()
        c.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(c)
        LayoutConstraint.activate(c.constraints(pinningEdgesTo: guide))
        return c
    }

    /// At a wide width the readable guide is the readable width, centred in the margins; at a
    /// narrow one it is the margins guide; it follows a resize and a change of margins.
    @Test func theReadableGuideIsAtMostAReadableWidthCentredInTheMargins() {
        let window = Window(size: Size(width: 1200, height: 500))
        let page = View(frame: Rect(x: 0, y: 0, width: 1200, height: 500))
        window.addSubview(page)
        let column = content(pinnedTo: page.readableContentGuide, in: page)
        window.layoutIfNeeded()
        #expect(column.frame == Rect(x: (1200 - 672) / 2, y: 8, width: 672, height: 484))
        #expect(page.readableContentGuide.layoutFrame == column.frame)
        // Narrower than the readable width and its margins: the margins guide.
        page.frame = Rect(x: 0, y: 0, width: 400, height: 500)
        window.layoutIfNeeded()
        #expect(column.frame == Rect(x: 8, y: 8, width: 384, height: 484))
        #expect(column.frame == page.layoutMarginsGuide.layoutFrame)
        // Margins of other sizes: the column narrows inside them, then centres between them.
        page.directionalLayoutMargins = DirectionalEdgeInsets(top: 10, leading: 40, bottom: 20, trailing: 20)
        window.layoutIfNeeded()
        #expect(column.frame == Rect(x: 40, y: 10, width: 340, height: 470))
        page.frame = Rect(x: 0, y: 0, width: 1000, height: 500)
        window.layoutIfNeeded()
        #expect(column.frame == Rect(x: 40 + (940 - 672) / 2, y: 10, width: 672, height: 470))
        // The guide's pull to its margins' width gives way to the readable width by design.
        #expect(window.brokenLayoutConstraints.isEmpty)
        #expect(window.unsatisfiableLayouts.isEmpty)
    }

    /// Right to left, the readable guide centres between the mirrored margins.
    @Test func theReadableGuideCentresInMirroredMargins() {
        let window = Window(size: Size(width: 1000, height: 300))
        window.userInterfaceLayoutDirection = .rightToLeft
        let page = View(frame: Rect(x: 0, y: 0, width: 1000, height: 300))
        page.directionalLayoutMargins = DirectionalEdgeInsets(top: 0, leading: 100, bottom: 0, trailing: 0)
        window.addSubview(page)
        let column = content(pinnedTo: page.readableContentGuide, in: page)
        window.layoutIfNeeded()
        // The margins run from 0 to 900 (the leading one at the right): centred in them.
        #expect(column.frame == Rect(x: (900 - 672) / 2, y: 0, width: 672, height: 300))
        #expect(window.unsatisfiableLayouts.isEmpty)
    }

    /// A panel flush with its card's left and top edges, preserving the card's margins: its
    /// content keeps the card's 20 there, its own 8 at the edges away from the card's; moved
    /// in, it inherits only what is left of the card's margin; not preserving, its own alone.
    @Test func aViewPreservingItsSuperviewsMarginsKeepsItsContentInsideThem() {
        let window = Window(size: Size(width: 600, height: 400))
        let card = View(frame: Rect(x: 50, y: 50, width: 400, height: 300))
        card.directionalLayoutMargins = DirectionalEdgeInsets(top: 20, leading: 20, bottom: 20, trailing: 20)
        window.addSubview(card)
        let panel = View(frame: Rect(x: 0, y: 0, width: 300, height: 100))
        card.addSubview(panel)
        let inside = content(pinnedTo: panel.layoutMarginsGuide, in: panel)
        window.layoutIfNeeded()
        #expect(inside.frame == Rect(x: 8, y: 8, width: 284, height: 84))

        panel.preservesSuperviewLayoutMargins = true
        window.layoutIfNeeded()
        #expect(panel.effectiveLayoutMargins == EdgeInsets(top: 20, left: 20, bottom: 8, right: 8))
        #expect(inside.frame == Rect(x: 20, y: 20, width: 272, height: 72))
        // What was set stays what was set.
        #expect(panel.layoutMargins == EdgeInsets(top: 8, left: 8, bottom: 8, right: 8))

        // 5 in from the card's left edge: 15 of the card's margin is left to keep.
        panel.frame = Rect(x: 5, y: 0, width: 300, height: 100)
        window.layoutIfNeeded()
        #expect(inside.frame == Rect(x: 15, y: 20, width: 277, height: 72))
        // Flush with the card's right and bottom edges instead.
        panel.frame = Rect(x: 100, y: 200, width: 300, height: 100)
        window.layoutIfNeeded()
        #expect(panel.effectiveLayoutMargins == EdgeInsets(top: 8, left: 8, bottom: 20, right: 20))
        #expect(inside.frame == Rect(x: 8, y: 8, width: 272, height: 72))
        // The card's margins change: the panel's follow.
        card.directionalLayoutMargins = DirectionalEdgeInsets(top: 20, leading: 20, bottom: 30, trailing: 40)
        window.layoutIfNeeded()
        #expect(inside.frame == Rect(x: 8, y: 8, width: 252, height: 62))

        panel.preservesSuperviewLayoutMargins = false
        window.layoutIfNeeded()
        #expect(inside.frame == Rect(x: 8, y: 8, width: 284, height: 84))
        #expect(window.unsatisfiableLayouts.isEmpty)
    }

    /// A panel placed by constraints flush with its card, inside a page that preserves the
    /// window's margins too: the margins carry down the chain, by leading and trailing in a
    /// right-to-left window.
    @Test func preservedMarginsCarryDownAChainPlacedByConstraints() {
        for direction in [UserInterfaceLayoutDirection.leftToRight, .rightToLeft] {
            let rtl = direction == .rightToLeft
            let window = Window(size: Size(width: 600, height: 400))
            window.userInterfaceLayoutDirection = direction
            window.directionalLayoutMargins = DirectionalEdgeInsets(top: 0, leading: 32, bottom: 0, trailing: 12)
            let card = View()
            let panel = View()
            for (v, superview) in [(card, window as View), (panel, card)] {
                v.translatesAutoresizingMaskIntoConstraints = false
                v.preservesSuperviewLayoutMargins = true
                superview.addSubview(v)
                LayoutConstraint.activate(v.constraints(pinningEdgesTo: superview))
            }
            let inside = content(pinnedTo: panel.layoutMarginsGuide, in: panel)
            window.layoutIfNeeded()
            #expect(panel.frame == Rect(x: 0, y: 0, width: 600, height: 400))
            #expect(inside.frame == Rect(x: rtl ? 12 : 32, y: 8, width: 556, height: 384), "\(direction)")
            #expect(window.unsatisfiableLayouts.isEmpty)
        }
    }
}
