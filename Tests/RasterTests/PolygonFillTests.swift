import Foundation
import ScrollwayCPixman
import ScrollwayGeometry
import ScrollwayTestSupport
import Testing

@testable import ScrollwayRaster

/// Convex shapes are filled as horizontal trapezoids (one rasterization per sample row)
/// instead of a fan of triangles (each spanning nearly the whole height). pixman samples an
/// edge the same way whichever shape it bounds, so the two must give the same pixels, byte for
/// byte: these compare them on seeded random shapes, positions and scales.
@Suite struct PolygonFillTests {
    /// Draws `shape` both ways on white canvases and returns how many pixels differ.
    private func differingPixels(scale: Double, _ shape: (Canvas, Bool) -> Void) throws -> Int {
        let a = try Canvas(size: Size(width: 64, height: 64), scale: scale)
        let b = try Canvas(size: Size(width: 64, height: 64), scale: scale)
        a.clear(.white)
        b.clear(.white)
        shape(a, true)
        shape(b, false)
        var differ = 0
        for y in 0..<a.height {
            for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { differ += 1 }
        }
        return differ
    }

    private func fill(_ c: Canvas, _ points: [Point], _ color: Color, trapezoids: Bool) {
        if trapezoids {
            c.fillConvexPolygon(points, color: color)
        } else {
            c.fillConvexPolygonByTriangles(points, color: color)
        }
    }

