import Dispatch
import Foundation
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayReplay
import ScrollwayScrolling
import ScrollwayTestSupport
import ScrollwayViews
import ScrollwayWayland
import Synchronization
import Testing

@testable import ScrollwayBench

/// `demo --frame-stats` lines, formatted by hand: the numbers C's `%.*f` would write, in JSON
/// the bench reads back.
struct FrameStatsTests {
    func fixed(_ v: Double, _ decimals: Int) -> String {
        var out: [UInt8] = []
        FixedDecimal.append(v, decimals: decimals, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func edgesAreWrittenAsJSONNumbers() {
        #expect(fixed(0, 4) == "0.0000")
        #expect(fixed(-0.0, 4) == "0.0000")
        #expect(fixed(1.5, 4) == "1.5000")
        #expect(fixed(-2.25, 4) == "-2.2500")
        #expect(fixed(0.00004, 4) == "0.0000")
        #expect(fixed(0.00006, 4) == "0.0001")
        // A value that rounds to zero has no sign (C would write "-0.0000").
        #expect(fixed(-0.00001, 4) == "0.0000")
        // Rounding carries into the whole part.
        #expect(fixed(0.99996, 4) == "1.0000")
        #expect(fixed(9.9999996, 6) == "10.000000")
        #expect(fixed(12345.678901234, 6) == "12345.678901")
        #expect(fixed(7, 0) == "7")
        #expect(fixed(.nan, 4) == "null")
        #expect(fixed(-.infinity, 4) == "null")
        // Too large for its decimals in 64 bits: still a number, and the same value.
        #expect(Double(fixed(1e300, 4)) == 1e300)
        #expect(Double(fixed(-3e15, 4)) == -3e15)
    }

    @Test func numbersMatchCsFormatting() {
        var random = SeededRandom(state: 40)
        var compared = 0
        for _ in 0..<20_000 {
            let magnitude = Double.pow10(Int(random.next() % 12) - 4)
            let v = random.unit(-1, 1) * magnitude
            for decimals in [4, 6] {
                // A value on a half of its last place is rounded by the double product here and
                // by its exact binary value in C: either is right; those are left out.
                let scaled = (v.magnitude * Double.pow10(decimals))
                if abs(scaled - scaled.rounded(.down) - 0.5) < 1e-6 { continue }
                let c = String(format: "%.\(decimals)f", v)
                // C keeps the sign of a negative value that rounds to zero; ours drops it.
                let expected = c.hasPrefix("-") && Double(c) == 0 ? String(c.dropFirst()) : c
                #expect(fixed(v, decimals) == expected, "\(v) to \(decimals) decimals")
                compared += 1
            }
        }
        #expect(compared > 39_000)
    }

    @Test func aLineIsTheJSONTheBenchReads() throws {
        var out: [UInt8] = []
        FrameStatsWriter.appendLine(
            to: &out, t: 1234.5678901, main: 0.73125, process: 0.80004, prepare: 0.3, present: 0.25,
            plan: "offset+copy", recentred: true, idle: 12.5,
            phases: FramePhases(
                animate: 0.0001, layout: 0.00002, draw: 0.00005, damage: 0.00003, plan: 0.00001, paint: 0.00004,
                copy: 0.000025))
        let text = String(decoding: out, as: UTF8.self)
        #expect(
            text == #"{"t": 1234.567890, "main": 0.7313, "process": 0.8000, "prepare": 0.3000, "#
                + #""present": 0.2500, "plan": "offset+copy", "recentred": true, "idle": 12.5000, "#
                + #""phases": {"animate": 0.1000, "layout": 0.0200, "draw": 0.0500, "damage": 0.0300, "#
                + #""plan": 0.0100, "paint": 0.0400, "copy": 0.0250}}"# + "\n")
        let frames = try WestonBench.scrollwayFrames(text + text, t0: 1234, t1: 1235)
        #expect(frames.count == 2)
        #expect(frames.first?.main == 0.7313)
        #expect(frames.first?.process == 0.8)
        #expect(frames.first?.recentred == true)
        #expect(frames.first?.t == 1234.56789)
        #expect(frames.first?.phases?["draw"] == 0.05)
        #expect(frames.first?.phases?["copy"] == 0.025)
        // The bench's medians: each phase's, and the rest of main (0.7313 less 0.275).
        let phases = try #require(WestonBench.phaseMedians(frames))
        #expect(phases.kept == 2 && phases.timed == 2)
        #expect(phases.medians["animate"] == 0.1)
        #expect(abs((phases.medians["rest"] ?? 0) - 0.4563) < 1e-9)
        #expect(Set(phases.medians.keys) == Set(FrameStatsWriter.phaseNames + ["rest"]))
        #expect(FrameStatsWriter.phaseNames == ["animate", "layout", "draw", "damage", "plan", "paint", "copy"])
    }

    /// A frame whose phases (monotonic clock) add up to more than its main-thread CPU time was
    /// held off the CPU during them: preempted, or stopped by a CPU quota, which makes the rest
    /// of the quota period look like the phase it stopped in. Its phases are left out of the
    /// medians, so the rest is never negative by more than the clocks' slack, within which a
    /// frame counts.
    @Test func framesHeldOffTheCPUDuringTheirPhasesAreLeftOut() throws {
        func frame(main: Double, paint: Double) -> WestonBench.Frame {
            var phases = Dictionary(uniqueKeysWithValues: FrameStatsWriter.phaseNames.map { ($0, 0.01) })
            phases["paint"] = paint
            return WestonBench.Frame(main: main, process: main, recentred: false, phases: phases)
        }
        // Phases other than paint: 0.06 ms. Two frames ran through; one was stopped mid-paint
        // for 90 ms; one is over by less than the slack.
        let frames = [
            frame(main: 0.5, paint: 0.2), frame(main: 0.7, paint: 0.4), frame(main: 1.2, paint: 90.3),
            frame(main: 0.3, paint: 0.24 + WestonBench.clockSlack / 2),
        ]
        let phases = try #require(WestonBench.phaseMedians(frames))
        #expect(phases.kept == 3 && phases.timed == 4)
        // Medians of the three kept (the upper of an even count, as everywhere in the bench).
        #expect(abs((phases.medians["paint"] ?? 0) - 0.245) < 1e-9)
        #expect(abs((phases.medians["rest"] ?? 0) - 0.24) < 1e-9)
        #expect(phases.medians.values.allSatisfy { $0 >= -WestonBench.clockSlack })
        // Every frame held off: no medians to give.
        #expect(WestonBench.phaseMedians([frame(main: 1, paint: 50)]) == nil)
        // Frames that do not time their phases (GTK4, the floor) give none either.
        #expect(WestonBench.phaseMedians([WestonBench.Frame(main: 1, process: 1)]) == nil)
    }

    /// Idle work done since the commit before (buffer rings faulted in while the window rested)
    /// is written apart and left out of the frame's main-thread time: a frame after
    /// 30 ms of it and one after 30 ms of its own work, on this thread's CPU clock.
    @Test @MainActor func idleWorkIsLeftOutOfTheFramesTime() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("idle-\(getpid()).stats").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try FrameStatsWriter(path: path)
        let plan = PresentPlan.repaint(PixelRect(x: 0, y: 0, width: 8, height: 8))
        /// Spends `seconds` of this thread's CPU time; returns what it spent.
        func spend(_ seconds: Double) -> Double {
            let start = FrameStatsWriter.cpuSeconds(CLOCK_THREAD_CPUTIME_ID)
            var x = 0.0
            while FrameStatsWriter.cpuSeconds(CLOCK_THREAD_CPUTIME_ID) - start < seconds { x += 1 }
            #expect(x > 0)
            return FrameStatsWriter.cpuSeconds(CLOCK_THREAD_CPUTIME_ID) - start
        }
        writer.record(plan, times: FrameStepTimes())
        let idle = spend(0.03)
        writer.record(plan, times: FrameStepTimes(idle: idle))
        _ = spend(0.03)
        writer.record(plan, times: FrameStepTimes())
        writer.finish()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        try #require(lines.count == 3)
        func number(_ line: Int, _ key: String) -> Double { lines[line][key] as? Double ?? .nan }
        #expect(abs(number(1, "idle") - idle * 1000) < 0.001)
        // (The process's time holds other tests' threads too: only the main thread's is checked.)
        #expect(number(1, "main") < 10, "\(lines[1])")
        #expect(number(2, "main") >= 30, "\(lines[2])")
        #expect(number(2, "idle") == 0)
    }

    /// A window with tiled views gets the tiles each frame showed missing in its line (`holes`),
    /// counted over every tiled view under it; one without any gets no field. The bench reads
    /// it and the quota table says how many frames had holes and how many tiles a frame lacked.
    @Test @MainActor func framesCountTheTilesTheyShowedMissing() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("holes-\(getpid()).stats").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Two tiled views of 256 px tiles in a 400 × 300 window, each meeting 2 × 2 tiles, whose
        // workers wait at a gate until the test opens it.
        let source = GatedTileSource()
        let window = Window(size: Size(width: 400, height: 300))
        var tiled: [TiledView] = []
        for x in [0.0, 100] {
            let t = TiledView(contentSize: Size(width: 4096, height: 4096))
            t.frame = Rect(x: x, y: 0, width: 300, height: 300)
            t.source = source
            t.rasterizesAsynchronously = true
            window.addSubview(t)
            tiled.append(t)
        }
        let writer = try FrameStatsWriter(path: path)
        writer.watchTiles(in: window)
        let plan = PresentPlan.repaint(PixelRect(x: 0, y: 0, width: 8, height: 8))
        try window.prepareFrame(time: 0)
        #expect(tiled.map(\.missingVisibleTileCount) == [4, 4])
        writer.record(plan, times: FrameStepTimes())
        source.open()
        _ = window.finishBackgroundWork()
        try window.prepareFrame(time: 0.016)
        #expect(tiled.map(\.missingVisibleTileCount) == [0, 0])
        writer.record(plan, times: FrameStepTimes())
        // A window without tiles says nothing of them.
        let plain = try FrameStatsWriter(path: path + ".plain")
        defer { try? FileManager.default.removeItem(atPath: path + ".plain") }
        plain.watchTiles(in: Window(size: Size(width: 100, height: 100)))
        plain.record(plan, times: FrameStepTimes())
        writer.finish()
        plain.finish()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.split(separator: "\n").map { $0.contains(#""holes": "#) } == [true, true])
        let frames = try WestonBench.scrollwayFrames(text, t0: 0, t1: .infinity)
        #expect(frames.map(\.holes) == [8, 0])
        let plainText = try String(contentsOfFile: path + ".plain", encoding: .utf8)
        #expect(!plainText.contains("holes"))
        #expect(try WestonBench.scrollwayFrames(plainText, t0: 0, t1: .infinity).map(\.holes) == [nil])
        // The quota table's cell: frames with holes, of all, and the missing tiles a frame.
        var run = WestonBench.Run(
            client: "zoom fast", frames: 4, seconds: 1, mainMedian: 0, mainP99: 0, mainWorst: 0, processMedian: 0,
            processP99: 0, westonPerFrame: 0)
        #expect(WestonBench.holesCell(run) == "")
        run.holeFrames = 3
        run.missingTiles = 10
        #expect(WestonBench.holesCell(run) == "3 of 4 (2.5)")
    }

    /// Lines are held back a few kilobytes at a time, and `finish` writes the rest: every frame
    /// recorded is in the file, in order.
    @Test @MainActor func everyFrameIsWrittenByFinish() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("frames-\(getpid()).stats").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try FrameStatsWriter(path: path)
        let plan = PresentPlan.repaint(PixelRect(x: 0, y: 0, width: 8, height: 8))
        for i in 0..<100 { writer.record(plan, times: FrameStepTimes(prepare: Double(i) / 1000, present: 0.001)) }
        let held = try Data(contentsOf: URL(fileURLWithPath: path)).count
        writer.finish()
        writer.finish()
        let written = try Data(contentsOf: URL(fileURLWithPath: path)).count
        // Most was written as it came; at most the write size (and a line) was held back.
        #expect(held > 0)
        #expect(written - held < FrameStatsWriter.writeBytes + 200)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let frames = try WestonBench.scrollwayFrames(text, t0: 0, t1: .infinity)
        #expect(frames.count == 100)
        let prepares = text.split(separator: "\n").compactMap { line -> Double? in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return o["prepare"] as? Double
        }
        #expect(prepares == (0..<100).map { Double($0) })
        #expect(writer.failure == nil)
    }
}

/// A tile source whose workers wait at a gate until the test opens it.
private final class GatedTileSource: TileSource {
    private let gate = DispatchSemaphore(value: 0)
    private let opened = Atomic(false)

    func draw(_ rect: Rect, in canvas: Canvas) {
        if !opened.load(ordering: .acquiring) {
            gate.wait()
            gate.signal()  // once open, it stays open
        }
        canvas.fill(Rect(origin: .zero, size: rect.size), color: Color(rgb: 20, 120, 200))
    }

    func open() {
        opened.store(true, ordering: .releasing)
        gate.signal()
    }
}

extension Double {
    fileprivate static func pow10(_ n: Int) -> Double { Foundation.pow(10, Double(n)) }
}
