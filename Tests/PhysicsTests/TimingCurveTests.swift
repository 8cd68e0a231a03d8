import ScrollwayPhysics
import Testing

/// The curves against points worked out by hand from the Bézier's definition: at parameter s,
/// `x(s) = 3(1 − s)²s·x1 + 3(1 − s)s²·x2 + s³` (y alike), so `progress(x(s))` must be `y(s)`.
@Suite struct TimingCurveTests {
    @Test func easeInOutPassesThroughPointsWorkedByHand() {
        // s = 1/4: x = 3·(9/16)·(1/4)·0.42 + 3·(3/4)·(1/16)·0.58 + 1/64 = 0.274375,
        // y = 3·(3/4)·(1/16) + 1/64 = 0.15625.
        #expect(abs(TimingCurve.easeInOut.progress(at: 0.274_375) - 0.156_25) < 1e-9)
        // Symmetric about the middle: half the time, half the way.
        #expect(abs(TimingCurve.easeInOut.progress(at: 0.5) - 0.5) < 1e-12)
        #expect(abs(TimingCurve.easeInOut.progress(at: 1 - 0.274_375) - (1 - 0.156_25)) < 1e-9)
    }

    @Test func easeOutAndEaseInMirrorEachOther() {
        // easeOut at s = 1/2: x = 3·(1/2)·(1/4)·0.58 + 1/8 = 0.3425, y = 3/8 + 1/8 = 0.5.
        #expect(abs(TimingCurve.easeOut.progress(at: 0.3425) - 0.5) < 1e-9)
        // easeIn is easeOut turned about the centre: easeIn(1 − p) = 1 − easeOut(p).
        for p in stride(from: 0.0, through: 1.0, by: 0.05) {
            #expect(abs(TimingCurve.easeIn.progress(at: 1 - p) - (1 - TimingCurve.easeOut.progress(at: p))) < 1e-9)
        }
        // Slow at its start: easeIn has gone less than a tenth of the way at a quarter of the time.
        #expect(TimingCurve.easeIn.progress(at: 0.25) < 0.1)
        #expect(TimingCurve.easeOut.progress(at: 0.25) > 0.35)
    }

    @Test func cssEaseAndTheLinearCurves() {
        // CSS's `ease` (0.25, 0.1, 0.25, 1) at s = 1/2: x = 0.3125, y = 0.5375.
        let ease = TimingCurve(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)
        #expect(abs(ease.progress(at: 0.3125) - 0.5375) < 1e-9)
        // Control points on the diagonal make the curve the diagonal.
        let diagonal = TimingCurve(x1: 0.3, y1: 0.3, x2: 0.8, y2: 0.8)
        for p in stride(from: 0.0, through: 1.0, by: 0.1) {
            #expect(abs(TimingCurve.linear.progress(at: p) - p) < 1e-12)
            #expect(abs(diagonal.progress(at: p) - p) < 1e-9)
        }
    }

    @Test func endsAreExactAndOutsideTimeIsClamped() {
        for curve in [TimingCurve.linear, .easeIn, .easeOut, .easeInOut] {
            #expect(curve.progress(at: 0) == 0)
            #expect(curve.progress(at: 1) == 1)
            #expect(curve.progress(at: -3) == 0)
            #expect(curve.progress(at: 7) == 1)
            #expect(curve.progress(at: .infinity) == 1)
            #expect(curve.progress(at: -.infinity) == 0)
            #expect(curve.progress(at: .nan) == 0)
        }
    }

    @Test func progressRisesMonotonicallyEvenWhereTheSlopeIsFlat() {
        // x1 = x2 = 1 and x1 = x2 = 0 flatten x's slope at an end, where Newton's steps fail.
        let curves = [
            TimingCurve.easeInOut, .easeOut, TimingCurve(x1: 1, y1: 0, x2: 1, y2: 0.2),
            TimingCurve(x1: 0, y1: 0.9, x2: 0, y2: 1),
        ]
        for curve in curves {
            var last = 0.0
            for i in 1...1000 {
                let y = curve.progress(at: Double(i) / 1000)
                #expect(y >= last - 1e-12)
                last = y
            }
            #expect(abs(last - 1) < 1e-12)
        }
        // A point of the flat-ended curve worked by hand: (1, 0), (1, 0.2) at s = 1/2 gives
        // x = 3/8 + 3/8 + 1/8 = 0.875, y = 3·(1/8)·0.2 + 1/8 = 0.2.
        #expect(abs(TimingCurve(x1: 1, y1: 0, x2: 1, y2: 0.2).progress(at: 0.875) - 0.2) < 1e-9)
    }

