import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// The delay/cancel sequences against a Button inside the content.
@MainActor
@Suite struct ArbitrationTests {
    func rigWithButton() -> (ScrollBench, Button) {
        let rig = ScrollBench()
        let b = Button(title: "Tap", frame: Rect(x: 100, y: 300, width: 190, height: 60))
        rig.content.addSubview(b)
        return (rig, b)
    }

    @Test func aQuickTapReachesTheButtonOnLift() {
        let (rig, b) = rigWithButton()
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 320)))
        #expect(!b.isHighlighted)
        rig.send(.touchUp(id: 1), at: 0.08)
        #expect(b.tapCount == 1)
        #expect(rig.callbacks.isEmpty)
    }

    @Test func aHeldTouchHighlightsAfter150ms() {
        let (rig, b) = rigWithButton()
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 320)))
        rig.advance(to: 0.149)
        #expect(!b.isHighlighted)
        rig.advance(to: 0.151)
        #expect(b.isHighlighted)
        rig.send(.touchUp(id: 1), at: 0.3)
        #expect(b.tapCount == 1 && !b.isHighlighted)
    }

    @Test func aQuickDragNeverReachesTheButton() {
        let (rig, b) = rigWithButton()
        var everHighlighted = false
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 330)))
        for i in 1...10 {
            rig.send(.touchMotion(id: 1, position: Point(x: 150, y: 330 - Double(i) * 6)), at: Double(i) * 0.01)
            everHighlighted = everHighlighted || b.isHighlighted
        }
        rig.send(.touchUp(id: 1))
        #expect(!everHighlighted && b.tapCount == 0)
        #expect(rig.callbacks.first == .willBeginDragging)
    }

    /// UIKit's default: a control keeps a touch it already has (`touchesShouldCancel(in:)` is
    /// false for controls), so a late drag on a button in a plain scroll view does not scroll.
    @Test func aLateDragOnAButtonKeepsItInAPlainScrollView() {
        let (rig, b) = rigWithButton()
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 330)))
        rig.advance(to: 0.2)
        #expect(b.isHighlighted)
        rig.send(.touchMotion(id: 1, position: Point(x: 150, y: 300)), at: 0.25)
        #expect(b.isHighlighted)
        #expect(!rig.scroll.isDragging && rig.scroll.contentOffset.y == 0)
        rig.send(.touchUp(id: 1), at: 0.5)
        #expect(b.tapCount == 1)  // the button kept the touch: it lifted inside, so it fires
    }

    /// A list cancels any content touch to scroll, a row's button's too (UITableView's override);
    /// so does any scroll view that overrides the hook the same way.
    @Test func aLateDragCancelsTheButtonAndScrollsInAList() {
        let button = Button(title: "Row action")
        #expect(ListView().touchesShouldCancel(in: button))
        #expect(!ScrollView().touchesShouldCancel(in: button))
        #expect(!ScrollView().touchesShouldCancel(in: TextField()))
        #expect(ScrollView().touchesShouldCancel(in: View()))
        let rig = ScrollBench(scrollView: CancellingScrollView())
        let b = Button(title: "Tap", frame: Rect(x: 100, y: 300, width: 190, height: 60))
        rig.content.addSubview(b)
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 330)))
        rig.advance(to: 0.2)
        #expect(b.isHighlighted)
        rig.send(.touchMotion(id: 1, position: Point(x: 150, y: 300)), at: 0.25)
        #expect(!b.isHighlighted)
        #expect(rig.scroll.isDragging)
        #expect(rig.scroll.contentOffset.y == 20)
        rig.send(.touchUp(id: 1), at: 0.5)
        #expect(b.tapCount == 0)
    }

    /// Content that is not a control is cancelled to scroll in any scroll view.
    @Test func aLateDragOnPlainContentScrolls() {
        let rig = ScrollBench()
        let tile = TouchRecorder(frame: Rect(x: 100, y: 300, width: 190, height: 60))
        rig.content.addSubview(tile)
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 330)))
        rig.advance(to: 0.2)
        rig.send(.touchMotion(id: 1, position: Point(x: 150, y: 300)), at: 0.25)
        #expect(rig.scroll.isDragging && rig.scroll.contentOffset.y == 20)
        #expect(tile.log == ["began", "cancelled"])
    }

    @Test func canCancelContentTouchesOffKeepsTheButton() {
        let (rig, b) = rigWithButton()
        rig.scroll.canCancelContentTouches = false
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 330)))
        rig.advance(to: 0.2)
        rig.send(.touchMotion(id: 1, position: Point(x: 150, y: 300)), at: 0.25)
        #expect(!rig.scroll.isDragging && rig.scroll.contentOffset.y == 0)
        rig.send(.touchUp(id: 1), at: 0.3)
        #expect(b.tapCount == 1)
    }

    @Test func withoutTheDelayTheButtonHighlightsAtOnce() {
        let (rig, b) = rigWithButton()
        rig.scroll.delaysContentTouches = false
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 320)))
        #expect(b.isHighlighted)
    }

    @Test func aTouchDuringAFastDecelerationStopsItAndIsNotATap() {
        let (rig, b) = rigWithButton()
        rig.drag(from: Point(x: 150, y: 800), to: Point(x: 150, y: 500), duration: 0.08)
        rig.advance(by: 0.1)
        #expect(rig.scroll.isDecelerating)
        let at = rig.scroll.contentOffset.y
        // Land on wherever the button is now... or not: the tap must not reach content anyway.
        rig.send(.touchDown(id: 2, position: Point(x: 150, y: 330)))
        #expect(!rig.scroll.isDecelerating)
        #expect(abs(rig.scroll.contentOffset.y - at) < 200)
        let stopped = rig.scroll.contentOffset.y
        rig.send(.touchUp(id: 2), at: rig.time + 0.05)
        rig.settle()
        #expect(rig.scroll.contentOffset.y == stopped)
        #expect(b.tapCount == 0)
    }

    /// The routing roles stay open on ScrollView: a subclass that declines touches leaves them to
    /// the content (no delay, no scrolling), and one that declines scroll-to-top and keys is not
    /// given them.
    @Test func aSubclassDecliningTheRoutingRolesIsHeard() {
        final class Still: ScrollView {
            override func interceptsTouches(from source: Touch.Source) -> Bool { false }
            override var takesScrollToTop: Bool { false }
            override var acceptsKeyboardScrolling: Bool { false }
        }
        let rig = ScrollBench(scrollView: Still())
        let b = Button(title: "Tap", frame: Rect(x: 100, y: 300, width: 190, height: 60))
        rig.content.addSubview(b)
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 320)))
        #expect(b.isHighlighted)  // at once: no scroll view delays it
        rig.send(.touchMotion(id: 1, position: Point(x: 150, y: 200)), at: 0.05)
        rig.send(.touchUp(id: 1), at: 0.1)
        #expect(rig.scroll.contentOffset.y == 0 && rig.callbacks.isEmpty)
        #expect(!rig.window.requestScrollToTop())
        rig.send(.key(.pageDown, pressed: true, modifiers: []), at: 0.2)
        rig.send(.key(.pageDown, pressed: false, modifiers: []), at: 0.25)
        rig.settle()
        #expect(rig.scroll.contentOffset.y == 0)
    }
}

