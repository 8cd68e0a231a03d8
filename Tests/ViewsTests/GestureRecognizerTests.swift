import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayViews
import Testing

/// Writes down every recognizer state change (as `name:state`) and every touch a view hears.
@MainActor
final class GestureLog: WindowObserver {
    var states: [String] = []
    var times: [Double] = []
    func window(_ window: Window, gestureRecognizer: GestureRecognizer, didChangeTo state: GestureRecognizer.State) {
        states.append("\(gestureRecognizer.name ?? "?"):\(state.rawValue)")
        times.append(window.now)
    }
}

/// A view that logs what it hears of touches.
@MainActor
final class TouchLogView: View {
    var log: [String] = []
    override func touchesBegan(_ touches: [Touch]) { log.append("began") }
    override func touchesMoved(_ touches: [Touch]) { log.append("moved") }
    override func touchesEnded(_ touches: [Touch]) { log.append("ended") }
    override func touchesCancelled(_ touches: [Touch]) { log.append("cancelled") }
}

/// A delegate whose answers a test sets.
@MainActor
final class Coordinator: GestureRecognizerDelegate {
    var simultaneous = false
    var shouldBegin = true
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { shouldBegin }
    func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool { simultaneous }
}

/// A window with one 200×200 view at (100, 100) and fingers to drive it.
@MainActor
struct GestureStage {
    let window = Window(size: Size(width: 400, height: 400))
    let view = TouchLogView(frame: Rect(x: 100, y: 100, width: 200, height: 200))
    let log = GestureLog()

    init() {
        window.addSubview(view)
        window.addObserver(log)
    }

    func add<G: GestureRecognizer>(_ g: G, named name: String, to target: View? = nil) -> G {
        g.name = name
        (target ?? view).addGestureRecognizer(g)
        return g
    }

    func down(_ id: Int, _ x: Double, _ y: Double, at t: Double) {
        window.handle(InputEvent(time: t, .touchDown(id: id, position: Point(x: x, y: y))))
    }
    func down(_ x: Double, _ y: Double, at t: Double) { down(0, x, y, at: t) }
    func move(_ id: Int, _ x: Double, _ y: Double, at t: Double) {
        window.handle(InputEvent(time: t, .touchMotion(id: id, position: Point(x: x, y: y))))
    }
    func move(_ x: Double, _ y: Double, at t: Double) { move(0, x, y, at: t) }
    func up(_ id: Int = 0, at t: Double) { window.handle(InputEvent(time: t, .touchUp(id: id))) }
    /// Lets the clock reach `t` (timers due by then fire).
    func wait(until t: Double) { window.advanceClock(to: t) }
    func tap(_ x: Double, _ y: Double, at t: Double, id: Int = 0) {
        down(id, x, y, at: t)
        up(id, at: t + 0.05)
    }
}

@MainActor
@Suite struct TapRecognizerTests {
    @Test func aTapIsRecognizedAsItLiftsAndItsViewGetsACancelInsteadOfTheEnd() {
        let s = GestureStage()
        var fired = 0
        let tap = s.add(TapGestureRecognizer { _ in fired += 1 }, named: "tap")
        s.tap(150, 150, at: 1)
        #expect(s.log.states == ["tap:ended", "tap:possible"])
        #expect(s.log.times == [1.05, 1.05])
        #expect(fired == 1)
        // The view had the began at once (nothing delays it); its end was held while the tap
        // could still be recognized, and became a cancel when it was.
        #expect(s.view.log == ["began", "cancelled"])
        #expect(tap.state == .possible && tap.numberOfTouches == 0)
        #expect(tap.location(in: s.view) == Point(x: 50, y: 50))
    }

    @Test func theMouseButtonTapsAsAFingerDoesUnlessTheRecognizerTakesFingersOnly() {
        let s = GestureStage()
        let tap = s.add(TapGestureRecognizer(), named: "tap")
        func click(at t: Double) {
            s.window.handle(InputEvent(time: t, .pointerMotion(position: Point(x: 150, y: 150))))
            s.window.handle(InputEvent(time: t, .pointerButton(.left, pressed: true)))
            s.window.handle(InputEvent(time: t + 0.05, .pointerButton(.left, pressed: false)))
        }
        click(at: 1)
        #expect(s.log.states == ["tap:ended", "tap:possible"])
        tap.allowedTouchSources = [.finger]
        s.log.states = []
        s.view.log = []
        click(at: 2)
        #expect(s.log.states.isEmpty && s.view.log == ["began", "ended"])
    }