    @Test func controlPointsBeyondTheSquareOvershootAndBadOnesAreTamed() {
        // "Back out": y2 above 1 carries it past the end before it settles there.
        let back = TimingCurve(x1: 0.34, y1: 1.56, x2: 0.64, y2: 1)
        let peak = (1..<100).map { back.progress(at: Double($0) / 100) }.max() ?? 0
        #expect(peak > 1.05)
        #expect(back.progress(at: 1) == 1)
        // x outside [0, 1] would run time backwards: clamped. A NaN makes the curve linear.
        #expect(TimingCurve(x1: -2, y1: 0, x2: 3, y2: 1) == TimingCurve(x1: 0, y1: 0, x2: 1, y2: 1))
        #expect(TimingCurve(x1: .nan, y1: 0, x2: 0.5, y2: 1) == .linear)
    }
}

/// Spring timing against its closed form, worked from the spring's equation.
@Suite struct SpringTimingTests {
    @Test func criticallyDampedFollowsItsClosedFormAndNeverOvershoots() {
        let spring = SpringTiming(dampingRatio: 1, duration: 0.5)
        // ω = ln 1000 / 0.5 = 13.8155…; at t = 0.1 s: 1 − e^(−1.38155)·(1 + 1.38155).
        let w = 6.907_755_278_982_137 / 0.5
        #expect(abs(spring.omega - w) < 1e-9)
        let expected = 1 - 0.251_188_643_150_958 * (1 + 1.381_551_055_796_427)
        #expect(abs(spring.progress(at: 0.2) - expected) < 1e-9)
        let path = (0...1000).map { spring.progress(at: Double($0) / 1000) }
        #expect(path.allSatisfy { $0 >= 0 && $0 <= 1 })
        #expect(zip(path, path.dropFirst()).allSatisfy { $0 <= $1 + 1e-12 })
        // Within a thousandth at the end's approach (the envelope's promise, less its factor
        // 1 + ωt), and exactly there at the end.
        #expect(path[999] > 0.98 && path[1000] == 1)
    }

    @Test func underdampedOvershootsByItsEnvelopeAndRings() {
        let spring = SpringTiming(dampingRatio: 0.3, duration: 1)
        let w = spring.omega
        let wd = w * (1 - 0.09).squareRoot()
        // The first peak, at ω_d·t = π: 1 + e^(−ζωπ/ω_d) (from rest: no velocity term).
        let peakTime = Double.pi / wd
        let peak = 1 + seriesExp(-0.3 * w * peakTime)
        #expect(abs(spring.progress(at: peakTime) - peak) < 1e-9)
        #expect(peak > 1.3)
        // It swings back below 1 at the next trough.
        #expect(spring.progress(at: 2 * peakTime) < 1)
        #expect(spring.progress(at: 1) == 1 && spring.progress(at: 0) == 0)
    }

    @Test func aThrownSpringStartsAtItsVelocityAndBadValuesAreTamed() {
        // Initial velocity 5 (five whole ways a second): at the start, the progress rises at 5/s.
        let spring = SpringTiming(dampingRatio: 1, initialVelocity: 5, duration: 0.5)
        let dt = 1e-6
        let slope = spring.progress(at: dt / 0.5) / dt
        #expect(abs(slope - 5) < 1e-3)
        #expect(SpringTiming(dampingRatio: 0, duration: 1).dampingRatio == SpringTiming.minimumDampingRatio)
        #expect(SpringTiming(dampingRatio: 3, duration: 1).dampingRatio == 1)
        #expect(SpringTiming(dampingRatio: .nan, initialVelocity: .infinity, duration: -1).progress(at: 0.5) == 1)
    }
}

/// e^x without Foundation: the test's own, to check the spring against.
private func seriesExp(_ x: Double) -> Double {
    var term = 1.0
    var sum = 1.0
    for n in 1..<200 {
        term *= x / Double(n)
        sum += term
    }
    return sum
}
