import Foundation
import Glibc
import ScrollwayTestSupport
import ScrollwayWestonHarness
import Testing

/// A child the system refuses to start is named with the system's reason: Foundation's own
/// error says only "The operation could not be completed", and keeps posix_spawn's error
/// number beneath it, which `ProcessStartFailure` digs out (a compositor refused under a limit
/// on processes had said "NSCocoaErrorDomain error 256").
struct ProcessStartTests {
    /// Whether files in the temporary folder may be run (a `noexec` mount refuses them for
    /// another reason, EACCES).
    static let temporaryFilesRun: Bool = {
        let probe = CommandRunner.temp("may-run")
        guard FileManager.default.createFile(atPath: probe.path, contents: Data("#!/bin/sh\n".utf8)) else {
            return false
        }
        defer { unlink(probe.path) }
        return chmod(probe.path, 0o755) == 0 && access(probe.path, X_OK) == 0
    }()

    /// A script whose interpreter does not exist: Foundation finds the file executable, and the
    /// kernel refuses it at the start (ENOENT).
    @Test(.enabled(if: temporaryFilesRun, "the temporary folder is mounted noexec"))
    func aRefusedStartGivesTheSystemsReason() throws {
        let script = CommandRunner.temp("no-interpreter.sh")
        try "#!/nonexistent/interpreter\n".write(to: script, atomically: true, encoding: .utf8)
        try #require(chmod(script.path, 0o755) == 0)
        let p = Process()
        p.executableURL = script
        p.standardInput = FileHandle.nullDevice
        let error = #expect(throws: ProcessStartFailure.self) { try p.runWithSignalsUnblocked() }
        #expect(error?.code == ENOENT)
        #expect(error?.reason == "No such file or directory")
        #expect(error?.description == "cannot start \(script.path): No such file or directory")
    }
}
