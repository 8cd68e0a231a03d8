import Foundation
import ScrollwayGeometry
import ScrollwayPhysics
import ScrollwayTestSupport
import Testing

@Suite struct FlingCurveTests {
    @Test func flingInsideTheRangeRestsOnAPixel() {
        let f = FlingCurve(
            position: 100, velocity: 1200, k: DecelerationRate.normal.k, min: 0, max: 5000, dimension: 800)
        #expect(f.restingPoint == 699)  // 100 + 1200/2.002 = 699.4 → 699
        #expect(f.phase(at: 1) == .decelerating)
    }

    @Test(arguments: [800.0, 400.0])
    func flingIntoAnEdgeOvershootsAtMost15PercentAndReturns(d: Double) {
        let k = DecelerationRate.normal.k
        let f = FlingCurve(position: 900, velocity: 8000, k: k, min: 0, max: 1000, dimension: d)
        var peak = 0.0
        var t = 0.0
        var sawBounce = false
        while !f.isFinished(at: t) && t < 10 {
            peak = max(peak, f.position(at: t) - 1000)
            if f.phase(at: t) == .bouncing { sawBounce = true }
            t += 1.0 / 240
        }
        #expect(sawBounce)
        #expect(peak > 0.1 * d)  // a strong fling does overshoot
        #expect(peak <= 0.15 * d + 1e-6)
        #expect(abs(f.position(at: t) - 1000) < 0.5)
        #expect(f.restingPoint == 1000)
    }

    @Test func releasedPastTheEdgeSpringsBack() {
        let f = FlingCurve(position: -80, velocity: 0, k: DecelerationRate.normal.k, min: 0, max: 1000, dimension: 800)
        #expect(f.phase(at: 0) == .bouncing)
        #expect(f.restingPoint == 0)
        #expect(abs(f.position(at: 3)) < 0.5)
    }

    /// Past the end and moving back in at 2,000 px/s, a glide would rest 999 px inside
    /// (2000 / 2.002): a throw does; a spring back re-aimed at a moved edge (`glidesIn: false`)
    /// springs to the edge with that speed and rests on it.
    @Test func aSpringBackThatMustNotGlideInRestsOnTheEdge() {
        let k = DecelerationRate.normal.k
        let thrown = FlingCurve(position: 1080, velocity: -2000, k: k, min: 0, max: 1000, dimension: 800)
        #expect(thrown.restingPoint == 81)  // 1080 − 2000/2.002 = 81.0
        #expect(thrown.phase(at: 0) == .decelerating)
        let spring = FlingCurve(
            position: 1080, velocity: -2000, k: k, min: 0, max: 1000, dimension: 800, glidesIn: false)
        #expect(spring.restingPoint == 1000)
        #expect(spring.phase(at: 0) == .bouncing)
        #expect(spring.velocity(at: 0) == -2000)
        #expect(abs(spring.position(at: 3) - 1000) < 0.01)
    }

    @Test func withoutBouncesItStopsAtTheEdge() {
        let f = FlingCurve(
            position: 900, velocity: 8000, k: DecelerationRate.normal.k, min: 0, max: 1000, dimension: 800,
            bounces: false)
        let samples = stride(from: 0.0, through: 5, by: 1.0 / 120).map { f.position(at: $0) }
        #expect(samples.allSatisfy { $0 <= 1000 + 1e-9 })
        #expect(f.position(at: 5) == 1000)
    }
}

@Suite struct FlingRelaunchTests {
    let k = DecelerationRate.normal.k

    /// The curve launched again at `t1` from where `f` is then, with its velocity there. Its
    /// rest is the same device pixel, up to the last bits of `x0 + v0/k`.
    func relaunched(_ f: FlingCurve, at t1: Double, within lo: Double, _ hi: Double, scale: Double) -> FlingCurve {
        FlingCurve(
            position: f.position(at: t1), velocity: f.velocity(at: t1), k: k, min: lo, max: hi, dimension: 800,
            scale: scale)
    }

