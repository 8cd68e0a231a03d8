import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayLayout
import ScrollwayRaster
import ScrollwayViews
import Testing

@MainActor
@Suite struct ViewTreeTests {
    @Test func hitTestingRespectsBoundsOriginsHiddenAlphaAndOrder() {
        let scene = BoundsScene()
        let w = scene.window
        #expect(w.hitTest(Point(x: 25, y: 25))?.name == "red")
        #expect(w.hitTest(Point(x: 10, y: 10)) === scene.container)
        scene.container.bounds.origin = Point(x: 0, y: 100)
        #expect(w.hitTest(Point(x: 45, y: 305))?.name == "blue")
        #expect(w.hitTest(Point(x: 25, y: 25)) === scene.container)  // red's visible rows are y 0...19
        #expect(w.hitTest(Point(x: 25, y: 15))?.name == "red")
        w.view(named: "blue")!.isHidden = true
        #expect(w.hitTest(Point(x: 45, y: 305)) === scene.container)
        w.view(named: "green")!.alpha = 0
        #expect(w.hitTest(Point(x: 155, y: 65)) === scene.container)
        // Later subviews are in front.
        let top = View(frame: Rect(x: 0, y: 100, width: 50, height: 50))
        scene.container.addSubview(top)
        #expect(w.hitTest(Point(x: 25, y: 15)) === top)
        scene.container.sendSubviewToBack(top)
        #expect(w.hitTest(Point(x: 25, y: 15))?.name == "red")
        // Outside the window: nothing.
        #expect(w.hitTest(Point(x: -1, y: 5)) == nil)
    }

