import RealModule
import ScrollwayGeometry
import ScrollwayPhysics
import ScrollwayRaster
import ScrollwayViews
import Testing

/// `ViewPropertyAnimator`: started, paused, scrubbed, reversed, continued, stopped and
/// finished, each checked against the positions the curves give at known times, on the red
/// 20×20 view of `ViewAnimationTests.scene()` (at x 10, the clock at 1 s) moved to x 170.
@MainActor
@Suite struct ViewPropertyAnimatorTests {
    static let end = Rect(x: 170, y: 10, width: 20, height: 20)

    @Test func startedItFollowsItsCurveAndCompletesAtTheEnd() throws {
        let (window, red) = ViewAnimationTests.scene()
        let draws = red.drawCount
        var ended: [ViewPropertyAnimator.Position] = []
        let animator = ViewPropertyAnimator(duration: 0.4, for: red) { red.frame = Self.end }
        animator.addCompletion { ended.append($0) }
        // Nothing runs before it starts.
        #expect(red.frame.minX == 10 && animator.state == .inactive && !window.hasViewAnimations)
        animator.startAnimation()
        #expect(animator.state == .active && animator.isRunning)
        #expect(red.frame.minX == 10 && red.animationTargets?.center == Point(x: 180, y: 20))
        // Ease-in-out at x(s = 1/4) = 0.274375 of the time is 0.15625 of the way
        // (TimingCurveTests): 10 + 0.15625·160 = 35, on screen too.
        let canvas = try Offscreen.render(window, time: 1 + 0.4 * 0.274_375)
        #expect(abs(red.frame.minX - 35) < 1e-6)
        #expect(abs(animator.fractionComplete - 0.156_25) < 1e-9)
        #expect(canvas.pixel(x: 34, y: 20) == Color.white.argb)
        #expect(canvas.pixel(x: 35, y: 20) == Color(rgb: 255, 0, 0).argb)
        try window.prepareFrame(time: 1.45)
        #expect(red.frame == Self.end)
        #expect(ended == [.end] && animator.state == .inactive && !animator.isRunning)
        #expect(!window.hasViewAnimations && !window.hasActiveAnimations)
        try window.prepareFrame(time: 2)
        #expect(ended == [.end] && red.drawCount == draws)
    }

    @Test func pausedItHoldsWithoutFramesAndRunsOnAlongTheSameCurve() throws {
        let (window, red) = ViewAnimationTests.scene()
        let animator = ViewPropertyAnimator(duration: 0.4, for: red) { red.frame = Self.end }
        animator.startAnimation()
        try window.prepareFrame(time: 1 + 0.4 * 0.274_375)
        animator.pauseAnimation()
        #expect(animator.state == .active && !animator.isRunning)
        #expect(abs(animator.fractionComplete - 0.156_25) < 1e-9)
        try window.prepareFrame(time: 1.3)
        #expect(abs(red.frame.minX - 35) < 1e-6)
        // Paused, the window asks for no more frames.
        #expect(!window.hasActiveAnimations && window.isQuiet)
        #expect(window.hasViewAnimations)
        // Run on at 1.3: the curve goes on from the time it had reached, so half its time
        // (0.2 s) is 0.2 − 0.10975 s later, halfway (90): no ease from a standstill again.
        animator.startAnimation()
        #expect(window.hasActiveAnimations)
        try window.prepareFrame(time: 1.3 + 0.2 - 0.4 * 0.274_375)
        #expect(abs(red.frame.minX - 90) < 1e-6)
    }

    /// Paused between frames (the clock moved on since the last), it shows where it is read
    /// to be.
    @Test func pausedBetweenFramesItShowsWhereItIsReadToBe() throws {
        let (window, red) = ViewAnimationTests.scene()
        let animator = ViewPropertyAnimator(duration: 1, curve: .linear, for: red) { red.alpha = 0 }
        animator.startAnimation()
        try window.prepareFrame(time: 1.1)
        window.advanceClock(to: 1.3)
        animator.pauseAnimation()
        #expect(abs(animator.fractionComplete - 0.3) < 1e-12 && abs(red.alpha - 0.7) < 1e-12)
    }