    @Test func roundedRectsAndEllipsesMatchTheTriangleFan() throws {
        var rng = SeededRandom(state: 2026)
        var shapes = 0
        for scale in [1.0, 2.0, 1.5, 1.25] {
            for _ in 0..<150 {
                let rect = Rect(
                    x: rng.unit(-4, 40), y: rng.unit(-4, 40), width: rng.unit(0.5, 40), height: rng.unit(0.5, 60))
                let radius = rng.unit(0, 20)
                let color = Color(
                    red: rng.unit(0, 1), green: rng.unit(0, 1), blue: rng.unit(0, 1), alpha: rng.unit(0.2, 1))
                let ellipse = rng.next() % 3 == 0
                let differ = try differingPixels(scale: scale) { c, traps in
                    let r = min(radius, rect.width / 2, rect.height / 2)
                    let points = ellipse ? c.ellipseOutline(rect) : c.roundedRectOutline(rect, radius: r)
                    fill(c, points, color, trapezoids: traps)
                }
                #expect(
                    differ == 0, "\(ellipse ? "ellipse" : "rounded rect") \(rect) radius \(radius) at scale \(scale)")
                shapes += 1
            }
        }
        #expect(shapes == 600)
    }

    /// Tall shapes with vertical sides (an indicator's thumb, a button): their straight middle is
    /// rasterized one whole row and copied down, and must still match the triangle fan.
    @Test func tallThumbsMatchTheTriangleFan() throws {
        var rng = SeededRandom(state: 36)
        for _ in 0..<200 {
            let scale = [1.0, 1.5, 2.0, 1.25][Int(rng.next() % 4)]
            let width = rng.unit(3, 12)
            let rect = Rect(x: rng.unit(0, 20), y: rng.unit(-2, 6), width: width, height: rng.unit(8, 58))
            let color = Color(red: 0, green: 0, blue: 0, alpha: rng.unit(0.3, 1))
            let differ = try differingPixels(scale: scale) { c, traps in
                // As `fillRoundedRect` clamps it: a radius past half the height is not convex.
                let r = min(width, rect.height) / 2
                fill(c, c.roundedRectOutline(rect, radius: r), color, trapezoids: traps)
                fill(c, c.roundedRectOutline(rect.insetBy(dx: -1, dy: -1), radius: r + 1), color, trapezoids: traps)
            }
            #expect(differ == 0, "thumb \(rect) at scale \(scale)")
        }
    }

    @Test func randomConvexPolygonsMatchTheTriangleFan() throws {
        var rng = SeededRandom(state: 7)
        for _ in 0..<300 {
            // Points on an ellipse at increasing angles: convex, either winding; a mirrored pair
            // of angles makes a horizontal edge (rounded rects have them too).
            let n = 3 + Int(rng.next() % 14)
            var angles = (0..<n).map { _ in rng.unit(0, 2 * Double.pi) }
            if rng.next() % 3 == 0 {
                let a = rng.unit(0.1, 1.4)
                angles += [a, Double.pi - a]
            }
            angles.sort()
            if rng.next() % 2 == 0 { angles.reverse() }
            let c = Point(x: rng.unit(10, 54), y: rng.unit(10, 54))
            let (rx, ry) = (rng.unit(1, 30), rng.unit(1, 30))
            let points = angles.map { Point(x: c.x + rx * cos($0), y: c.y + ry * sin($0)) }
            let color = Color(red: 0.1, green: 0.4, blue: 0.8, alpha: rng.unit(0.3, 1))
            let scale = [1.0, 2.0, 1.5][Int(rng.next() % 3)]
            let differ = try differingPixels(scale: scale) { canvas, traps in
                fill(canvas, points, color, trapezoids: traps)
            }
            #expect(differ == 0, "polygon \(points) at scale \(scale)")
        }
    }

    /// Shapes far larger than the canvas, mostly outside it (a map block's outline in a tile at
    /// 8× zoom): their masks cover only the canvas (or the clip), and the pixels are pixman's
    /// own, whose mask covers the shapes' whole extents.
    @Test func shapesMostlyOutsideTheCanvasMatchPixmansWholeMask() throws {
        var rng = SeededRandom(state: 4096)
        for i in 0..<120 {
            let scale = [1.0, 1.5, 2.0][i % 3]
            // Up to 4,000 px on a side, placed so that an edge or a corner crosses the canvas.
            let size = Size(width: rng.unit(100, 4_000), height: rng.unit(100, 4_000))
            let corner = Point(x: rng.unit(-size.width + 8, 56), y: rng.unit(-size.height + 8, 56))
            let rect = Rect(origin: corner, size: size)
            let radius = [0, rng.unit(0, 60)][i % 2]
            let lineWidth = rng.unit(0.5, 12)
            let color = Color(red: 0.7, green: 0.2, blue: 0.3, alpha: rng.unit(0.3, 1))
            let clip = i % 4 == 3 ? [Rect(x: rng.unit(0, 30), y: rng.unit(0, 30), width: 20, height: 25)] : nil
            let differ = try differingPixels(scale: scale) { c, clipped in
                let draw = {
                    c.strokeRoundedRect(rect, radius: radius, lineWidth: lineWidth, color: color, byPixman: !clipped)
                    if clipped {
                        c.fillConvexPolygon(c.roundedRectOutline(rect, radius: radius), color: color)
                    } else {
                        c.fillConvexPolygonByTriangles(c.roundedRectOutline(rect, radius: radius), color: color)
                    }
                }
                if let clip { c.withClip(clip, draw) } else { draw() }
            }
            #expect(differ == 0, "\(rect) radius \(radius) line \(lineWidth) clip \(clip ?? []) at scale \(scale)")
        }
    }

    /// Square strokes whose sides fall on the pixel grid are filled as four bands, and the
    /// pixels are those of pixman's own triangles over the whole ring: at scales 1, 2 and 1.5,
    /// translucent or not, under a clip or not, partly off the canvas. A line a device pixel
    /// wide (each side half a pixel off the grid) still goes through the triangles.
    @Test func squareStrokesOnThePixelGridMatchPixmansTriangles() throws {
        var rng = SeededRandom(state: 512)
        var banded = 0
        for i in 0..<150 {
            let scale = [1.0, 2.0, 1.5][i % 3]
            let pixel = 1 / scale
            func pixels(_ lo: Double, _ hi: Double) -> Double { rng.unit(lo, hi).rounded(.down) * pixel }
            let rect = Rect(x: pixels(-60, 70), y: pixels(-60, 70), width: pixels(4, 160), height: pixels(4, 160))
            // An even number of device pixels wide, so that each side's half is whole; one in
            // ten odd.
            let devicePixels = 2 * rng.unit(1, 7).rounded(.down) + (i % 10 == 9 ? 1 : 0)
            let lineWidth = devicePixels * pixel
            let color = Color(red: 0.2, green: 0.3, blue: 0.4, alpha: i % 2 == 0 ? 1 : rng.unit(0.3, 1))
            let clip = i % 4 == 3 ? [Rect(x: rng.unit(0, 30), y: rng.unit(0, 30), width: 20, height: 25)] : nil
            let probe = try Canvas(size: Size(width: 64, height: 64), scale: scale)
            let h = lineWidth / 2
            let bands = Canvas.ringBands(
                outer: probe.fixedBox(rect.insetBy(dx: -h, dy: -h)), inner: probe.fixedBox(rect.insetBy(dx: h, dy: h)))
            // A line wider than the rect fills it whole, without a ring.
            let ring = !rect.insetBy(dx: h, dy: h).isEmpty
            if bands != nil { banded += 1 }
            #expect((bands != nil) == (ring && i % 10 != 9), "\(rect) line \(lineWidth) at scale \(scale)")
            let differ = try differingPixels(scale: scale) { c, ours in
                let draw = {
                    c.strokeRoundedRect(rect, radius: 0, lineWidth: lineWidth, color: color, byPixman: !ours)
                }
                if let clip { c.withClip(clip, draw) } else { draw() }
            }
            #expect(differ == 0, "\(rect) line \(lineWidth) clip \(clip ?? []) at scale \(scale)")
        }
        #expect(banded > 120, "only \(banded) of 150 strokes on the grid")
    }

    @Test func aThumbCostsOneTrapezoidPerBand() throws {
        // A 3 px rounded thumb: its vertices sit at a handful of heights, and each band between
        // two of them is one trapezoid (a fan made 14 triangles, each nearly as tall as the thumb).
        let c = try Canvas(size: Size(width: 10, height: 60))
        let outline = c.roundedRectOutline(Rect(x: 2, y: 3.3, width: 3, height: 40), radius: 1.5)
        let fixed = outline.map {
            pixman_point_fixed_t(x: c.fixed($0.x), y: c.fixed($0.y))
        }
        let traps = Canvas.trapezoids(ofConvex: fixed)
        let heights = Set(fixed.map(\.y)).count
        #expect(traps.count == heights - 1)
        #expect(traps.first?.top == fixed.map(\.y).min())
        #expect(traps.last?.bottom == fixed.map(\.y).max())
    }
}
