import Foundation
import ScrollwayRaster
import ScrollwayTestSupport
import Testing

/// `scrollway play` against what a hostile but fair user types: each case once crashed, hung,
/// answered nonsense or said something unhelpful; now each gets a clear error (exit 1, or 64
/// for a bad option) or a warning, and never a signal.
@Suite(.serialized) struct HostileCommandTests {
    static let tap = """
        {"t": 0, "type": "touch.down", "id": 0, "x": 100, "y": 100}
        {"t": 0, "type": "touch.frame"}
        {"t": 50, "type": "touch.up", "id": 0}
        {"t": 50, "type": "touch.frame"}

        """

    func script(_ text: String, _ name: String) throws -> String {
        let url = CommandRunner.temp(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// A failure the user can read: a status (not a signal) and the message.
    func expectError(
        _ r: (status: Int32, out: String, err: String), _ message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(r.status == 1 || r.status == 64, "status \(r.status): \(r.err)", sourceLocation: sourceLocation)
        #expect(r.err.contains(message), "stderr: \(r.err)", sourceLocation: sourceLocation)
    }

    /// `scrollway rig` copied away from its build, run where there is no build: the error names
    /// every place it looked for the weston module once (it had named the root once for each
    /// level it walked up past it) and how to build or point at the module.
    @Test func aRigWithoutItsModuleNamesEachPlaceLookedInOnce() throws {
        let folder = CommandRunner.temporaryRoot
        let copy = folder.appendingPathComponent("scrollway")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: try CommandRunner.scrollway(), to: copy)
        let tap = try script(Self.tap, "module-tap.jsonl")
        var environment = ProcessInfo.processInfo.environment
        environment["SCROLLWAY_WESTON_MODULE"] = nil
        let r = try CommandRunner.run(
            executable: copy, ["rig", "--script", tap, "--", "true"], environment: environment, in: folder)
        expectError(r, "the WestonTestInput module was not found; looked in: ")
        #expect(r.err.contains("build it with `swift build --product WestonTestInput`, or set SCROLLWAY_WESTON_MODULE"))
        let list = try #require(r.err.split(separator: "looked in: ").last?.split(separator: " (build it").first)
        let paths = list.split(separator: ", ").map(String.init)
        let name = "libWestonTestInput.so"
        var expected: [String] = []
        var dir = folder.standardizedFileURL.resolvingSymlinksInPath()
        while expected.count < 4 {
            expected.append(dir.appendingPathComponent(name).path)
            if dir.path == "/" { break }
            dir = dir.deletingLastPathComponent()
        }
        expected += [".build/debug", ".build/release"].map { folder.appendingPathComponent("\($0)/\(name)").path }
        #expect(paths == expected)
        #expect(Set(paths).count == paths.count)
    }

    /// A `scrollway` found on `PATH` and run by its name, in a folder far from its build, finds
    /// the module beside itself, as an installed one in /usr/local/bin must: the executable's
    /// path is the kernel's, not `argv[0]` (the bare name, which had been taken for a file of
    /// the current folder; `bench --weston` and `--latency` started that as their clients).
    @Test func aRigRunByNameFromPathFindsTheModuleBesideIt() throws {
        let folder = CommandRunner.temp("by-name")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let tap = try script(Self.tap, "by-name-tap.jsonl")
        let build = try CommandRunner.scrollway().deletingLastPathComponent().path
        var environment = ProcessInfo.processInfo.environment
        environment["SCROLLWAY_WESTON_MODULE"] = nil
        environment["PATH"] = build + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let r = try CommandRunner.run(
            executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "exec scrollway rig --script \"$0\" --settle 0", tap],
            environment: environment, in: folder)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("WAYLAND_DISPLAY="))
    }

    @Test(arguments: [
        (["--set", "contentOffset=0,1e16"], "--set contentOffset: expected a number ≤ 1000000000.0, got 1e+16"),
        (["--set", "contentSize=1e16,1e16"], "--set contentSize: expected a number ≤ 1000000000.0, got 1e+16"),
        // Accepted and then undone by the list's own layout before (issue 36, item 16).
        (
            ["--set", "contentSize=100,100"],
            "--set contentSize: a list sizes its content from its rows; it cannot be set"
        ),
        (["--set", "contentInset=1e16,0,0,0"], "--set contentInset: expected a number ≤ 1000000000.0, got 1e+16"),
        (["--set", "contentOffset=1e308,1e308"], "--set contentOffset: expected a number ≤ 1000000000.0, got 1e+308"),
        (
            ["--scene", "zoom", "--set", "maximumZoomScale=1e300", "--set", "zoomScale=1e300"],
            "--set maximumZoomScale: expected a number ≤ 1000.0, got 1e+300"
        ),
        (
            ["--scene", "zoom", "--set", "minimumZoomScale=10", "--set", "maximumZoomScale=1"],
            "--set maximumZoomScale: minimumZoomScale (10.0) is greater than maximumZoomScale (1.0)"
        ),
        // Failed at the window's allocation before, naming neither option.
        (
            ["--size", "16384x16384", "--scale", "2"],
            "--size: 16384x16384 at --scale 2 is 32768 device pixels a side, more than a canvas holds (32767)"
        ),
        (["--refresh", "1e-13"], "--refresh: expected a rate from 1 to 1000 Hz, got 1e-13"),
        (["--refresh", "0.001"], "--refresh: expected a rate from 1 to 1000 Hz, got 0.001"),
        (["--refresh", "-1"], "--refresh: expected a rate from 1 to 1000 Hz, got -1.0"),
        (["--settle", "-1"], "--settle: expected milliseconds from 0 to 3600000, got -1.0"),
        (["--size", "-5x10"], "The value '-5x10' is invalid for '--size <size>'"),
        (["--trace", "/nonexistent-dir/t.jsonl"], "--trace '/nonexistent-dir/t.jsonl': cannot create a file there"),
        (
            ["--screenshots", "/proc/scrollway-none/shots"],
            "--screenshots '/proc/scrollway-none/shots': cannot create the directory '/proc/scrollway-none' (No such file or directory)"
        ),
        // Found only after the run before (its screenshot written), against the docs' word.
        (["--trace", ""], "--trace '': an empty path names no file"),
        // Ignored under weston before, silently.
        (["--platform", "weston", "--scale", "2"], "--scale: offscreen only; weston's headless output is at scale 1"),
        (
            ["--platform", "weston", "--refresh", "30"],
            "--refresh: the offscreen clock's rate; under --platform weston the compositor paces frames"
        ),
    ])
    func badOptionsAndSettingsAreRefusedBeforeAnythingRuns(args: [String], message: String) async throws {
        let s = try script(Self.tap + #"{"t": 60, "type": "screenshot", "name": "never"}"# + "\n", "tap-shot.jsonl")
        let shots = CommandRunner.temp("never-\(message.hashValue)")
        let r = try await CommandRunner.run(["play", s, "--screenshots", shots.path] + args)
        expectError(r, message)
        // Nothing ran: no picture, no directory for it.
        #expect(!FileManager.default.fileExists(atPath: shots.path))
    }

    /// A `window.resize` the canvas cannot hold at the run's scale is refused with its line and
    /// field before anything runs: it had failed when played, with the canvas's allocation error
    /// and no line, the screenshot taken before it left written.
    @Test func aResizeTooLargeForTheScaleIsRefusedBeforeAnythingRuns() async throws {
        let s = try script(
            Self.tap + #"{"t": 60, "type": "screenshot", "name": "before"}"# + "\n"
                + #"{"t": 70, "type": "window.resize", "width": 100, "height": 16384}"# + "\n",
            "resize-too-large.jsonl")
        let shots = CommandRunner.temp("resize-too-large-shots")
        try? FileManager.default.removeItem(at: shots)
        let r = try await CommandRunner.run(["play", s, "--scale", "2", "--screenshots", shots.path])
        expectError(
            r,
            "\(s):6: field 'height': a window 16384 px high is 32768 device pixels at scale 2, more than a canvas "
                + "holds (32767) (--scale)")
        #expect(!FileManager.default.fileExists(atPath: shots.path))
        // At scale 1 it fits, and plays.
        let fits = try await CommandRunner.run(["play", s, "--screenshots", shots.path])
        #expect(fits.status == 0, "\(fits.err)")
        try? FileManager.default.removeItem(at: shots)
    }

    /// An output that is the input is refused before it is touched: a trace written over the
    /// script being played, a plot over the trace it reads (both had run, leaving the input
    /// replaced).
    @Test func anOutputThatIsTheInputIsRefusedAndTheInputKept() async throws {
        let s = try script(Self.tap, "self-trace.jsonl")
        let played = try await CommandRunner.run(["play", s, "--trace", s])
        expectError(played, "--trace '\(s)': is the script being played (the trace would overwrite it)")
        #expect(try String(contentsOfFile: s, encoding: .utf8) == Self.tap)
        let trace = CommandRunner.temp("self-plot.jsonl")
        #expect(try await CommandRunner.run(["play", s, "--trace", trace.path]).status == 0)
        let before = try Data(contentsOf: trace)
        let plotted = try await CommandRunner.run(["plot", trace.path, "-o", trace.path])
        expectError(plotted, "--output '\(trace.path)': is the trace being plotted (the picture would overwrite it)")
        #expect(try Data(contentsOf: trace) == before)
    }

    /// `screenshot -o -`: standard output is the PNG alone (the "wrote" line went after it),
    /// and the size said is the picture's own (a fractional size rounds up: it said 100×100
    /// of a 101×101 picture).
    @Test func aScreenshotToStandardOutputIsThePictureAloneAndItsSizeIsTrue() async throws {
        // Through the shell, so that standard output's bytes reach a file untouched.
        let piped = CommandRunner.temp("stdout.png")
        let r = try await CommandRunner.run(
            executable: URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", #""$0" screenshot --scene bounds --size 100.5x100.5 -o - > "$1""#,
                try CommandRunner.scrollway().path, piped.path,
            ])
        #expect(r.status == 0, "\(r.err)")
        let bytes = [UInt8](try Data(contentsOf: piped))
        // The file ends with the PNG's IEND chunk (its name and CRC), nothing after it.
        #expect(bytes.suffix(8).elementsEqual([0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]), "\(bytes.suffix(40))")
        #expect(r.err.contains("wrote (standard output) (101×101 px)"), "\(r.err)")
        let fromPipe = try PNG.decode(bytes)
        #expect(fromPipe.width == 101 && fromPipe.height == 101)
        let file = CommandRunner.temp("fractional.png")
        let w = try await CommandRunner.run([
            "screenshot", "--scene", "bounds", "--size", "100.5x100.5", "-o", file.path,
        ])
        #expect(w.out == "wrote \(file.path) (101×101 px)\n")
        let picture = try PNG.decode([UInt8](Data(contentsOf: file)))
        #expect(picture.width == 101 && picture.height == 101)
    }

    /// Options that do not apply are refused, not ignored: the headless tour's scene, the soak's
    /// length without the soak; and a misspelt setting is named whether or not a compositor runs.
    @Test func optionsThatDoNotApplyAreRefused() async throws {
        expectError(
            try await CommandRunner.run(["demo", "--headless", "--scene", "zoom"]),
            "--headless plays the built-in tour, which visits the scenes itself; --scene")
        expectError(try await CommandRunner.run(["bench", "--quick", "--minutes", "5"]), "--minutes goes with --soak")
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = nil
        environment["WAYLAND_SOCKET"] = nil
        environment["XDG_RUNTIME_DIR"] = CommandRunner.temp("no-runtime").path
        let r = try await CommandRunner.run(["demo", "--set", "nosuch=1"], environment: environment)
        expectError(r, "--set nosuch")
        #expect(!r.err.contains("no Wayland compositor is running"), "\(r.err)")
    }

    /// A `WAYLAND_SOCKET` that cannot be a compositor's connection is named, with why: it had
    /// failed as a connection to 'wayland-0' (the variable that was wrong not named), or, a
    /// file's descriptor, as "the Wayland connection was lost: Socket operation on non-socket".
    @Test func aBadWaylandSocketIsNamed() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = nil
        for (value, why) in [
            ("abc", "not a file descriptor's number"), ("-1", "not a file descriptor's number"),
            ("987", "no descriptor 987 is open in this process (Bad file descriptor)"),
            // Standard input: the runner's /dev/null.
            ("0", "descriptor 0 is not a socket"),
        ] {
            environment["WAYLAND_SOCKET"] = value
            let r = try await CommandRunner.run(["demo"], environment: environment)
            #expect(r.status == 1)
            #expect(r.err == "Error: no Wayland compositor: WAYLAND_SOCKET=\"\(value)\": \(why)\n", "\(r.err)")
        }
    }

    /// A rig's app and seat connect to the rig's own socket whatever `WAYLAND_SOCKET` the
    /// command inherited: libwayland takes that variable before any socket it is named, so a
    /// bad one failed `play --platform weston` naming the rig's socket ("lost the connection to
    /// the compositor: Success"), and a good one went to another compositor.
    @Test func aRigsConnectionsIgnoreAnInheritedWaylandSocket() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_SOCKET"] = "abc"
        let r = try await CommandRunner.run(
            ["play", try script(Self.tap, "socket-tap.jsonl"), "--platform", "weston", "--tolerate-stalls"],
            environment: environment)
        #expect(r.status == 0, "\(r.err)")
    }

    /// A demo stopped while its compositor has not answered yet (a socket that takes the
    /// connection and says nothing) ends by the signal and leaves no partial recording: its
    /// handlers came only once the window was up, and the signal's default left
    /// `.NAME.PID.partial` beside the recording's destination.
    @Test func aDemoStoppedBeforeItsCompositorAnswersLeavesNoPartialRecording() throws {
        let dir = CommandRunner.temp("silent-compositor")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let socketPath = dir.appendingPathComponent("wayland-silent").path
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        try #require(socketPath.utf8.count < MemoryLayout.size(ofValue: address.sun_path), "\(socketPath): too long")
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in socketPath.utf8.enumerated() { raw[i] = b }
        }
        let listener = socket(AF_UNIX, Int32(bitPattern: SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        try #require(listener >= 0)
        defer { close(listener) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0 && listen(listener, 4) == 0)
        let record = dir.appendingPathComponent("rec.jsonl")
        let p = Process()
        p.executableURL = try CommandRunner.scrollway()
        p.arguments = ["demo", "--record", record.path]
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = socketPath
        environment["WAYLAND_SOCKET"] = nil
        p.environment = environment
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        // Connected (accepted here) with its partial file made: it waits for the answer.
        let partial = dir.appendingPathComponent(".rec.jsonl.\(p.processIdentifier).partial").path
        var pollIn = pollfd(fd: listener, events: Int16(truncatingIfNeeded: POLLIN), revents: 0)
        try #require(poll(&pollIn, 1, 60_000) == 1, "the demo never connected")
        let client = accept(listener, nil, nil)
        defer { close(client) }
        #expect(FileManager.default.fileExists(atPath: partial))
        kill(p.processIdentifier, SIGTERM)
        try eventually("the demo to end on SIGTERM", timeout: 30) { !p.isRunning }
        #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGTERM)
        #expect(!FileManager.default.fileExists(atPath: partial), "\(partial) left")
        #expect(!FileManager.default.fileExists(atPath: record.path))
    }

    /// A screenshot's name with invisible characters (a right-to-left override, a line
    /// separator) is announced escaped, as messages show script text.
    @Test func aScreenshotNameWithInvisibleCharactersIsShownEscaped() async throws {
        let s = try script(
            Self.tap + #"{"t": 60, "type": "screenshot", "name": "x\u202ey\u2028z"}"# + "\n", "bidi-shot.jsonl")
        let shots = CommandRunner.temp("bidi-shots")
        let r = try await CommandRunner.run(["play", s, "--screenshots", shots.path])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("screenshot \(shots.path)/x\\u{202e}y\\u{2028}z.png"), "\(r.err)")
        #expect(!r.err.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x2028 })
    }

    /// A negative offset is a value (it was read as a missing one: `--offset -10,-10`).
    @Test func aScreenshotTakesANegativeOffset() async throws {
        let out = CommandRunner.temp("negative.png")
        let r = try await CommandRunner.run([
            "screenshot", "--scene", "list", "--offset", "0,-40", "--size", "200x100", "--output", out.path,
        ])
        #expect(r.status == 0, "\(r.err)")
        let shifted = try PNG.decode([UInt8](Data(contentsOf: out)))
        let plain = CommandRunner.temp("plain.png")
        #expect(
            try await CommandRunner.run([
                "screenshot", "--scene", "list", "--size", "200x100", "--output", plain.path,
            ]).status == 0)
        let top = try PNG.decode([UInt8](Data(contentsOf: plain)))
        // Pulled 40 px down: the plain picture's top row is the shifted one's row 40.
        #expect((0..<200).allSatisfy { shifted.pixel(x: $0, y: 40) == top.pixel(x: $0, y: 0) })
    }

    @Test func aScreenshotOffsetBeyondABillionPixelsIsRefused() async throws {
        let out = CommandRunner.temp("far.png")
        let r = try await CommandRunner.run([
            "screenshot", "--scene", "paging", "--offset", "1e22,0", "--output", out.path,
        ])
        expectError(r, "The value '1e22,0' is invalid for '--offset")
    }

    @Test(arguments: [
        ("/", "/: is a directory, not a script file"),
        ("/dev/null", "/dev/null: is a device, not a script file"),
        ("/nonexistent/s.jsonl", "/nonexistent/s.jsonl: no such file"),
    ])
    func whatIsNotAScriptIsNamed(path: String, message: String) async throws {
        expectError(try await CommandRunner.run(["play", path]), message)
    }

    /// "rests at" only when it rests (issue 36, item 9: a 5,000 px/s fling was said to rest at
    /// 2778.37 when the settle ended while it was still decelerating; it rests at 2807).
    @Test func aViewStillMovingWhenTheSettleEndsIsNotSaidToRest() async throws {
        var lines = [
            #"{"t": 0, "type": "touch.down", "id": 0, "x": 200, "y": 700}"#, #"{"t": 0, "type": "touch.frame"}"#,
        ]
        for (i, y) in [620, 540, 460, 380].enumerated() {
            let t = 16 * (i + 1)
            lines += [
                #"{"t": \#(t), "type": "touch.motion", "id": 0, "x": 200, "y": \#(y)}"#,
                #"{"t": \#(t), "type": "touch.frame"}"#,
            ]
        }
        lines += [#"{"t": 64, "type": "touch.up", "id": 0}"#, #"{"t": 64, "type": "touch.frame"}"#]
        let s = try script(lines.joined(separator: "\n") + "\n", "fling-5000.jsonl")
        let short = try await CommandRunner.run(["play", s])
        #expect(short.status == 0, "\(short.err)")
        #expect(!short.err.contains("main rests at"), "\(short.err)")
        #expect(short.err.contains("main is still decelerating at contentOffset (0.0, "), "\(short.err)")
        #expect(short.err.contains("when --settle's 2000 ms end: a longer --settle shows where it comes to rest"))
        let long = try await CommandRunner.run(["play", s, "--settle", "10000"])
        #expect(long.err.contains("main rests at contentOffset (0.0, 2807.0), zoomScale 1.0"), "\(long.err)")
    }

    /// A symbolic link to a script plays as the script does (issue 36, item 7: "is not a
    /// regular file").
    @Test func aSymbolicLinkToAScriptPlays() async throws {
        let s = try script(Self.tap, "linked-tap.jsonl")
        let link = CommandRunner.temp("link-to-tap.jsonl").path
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: s)
        let r = try await CommandRunner.run(["play", link])
        #expect(r.status == 0, "\(r.err)")
    }

    /// `--frame-stats` is the live demo's, like `--trace`: with `--headless` it is refused up
    /// front (issue 36, item 14: the tour ran, exited 0 and never wrote the file).
    @Test func theHeadlessTourRefusesFrameStats() async throws {
        let stats = CommandRunner.temp("tour-stats.jsonl")
        try? FileManager.default.removeItem(at: stats)
        let r = try await CommandRunner.run(["demo", "--headless", "--frame-stats", stats.path])
        expectError(r, "--frame-stats")
        #expect(!FileManager.default.fileExists(atPath: stats.path))
    }

    /// Output paths are written as a shell's `>` writes them: through a symbolic link to its
    /// target, leaving the link. A file made beside a path and renamed over it replaced the link
    /// itself (`demo --frame-stats /dev/stderr`, run as root, left /dev/stderr an empty file);
    /// `play --trace`, the demo's `--frame-stats` and `--trace`, and every picture each did.
    @Test func outputThroughASymbolicLinkReachesItsTarget() async throws {
        let dir = CommandRunner.temp("links")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        func link(_ name: String) throws -> (link: String, target: String) {
            let target = dir.appendingPathComponent("\(name)-target").path
            let link = dir.appendingPathComponent(name).path
            #expect(FileManager.default.createFile(atPath: target, contents: Data("old\n".utf8)))
            // Relative, as `ln -s` makes them.
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "\(name)-target")
            return (link, target)
        }
        func isLink(_ path: String) -> Bool {
            var st = stat()
            return lstat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK
        }
        let trace = try link("trace")
        let s = try script(Self.tap, "tap-through-link.jsonl")
        let r = try await CommandRunner.run(["play", s, "--scene", "list", "--size", "390x600", "--trace", trace.link])
        #expect(r.status == 0, "\(r.err)")
        #expect(isLink(trace.link), "the link is still a link")
        let text = try String(contentsOfFile: trace.target, encoding: .utf8)
        #expect(text.hasPrefix("{\"t\": 0, \"frame\": 0"), "\(text.prefix(40))")
        // The live demo opens its files before it looks for a compositor: none here.
        let stats = try link("stats")
        let demoTrace = try link("demo-trace")
        let d = try await CommandRunner.run(
            ["demo", "--frame-stats", stats.link, "--trace", demoTrace.link],
            environment: ["WAYLAND_DISPLAY": "scrollway-no-such-display", "XDG_RUNTIME_DIR": dir.path])
        #expect(d.status != 0)
        for f in [stats, demoTrace] {
            #expect(isLink(f.link), "\(f.link) is still a link")
            // Emptied in place, as the help says.
            #expect(FileManager.default.contents(atPath: f.target) == Data(), "\(f.target)")
        }
        // A picture, written beside its destination and renamed over it, is renamed over the
        // target: it had replaced the link.
        let picture = try link("picture.png")
        let p = try await CommandRunner.run(["screenshot", "--scene", "list", "--size", "120x90", "-o", picture.link])
        #expect(p.status == 0, "\(p.err)")
        #expect(isLink(picture.link), "the picture's link is still a link")
        let png = try PNG.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: picture.target))))
        #expect(png.width == 120 && png.height == 90)
        // A file that cannot be written says why.
        let e = try await CommandRunner.run(
            ["demo", "--frame-stats", dir.appendingPathComponent("none/stats").path],
            environment: ["WAYLAND_DISPLAY": "scrollway-no-such-display", "XDG_RUNTIME_DIR": dir.path])
        expectError(e, "--frame-stats '\(dir.path)/none/stats': cannot write it (No such file or directory)")
    }

    /// What a rig's us keymap cannot type (a keysym no key produces, a character it has no key
    /// for) is refused with the rest of the script, naming the file, line and field, before the
    /// compositor starts: found as it played, it stopped the run after the screenshot before it.
    /// Offscreen plays both.
    @Test func whatTheRigsKeymapCannotTypeIsRefusedBeforeItStarts() async throws {
        let s = try script(
            Self.tap + #"{"t": 200, "type": "screenshot", "name": "before"}"# + "\n"
                + #"{"t": 300, "type": "key", "key": "eacute", "state": "pressed"}"# + "\n"
                + #"{"t": 320, "type": "key", "key": "eacute", "state": "released"}"# + "\n"
                + #"{"t": 400, "type": "text", "text": "a\u65e5"}"# + "\n", "untypable.jsonl")
        let shots = CommandRunner.temp("untypable-shots")
        try? FileManager.default.removeItem(at: shots)
        let w = try await CommandRunner.run(["play", s, "--platform", "weston", "--screenshots", shots.path])
        expectError(
            w,
            "\(s):6: field 'key': no key of the us keymap produces 'eacute' (a rig types through its seat's us keymap")
        #expect(!w.err.contains("screenshot"), "\(w.err)")
        #expect(!FileManager.default.fileExists(atPath: shots.path))
        let textOnly = try script(
            Self.tap + #"{"t": 400, "type": "text", "text": "a\u65e5"}"# + "\n", "untypable-text.jsonl")
        let r = try await CommandRunner.run(["rig", "--script", textOnly])
        expectError(r, "\(textOnly):5: field 'text': the us keymap cannot type '日'")
        #expect(!r.out.contains("WAYLAND_DISPLAY"), "the compositor started: \(r.out)")
        let off = try await CommandRunner.run(["play", s, "--screenshots", shots.path])
        #expect(off.status == 0, "\(off.err)")
    }

    /// Options that would be taken silently where they mean nothing are refused: a stall
    /// tolerated offscreen (a virtual clock never stalls), a window of part of a logical pixel in
    /// weston (a compositor sizes windows in whole ones).
    @Test func optionsThatWouldMeanNothingAreRefused() async throws {
        let s = try script(Self.tap, "meaningless-options.jsonl")
        let stalls = try await CommandRunner.run(["play", s, "--tolerate-stalls"])
        #expect(stalls.status == 64)
        #expect(stalls.err.contains("--tolerate-stalls: under --platform weston only"), "\(stalls.err)")
        let size = try await CommandRunner.run(["play", s, "--platform", "weston", "--size", "100.5x100"])
        #expect(size.status == 64)
        #expect(
            size.err.contains("--size: a compositor sizes windows in whole logical pixels, got 100.5x100"),
            "\(size.err)")
        // Offscreen, a part of a pixel is a whole device pixel at scale 2.
        let off = try await CommandRunner.run(["play", s, "--size", "100.5x100", "--scale", "2"])
        #expect(off.status == 0, "\(off.err)")
    }

    /// A picture as large as a canvas may be, with too little memory to encode it, is an error
    /// that says so: the encoder's copies were Swift arrays, whose failed allocation trapped
    /// (the canvas itself was checked). Run under a 1.5 GB address-space limit: the 16384²
    /// canvas (1 GiB) fits, its straight copy for the PNG does not.
    @Test func aPictureTooLargeForMemoryIsAnErrorNotATrap() async throws {
        let out = CommandRunner.temp("too-large.png")
        try? FileManager.default.removeItem(at: out)
        let command =
            "ulimit -v 1500000; exec '\(try CommandRunner.scrollway().path)' screenshot --scene bounds "
            + "--size 16384x16384 -o '\(out.path)'"
        let r = try await CommandRunner.run(executable: URL(fileURLWithPath: "/bin/sh"), ["-c", command])
        expectError(r, "not enough memory to encode a 16384×16384 pixel picture as a PNG")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func aNamedPipeIsNamedNotHungOn() async throws {
        let path = CommandRunner.temp("pipe.jsonl").path
        #expect(mkfifo(path, 0o600) == 0)
        expectError(try await CommandRunner.run(["play", path]), "\(path): is a pipe, not a regular file")
    }

    @Test(arguments: [
        (#"{"t": 0, "type": "touch.frame",}"#, ":1: malformed JSON at column 32: a trailing comma before '}'"),
        (
            #"{"t": 0, "t": 1, "type": "touch.frame"}"#,
            ":1: field 't': malformed JSON at column 10: the key \"t\" appears twice"
        ),
        (
            #"{"t": 01, "type": "touch.frame"}"#,
            ":1: field 't': malformed JSON at column 7: a number with a leading zero"
        ),
        (
            #"{"t": 0, "type": "text", "text": "\ud800"}"#,
            ":1: field 'text': malformed JSON at column 35: a lone UTF-16 surrogate"
        ),
        (#"{"t": 1e9, "type": "touch.frame"}"#, ":1: field 't': expected a number ≤ 86400000 ms (24 hours)"),
        (
            #"{"t": 0, "type": "screenshot", "name": "a"}"# + "\n" + #"{"t": 1, "type": "screenshot", "name": "a"}"#,
            ":2: field 'name': the screenshot name \"a\" is already used on line 1"
        ),
    ])
    func strictScriptsSayWhatAndWhere(text: String, message: String) async throws {
        let s = try script(text, "strict-\(abs(text.hashValue)).jsonl")
        expectError(try await CommandRunner.run(["play", s]), s + message)
    }

    @Test func scriptTextInMessagesIsEscaped() async throws {
        let s = try script(#"{"t": 0, "type": "\u001b[2J\u001b]0;owned\u0007"}"#, "escape.jsonl")
        let r = try await CommandRunner.run(["play", s])
        expectError(r, #"field 'type': unknown event type "\u{1b}[2J\u{1b}]0;owned\u{7}""#)
        #expect(!r.err.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test func crlfScriptsPlayLikeLF() async throws {
        let lf = try script(Self.tap, "lf.jsonl")
        let crlf = try script(Self.tap.replacingOccurrences(of: "\n", with: "\r\n"), "crlf.jsonl")
        let a = try await CommandRunner.run(["play", lf, "--trace", "-"])
        let b = try await CommandRunner.run(["play", crlf, "--trace", "-"])
        #expect(a.status == 0 && b.status == 0, "\(b.err)")
        #expect(a.out == b.out && a.out.contains("\"frame\""))
    }

    @Test(arguments: [
        ("", "warning: EMPTY: the script has no events"),
        (
            #"{"t": 0, "type": "touch.down", "id": 3, "x": 10, "y": 10}"#,
            "warning: EMPTY: finger 3 is still down at the end (touch.down on line 1, no touch.up)"
        ),
        (
            #"{"t": 0, "type": "pinch.begin"}"#,
            "warning: EMPTY: a pinch is still open at the end (pinch.begin on line 1"
        ),
        (
            #"{"t": 0, "type": "key", "key": "Shift_L", "state": "pressed"}"#,
            "warning: EMPTY: key 'Shift_L' is still held at the end (pressed on line 1)"
        ),
    ])
    func whatAScriptLeavesOpenIsAWarning(text: String, warning: String) async throws {
        let s = try script(text, "open-\(abs(text.hashValue)).jsonl")
        let r = try await CommandRunner.run(["play", s])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains(warning.replacingOccurrences(of: "EMPTY", with: s)), "\(r.err)")
    }

    /// Interrupted with SIGTERM, SIGINT or SIGHUP (a closed terminal) mid-run, `play` leaves
    /// neither its partial trace nor the screenshot folder it made while still empty (both
    /// stayed), and ends by the signal.
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func anInterruptedPlayLeavesNoPartialTraceOrEmptyFolder(signo: Int32) throws {
        // A run under nohup ignores SIGHUP, as the play it starts then does (on purpose).
        var hangup = sigaction()
        if signo == SIGHUP && sigaction(SIGHUP, nil, &hangup) == 0
            && unsafeBitCast(hangup.__sigaction_handler, to: Int.self) == 1
        {
            return
        }
        // A long drag: a frame for every move, so the run is busy long after the signal.
        var lines = [#"{"t": 0, "type": "touch.down", "id": 0, "x": 100, "y": 400}"#]
        for i in 1...30_000 {
            lines.append(#"{"t": \#(i * 16), "type": "touch.motion", "id": 0, "x": 100, "y": \#(400 - i % 200)}"#)
        }
        lines.append(#"{"t": 480016, "type": "touch.up", "id": 0}"#)
        lines.append(#"{"t": 480100, "type": "screenshot", "name": "end"}"#)
        let s = try script(lines.joined(separator: "\n") + "\n", "long-drag-\(signo).jsonl")
        let folder = CommandRunner.temp("interrupted-\(signo)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let trace = folder.appendingPathComponent("trace.jsonl")
        let shots = folder.appendingPathComponent("made/shots")
        let p = Process()
        p.executableURL = try CommandRunner.scrollway()
        p.arguments = ["play", s, "--trace", trace.path, "--screenshots", shots.path]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.runWithSignalsUnblocked()
        // Under way (its handlers registered, its frames running) once its partial trace holds
        // its first chunk of lines.
        func partials() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".partial") }
        }
        func started() throws -> Bool {
            guard let partial = try partials().first else { return false }
            let size =
                try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(partial).path)[
                    .size] as? Int
            return (size ?? 0) > 0
        }
        try eventually("the play to write its first lines", timeout: 60) { try started() || !p.isRunning }
        #expect(try started() && p.isRunning)
        kill(p.processIdentifier, signo)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == signo)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    /// A script whose last event is most of a day away plays to its end at once (quiet time is
    /// crossed in one step), and its trace streams to the file it was asked for.
    @Test func aDayLongScriptPlaysAndItsTraceStreams() async throws {
        let s = try script(
            Self.tap + #"{"t": 86000000, "type": "touch.down", "id": 0, "x": 100, "y": 400}"# + "\n"
                + #"{"t": 86000040, "type": "touch.motion", "id": 0, "x": 100, "y": 100}"# + "\n"
                + #"{"t": 86000050, "type": "touch.up", "id": 0}"# + "\n", "day.jsonl")
        // A folder of its own: other tests run commands beside this one, and their traces'
        // temporary files come and go in the shared one.
        let folder = CommandRunner.temp("day-trace")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("day-trace.jsonl")
        let r = try await CommandRunner.run(["play", s, "--trace", file.path])
        #expect(r.status == 0, "\(r.err)")
        let streamed = try String(contentsOf: file, encoding: .utf8)
        let stdout = try await CommandRunner.run(["play", s, "--trace", "-"])
        #expect(streamed == stdout.out)
        let lateDrag = streamed.split(separator: "\n").filter {
            $0.hasPrefix(#"{"t": 86000"#) && $0.contains("scrollViewWillBeginDragging")
        }
        #expect(lateDrag.count == 1, "\(streamed.suffix(400))")
        // The temporary file beside it became the trace and is gone.
        let litter = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(!litter.contains { $0.hasSuffix(".partial") })
    }
}
