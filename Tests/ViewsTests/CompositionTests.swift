import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews
import Testing

@MainActor
@Suite struct CompositionTests {
    @Test func buttonAppearsAtItsFrameAndMovesAgainstTheBoundsOrigin() throws {
        let window = Window(size: Size(width: 200, height: 150))
        let container = View(frame: Rect(x: 0, y: 0, width: 200, height: 150))
        container.clipsToBounds = true
        let button = Button(title: "", frame: Rect(x: 20, y: 15, width: 40, height: 30))
        button.cornerRadius = 0
        button.fillColor = BoundsScene.red
        container.addSubview(button)
        window.addSubview(container)
        let red = BoundsScene.red.argb

        var c = try Offscreen.render(window)
        #expect(c.pixel(x: 20, y: 15) == red)
        #expect(c.pixel(x: 59, y: 44) == red)
        #expect(c.pixel(x: 19, y: 15) == 0xFFFF_FFFF)
        #expect(c.pixel(x: 60, y: 44) == 0xFFFF_FFFF)
        #expect(c.pixel(x: 20, y: 45) == 0xFFFF_FFFF)

        container.bounds.origin = Point(x: -30, y: -30)
        c = try Offscreen.render(window)
        #expect(button.frame == Rect(x: 20, y: 15, width: 40, height: 30))
        #expect(c.pixel(x: 50, y: 45) == red)
        #expect(c.pixel(x: 89, y: 74) == red)
        #expect(c.pixel(x: 49, y: 45) == 0xFFFF_FFFF)
        #expect(c.pixel(x: 90, y: 74) == 0xFFFF_FFFF)
        #expect(c.pixel(x: 20, y: 15) == 0xFFFF_FFFF)

        // Far enough and the clip removes the button entirely.
        container.bounds.origin = Point(x: 100, y: 0)
        c = try Offscreen.render(window)
        var redCount = 0
        for y in 0..<150 { for x in 0..<200 where c.pixel(x: x, y: y) == red { redCount += 1 } }
        #expect(redCount == 0)
        #expect(button.frame == Rect(x: 20, y: 15, width: 40, height: 30))
    }

    /// Checks the four corner pixels of `rect` (screen coordinates) where they are on screen,
    /// and the pixels just outside each corner.
    func expectRect(_ c: Canvas, _ rect: Rect, _ color: Color, _ label: String) {
        let corners = [
            (Int(clamping: rect.minX), Int(clamping: rect.minY), -1, -1),
            (Int(clamping: rect.maxX) - 1, Int(clamping: rect.minY), 1, -1),
            (Int(clamping: rect.minX), Int(clamping: rect.maxY) - 1, -1, 1),
            (Int(clamping: rect.maxX) - 1, Int(clamping: rect.maxY) - 1, 1, 1),
        ]
        for (x, y, dx, dy) in corners where x >= 0 && y >= 0 && x < c.width && y < c.height {
            #expect(c.pixel(x: x, y: y) == color.argb, "\(label) corner (\(x), \(y))")
            let ox = x + dx
            let oy = y + dy
            if ox >= 0 && oy >= 0 && ox < c.width && oy < c.height {
                #expect(c.pixel(x: ox, y: oy) == 0xFFFF_FFFF, "\(label) outside (\(ox), \(oy))")
            }
        }
    }

