import Foundation
import Testing

@testable import ScrollwayBench

/// The weston bench flings a client only once it has gone quiet after its first frame
/// (`WestonBench.waitUntilQuiet`): real child processes, told apart by what they run.
struct BenchSettleTests {
    /// A shell that counts for a while (busy), then becomes `sleep` (quiet) until killed.
    func busyThenSleeping(iterations: Int) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "i=0; while [ $i -lt \(iterations) ]; do i=$((i+1)); done; exec sleep 600"]
        try p.run()
        return p
    }

    /// SIGKILL: a child started from a test's thread inherits its blocked signals, SIGTERM
    /// among them.
    func end(_ p: Process) {
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
    }

    func command(of pid: Int32) -> String? {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func cpuSeconds(of pid: Int32) -> Double { WestonBench.cpuSeconds(pid: pid) ?? 0 }

    @Test func returnsOnceTheBusyPartIsOver() throws {
        let p = try busyThenSleeping(iterations: 300_000)
        defer { end(p) }
        let quiet = WestonBench.waitUntilQuiet(pid: p.processIdentifier, limit: 600)
        #expect(quiet)
        // It waited for the count: the shell had become `sleep`, having used CPU time first.
        #expect(command(of: p.processIdentifier) == "sleep")
        #expect(cpuSeconds(of: p.processIdentifier) > 0.05)
        #expect(p.isRunning)
    }

    @Test func aClientThatNeverGoesQuietIsFlungAtTheLimit() throws {
        let p = try busyThenSleeping(iterations: Int.max)
        defer { end(p) }
        let before = cpuSeconds(of: p.processIdentifier)
        let quiet = WestonBench.waitUntilQuiet(pid: p.processIdentifier, limit: 1)
        #expect(!quiet)
        #expect(command(of: p.processIdentifier) == "sh")
        #expect(cpuSeconds(of: p.processIdentifier) > before)
    }

    @Test func aProcessThatIsGoneIsNotWaitedFor() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/true")
        try p.run()
        p.waitUntilExit()
        #expect(!WestonBench.waitUntilQuiet(pid: p.processIdentifier, limit: 600))
    }
}
