import Foundation
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayTestSupport
import ScrollwayWestonHarness
import Testing

/// `scrollway rig`, the command people use, run as a process.
@Suite(.serialized) struct RigCommandTests {

    @Test func playsAScriptIntoAClientAndWritesScreenshots() async throws {
        let script = CommandRunner.temp("taps.jsonl")
        let shots = CommandRunner.temp("shots")
        defer {
            try? FileManager.default.removeItem(at: script)
            try? FileManager.default.removeItem(at: shots)
        }
        try """
        {"format": "scrollway-script", "version": 1}
        {"t": 0, "type": "touch.down", "id": 0, "x": 100, "y": 100}
        {"t": 0, "type": "touch.frame"}
        {"t": 30, "type": "touch.motion", "id": 0, "x": 300, "y": 200}
        {"t": 30, "type": "touch.frame"}
        {"t": 60, "type": "touch.down", "id": 1, "x": 500, "y": 400}
        {"t": 60, "type": "touch.frame"}
        {"t": 200, "type": "screenshot", "name": "marks"}
        {"t": 220, "type": "touch.up", "id": 0}
        {"t": 220, "type": "touch.up", "id": 1}
        """.write(to: script, atomically: true, encoding: .utf8)
        let r = try await CommandRunner.run([
            "rig", "--size", "600x500", "--script", script.path, "--screenshots", shots.path, "--settle", "50", "--",
            "weston-simple-touch",
        ])
        #expect(r.status == 0, "stderr: \(r.err)")
        #expect(r.out.hasPrefix("WAYLAND_DISPLAY=/"))
        let png = shots.appendingPathComponent("marks.png")
        #expect(r.out.contains("screenshot \(png.path)"))
        let canvas = try PNG.decode([UInt8](Data(contentsOf: png)))
        func rgb(_ x: Int, _ y: Int) -> UInt32 { canvas.pixel(x: x, y: y) & 0xFF_FFFF }
        #expect(rgb(100, 100) == 0xFF_0000 && rgb(300, 200) == 0xFF_0000 && rgb(500, 400) == 0xFF_FF00)
    }

    /// How a process ended, as messages say it: a signal is named as one ("weston exited with
    /// status 9" was said of a weston killed by SIGKILL).
    @Test func aProcessKilledByASignalIsSaidToBe() throws {
        func ended(_ command: String) throws -> String {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", command]
            try p.run()
            p.waitUntilExit()
            return RigProcesses.describeEnd(p)
        }
        #expect(try ended("kill -9 $$") == "was killed by signal 9 (Killed)")
        #expect(try ended("exit 3") == "exited with status 3")
    }

    @Test func aBadScriptIsRejectedBeforeAnythingStarts() async throws {
        let script = CommandRunner.temp("bad.jsonl")
        defer { try? FileManager.default.removeItem(at: script) }
        try
            "{\"t\": 0, \"type\": \"touch.down\", \"id\": 0, \"x\": 1, \"y\": 1}\n{\"t\": 5, \"type\": \"touch.up\", \"id\": 4}\n"
            .write(to: script, atomically: true, encoding: .utf8)
        let r = try await CommandRunner.run(["rig", "--script", script.path])
        #expect(r.status != 0)
        #expect(r.err.contains("\(script.path):2: field 'id': finger 4 is not down"))
        #expect(r.out.isEmpty)  // no compositor was started
    }

    /// A client that is not there is named before any compositor starts (issue 36, item 16: a
    /// raw NSError after the rig had started).
    @Test(arguments: [
        ("/nonexistent/client", "'/nonexistent/client': no such program (not there, or not executable)"),
        ("scrollway-no-such-client", "'scrollway-no-such-client': no such program on $PATH"),
    ])
    func aMissingClientIsNamedBeforeAnythingStarts(client: String, message: String) async throws {
        let r = try await CommandRunner.run(["rig", "--", client])
        #expect(r.status != 0)
        #expect(r.err.contains(message), "\(r.err)")
        #expect(r.out.isEmpty, "a compositor was started: \(r.out)")
        #expect(!r.err.contains("NSCocoaErrorDomain"))
    }

