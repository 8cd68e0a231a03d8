import Scrollway
import Testing

/// The README's library example, verbatim, with its claims checked.
@MainActor
@Suite struct ReadmeExampleTests {
    @Test func theReadmeExampleWorksAsDescribed() throws {
        let window = Window(size: Size(width: 320, height: 480))
        let viewport = View(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        viewport.clipsToBounds = true
        let label = Label(text: "Hello, World", frame: Rect(x: 20, y: 20, width: 280, height: 30))
        viewport.addSubview(label)
        window.addSubview(viewport)

        let canvas = try Canvas(size: window.bounds.size, scale: window.scale)
        try window.render(into: canvas)  // draws the label once, composites everything
        viewport.bounds.origin = Point(x: 0, y: 10)  // "scroll": the label moves up 10 px on screen
        let damage = try window.render(into: canvas)  // recomposites the damage; draws nothing again
        let png = try PNG.encode(canvas)

        #expect(label.drawCount == 1)
        #expect(damage.rects == [Rect(x: 0, y: 0, width: 320, height: 480)])
        #expect(label.convert(Point.zero, to: nil) == Point(x: 20, y: 10))
        #expect(png.count > 100)
    }

    @Test func theReadmeContentGuideExampleSizesTheContent() throws {
        let window = Window(size: Size(width: 320, height: 480))
        let scroll = ScrollView(frame: window.bounds)
        scroll.fillsSuperview = true
        window.addSubview(scroll)
        let text = Label(text: String(repeating: "Text that wraps to the window's width. ", count: 40))
        text.numberOfLines = 0
        text.translatesAutoresizingMaskIntoConstraints = false
        scroll.addSubview(text)
        LayoutConstraint.activate(
            text.constraints(
                pinningEdgesTo: scroll.contentLayoutGuide, insets: EdgeInsets(top: 16, left: 16, bottom: 16, right: 16))
                + [
                    text.widthAnchor.constraint(equalTo: scroll.frameLayoutGuide.widthAnchor, constant: -32)
                ])
        window.layoutIfNeeded()  // scroll.contentSize: 320 wide, the wrapped text's height + 32 tall

        let font = try #require(Font.standard)
        let height = font.layout(text.text, maxWidth: 288, scale: 1).size.height.rounded(.up)
        #expect(scroll.contentSize == Size(width: 320, height: height + 32))
        #expect(text.frame == Rect(x: 16, y: 16, width: 288, height: height))
        // Wider: fewer lines, a shorter content.
        window.resize(to: Size(width: 600, height: 480))
        window.layoutIfNeeded()
        #expect(scroll.contentSize.width == 600)
        #expect(scroll.contentSize.height < height + 32)
    }
}
