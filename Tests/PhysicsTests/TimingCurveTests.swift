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
