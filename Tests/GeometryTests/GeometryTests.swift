import ScrollwayGeometry
import Testing

@Suite struct RectTests {
    let r = Rect(x: 10, y: 20, width: 100, height: 50)

    @Test func edgesAndCentre() {
        #expect(r.minX == 10 && r.midX == 60 && r.maxX == 110)
        #expect(r.minY == 20 && r.midY == 45 && r.maxY == 70)
        #expect(r.center == Point(x: 60, y: 45))
    }

    @Test func containsIsHalfOpen() {
        #expect(r.contains(Point(x: 10, y: 20)))
        #expect(r.contains(Point(x: 109.999, y: 69.999)))
        #expect(!r.contains(Point(x: 110, y: 30)))
        #expect(!r.contains(Point(x: 50, y: 70)))
        #expect(!Rect.zero.contains(Point.zero))
        #expect(r.contains(Rect(x: 10, y: 20, width: 100, height: 50)))
        #expect(!r.contains(Rect(x: 10, y: 20, width: 101, height: 50)))
    }

    @Test func intersection() {
        let s = Rect(x: 100, y: 60, width: 50, height: 50)
        #expect(r.intersection(s) == Rect(x: 100, y: 60, width: 10, height: 10))
        // Touching edges share no area.
        #expect(r.intersection(Rect(x: 110, y: 20, width: 5, height: 5)) == nil)
        #expect(!r.intersects(Rect(x: 0, y: 0, width: 10, height: 20)))
        #expect(r.intersection(Rect(x: 50, y: 30, width: 0, height: 10)) == nil)
    }

    @Test func unionIgnoresEmpty() {
        let s = Rect(x: 0, y: 0, width: 5, height: 5)
        #expect(r.union(s) == Rect(x: 0, y: 0, width: 110, height: 70))
        #expect(Rect.zero.union(r) == r)
        #expect(r.union(Rect(x: 500, y: 500, width: 0, height: 0)) == r)
        #expect(Rect.zero.union(.zero) == .zero)
    }

    @Test func insetAndOffset() {
        #expect(r.insetBy(dx: 5, dy: 10) == Rect(x: 15, y: 30, width: 90, height: 30))
        #expect(r.insetBy(dx: -5, dy: -5) == Rect(x: 5, y: 15, width: 110, height: 60))
        #expect(r.insetBy(dx: 60, dy: 0).width == 0)
        #expect(r.offsetBy(dx: -10, dy: 5) == Rect(x: 0, y: 25, width: 100, height: 50))
        #expect(r.offset(by: Point(x: 1, y: 2)) == Rect(x: 11, y: 22, width: 100, height: 50))
    }

    @Test func integralRoundsOutwards() {
        let f = Rect(x: 0.5, y: 1.25, width: 10, height: 2.5)
        #expect(f.integral == Rect(x: 0, y: 1, width: 11, height: 3))
        // At scale 2 the grid is half a logical pixel.
        #expect(f.aligned(toScale: 2) == Rect(x: 0.5, y: 1, width: 10, height: 3))
        // Already aligned: unchanged, despite float noise.
        #expect(
            Rect(x: 0.1 + 0.2, y: 0, width: 0.7, height: 1).aligned(toScale: 10)
                == Rect(x: 0.3, y: 0, width: 0.7, height: 1))
    }

    @Test func roundingToDevicePixels() {
        #expect(
            Rect(x: 0.4, y: 0.6, width: 10.2, height: 1).rounded(toScale: 1) == Rect(x: 0, y: 1, width: 11, height: 1))
        #expect(212.4.roundedToDevicePixel(scale: 1) == 212)
        #expect(212.4.roundedToDevicePixel(scale: 2) == 212.5)
        #expect(212.4.roundedToDevicePixel(scale: 1.5) == 319.0 / 1.5)
        #expect(Rect(x: 1, y: 2, width: 3, height: 4).scaled(by: 2) == Rect(x: 2, y: 4, width: 6, height: 8))
    }
}

