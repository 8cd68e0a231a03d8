import ScrollwayGeometry
import ScrollwayPhysics
import ScrollwayRaster
import ScrollwayViews
import Testing

/// `View.animate(withDuration:)`: properties along their curve at each frame's time, to the
/// pixel, and the rules for animations that meet (again, interrupted, removed, left).
@MainActor
@Suite struct ViewAnimationTests {
    /// A 200×100 window, white, its clock at 1 s, with a red 20×20 view at (10, 10).
    static func scene() -> (Window, CountingView) {
        let window = Window(size: Size(width: 200, height: 100))
        window.clearColor = .white
        let red = CountingView(frame: Rect(x: 10, y: 10, width: 20, height: 20), color: Color(rgb: 255, 0, 0))
        window.addSubview(red)
        window.advanceClock(to: 1)
        _ = try? Offscreen.render(window)
        return (window, red)
    }

    @Test func aMoveFollowsEaseInOutAndOnlyRecomposites() throws {
        let (window, red) = Self.scene()
        let draws = red.drawCount
        var finished: [Bool] = []
        red.animate(withDuration: 0.4) {
            red.frame = Rect(x: 170, y: 10, width: 20, height: 20)
        } completion: {
            finished.append($0)
        }
        // Nothing moves before a frame shows it; the end is known.
        #expect(red.frame.minX == 10)
        #expect(red.animationTargets?.center == Point(x: 180, y: 20))
        #expect(window.hasViewAnimations)
        // A quarter-ish of the way in time: x(s = 1/4) = 0.274375 of the time is y = 0.15625 of
        // the way (TimingCurveTests works it by hand): 10 + 0.15625·160 = 35.
        let canvas = try Offscreen.render(window, time: 1 + 0.4 * 0.274_375)
        #expect(abs(red.frame.minX - 35) < 1e-6)
        #expect(canvas.pixel(x: 34, y: 20) == Color.white.argb)
        #expect(canvas.pixel(x: 35, y: 20) == Color(rgb: 255, 0, 0).argb)
        #expect(canvas.pixel(x: 54, y: 20) == Color(rgb: 255, 0, 0).argb)
        #expect(canvas.pixel(x: 55, y: 20) == Color.white.argb)
        // Half the time, half the way: the curve is symmetric.
        try window.prepareFrame(time: 1.2)
        #expect(abs(red.frame.minX - 90) < 1e-9)
        #expect(finished.isEmpty)
        // Past the end: exactly there, finished, once.
        let end = try Offscreen.render(window, time: 1.45)
        #expect(red.frame == Rect(x: 170, y: 10, width: 20, height: 20))
        #expect(end.pixel(x: 175, y: 20) == Color(rgb: 255, 0, 0).argb)
        #expect(end.pixel(x: 15, y: 20) == Color.white.argb)
        #expect(finished == [true])
        #expect(!window.hasViewAnimations && !window.hasActiveAnimations)
        try window.prepareFrame(time: 2)
        #expect(finished == [true])
        #expect(red.animationTargets == nil)
        // Moved and composited, never drawn again.
        #expect(red.drawCount == draws)
    }

    @Test func aFadeBlendsAndAColourFromClearGrowsIn() throws {
        let (window, red) = Self.scene()
        let blue = View(frame: Rect(x: 100, y: 10, width: 20, height: 20))
        window.addSubview(blue)
        try window.prepareFrame(time: 1)
        window.animate(withDuration: 1, curve: .linear) {
            red.alpha = 0
            blue.backgroundColor = Color(rgb: 0, 0, 255)
        }
        let canvas = try Offscreen.render(window, time: 1.5)
        #expect(abs(red.alpha - 0.5) < 1e-12)
        // Red at half over white: 255, 127 or 128, the same.
        let p = canvas.pixel(x: 20, y: 20)
        #expect(p >> 16 & 0xFF == 255)
        #expect((127...128).contains(p >> 8 & 0xFF) && (127...128).contains(p & 0xFF))
        // From no colour: blue at half its opacity, mixed premultiplied (not darkened towards
        // black): over white, 127 or 128 red and green, full blue.
        #expect(blue.backgroundColor.map { abs($0.alpha - 0.5) < 1e-12 && $0.blue == 1 } == true)
        let q = canvas.pixel(x: 110, y: 20)
        #expect((127...128).contains(q >> 16 & 0xFF) && (127...128).contains(q >> 8 & 0xFF) && q & 0xFF == 255)
        try window.prepareFrame(time: 2)
        #expect(red.alpha == 0 && blue.backgroundColor == Color(rgb: 0, 0, 255))
        // Towards a clear colour, a colour fades without taking on the clear one's hue (mixed
        // straight, half red and half clear blue would be purple).
        blue.backgroundColor = Color(rgb: 255, 0, 0)
        window.animate(withDuration: 1, curve: .linear) {
            blue.backgroundColor = Color(red: 0, green: 0, blue: 1, alpha: 0)
        }
        try window.prepareFrame(time: 2.5)
        #expect(blue.backgroundColor == Color(red: 1, green: 0, blue: 0, alpha: 0.5))
    }

