import Foundation
import ScrollwayTestSupport
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

    /// In headless weston, the list scene's latency in every phase of the script is filled, and
    /// with each frame held back one refresh before it is drawn (the test hook), a key pressed
    /// at rest reaches the screen one refresh later.
    @Test func aFrameHeldBackOneRefreshShowsAsOneMoreRefreshOfLatency() throws {
        let exe = try CommandRunner.scrollway().path
        let bench = WestonBench(quick: true, output: { _ in }, log: { _ in })
        let size = WestonBench.Size(width: 390, height: 844, scale: 1)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("latency-test-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let command = [exe, "demo", "--fullscreen", "--scene", "list"]
        let plain = try bench.latency("list", size: size, command: command, log: dir.appendingPathComponent("a.log"))
        for phase in WestonBench.LatencyPhase.allCases {
            let p = try #require(plain.phases[phase.rawValue], "no \(phase.rawValue) latency")
            #expect(p.count > 0 && p.p50 > 0 && p.p50 <= p.p95 && p.p95 <= p.p99 && p.p99 <= p.max, "\(phase)")
            #expect(abs(p.withinOne + p.withinTwo + p.later - 1) < 1e-9)
        }
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
}