    /// Text the keymap cannot type is named escaped: a bell or a NUL in a script never reaches
    /// the terminal raw (issue 36, item 8).
    @Test func untypableTextIsNamedEscaped() async throws {
        let script = CommandRunner.temp("bell.jsonl")
        defer { try? FileManager.default.removeItem(at: script) }
        try "{\"t\": 0, \"type\": \"text\", \"text\": \"a\\u0007\"}\n".write(
            to: script, atomically: true, encoding: .utf8)
        let r = try await CommandRunner.run(["rig", "--script", script.path, "--map-timeout", "0"])
        #expect(r.status != 0)
        #expect(r.err.contains("the us keymap cannot type '\\u{7}'"), "\(r.err)")
        #expect(!r.err.contains("\u{7}"), "a raw bell reached standard error")
    }

    // MARK: Other compositors

    /// mutter's rig cannot capture, so it cannot see a client's window come: it says so and
    /// plays on, where it stopped with "capture is not offered" before.
    @Test(.enabled(if: RigProcesses.findExecutable("mutter") != nil, "mutter is not installed: apt-get install mutter"))
    func mutterPlaysWithoutWaitingForAWindowItCannotSee() async throws {
        let r = try await CommandRunner.run(["rig", "--compositor", "mutter", "--settle", "0", "--", "sleep", "60"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("not waiting for 'sleep''s window (capture is not offered by mutter's rig"), "\(r.err)")
    }

    /// sway as the rig: Page Down typed through its virtual keyboard into `scrollway demo` (a
    /// process of its own) pages the list; the screenshots before and after differ.
    @Test(.enabled(if: RigProcesses.findExecutable("sway") != nil, "sway is not installed: apt-get install sway"))
    func swayPlaysKeysIntoAClient() async throws {
        let script = CommandRunner.temp("sway-keys.jsonl")
        let shots = CommandRunner.temp("sway-shots")
        defer {
            try? FileManager.default.removeItem(at: script)
            try? FileManager.default.removeItem(at: shots)
        }
        try """
        {"format": "scrollway-script", "version": 1}
        {"t": 300, "type": "screenshot", "name": "before"}
        {"t": 400, "type": "key", "key": "Page_Down", "state": "pressed"}
        {"t": 430, "type": "key", "key": "Page_Down", "state": "released"}
        {"t": 1200, "type": "screenshot", "name": "after"}
        """.write(to: script, atomically: true, encoding: .utf8)
        let r = try await CommandRunner.run([
            "rig", "--compositor", "sway", "--size", "390x600", "--script", script.path, "--screenshots", shots.path,
            "--settle", "50", "--", try CommandRunner.scrollway().path, "demo",
        ])
        #expect(r.status == 0, "stderr: \(r.err)")
        let before = try PNG.decode([UInt8](Data(contentsOf: shots.appendingPathComponent("before.png"))))
        let after = try PNG.decode([UInt8](Data(contentsOf: shots.appendingPathComponent("after.png"))))
        #expect(before.width == 390 && before.height == 600)
        var differing = 0
        for y in stride(from: 40, to: 600, by: 4) where before.pixel(x: 100, y: y) != after.pixel(x: 100, y: y) {
            differing += 1
        }
        #expect(differing > 20, "the list did not page")
    }

    /// What a compositor cannot take is refused before anything starts, with the line and why.
    @Test func touchIsRefusedForSwayBeforeAnythingStarts() async throws {
        let script = CommandRunner.temp("sway-touch.jsonl")
        defer { try? FileManager.default.removeItem(at: script) }
        try "{\"t\": 0, \"type\": \"touch.down\", \"id\": 0, \"x\": 1, \"y\": 1}\n"
            .write(to: script, atomically: true, encoding: .utf8)
        let r = try await CommandRunner.run(["rig", "--compositor", "sway", "--script", script.path])
        #expect(r.status != 0)
        #expect(
            r.err.contains(
                "\(script.path):1: 'touch.down': touch is not offered by sway: wlroots 0.15 has no virtual touch device"
            ))
        #expect(r.out.isEmpty)
    }

