import Glibc
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWestonHarness
import Testing

@testable import ScrollwayWayland

/// A window's buffer rings are faulted in while it rests, in pieces from the page their frame
/// starts on round the ring (`ShmBuffer.prefault`): a megabyte a turn under a CPU quota, as
/// background work paced with the tile workers (a whole ring at 3840×2160 is tens of
/// milliseconds of page faults, several periods of a small quota), the rest of a ring a turn
/// without one. The time is counted apart from the frame that follows
/// (`FrameStepTimes.idle`). Checked on the real shared memory of a window in headless weston,
/// with `mincore` saying which of a ring's pages are in memory.
@MainActor
@Suite(.serialized) struct IdleWorkInWestonTests {
    /// Pages of `buffer`'s ring in memory in bytes `from..<to` (page aligned).
    static func resident(_ buffer: ShmBuffer, _ range: Range<Int>) throws -> Int {
        var pages = [UInt8](repeating: 0, count: range.count / 4096)
        let rc = mincore(buffer.mapping + range.lowerBound, range.count, &pages)
        try #require(rc == 0, "mincore: \(String(cString: strerror(errno)))")
        return pages.count(where: { $0 & 1 != 0 })
    }

    /// The list scene at 1920×1080 in a headless weston, its first frame on screen, and the step
    /// times of every commit.
    @MainActor final class ListInWeston {
        /// Every commit's times, from the first (which `WaylandApp.init` may make itself).
        final class Commits { var times: [FrameStepTimes] = [] }
        let rig: WestonRig
        let window: Window
        let app: WaylandApp
        private let commits = Commits()
        var times: [FrameStepTimes] { commits.times }

        init(budget: BackgroundBudget? = nil, phaseClock: (@MainActor () -> Double)? = nil) throws {
            let rig = try WestonRig(width: 1920, height: 1080)
            window = Scene.list.makeWindow(size: Size(width: 1920, height: 1080))
            window.backgroundBudget = budget
            window.phaseClock = phaseClock
            let commits = commits
            do {
                app = try WaylandApp(
                    content: window, title: "Scrollway idle work test", socket: rig.socketPath,
                    onCommit: { _, t in commits.times.append(t) })
            } catch {
                rig.stop()
                throw error
            }
            self.rig = rig
            // Idle work waits for a frame on screen; the turn that commits one does none (its
            // frame callback is out).
            try app.pump(until: { self.app.window.framesCommitted > 0 }, timeout: 10, "the first frame")
        }

        isolated deinit { rig.stop() }

        /// Scrolls the list a little and returns the times of the frame that shows it.
        func scrolled() throws -> FrameStepTimes {
            let main = try #require(window.view(named: "main") as? ScrollView)
            let committed = times.count
            main.contentOffset.y += 40
            try app.pump(until: { self.times.count > committed }, timeout: 10, "a frame after the scroll")
            return try #require(times.last)
        }
    }

