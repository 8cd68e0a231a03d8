import Foundation
import ScrollwayRaster

/// The headless weston test rig: a compositor with our input-injection module, and a control
/// connection that injects input and captures the output. Run any Wayland client inside it
/// (`launchClient`, or connect with `clientEnvironment`).
///
/// Everything is torn down by PID on `stop()`, on deinit, and (by the module's parent watch)
/// within a quarter second of this process dying.
public final class WestonRig {
    public let process: WestonProcess
    /// Paces injected gestures in real time (`RealTimePacer`).
    public let pacer = RealTimePacer()
    public let input: TestInputClient
    public let keys: KeyCodes

    /// Starts weston at `width`×`height` with the module found by `modulePath()`, its seat's
    /// keymap `keymap` (`keys` finds keys in the same map).
    public init(
        width: Int = 800, height: Int = 600, scale: Int = 1, modulePath: String? = nil, keymap: KeymapNames = .us
    ) throws {
        let module = try modulePath ?? WestonRig.modulePath()
        process = try WestonProcess(
            .init(width: width, height: height, scale: scale, modulePath: module, keymap: keymap))
        do {
            input = try TestInputClient(socketPath: process.socketPath)
            keys = try KeyCodes(keymap)
        } catch let error as RigError {
            let log = process.log
            process.stop()
            if case .missingGlobal = error { throw RigError.startupFailed(reason: error.description, log: log) }
            throw error
        }
    }

    deinit { stop() }

    public func stop() { process.stop() }

    /// WAYLAND_DISPLAY for clients: the socket's absolute path.
    public var socketPath: String { process.socketPath }
    public var clientEnvironment: [String: String] { process.clientEnvironment }

    /// The running executable's path (the kernel's `/proc/self/exe`), which the module is looked
    /// for beside and the benches start again as their clients. `CommandLine.arguments[0]` is
    /// only the name it was run by: a command found on `PATH` (`scrollway bench --weston`,
    /// installed in /usr/local/bin) had it resolved against the current directory instead.
    /// An executable replaced while it runs (rebuilt) reads as "PATH (deleted)": the path is
    /// the new one, which is what a client started now should run.
    public static var runningExecutable: String {
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return exe.hasSuffix(" (deleted)") ? String(exe.dropLast(" (deleted)".count)) : exe
        }
        return URL(fileURLWithPath: CommandLine.arguments.first ?? "").standardizedFileURL.resolvingSymlinksInPath()
            .path
    }

    /// Where the WestonTestInput module is: $SCROLLWAY_WESTON_MODULE, else next to this
    /// executable (or test bundle), or in the package's .build/debug and .build/release.
    public static func modulePath() throws -> String {
        let name = "libWestonTestInput.so"
        let env = ProcessInfo.processInfo.environment
        if let explicit = env["SCROLLWAY_WESTON_MODULE"], !explicit.isEmpty {
            guard FileManager.default.fileExists(atPath: explicit) else { throw RigError.moduleNotFound([explicit]) }
            return URL(fileURLWithPath: explicit).standardizedFileURL.path
        }
        var candidates: [URL] = []
        var dir = URL(fileURLWithPath: runningExecutable).deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(dir.appendingPathComponent(name))
            // The root is its own parent: each folder is named once in what was looked in.
            guard dir.path != "/" else { break }
            dir = dir.deletingLastPathComponent()
        }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        for build in [".build/debug", ".build/release"] {
            let candidate = cwd.appendingPathComponent("\(build)/\(name)")
            if !candidates.contains(where: { $0.path == candidate.path }) { candidates.append(candidate) }
        }
        if let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
            return found.standardizedFileURL.path
        }
        throw RigError.moduleNotFound(candidates.map(\.path))
    }

    // MARK: Convenience injection (times in ms)

    public func tap(x: Double, y: Double, id: Int32 = 0, at time: UInt32) throws {
        input.touchDown(id: id, x: x, y: y, time: time)
        input.touchFrame()
        input.touchUp(id: id, time: time + 50)
        input.touchFrame()
        try input.roundtrip()
    }

    /// Types a keysym by name (with Shift when the keymap needs it).
    public func pressKey(named name: String, at time: UInt32) throws {
        guard let stroke = keys.stroke(forKeysymNamed: name) else {
            throw RigError.system("no key produces the keysym '\(name)' in the us keymap")
        }
        if stroke.shift { input.key(KeyCodes.leftShift, pressed: true, time: time) }
        input.key(stroke.evdev, pressed: true, time: time)
        input.key(stroke.evdev, pressed: false, time: time + 1)
        if stroke.shift { input.key(KeyCodes.leftShift, pressed: false, time: time + 1) }
        try input.roundtrip()
    }

    /// Takes the pointer off every surface, so no client's cursor shows in captures (moving it
    /// "away" is not enough: weston clamps it to the output's edge, cursor and all).
    public func parkPointer(at time: UInt32 = 0) throws {
        input.pointerHide()
        input.pointerFrame()
        try input.roundtrip()
    }

    /// What the output shows now (at its next repaint).
    public func capture() throws -> Canvas { try input.capture() }
}