    @Test func aFingerThatWandersFailsTheTapAndTheViewGetsItsEnd() {
        let s = GestureStage()
        _ = s.add(TapGestureRecognizer(), named: "tap")
        s.down(150, 150, at: 1)
        s.move(158, 150, at: 1.02)  // within 10 px: still a tap
        #expect(s.log.states.isEmpty)
        s.move(161, 150, at: 1.04)
        #expect(s.log.states == ["tap:failed"])
        s.up(at: 1.06)
        #expect(s.log.states == ["tap:failed", "tap:possible"])
        #expect(s.view.log == ["began", "moved", "moved", "ended"])
    }

    @Test func aTapHeldTooLongOrWithTooManyFingersFails() {
        let s = GestureStage()
        let tap = s.add(TapGestureRecognizer(), named: "tap")
        s.down(150, 150, at: 1)
        s.up(at: 1.36)
        #expect(s.log.states == ["tap:failed", "tap:possible"])
        s.log.states = []
        s.down(0, 150, 150, at: 2)
        s.down(1, 170, 150, at: 2.01)
        #expect(s.log.states == ["tap:failed"])
        s.up(0, at: 2.05)
        s.up(1, at: 2.06)
        #expect(s.log.states == ["tap:failed", "tap:possible"])
        // Two fingers required: two fingers down together, lifted one after the other.
        tap.numberOfTouchesRequired = 2
        s.log.states = []
        s.down(0, 150, 150, at: 3)
        s.down(1, 170, 150, at: 3.01)
        s.up(0, at: 3.05)
        #expect(s.log.states.isEmpty)
        s.up(1, at: 3.06)
        #expect(s.log.states == ["tap:ended", "tap:possible"])
        #expect(tap.location(in: nil) == Point(x: 160, y: 150))
    }

    @Test func aDoubleTapNeedsTheSecondTapToEndInTimeAndNearTheFirst() {
        let s = GestureStage()
        let double = s.add(TapGestureRecognizer(), named: "double")
        double.numberOfTapsRequired = 2
        s.tap(150, 150, at: 1)
        #expect(s.log.states.isEmpty && double.tapsCompleted == 1)
        // The view's first end waits: the double tap may still take the touch.
        #expect(s.view.log == ["began"])
        s.tap(155, 152, at: 1.2)
        #expect(s.log.states == ["double:ended", "double:possible"])
        #expect(s.log.times == [1.25, 1.25])
        // The first touch's end was still held when the second began; both end in cancels:
        // the recognizer took them.
        #expect(s.view.log == ["began", "began", "cancelled", "cancelled"])

        // One tap alone: the recognizer fails 0.30 s after it ended, and the view's end comes then.
        s.log.states = []
        s.view.log = []
        s.tap(150, 150, at: 3)
        s.wait(until: 3.2)
        #expect(s.log.states.isEmpty && s.view.log == ["began"])
        s.wait(until: 3.35)
        #expect(s.log.states == ["double:failed", "double:possible"])
        #expect(s.log.times.suffix(2) == [3.35, 3.35])
        #expect(s.view.log == ["began", "ended"])

        // A second tap too far away fails the sequence at once.
        s.log.states = []
        s.tap(150, 150, at: 5)
        s.down(150, 200, at: 5.1)
        #expect(s.log.states == ["double:failed"])
        s.up(at: 5.15)
        #expect(s.log.states == ["double:failed", "double:possible"])
    }