    @Test func ringsAreFaultedInAPieceAtATimeAndCountedApartFromFrames() throws {
        let list = try ListInWeston()
        let app = list.app
        let pool = try #require(app.window.pool)
        let piece = ShmBuffer.prefaultPieceBytes
        // The second buffer was never drawn: none of its ring is in memory. A piece faults in
        // exactly one piece, starting where its frame starts (a buffer drawn before its ring is
        // all faulted in finds its frame's pages there), and the pieces then go round the ring.
        let second = try #require(pool.buffers.last)
        try #require(second.frame == nil && second.prefaultedBytes == 0)
        let ringBytes = ShmBuffer.ringBytes(frameBytes: second.frameBytes, offsetScrolling: true)
        let start = second.frameOffset / 4096 * 4096
        try #require(start > piece && ringBytes - start > piece, "the frame starts \(start) bytes in")
        #expect(try Self.resident(second, 0..<ringBytes) == 0)
        second.prefault()
        #expect(second.prefaultedBytes == piece)
        #expect(try Self.resident(second, start..<(start + piece)) == piece / 4096)
        #expect(try Self.resident(second, 0..<ringBytes) == piece / 4096)
        // To the ring's end (the last piece shorter), then from its start.
        while second.prefaultedBytes < ringBytes - start { second.prefault() }
        #expect(second.prefaultedBytes == ringBytes - start)
        #expect(try Self.resident(second, 0..<start) == 0)
        second.prefault()
        #expect(try Self.resident(second, 0..<piece) == piece / 4096)
        #expect(try Self.resident(second, piece..<start) == 0)
        // The window's idle work does one piece a call, the drawn buffer's first.
        let drawn = try #require(pool.buffers.first)
        let secondDone = second.prefaultedBytes
        #expect(app.window.hasIdleWork)
        #expect(app.window.idleWork())
        #expect(drawn.prefaultedBytes == piece)
        #expect(second.prefaultedBytes == secondDone)
        // The loop does the rest while the window rests: every ring whole, in many pieces.
        try app.pump(until: { !app.window.hasIdleWork }, timeout: 20, "the rings faulted in")
        for b in pool.buffers {
            let ring = (b.prefaultedBytes + 4095) / 4096 * 4096
            #expect(b.prefaulted)
            #expect(try Self.resident(b, 0..<ring) == ring / 4096)
        }
        // The next frame says how long that took, apart from its own time; the one after,
        // with no idle work between, says none.
        #expect(try list.scrolled().idle > 0)
        #expect(try list.scrolled().idle == 0)
        #expect(list.times.first?.idle == 0, "no idle work before the first frame")
    }

    /// A free buffer that holds an older frame is brought up to the newest while the window
    /// rests, by copying what changed since from the buffer holding the newest, when that costs
    /// less than the buffer's own way up: the next frame drawn into it is then only its own
    /// update (a move by offset and the exposed strip), even when the frames before it changed
    /// the whole window. After a scroll its own way (a move by offset, a strip) is cheaper, and
    /// it waits for the next frame.
    @Test func aFreeBufferCatchesUpWhileTheWindowRestsWhenThatSavesWork() throws {
        let list = try ListInWeston()
        let app = list.app
        let pool = try #require(app.window.pool)
        /// Whether every buffer holds the newest frame with the same pixels (a grid of samples).
        func caughtUp() -> Bool {
            let newest = app.window.history.frameNumber
            let a = pool.buffers[0]
            let b = pool.buffers[1]
            guard a.frame == newest, b.frame == newest else { return false }
            for y in stride(from: 0, to: 1080, by: 7) {
                for x in stride(from: 0, to: 1920, by: 5)
                where a.canvas.pixel(x: x, y: y) != b.canvas.pixel(x: x, y: y) {
                    Issue.record("pixel (\(x), \(y)) differs")
                    return false
                }
            }
            return true
        }
        /// Steps until the buffer not holding the newest frame is free and no idle work is left.
        func rest() throws {
            try app.pump(
                until: {
                    let n = app.window.history.frameNumber
                    return pool.buffers.allSatisfy { $0.frame == n || !$0.isBusy } && !app.window.hasIdleWork
                }, timeout: 20, "the window at rest with a free buffer")
        }
        // The second buffer, never drawn, is brought up to the first frame: a copy, not a
        // repaint in the first frame drawn into it.
        try app.pump(until: { app.window.catchUps == 1 }, timeout: 20, "the second buffer caught up")
        #expect(caughtUp())

        // A scroll: the other buffer waits for the next frame, which moves it by the two
        // frames' moves at once.
        _ = try list.scrolled()
        try rest()
        #expect(app.window.catchUps == 1)
        let behind = try #require(pool.buffers.first { $0.frame != app.window.history.frameNumber })
        #expect(behind.frame == app.window.history.frameNumber - 1)

        // A frame that changes the whole window: the free buffer copies it all while idle, and
        // the scroll after is only its own move.
        let committed = app.window.framesCommitted
        list.window.view(named: "main")?.backgroundColor = Color(rgb: 240, 240, 200)
        try app.pump(until: { app.window.framesCommitted > committed }, timeout: 10, "the whole window repainted")
        try app.pump(until: { app.window.catchUps == 2 }, timeout: 20, "the free buffer caught up")
        #expect(caughtUp())
        _ = try list.scrolled()
        guard case .own(let move, let byOffset, let damage) = app.window.lastPlan else {
            Issue.record("\(String(describing: app.window.lastPlan))")
            return
        }
        #expect(move?.dy == -40 && byOffset)
        // The exposed strip, the pinned header and the indicator shown: not the window.
        #expect(damage.area < 1920 * 1080 / 8, "damage \(damage.rects)")
    }