    @Test func pointConversionFollowsBoundsAndTransforms() {
        let scene = BoundsScene()
        let blue = scene.window.view(named: "blue")!
        #expect(blue.convert(Point.zero, to: nil) == Point(x: 40, y: 400))
        scene.container.bounds.origin = Point(x: 0, y: 100)
        #expect(blue.convert(Point.zero, to: nil) == Point(x: 40, y: 300))
        #expect(blue.convert(Point(x: 40, y: 300), from: nil) == Point.zero)
        let red = scene.window.view(named: "red")!
        #expect(blue.convert(Point.zero, to: red) == Point(x: 20, y: 380))
        #expect(
            red.convert(Rect(x: 0, y: 0, width: 10, height: 10), to: nil) == Rect(x: 20, y: -80, width: 10, height: 10))
        red.transform = AffineTransform(scale: 2)
        // Red's centre (70, 70) stays; its origin maps to 70 − 2·50 = −30 in the container.
        #expect(red.convert(Point.zero, to: scene.container) == Point(x: 20, y: 20) + Point(x: -50, y: -50))
    }

    @Test func hierarchyEditing() {
        let a = View()
        let b = View()
        let c = View()
        a.addSubview(b)
        a.addSubview(c)
        #expect(a.subviews.count == 2 && b.superview === a)
        a.bringSubviewToFront(b)
        #expect(a.subviews.last === b)
        c.addSubview(b)  // moves it
        #expect(a.subviews.count == 1 && b.superview === c && b.isDescendant(of: a))
        b.removeFromSuperview()
        #expect(b.superview == nil && c.subviews.isEmpty)
    }

    @Test func oneFrameRequestUntilTheFrameRuns() throws {
        let scene = BoundsScene()
        let host = CountingHost()
        scene.window.host = host
        try scene.window.prepareFrame()
        scene.container.bounds.origin = Point(x: 0, y: 1)
        scene.container.bounds.origin = Point(x: 0, y: 2)
        scene.window.view(named: "red")!.backgroundColor = .black
        #expect(host.requests == 1)
        try scene.window.prepareFrame()
        scene.container.bounds.origin = Point(x: 0, y: 3)
        #expect(host.requests == 2)
    }

    @Test func buttonHighlightsWhileTouchedAndFiresOnlyOnLiftInside() throws {
        let window = Window(size: Size(width: 200, height: 200))
        let button = Button(title: "OK", frame: Rect(x: 20, y: 20, width: 80, height: 40))
        window.addSubview(button)
        var taps = 0
        button.onTap = { taps += 1 }
        let t = Touch(id: 1, location: Point(x: 30, y: 30), timestamp: 0)
        button.touchesBegan([t])
        #expect(button.isHighlighted)
        let normal = try Offscreen.render(window).pixel(x: 25, y: 40)
        #expect(normal != BoundsScene.red.argb)
        button.touchesEnded([t])
        #expect(!button.isHighlighted && taps == 1)
        let lifted = try Offscreen.render(window).pixel(x: 25, y: 40)
        #expect(lifted == Color.tint.argb)
        #expect(normal != lifted)
        button.touchesBegan([t])
        button.touchesCancelled([t])
        #expect(!button.isHighlighted && taps == 1)
    }

    /// Moving a view within its window keeps the touch on it (and calls no leave hook); taking it
    /// out of the window cancels the touch and tells its subtree.
    @Test func aTouchGoesOnThroughAMoveWithinTheWindowAndIsCancelledWhenTheViewLeaves() {
        final class Recorder: View {
            var log: [String] = []
            override func touchesBegan(_ touches: [Touch]) { log.append("began") }
            override func touchesMoved(_ touches: [Touch]) { log.append("moved") }
            override func touchesEnded(_ touches: [Touch]) { log.append("ended") }
            override func touchesCancelled(_ touches: [Touch]) { log.append("cancelled") }
            override func willLeaveWindow() { log.append("leaves") }
        }
        let window = Window(size: Size(width: 200, height: 200))
        let a = View(frame: Rect(x: 0, y: 0, width: 100, height: 200))
        let b = View(frame: Rect(x: 100, y: 0, width: 100, height: 200))
        let view = Recorder(frame: Rect(x: 10, y: 10, width: 50, height: 50))
        window.addSubview(a)
        window.addSubview(b)
        a.addSubview(view)
        window.handle(InputEvent(time: 0, .touchDown(id: 1, position: Point(x: 20, y: 20))))
        b.addSubview(view)  // a move within the window
        window.handle(InputEvent(time: 0.01, .touchMotion(id: 1, position: Point(x: 25, y: 20))))
        window.handle(InputEvent(time: 0.02, .touchUp(id: 1)))
        #expect(view.log == ["began", "moved", "ended"])
        view.log = []
        window.handle(InputEvent(time: 0.1, .touchDown(id: 2, position: Point(x: 120, y: 20))))
        view.removeFromSuperview()
        window.handle(InputEvent(time: 0.11, .touchMotion(id: 2, position: Point(x: 125, y: 20))))
        window.handle(InputEvent(time: 0.12, .touchUp(id: 2)))
        #expect(view.log == ["began", "cancelled", "leaves"])
        // Into another window: it leaves the first.
        view.log = []
        b.addSubview(view)
        let other = Window(size: Size(width: 100, height: 100))
        other.addSubview(view)
        #expect(view.log == ["leaves"])
    }

    @Test func labelTextStaysInsideItsBoundsAndMeasuresWhatItDraws() throws {
        let window = Window(size: Size(width: 300, height: 100))
        let label = Label(text: "Hello, World", frame: Rect(x: 30, y: 40, width: 200, height: 30))
        window.addSubview(label)
        let c = try Offscreen.render(window)
        var minX = Int.max
        var maxX = Int.min
        for y in 0..<100 {
            for x in 0..<300 where c.pixel(x: x, y: y) != 0xFFFF_FFFF {
                #expect(label.frame.contains(Point(x: Double(x), y: Double(y))), "ink at (\(x), \(y))")
                minX = min(minX, x)
                maxX = max(maxX, x)
            }
        }
        let measured = label.sizeThatFits(Size(width: 1000, height: 1000))
        #expect(measured.height > 10)
        // Ink starts at the label's left and ends within the measured advance (± bearings).
        #expect(minX >= 30 && minX <= 32)
        #expect(Double(maxX - 30 + 1) <= measured.width + 1)
        #expect(Double(maxX - 30 + 1) >= measured.width - 3)
    }

    @Test func stackViewStacksAndReportsItsFittingSize() {
        let stack = StackView(
            frame: Rect(x: 0, y: 0, width: 200, height: 10), spacing: 4,
            insets: EdgeInsets(top: 8, left: 10, bottom: 8, right: 10))
        let a = View()
        let b = View()
        stack.addArrangedSubview(a)
        stack.addArrangedSubview(b)
        // Plain views have no intrinsic size: their heights are the app's constraints.
        LayoutConstraint.activate([
            a.heightAnchor.constraint(equalToConstant: 30), b.heightAnchor.constraint(equalToConstant: 50),
        ])
        #expect(stack.fittingSize(width: 200) == Size(width: 200, height: 8 + 30 + 4 + 50 + 8))
        // Set to that size, the stack places them.
        stack.frame.size.height = 100
        let window = Window(size: Size(width: 300, height: 300))
        window.addSubview(stack)
        window.layoutIfNeeded()
        #expect(a.frame == Rect(x: 10, y: 8, width: 180, height: 30))
        #expect(b.frame == Rect(x: 10, y: 42, width: 180, height: 50))
    }
}

@MainActor
@Suite struct ResizeTests {
    @Test func aFillingViewFollowsItsSuperviewThroughResizes() throws {
        let window = Window(size: Size(width: 300, height: 200))
        let main = View()
        main.fillsSuperview = true
        window.addSubview(main)
        try window.prepareFrame()
        #expect(main.frame == Rect(x: 0, y: 0, width: 300, height: 200))
        window.resize(to: Size(width: 640, height: 480))
        try window.prepareFrame()
        #expect(main.frame == Rect(x: 0, y: 0, width: 640, height: 480))
    }
    /// A superview is referenced unowned (no side table on every parent): when it goes while a
    /// subview lives on elsewhere, the subview's link is cleared, never left dangling.
    @Test func aSubviewThatOutlivesItsSuperviewHasNone() {
        let child = Label(text: "kept")
        var parent: View? = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        parent?.addSubview(child)
        #expect(child.superview === parent)
        parent = nil
        #expect(child.superview == nil)
        #expect(child.window == nil)
        let other = View()
        other.addSubview(child)
        #expect(child.superview === other)
    }
}