    @Test func aSingleTapThatRequiresTheDoubleToFailWaitsForIt() {
        let s = GestureStage()
        let double = s.add(TapGestureRecognizer(), named: "double")
        double.numberOfTapsRequired = 2
        let single = s.add(TapGestureRecognizer(), named: "single")
        single.require(toFail: double)
        s.tap(150, 150, at: 1)
        // The single tap is complete but waits until the double tap fails, 0.30 s later.
        #expect(s.log.states.isEmpty)
        s.wait(until: 1.35)
        #expect(s.log.states == ["double:failed", "single:ended", "single:possible", "double:possible"])
        #expect(s.view.log == ["began", "cancelled"])

        // A double tap: the double is recognized, the single (waiting on it) fails.
        s.log.states = []
        s.tap(150, 150, at: 2)
        s.tap(150, 150, at: 2.2)
        // The double resets as its last finger lifts; the single, failed, when that finger has
        // been taken from it too.
        #expect(s.log.states == ["double:ended", "single:failed", "double:possible", "single:possible"])
        // The view under them had both taps cancelled: the first tap's end, held for both,
        // reached it as an end when the single failed before the double took its touches.
        #expect(s.view.log == ["began", "cancelled", "began", "began", "cancelled", "cancelled"])
    }

    /// A control's own press comes before an ancestor's single tap recognizer (UIKit's rule
    /// since iOS 6): a "tap the background" recognizer leaves a button and a switch working,
    /// and still recognizes taps beside them. A double tap above the button still hears its
    /// touches.
    @Test func aButtonsTapIsTheButtonsNotAnAncestorsTapRecognizers() {
        let s = GestureStage()
        let button = Button(frame: Rect(x: 20, y: 20, width: 100, height: 44))
        var pressed = 0
        button.onTap = { pressed += 1 }
        let toggle = Switch(frame: Rect(x: 20, y: 100, width: 60, height: 36))
        s.view.addSubview(button)
        s.view.addSubview(toggle)
        var background = 0
        _ = s.add(TapGestureRecognizer { _ in background += 1 }, named: "background")
        let double = s.add(TapGestureRecognizer(), named: "double")
        double.numberOfTapsRequired = 2
        s.tap(150, 140, at: 1)
        s.wait(until: 1.5)
        s.tap(140, 210, at: 2)
        s.wait(until: 2.5)
        #expect(pressed == 1)
        #expect(toggle.isOn)
        #expect(background == 0)
        // A tap beside them is the background's.
        s.tap(250, 250, at: 3)
        s.wait(until: 3.5)
        #expect(background == 1 && pressed == 1)
        // The double tap above the button heard the button's taps (and failed each time).
        #expect(s.log.states.filter { $0 == "double:failed" }.count == 3, "\(s.log.states)")
    }

    /// A tap of several fingers is where its fingers were, their centroid, not the last
    /// finger to lift.
    @Test func aTwoFingerTapIsAtItsFingersCentroid() {
        let s = GestureStage()
        var seen: Point?
        let tap = s.add(TapGestureRecognizer { seen = $0.location(in: nil) }, named: "two")
        tap.numberOfTouchesRequired = 2
        s.down(0, 120, 120, at: 1)
        s.down(1, 280, 120, at: 1.01)
        s.move(1, 282, 124, at: 1.03)
        s.up(0, at: 1.05)
        s.up(1, at: 1.06)
        #expect(seen == Point(x: 201, y: 122))
        #expect(tap.location(in: s.view) == Point(x: 101, y: 22))
    }
}

@MainActor
@Suite struct LongPressAndSwipeTests {
    @Test func aLongPressBeginsAfterHalfASecondFollowsTheFingerAndEndsAsItLifts() {
        let s = GestureStage()
        var locations: [Point] = []
        let press = s.add(LongPressGestureRecognizer { g in locations.append(g.location(in: nil)) }, named: "press")
        s.down(150, 150, at: 1)
        s.move(155, 150, at: 1.2)
        s.wait(until: 1.49)
        #expect(s.log.states.isEmpty)
        s.wait(until: 1.5)
        #expect(s.log.states == ["press:began"] && s.log.times == [1.5])
        // Once begun it may move anywhere.
        s.move(250, 200, at: 1.6)
        s.up(at: 1.7)
        #expect(s.log.states == ["press:began", "press:changed", "press:ended", "press:possible"])
        #expect(locations == [Point(x: 155, y: 150), Point(x: 250, y: 200), Point(x: 250, y: 200)])
        #expect(s.view.log == ["began", "moved", "cancelled"])
        #expect(press.state == .possible)
    }