    @Test func theBoundsArticleScene() throws {
        let scene = BoundsScene()
        var c = try Offscreen.render(scene.window)
        for (name, rect, color) in BoundsScene.rects { expectRect(c, rect, color, "\(name) at (0,0)") }
        // Yellow starts at y = 600: out of view.
        #expect(!(0..<480).contains { y in (0..<320).contains { c.pixel(x: $0, y: y) == BoundsScene.yellow.argb } })
        // Blue is cut by the bottom edge: its last visible row is 479.
        #expect(c.pixel(x: 40, y: 479) == BoundsScene.blue.argb)

        scene.container.bounds.origin = Point(x: 0, y: 100)
        c = try Offscreen.render(scene.window)
        #expect(c.pixel(x: 40, y: 300) == BoundsScene.blue.argb)
        #expect(c.pixel(x: 39, y: 300) == 0xFFFF_FFFF && c.pixel(x: 40, y: 299) == 0xFFFF_FFFF)
        #expect(c.pixel(x: 150, y: 60) == BoundsScene.green.argb)
        #expect(c.pixel(x: 149, y: 60) == 0xFFFF_FFFF && c.pixel(x: 150, y: 59) == 0xFFFF_FFFF)
        for (name, rect, color) in BoundsScene.rects {
            expectRect(c, rect.offsetBy(dx: 0, dy: -100), color, "\(name) at (0,100)")
        }
        // Only red's bottom 20 rows remain: rows 0...19 red, row 20 white.
        #expect(c.pixel(x: 20, y: 0) == BoundsScene.red.argb)
        #expect(c.pixel(x: 119, y: 19) == BoundsScene.red.argb)
        #expect(c.pixel(x: 20, y: 20) == 0xFFFF_FFFF)
        #expect(!(0..<480).contains { y in (0..<320).contains { c.pixel(x: $0, y: y) == BoundsScene.yellow.argb } })
        // No frame changed.
        for (name, rect, _) in BoundsScene.rects { #expect(scene.window.view(named: name)?.frame == rect) }
    }

    /// `discardContents` lets a view's drawn picture go (a pager's far page): the view holds no
    /// image until it is next shown, then draws once again, the same pixels.
    @Test func discardedContentsAreDrawnAgainWhenNextShown() throws {
        let window = Window(size: Size(width: 100, height: 100))
        let view = CountingView(frame: Rect(x: 0, y: 0, width: 100, height: 100), color: BoundsScene.blue)
        window.addSubview(view)
        let canvas = try Canvas(width: 100, height: 100)
        try window.render(into: canvas)
        #expect(view.drawCount == 1 && view.backingImage != nil)
        view.isHidden = true
        try window.render(into: canvas)
        view.discardContents()
        #expect(view.backingImage == nil)
        try window.render(into: canvas)
        #expect(view.drawCount == 1 && view.backingImage == nil)
        view.isHidden = false
        try window.render(into: canvas)
        #expect(view.drawCount == 2 && view.backingImage != nil)
        #expect(canvas.pixel(x: 50, y: 50) == BoundsScene.blue.argb)
    }

    @Test func movingBoundsOriginsNeverRedraws() throws {
        let window = Window(size: Size(width: 100, height: 100))
        let scroller = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        scroller.clipsToBounds = true
        let content = CountingView(frame: Rect(x: 0, y: 0, width: 100, height: 400), color: BoundsScene.blue)
        let label = Label(text: "Row", frame: Rect(x: 0, y: 10, width: 100, height: 20))
        scroller.addSubview(content)
        content.addSubview(label)
        window.addSubview(scroller)
        let canvas = try Canvas(width: 100, height: 100)
        try window.render(into: canvas)
        #expect(content.drawCount == 1 && label.drawCount == 1)
        for i in 1...100 {
            scroller.bounds.origin = Point(x: 0, y: Double(i) * 3)
            try window.render(into: canvas)
        }
        #expect(content.drawCount == 1)
        #expect(label.drawCount == 1)
        // Moving frames and ancestors does not redraw either.
        content.frame.origin = Point(x: 5, y: 5)
        scroller.center = Point(x: 60, y: 50)
        try window.render(into: canvas)
        #expect(content.drawCount == 1 && label.drawCount == 1)
        // setNeedsDisplay does.
        content.setNeedsDisplay()
        try window.render(into: canvas)
        #expect(content.drawCount == 2 && label.drawCount == 1)
    }

    @Test func changingOneSmallViewDamagesOnlyItsRect() throws {
        let scene = BoundsScene()
        let dot = View(frame: Rect(x: 50, y: 60, width: 10, height: 10))
        dot.backgroundColor = .black
        scene.container.addSubview(dot)
        let canvas = try Canvas(width: 320, height: 480)
        let first = try scene.window.render(into: canvas)
        #expect(first.rects == [Rect(x: 0, y: 0, width: 320, height: 480)])
        #expect(try scene.window.prepareFrame().isEmpty)

        dot.backgroundColor = .white
        let damage = try scene.window.render(into: canvas)
        #expect(damage.rects == [Rect(x: 50, y: 60, width: 10, height: 10)])
        #expect(canvas.pixel(x: 55, y: 65) == 0xFFFF_FFFF)

        // A clipping view's bounds-origin change damages its visible rect, once.
        scene.container.bounds.origin = Point(x: 0, y: 10)
        #expect(try scene.window.prepareFrame().rects == [Rect(x: 0, y: 0, width: 320, height: 480)])

        // Moving a view damages where it was and where it is.
        dot.frame.origin = Point(x: 200, y: 20)
        let moved = try scene.window.prepareFrame()
        #expect(
            Set(moved.rects) == [Rect(x: 50, y: 50, width: 10, height: 10), Rect(x: 200, y: 10, width: 10, height: 10)])

        // Removing a view damages what it showed.
        dot.removeFromSuperview()
        #expect(try scene.window.prepareFrame().rects == [Rect(x: 200, y: 10, width: 10, height: 10)])
    }