    @Test(arguments: [1.0, 1.5, 2.0])
    func aGlideThatSaysItRelaunchesAlikeDoes(scale: Double) {
        var rng = SeededRandom(state: 40)
        var alike = 0
        for _ in 0..<400 {
            let x0 = rng.unit(0, 4000)
            let v0 = rng.unit(-6000, 6000)
            let hi = rng.unit(4000, 9000)
            let f = FlingCurve(position: x0, velocity: v0, k: k, min: 0, max: hi, dimension: 800, scale: scale)
            let t1 = rng.unit(0, 1.5)
            // The range as a list's measured rows leave it: longer or shorter at the end.
            let hi2 = hi + rng.unit(-3000, 3000)
            let says = f.glidesAlike(from: f.position(at: t1), within: 0, hi2, k: k, scale: scale)
            let g = relaunched(f, at: t1, within: 0, hi2, scale: scale)
            let same =
                abs(g.restingPoint - f.restingPoint) < 1e-9 && g.phase(at: 10) == .decelerating
                && stride(from: 0.0, through: 8, by: 1.0 / 60).allSatisfy {
                    abs(g.position(at: $0) - f.position(at: t1 + $0)) < 1e-6
                        && g.isFinished(at: $0) == f.isFinished(at: t1 + $0)
                }
            if says {
                alike += 1
                #expect(same, "x0 \(x0) v0 \(v0) hi \(hi) → \(hi2) at \(t1)")
            }
        }
        #expect(alike > 100)
    }

    @Test func aRestClampedToTheOldEndIsNotAlikeInALongerRange() {
        // 100 + 1801/2.002 = 999.6, rounded to 1000 and clamped to the end, 999.7.
        let f = FlingCurve(position: 100, velocity: 1801, k: k, min: 0, max: 999.7, dimension: 800)
        #expect(f.restingPoint == 999.7)
        #expect(!f.glidesAlike(from: f.position(at: 0.2), within: 0, 5000, k: k, scale: 1))
        #expect(relaunched(f, at: 0.2, within: 0, 5000, scale: 1).restingPoint == 1000)
    }

    @Test func aTargetOffThePixelGridIsNotAlike() {
        let f = FlingCurve(position: 100, velocity: 900, k: k, min: 0, max: 5000, dimension: 800, target: 480.25)
        #expect(f.restingPoint == 480.25)
        #expect(!f.glidesAlike(from: f.position(at: 0.1), within: 0, 5000, k: k, scale: 1))
        #expect(relaunched(f, at: 0.1, within: 0, 5000, scale: 1).restingPoint == 480)
    }

    /// A delegate's target for a release past an edge is where it rests (it was ignored there,
    /// and the offset went to the edge), reached by a spring that never passes it: outward
    /// velocity dropped, inward capped at ω·|distance|.
    @Test(arguments: [2000.0, -20000.0, 0])
    func aTargetForAReleasePastAnEdgeIsWhereItRests(velocity: Double) {
        let f = FlingCurve(
            position: 1100, velocity: velocity, k: k, min: 0, max: 1000, dimension: 800, target: 600)
        #expect(f.restingPoint == 600)
        let path = stride(from: 0.0, through: 3, by: 1.0 / 120).map { f.position(at: $0) }
        #expect(path.allSatisfy { $0 >= 600 - 1e-9 && $0 <= 1100 + 1e-9 }, "\(path.min()!)…\(path.max()!)")
        #expect(abs(path.last! - 600) < 0.5)
        // A target past the range is brought inside it.
        let beyond = FlingCurve(position: 1100, velocity: 0, k: k, min: 0, max: 1000, dimension: 800, target: 5000)
        #expect(beyond.restingPoint == 1000)
    }

    /// The paging spring leaves at the release velocity and never passes the page: thrown
    /// faster than ω·|d| it decays as d·e^(−ωt) with ω = |v|/|d|; thrown outwards from past the
    /// range's end it heads straight back.
    @Test func thePagingSpringNeverPassesThePage() {
        let fast = Paging.settle(from: 500, to: 780, velocity: 6000, range: 0...3510)
        #expect(fast.velocity(at: 0) == 6000)
        let path = stride(from: 0.0, through: 1, by: 1.0 / 240).map { fast.position(at: $0) }
        #expect(path.allSatisfy { $0 <= 780 + 1e-9 } && zip(path, path.dropFirst()).allSatisfy { $0 <= $1 })
        let slow = Paging.settle(from: 500, to: 780, velocity: 1000, range: 0...3510)
        #expect(slow.omega == Spring.animationOmega && slow.velocity(at: 0) == 1000)
        let out = Paging.settle(from: 2032, to: 1950, velocity: 6000, range: 0...1950)
        #expect(out.velocity(at: 0) == 0 && out.omega == Spring.animationOmega)
        let back = Paging.settle(from: 2032, to: 1950, velocity: -600, range: 0...1950)
        #expect(back.velocity(at: 0) == -600)
        // Exactly at the end and thrown out (no bounce clamps it there): it stays.
        let atEnd = Paging.settle(from: 1950, to: 1950, velocity: 3000, range: 0...1950)
        #expect(atEnd.velocity(at: 0) == 0 && atEnd.isSettled(at: 0))
        // A page a hair away: ω stays finite (it overflowed, and the spring trapped).
        let hair = Paging.settle(from: 0, to: Double.leastNonzeroMagnitude, velocity: 8000, range: 0...1950)
        #expect(hair.omega == Spring.maximumOmega)
    }