    @Test func aPressLiftedEarlyOrMovedTooFarFails() {
        let s = GestureStage()
        _ = s.add(LongPressGestureRecognizer(), named: "press")
        s.down(150, 150, at: 1)
        s.up(at: 1.3)
        #expect(s.log.states == ["press:failed", "press:possible"])
        s.log.states = []
        s.down(150, 150, at: 2)
        s.move(150, 161, at: 2.1)
        #expect(s.log.states == ["press:failed"])
        s.wait(until: 3)
        s.up(at: 3)
        #expect(s.log.states == ["press:failed", "press:possible"])
    }

    @Test func aSwipeIsRecognizedAtFiftyPixelsInItsDirectionAndFailsOtherwise() {
        let s = GestureStage()
        let swipe = s.add(SwipeGestureRecognizer(), named: "swipe")
        swipe.direction = [.left, .right]
        s.down(150, 150, at: 1)
        s.move(170, 152, at: 1.02)
        s.move(199, 155, at: 1.04)
        #expect(s.log.states.isEmpty)
        s.move(201, 155, at: 1.06)
        #expect(s.log.states == ["swipe:ended"])
        s.up(at: 1.1)
        #expect(s.log.states == ["swipe:ended", "swipe:possible"])
        // Downwards: not an allowed direction.
        s.log.states = []
        s.down(150, 150, at: 2)
        s.move(152, 165, at: 2.02)
        #expect(s.log.states == ["swipe:failed"])
        s.up(at: 2.1)
        // Too slow: half a second passes before it travels far enough.
        s.log.states = []
        s.down(150, 150, at: 3)
        s.move(180, 150, at: 3.3)
        s.wait(until: 3.5)
        #expect(s.log.states == ["swipe:failed"])
        s.move(220, 150, at: 3.6)
        s.up(at: 3.7)
        #expect(s.log.states == ["swipe:failed", "swipe:possible"])
    }
}

@MainActor
@Suite struct PanAndPinchRecognizerTests {
    @Test func aPanBeginsAtTheSlopAndMeasuresFromThere() {
        let s = GestureStage()
        var translations: [Point] = []
        let pan = s.add(
            PanGestureRecognizer { g in translations.append((g as! PanGestureRecognizer).translation(in: nil)) },
            named: "pan")
        s.down(150, 150, at: 1)
        s.move(158, 150, at: 1.01)
        #expect(s.log.states.isEmpty)
        s.move(170, 150, at: 1.02)  // crosses 10 px at x = 160
        s.move(190, 150, at: 1.03)
        s.up(at: 1.04)
        #expect(s.log.states == ["pan:began", "pan:changed", "pan:ended", "pan:possible"])
        #expect(translations == [Point(x: 10, y: 0), Point(x: 30, y: 0), Point(x: 30, y: 0)])
        #expect(s.view.log == ["began", "moved", "cancelled"])
        #expect(pan.translation(in: nil) == .zero)
    }

    @Test func aTwoFingerPanWaitsForTheSecondFingerAndEndsWhenOneLifts() {
        let s = GestureStage()
        let pan = s.add(PanGestureRecognizer(), named: "pan")
        pan.minimumNumberOfTouches = 2
        s.down(0, 150, 150, at: 1)
        s.move(0, 180, 150, at: 1.02)
        #expect(s.log.states.isEmpty)
        s.down(1, 180, 200, at: 1.03)
        s.move(1, 181, 200, at: 1.04)  // the centroid moved half a pixel since the slop: begins
        #expect(s.log.states == ["pan:began"])
        #expect(pan.translation(in: nil) == .zero)
        s.move(0, 180, 170, at: 1.05)
        #expect(pan.translation(in: nil) == Point(x: 0, y: 10))
        s.up(1, at: 1.06)
        #expect(s.log.states == ["pan:began", "pan:changed", "pan:ended"])
        s.up(0, at: 1.07)
        #expect(s.log.states.last == "pan:possible")
        // Three fingers where two at most are allowed: it fails.
        pan.maximumNumberOfTouches = 2
        s.log.states = []
        s.down(0, 150, 150, at: 2)
        s.down(1, 160, 150, at: 2.01)
        s.down(2, 170, 150, at: 2.02)
        #expect(s.log.states == ["pan:failed"])
    }

