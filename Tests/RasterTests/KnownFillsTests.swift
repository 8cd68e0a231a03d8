import Glibc
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayTestSupport
import Testing

/// A canvas that tracks its fills (`KnownFills`, as a window's buffers in their rings do)
/// writes only what its rows do not already hold, and so makes exactly the pixels a canvas
/// that writes everything makes, through any sequence of drawing calls on canvases placed
/// anywhere in the tracked memory.
@Suite struct KnownFillsTests {
    static let blue = Color(rgb: 228, 236, 246)
    static let grey = Color(rgb: 250, 250, 252)

    /// A block of `rows` rows of `width` pixels, zeroed.
    final class Memory {
        let width: Int
        let rows: Int
        let pixels: UnsafeMutablePointer<UInt32>
        init(width: Int, rows: Int) {
            (self.width, self.rows) = (width, rows)
            pixels = .allocate(capacity: width * rows)
            pixels.initialize(repeating: 0, count: width * rows)
        }
        deinit { pixels.deallocate() }
        /// A canvas on `height` rows from row `row`.
        func canvas(row: Int, height: Int) throws -> Canvas {
            try Canvas(
                wrapping: UnsafeMutableRawPointer(pixels + row * width), width: width, height: height,
                stride: width * 4, owner: self)
        }
        var all: [UInt32] { Array(UnsafeBufferPointer(start: pixels, count: width * rows)) }
    }

    /// A block of memory, its tracker, and a canvas tracking `height` of its rows from `row`.
    static func tracked(width: Int, rows: Int, row: Int, height: Int) throws -> (Memory, KnownFills, Canvas) {
        let memory = Memory(width: width, rows: rows)
        let known = KnownFills(width: width, rows: rows)
        let canvas = try memory.canvas(row: row, height: height)
        canvas.trackFills(known, fromRow: row)
        return (memory, known, canvas)
    }

    /// Rows known to hold a fill's colour are left as they are: only the columns drawn over
    /// since (an image, here) are written again. Pixels poked behind the canvas's back show
    /// which were written.
    @Test func aFillWritesOnlyWhatRowsDoNotHoldAlready() throws {
        let (memory, known, canvas) = try Self.tracked(width: 64, rows: 20, row: 4, height: 10)
        canvas.fill(Rect(x: 0, y: 0, width: 64, height: 10), color: Self.blue)
        #expect(known.known(row: 4)?.colour == Self.blue.premultipliedARGB)
        #expect(known.known(row: 4)?.differs.isEmpty == true)
        #expect(known.known(row: 3) == nil && known.known(row: 14) == nil)
        // Text-like: a translucent image over columns 10..<30 of rows 2..<6.
        let image = try Canvas(width: 20, height: 4)
        image.fill(Rect(x: 0, y: 0, width: 20, height: 4), color: Color(red: 0, green: 0, blue: 0, alpha: 0.5))
        canvas.draw(image, at: Point(x: 10, y: 2))
        #expect(known.known(row: 6)?.differs == 10..<30)
        #expect(known.known(row: 10)?.differs.isEmpty == true)
        // Poke a marker into every pixel of rows 0..<10 behind the canvas's back.
        let marker: UInt32 = 0x1234_5678
        for y in 4..<14 { for x in 0..<64 { memory.pixels[y * 64 + x] = marker } }
        canvas.fill(Rect(x: 0, y: 0, width: 64, height: 10), color: Self.blue)
        for y in 0..<10 {
            for x in 0..<64 {
                let drawnOver = (2..<6).contains(y) && (10..<30).contains(x)
                #expect(canvas.pixel(x: x, y: y) == (drawnOver ? Self.blue.premultipliedARGB : marker))
            }
        }
        #expect(known.known(row: 6)?.differs.isEmpty == true)
        // Another colour writes every pixel of the fill, and the rows take it.
        canvas.fill(Rect(x: 0, y: 3, width: 64, height: 2), color: Self.grey)
        #expect((0..<64).allSatisfy { canvas.pixel(x: $0, y: 3) == Self.grey.premultipliedARGB })
        #expect(known.known(row: 7)?.colour == Self.grey.premultipliedARGB)
        // A fill reaching one edge: the row takes its colour and the rest differs.
        canvas.fill(Rect(x: 0, y: 0, width: 40, height: 1), color: Self.grey)
        #expect(known.known(row: 4)?.colour == Self.grey.premultipliedARGB)
        #expect(known.known(row: 4)?.differs == 40..<64)
    }

    /// The rule's limits: raw access forgets, a translucent fill and a copy from an untracked
    /// canvas mark what they touch, a copy of whole rows from a tracked canvas carries what it
    /// knew, and a row nothing is known of is written whole.
    @Test func whatOtherCallsLeaveKnown() throws {
        let (_, known, canvas) = try Self.tracked(width: 32, rows: 16, row: 0, height: 16)
        canvas.fill(Rect(x: 0, y: 0, width: 32, height: 16), color: Self.blue)
        canvas.fill(Rect(x: 4, y: 0, width: 8, height: 2), color: Color(red: 1, green: 0, blue: 0, alpha: 0.5))
        #expect(known.known(row: 1)?.differs == 4..<12)
        let plain = try Canvas(width: 32, height: 16)
        canvas.copyPixels(from: plain, to: PixelRect(x: 0, y: 2, width: 32, height: 2))
        #expect(known.known(row: 3) == nil)
        #expect(known.known(row: 4)?.differs.isEmpty == true)
        let other = Memory(width: 32, rows: 8)
        let otherKnown = KnownFills(width: 32, rows: 8)
        let tracked = try other.canvas(row: 0, height: 8)
        tracked.trackFills(otherKnown, fromRow: 0)
        tracked.fill(Rect(x: 0, y: 0, width: 32, height: 8), color: Self.grey)
        canvas.copyPixels(from: tracked, to: PixelRect(x: 0, y: 4, width: 32, height: 3), dx: 0, dy: 2)
        #expect(known.known(row: 5)?.colour == Self.grey.premultipliedARGB)
        #expect(known.known(row: 5)?.differs.isEmpty == true)
        canvas.withPixels { _ in }
        #expect((0..<16).allSatisfy { known.known(row: $0) == nil })
    }

