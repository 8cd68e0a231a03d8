import Glibc
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayTestSupport
import ScrollwayViews
import Testing

@testable import ScrollwayWayland

/// A buffer's ring on plain memory: whatever the scroll does (long laps one way, turns, small
/// diagonal steps, moves of part of the frame, recentrings at both ends), the frame in the ring
/// always holds exactly the pixels a frame moved in place would.
///
/// Two widths: 64 pixels (rows of 256 bytes, on 16-byte boundaries) and 61 (rows of 244 bytes,
/// so the streaming copy's unaligned ends are used).
@MainActor
@Suite struct ShmRingTests {
    static let height = 48

    /// The frame as the ring holds it, row by row.
    static func frame(_ ring: ShmRing, width: Int) -> [UInt32] {
        let pixels = (ring.mapping + ring.offset).assumingMemoryBound(to: UInt32.self)
        return (0..<(width * height)).map { pixels[$0] }
    }

    @Test(arguments: zip([1, 2, 3, 4], [64, 64, 64, 61]))
    func theFrameIsAlwaysTheFrameMovedInPlace(seed: UInt64, width: Int) throws {
        let (w, h) = (width, Self.height)
        let plain = PlainRing(width: w, height: h, byte: 0xAB)
        defer { withExtendedLifetime(plain) {} }  // its memory is used through raw pointers
        let memory = plain.memory
        var ring = plain.ring()
        var rng = SeededRandom(state: seed)
        var expected = [UInt32](repeating: 0, count: w * h)
        var next: UInt32 = 1
        // Draws `rect` into both the ring's frame and the expected one, with new values.
        func draw(_ rect: PixelRect) {
            let pixels = (memory + ring.offset).assumingMemoryBound(to: UInt32.self)
            for y in rect.y0..<rect.y1 {
                for x in rect.x0..<rect.x1 {
                    pixels[y * w + x] = next
                    expected[y * w + x] = next
                    next &+= 1
                }
            }
        }
        let whole = PixelRect(x: 0, y: 0, width: w, height: h)
        draw(whole)
        var direction = 1
        for step in 0..<600 {
            if rng.unit(0, 1) < 0.03 { direction = -direction }
            // Usually a whole-frame vertical scroll; sometimes part of the frame, or diagonal.
            let rect =
                rng.unit(0, 1) < 0.2
                ? PixelRect(x: 0, y: 4, width: w - 8, height: h - 4) : whole
            let dy = direction * Int(clamping: rng.unit(1, 7))
            let dx = rng.unit(0, 1) < 0.15 ? Int(clamping: rng.unit(-2, 3)) : 0
            let move = FrameUpdate.Move(rect: rect, dx: dx, dy: dy)
            // The expected frame, moved in place: inside the kept rect each pixel comes from
            // where the move says; everything else is repainted below.
            var moved = expected
            if let kept = move.kept {
                for y in kept.y0..<kept.y1 {
                    for x in kept.x0..<kept.x1 { moved[y * w + x] = expected[(y - dy) * w + (x - dx)] }
                }
            }
            expected = moved
            _ = ring.move(by: move)
            // Repaint what the move did not keep, and now and then some damage elsewhere (an
            // indicator, a header).
            for r in move.kept.map({ whole.subtracting($0) }) ?? [whole] { draw(r) }
            if rng.unit(0, 1) < 0.5 {
                draw(
                    PixelRect(
                        x: Int(clamping: rng.unit(0, Double(w - 4))), y: Int(clamping: rng.unit(0, Double(h - 8))),
                        width: 4, height: 8))
            }
            let shown = Self.frame(ring, width: w)
            let wrong = zip(shown, expected).filter { $0 != $1 }.count
            #expect(wrong == 0, "step \(step): \(wrong) pixels differ after \(move)")
            if wrong > 0 { return }
        }
        #expect(ring.recentres > 10)
    }