@MainActor
/// A plain view that records the touch calls it gets (a run of moves is one "moved").
final class TouchRecorder: View {
    var log: [String] = []
    override func touchesBegan(_ touches: [Touch]) { log.append("began") }
    override func touchesMoved(_ touches: [Touch]) { if log.last != "moved" { log.append("moved") } }
    override func touchesEnded(_ touches: [Touch]) { log.append("ended") }
    override func touchesCancelled(_ touches: [Touch]) { log.append("cancelled") }
}

@MainActor
/// Cancels every content touch, as `ListView` (UITableView) does.
final class CancellingScrollView: ScrollView {
    override func touchesShouldCancel(in view: View) -> Bool { true }

    /// `touchesShouldCancel(in:)` is asked only where UIKit asks it: when the content has the
    /// touch, cancelling is allowed, and the drag would begin a scroll (once). Not for a quick
    /// drag the content never received, and never with `canCancelContentTouches` off.
    @Test func touchesShouldCancelIsAskedOnlyWhenItDecides() {
        final class Asking: ScrollView {
            var asked = 0
            override func touchesShouldCancel(in view: View) -> Bool {
                asked += 1
                return true
            }
        }
        func drag(after hold: Double, canCancel: Bool) -> Asking {
            let scroll = Asking()
            scroll.canCancelContentTouches = canCancel
            let rig = ScrollBench(scrollView: scroll)
            rig.content.addSubview(Button(title: "Tap", frame: Rect(x: 100, y: 300, width: 190, height: 60)))
            rig.send(.touchDown(id: 1, position: Point(x: 150, y: 330)))
            rig.advance(to: hold)
            for i in 1...10 {
                rig.send(
                    .touchMotion(id: 1, position: Point(x: 150, y: 330 - Double(i) * 6)), at: hold + Double(i) * 0.01)
            }
            rig.send(.touchUp(id: 1), at: hold + 0.2)
            return scroll
        }
        // Held past 150 ms, the button has the touch: asked once, as the slop is crossed.
        let held = drag(after: 0.2, canCancel: true)
        #expect(held.asked == 1 && held.contentOffset.y > 0, "\(held.asked) \(held.contentOffset)")
        // A quick drag: the button never had it.
        #expect(drag(after: 0.01, canCancel: true).asked == 0)
        // Cancelling not allowed: never asked.
        #expect(drag(after: 0.2, canCancel: false).asked == 0)
    }
}