@Suite struct EdgeInsetsTests {
    @Test func arithmetic() {
        let a = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
        let b = EdgeInsets(top: 10, left: 20, bottom: 30, right: 40)
        #expect(a + b == EdgeInsets(top: 11, left: 22, bottom: 33, right: 44))
        #expect(b - a == EdgeInsets(top: 9, left: 18, bottom: 27, right: 36))
        #expect(a.horizontal == 6 && a.vertical == 4)
    }

    @Test func appliedToRect() {
        let r = Rect(x: 0, y: 0, width: 320, height: 480)
        let i = EdgeInsets(top: 60, left: 0, bottom: 216, right: 10)
        #expect(r.inset(by: i) == Rect(x: 0, y: 60, width: 310, height: 204))
        // Negative insets grow the rect.
        #expect(
            r.inset(by: EdgeInsets(top: -5, left: -5, bottom: 0, right: 0))
                == Rect(x: -5, y: -5, width: 325, height: 485))
    }
}

@Suite struct AffineTransformTests {
    @Test func scaleAboutCentreDoublesAroundIt() {
        let frame = Rect(x: 100, y: 100, width: 50, height: 20)
        let t = AffineTransform(scale: 2).about(frame.center)
        #expect(t.apply(to: frame) == Rect(x: 75, y: 90, width: 100, height: 40))
        #expect(t.apply(to: frame).center == frame.center)
    }

    @Test func concatenationOrderAndInverse() {
        let t = AffineTransform(scale: 4).translatedBy(x: 5, y: -7)
        #expect(t.apply(to: Point(x: 1, y: 1)) == Point(x: 9, y: -3))
        let inv = t.inverted!
        #expect(inv.apply(to: Point(x: 9, y: -3)) == Point(x: 1, y: 1))
        #expect(t.concatenating(inv).isIdentity)
        #expect(AffineTransform(scaleX: 0, y: 1).inverted == nil)
    }
}

@Suite struct CompositionTests {
    /// The seeds' rule: a subview appears at frame.origin − superview.bounds.origin.
    @Test func subviewMovesOppositeToBoundsOrigin() {
        let button = Point(x: 20, y: 15)
        #expect(
            Composition.compositedPosition(frameOrigin: button, superviewBoundsOrigin: .zero) == Point(x: 20, y: 15))
        #expect(
            Composition.compositedPosition(frameOrigin: button, superviewBoundsOrigin: Point(x: -30, y: -30))
                == Point(x: 50, y: 45))
        // The bounds article: blue at (40, 400) shows at (40, 300) when bounds.origin is (0, 100).
        let blue = Rect(x: 40, y: 400, width: 200, height: 150)
        #expect(
            Composition.compositedRect(frame: blue, superviewBoundsOrigin: Point(x: 0, y: 100))
                == Rect(x: 40, y: 300, width: 200, height: 150))
    }
}

@Suite struct RegionTests {
    @Test func dropsCoveredRectsAndCollapsesPastTheLimit() {
        var r = Region()
        r.add(Rect(x: 0, y: 0, width: 10, height: 10))
        r.add(Rect(x: 2, y: 2, width: 3, height: 3))  // covered: dropped
        #expect(r.rects == [Rect(x: 0, y: 0, width: 10, height: 10)])
        r.add(Rect(x: -5, y: -5, width: 30, height: 30))  // covers: replaces
        #expect(r.rects == [Rect(x: -5, y: -5, width: 30, height: 30)])
        r.add(Rect(x: 100, y: 0, width: 0, height: 5))  // empty: ignored
        #expect(r.rects.count == 1)

        var small = Region(maxRects: 2)
        small.add(Rect(x: 0, y: 0, width: 1, height: 1))
        small.add(Rect(x: 10, y: 0, width: 1, height: 1))
        small.add(Rect(x: 0, y: 10, width: 1, height: 1))
        #expect(small.rects == [Rect(x: 0, y: 0, width: 11, height: 11)])
        #expect(
            small.clipped(to: Rect(x: 5, y: 5, width: 100, height: 100)).rects == [
                Rect(x: 5, y: 5, width: 6, height: 6)
            ])
    }
}