    /// The ring with what its rows hold tracked (`KnownFills`), drawn as a window draws it: a
    /// canvas wherever the frame lies (tracking from that row, or not at all off a row
    /// boundary), rows of two background colours with text-like images over them filled into
    /// what each move exposes. Whatever the scroll does, the frame holds exactly the pixels of
    /// an untracked frame moved in place and drawn the same, while the fills skip most of the
    /// pixels they cover.
    @Test(arguments: zip([8, 9, 10], [64, 61, 200]))
    func aTrackedRingHoldsWhatAnUntrackedFrameHolds(seed: UInt64, width: Int) throws {
        let (w, h) = (width, Self.height)
        let plain = PlainRing(width: w, height: h, byte: 0)
        defer { withExtendedLifetime(plain) {} }  // its memory is used through raw pointers
        let (memory, stride, ringBytes) = (plain.memory, plain.stride, plain.ringBytes)
        var ring = plain.ring()
        let known = KnownFills(width: w, rows: ringBytes / stride)
        let reference = try Canvas(width: w, height: h)
        func canvas() throws -> Canvas {
            let c = try Canvas(wrapping: memory + ring.offset, width: w, height: h, stride: stride)
            ring.track(c, in: known)
            return c
        }
        var rng = SeededRandom(state: seed)
        let text = try Canvas(width: 12, height: 6)
        text.fill(Rect(x: 1, y: 1, width: 9, height: 4), color: Color(red: 0.2, green: 0.2, blue: 0.3, alpha: 0.8))
        // Content row y (scrolled with the frame) is in band y / 5, of alternating colours, and
        // has a text image at its band's start.
        var scrolled = 0
        // (The clip set and cleared around the drawing, not `withClip`'s closure, which an
        // optimized build's isolation checking refuses to hand the canvas to.)
        func paint(_ rect: PixelRect, into c: Canvas) {
            c.setClip([
                Rect(x: Double(rect.x0), y: Double(rect.y0), width: Double(rect.width), height: Double(rect.height))
            ])
            defer { c.setClip(nil) }
            let first = rect.y0 + scrolled
            var band = first >= 0 ? first / 5 : -((4 - first) / 5)
            while band * 5 - scrolled < rect.y1 {
                let y = Double(band * 5 - scrolled)
                let colour = band % 2 == 0 ? Color(rgb: 250, 250, 252) : Color(rgb: 228, 236, 246)
                c.fill(Rect(x: 0, y: y, width: Double(w), height: 5), color: colour)
                c.draw(text, at: Point(x: 3, y: y))
                band += 1
            }
        }
        let whole = PixelRect(x: 0, y: 0, width: w, height: h)
        paint(whole, into: try canvas())
        paint(whole, into: reference)
        var direction = 1
        var knowing = 0
        for step in 0..<500 {
            if rng.unit(0, 1) < 0.04 { direction = -direction }
            let dy = direction * Int(clamping: rng.unit(1, 9), rounding: .down)
            let dx = rng.unit(0, 1) < 0.03 ? 1 : 0
            let move = FrameUpdate.Move(rect: whole, dx: dx, dy: dy)
            _ = ring.move(by: move, knownFills: known)
            reference.shift(whole, dx: dx, dy: dy)
            scrolled -= dy
            let c = try canvas()
            for r in move.kept.map({ whole.subtracting($0) }) ?? [whole] {
                paint(r, into: c)
                paint(r, into: reference)
            }
            let shown = Self.frame(ring, width: w)
            let wanted = reference.withPixels { Array($0.prefix(w * h)) }
            let wrong = zip(shown, wanted).filter { $0 != $1 }.count
            #expect(wrong == 0, "step \(step): \(wrong) pixels differ after \(move)")
            if wrong > 0 { return }
            // Steps at which the tracker knew the colour of nearly every row of the frame, all
            // but the text's columns: the fills had only those to write again.
            let knownRows = (ring.row..<(ring.row + h)).filter { row in
                known.known(row: row).map { $0.differs.count <= 12 } ?? false
            }
            if knownRows.count >= h * 9 / 10 { knowing += 1 }
        }
        #expect(ring.recentres > 10)
        #expect(knowing > 300)
    }