    @Test func aPansVelocityIsTheFingersSpeed() {
        let s = GestureStage()
        let pan = s.add(PanGestureRecognizer(), named: "pan")
        s.down(150, 150, at: 1)
        for i in 1...10 { s.move(150, 150 + 10 * Double(i), at: 1 + 0.01 * Double(i)) }
        // 10 px every 10 ms: 1000 px/s downwards.
        #expect(abs(pan.velocity(in: nil).y - 1000) < 1)
        #expect(abs(pan.velocity(in: nil).x) < 1e-9)
        pan.setTranslation(.zero, in: nil)
        s.move(150, 270, at: 1.11)
        #expect(pan.translation(in: nil) == Point(x: 0, y: 20))
        s.up(at: 1.12)
    }

    /// A pan's velocity as its last finger lifts is that finger's own: a thumb resting while
    /// another finger swiped throws nothing (the centroid's motion, which the swipe made, was
    /// read as half the swipe's speed), and two fingers swiped and lifted together throw
    /// their speed, as one finger does.
    @Test func aPansLastFingerThrowsItsOwnSpeed() {
        func ending(swipes: [Int]) -> Point? {
            let s = GestureStage()
            var velocity: Point?
            _ = s.add(
                PanGestureRecognizer { g in
                    if g.state == .ended { velocity = (g as! PanGestureRecognizer).velocity(in: nil) }
                }, named: "pan")
            s.down(0, 100, 150, at: 1)
            s.down(1, 200, 150, at: 1.005)
            for i in 1...10 {
                for id in swipes { s.move(id, 100 * Double(id + 1), 150 + 30 * Double(i), at: 1 + 0.01 * Double(i)) }
            }
            s.up(1, at: 1.1)
            s.up(0, at: 1.104)
            #expect(s.log.states.contains("pan:ended"))
            return velocity
        }
        // 30 px every 10 ms: 3000 px/s.
        #expect(ending(swipes: [1]) == .zero)
        #expect(ending(swipes: [0]).map { abs($0.y - 3000) < 1 && $0.x == 0 } == true)
        #expect(ending(swipes: [0, 1]).map { abs($0.y - 3000) < 1 && $0.x == 0 } == true)
    }

    @Test func anEdgePanStartsOnlyAtItsEdgeAndMovingInwards() {
        let s = GestureStage()
        let edge = s.add(ScreenEdgePanGestureRecognizer(), named: "edge", to: s.window)
        edge.edges = .left
        s.down(5, 200, at: 1)
        s.move(30, 205, at: 1.02)
        #expect(s.log.states == ["edge:began"])
        s.up(at: 1.03)
        s.log.states = []
        // Away from the edge: fails at once.
        s.down(100, 200, at: 2)
        #expect(s.log.states == ["edge:failed"])
        s.up(at: 2.05)
        // At the edge but moving along it: fails at the slop.
        s.log.states = []
        s.down(5, 200, at: 3)
        s.move(8, 230, at: 3.02)
        #expect(s.log.states == ["edge:failed"])
        s.up(at: 3.05)
    }

    @Test func aPinchBeginsAsTheFingersSpreadAndItsScaleIsTheirDistanceRatio() {
        let s = GestureStage()
        var scales: [Double] = []
        let pinch = s.add(
            PinchGestureRecognizer { g in scales.append((g as! PinchGestureRecognizer).scale) }, named: "pinch")
        s.down(0, 150, 200, at: 1)
        s.down(1, 250, 200, at: 1.01)  // 100 px apart
        s.move(1, 255, 200, at: 1.02)
        #expect(s.log.states.isEmpty)
        s.move(1, 270, 200, at: 1.03)  // 120 px: 20 px more than it was
        s.move(0, 130, 200, at: 1.04)  // 140 px
        #expect(s.log.states == ["pinch:began", "pinch:changed"])
        #expect(scales == [1.2, 1.4])
        #expect(abs(pinch.velocity - 20) < 1e-9)  // 0.2 in 10 ms
        s.up(1, at: 1.05)
        #expect(s.log.states == ["pinch:began", "pinch:changed", "pinch:ended"])
        s.up(0, at: 1.06)
        #expect(pinch.state == .possible && pinch.scale == 1)
    }

