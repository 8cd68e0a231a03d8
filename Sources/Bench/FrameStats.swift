import Foundation
import Glibc
import ScrollwayReplay
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWayland

/// Writes one JSON line per committed frame: `{"t": <monotonic s>, "main": <ms>, "process": <ms>,
/// "prepare": <ms>, "present": <ms>, "plan": "<how the buffer was brought up to date>",
/// "recentred": <bool>, "idle": <ms>, "holes": <tiles>, "phases": {"animate": <ms>, "layout": <ms>,
/// "draw": <ms>, "damage": <ms>, "plan": <ms>, "paint": <ms>, "copy": <ms>}}`, CPU time spent since
/// the last commit by the main thread and by the whole process (worker threads included), the main
/// thread's time in the frame's two steps, whether its buffer was recentred in its ring, the main
/// thread's time in idle work since the last commit (`FrameStepTimes`: the event loop's turns that
/// did it, whole), the tiles the frame showed missing (`holes`: where a window has tiled views, the
/// tiles of their current levels that meet what they show and were not drawn yet; left out of a
/// window without any), and the two steps by phase (`FramePhases`, on the monotonic clock). `main`
/// and `process` leave that idle work out: buffer rings faulted in and a cursor theme loaded while
/// the window rested are done once, and counted in the first frame after the rest they made it look
/// slow. Written a few kilobytes at a time (a write a frame cost more than making the line) and the
/// rest by `finish()`, which the demo calls as its loop ends, on SIGTERM too, as a rig stops its
/// clients: a client stopped at the end of a benchmark loses nothing. The writing itself is not
/// counted (the clocks are read again after it), as the GTK4 peer, which keeps its numbers in
/// memory, does not count it either: it is the bench's cost, not the toolkit's.
@MainActor
public final class FrameStatsWriter {
    private let handle: FileHandle
    /// The first write that failed (a full disk): later lines are dropped, and `failure` says so.
    public private(set) var failure: String?
    private var lastMain = FrameStatsWriter.cpuSeconds(CLOCK_THREAD_CPUTIME_ID)
    private var lastProcess = FrameStatsWriter.cpuSeconds(CLOCK_PROCESS_CPUTIME_ID)
    /// The tiled views whose missing tiles each line counts (`watchTiles(in:)`).
    private var tiledViews: [WeakTiledView] = []
    private var watchesTiles = false

    /// Writes to `path` in place, emptied first (`OutputFile.openInPlace`: through a link, and a
    /// device or a pipe left one).
    public init(path: String) throws {
        do {
            handle = FileHandle(fileDescriptor: try OutputFile.openInPlace(path), closeOnDealloc: true)
        } catch {
            throw BenchError("--frame-stats '\(path)': cannot write it (\(error))")
        }
    }

    /// Counts, in each line from now on, the tiles missing from the tiled views under `root`
    /// as it is now (a scene's views are made with its window).
    public func watchTiles(in root: View) {
        var found: [WeakTiledView] = []
        func walk(_ v: View) {
            if let t = v as? TiledView { found.append(WeakTiledView(view: t)) }
            for s in v.subviews { walk(s) }
        }
        walk(root)
        tiledViews = found
        watchesTiles = !found.isEmpty
    }

    private var missingTiles: Int? {
        guard watchesTiles else { return nil }
        var n = 0
        for w in tiledViews { n += w.view?.missingVisibleTileCount ?? 0 }
        return n
    }

    nonisolated public static func cpuSeconds(_ clock: clockid_t) -> Double { FrameStepTimes.seconds(clock) }

    nonisolated public static func monotonic() -> Double { cpuSeconds(CLOCK_MONOTONIC) }

    /// Lines not yet written, their storage kept between frames so a frame allocates nothing.
    private var pending: [UInt8] = []
    /// How many bytes of lines are written at once: about 25 frames' worth.
    static let writeBytes = 4096

