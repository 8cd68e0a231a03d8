import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayHeadless
import ScrollwayRaster
import ScrollwayScripts
import ScrollwayTestSupport
import ScrollwayViews
import Testing

/// The fast present path's contract: a buffer brought up to date by moving scrolled pixels and
/// compositing only the damage holds exactly the pixels of a full composite, frame after frame,
/// in every scene, at integer and fractional scales, through flings in every direction.
@MainActor
@Suite struct FrameUpdateTests {
    /// Flings and wheel turns in random directions on the frame driver at 60 Hz, each frame
    /// (the first, at time 0, included) drawn by `draw`.
    static func drive(
        _ window: Window, seed: UInt64, gestures: Int, draw: @escaping (Window, Double) throws -> Void
    ) throws {
        var rng = SeededRandom(state: seed)
        let driver = FrameDriver(window: window) { t in try draw(window, t) }
        let size = window.bounds.size
        for _ in 0..<gestures {
            let start = Point(x: size.width * rng.unit(0.2, 0.8), y: size.height * rng.unit(0.2, 0.8))
            let angle = rng.unit(0, 2 * Double.pi)
            let length = rng.unit(60, 320)
            let delta = Point(x: length * cos(angle), y: length * sin(angle))
            let t0 = driver.frameTime(driver.frame) + 0.05
            var b = ScriptBuilder()
            if rng.unit(0, 1) < 0.2 {
                b.add(.pointerMotion(x: start.x, y: start.y), at: 0)
                b.add(.pointerAxis(.vertical, value: delta.y, source: .wheel, value120: nil), at: 0)
                b.add(.pointerFrame, at: 0)
            } else {
                // Five moves 12 ms apart, lifted 10 ms after the last.
                b.drag(from: start, to: start + delta, at: 0, ms: 60, hold: 10, id: 1, step: 12)
            }
            driver.send(b.script, from: t0)
            driver.advance(to: t0 + rng.unit(0.2, 0.9))
            if let failure = driver.failure { throw failure }
        }
    }

    static func samePixels(_ a: Canvas, _ b: Canvas) -> Bool {
        a.width == b.width && a.height == b.height && a.stride == b.stride
            && a.withPixels { pa in b.withPixels { pb in memcmp(pa.baseAddress!, pb.baseAddress!, pa.count * 4) == 0 } }
    }

    @Test(arguments: Scene.all.map(\.name), [1.0, 2.0, 1.5])
    func movedPixelsEqualAFullComposite(scene name: String, scale: Double) throws {
        let scene = try #require(Scene.named(name))
        let window = scene.makeWindow(scale: scale)
        window.waitsForBackgroundWork = true
        // The driver's first frame, at time 0, draws the whole window into it.
        let canvas = try Canvas(size: window.bounds.size, scale: scale)
        var moves = 0
        var frames = 0
        try Self.drive(window, seed: 7, gestures: 4) { window, t in
            let update = try window.prepareFrameUpdate(time: t)
            if update.move != nil { moves += 1 }
            window.apply(update, to: canvas)
            let full = try Canvas(size: window.bounds.size, scale: scale)
            window.composite(into: full)
            frames += 1
            #expect(Self.samePixels(canvas, full), "\(name) at scale \(scale): frame \(frames) (t \(t)) differs")
            if !Self.samePixels(canvas, full) { throw Stop() }
        }
        #expect(frames > 40)
        if scale == 1.5 {
            #expect(moves == 0, "whole device pixels only shift exactly at integer scales")
        } else {
            #expect(moves > frames / 4, "\(name) at scale \(scale): \(moves) of \(frames) frames moved pixels")
        }
    }

