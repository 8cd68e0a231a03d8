import Foundation
import Glibc
import ScrollwayViews
import ScrollwayWayland

/// Writes one JSON line per committed frame: `{"t": <monotonic s>, "main": <ms>, "process":
/// <ms>, "prepare": <ms>, "present": <ms>, "plan": "<how the buffer was brought up to date>",
/// "recentred": <bool>}`, CPU time spent since the last commit by the main thread and by the
/// whole process (worker threads included), the main thread's time in the frame's two steps,
/// and whether its buffer was recentred in its ring (`FrameStepTimes`). Written as
/// each frame commits, so a client killed at the end of a benchmark loses nothing; the writing
/// itself is not counted (the clocks are read again after it), as the GTK4 peer, which keeps its
/// numbers in memory, does not count it either: it is the bench's cost, not the toolkit's.
@MainActor
public final class FrameStatsWriter {
    private let handle: FileHandle
    /// The first write that failed (a full disk): later lines are dropped, and `failure` says so.
    public private(set) var failure: String?
    private var lastMain = FrameStatsWriter.cpuSeconds(CLOCK_THREAD_CPUTIME_ID)
    private var lastProcess = FrameStatsWriter.cpuSeconds(CLOCK_PROCESS_CPUTIME_ID)

    public init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw BenchError("--frame-stats: cannot write '\(path)'") }
        self.handle = handle
    }

    nonisolated public static func cpuSeconds(_ clock: clockid_t) -> Double { FrameStepTimes.seconds(clock) }

    nonisolated public static func monotonic() -> Double { cpuSeconds(CLOCK_MONOTONIC) }

    public func record(_ plan: PresentPlan, times: FrameStepTimes) {
        let main = Self.cpuSeconds(CLOCK_THREAD_CPUTIME_ID)
        let process = Self.cpuSeconds(CLOCK_PROCESS_CPUTIME_ID)
        let line = String(
            format:
                "{\"t\": %.6f, \"main\": %.4f, \"process\": %.4f, \"prepare\": %.4f, \"present\": %.4f, \"plan\": \"%@\", \"recentred\": %@}\n",
            Self.monotonic(), (main - lastMain) * 1000, (process - lastProcess) * 1000, times.prepare * 1000,
            times.present * 1000, plan.kind, times.recentred ? "true" : "false")
        if failure == nil {
            do { try handle.write(contentsOf: Data(line.utf8)) } catch { failure = "\(error)" }
        }
        lastMain = Self.cpuSeconds(CLOCK_THREAD_CPUTIME_ID)
        lastProcess = Self.cpuSeconds(CLOCK_PROCESS_CPUTIME_ID)
    }
}

/// A bench that could not run or measure (a client that failed, a scene without its views):
/// printed as the command's error.
public struct BenchError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