    @Test func aTouchpadPinchOverTheViewDrivesItsPinchRecognizer() {
        let s = GestureStage()
        var scales: [Double] = []
        _ = s.add(PinchGestureRecognizer { g in scales.append((g as! PinchGestureRecognizer).scale) }, named: "pinch")
        s.window.handle(InputEvent(time: 1, .pointerEnter(position: Point(x: 150, y: 150))))
        s.window.handle(InputEvent(time: 1.01, .pinchBegin(fingers: 2)))
        s.window.handle(InputEvent(time: 1.02, .pinchUpdate(scale: 1.5, dx: 0, dy: 0)))
        s.window.handle(InputEvent(time: 1.03, .pinchEnd(cancelled: false)))
        #expect(s.log.states == ["pinch:began", "pinch:changed", "pinch:ended", "pinch:possible"])
        #expect(scales == [1, 1.5, 1.5])
        // Not over the view: the pinch goes elsewhere.
        s.log.states = []
        s.window.handle(InputEvent(time: 2, .pointerMotion(position: Point(x: 20, y: 20))))
        s.window.handle(InputEvent(time: 2.01, .pinchBegin(fingers: 2)))
        s.window.handle(InputEvent(time: 2.03, .pinchEnd(cancelled: false)))
        #expect(s.log.states.isEmpty)
    }
}

@MainActor
@Suite struct RecognizerArbitrationTests {
    @Test func theFirstToBeginMakesTheOthersFailUnlessTheyMayRecognizeTogether() {
        let s = GestureStage()
        let inner = s.add(PanGestureRecognizer(), named: "inner")
        _ = s.add(PanGestureRecognizer(), named: "outer", to: s.window)
        _ = s.add(LongPressGestureRecognizer(), named: "press", to: s.window)
        s.down(150, 150, at: 1)
        s.move(170, 150, at: 1.02)
        // The innermost view's recognizer hears first and begins: the others fail.
        #expect(s.log.states == ["inner:began", "outer:failed", "press:failed"])
        s.up(at: 1.03)
        // Allowed together (either side's delegate may say so), both pans run.
        let both = Coordinator()
        both.simultaneous = true
        inner.delegate = both
        s.log.states = []
        s.down(150, 150, at: 2)
        s.move(170, 150, at: 2.02)
        #expect(s.log.states == ["inner:began", "outer:began", "press:failed"])
        s.up(at: 2.03)

    }

    @Test func aDelegateThatSaysNoMakesItFailAndAnotherTakesTheTouch() {
        let s = GestureStage()
        let inner = s.add(PanGestureRecognizer(), named: "inner")
        _ = s.add(PanGestureRecognizer(), named: "outer", to: s.window)
        let no = Coordinator()
        no.shouldBegin = false
        inner.delegate = no
        s.down(150, 150, at: 1)
        s.move(170, 150, at: 1.02)
        #expect(s.log.states == ["inner:failed", "outer:began"])
        s.up(at: 1.03)
    }

    @Test func aRecognizerThatDelaysTouchesBeganHoldsTheViewsBeganUntilItFails() {
        let s = GestureStage()
        let pan = s.add(PanGestureRecognizer(), named: "pan")
        pan.delaysTouchesBegan = true
        s.down(150, 150, at: 1)
        s.move(152, 150, at: 1.01)
        #expect(s.view.log.isEmpty)
        s.up(at: 1.02)
        // It failed as the finger lifted: the view gets the whole touch then.
        #expect(s.view.log == ["began", "ended"])
        // When it recognizes the view never hears of the touch.
        s.view.log = []
        s.down(150, 150, at: 2)
        s.move(180, 150, at: 2.02)
        s.up(at: 2.03)
        #expect(s.view.log.isEmpty)
    }

    @Test func withoutCancelsTouchesInViewTheViewKeepsItsTouch() {
        let s = GestureStage()
        let pan = s.add(PanGestureRecognizer(), named: "pan")
        pan.cancelsTouchesInView = false
        s.down(150, 150, at: 1)
        s.move(180, 150, at: 1.02)
        s.up(at: 1.03)
        #expect(s.view.log == ["began", "moved", "ended"])
    }