    /// Three buffers, a compositor that keeps the newest one and releases the others at random:
    /// every plan `FrameHistory` makes (own pixels moved in place or by offset, copies from the
    /// newest buffer, both at once, repaints) ends with a full composite's pixels. A move by offset loses every
    /// pixel outside the moved rect, so those are scribbled over first.
    @Test(arguments: ["list", "nested", "zoom", "paging"])
    func everyPlanEndsWithTheFrame(scene name: String) throws {
        let window = try #require(Scene.named(name)).makeWindow(scale: 1)
        window.waitsForBackgroundWork = true
        let size = window.bounds.size
        let buffers = try (0..<3).map { _ in try Canvas(size: size, scale: 1) }
        var held: [Int?] = [nil, nil, nil]
        var busy = [false, false, false]
        var history = FrameHistory()
        var rng = SeededRandom(state: 11)
        var kinds: [String: Int] = [:]
        let full = window.pixelBounds
        try Self.drive(window, seed: 3, gestures: 6) { window, t in
            // The compositor releases what it no longer shows, sometimes late, and sometimes what
            // it shows (a renderer that copied it, as weston's GL renderer copies shm buffers).
            for i in 0..<3 where busy[i] && (held[i] != history.frameNumber || rng.unit(0, 1) < 0.3) {
                if rng.unit(0, 1) < 0.7 { busy[i] = false }
            }
            let free = (0..<3).filter { !busy[$0] }
            guard let i = free.max(by: { (held[$0] ?? -1) < (held[$1] ?? -1) }) else { return }
            let update = try window.prepareFrameUpdate(time: t)
            let frame = history.record(update)
            let newest = (0..<3).filter { $0 != i && held[$0] != nil }.max { held[$0]! < held[$1]! }
            let plan = history.plan(
                held: held[i], newest: newest.flatMap { held[$0] }, window: full, movesByOffset: rng.unit(0, 1) < 0.6)
            let canvas = buffers[i]
            kinds[plan.kind, default: 0] += 1
            if let move = plan.offsetMove {
                // What moving the buffer's offset leaves: the kept pixels moved, the rest lost.
                canvas.shift(move.rect, dx: move.dx, dy: move.dy)
                for r in full.subtracting(move.rect) { canvas.fill(r.logical(scale: 1), color: .red, blend: .copy) }
            }
            window.present(plan, into: canvas, newest: newest.map { buffers[$0] })
            held[i] = frame
            busy[i] = true
            let reference = try Canvas(size: size, scale: 1)
            window.composite(into: reference)
            #expect(Self.samePixels(canvas, reference), "\(name): frame \(frame) by \(plan) differs")
            if !Self.samePixels(canvas, reference) { throw Stop() }
            // Now and then a free buffer catches up while idle, as the Wayland window does: the
            // copy leaves it with the frame's pixels, and the plans after still end right.
            for j in 0..<3 where !busy[j] && held[j] != frame && rng.unit(0, 1) < 0.3 {
                guard let copy = history.catchUpCopy(held: held[j], window: full, movesByOffset: true) else { continue }
                window.present(
                    .copy(unshifted: copy, shifted: nil, damage: PixelRegion()), into: buffers[j], newest: canvas)
                held[j] = frame
                kinds["catch-up", default: 0] += 1
                #expect(Self.samePixels(buffers[j], reference), "\(name): frame \(frame) caught up differs")
            }
        }
        #expect((kinds["offset"] ?? 0) > 5, "plans: \(kinds)")
        #expect((kinds["copy"] ?? 0) + (kinds["in-place"] ?? 0) > 0, "plans: \(kinds)")
        #expect((kinds["offset+copy"] ?? 0) + (kinds["in-place+copy"] ?? 0) > 5, "plans: \(kinds)")
        #expect((kinds["catch-up"] ?? 0) > 0, "plans: \(kinds)")
    }

    /// A free buffer catches up while idle when copying what changed costs less than its own
    /// way up: not after a scroll (a move by offset and a strip), but after a frame that
    /// changed the whole window, and for a buffer never drawn; nothing when up to date.
    @Test func aCatchUpCopiesOnlyWhenThatCostsLessThanTheBuffersOwnWay() {
        let window = PixelRect(x: 0, y: 0, width: 100, height: 200)
        var history = FrameHistory()
        _ = history.record(FrameUpdate(damage: PixelRegion(window)))
        _ = history.record(
            FrameUpdate(
                move: .init(rect: window, dx: 0, dy: -10),
                damage: PixelRegion(PixelRect(x: 0, y: 190, width: 100, height: 10))))
        #expect(history.changed(since: 1, window: window).area == window.area)
        #expect(history.catchUpCopy(held: 1, window: window, movesByOffset: true) == nil)
        // In place, the memmove reads and writes nearly every pixel and the strip is still
        // composited: a copy of all is cheaper.
        #expect(history.catchUpCopy(held: 1, window: window, movesByOffset: false)?.area == window.area)
        _ = history.record(FrameUpdate(damage: PixelRegion(PixelRect(x: 0, y: 0, width: 100, height: 150))))
        #expect(history.catchUpCopy(held: 2, window: window, movesByOffset: true)?.area == 100 * 150)
        #expect(history.catchUpCopy(held: nil, window: window, movesByOffset: true)?.area == window.area)
        #expect(history.catchUpCopy(held: 3, window: window, movesByOffset: true) == nil)
        // Frames older than the history reaches: the whole window.
        for _ in 0..<history.depth { _ = history.record(FrameUpdate()) }
        #expect(history.changed(since: 3, window: window).area == window.area)
    }

    @Test func combiningMovesAddsThemAndCarriesDamageAlong() throws {
        let rect = PixelRect(x: 0, y: 0, width: 100, height: 200)
        let first = FrameUpdate(
            move: .init(rect: rect, dx: 0, dy: -10),
            damage: PixelRegion([
                PixelRect(x: 0, y: 190, width: 100, height: 10), PixelRect(x: 90, y: 0, width: 10, height: 30),
            ]))
        let second = FrameUpdate(
            move: .init(rect: rect, dx: 0, dy: -15),
            damage: PixelRegion(PixelRect(x: 0, y: 185, width: 100, height: 15)))
        let combined = try #require(FrameUpdate.combining([first, second]))
        #expect(combined.move == .init(rect: rect, dx: 0, dy: -25))
        // The first frame's exposed strip moved up by the second move; its indicator too.
        let expected = PixelRegion([
            PixelRect(x: 0, y: 175, width: 100, height: 25), PixelRect(x: 90, y: 0, width: 10, height: 15),
        ])
        #expect(combined.damage.area == expected.area)
        #expect(combined.damage.subtracting(expected).isEmpty)
        // Moves of two different rects do not combine.
        let other = FrameUpdate(move: .init(rect: PixelRect(x: 0, y: 0, width: 50, height: 50), dx: 1, dy: 0))
        #expect(FrameUpdate.combining([first, other]) == nil)
        // Moves that cancel out leave only damage.
        let back = FrameUpdate(move: .init(rect: rect, dx: 0, dy: 10))
        #expect(FrameUpdate.combining([first, back])?.move == nil)
    }

    @MainActor
    struct Stop: Error {}
}
