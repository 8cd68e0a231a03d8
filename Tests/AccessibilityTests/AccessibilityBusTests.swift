import Foundation
import ScrollwayDBus
import ScrollwayGeometry
import ScrollwayRigs
import ScrollwayTestSupport
import ScrollwayWestonHarness
import Testing

/// The AT-SPI environment the accessibility tests run in: a private session with at-spi2-core's
/// bus launcher, read by libatspi (the library Orca reads apps with) through
/// Scripts/atspi-client.py. No display, no desktop session.
@Suite struct AccessibilityBusTests {
    /// Runs Scripts/atspi-client.py with `arguments` in `bus`'s session and returns its JSON;
    /// meanwhile `serve` runs (an app answering its calls), or nothing does.
    @MainActor
    static func client(
        _ arguments: [String], in bus: AccessibilityBus, serve: (() throws -> Void)? = nil
    ) throws -> [String: Any] {
        let (p, out, err) = try start(arguments, in: bus)
        let output = PipeReader(out)
        let errors = PipeReader(err)
        // An app answers the client's calls until it ends; with none to answer, wait for the end.
        if let serve { while p.isRunning { try serve() } }
        p.waitUntilExit()
        let text = output.wait()
        let message = String(decoding: errors.wait(), as: UTF8.self)
        guard p.terminationStatus == 0 else {
            throw RigError.system("atspi-client.py \(arguments) exited \(p.terminationStatus): \(message)")
        }
        return try #require(try JSONSerialization.jsonObject(with: text) as? [String: Any], "\(message)")
    }

    /// An AT-SPI client listening for events (`atspi-client.py listen`), started and ready.
    final class Listener {
        let process: Process
        let lines: LineCollector
        let errors: PipeReader
        init(process: Process, lines: LineCollector, errors: PipeReader) {
            self.process = process
            self.lines = lines
            self.errors = errors
        }

        /// Runs `serve` until the client has heard its events and ended; returns them.
        @MainActor
        func finish(serve: () throws -> Void) throws -> [[String: Any]] {
            while process.isRunning { try serve() }
            process.waitUntilExit()
            let message = String(decoding: errors.wait(), as: UTF8.self)
            guard process.terminationStatus == 0, let last = lines.all().last else {
                throw RigError.system("atspi-client.py listen exited \(process.terminationStatus): \(message)")
            }
            return try #require(
                try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [[String: Any]], "\(message)")
        }
    }

    /// Starts `atspi-client.py listen types --count count` and runs `serve` until it says it
    /// listens (libatspi asks the apps on the desktop about themselves meanwhile).
    @MainActor
    static func listen(
        _ types: [String], count: Int, in bus: AccessibilityBus, serve: () throws -> Void
    ) throws -> Listener {
        try listening(["listen"] + types + ["--count", String(count)], in: bus, serve: serve)
    }

    /// Starts `atspi-client.py keys --count count` (consuming the keys named `consume`) and
    /// runs `serve` until it listens to the keyboard.
    @MainActor
    static func listenToKeys(
        count: Int, consume: [String] = [], in bus: AccessibilityBus, serve: () throws -> Void
    ) throws -> Listener {
        try listening(
            ["keys", "--count", String(count)] + (consume.isEmpty ? [] : ["--consume"] + consume), in: bus,
            serve: serve)
    }

    /// Starts the client with `arguments` (a command that prints "ready" once it listens) and
    /// runs `serve` until it does.
    @MainActor
    static func listening(
        _ arguments: [String], in bus: AccessibilityBus, serve: () throws -> Void
    ) throws -> Listener {
        let (p, out, err) = try start(arguments, in: bus)
        let listener = Listener(process: p, lines: LineCollector(out), errors: PipeReader(err))
        while listener.lines.all().first != "ready" {
            guard p.isRunning else { throw RigError.system("atspi-client.py \(arguments[0]) ended before it listened") }
            try serve()
        }
        return listener
    }

    /// Starts Scripts/atspi-client.py with `arguments` in `bus`'s session; its output and
    /// errors come through the two handles.
    static func start(_ arguments: [String], in bus: AccessibilityBus) throws -> (Process, FileHandle, FileHandle) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [script.path] + arguments
        p.environment = try bus.environment
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        return (p, out.fileHandleForReading, err.fileHandleForReading)
    }

    /// Scripts/atspi-client.py in this checkout.
    static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scripts/atspi-client.py")
    }

    /// The processes whose environment names `directory` as their runtime directory: what a
    /// session left behind (the registry is started by the accessibility bus, not by us).
    static func processes(in directory: URL) -> [pid_t] {
        let marker = "XDG_RUNTIME_DIR=\(directory.path)"
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard let pid = pid_t(entry), pid != getpid(),
                let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ")
            else { return nil }
            return environ.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == marker } ? pid : nil
        }
    }

    /// With nothing registered, libatspi finds the registry's desktop and no application on it;
    /// the registry answers on the accessibility bus; stopping the session leaves no process.
    @MainActor @Test func anEmptyDesktopIsReadAndNothingIsLeftBehind() throws {
        let bus = try AccessibilityBus()
        defer { bus.stop() }
        let desktop = try Self.client(["tree"], in: bus)
        #expect(desktop["role"] as? String == "desktop frame", "\(desktop)")
        #expect(desktop["childCount"] as? Int == 0, "\(desktop)")
        // The registry itself, over sd-bus: the events screen readers listen for (none yet).
        let a11y = try DBusConnection(address: bus.accessibilityAddress)
        let events = try a11y.call(
            "org.a11y.atspi.Registry", path: "/org/a11y/atspi/registry", interface: "org.a11y.atspi.Registry",
            member: "GetRegisteredEvents")
        #expect(events.first?.signature == "a(ss)", "\(events)")
        let directory = bus.runtimeDirectory
        #expect(!Self.processes(in: directory).isEmpty, "the session's processes were not found by their environment")
        bus.stop()
        try eventually("the session's processes to end", timeout: 10) { Self.processes(in: directory).isEmpty }
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }
}