    @Test func disablingARecognizerMidGestureCancelsItAndADisabledOneHearsNothing() {
        let s = GestureStage()
        let pan = s.add(PanGestureRecognizer(), named: "pan")
        s.down(150, 150, at: 1)
        s.move(180, 150, at: 1.02)
        pan.isEnabled = false
        #expect(s.log.states == ["pan:began", "pan:cancelled"])
        s.move(190, 150, at: 1.03)
        s.up(at: 1.04)
        #expect(s.log.states == ["pan:began", "pan:cancelled", "pan:possible"])
        s.log.states = []
        s.down(150, 150, at: 2)
        s.move(180, 150, at: 2.02)
        s.up(at: 2.03)
        #expect(s.log.states.isEmpty)
        #expect(s.view.log.suffix(3) == ["began", "moved", "ended"])
    }

    @Test func aRecognizerWhoseViewLeavesStopsAndTheNextGestureStartsAfresh() {
        let s = GestureStage()
        let child = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        s.view.addSubview(child)
        _ = s.add(PanGestureRecognizer(), named: "pan", to: child)
        s.down(150, 150, at: 1)
        s.move(180, 150, at: 1.02)
        child.removeFromSuperview()
        #expect(s.log.states == ["pan:began", "pan:cancelled", "pan:possible"])
        s.up(at: 1.03)
        #expect(!s.window.hasGesturesInProgress)
        s.view.addSubview(child)
        s.down(150, 150, at: 2)
        s.move(180, 150, at: 2.02)
        #expect(s.log.states.suffix(1) == ["pan:began"])
        s.up(at: 2.03)
    }
}

/// What a first review of the recognizers found, each a sequence that went wrong.
@MainActor
@Suite struct RecognizerReviewTests {
    /// Wayland gives the first finger id 0 every time: a double tap waiting on view A must not
    /// hold (or later cancel) a tap with the same id on button B elsewhere.
    @Test func aReusedTouchIdIsANewTouch() {
        let s = GestureStage()
        let double = s.add(TapGestureRecognizer(), named: "double")
        double.numberOfTapsRequired = 2
        let button = Button(title: "B", frame: Rect(x: 0, y: 0, width: 80, height: 80))
        s.window.addSubview(button)
        s.tap(150, 150, at: 1)  // on the view: the double tap waits
        s.tap(40, 40, at: 1.1)  // on the button, id 0 again
        #expect(button.tapCount == 1)  // at once, not when the double tap gives up
        s.tap(150, 150, at: 1.2)  // the second tap on the view
        #expect(s.log.states.prefix(1) == ["double:ended"])
        #expect(button.tapCount == 1)
    }

    /// A view's touch method that removes views (and so recognizers) while held touches are
    /// being released gets each touch once.
    @Test func aHeldEndIsDeliveredOnceEvenIfItsViewRemovesTheRecognizers() {
        let s = GestureStage()
        let double = s.add(TapGestureRecognizer(), named: "double")
        double.numberOfTapsRequired = 2
        let button = Button(title: "B", frame: Rect(x: 10, y: 10, width: 80, height: 80))
        s.view.addSubview(button)
        var taps = 0
        let panel = s.view
        button.onTap = { [unowned panel] in
            taps += 1
            panel.removeFromSuperview()
        }
        s.tap(150, 150, at: 1)  // on the button (window 110…190)
        s.wait(until: 1.5)  // the double tap fails: the held end goes to the button
        #expect(taps == 1)
        #expect(s.view.superview == nil)
    }

    @Test func aTripleTapMeasuresEachTapFromThePrevious() {
        let s = GestureStage()
        let triple = s.add(TapGestureRecognizer(), named: "triple")
        triple.numberOfTapsRequired = 3
        s.tap(150, 150, at: 1.0)  // ends 1.05
        s.tap(150, 150, at: 1.25)  // ends 1.30
        s.tap(150, 150, at: 1.45)  // ends 1.50: past 1.05 + 0.30, within 1.30 + 0.30
        #expect(s.log.states == ["triple:ended", "triple:possible"])
    }