    @Test func scrubbedItMovesAtOnceAndContinuesOverTheTimeLeft() throws {
        let (window, red) = ViewAnimationTests.scene()
        var ended: [ViewPropertyAnimator.Position] = []
        let animator = ViewPropertyAnimator(duration: 1, curve: .easeIn, for: red) { red.frame = Self.end }
        animator.addCompletion { ended.append($0) }
        // Setting the fraction of an inactive animator runs its animations, paused there.
        animator.fractionComplete = 0.25
        #expect(animator.state == .active && !animator.isRunning)
        // Linear while scrubbed, whatever the curve: 10 + 0.25·160.
        #expect(abs(red.frame.minX - 50) < 1e-9)
        animator.fractionComplete = 0.75
        #expect(abs(red.frame.minX - 130) < 1e-9)
        let canvas = try Offscreen.render(window, time: 1)
        #expect(canvas.pixel(x: 129, y: 20) == Color.white.argb)
        #expect(canvas.pixel(x: 130, y: 20) == Color(rgb: 255, 0, 0).argb)
        // Out of range, kept in it.
        animator.fractionComplete = 1.5
        #expect(animator.fractionComplete == 1 && red.frame == Self.end)
        animator.fractionComplete = 0.75
        // On, linear, over the quarter of its second left: halfway there at 1.125.
        animator.continueAnimation(withCurve: .linear)
        #expect(animator.isRunning)
        // Set while it runs, the fraction is ignored.
        animator.fractionComplete = 0.1
        try window.prepareFrame(time: 1.125)
        #expect(abs(red.frame.minX - 150) < 1e-9)
        #expect(ended.isEmpty)
        try window.prepareFrame(time: 1.26)
        #expect(red.frame == Self.end && ended == [.end])
    }

    @Test func reversedItTurnsWhereItStandsAndCompletesAtTheStart() throws {
        let (window, red) = ViewAnimationTests.scene()
        let start = red.frame
        var ended: [ViewPropertyAnimator.Position] = []
        let animator = ViewPropertyAnimator(duration: 1, curve: .linear, for: red) { red.frame = Self.end }
        animator.addCompletion { ended.append($0) }
        animator.startAnimation()
        try window.prepareFrame(time: 1.5)
        #expect(abs(red.frame.minX - 90) < 1e-9)
        animator.isReversed = true
        // Heading back, the targets are the start.
        #expect(red.animationTargets?.center == start.center)
        // Back from 90 over half a second: at 1.75, a quarter of the way from the start.
        try window.prepareFrame(time: 1.75)
        #expect(abs(red.frame.minX - 50) < 1e-9)
        try window.prepareFrame(time: 2.01)
        #expect(red.frame == start && ended == [.start] && animator.state == .inactive)
    }

    @Test func stoppedItKeepsWhereItStandsUntilFinished() throws {
        for (position, x) in [(ViewPropertyAnimator.Position.end, 170.0), (.start, 10), (.current, 90)] {
            let (window, red) = ViewAnimationTests.scene()
            var ended: [ViewPropertyAnimator.Position] = []
            let animator = ViewPropertyAnimator(duration: 1, curve: .linear, for: red) {
                red.frame = Self.end
                red.alpha = 0.5
            }
            animator.addCompletion { ended.append($0) }
            animator.startAnimation()
            try window.prepareFrame(time: 1.5)
            animator.stopAnimation(false)
            #expect(animator.state == .stopped && !animator.isRunning)
            #expect(red.animationTargets == nil && !window.hasViewAnimations)
            try window.prepareFrame(time: 1.75)
            #expect(abs(red.frame.minX - 90) < 1e-9 && abs(red.alpha - 0.75) < 1e-9 && ended.isEmpty)
            // A stopped animator neither starts nor takes animations.
            animator.startAnimation()
            #expect(animator.state == .stopped)
            animator.finishAnimation(at: position)
            #expect(abs(red.frame.minX - x) < 1e-9 && ended == [position] && animator.state == .inactive)
            #expect(abs(red.alpha - [170: 0.5, 10: 1, 90: 0.75][x]!) < 1e-9)
        }
        // Without finishing: where it stands, and no completion.
        let (window, red) = ViewAnimationTests.scene()
        var ended: [ViewPropertyAnimator.Position] = []
        let animator = ViewPropertyAnimator(duration: 1, curve: .linear, for: red) { red.frame = Self.end }
        animator.addCompletion { ended.append($0) }
        animator.startAnimation()
        try window.prepareFrame(time: 1.25)
        animator.stopAnimation(true)
        try window.prepareFrame(time: 3)
        #expect(abs(red.frame.minX - 50) < 1e-9 && ended.isEmpty && animator.state == .inactive)
    }