    @Test func anEdgeOnTheWayOrAnotherRateOrScaleIsNotAlike() {
        let f = FlingCurve(position: 100, velocity: 1200, k: k, min: 0, max: 5000, dimension: 800)
        #expect(f.restingPoint == 699)
        #expect(f.glidesAlike(from: f.position(at: 0.1), within: 0, 699, k: k, scale: 1))
        #expect(!f.glidesAlike(from: f.position(at: 0.1), within: 0, 698, k: k, scale: 1))
        #expect(!f.glidesAlike(from: f.position(at: 0.1), within: 300, 5000, k: k, scale: 1))
        #expect(!f.glidesAlike(from: f.position(at: 0.1), within: 0, 5000, k: DecelerationRate.fast.k, scale: 1))
        #expect(!f.glidesAlike(from: f.position(at: 0.1), within: 0, 5000, k: k, scale: 2))
        let bounce = FlingCurve(position: 900, velocity: 8000, k: k, min: 0, max: 1000, dimension: 800)
        #expect(!bounce.glidesAlike(from: bounce.position(at: 0.01), within: 0, 1000, k: k, scale: 1))
    }
}

@Suite struct PagingTests {
    let k = DecelerationRate.normal.k

    @Test func slowReleaseRoundsToTheNearestPage() {
        #expect(
            Paging.targetPage(position: 390 * 1.4, velocity: 0, pageSize: 390, k: k, startPage: 1, pageCount: 10) == 1)
        #expect(
            Paging.targetPage(position: 390 * 1.6, velocity: 0, pageSize: 390, k: k, startPage: 1, pageCount: 10) == 2)
    }

    @Test func aFlickMovesAtLeastOnePageButNeverMoreThanOne() {
        // Barely past the flick speed from the start of page 3.
        #expect(
            Paging.targetPage(position: 390 * 3 + 5, velocity: 301, pageSize: 390, k: k, startPage: 3, pageCount: 10)
                == 4)
        #expect(
            Paging.targetPage(position: 390 * 3 - 5, velocity: -301, pageSize: 390, k: k, startPage: 3, pageCount: 10)
                == 2)
        // A huge fling still moves a single page from where the drag started.
        #expect(
            Paging.targetPage(position: 390 * 3.2, velocity: 8000, pageSize: 390, k: k, startPage: 3, pageCount: 10)
                == 4)
        #expect(
            Paging.targetPage(position: 390 * 2.8, velocity: -8000, pageSize: 390, k: k, startPage: 3, pageCount: 10)
                == 2)
        // And stays within the pages.
        #expect(
            Paging.targetPage(position: 390 * 9, velocity: 8000, pageSize: 390, k: k, startPage: 9, pageCount: 10) == 9)
        #expect(Paging.targetPage(position: 0, velocity: -8000, pageSize: 390, k: k, startPage: 0, pageCount: 10) == 0)
    }
}

@Suite struct VelocityTrackerTests {
    @Test func constantSpeedAt60HzIsMeasuredExactly() {
        var v = VelocityTracker()
        for i in 0...10 { v.add(time: Double(i) / 60, position: Point(x: 0, y: 1000 - 20 * Double(i))) }
        let vel = v.velocity(at: 10.0 / 60)
        #expect(abs(vel.y - -1200) < 1e-6)
        #expect(vel.x == 0)
    }

    @Test func aPauseBeforeReleaseMeansStopped() {
        var v = VelocityTracker()
        for i in 0...10 { v.add(time: Double(i) / 60, position: Point(x: 20 * Double(i), y: 0)) }
        #expect(v.velocity(at: 10.0 / 60 + 0.041) == .zero)
        #expect(v.velocity(at: 10.0 / 60 + 0.039).x > 1000)
    }

    @Test func onlySamplesAfterAGapCount() {
        var v = VelocityTracker()
        v.add(time: 0, position: Point(x: 0, y: 0))
        v.add(time: 0.010, position: Point(x: 500, y: 0))  // a fast start...
        v.add(time: 0.060, position: Point(x: 500, y: 0))  // ...a 50 ms gap...
        v.add(time: 0.070, position: Point(x: 505, y: 0))  // ...then slow
        #expect(abs(v.velocity(at: 0.070).x - 500) < 1e-6)
    }

