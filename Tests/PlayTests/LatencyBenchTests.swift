import Foundation
import ScrollwayRigs
import ScrollwayTestSupport
import ScrollwayWestonHarness
import Testing

@testable import ScrollwayBench

/// The latency part of `bench --weston`: read from protocol traffic, and able to see a frame
/// that comes late.
@Suite(.serialized) struct LatencyBenchTests {
    /// A log by hand in libwayland's formats (before 1.23 `interface@id`; from 1.23 on, as in
    /// the later lines, `{queue} interface#id`):
    /// a touch motion at 100.0 ms is committed at 104.0 with callback 30, repainted at 116.5
    /// (16.5 ms); a key pressed at 120.0 and its release are followed by a commit without a
    /// callback (a subsurface's, not counted) and one at 125.0 whose callback is done at 133.2
    /// (13.2 ms); a wheel axis at 140.0 has no repainted commit after it.
    @Test func inputsArePairedWithTheRepaintOfTheFirstCommitAfterThem() throws {
        let log = """
            [    90.000] wl_output@4.mode(3, 390, 844, 60000)
            [   100.000] wl_touch@17.motion(1000, 0, 195.00000000, 600.00000000)
            [   101.000]  -> wl_surface@13.frame(new id wl_callback@30)
            [   104.000]  -> wl_surface@13.commit()
            [   110.000] wl_callback@31.done(5)
            [   116.500] wl_callback@30.done(16)
            [   120.000] {Default Queue} wl_keyboard#18.key(7, 1100, 108, 1)
            [   121.000] wl_keyboard@18.key(8, 1130, 108, 0)
            [   122.000]  -> wl_surface@14.commit()
            [   123.000] {Default Queue}  -> wl_surface#13.frame(new id wl_callback#30)
            [   125.000] {Default Queue}  -> wl_surface#13.commit()
            the client's own output
            [   133.200] wl_callback@30.done(33)
            [   140.000] wl_pointer@19.axis(1200, 0, 15.00000000)
            """
        let p = ProtocolLatency(log: log)
        #expect(p.refreshMs.map { abs($0 - 16.6667) < 0.001 } == true)
        #expect(p.commits == 2 && p.repainted == 2 && p.messages == 13)
        #expect(p.measured.map(\.input.kind) == [.touchMotion, .key, .wheel])
        let latencies = p.measured.map(\.latency)
        #expect(abs((latencies[0] ?? 0) - 16.5) < 1e-9)
        #expect(abs((latencies[1] ?? 0) - 13.2) < 1e-9)
        #expect(latencies[2] == nil)
        let s = try #require(LatencySummary(latencies, refreshMs: 16.6667))
        #expect(s.count == 2 && s.unanswered == 1 && s.p50 == 16.5 && s.max == 16.5 && s.withinOne == 1)
    }

