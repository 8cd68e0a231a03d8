import ScrollwayGeometry
import ScrollwayRaster
import Testing

@testable import ScrollwayViews

/// A scrolled view's own place on screen does not depend on where it is scrolled to: every
/// frame of a fling whose offset moved by whole device pixels is a move of exactly that many
/// rows, whatever the fractional offsets add up to in floating point. (Its on-screen rect was
/// once worked out through its own bounds origin, `minY + (frameY − minY)`, and at offsets
/// such as 1359.143… a 1080-pixel-high view came out 1080.0000000000002 high: the frame looked
/// resized, and a quarter of a fling's frames at 1920×1080 were composited whole.)
@MainActor
@Suite struct ScrollMoveDetectionTests {
    /// Offsets a decelerating fling passes through: fractional, growing by less each frame.
    static func flingOffsets(count: Int) -> [Double] {
        var offsets: [Double] = []
        var offset = 0.0
        var velocity = 9_000.0  // points per second, 60 frames a second, UIKit's normal rate
        for _ in 0..<count {
            offset += velocity / 60
            velocity *= 0.985
            offsets.append(offset)
        }
        // Offsets seen in a 1080p fling whose frames were composited whole.
        return [1248.0285140856886, 1359.1431681229267, 1520.551349559097, 1622.7228448726644] + offsets
    }

    @Test(arguments: [0.0, 32.0], [1.0, 2.0])
    func everyWholePixelScrollIsAMove(frameY: Double, scale: Double) throws {
        let size = Size(width: 1920, height: 1080 + frameY)
        let window = Window(size: size)
        window.scale = scale
        let scroller = View(frame: Rect(x: 0, y: frameY, width: 1920, height: 1080))
        scroller.clipsToBounds = true
        scroller.backgroundColor = .white
        for i in 0..<400 {
            let row = View(frame: Rect(x: 0, y: Double(i) * 88, width: 1920, height: 88))
            row.backgroundColor = i % 2 == 0 ? Color(rgb: 230, 230, 240) : .white
            scroller.addSubview(row)
        }
        window.addSubview(scroller)
        let canvas = try Canvas(size: size, scale: scale)
        try window.render(into: canvas)
        var last = 0
        var moves = 0
        for offset in Self.flingOffsets(count: 240) {
            scroller.bounds.origin = Point(x: 0, y: offset)
            let update = try window.prepareFrameUpdate(time: 0)
            window.apply(update, to: canvas)
            let snapped = Int(clamping: offset * scale, rounding: .toNearestOrAwayFromZero)
            defer { last = snapped }
            guard snapped != last, abs(snapped - last) < Int(clamping: 1080 * scale) else { continue }
            let move = try #require(update.move, "offset \(offset): no move, damage \(update.damage.rects)")
            #expect(move.dy == last - snapped, "offset \(offset)")
            #expect(
                move.rect
                    == PixelRect(
                        x: 0, y: Int(clamping: frameY * scale), width: Int(clamping: 1920 * scale),
                        height: Int(clamping: 1080 * scale)))
            // Only the exposed strip is painted.
            #expect(update.damage.area == Int(clamping: 1920 * scale) * (snapped - last), "offset \(offset)")
            moves += 1
        }
        #expect(moves > 200)
    }
}
