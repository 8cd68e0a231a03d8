import Foundation
import Glibc
import ScrollwayGeometry
import ScrollwayReplay
import ScrollwayRigs
import ScrollwayScripts
import ScrollwayWaylandCore
import ScrollwayWestonHarness

/// The latency part of `bench --weston`, and `bench --latency` in any rig's compositor: each
/// client played the same input script in a headless compositor of its own with
/// `WAYLAND_DEBUG=client`, and every input's time to the repaint that shows it, and to its
/// presentation where the client asked for feedback, read from that traffic
/// (`ProtocolLatency`), phase by phase. Phases the compositor's rig cannot play (touch in sway,
/// mutter and phoc, the wheel's sources in KWin) are left out, and said so.
extension WestonBench {
    /// What the latency script plays, in this order; each phase's inputs are summarised apart.
    public enum LatencyPhase: String, CaseIterable, Codable, Sendable {
        /// A finger moved slowly in small steps at a touch panel's report rate (`dragStep`); its
        /// moves from the first frame of the drag on (the moves before it, within the touch
        /// slop, move nothing in any toolkit until it is crossed: they are the slop's, not the
        /// drawing's).
        case drag = "slow drag"
        /// A fast flick's moves (`ScriptBuilder.flick`).
        case fling = "fling moves"
        /// Wheel detents, each while the last one's scroll may still run (`wheelInterval`).
        case wheel = "wheel clicks"
        /// Down-arrow presses, each while the last one's scroll may still run (`keyInterval`).
        case keys
        /// A Down press after `rest`: nothing else is drawing.
        case idleKey = "key after rest"
        /// A finger put down after `rest`, its first move (past the slop) at once after: from
        /// the down to the repaint.
        case idleTouch = "touch after rest"

        /// The inputs of the phase's window that it measures.
        func counts(_ kind: ProtocolLatency.InputKind) -> Bool {
            switch self {
            case .drag, .fling: kind == .touchMotion
            case .wheel: kind == .wheel
            case .keys, .idleKey: kind == .key
            case .idleTouch: kind == .touchDown
            }
        }
    }

    /// One client's latencies, phase by phase.
    struct LatencyRun: Codable {
        var client: String
        var refreshMs: Double
        var phases: [String: LatencySummary]
        /// Input → presentation, over the inputs whose commit asked for feedback that came
        /// (Scrollway asks now and then, `WaylandWindow.presentationFeedbackInterval`).
        var presented: [String: LatencySummary] = [:]
        /// Commits (with a frame callback) that asked for presentation feedback, and those the
        /// compositor said it presented: a compositor that answers none shows here.
        var feedbackAsked = 0
        var feedbackPresented = 0
    }

    /// A phase's span on libwayland's clock (`ProtocolLatency.logMilliseconds`).
    struct PhaseMark {
        var phase: LatencyPhase
        var start: Double
        var end: Double
    }

    /// Plays the latency script into `command` in a new headless `compositor` (weston unless
    /// said) of `size` and reads the client's protocol log, kept at `log`. `environment` reaches
    /// the client (a test sets SCROLLWAY_DEBUG_FRAME_DELAY_MS there to hold each frame back).
    func latency(
        _ name: String, size: Size, command: [String], environment: [String: String] = [:], log logFile: URL,
        compositor: Compositor = .weston
    ) throws -> LatencyRun {
        let rig = try compositor.start(width: size.width, height: size.height, scale: Double(size.scale))
        defer { rig.stop() }
        var env = environment
        env["WAYLAND_DEBUG"] = "client"
        let client = try rig.launchClient(
            command[0], arguments: Array(command.dropFirst()), environment: env, to: .file(logFile))
        try Self.waitForFirstFrame(log: logFile, client: client)
        usleep(500_000)
        let marks = try playLatencyScript(rig, size)
        Self.stop(client, rig: rig)
        let text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        let parsed = ProtocolLatency(log: text, clockOffsets: ProtocolLatency.clockOffsets())
        guard let refresh = parsed.refreshMs else {
            throw BenchError(
                "bench: \(name) at \(size): its protocol log (\(logFile.path)) names no current output mode "
                    + "(\(parsed.messages) lines read as protocol messages: none means a format this bench does not know)"
            )
        }
        var phases: [String: LatencySummary] = [:]
        var presented: [String: LatencySummary] = [:]
        for mark in marks {
            let start = parsed.align(mark.start)
            let end =
                start
                + (mark.end - mark.start + ProtocolLatency.wrapMs).truncatingRemainder(
                    dividingBy: ProtocolLatency.wrapMs)
            var from = start
            if mark.phase == .drag,
                let firstMove = parsed.measured.first(where: { $0.input.time >= start && $0.input.kind == .touchMotion }
                ),
                let firstFrame = parsed.commitTimes.first(where: { $0 >= firstMove.input.time })
            {
                from = firstFrame
            }
            let inputs = parsed.measured.filter {
                $0.input.time >= from && $0.input.time < end && mark.phase.counts($0.input.kind)
            }
            if let s = LatencySummary(inputs.map(\.latency), refreshMs: refresh) { phases[mark.phase.rawValue] = s }
            // Only the inputs whose commit had its presentation told: the others are not late.
            let shown = inputs.compactMap(\.presentedLatency)
            if let s = LatencySummary(shown, refreshMs: refresh) { presented[mark.phase.rawValue] = s }
        }
        guard !phases.isEmpty else {
            // Kept for a look: the bench's own directory goes when it ends.
            let kept = FileManager.default.temporaryDirectory.appendingPathComponent(logFile.lastPathComponent)
            try? FileManager.default.removeItem(at: kept)
            try? FileManager.default.copyItem(at: logFile, to: kept)
            throw BenchError(
                "bench: \(name) at \(size): no input in its protocol log reached a repaint (\(parsed.measured.count) "
                    + "inputs, \(parsed.commits) commits with a frame callback, \(parsed.repainted) repainted); "
                    + "the log is kept at \(kept.path)")
        }
        return LatencyRun(
            client: name, refreshMs: refresh, phases: phases, presented: presented, feedbackAsked: parsed.feedbackAsked,
            feedbackPresented: parsed.presentedCount)
    }

