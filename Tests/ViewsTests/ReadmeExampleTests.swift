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
}