    /// Frame statistics time a frame's phases on the platform's clock, unless the app gave the
    /// window a clock of its own: that one stays, and times the frames.
    @Test func framesArePhasedOnTheAppsClockWhenItGaveOne() throws {
        final class Ticks { var count = 0.0 }
        let ticks = Ticks()
        // A clock a second on at each reading: every phase is whole seconds of readings.
        let list = try ListInWeston(phaseClock: {
            ticks.count += 1
            return ticks.count
        })
        let times = try list.scrolled()
        #expect(ticks.count > 0)
        #expect(times.phases.animate >= 1 && times.phases.animate == times.phases.animate.rounded())
        #expect(times.phases.plan >= 1 && times.phases.plan == times.phases.plan.rounded())
        #expect(times.phases.copy == times.phases.copy.rounded())
        list.app.window.onCommit = nil
        #expect(list.window.phaseClock != nil, "the app's clock is not taken away")
        // Without one of its own, the window is timed while statistics are wanted, and not after.
        let plain = try ListInWeston()
        #expect(plain.window.phaseClock != nil)
        #expect(try plain.scrolled().phases.animate < 1)
        plain.app.window.onCommit = nil
        #expect(plain.window.phaseClock == nil)
    }

    /// Under a CPU quota each turn of the loop that does idle work does a piece: the budget says
    /// at the piece's end how long the next must wait, and the loop's timer is armed for then
    /// (it armed a timer for at once, and turned once more only to learn of the wait). Those
    /// turns are idle time too, left out of the next frame's time.
    @Test func underAQuotaEachIdleTurnDoesAPiece() throws {
        // A quarter of a core saved up for a millisecond: every piece past the first few waits
        // three times what it took.
        let list = try ListInWeston(
            budget: BackgroundBudget(
                share: 0.25, period: 0.004, wallClock: { FrameStepTimes.seconds(CLOCK_MONOTONIC) },
                threadCPUClock: { FrameStepTimes.threadSeconds() }))
        let app = list.app
        let pool = try #require(app.window.pool)
        func faulted() -> Int { pool.buffers.reduce(0) { $0 + $1.prefaultedBytes } }
        var pieces = 0
        var otherTurns = 0
        var last = faulted()
        // Turns that wait as long as the loop's own timer says (`pump` would wake every 50 ms,
        // turns of its own on a loaded machine); a second at most, in case nothing is armed.
        let deadline = FrameStepTimes.seconds(CLOCK_MONOTONIC) + 60
        while app.window.hasIdleWork {
            try #require(FrameStepTimes.seconds(CLOCK_MONOTONIC) < deadline, "the rings faulted in within 60 s")
            try app.step(maxWait: 1)
            let now = faulted()
            if now > last { pieces += 1 } else { otherTurns += 1 }
            last = now
        }
        // Two rings of 12.4 MB, a megabyte a piece; the other turns are the compositor's events
        // (the first frame's release and presentation). Asking for the wait in a turn of its
        // own made about one more turn a piece.
        #expect(pieces >= 24)
        #expect(otherTurns * 3 <= pieces, "\(otherTurns) turns without a piece for \(pieces) pieces")
        // The next frame says the idle turns' time, apart from its own.
        #expect(try list.scrolled().idle > 0)
    }
}