    /// Waits until the client's protocol log shows a buffer attached and committed (its first
    /// frame), which any compositor's rig can see, captures or not; 10 s at most.
    static func waitForFirstFrame(log: URL, client: Process) throws {
        let deadline = Deadline(in: 10)
        while !deadline.hasPassed {
            guard client.isRunning else {
                throw BenchError(
                    "bench: the client \(RigProcesses.describeEnd(client)) before showing a window")
            }
            if let text = try? String(contentsOf: log, encoding: .utf8),
                let attach = text.range(of: ".attach(wl_buffer"),
                text[attach.upperBound...].contains(".commit()")
            {
                return
            }
            usleep(20_000)
        }
        throw BenchError("bench: no frame in the client's protocol log (\(log.path)) after 10 s")
    }

    /// How long the "after rest" inputs come after the last, ms: past everything the one
    /// before set going (a list's scroll indicator fades a while after a pointer's last scroll).
    static let rest = 2500.0
    /// The slow drag: a move of `dragDistance / (dragMs / dragStep)` points every `dragStep` ms
    /// (120 Hz, as touch panels report).
    static let dragStep = 8.0
    static let dragMs = 1200.0
    static let dragDistance = 300.0
    /// Between wheel detents and between key presses, ms.
    static let wheelInterval = 200.0
    static let keyInterval = 150.0

    /// The script, phase by phase, in real time; returns each phase's span.
    private func playLatencyScript(_ rig: any CompositorRig, _ size: Size) throws -> [PhaseMark] {
        let injector = SeatInjector(rig: rig)
        let x = Double(size.width) / 2
        let h = Double(size.height)
        let presses = quick ? 8 : 30
        let rests = quick ? 3 : 5
        var t = 1000.0
        rig.pacer.begin(at: t)
        var marks: [PhaseMark] = []
        func phase(_ p: LatencyPhase, settle: Double, _ build: (inout ScriptBuilder) -> Void) throws {
            var probe = ScriptBuilder()
            build(&probe)
            if let why = injector.refusal(of: probe.script) {
                log("\(rig.compositor): \(p.rawValue) left out: \(why)")
                return
            }
            let start = ProtocolLatency.logMilliseconds()
            t = try injector.send(from: t, build) + settle
            try injector.waitUntilDue(t)
            marks.append(PhaseMark(phase: p, start: start, end: ProtocolLatency.logMilliseconds()))
        }
        // Up, then held still a while before the lift, so it does not fling.
        try phase(.drag, settle: 800) { b in
            b.drag(
                from: Point(x: x, y: h * 0.8), to: Point(x: x, y: h * 0.8 - Self.dragDistance), at: 0,
                ms: Self.dragMs, hold: 300, step: Self.dragStep)
        }
        try phase(.fling, settle: 2000) { b in
            b.flick(from: Point(x: x, y: h * 0.8), by: Point(x: 0, y: -h * 0.5), at: 0)
        }
        try phase(.wheel, settle: 1000) { b in
            for i in 0..<(quick ? 5 : 15) {
                b.wheel(clicks: 1, over: Point(x: x, y: h / 2), at: Double(i) * Self.wheelInterval)
            }
        }
        try phase(.keys, settle: 1000) { b in
            for i in 0..<presses { b.key("Down", at: Double(i) * Self.keyInterval) }
        }
        try phase(.idleKey, settle: 0) { b in
            for i in 0..<rests { b.key("Down", at: Self.rest + Double(i) * Self.rest) }
        }
        try phase(.idleTouch, settle: 1000) { b in
            for i in 0..<rests {
                let t0 = Self.rest + Double(i) * Self.rest
                let p = Point(x: x, y: h * 0.5)
                b.touch(
                    from: p, at: t0,
                    moves: [(t: t0 + 4, to: p + Point(x: 0, y: -40)), (t: t0 + 100, to: p + Point(x: 0, y: -60))],
                    liftAt: t0 + 400)
            }
        }
        return marks
    }

