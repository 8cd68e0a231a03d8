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
