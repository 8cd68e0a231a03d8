import Scrollway
import Testing

/// The guides inside a view's margins beyond `layoutMarginsGuide`: `readableContentGuide`, no
/// wider than a readable line and centred in the margins.
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
}
