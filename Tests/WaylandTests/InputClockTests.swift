import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWaylandCore
import ScrollwayWestonHarness
import Testing

@testable import ScrollwayWayland

/// How input timestamps are put on the window's clock (`InputClock`): exactly when the
/// compositor stamps with our clock, the compositor's spacing kept per gesture when it does not.
@Suite struct InputClockTests {
    /// Our clock's present moment in these tests: about 40 days of uptime, so its milliseconds
    /// are past 2³¹ and the stamps below sit well inside one 32-bit wrap.
    static let now = 3_456_789.0
    static var present: UInt32 { UInt32(truncatingIfNeeded: Int64(clamping: now * 1000, rounding: .down)) }

    /// A swipe read in one batch (a main thread busy for 450 ms while the finger moved) keeps
    /// its stamps' spacing when they are on our clock. Dated at their reading, they were
    /// squeezed into the moment the batch was read: the release velocity came out several
    /// times the finger's (docs/decisions.md, Hostile input 0.15.38).
    @Test func stampsOnOurClockAreTakenAsTheyAreHoweverLateTheyAreRead() {
        var clock = InputClock()
        clock.newGesture()
        let stamps = (0...50).map { Self.present - 400 + UInt32($0 * 8) }
        let times = stamps.map { clock.time($0, now: Self.now + 0.0002, unreadSince: Self.now - 0.45) }
        #expect(abs(times[0] - (Self.now - 0.400)) < 1e-9)
        #expect(abs(times[50] - Self.now) < 1e-9)
        for (a, b) in zip(times, times.dropFirst()) { #expect(abs(b - a - 0.008) < 1e-9) }
        // The gesture's next event, sent late by a busy compositor (more than the slack after
        // the read before): the gesture is on our clock, so it too is dated by its stamp.
        let late = clock.time(Self.present + 8, now: Self.now + 0.2, unreadSince: Self.now + 0.19)
        #expect(abs(late - (Self.now + 0.008)) < 1e-9)
        // A gesture that starts seconds later, read at once, gets its own stamp too.
        clock.newGesture()
        let later = clock.time(Self.present + 3000, now: Self.now + 3.0004, unreadSince: Self.now + 3.0003)
        #expect(abs(later - (Self.now + 3)) < 1e-9)
    }

    /// A stall past any fixed limit (10.4 s) is dated exactly too, the whole batch one way: the
    /// gesture's first event decides its clock. A limit judged event by event dated the old
    /// events at their reading and the new ones by their stamps, 400 ms within 48.
    @Test func aBatchReadLongAfterItsFirstEventIsDatedOneWay() {
        var clock = InputClock()
        clock.newGesture()
        let now = Self.now + 10.4
        let times = (0...50).map {
            clock.time(Self.present + UInt32($0 * 8), now: now, unreadSince: Self.now - 0.01)
        }
        #expect(abs(times[0] - Self.now) < 1e-9)
        #expect(abs(times[50] - times[0] - 0.4) < 1e-9)
    }

    /// A clock running steadily 5 s behind ours (counted from a process's start), its events
    /// read as they come, is not ours: dated seconds back, a long press fired at the touch and
    /// a fling was over at its first frame. Its gesture keeps the compositor's spacing from
    /// the moment its first event is read.
    @Test func aClockSteadilyBehindOursIsAnotherClock() {
        var clock = InputClock()
        clock.newGesture()
        let behind = Self.present - 5000
        #expect(clock.time(behind, now: Self.now + 0.001, unreadSince: Self.now + 0.0005) == Self.now + 0.001)
        let next = clock.time(behind + 16, now: Self.now + 0.017, unreadSince: Self.now + 0.0165)
        #expect(abs(next - (Self.now + 0.017)) < 1e-9)
    }

    /// 32-bit milliseconds wrap every 49.7 days: a stamp from just before the wrap, read just
    /// after it, is 15 ms old, not 49 days ahead.
    @Test func aStampFromBeforeTheWrapIsUnwrappedToIt() {
        var clock = InputClock()
        let now = 4_294_967.301  // 2³² ms is 4,294,967.296 s: 5 ms after the wrap
        #expect(abs(clock.time(UInt32.max - 9, now: now, unreadSince: now - 0.1) - 4_294_967.286) < 1e-9)
        #expect(abs(clock.time(3, now: now, unreadSince: now - 0.1) - 4_294_967.299) < 1e-9)
    }

    /// Another clock (a rig's script times, a virtual device's own): a gesture's first event is
    /// dated when it is read, the rest keep the compositor's spacing from it, a little ahead of
    /// their reading allowed, and a stamp too far ahead or back starts the offset again. A key
    /// is judged on its own.
    @Test func stampsOnAnotherClockKeepTheirSpacingFromTheGesturesFirst() {
        var clock = InputClock()
        func time(_ ms: UInt32, _ dt: Double, alone: Bool = false) -> Double {
            clock.time(ms, now: Self.now + dt, unreadSince: Self.now + dt - 0.001, alone: alone)
        }
        clock.newGesture()
        #expect(time(1000, 0) == Self.now)
        #expect(abs(time(1016, 0.010) - (Self.now + 0.016)) < 1e-9)
        // 40 ms ahead of its reading: delivery's jitter, kept.
        #expect(abs(time(1060, 0.020) - (Self.now + 0.060)) < 1e-9)
        // 80 ms ahead: another base; dated at its reading (never before the last event).
        #expect(time(1200, 0.120) == Self.now + 0.120)
        // A key stamped 0 by a virtual keyboard, read two seconds on: dated then, not before.
        #expect(time(0, 2, alone: true) == Self.now + 2)
        // A key on our clock, read at once, beside the gesture on another: its own stamp.
        #expect(abs(time(Self.present + 2500, 2.5004, alone: true) - (Self.now + 2.5)) < 1e-9)
        #expect(clock.lastEventTime == Self.now + 2.5)
        // A new gesture on the rig's clock whose base moved (a screenshot excused): its first
        // event is dated at its reading again.
        clock.newGesture()
        #expect(time(1300, 5) == Self.now + 5)
    }

    /// Our clock's stamps are those no further back than they can have waited unread, with the
    /// compositor's delay in sending them, and no further ahead than `maxLead`.
    @Test func ourClocksStampsAreThoseThatCanHaveWaitedThatLong() {
        let now = Self.now
        #expect(InputClock.isOnOwnClock(Self.present - 449, now: now, unreadSince: now - 0.4))
        #expect(!InputClock.isOnOwnClock(Self.present - 451, now: now, unreadSince: now - 0.4))
        #expect(InputClock.isOnOwnClock(Self.present - 50, now: now, unreadSince: now))
        #expect(!InputClock.isOnOwnClock(Self.present - 51, now: now, unreadSince: now))
        #expect(InputClock.isOnOwnClock(Self.present + 50, now: now, unreadSince: now))
        #expect(!InputClock.isOnOwnClock(Self.present + 51, now: now, unreadSince: now))
        #expect(!InputClock.isOnOwnClock(1000, now: now, unreadSince: 0))
        #expect(!InputClock.isOnOwnClock(Self.present, now: .nan, unreadSince: 0))
    }
}

/// The same through a real headless weston: the test module passes the stamps the test gives it
/// on to the client as they are.
@MainActor
@Suite(.serialized) struct InputClockInWestonTests {
    /// A slow swipe whose events the client reads in one batch, long after the first (its main
    /// thread was busy), stamped as weston stamps libinput's events, on our clock: the release
    /// velocity is the one offscreen gives the same swipe. Dated at their reading, the swipe's
    /// 400 ms fell within a few, and its velocity came out several times the finger's.
    @Test func aSwipeReadLateInOneBatchReleasesAtTheFingersVelocity() throws {
        let moves = (1...50).map { (t: Double($0 * 8), to: Point(x: 195, y: 520 - 6 * Double($0))) }
        func swipe(_ b: inout ScriptBuilder) {
            b.touch(from: Point(x: 195, y: 520), at: 0, moves: moves, liftAt: 408)
        }
        let offscreen = Scene.list.makeWindow(size: Size(width: 390, height: 600))
        let offscreenMain = try #require(offscreen.view(named: "main") as? ScrollView)
        let offscreenEnd = ReleaseWatch()
        offscreenMain.addEventObserver(offscreenEnd)
        let driver = FrameDriver(window: offscreen)
        driver.send(from: 1) { swipe(&$0) }
        let expected = try #require(offscreenEnd.velocity)
        #expect(expected.y > 0.5, "the swipe's velocity offscreen: \(expected) px/ms")

        let (rig, app, window) = try startScene(.list)
        defer { rig.stop() }
        let main = try #require(window.view(named: "main") as? ScrollView)
        let end = ReleaseWatch()
        main.addEventObserver(end)
        var b = ScriptBuilder()
        swipe(&b)
        // The app stalls (reads nothing) a little longer than the swipe lasts; the whole swipe,
        // stamped on our clock as if the finger had moved meanwhile, is then sent at once.
        RealTimePacer.sleep(0.45)
        let last = Int64(clamping: Deadline.now * 1000, rounding: .down)
        func stamp(_ t: Double) -> UInt32 {
            UInt32(truncatingIfNeeded: last - 408 + Int64(clamping: t, rounding: .down))
        }
        for e in b.script.events {
            switch e.kind {
            case .touchDown(let id, let x, let y): rig.input.touchDown(id: Int32(id), x: x, y: y, time: stamp(e.t))
            case .touchMotion(let id, let x, let y):
                rig.input.touchMotion(id: Int32(id), x: x, y: y, time: stamp(e.t))
            case .touchUp(let id): rig.input.touchUp(id: Int32(id), time: stamp(e.t))
            case .touchFrame: rig.input.touchFrame()
            default: Issue.record("the swipe has a \(e.kind)")
            }
        }
        try rig.input.roundtrip()
        try app.pump(until: { end.velocity != nil }, "the swipe's release")
        let velocity = try #require(end.velocity)
        #expect(
            abs(velocity.y - expected.y) < 0.02 * expected.y,
            "released at \(velocity.y) px/ms read in one batch, \(expected.y) offscreen")
    }
}

/// The velocity of a scroll view's last release (`willEndDragging`), px/ms.
@MainActor
final class ReleaseWatch: ScrollEventObserver {
    var velocity: Point?
    func scrollView(_ scrollView: ScrollView, didSend event: ScrollEvent) {
        if case .willEndDragging(let v, _) = event { velocity = v }
    }
}
