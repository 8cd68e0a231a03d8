import ScrollwayTestSupport
import Testing

/// `scrollway bench`, as users run it. Only that it runs and reports: timings are the bench's
/// business (ratios against a baseline of the same run), never a test's.
@MainActor
@Suite(.serialized) struct BenchCommandTests {
    @Test func quickBenchPrintsEveryLine() throws {
        let run = try CommandRunner.run(["bench", "--quick"])
        #expect(run.status == 0, "\(run.err)")
        // Progress on standard error (not a terminal: a line per step), results on standard output.
        #expect(
            run.err.contains(
                "bench: 0% zoom fling, tiles on the main thread\nbench: 25% zoom fling, tiles on workers\n"))
        #expect(run.err.contains("bench: 75% list fling, 100,000 rows\n"))
        #expect(!run.out.split(separator: "\n").contains { $0.hasPrefix("bench: ") })
        let lines = run.out.split(separator: "\n").map(String.init)
        for prefix in [
            "scrollway bench: offscreen",
            "zoom fling, main-thread ms/frame: sync ",
            "zoom fling, worst frame ms: sync ",
            "zoom fling, frames over the 16.67 ms budget: sync ",
            "zoom fling, tiles drawn on the main thread: sync ",
            "zoom fling, frames with a visible tile still on its way",
            "zoom fling, tile memory peak: sync ",
            "list fling, main-thread ms/frame: 1,000 rows ",
            "list fling, 100,000 rows against the 16.67 ms frame budget: ",
        ] {
            #expect(lines.contains { $0.hasPrefix(prefix) }, "no line starting '\(prefix)' in:\n\(run.out)")
        }
        // Tiles drawn asynchronously never run on the main thread, whatever the timings.
        let tiles = try #require(lines.first { $0.hasPrefix("zoom fling, tiles drawn on the main thread") })
        #expect(tiles.contains(", async 0 ("), "\(tiles)")
        #expect(run.out.contains("of baseline"))
    }
}