    /// A single tap waiting for a double tap that leaves (its view removed) goes ahead.
    @Test func aRecognizerWaitingOnOneThatLeavesGoesAhead() {
        let s = GestureStage()
        let child = View(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        s.view.addSubview(child)
        let double = s.add(TapGestureRecognizer(), named: "double", to: child)
        double.numberOfTapsRequired = 2
        let single = s.add(TapGestureRecognizer(), named: "single")
        single.require(toFail: double)
        s.tap(150, 150, at: 1)
        #expect(s.log.states.isEmpty)
        child.removeFromSuperview()
        #expect(s.log.states.contains("single:ended"))
        #expect(!s.window.hasGesturesInProgress)
    }

    /// A touchpad pinch recognizer that would have to wait does not take the pinch.
    @Test func aTouchpadPinchThatMustWaitIsNotTaken() {
        let s = GestureStage()
        let double = s.add(TapGestureRecognizer(), named: "double")
        double.numberOfTapsRequired = 2
        let pinch = s.add(PinchGestureRecognizer(), named: "pinch")
        pinch.require(toFail: double)
        s.tap(150, 150, at: 1)  // the double tap is under way
        s.window.handle(InputEvent(time: 1.1, .pointerEnter(position: Point(x: 150, y: 150))))
        s.window.handle(InputEvent(time: 1.11, .pinchBegin(fingers: 2)))
        s.window.handle(InputEvent(time: 1.12, .pinchEnd(cancelled: false)))
        #expect(!s.log.states.contains("pinch:began"))
        s.wait(until: 2)
        s.window.handle(InputEvent(time: 2.01, .pinchBegin(fingers: 2)))
        s.window.handle(InputEvent(time: 2.02, .pinchEnd(cancelled: false)))
        #expect(s.log.states.suffix(3) == ["pinch:began", "pinch:ended", "pinch:possible"])
    }

    /// Ends held for a recognizer are cancelled when it recognizes, whether or not it cancels
    /// touches in view (UIKit's `delaysTouchesEnded`); without cancelling, the touch it
    /// recognized on ends as usual (a button under it fires once, not twice).
    @Test func heldEndsAreCancelledWhenTheRecognizerRecognizesEvenWithoutCancellingTouches() {
        let s = GestureStage()
        let double = s.add(TapGestureRecognizer(), named: "double")
        double.numberOfTapsRequired = 2
        double.cancelsTouchesInView = false
        s.tap(150, 150, at: 1)
        s.tap(150, 150, at: 1.2)
        #expect(s.log.states.first == "double:ended")
        #expect(s.view.log == ["began", "began", "cancelled", "ended"])
    }

    /// A recognizer whose action removes the screen under the finger: the button there gets a
    /// cancel and nothing after it (it does not fire). The tap is one that takes a button's
    /// taps too (a subclass that says it does not overlap a control's press).
    @Test func aTouchEndedByARecognizersActionGoesNoFurther() {
        final class PanelTap: TapGestureRecognizer {
            override var overlapsControlActions: Bool { false }
        }
        let s = GestureStage()
        let button = Button(title: "B", frame: Rect(x: 10, y: 10, width: 80, height: 80))
        s.view.addSubview(button)
        let panel = s.view
        let tap = PanelTap { _ in panel.removeFromSuperview() }
        tap.cancelsTouchesInView = false
        tap.delaysTouchesEnded = false
        s.view.addGestureRecognizer(tap)
        s.tap(150, 150, at: 1)
        #expect(panel.superview == nil)
        #expect(button.tapCount == 0 && !button.isHighlighted)
    }

    /// A view removed while a second finger is down on it and its first tap's end is held: it
    /// gets cancels, never an end.
    @Test func aLeavingViewGetsNoHeldEndReleased() {
        let s = GestureStage()
        let double = s.add(TapGestureRecognizer(), named: "double")
        double.numberOfTapsRequired = 2
        s.tap(150, 150, at: 1)  // held
        s.down(1, 160, 160, at: 1.1)  // a second finger on the view
        s.view.removeFromSuperview()
        #expect(!s.view.log.contains("ended"))
        #expect(s.view.log.filter { $0 == "cancelled" }.count == 2)
    }

    /// A view that leaves while its end is held gets a cancel then, and nothing later.
    @Test func aHeldEndIsCancelledWhenItsViewLeaves() {
        let s = GestureStage()
        let double = s.add(TapGestureRecognizer(), named: "double", to: s.window)
        double.numberOfTapsRequired = 2
        s.tap(150, 150, at: 1)
        #expect(s.view.log == ["began"])
        s.view.removeFromSuperview()
        #expect(s.view.log == ["began", "cancelled"])
        s.wait(until: 2)
        #expect(s.view.log == ["began", "cancelled"])
    }
}