    /// The same samples give the same velocity wherever they lie in time: a sample exactly a
    /// window (or a gap) before the release counts, whatever rounding the seconds carry. The
    /// touchpad's 150 ms window lost its oldest sample at some starts and kept it at others.
    @Test(arguments: [150, 100])
    func theVelocityDoesNotDependOnWhenTheGestureHappened(ms: Int) {
        func velocity(startingAt start: Double) -> Double {
            var v = VelocityTracker(window: Double(ms) / 1000)
            // A sample every 10 ms for a window's length, speeding up, released at the last.
            for i in 0...(ms / 10) {
                let t = Double(i) * 10
                v.add(time: (start + t) / 1000, position: Point(x: 0, y: 0.02 * t * t + 3 * t))
            }
            return v.velocity(at: (start + Double(ms)) / 1000).y
        }
        let reference = velocity(startingAt: 0)
        for start in [1000.0, 1000.5, 1001, 1002, 1003, 1004, 1007, 1008, 86_399_000, 123_456.25] {
            #expect(abs(velocity(startingAt: start) - reference) < 1e-6, "started at \(start) ms")
        }
        // The sample 40 ms before the release (a gap of exactly maxGap) still counts.
        var v = VelocityTracker()
        v.add(time: 1.000, position: Point(x: 0, y: 0))
        v.add(time: 1.040, position: Point(x: 40, y: 0))
        #expect(abs(v.velocity(at: 1.080).x - 1000) < 1e-6)
    }

    @Test func deadZoneAndCap() {
        #expect(VelocityTracker.limit(49) == 0)
        #expect(VelocityTracker.limit(-50) == -50)
        #expect(VelocityTracker.limit(20000) == 8000)
        #expect(VelocityTracker.limit(.nan) == 0)
    }
}

@Suite struct WheelAndZoomTests {
    @Test func wheelStepIsViewportToTheTwoThirds() {
        #expect(abs(WheelAnimation.step(viewport: 844, value120: 120) - 89.308_946_091_790_25) < 1e-9)
        #expect(abs(WheelAnimation.step(viewport: 480, value120: 60) - 61.304_754_591_484_23 / 2) < 1e-9)
    }

    @Test func wheelAnimationReaimsAndClamps() {
        var w = WheelAnimation(from: 0, to: 100, at: 0)
        #expect(abs(w.position(at: 0.04) - 100 * (1 - 0.367_879_441_171_442_3)) < 1e-9)
        let mid = w.position(at: 0.02)
        w.retarget(by: 100, at: 0.02, within: 0, 150)
        #expect(w.position(at: 0.02) == mid)  // no jump
        #expect(w.target == 150)  // clamped: no overscroll
        #expect(w.isFinished(at: 1))
    }

    @Test func zoomBandsInLogSpace() {
        #expect(ZoomBand.shownScale(2, minimum: 1, maximum: 4) == 2)
        let shown = ZoomBand.shownScale(8, minimum: 1, maximum: 4)
        #expect(shown > 4 && shown < 8)
        // u = ln 2 past the limit shows as ln2·(1 − 1/1.55) in u.
        #expect(abs(shown - 4 * pow(2, 1 - 1 / 1.55)) < 1e-9)
        #expect(abs(ZoomBand.requestedScale(showing: shown, minimum: 1, maximum: 4) - 8) < 1e-9)
        #expect(ZoomBand.shownScale(8, minimum: 1, maximum: 4, bounces: false) == 4)
        #expect(ZoomBand.offsetKeepingAnchor(offset: 100, anchor: 50, from: 1, to: 2) == 250)
    }
}

@Suite struct PagingExtremesTests {
    /// A near-zero page or a deceleration rate a hair under 1 projects beyond any Int: the
    /// target is still a page that exists.
    @Test(arguments: [(1e-12, 8000.0, 2.0), (390, 8000, 1e-13), (390, -8000, 1e-13), (1e-300, 1, 1e-300)])
    func projectionsBeyondIntStillLandOnAPage(pageSize: Double, velocity: Double, k: Double) {
        let page = Paging.targetPage(
            position: 100, velocity: velocity, pageSize: pageSize, k: k, startPage: 0, pageCount: 10)
        #expect((0...9).contains(page))
    }
}