    @Test func aPropertyAnimatedAgainStartsWhereItStands() throws {
        let (window, red) = Self.scene()
        var first: [Bool] = []
        var second: [Bool] = []
        red.animate(withDuration: 1, curve: .linear) {
            red.center.x = 120
        } completion: {
            first.append($0)
        }
        try window.prepareFrame(time: 1.5)
        #expect(abs(red.center.x - 70) < 1e-9)
        red.animate(withDuration: 1, curve: .linear) {
            red.center.x = 20
        } completion: {
            second.append($0)
        }
        #expect(abs(red.center.x - 70) < 1e-9)
        try window.prepareFrame(time: 1.75)
        // From 70 towards 20, a quarter of the way: no jump back to 20 or on to 120.
        #expect(abs(red.center.x - 57.5) < 1e-9)
        #expect(first == [false] && second.isEmpty)
        try window.prepareFrame(time: 2.5)
        #expect(red.center.x == 20 && second == [true] && first == [false])
    }

    @Test func aValueSetMeanwhileStandsAndOtherPropertiesGoOn() throws {
        let (window, red) = Self.scene()
        var finished: [Bool] = []
        red.animate(withDuration: 1, curve: .linear) {
            red.center.y = 80
            red.alpha = 0.2
        } completion: {
            finished.append($0)
        }
        try window.prepareFrame(time: 1.5)
        red.center = Point(x: 150, y: 50)
        try window.prepareFrame(time: 1.75)
        #expect(red.center == Point(x: 150, y: 50))
        #expect(abs(red.alpha - 0.4) < 1e-9)
        #expect(finished.isEmpty)
        try window.prepareFrame(time: 2.1)
        #expect(red.center == Point(x: 150, y: 50) && red.alpha == 0.2)
        #expect(finished == [false])
    }

    @Test func aDelayHoldsTheStartAndRemovingJumpsToTheEnds() throws {
        let (window, red) = Self.scene()
        var finished: [Bool] = []
        red.animate(withDuration: 1, delay: 0.5, curve: .linear) {
            red.bounds.size.width = 60
        } completion: {
            finished.append($0)
        }
        try window.prepareFrame(time: 1.4)
        #expect(red.bounds.width == 20)
        try window.prepareFrame(time: 2)
        #expect(abs(red.bounds.width - 40) < 1e-9)
        red.removeAllAnimations()
        #expect(red.bounds.width == 60 && red.animationTargets == nil)
        try window.prepareFrame(time: 2.1)
        #expect(finished == [false])
        #expect(!window.hasActiveAnimations)
    }

    @Test func aCompletionMayStartTheNextAnimation() throws {
        let (window, red) = Self.scene()
        var steps: [String] = []
        red.animate(withDuration: 0.5, curve: .linear) {
            red.center.x = 120
        } completion: { _ in
            steps.append("there")
            red.animate(withDuration: 0.5, curve: .linear) {
                red.center.x = 20
            } completion: { _ in
                steps.append("back")
            }
        }
        try window.prepareFrame(time: 1.5)
        #expect(red.center.x == 120 && steps == ["there"])
        #expect(window.hasActiveAnimations)
        try window.prepareFrame(time: 1.75)
        #expect(abs(red.center.x - 70) < 1e-9)
        try window.prepareFrame(time: 2)
        #expect(red.center.x == 20 && steps == ["there", "back"])
        #expect(!window.hasActiveAnimations)
    }