    /// Random drawing on canvases placed at random rows of one tracked block (as a frame
    /// moves through its ring), with another tracked block to copy from: after every call the
    /// memory is exactly what the same calls make without tracking.
    @Test(arguments: [(1, 61, false), (2, 64, true), (3, 200, true), (4, 160, false), (5, 200, true)])
    func trackedMemoryAlwaysHoldsWhatUntrackedDrawingMakes(seed: UInt64, width: Int, streams: Bool) throws {
        let (rows, height) = (72, 40)
        let (tracked, plain) = (Memory(width: width, rows: rows), Memory(width: width, rows: rows))
        let (source, plainSource) = (Memory(width: width, rows: height), Memory(width: width, rows: height))
        let known = KnownFills(width: width, rows: rows)
        let sourceKnown = KnownFills(width: width, rows: height)
        let sourceCanvas = try source.canvas(row: 0, height: height)
        sourceCanvas.trackFills(sourceKnown, fromRow: 0)
        let plainSourceCanvas = try plainSource.canvas(row: 0, height: height)
        var rng = SeededRandom(state: seed)
        func int(_ lo: Int, _ hi: Int) -> Int {
            min(hi - 1, lo + Int(clamping: rng.unit(0, Double(hi - lo)), rounding: .down))
        }
        let colours = [Self.blue, Self.grey, .white, Color(rgb: 20, 90, 200)]
        let text = try Canvas(width: 24, height: 12)
        text.fill(Rect(x: 2, y: 2, width: 18, height: 7), color: Color(red: 0.1, green: 0.1, blue: 0.1, alpha: 0.7))
        var row = int(0, rows - height + 1)
        var (canvas, reference) = (
            try tracked.canvas(row: row, height: height), try plain.canvas(row: row, height: height)
        )
        for c in [canvas, reference, sourceCanvas, plainSourceCanvas] { c.streamsFills = streams }
        canvas.trackFills(known, fromRow: row)
        for step in 0..<1_500 {
            let rect = Rect(
                x: Double(int(-4, width)), y: Double(int(-4, height)), width: Double(int(1, width + 8)),
                height: Double(int(1, height / 2)))
            let clip: [PixelRect]? =
                rng.unit(0, 1) < 0.3
                ? (0..<int(1, 4)).map { _ in
                    PixelRect(x: int(0, width), y: int(0, height), width: int(1, width), height: int(1, height))
                } : nil
            func both(_ body: (Canvas) -> Void) {
                for c in [canvas, reference] {
                    if let clip { c.withClip(pixels: clip) { body(c) } } else { body(c) }
                }
            }
            switch rng.unit(0, 1) {
            case ..<0.45:
                let colour = colours[int(0, colours.count)]
                let wide = rng.unit(0, 1) < 0.6
                let r = wide ? Rect(x: 0, y: rect.minY, width: Double(width), height: rect.height) : rect
                both { $0.fill(r, color: colour, blend: rng.unit(0, 1) < 0.5 ? .over : .copy) }
            case ..<0.55:
                both { $0.fill(rect, color: Color(red: 1, green: 0, blue: 0, alpha: 0.4)) }
            case ..<0.72:
                let at = Point(x: Double(int(-10, width)), y: Double(int(-6, height)))
                both { $0.draw(text, at: at) }
            case ..<0.8:
                let r = PixelRect(x: 0, y: int(0, height), width: width, height: int(1, height))
                let whole = rng.unit(0, 1) < 0.7
                let move = (whole ? r : PixelRect(x: 2, y: r.y0, width: width - 4, height: r.height))
                let (dx, dy) = (whole ? 0 : int(-2, 3), int(-8, 9))
                both { $0.shift(move, dx: dx, dy: dy) }
            case ..<0.9:
                // Something into the source blocks, and rows copied from them.
                let colour = colours[int(0, colours.count)]
                let r = Rect(x: 0, y: Double(int(0, height)), width: Double(width), height: Double(int(1, 12)))
                for s in [sourceCanvas, plainSourceCanvas] {
                    s.fill(r, color: colour)
                    s.draw(text, at: Point(x: 3, y: r.minY))
                }
                let dest = PixelRect(
                    x: rng.unit(0, 1) < 0.8 ? 0 : 3, y: int(0, height), width: width, height: int(1, 16))
                let dy = int(-6, 7)
                canvas.copyPixels(from: sourceCanvas, to: dest, dy: dy)
                reference.copyPixels(from: plainSourceCanvas, to: dest, dy: dy)
            case ..<0.95:
                let r = Rect(x: Double(int(0, width - 8)), y: Double(int(0, height - 8)), width: 8, height: 6)
                both { $0.fillRoundedRect(r, radius: 3, color: Self.grey) }
            default:
                // The frame moves to other rows of the block: a new canvas there.
                row = int(0, rows - height + 1)
                (canvas, reference) = (
                    try tracked.canvas(row: row, height: height), try plain.canvas(row: row, height: height)
                )
                for c in [canvas, reference] { c.streamsFills = streams }
                canvas.trackFills(known, fromRow: row)
            }
            let (a, b) = (tracked.all, plain.all)
            if a != b {
                let i = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }!.offset
                Issue.record("step \(step): row \(i / width), column \(i % width): \(a[i]) against \(b[i])")
                return
            }
        }
    }
}