    @Test func pausingOnCompletionLetsItBeReversedFromTheEnd() throws {
        let (window, red) = ViewAnimationTests.scene()
        var ended: [ViewPropertyAnimator.Position] = []
        let animator = ViewPropertyAnimator(duration: 0.5, curve: .linear, for: red) { red.frame = Self.end }
        animator.pausesOnCompletion = true
        animator.addCompletion { ended.append($0) }
        animator.startAnimation()
        try window.prepareFrame(time: 1.6)
        #expect(red.frame == Self.end && animator.state == .active && !animator.isRunning && ended.isEmpty)
        #expect(animator.fractionComplete == 1)
        animator.isReversed = true
        animator.startAnimation()
        try window.prepareFrame(time: 1.85)
        #expect(abs(red.frame.minX - 90) < 1e-9)
        try window.prepareFrame(time: 2.2)
        #expect(red.frame.minX == 10 && animator.state == .active && ended.isEmpty)
        animator.stopAnimation(false)
        animator.finishAnimation(at: .start)
        #expect(ended == [.start] && red.frame.minX == 10)
    }

    @Test func animationsAddedWhileItRunsCoverTheRestOfTheWay() throws {
        let (window, red) = ViewAnimationTests.scene()
        let animator = ViewPropertyAnimator(duration: 1, curve: .linear, for: red) { red.frame = Self.end }
        animator.startAnimation()
        try window.prepareFrame(time: 1.5)
        animator.addAnimations { red.alpha = 0 }
        #expect(red.alpha == 1)
        // Half the rest of the way at 1.75: alpha 0.5, and x at three quarters.
        try window.prepareFrame(time: 1.75)
        #expect(abs(red.alpha - 0.5) < 1e-9 && abs(red.frame.minX - 130) < 1e-9)
        // One waiting for half the rest: from 0.875 of the way.
        let blue = View(frame: Rect(x: 0, y: 60, width: 10, height: 10))
        window.addSubview(blue)
        animator.addAnimations({ blue.center.x = 105 }, delayFactor: 0.5)
        try window.prepareFrame(time: 1.85)
        #expect(blue.center.x == 5)
        try window.prepareFrame(time: 1.9375)
        #expect(abs(blue.center.x - 55) < 1e-9)
        try window.prepareFrame(time: 2.1)
        #expect(red.alpha == 0 && blue.center.x == 105 && red.frame == Self.end)
    }

    @Test func anotherAnimationOrAValueSetTakesAPropertyAway() throws {
        let (window, red) = ViewAnimationTests.scene()
        var ended: [ViewPropertyAnimator.Position] = []
        var other: [Bool] = []
        let animator = ViewPropertyAnimator(duration: 1, curve: .linear, for: red) {
            red.center.x = 180
            red.alpha = 0
        }
        animator.addCompletion { ended.append($0) }
        animator.startAnimation()
        try window.prepareFrame(time: 1.5)
        // `animate` takes the center from where it stands; the animator keeps the alpha.
        red.animate(withDuration: 0.25, curve: .linear) {
            red.center.x = 20
        } completion: {
            other.append($0)
        }
        try window.prepareFrame(time: 1.625)
        #expect(abs(red.center.x - 60) < 1e-9 && abs(red.alpha - 0.375) < 1e-9)
        try window.prepareFrame(time: 1.8)
        #expect(red.center.x == 20 && other == [true])
        // A value set meanwhile stands.
        red.alpha = 0.9
        try window.prepareFrame(time: 1.9)
        #expect(red.alpha == 0.9)
        try window.prepareFrame(time: 2.1)
        #expect(red.alpha == 0.9 && red.center.x == 20 && ended == [.end])
    }