    /// A commit that replaces one the compositor has not repainted yet, with a callback of its
    /// own (Scrollway's input drawn at once), is the repaint of the input before it only when
    /// its own callback says so: a touch at 100.0 ms is committed at 101.0 (callback 30), one
    /// at 103.0 in a replacement at 104.0 (31), and both callbacks are done at the repaint at
    /// 116.5 (16.5 and 13.5 ms). A key pressed at 120.0 is committed at 121.0 (32), one at
    /// 125.0 in a replacement at 126.0 (33) that came too late for the repaint at 133.0: its
    /// callback is done at the next, 150.0 (13.0 and 25.0 ms, not 8.0).
    @Test func aReplacementIsTheRepaintOfItsOwnCallback() throws {
        let log = """
            [    90.000] wl_output@4.mode(3, 390, 844, 60000)
            [   100.000] wl_touch@17.motion(1000, 0, 195.00000000, 600.00000000)
            [   101.000]  -> wl_surface@13.frame(new id wl_callback@30)
            [   101.000]  -> wl_surface@13.commit()
            [   103.000] wl_touch@17.motion(1003, 0, 195.00000000, 590.00000000)
            [   104.000]  -> wl_surface@13.frame(new id wl_callback@31)
            [   104.000]  -> wl_surface@13.commit()
            [   116.500] wl_callback@30.done(16)
            [   116.500] wl_callback@31.done(16)
            [   120.000] wl_keyboard@18.key(9, 1020, 108, 1)
            [   121.000]  -> wl_surface@13.frame(new id wl_callback@32)
            [   121.000]  -> wl_surface@13.commit()
            [   125.000] wl_keyboard@18.key(10, 1025, 108, 1)
            [   126.000]  -> wl_surface@13.frame(new id wl_callback@33)
            [   126.000]  -> wl_surface@13.commit()
            [   133.000] wl_callback@32.done(33)
            [   150.000] wl_callback@33.done(50)
            """
        let p = ProtocolLatency(log: log)
        #expect(p.commits == 4 && p.repainted == 4)
        #expect(p.measured.map(\.input.kind) == [.touchMotion, .touchMotion, .key, .key])
        let latencies = p.measured.compactMap(\.latency)
        #expect(latencies.count == 4)
        for (got, want) in zip(latencies, [16.5, 13.5, 13.0, 25.0]) { #expect(abs(got - want) < 1e-9, "\(latencies)") }
    }

    /// Presentation feedback asked for before a commit is that commit's: a key at 200.0 ms is
    /// committed at 204.0 with feedback 40, which is presented at 1000.0225 s on CLOCK_MONOTONIC
    /// (id 1), 999.8 s behind the log's clock: 222.5 ms on the log's scale, 22.5 ms after the key.
    /// A touch at 250.0 is committed with feedback 41, which is discarded (a later commit
    /// replaced it): no presentation. A feedback on a commit without a frame callback is not
    /// counted, and without the named clock's offset nothing is presented.
    @Test func presentationFeedbackGivesTheTimeToPresentation() throws {
        let log = """
            [    90.000] wl_output@4.mode(3, 390, 844, 60000)
            [    91.000] wp_presentation@7.clock_id(1)
            [   200.000] wl_keyboard@18.key(7, 1100, 108, 1)
            [   201.000]  -> wl_surface@13.frame(new id wl_callback@30)
            [   202.000]  -> wp_presentation@7.feedback(wl_surface@13, new id wp_presentation_feedback@40)
            [   204.000]  -> wl_surface@13.commit()
            [   216.000] wl_callback@30.done(16)
            [   222.600] wp_presentation_feedback@40.sync_output(wl_output@4)
            [   222.600] wp_presentation_feedback@40.presented(0, 1000, 22500000, 16666667, 0, 60, 7)
            [   250.000] wl_touch@17.down(9, 1150, wl_surface@13, 0, 10.0, 20.0)
            [   251.000]  -> wl_surface@13.frame(new id wl_callback@31)
            [   251.500] {Default Queue}  -> wp_presentation#7.feedback(wl_surface#13, new id wp_presentation_feedback#41)
            [   252.000]  -> wl_surface@13.commit()
            [   253.000]  -> wp_presentation@7.feedback(wl_surface@14, new id wp_presentation_feedback@42)
            [   253.500]  -> wl_surface@14.commit()
            [   260.000] wp_presentation_feedback@41.discarded()
            [   268.000] wl_callback@31.done(17)
            """
        let p = ProtocolLatency(log: log, clockOffsets: [1: -999_800])
        #expect(p.feedbackAsked == 2 && p.presentedCount == 1)
        #expect(p.measured.map(\.input.kind) == [.key, .touchDown])
        #expect(abs((p.measured[0].presentedLatency ?? 0) - 22.5) < 1e-6)
        #expect(abs((p.measured[0].latency ?? 0) - 16.0) < 1e-9)
        #expect(p.measured[1].presented == nil && abs((p.measured[1].latency ?? 0) - 18.0) < 1e-9)
        let unknownClock = ProtocolLatency(log: log, clockOffsets: [4: 0])
        #expect(unknownClock.presentedCount == 0 && unknownClock.measured[0].presented == nil)
    }

    /// libwayland's stamps wrap every 2³² µs: a log across the wrap stays in order, and a mark
    /// taken as the bench takes it lands on the log's scale.
    @Test func stampsThatWrapAreUnwrapped() {
        let log = """
            [4294960.000] wl_touch@17.motion(1000, 0, 1.0, 2.0)
            [4294961.000]  -> wl_surface@13.frame(new id wl_callback@30)
            [4294962.000]  -> wl_surface@13.commit()
            [     3.704] wl_callback@30.done(16)
            """
        let p = ProtocolLatency(log: log)
        #expect(p.measured.first?.latency.map { abs($0 - 11) < 1e-6 } == true)
        #expect(abs(p.align(1.0) - (1.0 + ProtocolLatency.wrapMs)) < 1e-6)
        #expect(p.align(4_294_000) == 4_294_000)
    }

    /// What a latency run in a rig needs: the `scrollway` executable, a quick bench, the phone
    /// size and a scratch directory named `name` (the caller removes it).
    private func latencyBench(_ name: String) throws -> (String, WestonBench, WestonBench.Size, URL) {
        let exe = try CommandRunner.scrollway().path
        let bench = WestonBench(quick: true, output: { _ in }, log: { _ in })
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return (exe, bench, WestonBench.Size(width: 390, height: 844, scale: 1), dir)
    }

    /// In headless weston, the list scene's latency in every phase of the script is filled, and
    /// with each frame held back one refresh before it is drawn (the test hook), a key pressed
    /// at rest reaches the screen one refresh later.
    @Test func aFrameHeldBackOneRefreshShowsAsOneMoreRefreshOfLatency() throws {
        let (exe, bench, size, dir) = try latencyBench("latency-test")
        defer { try? FileManager.default.removeItem(at: dir) }
        let command = [exe, "demo", "--fullscreen", "--scene", "list"]
        let plain = try bench.latency("list", size: size, command: command, log: dir.appendingPathComponent("a.log"))
        for phase in WestonBench.LatencyPhase.allCases {
            let p = try #require(plain.phases[phase.rawValue], "no \(phase.rawValue) latency")
            #expect(p.count > 0 && p.p50 > 0 && p.p50 <= p.p95 && p.p95 <= p.p99 && p.p99 <= p.max, "\(phase)")
            #expect(abs(p.withinOne + p.withinTwo + p.later - 1) < 1e-9)
        }
        // Weston tells the presentation of the commits that ask (a key after rest always does:
        // its last feedback is old), a refresh after their repaint.
        let idle = WestonBench.LatencyPhase.idleKey.rawValue
        let shown = try #require(plain.presented[idle], "no presentation of a key at rest")
        #expect(plain.feedbackAsked > 0 && plain.feedbackPresented > 0)
        let repaint = try #require(plain.phases[idle])
        #expect(shown.p50 >= repaint.p50)
        let refresh = plain.refreshMs
        let held = try bench.latency(
            "list held", size: size, command: command,
            environment: ["SCROLLWAY_DEBUG_FRAME_DELAY_MS": String(format: "%.3f", refresh)],
            log: dir.appendingPathComponent("b.log"))
        let before = try #require(plain.phases[WestonBench.LatencyPhase.idleKey.rawValue]).p50
        let after = try #require(held.phases[WestonBench.LatencyPhase.idleKey.rawValue]).p50
        let added = (after - before) / refresh
        #expect(added > 0.6 && added < 1.6, "a key at rest: \(before) ms, held back \(after) ms")
    }

    /// In sway (no touch: the touch phases are left out) the keys and the wheel are measured,
    /// and the list keeps asking for presentation feedback though sway 1.7's headless output
    /// leaves feedback unanswered (the window gives one up after a second and asks again).
    @Test(.enabled(if: RigProcesses.findExecutable("sway") != nil, "sway is not installed: apt-get install sway"))
    func inSwayKeysAndTheWheelAreMeasuredAndFeedbackIsAskedAgain() throws {
        let (exe, bench, size, dir) = try latencyBench("latency-sway")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try bench.latency(
            "list", size: size, command: [exe, "demo", "--fullscreen", "--scene", "list"],
            log: dir.appendingPathComponent("sway.log"), compositor: .sway)
        let measured = WestonBench.LatencyPhase.allCases.filter { run.phases[$0.rawValue] != nil }
        #expect(measured == [.wheel, .keys, .idleKey])
        for phase in measured {
            let p = try #require(run.phases[phase.rawValue])
            #expect(p.count > 0 && p.p50 > 0 && p.p99 <= p.max && p.max < 10 * run.refreshMs, "\(phase)")
        }
        // The script runs about 15 s; one feedback out at a time, each given up after a second.
        #expect(run.feedbackAsked >= 5, "asked \(run.feedbackAsked), presented \(run.feedbackPresented)")
    }
}
