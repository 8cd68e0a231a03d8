import Foundation
import WestonHarness

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
        try p.run()
        // Read both pipes to the end before waiting, so a chatty process cannot block on a full pipe.
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    /// A path in the temporary directory unique to this process.
    public static func temp(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("scrollway-test-\(getpid())-\(name)")
    }
}
