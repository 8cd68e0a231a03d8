import Foundation

/// A headless weston for the smoke tests: private 0700 runtime dir, unique socket, always
/// killed by PID. (The full rig with input injection is WestonHarness; this only proves that
/// a client can connect.)
final class TestWeston {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let runtimeDir: URL
    let socketPath: String
    let configPath: String
    private let process: Process

    init(width: Int = 320, height: Int = 240) throws {
        guard let weston = TestWeston.findExecutable("weston") else {
            throw Failure(
                description:
                    "weston is not installed: run Scripts/install-deps.sh (CI installs it; this test never skips)")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "scrollway-weston-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        runtimeDir = dir
        let socket = "scrollway-\(getpid())-\(UUID().uuidString.prefix(6))"
        socketPath = dir.appendingPathComponent(socket).path
        configPath = dir.appendingPathComponent("weston.ini").path
        try "[core]\nrepaint-window=17\n".write(toFile: configPath, atomically: true, encoding: .utf8)

        process = Process()
        process.executableURL = URL(fileURLWithPath: weston)
        process.arguments = [
            "--backend=headless-backend.so", "--shell=kiosk-shell.so", "--use-pixman", "--idle-time=0",
            "--width=\(width)", "--height=\(height)", "--socket=\(socket)", "--config=\(configPath)",
        ]
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = dir.path
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        env.removeValue(forKey: "DISPLAY")
        process.environment = env
        let logURL = dir.appendingPathComponent("weston.log")
        guard FileManager.default.createFile(atPath: logURL.path, contents: nil) else {
            throw Failure(description: "cannot create \(logURL.path)")
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: logURL)
        try process.run()

        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: socketPath) {
            if !process.isRunning || Date() > deadline {
                let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
                stop()
                throw Failure(description: "headless weston did not create its socket within 5 s. Its log:\n\(text)")
            }
            usleep(10_000)
        }
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: runtimeDir)
    }

    deinit { stop() }

    static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
