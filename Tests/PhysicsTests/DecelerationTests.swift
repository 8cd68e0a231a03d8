import ScrollwayGeometry
import ScrollwayPhysics
import Testing

@Suite struct DecelerationTests {
    @Test func ratesGiveUIKitsDecayConstants() {
        #expect(abs(DecelerationRate.normal.k - 2.002_002_670_673) < 1e-9)
        #expect(abs(DecelerationRate.fast.k - 10.050_335_853_501) < 1e-9)
    }

    @Test func curveFollowsTheClosedForm() {
        let d = Deceleration(from: 0, velocity: 2000, rate: .normal)
        #expect(abs(d.restingPoint - 998.999_666_332_9) < 1e-6)
        #expect(d.position(at: 0) == 0 && d.velocity(at: 0) == 2000)
        // Half-life ln2/k: half the distance and half the speed.
        let half = 0.693_147_180_559_945_3 / d.k
        #expect(abs(d.position(at: half) - d.restingPoint / 2) < 1e-9)
        #expect(abs(d.velocity(at: half) - 1000) < 1e-9)
        // The threshold of 0.5 px is reached exactly at the computed duration.
        let end = d.duration(threshold: 0.5)
        #expect(abs(d.restingPoint - d.position(at: end) - 0.5) < 1e-9)
    }

    @Test(arguments: [1.0, 2.0, 1.5])
    func aFlingRestsOnADevicePixelAtEveryRefreshRate(scale: Double) {
        let natural = Deceleration(from: 123.4, velocity: -2345.6, rate: .normal)
        let fling = natural.landingOnDevicePixel(scale: scale)
        let dest = fling.restingPoint
        #expect(abs(dest - natural.restingPoint) <= 0.5 / scale + 1e-9)
        #expect(abs((dest * scale).rounded() - dest * scale) < 1e-9)
        // Sample like a frame loop at 60, 120 and 144 Hz; each ends on the same pixel.
        var rests: [Double] = []
        for hz in [60.0, 120.0, 144.0] {
            var n = 0
            var t = 0.0
            repeat {
                n += 1
                t = Double(n) / hz
            } while !fling.isFinished(at: t, threshold: 0.5 / scale)
            #expect(abs(fling.position(at: t) - dest) < 0.5 / scale)
            rests.append((fling.position(at: t) * scale).rounded() / scale)
        }
        #expect(rests.allSatisfy { $0 == dest })
    }

    @Test func impactWithAnEdge() {
        let d = Deceleration(from: 0, velocity: 3000, rate: .normal)
        let hit = d.impact(at: 1000)!
        #expect(abs(hit.time - 0.549_757_991_580_232) < 1e-9)
        #expect(abs(hit.velocity - 997.997_329_326_921) < 1e-6)
        #expect(abs(d.position(at: hit.time) - 1000) < 1e-6)
        #expect(abs(d.velocity(at: hit.time) - hit.velocity) < 1e-6)
        // An edge behind, or beyond the resting point, is never hit.
        #expect(d.impact(at: -10) == nil)
        #expect(d.impact(at: 2000) == nil)
    }

    @Test func retargetingLandsExactlyOnTheTarget() {
        let d = Deceleration(from: 50, velocity: 1500, rate: .fast).landing(on: 400)
        #expect(abs(d.restingPoint - 400) < 1e-9)
        #expect(abs(d.v0 - d.k * 350) < 1e-9)
    }
}

@Suite struct SpringTests {
    @Test func criticallyDampedClosedForm() {
        let s = Spring(from: 100, to: 0, velocity: 0, omega: 10)
        #expect(s.position(at: 0) == 100)
        // y(0.1) = (100 + 1000·0.1)·e^(−1) = 200/e.
        #expect(abs(s.displacement(at: 0.1) - 200 * 0.367_879_441_171_442_3) < 1e-9)
        // Released at rest, it never crosses the rest point.
        #expect((1...200).allSatisfy { s.displacement(at: Double($0) / 100) > 0 })
        let settle = (1...300).first { s.isSettled(at: Double($0) / 100) }!
        #expect(settle > 50 && settle < 150)
        #expect(abs(s.position(at: 5)) < 1e-6)
    }

    @Test func velocityIsTheDerivative() {
        let s = Spring(from: 30, to: 10, velocity: -400, omega: 14)
        for t in [0.0, 0.05, 0.1, 0.3] {
            let h = 1e-6
            let numeric = (s.position(at: t + h) - s.position(at: t - h)) / (2 * h)
            #expect(abs(numeric - s.velocity(at: t)) < 1e-3 || t == 0)
        }
    }

    @Test func peakFromRestIsVOverOmegaE() {
        let s = Spring(from: 0, to: 0, velocity: 1000, omega: 10)
        #expect(abs(s.peakDisplacement - 1000 / (10 * 2.718_281_828_459_045)) < 1e-9)
        #expect(abs(Spring.launchSpeed(peakingAt: s.peakDisplacement) - 1000) < 1e-9)
    }
}

@Suite struct RubberBandTests {
    @Test(arguments: [
        (100.0, 500.0, 49.549_549_549_549_6), (500, 500, 177.419_354_838_709_7), (1000, 844, 332.998_565_279_770_45),
        (20, 844, 10.858_479_532_163_713), (-300, 390, -115.945_945_945_945_98),
    ])
    func displacementMatchesTheFormula(o: Double, d: Double, expected: Double) {
        let b = RubberBand.displacement(overscroll: o, dimension: d)
        #expect(abs(b - expected) < 1e-9)
        #expect(abs(RubberBand.overscroll(displacement: b, dimension: d) - o) < 1e-6)
        #expect(abs(b) < d)
    }

    @Test func clampBandsOnlyOutsideTheRange() {
        #expect(RubberBand.clamp(50, min: 0, max: 100, dimension: 500) == 50)
        #expect(abs(RubberBand.clamp(200, min: 0, max: 100, dimension: 500) - 149.549_549_549_549_6) < 1e-9)
        #expect(abs(RubberBand.unclamp(149.549_549_549_549_6, min: 0, max: 100, dimension: 500) - 200) < 1e-6)
    }
}