    /// Two rings drawn in turn, as a window's two buffers are: a ring that must recentre, its
    /// pixels then copied from the other (the frame before, shifted by this frame's move), lands at the
    /// end of its ring the scroll is going from, and, with only what that copy leaves out
    /// painted, holds exactly the newest frame; the other ring (the compositor's to read) is
    /// never written.
    @Test(arguments: zip([5, 6, 7], [64, 61, 64]))
    func aRecentringCopiesTheFrameBeforeFromTheOtherRing(seed: UInt64, width: Int) throws {
        let (w, h) = (width, Self.height)
        let stride = w * 4
        let frameBytes = stride * h
        let ringBytes = ShmBuffer.ringBytes(frameBytes: frameBytes, offsetScrolling: true)
        let memory = (0..<2).map { _ in UnsafeMutableRawPointer.allocate(byteCount: ringBytes, alignment: 4096) }
        defer { memory.forEach { $0.deallocate() } }
        var rings = memory.map { ShmRing(mapping: $0, ringBytes: ringBytes, frameBytes: frameBytes, stride: stride) }
        var rng = SeededRandom(state: seed)
        var next: UInt32 = 1
        let whole = PixelRect(x: 0, y: 0, width: w, height: h)
        // Frame n is the frame before moved by moves[n], its exposed part and one small rect
        // painted with new values.
        var frames = [[UInt32](repeating: 0, count: w * h)]
        var moves: [FrameUpdate.Move] = [FrameUpdate.Move(rect: whole, dx: 0, dy: 0)]
        func paint(_ rects: [PixelRect], into frame: inout [UInt32]) {
            for r in rects {
                for y in r.y0..<r.y1 {
                    for x in r.x0..<r.x1 {
                        frame[y * w + x] = next
                        next &+= 1
                    }
                }
            }
        }
        paint([whole], into: &frames[0])
        // Copies `rects` of frame `n` into ring `i` (what the caller composites).
        func fill(_ i: Int, _ rects: [PixelRect], from n: Int) {
            let pixels = (rings[i].mapping + rings[i].offset).assumingMemoryBound(to: UInt32.self)
            for r in rects {
                for y in r.y0..<r.y1 {
                    for x in r.x0..<r.x1 { pixels[y * w + x] = frames[n][y * w + x] }
                }
            }
        }
        fill(0, [whole], from: 0)
        // Ring `i`'s frame as a canvas (as a buffer's is).
        func canvas(_ i: Int) throws -> Canvas {
            try Canvas(wrapping: rings[i].mapping + rings[i].offset, width: w, height: h, stride: stride, owner: nil)
        }
        var direction = 1
        var (forwards, backwards) = (0, 0)
        for n in 1..<400 {
            if rng.unit(0, 1) < 0.05 { direction = -direction }
            // The scroll view is the whole frame, or (rows copied one by one) part of it,
            // sometimes moved diagonally.
            let partial = rng.unit(0, 1) < 0.25
            let rect = partial ? PixelRect(x: 0, y: 4, width: w - 8, height: h - 4) : whole
            let dx = partial && rng.unit(0, 1) < 0.5 ? Int(clamping: rng.unit(-2, 3)) : 0
            let move = FrameUpdate.Move(rect: rect, dx: dx, dy: direction * Int(clamping: rng.unit(2, 9)))
            var frame = frames[n - 1]
            if let kept = move.kept {
                for y in kept.y0..<kept.y1 {
                    for x in kept.x0..<kept.x1 { frame[y * w + x] = frames[n - 1][(y - move.dy) * w + (x - move.dx)] }
                }
            }
            let damage = PixelRect(
                x: Int(clamping: rng.unit(0, Double(w - 4))), y: Int(clamping: rng.unit(0, Double(h - 8))), width: 4,
                height: 8)
            paint(move.kept.map { whole.subtracting($0) } ?? [whole], into: &frame)
            paint([damage], into: &frame)
            frames.append(frame)
            moves.append(move)
            // Ring n % 2 holds frame n − 2 (nothing before frame 1); the other, frame n − 1.
            let (i, other) = (n % 2, 1 - n % 2)
            let before = moves[n - 1]
            let combined =
                n >= 2 && before.rect == move.rect
                ? FrameUpdate.Move(rect: move.rect, dx: before.dx + move.dx, dy: before.dy + move.dy) : move
            guard n >= 2, !rings[i].fits(combined) else {
                // Not this test's subject (`theFrameIsAlwaysTheFrameMovedInPlace` is): moved,
                // and painted whole.
                if n >= 2 { _ = rings[i].move(by: combined) }
                fill(i, [whole], from: n)
                continue
            }
            let otherBefore = Self.frame(rings[other], width: w)
            let recentres = rings[i].recentres
            let shifted = move.kept.map { FrameUpdate.Move(rect: $0, dx: move.dx, dy: move.dy) }
            rings[i].recentre(for: combined)
            // The frame before, copied as `WaylandWindow.present` copies it (`Canvas.copyPixels`).
            if let shifted {
                let (to, from) = try (canvas(i), canvas(other))
                to.copyPixels(from: from, to: shifted.rect, dx: shifted.dx, dy: shifted.dy)
            }
            // It starts again at the end the scroll comes from, counted.
            let goingForwards = combined.dy * stride + combined.dx * 4 < 0
            // (Less than a row in, on the rows whose contents the ring tracks.)
            let offset = rings[i].offset
            #expect(goingForwards ? offset < stride : offset > ringBytes - frameBytes - stride)
            #expect(offset % stride == rings[i].knownPhase)
            #expect(rings[i].recentres == recentres + 1)
            if goingForwards { forwards += 1 } else { backwards += 1 }
            // What the copy leaves out is painted: the rest of the frame, and this frame's damage.
            fill(i, (shifted.map { whole.subtracting($0.rect) } ?? [whole]) + [damage], from: n)
            let shown = Self.frame(rings[i], width: w)
            let wrong = zip(shown, frames[n]).filter { $0 != $1 }.count
            #expect(wrong == 0, "frame \(n): \(wrong) pixels differ after recentring for \(combined)")
            #expect(Self.frame(rings[other], width: w) == otherBefore, "frame \(n): the other ring was written")
            if wrong > 0 { return }
        }
        // Recentred at both ends, often.
        #expect(forwards > 5 && backwards > 5, "\(forwards) forwards, \(backwards) backwards")
    }
}

/// A ring of `width`×`height` frames on plain memory, every byte `byte` to begin with; freed
/// with it.
@MainActor
final class PlainRing {
    let memory: UnsafeMutableRawPointer
    let stride: Int
    let frameBytes: Int
    let ringBytes: Int

    init(width: Int, height: Int, byte: UInt8) {
        stride = width * 4
        frameBytes = stride * height
        ringBytes = ShmBuffer.ringBytes(frameBytes: frameBytes, offsetScrolling: true)
        memory = UnsafeMutableRawPointer.allocate(byteCount: ringBytes, alignment: 4096)
        memory.initializeMemory(as: UInt8.self, repeating: byte, count: ringBytes)
    }

    isolated deinit { memory.deallocate() }

    /// A ring on the memory, its frame in the middle.
    func ring() -> ShmRing {
        ShmRing(mapping: memory, ringBytes: ringBytes, frameBytes: frameBytes, stride: stride)
    }
}
