import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayViews
import Testing

/// The routing roles as the window sees them: any view that adopts a role's protocol takes it,
/// and a view that does not is never asked.
@MainActor
@Suite struct InputRolesTests {
    @MainActor
    /// A plain view (no scroll view) that intercepts fingers but not the mouse, logging what the
    /// window sends it.
    final class Catcher: View, TouchInterceptor {
        var log: [String] = []
        func interceptsTouches(from source: Touch.Source) -> Bool { source == .finger }
        func interceptedTouchBegan(_ touch: Touch, target: View?) { log.append("began on \(target?.name ?? "nil")") }
        func interceptedTouchMoved(_ touch: Touch) { log.append("moved") }
        func interceptedTouchEnded(_ touch: Touch) { log.append("ended") }
        func interceptedTouchCancelled(_ touch: Touch) { log.append("cancelled") }
        func interceptedTouchTargetWillLeave(_ touch: Touch) { log.append("target leaves") }
    }

    @Test func aViewAdoptingTouchInterceptorTakesTheFingersLandingInIt() {
        let window = Window(size: Size(width: 200, height: 200))
        let catcher = Catcher(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let content = Button(title: "OK", frame: Rect(x: 50, y: 50, width: 50, height: 50))
        content.name = "content"
        window.addSubview(catcher)
        catcher.addSubview(content)
        let p = Point(x: 60, y: 60)
        window.handle(InputEvent(time: 0, .touchDown(id: 1, position: p)))
        window.handle(InputEvent(time: 0.01, .touchMotion(id: 1, position: Point(x: 62, y: 60))))
        window.handle(InputEvent(time: 0.02, .touchUp(id: 1)))
        #expect(catcher.log == ["began on content", "moved", "ended"])
        #expect(content.tapCount == 0)  // the catcher told it nothing
        // The mouse is not the catcher's: a click goes straight to the content.
        window.handle(InputEvent(time: 0.1, .pointerEnter(position: p)))
        window.handle(InputEvent(time: 0.11, .pointerButton(.left, pressed: true)))
        #expect(content.isHighlighted)
        window.handle(InputEvent(time: 0.12, .pointerButton(.left, pressed: false)))
        #expect(content.tapCount == 1 && catcher.log.count == 3)
        // The content leaves under a finger: the catcher keeps the gesture and is told.
        catcher.log = []
        window.handle(InputEvent(time: 0.2, .touchDown(id: 2, position: p)))
        content.removeFromSuperview()
        window.handle(InputEvent(time: 0.21, .touchMotion(id: 2, position: Point(x: 70, y: 60))))
        window.handle(InputEvent(time: 0.22, .touchCancel))
        #expect(catcher.log == ["began on content", "target leaves", "moved", "cancelled"])
    }

    @MainActor
    final class TopTarget: View, ScrollToTopTarget {
        var takesScrollToTop = true
        var performed = 0
        func performScrollToTop() { performed += 1 }
    }

    @Test func scrollToTopGoesToTheOneVisibleViewThatTakesIt() {
        let window = Window(size: Size(width: 200, height: 200))
        window.scrollToTopRule = .onlyCandidate
        let a = TopTarget(frame: Rect(x: 0, y: 0, width: 100, height: 200))
        let b = TopTarget(frame: Rect(x: 100, y: 0, width: 100, height: 200))
        window.addSubview(a)
        window.addSubview(b)
        #expect(!window.requestScrollToTop())  // two take it: neither does
        b.takesScrollToTop = false
        #expect(window.requestScrollToTop())
        b.takesScrollToTop = true
        b.isHidden = true
        #expect(window.requestScrollToTop())
        #expect(a.performed == 2 && b.performed == 0)
    }

    /// The larger screens' rule (a desktop window's default): the nearest the top takes it, of
    /// those as near the innermost; one hidden by a clipping ancestor is not a candidate.
    @Test func scrollToTopGoesToTheVisibleViewNearestTheTopTheInnermostOfATie() {
        let window = Window(size: Size(width: 200, height: 400))
        #expect(window.scrollToTopRule == .nearest)
        let outer = TopTarget(frame: Rect(x: 0, y: 0, width: 200, height: 400))
        let inner = TopTarget(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let lower = TopTarget(frame: Rect(x: 0, y: 150, width: 200, height: 100))
        window.addSubview(outer)
        outer.addSubview(inner)
        outer.addSubview(lower)
        #expect(window.requestScrollToTop())
        #expect(inner.performed == 1 && outer.performed == 0 && lower.performed == 0)
        inner.takesScrollToTop = false
        #expect(window.requestScrollToTop())
        #expect(outer.performed == 1 && lower.performed == 0)
        // The phone's rule with a view clipped out of sight by its (clipping) parent: it does
        // not count, so the one left takes it.
        window.scrollToTopRule = .onlyCandidate
        outer.takesScrollToTop = false
        let box = View(frame: Rect(x: 0, y: 300, width: 200, height: 50))
        box.clipsToBounds = true
        let clipped = TopTarget(frame: Rect(x: 0, y: 60, width: 200, height: 50))
        window.addSubview(box)
        box.addSubview(clipped)
        #expect(window.requestScrollToTop())
        #expect(lower.performed == 1 && clipped.performed == 0)
        box.clipsToBounds = false
        #expect(!window.requestScrollToTop())  // now it shows (below the box): two candidates
    }

    /// The press that activates a window (it was not key, became key, and nothing happened in
    /// between) is only that; the next one is an ordinary press.
    @Test func thePressThatActivatesAWindowIsToldApart() {
        let window = Window(size: Size(width: 200, height: 200))
        window.handle(InputEvent(time: 0, .pointerEnter(position: Point(x: 10, y: 10))))
        window.isKeyWindow = false
        window.isKeyWindow = true
        window.handle(InputEvent(time: 1, .pointerButton(.left, pressed: true)))
        #expect(window.isActivatingPress)
        window.handle(InputEvent(time: 1.1, .pointerButton(.left, pressed: false)))
        window.handle(InputEvent(time: 2, .pointerButton(.left, pressed: true)))
        #expect(!window.isActivatingPress)
        window.handle(InputEvent(time: 2.1, .pointerButton(.left, pressed: false)))
        // Activated by the keyboard (Alt+Tab), then the pointer moves in: not an activating press.
        window.isKeyWindow = false
        window.isKeyWindow = true
        window.handle(InputEvent(time: 3, .pointerMotion(position: Point(x: 20, y: 10))))
        window.handle(InputEvent(time: 3.1, .pointerButton(.left, pressed: true)))
        #expect(!window.isActivatingPress)
    }

    @MainActor
    final class KeyTaker: View, KeyboardScrollTarget {
        var acceptsKeyboardScrolling: Bool
        var keys = 0
        init(accepts: Bool) {
            acceptsKeyboardScrolling = accepts
            super.init()
        }
        override func handleInput(_ event: InputEvent) -> Bool {
            keys += 1
            return true
        }
    }

    @Test func keysWithNothingFocusedGoToTheFirstViewTakingThemNearestTheRoot() {
        let window = Window(size: Size(width: 200, height: 200))
        let declines = KeyTaker(accepts: false)
        let outer = KeyTaker(accepts: true)
        let inner = KeyTaker(accepts: true)
        window.addSubview(declines)
        window.addSubview(outer)
        declines.addSubview(inner)
        window.handle(InputEvent(time: 0, .key(.down, pressed: true, modifiers: [])))
        #expect(declines.keys == 0 && outer.keys == 1 && inner.keys == 0)
    }
}