    public func record(_ plan: PresentPlan, times: FrameStepTimes) {
        let main = Self.cpuSeconds(CLOCK_THREAD_CPUTIME_ID)
        let process = Self.cpuSeconds(CLOCK_PROCESS_CPUTIME_ID)
        if failure == nil {
            Self.appendLine(
                to: &pending, t: Self.monotonic(), main: (main - lastMain - times.idle) * 1000,
                process: (process - lastProcess - times.idle) * 1000, prepare: times.prepare * 1000,
                present: times.present * 1000, plan: plan.kind, recentred: times.recentred, idle: times.idle * 1000,
                holes: missingTiles, phases: times.phases)
            if pending.count >= Self.writeBytes { writePending() }
        }
        lastMain = Self.cpuSeconds(CLOCK_THREAD_CPUTIME_ID)
        lastProcess = Self.cpuSeconds(CLOCK_PROCESS_CPUTIME_ID)
    }

    /// Writes the lines not yet written; `failure` says if that failed.
    public func finish() { writePending() }

    private func writePending() {
        guard failure == nil, !pending.isEmpty else { return }
        do { try handle.write(contentsOf: pending) } catch { failure = ScriptText.reason(of: error) }
        pending.removeAll(keepingCapacity: true)
    }

    /// One frame's line, its numbers fixed-point (`t` to the microsecond, the times to a tenth of
    /// a microsecond). Formatted by hand rather than with `String(format:)`: the writer's cost is
    /// the bench's, not the toolkit's, but a client held to a CPU quota pays it from its budget,
    /// and Foundation's formatter (a CFString, a locale, a `Data` copy) costs far more than these
    /// appends (docs/decisions.md, "The bench's own frame records").
    nonisolated static func appendLine(
        to out: inout [UInt8], t: Double, main: Double, process: Double, prepare: Double, present: Double,
        plan: String, recentred: Bool, idle: Double, holes: Int? = nil, phases: FramePhases = FramePhases()
    ) {
        append(#"{"t": "#, to: &out)
        FixedDecimal.append(t, decimals: 6, to: &out)
        append(#", "main": "#, to: &out)
        FixedDecimal.append(main, decimals: 4, to: &out)
        append(#", "process": "#, to: &out)
        FixedDecimal.append(process, decimals: 4, to: &out)
        append(#", "prepare": "#, to: &out)
        FixedDecimal.append(prepare, decimals: 4, to: &out)
        append(#", "present": "#, to: &out)
        FixedDecimal.append(present, decimals: 4, to: &out)
        append(#", "plan": ""#, to: &out)
        out.append(contentsOf: plan.utf8)
        append(#"", "recentred": "#, to: &out)
        append(recentred ? "true" : "false", to: &out)
        append(#", "idle": "#, to: &out)
        FixedDecimal.append(idle, decimals: 4, to: &out)
        if let holes {
            append(#", "holes": "#, to: &out)
            FixedDecimal.append(Double(holes), decimals: 0, to: &out)
        }
        for (i, (name, seconds)) in Self.phaseFields(phases).enumerated() {
            append(i == 0 ? #", "phases": {""# : #", ""#, to: &out)
            append(name, to: &out)
            append(#"": "#, to: &out)
            FixedDecimal.append(seconds * 1000, decimals: 4, to: &out)
        }
        append("}}\n", to: &out)
    }

    /// A literal's bytes, copied from where the binary holds them (a `String`'s UTF-8 view
    /// appended goes through its generic sequence copy, several times the work for a key).
    nonisolated private static func append(_ literal: StaticString, to out: inout [UInt8]) {
        literal.withUTF8Buffer { out.append(contentsOf: $0) }
    }
}

/// A tiled view the writer counts, not kept alive by it.
private struct WeakTiledView {
    weak var view: TiledView?
}

extension FrameStatsWriter {
    /// The phases' names in a line, in the order a frame runs them, with their values (s).
    nonisolated static func phaseFields(_ p: FramePhases) -> KeyValuePairs<StaticString, Double> {
        [
            "animate": p.animate, "layout": p.layout, "draw": p.draw, "damage": p.damage, "plan": p.plan,
            "paint": p.paint, "copy": p.copy,
        ]
    }

    /// The phases' names, as `phaseFields` writes them.
    nonisolated static let phaseNames = phaseFields(FramePhases()).map { "\($0.key)" }
}

/// A bench that could not run or measure (a client that failed, a scene without its views):
/// printed as the command's error.
public struct BenchError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