    @Test func aValueSetWhilePausedStandsThroughAScrub() throws {
        let (window, red) = ViewAnimationTests.scene()
        let animator = ViewPropertyAnimator(duration: 1, curve: .linear, for: red) {
            red.frame = Self.end
            red.alpha = 0
        }
        animator.fractionComplete = 0.25
        #expect(abs(red.alpha - 0.75) < 1e-12)
        red.alpha = 0.9
        animator.fractionComplete = 0.5
        #expect(red.alpha == 0.9 && abs(red.frame.minX - 90) < 1e-9)
        animator.startAnimation()
        try window.prepareFrame(time: 1.6)
        #expect(red.alpha == 0.9 && red.frame == Self.end && animator.state == .inactive)
    }

    @Test func continuedOnASpringItSettlesOnTheClosedForm() throws {
        let (window, red) = ViewAnimationTests.scene()
        let animator = ViewPropertyAnimator(duration: 1, for: red) { red.frame = Self.end }
        animator.fractionComplete = 0.5
        animator.continueAnimation(withSpringDamping: 1)
        // Half the way left over half the duration: ω = ln 1000 / 0.5; a quarter second in,
        // 1 − e^(−ωt)(1 + ωt) of the way left.
        let w = Double.log(1000) / 0.5
        let p = 1 - Double.exp(-w * 0.25) * (1 + w * 0.25)
        try window.prepareFrame(time: 1.25)
        #expect(abs(red.frame.minX - (10 + 160 * (0.5 + 0.5 * p))) < 1e-9)
        try window.prepareFrame(time: 1.5)
        #expect(red.frame == Self.end && animator.state == .inactive)
    }

    @Test func aRunningAnimatorLetGoOfStillCompletes() throws {
        let (window, red) = ViewAnimationTests.scene()
        var ended: [ViewPropertyAnimator.Position] = []
        ViewPropertyAnimator.runningPropertyAnimator(
            withDuration: 0.5, delay: 0.5, curve: .linear, for: red, animations: { red.center.y = 80 },
            completion: { ended.append($0) })
        try window.prepareFrame(time: 1.4)
        #expect(red.center.y == 20)
        try window.prepareFrame(time: 1.75)
        #expect(abs(red.center.y - 50) < 1e-9)
        try window.prepareFrame(time: 2.1)
        #expect(red.center.y == 80 && ended == [.end])
    }

    /// Two animators arrive in one frame; the first's completion turns the second back: that
    /// one runs back from its end over its time, not to its start at once.
    @Test func turnedBackByACompletionInTheFrameItArrivesItRunsBack() throws {
        let (window, red) = ViewAnimationTests.scene()
        let blue = View(frame: Rect(x: 10, y: 50, width: 20, height: 20))
        window.addSubview(blue)
        var ended: [ViewPropertyAnimator.Position] = []
        let second = ViewPropertyAnimator(duration: 0.4, curve: .linear, for: blue) { blue.frame.origin.x = 170 }
        second.addCompletion { ended.append($0) }
        let first = ViewPropertyAnimator(duration: 0.4, curve: .linear, for: red) { red.frame = Self.end }
        first.addCompletion { _ in second.isReversed = true }
        first.startAnimation()
        second.startAnimation()
        try window.prepareFrame(time: 1.41)
        #expect(red.frame == Self.end && first.state == .inactive)
        #expect(blue.frame.minX == 170 && second.state == .active && second.isRunning && ended.isEmpty)
        try window.prepareFrame(time: 1.61)
        #expect(abs(blue.frame.minX - 90) < 1e-9)
        try window.prepareFrame(time: 1.82)
        #expect(blue.frame.minX == 10 && ended == [.start] && !window.hasActiveAnimations)
    }

    @Test func outsideAWindowItsChangesAreMadeAtOnce() {
        let loose = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        var ended: [ViewPropertyAnimator.Position] = []
        let animator = ViewPropertyAnimator(duration: 1, for: loose) { loose.alpha = 0.25 }
        animator.addCompletion { ended.append($0) }
        animator.startAnimation()
        #expect(loose.alpha == 0.25 && ended == [.end] && animator.state == .inactive)
    }
}