    /// The latency table: for each size, client and phase, the median, p95, p99 and worst in ms
    /// and the median and p99 in refreshes, and the shares shown within one refresh, within
    /// two, and later; to the repaint, or (`presented`) to the presentation.
    static func latencyTable(_ sizes: [(size: String, runs: [String: LatencyRun])], presented: Bool = false) -> String {
        var lines = [
            "| size | client | input | inputs | median ms (refreshes) | p95 ms | p99 ms (refreshes) | worst ms | "
                + "≤ 1 refresh | 1–2 | > 2 |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for (size, runs) in sizes {
            for (client, run) in runs.sorted(by: { $0.key < $1.key }) {
                for phase in LatencyPhase.allCases {
                    guard let p = (presented ? run.presented : run.phases)[phase.rawValue] else { continue }
                    lines.append(
                        String(
                            format:
                                "| %@ | %@ | %@ | %d | %.1f (%.2f) | %.1f | %.1f (%.2f) | %.1f | %.0f%% | %.0f%% | %.0f%% |",
                            size, client, phase.rawValue, p.count, p.p50, p.p50 / p.refreshMs, p.p95, p.p99,
                            p.p99 / p.refreshMs, p.max, p.withinOne * 100, p.withinTwo * 100, p.later * 100))
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}

@MainActor
extension WestonBench {
    /// `bench --latency`: the latency script into the floor client, our list and GTK4's (when
    /// installed) in a headless `compositor` at each size, and the tables of input → repaint
    /// and input → presentation (or one JSON object) written to `output`. `executable` is the
    /// `scrollway` that runs the Scrollway clients.
    public func latencyReport(compositor: Compositor, sizes: [Size], json: Bool, executable exe: String) throws {
        guard compositor.isInstalled else {
            throw BenchError("bench --latency: \(compositor) is not installed (\(compositor.installCommand))")
        }
        let peer = try Self.runnableGtkPeer(log: log)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scrollway-latency-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        leftovers?.folder(dir)
        defer {
            leftovers?.forget(folder: dir)
            try? FileManager.default.removeItem(at: dir)
        }
        struct SizeResult: Codable {
            var size: String
            var compositor: String
            var latency: [String: WestonBench.LatencyRun]
        }
        var results: [SizeResult] = []
        for size in sizes {
            var clients: [(name: String, command: [String], env: [String: String])] = [
                ("floor", [exe, "demo", "--fullscreen", "--scene", "list", "--present", "flip-only"], [:]),
                ("list fast", [exe, "demo", "--fullscreen", "--scene", "list", "--present", "fast"], [:]),
            ]
            if let peer, size.scale == 1 {
                clients.append(
                    (
                        "list gtk4",
                        ["/usr/bin/python3", peer, "--stats", dir.appendingPathComponent("gtk.stats").path],
                        ["GSK_RENDERER": "cairo"]
                    ))
            }
            var runs: [String: LatencyRun] = [:]
            for c in clients {
                let file = dir.appendingPathComponent("\(c.name.replacingOccurrences(of: " ", with: "-")).wayland.log")
                let run = try latency(
                    c.name, size: size, command: c.command, environment: c.env, log: file, compositor: compositor)
                runs[c.name] = run
                for phase in LatencyPhase.allCases {
                    guard let p = run.phases[phase.rawValue] else { continue }
                    let shown = run.presented[phase.rawValue].map {
                        String(format: ", presented median %.1f ms", $0.p50)
                    }
                    log(
                        String(
                            format: "%@ in %@, %@, %@: input → repaint median %.1f ms, p99 %.1f ms (%d inputs)%@",
                            size.description, compositor.rawValue, c.name, phase.rawValue, p.p50, p.p99, p.count,
                            shown ?? ""))
                }
            }
            results.append(SizeResult(size: size.description, compositor: compositor.rawValue, latency: runs))
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            output(String(decoding: try encoder.encode(results), as: UTF8.self))
            return
        }
        let tables = results.map { ($0.size, $0.latency) }
        output(
            "scrollway bench --latency --compositor \(compositor.rawValue): input → the repaint that shows it, from each "
                + "client's own protocol traffic (WAYLAND_DEBUG=client: the input event, the first commit after it, that "
                + "commit's frame callback)")
        output(Self.latencyTable(tables))
        output(
            "scrollway bench --latency --compositor \(compositor.rawValue): input → presentation (wp_presentation "
                + "feedback on that commit; only inputs whose commit asked for it)")
        output(Self.latencyTable(tables, presented: true))
        output(Self.feedbackCounts(tables))
    }

    /// One line: for each size and client, the commits that asked for presentation feedback and
    /// how many the compositor answered with `presented`.
    static func feedbackCounts(_ sizes: [(size: String, runs: [String: LatencyRun])]) -> String {
        let parts = sizes.flatMap { size, runs in
            runs.sorted { $0.key < $1.key }.map { name, run in
                "\(size) \(name) \(run.feedbackPresented) of \(run.feedbackAsked)"
            }
        }
        return "presentation feedback presented of asked: " + parts.joined(separator: "; ")
    }
}