    /// A leaf without a background paints only its image: a row-wide label whose words change
    /// damages where its words were and are, not its whole frame, and the repaint is exact.
    @Test func aLabelDamagesOnlyWhereItsWordsLand() throws {
        let window = Window(size: Size(width: 320, height: 100))
        let label = Label(text: "Hi", frame: Rect(x: 10, y: 20, width: 300, height: 40))
        window.addSubview(label)
        let canvas = try Canvas(width: 320, height: 100)
        try window.render(into: canvas)
        label.text = "Ho"
        let damage = try window.render(into: canvas)
        let bounds = damage.bounds
        #expect(!damage.isEmpty)
        #expect(bounds.minX >= 10 && bounds.maxX <= 10 + 60, "damage \(damage)")  // the words, not 300 px
        #expect(bounds.minY >= 20 && bounds.maxY <= 60)
        let full = try Canvas(width: 320, height: 100)
        window.composite(into: full)
        var differ = 0
        for y in 0..<100 { for x in 0..<320 where canvas.pixel(x: x, y: y) != full.pixel(x: x, y: y) { differ += 1 } }
        #expect(differ == 0)
    }

    @Test func partialRepaintMatchesAFullRender() throws {
        let scene = BoundsScene()
        let canvas = try Canvas(width: 320, height: 480)
        try scene.window.render(into: canvas)
        scene.window.view(named: "green")!.backgroundColor = BoundsScene.yellow
        try scene.window.render(into: canvas)
        let full = try Offscreen.render(scene.window)
        for y in stride(from: 0, to: 480, by: 7) {
            for x in stride(from: 0, to: 320, by: 7) { #expect(canvas.pixel(x: x, y: y) == full.pixel(x: x, y: y)) }
        }
    }

    @Test func scaleTwoTransformDoublesAboutTheCentre() throws {
        let window = Window(size: Size(width: 200, height: 200))
        let v = View(frame: Rect(x: 100, y: 100, width: 40, height: 20))
        v.backgroundColor = BoundsScene.red
        window.addSubview(v)
        v.transform = AffineTransform(scale: 2)
        #expect(v.frame == Rect(x: 80, y: 90, width: 80, height: 40))
        #expect(v.bounds.size == Size(width: 40, height: 20))
        let c = try Offscreen.render(window)
        let red = BoundsScene.red.argb
        #expect(c.pixel(x: 80, y: 90) == red && c.pixel(x: 159, y: 129) == red)
        #expect(c.pixel(x: 79, y: 90) == 0xFFFF_FFFF && c.pixel(x: 160, y: 129) == 0xFFFF_FFFF)
        #expect(c.pixel(x: 80, y: 89) == 0xFFFF_FFFF && c.pixel(x: 80, y: 130) == 0xFFFF_FFFF)

        // A drawn image scales with it.
        let drawn = CountingView(frame: Rect(x: 10, y: 10, width: 10, height: 10), color: BoundsScene.blue)
        window.addSubview(drawn)
        drawn.transform = AffineTransform(scale: 2)
        let c2 = try Offscreen.render(window)
        #expect(c2.pixel(x: 5, y: 5) == BoundsScene.blue.argb && c2.pixel(x: 24, y: 24) == BoundsScene.blue.argb)
        #expect(c2.pixel(x: 4, y: 5) == 0xFFFF_FFFF && c2.pixel(x: 25, y: 24) == 0xFFFF_FFFF)
    }

    @Test func deviceScaleTwoDoublesEveryPixel() throws {
        let scene = BoundsScene()
        scene.window.scale = 2
        let c = try Offscreen.render(scene.window)
        #expect(c.width == 640 && c.height == 960)
        #expect(c.pixel(x: 40, y: 40) == BoundsScene.red.argb && c.pixel(x: 239, y: 239) == BoundsScene.red.argb)
        #expect(c.pixel(x: 39, y: 40) == 0xFFFF_FFFF && c.pixel(x: 240, y: 239) == 0xFFFF_FFFF)
    }
}

@MainActor
@Suite struct FadeDamageTests {
    /// A view that turns invisible damages what it showed in the same frame.
    @Test func aViewFadingToZeroIsRepaintedInTheSameFrame() throws {
        let window = Window(size: Size(width: 100, height: 100))
        let dot = View(frame: Rect(x: 10, y: 10, width: 5, height: 30))
        dot.backgroundColor = .black
        window.addSubview(dot)
        let canvas = try Canvas(width: 100, height: 100)
        try window.render(into: canvas)
        #expect(canvas.pixel(x: 12, y: 20) == 0xFF00_0000)
        dot.alpha = 0
        let damage = try window.render(into: canvas)
        #expect(damage.rects == [Rect(x: 10, y: 10, width: 5, height: 30)])
        #expect(canvas.pixel(x: 12, y: 20) == 0xFFFF_FFFF)
        dot.alpha = 1
        dot.isHidden = true
        _ = try window.render(into: canvas)
        dot.isHidden = false
        _ = try window.render(into: canvas)
        #expect(canvas.pixel(x: 12, y: 20) == 0xFF00_0000)
    }
    /// A view whose image `isOpaque` promises to be opaque is copied, and nothing beneath it is
    /// painted. Shown by breaking the promise: a transparent hole in its image lands as it is
    /// (copied, not blended over the view behind), while without the promise the hole shows the
    /// view behind.
    @Test func anOpaqueImageIsCopiedAndNothingBeneathItIsPainted() throws {
        final class Swatch: View {
            override var drawsContent: Bool { true }
            override func draw(in canvas: Canvas) {
                canvas.fill(Rect(x: 0, y: 0, width: 40, height: 40), color: .black)
                canvas.fill(Rect(x: 10, y: 10, width: 5, height: 5), color: .clear, blend: .copy)  // the hole
            }
        }
        for promised in [true, false] {
            let window = Window(size: Size(width: 60, height: 60))
            let behind = View(frame: Rect(x: 0, y: 0, width: 60, height: 60))
            behind.backgroundColor = BoundsScene.red
            let swatch = Swatch(frame: Rect(x: 5, y: 5, width: 40, height: 40))
            swatch.isOpaque = promised
            behind.addSubview(swatch)
            window.addSubview(behind)
            let canvas = try Canvas(width: 60, height: 60)
            canvas.clear(Color(rgb: 0, 200, 0))
            try window.prepareFrame()  // draws the swatch's image
            window.composite(into: canvas)
            #expect(canvas.pixel(x: 5, y: 5) == 0xFF00_0000)
            #expect(canvas.pixel(x: 44, y: 44) == 0xFF00_0000)
            #expect(canvas.pixel(x: 50, y: 50) == BoundsScene.red.argb)
            let hole = canvas.pixel(x: 17, y: 17)
            #expect(hole == (promised ? 0 : BoundsScene.red.argb), "promised: \(promised)")
        }
    }
}
