import Foundation
import ScrollwayWestonHarness

/// Runs the built `scrollway` executable as users do, for tests of the command line.
public enum CommandRunner {
    /// The `scrollway` executable next to the test bundle (beside the weston module).
    public static func scrollway() throws -> URL {
        let module = URL(fileURLWithPath: try WestonRig.modulePath())
        let exe = module.deletingLastPathComponent().appendingPathComponent("scrollway")
        guard FileManager.default.isExecutableFile(atPath: exe.path) else {
            throw RigError.system("scrollway is not built at \(exe.path) (run `swift build`)")
        }
        return exe
    }

    /// Runs `scrollway args…` with no standard input; returns the exit status and the output.
    public static func run(
        _ args: [String], environment: [String: String]? = nil
    ) throws -> (
        status: Int32, out: String, err: String
    ) {
        try run(executable: try scrollway(), args, environment: environment)
    }

    /// Runs `executable args…` with no standard input (in `directory`, or this process's own
    /// working directory); returns the exit status and the output.
    public static func run(
        executable: URL, _ args: [String], environment: [String: String]? = nil, in directory: URL? = nil
    ) throws -> (
        status: Int32, out: String, err: String
    ) {
        let p = Process()
        p.executableURL = executable
        p.arguments = args
        if let environment { p.environment = environment }
        if let directory { p.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.runWithSignalsUnblocked()
        // Both pipes are drained at once (standard error on its own thread), so a process that
        // fills one while we read the other cannot block either of us.
        let errorReader = PipeReader(err.fileHandleForReading)
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = errorReader.wait()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    /// `run`, waited for on a dispatch thread: a test awaiting a command holds neither the main
    /// actor nor one of the few threads of Swift's cooperative pool (two on a two-core machine)
    /// while the command runs, so other tests go on meanwhile.
    public static func run(
        _ args: [String], environment: [String: String]? = nil
    ) async throws -> (status: Int32, out: String, err: String) {
        try await run(executable: try scrollway(), args, environment: environment)
    }

    /// `run(executable:_:environment:in:)`, waited for on a dispatch thread (as `run` is).
    public static func run(
        executable: URL, _ args: [String], environment: [String: String]? = nil, in directory: URL? = nil
    ) async throws -> (status: Int32, out: String, err: String) {
        try await offThePool { try run(executable: executable, args, environment: environment, in: directory) }
    }

    /// `body`, run on a dispatch thread and awaited: a test that blocks while it waits (for a
    /// command, for a condition) holds none of the cooperative pool's few threads.
    public static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// This process's own folder in the temporary directory, removed when the process exits,
    /// so a test run leaves nothing behind.
    public static let temporaryRoot: URL = {
        let url = rootPath(pid: getpid())
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: CommandRunner.rootPath(pid: getpid())) }
        return url
    }()

    static func rootPath(pid: pid_t) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("scrollway-test-\(pid)")
    }

    /// A path inside `temporaryRoot`.
    public static func temp(_ name: String) -> URL { temporaryRoot.appendingPathComponent(name) }

    /// A script file `name` in `temporaryRoot`: one finger tapping (`x`, `y`) at `t` ms for 50 ms,
    /// and, when `screenshot` names one, a screenshot 10 ms after the lift.
    public static func tapScript(
        _ name: String, at t: Int = 0, x: Int = 100, y: Int = 100, screenshot: String? = nil
    ) throws -> URL {
        let script = temp(name)
        var lines = [
            #"{"t": \#(t), "type": "touch.down", "id": 0, "x": \#(x), "y": \#(y)}"#,
            #"{"t": \#(t), "type": "touch.frame"}"#,
            #"{"t": \#(t + 50), "type": "touch.up", "id": 0}"#,
            #"{"t": \#(t + 50), "type": "touch.frame"}"#,
        ]
        if let screenshot { lines.append(#"{"t": \#(t + 60), "type": "screenshot", "name": "\#(screenshot)"}"#) }
        try (lines.joined(separator: "\n") + "\n").write(to: script, atomically: true, encoding: .utf8)
        return script
    }
}

/// Reads a pipe to its end on a thread of its own.
public final class PipeReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()  // written by the reading thread before `done` is signalled

    public init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// The pipe's whole contents, once its writer closed it.
    public func wait() -> Data {
        done.wait()
        return data
    }
}