    @Test func aViewThatLeavesIsPutAtItsEnds() throws {
        let (window, red) = Self.scene()
        var finished: [Bool] = []
        red.animate(withDuration: 1) {
            red.alpha = 0.3
        } completion: {
            finished.append($0)
        }
        try window.prepareFrame(time: 1.2)
        red.removeFromSuperview()
        try window.prepareFrame(time: 1.3)
        #expect(red.alpha == 0.3 && finished == [false])
        // Outside a window the change is made at once.
        var outside: [Bool] = []
        red.animate(withDuration: 1) {
            red.alpha = 1
        } completion: {
            outside.append($0)
        }
        #expect(red.alpha == 1 && outside == [true])
    }

    @Test func nothingToAnimateCompletesAtTheNextFrameAndNewViewsAppearAtOnce() throws {
        let (window, red) = Self.scene()
        var finished: [Bool] = []
        let added = View(frame: Rect(x: 50, y: 50, width: 10, height: 10))
        window.animate(withDuration: 5) {
            window.addSubview(added)
            added.alpha = 0.5
        } completion: {
            finished.append($0)
        }
        #expect(finished.isEmpty && added.alpha == 0.5)
        try window.prepareFrame(time: 1.01)
        #expect(finished == [true])
        #expect(red.frame.minX == 10 && !window.hasActiveAnimations)
    }

    /// A view that lays its one subview out across its width.
    final class Row: View {
        let bar = View()
        override init(frame: Rect) {
            super.init(frame: frame)
            addSubview(bar)
        }
        override func layoutSubviews() {
            bar.frame = Rect(x: 0, y: 0, width: bounds.width, height: 4)
        }
    }

    @Test func layoutRunInTheClosureIsAnimated() throws {
        let (window, _) = Self.scene()
        let row = Row(frame: Rect(x: 0, y: 60, width: 40, height: 10))
        window.addSubview(row)
        try window.prepareFrame(time: 1)
        #expect(row.bar.frame.width == 40)
        window.animate(withDuration: 1, curve: .linear) {
            row.frame.size.width = 140
            row.layoutIfNeeded()
        }
        try window.prepareFrame(time: 1.5)
        #expect(abs(row.bar.frame.width - 90) < 1e-9)
        #expect(abs(row.frame.width - 90) < 1e-9)
    }
}

@MainActor
@Suite struct ViewSpringAnimationTests {
    @Test func aSpringOvershootsAndSettlesAtTheEnd() throws {
        let (window, red) = ViewAnimationTests.scene()
        var finished: [Bool] = []
        red.animate(withDuration: 1, usingSpringWithDamping: 0.3) {
            red.center.x = 120
        } completion: {
            finished.append($0)
        }
        // From 20 to 120 on the spring: at its first peak, past 120 by the envelope there.
        let spring = SpringTiming(dampingRatio: 0.3, duration: 1)
        let peak = Double.pi / (spring.omega * (1 - 0.09).squareRoot())
        try window.prepareFrame(time: 1 + peak)
        #expect(abs(red.center.x - (20 + 100 * spring.progress(at: peak))) < 1e-9)
        #expect(red.center.x > 130)
        try window.prepareFrame(time: 2)
        #expect(red.center.x == 120 && finished == [true])
        // An opacity on a spring that overshoots stays within 0…1.
        red.animate(withDuration: 1, usingSpringWithDamping: 0.2) { red.alpha = 0.9 }
        for i in 1...20 {
            try window.prepareFrame(time: 2 + Double(i) / 20)
            #expect(red.alpha >= 0 && red.alpha <= 1)
        }
    }
}

