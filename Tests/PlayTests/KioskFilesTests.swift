import Foundation
import ScrollwayTestSupport
import Testing

/// The kiosk start-up files docs/kiosks.md gives (docs/kiosk/): systemd units that a kiosk builder
/// copies as they are, the weston.ini they use and the launcher weston's [autolaunch] runs.
@Suite struct KioskFilesTests {
    static let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../docs/kiosk").standardized

    /// Runs a program; returns its status and its standard error.
    func run(_ path: String, _ args: [String]) throws -> (status: Int32, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// `systemd-analyze verify` where systemd is installed: every complaint fails the test,
    /// except that the unit's compositor is not installed on this machine (cage, on a build
    /// machine), which is all a missing binary makes it say. Without systemd, a syntax check.
    @Test(arguments: ["scrollway-kiosk-weston.service", "scrollway-kiosk-cage.service"])
    func theUnitVerifies(_ name: String) throws {
        let unit = Self.dir.appendingPathComponent(name)
        let text = try String(contentsOf: unit, encoding: .utf8)
        let exec = try #require(text.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        let compositor = String(exec.dropFirst("ExecStart=".count).split(separator: " ")[0])
        #expect(compositor.hasPrefix("/"), "ExecStart needs an absolute path")
        #expect(text.contains("scrollway demo --kiosk") || text.contains("weston-kiosk.ini"))

        let analyze = "/usr/bin/systemd-analyze"
        guard FileManager.default.isExecutableFile(atPath: analyze) else {
            try syntaxCheck(text, name: name)
            return
        }
        let r = try run(analyze, ["verify", unit.path])
        let complaints = r.err.split(separator: "\n").filter { line in
            !(line.contains("Command \(compositor) is not executable")
                && !FileManager.default.isExecutableFile(atPath: compositor))
        }
        #expect(complaints.isEmpty, "systemd-analyze verify \(name): \(complaints.joined(separator: "; "))")
        if FileManager.default.isExecutableFile(atPath: compositor) { #expect(r.status == 0) }
    }

    /// The parts a unit needs, each line a section header, a comment or key=value.
    func syntaxCheck(_ text: String, name: String) throws {
        var sections: [String] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            if line.hasPrefix("[") {
                sections.append(String(line))
            } else {
                #expect(line.contains("="), "\(name): not key=value: \(line)")
            }
        }
        #expect(sections == ["[Unit]", "[Service]", "[Install]"])
    }

    @Test func westonsConfigNamesTheKioskShellAndTheLauncher() throws {
        let ini = try String(contentsOf: Self.dir.appendingPathComponent("weston-kiosk.ini"), encoding: .utf8)
        #expect(ini.contains("[core]\nshell=kiosk-shell.so"))
        #expect(ini.contains("[autolaunch]\npath=/etc/scrollway/scrollway-kiosk.sh"))
        // The shell module named is one weston has (where weston is installed).
        let modules = "/usr/lib/x86_64-linux-gnu/weston"
        if FileManager.default.fileExists(atPath: modules) {
            #expect(FileManager.default.fileExists(atPath: modules + "/kiosk-shell.so"))
        }
        let unit = try String(
            contentsOf: Self.dir.appendingPathComponent("scrollway-kiosk-weston.service"), encoding: .utf8)
        #expect(unit.contains("--config=/etc/scrollway/weston-kiosk.ini"))
    }

    /// The launcher is valid sh, and the command it runs parses: without a compositor it gets as
    /// far as saying there is none (a bad option would exit 64 with a usage error instead).
    @Test func theLauncherRunsTheKioskDemo() async throws {
        let launcher = Self.dir.appendingPathComponent("scrollway-kiosk.sh")
        #expect(try run("/bin/sh", ["-n", launcher.path]).status == 0)
        let text = try String(contentsOf: launcher, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("exec ") })
        let args = line.split(separator: " ").dropFirst(2).map(String.init)
        #expect(args.first == "demo" && args.contains("--kiosk"))
        var env = ProcessInfo.processInfo.environment
        env["WAYLAND_DISPLAY"] = nil
        env["XDG_RUNTIME_DIR"] = FileManager.default.temporaryDirectory.path + "/no-such-runtime-dir"
        let r = try await CommandRunner.run(args, environment: env)
        #expect(r.status == 1, "stderr: \(r.err)")
        #expect(r.err.contains("no Wayland compositor is running"))
    }
}