    /// A wheel event between whole detents (value120 30) is refused by every rig before
    /// anything starts, naming the line: no compositor's seat carries one, and each had turned
    /// it silently into something else (weston, sway and phoc a 1.5-detent step from the value,
    /// mutter a value120 of 45). Whole detents play.
    @Test(arguments: ["weston", "sway", "mutter", "phoc"])
    func aWheelBetweenWholeDetentsIsRefusedBeforeAnythingStarts(_ compositor: String) async throws {
        let script = CommandRunner.temp("partial-detent-\(compositor).jsonl")
        defer { try? FileManager.default.removeItem(at: script) }
        try """
        {"t": 0, "type": "pointer.axis", "axis": "vertical", "value": 15, "source": "wheel", "value120": 240}
        {"t": 0, "type": "pointer.frame"}
        {"t": 10, "type": "pointer.axis", "axis": "vertical", "value": 3.75, "source": "wheel", "value120": 30}

        """.write(to: script, atomically: true, encoding: .utf8)
        let r = try await CommandRunner.run(["rig", "--compositor", compositor, "--script", script.path])
        #expect(r.status != 0)
        #expect(
            r.err.contains("\(script.path):3: 'pointer.axis with a value120 between whole detents': "), "\(r.err)")
        #expect(r.out.isEmpty, "the compositor started: \(r.out)")
    }

    // MARK: The exit status tells the truth

    @Test(arguments: [
        (
            ["/bin/false"], [String](),
            "the client exited with status 1 before showing a window (the script did not finish)"
        ),
        (
            ["sh", "-c", "kill -SEGV $$"], ["--map-timeout", "0"],
            "the client was killed by signal 11 (Segmentation fault)"
        ),
        (["sh", "-c", "exit 3"], ["--map-timeout", "0"], "the client exited with status 3 before"),
        (["sleep", "30"], ["--map-timeout", "0.5"], "no window from 'sleep' after 0.5 s"),
    ])
    func aClientThatFailsFailsTheRun(command: [String], options: [String], message: String) async throws {
        let script = try CommandRunner.tapScript("tap-\(abs(message.hashValue)).jsonl", at: 100, x: 10, y: 10)
        let r = try await CommandRunner.run(
            ["rig", "--script", script.path, "--settle", "0"] + options + ["--"] + command)
        #expect(r.status == 1, "status \(r.status): \(r.err)")
        #expect(r.err.contains(message), "stderr: \(r.err)")
    }

    @Test func waitsLongerThanAnHourAreRefusedNotTrapped() async throws {
        let r = try await CommandRunner.run(["rig", "--settle", "5000000"])
        #expect(r.status == 64 && r.err.contains("--settle: expected milliseconds from 0 to 3600000, got 5000000.0"))
        let late = CommandRunner.temp("late.jsonl")
        try #"{"t": 4400000000, "type": "touch.frame"}"#.write(to: late, atomically: true, encoding: .utf8)
        let l = try await CommandRunner.run(["rig", "--script", late.path])
        #expect(l.status == 1 && l.err.contains("field 't': expected a number ≤ 86400000 ms (24 hours)"), "\(l.err)")
    }

    /// A rig killed outright, whose parent has not reaped it (a zombie still answers
    /// kill(pid, 0)): weston and the client go at once, and the caller reading the rig's
    /// output sees its end (the client never held it).
    @Test func aKilledRigThatIsNotReapedStillTakesWestonAlong() throws {
        let (rig, output, input) = try spawnUnreaped([
            CommandRunner.scrollway().path, "rig", "--", "weston-simple-touch",
        ])
        defer {
            close(input)
            _ = waitpid(rig, nil, 0)
        }
        let lines = try readLines(output, count: 2)
        let runtime = try #require(lines.last?.split(separator: "=").last.map(String.init))
        let weston = try #require(children(of: rig).first)
        #expect(kill(rig, SIGKILL) == 0)
        // Not reaped: `rig` is a zombie from here on.
        try eventually("weston \(weston) to end with its killed rig", timeout: 10) { !isRunning(weston) }
        // The pipe ends: nobody else holds the rig's standard output (waited for with a
        // deadline, so a client still holding it fails the test instead of hanging it).
        var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        #expect(poll(&poller, 1, 10_000) == 1, "the rig's output is still held open")
        var byte: UInt8 = 0
        if poller.revents != 0 { #expect(read(output, &byte, 1) == 0) }
        close(output)
        #expect(!runtime.isEmpty)
    }

    /// A client that leaves a child of its own running (a wrapper: `perf stat`, a shell) is
    /// ended with it when the script is done: the rig returns and nothing it started is left.
    /// Before, the rig waited on the child for as long as it lived.
    @Test func aClientsOwnChildrenEndWithIt() throws {
        let script = try CommandRunner.tapScript("child.jsonl")
        let nap = "86399.\(Int.random(in: 10_000...99_999))"
        func napping() -> [pid_t] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return entries.compactMap { pid_t($0) }.filter { pid in
                let argv = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
                return argv.split(separator: 0).map { String(decoding: $0, as: UTF8.self) } == ["sleep", nap]
                    && isRunning(pid)
            }
        }
        let (rig, output, input) = try spawnUnreaped([
            CommandRunner.scrollway().path, "rig", "--script", script.path, "--map-timeout", "0", "--settle", "50",
            "--", "sh", "-c", "sleep \(nap) & wait",
        ])
        defer {
            close(input)
            close(output)
            for pid in napping() { kill(pid, SIGKILL) }
        }
        let status = try reap(rig, "the rig to return", timeout: 60)
        #expect((status >> 8) & 0xFF == 0, "exit status \(status)")
        #expect(napping().isEmpty, "the client's child outlived the rig")
    }

    /// SIGTERM stops the rig properly: clients, weston and the runtime directory all go.
    @Test func aTerminatedRigCleansUp() throws {
        let (rig, output, input) = try spawnUnreaped([
            CommandRunner.scrollway().path, "rig", "--", "weston-simple-touch",
        ])
        defer { close(input) }
        let lines = try readLines(output, count: 2)
        close(output)
        let runtime = try #require(lines.last?.split(separator: "=").last.map(String.init))
        #expect(FileManager.default.fileExists(atPath: runtime))
        let weston = try #require(children(of: rig).first)
        #expect(kill(rig, SIGTERM) == 0)
        var status: Int32 = 0
        #expect(waitpid(rig, &status, 0) == rig)
        #expect((status >> 8) & 0xFF == 128 + SIGTERM, "exit status \(status)")
        #expect(!FileManager.default.fileExists(atPath: runtime), "\(runtime) left behind")
        try eventually("weston to end with the rig", timeout: 10) { !isRunning(weston) }
    }

    /// A rig fed script lines on its standard input notices its compositor's end while it waits
    /// for the next line, and ends saying so (exit 1). Blocked in a read, it had noticed only at
    /// the next line, which a script fed by hand may never send.
    @Test func aRigReadingStandardInputNoticesItsCompositorEndWhileItWaits() throws {
        let errors = CommandRunner.temp("stdin-rig.err").path
        let shots = CommandRunner.temp("stdin-rig-shots").path
        let (rig, output, input) = try spawnUnreaped(
            [CommandRunner.scrollway().path, "rig", "--screenshots", shots], errors: errors)
        defer {
            close(input)
            close(output)
        }
        _ = try readLines(output, count: 2)
        // A line played, announced: the rig is back waiting for the next when weston goes.
        let line = #"{"t": 0, "type": "screenshot", "name": "played"}"# + "\n"
        #expect(write(input, line, line.utf8.count) == line.utf8.count)
        let announced = try readLines(output, count: 1)
        #expect(announced.first?.hasPrefix("screenshot ") == true, "\(announced)")
        let weston = try #require(children(of: rig).first)
        #expect(kill(weston, SIGKILL) == 0)
        // The input stays open, with no line to come.
        let status = try reap(rig, "the rig to notice its compositor's end", timeout: 30)
        let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(status & 0x7f == 0 && (status >> 8) & 0xff == 1, "status \(status): \(said)")
        #expect(said.hasPrefix("Error: lost the connection to the compositor: "), "\(said)")
    }

    /// A SIGTERM sent the moment the rig has printed its socket stops it: its signal handling
    /// is in place before it says anything. Dispatch registered the handlers on its own thread
    /// after the rig went on, and a signal that came first was ignored: the rig ran on, and
    /// `aTerminatedRigCleansUp` waited for it for ever. A race, so tried many times.
    @Test func aSIGTERMAsSoonAsTheSocketIsPrintedStopsTheRig() throws {
        for _ in 0..<60 {
            let (rig, output, input) = try spawnUnreaped([
                CommandRunner.scrollway().path, "rig", "--", "weston-simple-touch",
            ])
            defer {
                close(input)
                close(output)
            }
            _ = try readLines(output, count: 1)
            #expect(kill(rig, SIGTERM) == 0)
            let status = try reap(rig, "the rig to end on SIGTERM", timeout: 10)
            #expect((status >> 8) & 0xFF == 128 + SIGTERM, "exit status \(status)")
        }
    }

    /// weston stopped right after a screenshot (whose own time is excused) holds the rig's next
    /// roundtrip, so the next event comes late: the rig says how far behind and exits 1, and
    /// with --tolerate-stalls says it and exits 0 (issue 36, item 10: it exited 0 silently).
    @Test(arguments: [false, true])
    func aStalledCompositorIsReported(tolerated: Bool) throws {
        let script = CommandRunner.temp("stall-\(tolerated).jsonl")
        let shots = CommandRunner.temp("stall-shots-\(tolerated)")
        let errors = CommandRunner.temp("stall-\(tolerated).err").path
        try """
        {"t": 0, "type": "screenshot", "name": "before"}
        {"t": 100, "type": "key", "key": "a", "state": "pressed"}
        {"t": 150, "type": "key", "key": "a", "state": "released"}
        {"t": 400, "type": "key", "key": "b", "state": "pressed"}
        {"t": 450, "type": "key", "key": "b", "state": "released"}
        {"t": 700, "type": "key", "key": "c", "state": "pressed"}
        {"t": 750, "type": "key", "key": "c", "state": "released"}

        """.write(to: script, atomically: true, encoding: .utf8)
        let (rig, output, input) = try spawnUnreaped(
            [
                CommandRunner.scrollway().path, "rig", "--script", script.path, "--screenshots", shots.path, "--settle",
                "0",
            ]
                + (tolerated ? ["--tolerate-stalls"] : []), errors: errors)
        defer {
            close(input)
            close(output)
        }
        let lines = try readLines(output, count: 3)  // WAYLAND_DISPLAY, XDG_RUNTIME_DIR, screenshot
        #expect(lines.last?.hasPrefix("screenshot ") == true, "\(lines)")
        // Behind by most of the 0.6 s stop, at a key event whose roundtrip it held (the stop
        // lands within the script's 750 ms however slowly this process gets to it).
        let message = try stopForAWhile(try #require(children(of: rig).first), of: rig, tolerated, errors: errors)
        #expect(message.contains(" ms behind their script times (at t = "), "\(message)")
        #expect(message.contains(" ms): the compositor stalled"), "\(message)")
    }

    /// A client stopped mid-script leaves its input unread: the rig waits for it only a frame
    /// or two, plays on at the script's times, and when the client reads again says how far
    /// behind it fell and exits 1 (0 with --tolerate-stalls). Issue 36, item 10: a client
    /// stopped for 15 s gave exit 0 and frozen screenshots.
    @Test(arguments: [false, true])
    func aStalledClientIsReported(tolerated: Bool) throws {
        let script = CommandRunner.temp("client-stall-\(tolerated).jsonl")
        let shots = CommandRunner.temp("client-stall-shots-\(tolerated)")
        let errors = CommandRunner.temp("client-stall-\(tolerated).err").path
        var lines = [#"{"t": 0, "type": "screenshot", "name": "before"}"#]
        for (i, t) in stride(from: 100, through: 1500, by: 50).enumerated() {
            lines.append(#"{"t": \#(t), "type": "pointer.motion", "x": \#(100 + i % 2 * 20), "y": 120}"#)
            lines.append(#"{"t": \#(t), "type": "pointer.frame"}"#)
        }
        try (lines.joined(separator: "\n") + "\n").write(to: script, atomically: true, encoding: .utf8)
        let (rig, output, input) = try spawnUnreaped(
            [
                CommandRunner.scrollway().path, "rig", "--size", "320x240", "--script", script.path, "--screenshots",
                shots.path, "--settle", "0",
            ] + (tolerated ? ["--tolerate-stalls"] : []) + ["--", CommandRunner.scrollway().path, "demo"],
            errors: errors)
        defer {
            close(input)
            close(output)
        }
        let printed = try readLines(output, count: 3)  // WAYLAND_DISPLAY, XDG_RUNTIME_DIR, screenshot
        #expect(printed.last?.hasPrefix("screenshot ") == true, "\(printed)")
        let client = try #require(
            children(of: rig).first {
                (try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8)) == "scrollway\n"
            })
        let message = try stopForAWhile(client, of: rig, tolerated, errors: errors)
        #expect(
            message.contains(" ms behind their script times (at t = ")
                && message.contains(" ms): the client stalled, leaving what the compositor sent it unread"),
            "\(message)")
    }

    /// Stops `victim` (the rig's compositor or client) for 0.6 s, waits for `rig` to end and
    /// checks it exited as `tolerated` says (1, or 0 with --tolerate-stalls) saying it fell
    /// more than 300 ms behind; returns what it said.
    func stopForAWhile(_ victim: pid_t, of rig: pid_t, _ tolerated: Bool, errors: String) throws -> String {
        #expect(kill(victim, SIGSTOP) == 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.6) { _ = kill(victim, SIGCONT) }
        var status: Int32 = 0
        _ = waitpid(rig, &status, 0)
        let message = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(status & 0x7f == 0, "the rig was killed by a signal: \(message)")
        #expect((status >> 8) & 0xff == (tolerated ? 0 : 1), "\(message)")
        let behind = message.split(separator: " ").drop { $0 != "fell" }.dropFirst().first.flatMap { Int($0) }
        #expect((behind ?? 0) > 300, "\(message)")
        return message
    }

    // MARK: Process helpers (posix_spawn: Foundation's Process would reap the child itself)

    /// Starts `argv` with its standard output on a pipe we read and its standard input on a
    /// pipe we hold open (so a rig reading script lines waits for them instead of finishing).
    /// The other compositors' rigs end with a killed rig too: sway (its watcher ends it by the
    /// PID its IPC socket's name carries, even when a later rig has swept its directory away),
    /// and mutter, KWin and phoc (their watcher ends their whole process group: session bus and
    /// all).
    @Test(arguments: ["sway", "mutter", "phoc", "kwin"])
    func aKilledRigTakesItsCompositorAlong(_ compositor: String) throws {
        guard RigProcesses.findExecutable(compositor == "kwin" ? "kwin_wayland" : compositor) != nil else {
            FileHandle.standardError.write(Data("conformance: \(compositor) is not installed\n".utf8))
            try Test.cancel("\(compositor) is not installed (Scripts/install-deps.sh)")
        }
        let (rig, output, input) = try spawnUnreaped([
            CommandRunner.scrollway().path, "rig", "--compositor", compositor,
        ])
        defer {
            close(input)
            close(output)
            _ = waitpid(rig, nil, 0)
        }
        _ = try readLines(output, count: 1)
        // The rig's one child leads the compositor's process group.
        let group = try #require(children(of: rig).first)
        #expect(!liveMembers(ofGroup: group).isEmpty)
        #expect(kill(rig, SIGKILL) == 0)
        try eventually("\(compositor)'s processes to end with the killed rig", timeout: 10) {
            liveMembers(ofGroup: group).isEmpty
        }
    }

    /// The processes of group `group` that are alive and not zombies.
    func liveMembers(ofGroup group: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { pid in
            guard isRunning(pid), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            return fields.count > 2 && pid_t(fields[2]) == group
        }
    }

    func spawnUnreaped(
        _ argv: [String], errors: String = "/dev/null"
    ) throws -> (
        pid: pid_t, output: Int32, input: Int32
    ) {
        var fds: [Int32] = [0, 0]
        var input: [Int32] = [0, 0]
        guard pipe(&fds) == 0, pipe(&input) == 0 else { throw RigError.system("pipe") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_addclose(&actions, input[1])
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var pid: pid_t = 0
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        let rc = posix_spawn(&pid, argv[0], &actions, nil, cArgs, environ)
        close(fds[1])
        close(input[0])
        guard rc == 0 else { throw RigError.system("posix_spawn: \(rc)") }
        return (pid, fds[0], input[1])
    }

    /// Reads `count` lines from `fd` (waiting as long as the rig takes to start).
    /// Waits up to `timeout` seconds for `pid` to end and returns its wait status; if it does
    /// not, kills and reaps it and throws (a test never leaves it running).
    func reap(_ pid: pid_t, _ what: String, timeout: Double) throws -> Int32 {
        var status: Int32 = 0
        do {
            try eventually(what, timeout: timeout) { waitpid(pid, &status, WNOHANG) == pid }
        } catch {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            throw error
        }
        return status
    }

    func readLines(_ fd: Int32, count: Int) throws -> [String] {
        var text = [UInt8]()
        var byte: UInt8 = 0
        while text.filter({ $0 == 10 }).count < count {
            guard read(fd, &byte, 1) == 1 else { throw RigError.system("the rig's output ended early") }
            text.append(byte)
        }
        return String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == parent
        }
    }

    /// Alive and not a zombie.
    func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state != "Z" && state != "X"
    }
}