/// UIKit's idiom for constraints: change a constant, then lay out inside the animation.
@MainActor
@Suite struct ConstraintAnimationTests {
    @Test func aConstraintsNewConstantLaidOutInTheClosureIsAnimated() throws {
        let (window, _) = ViewAnimationTests.scene()
        let box = View()
        box.translatesAutoresizingMaskIntoConstraints = false
        window.addSubview(box)
        let leading = box.leadingAnchor.constraint(equalTo: window.leadingAnchor, constant: 10)
        LayoutConstraint.activate([
            leading, box.topAnchor.constraint(equalTo: window.topAnchor, constant: 50),
            box.widthAnchor.constraint(equalToConstant: 30), box.heightAnchor.constraint(equalToConstant: 20),
        ])
        try window.prepareFrame(time: 1)
        #expect(box.frame == Rect(x: 10, y: 50, width: 30, height: 20))
        var finished: [Bool] = []
        leading.constant = 110
        window.animate(withDuration: 1, curve: .linear) {
            window.layoutIfNeeded()
        } completion: {
            finished.append($0)
        }
        #expect(box.frame.minX == 10)
        // The frame's layout pass does not put it at its end: the animation carries it.
        try window.prepareFrame(time: 1.5)
        #expect(abs(box.frame.minX - 60) < 1e-9)
        try window.prepareFrame(time: 1.75)
        #expect(abs(box.frame.minX - 85) < 1e-9)
        try window.prepareFrame(time: 2)
        #expect(box.frame.minX == 110 && finished == [true])
        // Its constraints still hold it: a later change lays it out as before.
        leading.constant = 20
        try window.prepareFrame(time: 2.1)
        #expect(box.frame == Rect(x: 20, y: 50, width: 30, height: 20))
    }

    @Test func anAutoreversedAnimationGoesThereAndBackAndEndsAtItsValues() throws {
        let (window, red) = ViewAnimationTests.scene()
        var finished: [Bool] = []
        red.animate(withDuration: 1, options: .autoreverse, curve: .linear) {
            red.center.x = 180
        } completion: {
            finished.append($0)
        }
        try window.prepareFrame(time: 1.5)
        #expect(abs(red.center.x - 100) < 1e-9)
        // A quarter of the way back: three quarters there.
        try window.prepareFrame(time: 2.25)
        #expect(abs(red.center.x - 140) < 1e-9 && finished.isEmpty)
        try window.prepareFrame(time: 2.9)
        #expect(abs(red.center.x - 36) < 1e-9)
        // Over after both ways, at the value the closure set (UIKit's model value).
        try window.prepareFrame(time: 3.01)
        #expect(red.center.x == 180 && finished == [true] && !window.hasActiveAnimations)
    }

    @Test func aRepeatingAnimationRunsUntilRemovedOrSet() throws {
        let (window, red) = ViewAnimationTests.scene()
        var finished: [Bool] = []
        red.animate(withDuration: 0.4, options: .repeat) {
            red.center.x = 180
        } completion: {
            finished.append($0)
        }
        // The third time round, at 0.274375 of its time: 0.15625 of the way (ease-in-out).
        try window.prepareFrame(time: 1 + 0.8 + 0.4 * 0.274_375)
        #expect(abs(red.center.x - (20 + 0.156_25 * 160)) < 1e-6)
        try window.prepareFrame(time: 1 + 40.2)
        #expect(abs(red.center.x - 100) < 1e-6 && finished.isEmpty && window.hasActiveAnimations)
        red.removeAllAnimations()
        #expect(red.center.x == 180 && red.animationTargets == nil)
        try window.prepareFrame(time: 42)
        #expect(finished == [false] && !window.hasActiveAnimations && !window.hasViewAnimations)

        // There and back, round and round, until a value set stops it where it is set.
        var again: [Bool] = []
        window.animate(withDuration: 1, options: [.repeat, .autoreverse], curve: .linear) {
            red.alpha = 0
        } completion: {
            again.append($0)
        }
        try window.prepareFrame(time: 42.25)
        #expect(abs(red.alpha - 0.75) < 1e-9)
        try window.prepareFrame(time: 43.5)
        #expect(abs(red.alpha - 0.5) < 1e-9)
        try window.prepareFrame(time: 44.25)
        #expect(abs(red.alpha - 0.75) < 1e-9)
        red.alpha = 0.3
        try window.prepareFrame(time: 44.5)
        #expect(red.alpha == 0.3 && again == [false])
    }
}
