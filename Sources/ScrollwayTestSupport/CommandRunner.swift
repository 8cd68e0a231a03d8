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
        let p = Process()
        p.executableURL = try scrollway()
        p.arguments = args
        if let environment { p.environment = environment }
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
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try run(args, environment: environment) })
            }
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
