import Foundation
import ScrollwayTestSupport
import Testing

/// Standard streams that fail (issue 36, item 5): a full device, a reader that went away. The
/// command's results cannot be written, so it exits 1 and says why on standard error; a
/// message that cannot be written is lost and the run goes on. Never a signal: before, these
/// trapped in Foundation's `FileHandle.write` or ended with SIGPIPE.
@Suite(.serialized) struct FailingStreamTests {
    /// Runs `scrollway args…` with standard output and error on `stdout` and `stderr` (nil: a
    /// pipe that is read and returned).
    /// With `limits` (shell commands such as `ulimit -n 8`), it runs under them, through sh.
    func run(
        _ args: [String], stdout: FileHandle? = nil, stderr: FileHandle? = nil, closeReaderFirst: Bool = false,
        limits: String? = nil
    ) throws -> (reason: Process.TerminationReason, status: Int32, err: String) {
        let p = Process()
        if let limits {
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", "\(limits); exec \"$0\" \"$@\"", try CommandRunner.scrollway().path] + args
        } else {
            p.executableURL = try CommandRunner.scrollway()
            p.arguments = args
        }
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = stdout ?? out
        p.standardError = stderr ?? err
        p.standardInput = FileHandle.nullDevice
        if closeReaderFirst { try out.fileHandleForReading.close() }
        try p.run()
        let message =
            stderr == nil ? String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) : ""
        if stdout == nil, !closeReaderFirst { _ = out.fileHandleForReading.readDataToEndOfFile() }
        p.waitUntilExit()
        return (p.terminationReason, p.terminationStatus, message)
    }

    var full: FileHandle {
        get throws { try #require(FileHandle(forWritingAtPath: "/dev/full"), "no /dev/full here") }
    }

    @Test func resultsThatCannotBeWrittenAreAnErrorNotATrap() throws {
        for args in [["scenes"], ["screenshot", "--scene", "list", "--output", CommandRunner.temp("f.png").path]] {
            let r = try run(args, stdout: try full)
            #expect(r.reason == .exit && r.status == 1, "\(args): \(r)")
            #expect(r.err.contains("cannot write standard output: No space left on device"), "\(args): \(r.err)")
        }
    }

    @Test func aReaderThatWentAwayIsAnErrorNotASignal() throws {
        let trace = CommandRunner.temp("stream-trace.jsonl")
        try (#"{"t": 0, "frame": 1, "view": "main", "contentOffset": {"x": 0, "y": 0}, "phase": "idle"}"# + "\n")
            .write(to: trace, atomically: true, encoding: .utf8)
        let r = try run(["plot", trace.path, "-o", "-"], closeReaderFirst: true)
        #expect(r.reason == .exit && r.status == 1, "\(r)")
        #expect(r.err.contains("cannot write standard output: Broken pipe"), "\(r.err)")
    }

    /// A screenshot that does not fit (the file size limit standing in for a full disk) is an
    /// error naming it, and no truncated picture is left under its name (issue 36, item 15).
    @Test func aScreenshotThatDoesNotFitLeavesNoTruncatedPicture() throws {
        let script = CommandRunner.temp("fit-tap.jsonl")
        try """
        {"t": 0, "type": "touch.frame"}
        {"t": 60, "type": "screenshot", "name": "too-big"}

        """.write(to: script, atomically: true, encoding: .utf8)
        let shots = CommandRunner.temp("fit-shots")
        try? FileManager.default.removeItem(at: shots)
        // 8 KiB: less than any picture of the list (about 40 KB).
        let r = try run(["play", script.path, "--screenshots", shots.path], limits: "ulimit -f 8")
        let message = r.err
        #expect(r.reason == .exit && r.status == 1, "\(r.status): \(message)")
        #expect(message.contains("too-big.png': cannot write"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: shots.appendingPathComponent("too-big.png").path))
    }

    /// A view's name from a trace is printed escaped: an escape sequence in it never reaches
    /// the terminal raw (issue 36, item 8).
    @Test func plotPrintsViewNamesEscaped() throws {
        let trace = CommandRunner.temp("escape-trace.jsonl")
        try
            (#"{"t": 0, "frame": 1, "view": "m\u001b]0;owned\u0007", "contentOffset": {"x": 0, "y": 0}, "phase": "idle"}"#
            + "\n").write(to: trace, atomically: true, encoding: .utf8)
        let r = try run(["plot", trace.path, "-o", CommandRunner.temp("escape.png").path])
        #expect(r.reason == .exit && r.status == 0, "\(r)")
        #expect(r.err.contains(#"m\u{1b}]0;owned\u{7}"#), "\(r.err)")
        #expect(!r.err.contains("\u{1b}") && !r.err.contains("\u{7}"), "raw control characters reached standard error")
    }

    /// `screenshot --output` names what is wrong with the destination, before drawing
    /// (issue 36, item 16: "NSCocoaErrorDomain error 512").
    @Test(arguments: [
        ("/tmp", "--output '/tmp': is a directory"),
        ("/etc/passwd/x.png", "--output '/etc/passwd/x.png': '/etc/passwd' is a file, not a directory"),
        ("/nonexistent/x.png", "--output '/nonexistent/x.png': the directory '/nonexistent' does not exist"),
    ])
    func aScreenshotsDestinationIsNamedWhenItCannotBe(output: String, message: String) throws {
        let r = try run(["screenshot", "--scene", "list", "--output", output])
        #expect(r.reason == .exit && r.status == 1, "\(r)")
        #expect(r.err.contains(message), "\(r.err)")
        #expect(!r.err.contains("NSCocoaErrorDomain"))
    }

    /// The tour's `--output` is checked before the tour plays (issue 36, item 16: a raw NSError
    /// after it).
    @Test func theToursOutputIsCheckedFirst() throws {
        let r = try run(["demo", "--headless", "--output", "/etc/passwd/tour"])
        #expect(r.reason == .exit && r.status == 1, "\(r)")
        #expect(r.err.contains("--output '/etc/passwd/tour': cannot create the directory"), "\(r.err)")
        #expect(!r.err.contains("NSCocoaErrorDomain") && !r.err.contains("playing the tour"), "\(r.err)")
    }

    /// Under a tiny open-file limit a rig says so and exits 1 (issue 36, item 6: `rig` and
    /// `demo --headless` trapped inside Foundation's Process under `ulimit -n 8`; under 16 the
    /// rig said "NSCocoaErrorDomain error 512"). A low soft limit under a higher hard one is
    /// raised and the rig runs.
    @Test(arguments: [
        ("ulimit -n 8", ["rig"], false),
        ("ulimit -n 16", ["demo", "--headless", "--output", "/tmp/scrollway-nofile"], false),
        ("ulimit -S -n 16", ["rig", "--settle", "0"], true),
    ])
    func aTinyOpenFileLimitIsNamedNotTrappedOn(limit: String, args: [String], runs: Bool) throws {
        let r = try run(args, limits: limit)
        let message = r.err
        #expect(r.reason == .exit, "\(limit) \(args): a signal; \(message)")
        if runs {
            #expect(r.status == 0, "\(message)")
        } else {
            #expect(r.status == 1, "\(message)")
            #expect(message.contains("(ulimit -n): a compositor rig needs at least 256"), "\(message)")
        }
    }

    /// Under fewer open files than libdispatch needs beside a command's own, every command
    /// says so and exits 1 before any thread starts: commands had died of SIGILL inside
    /// libdispatch's start (docs/decisions.md, Hostile input 0.15.35). A soft limit that low
    /// under a higher hard one is raised and the command runs.
    @Test(arguments: [
        ("ulimit -n 5", ["--version"], false), ("ulimit -n 7", ["scenes"], false),
        ("ulimit -S -n 5", ["scenes"], true),
    ])
    func fewerOpenFilesThanDispatchNeedsAreNamed(limit: String, args: [String], runs: Bool) throws {
        let r = try run(args, limits: limit)
        #expect(r.reason == .exit, "\(limit) \(args): a signal; \(r.err)")
        if runs {
            #expect(r.status == 0, "\(r.err)")
        } else {
            let n = limit.split(separator: " ").last ?? ""
            #expect(r.status == 1)
            #expect(r.err == "scrollway: the limit on open files is \(n) (ulimit -n): Scrollway needs at least 8\n")
        }
    }

    /// Every command, each in a form that runs without a display: the offscreen ones, those
    /// that start weston, and the headless tour.
    func everyCommand(_ tag: String) throws -> [[String]] {
        let script = try CommandRunner.tapScript("\(tag)-tap.jsonl", screenshot: "limited")
        let trace = CommandRunner.temp("\(tag)-trace.jsonl")
        try (#"{"t": 0, "frame": 1, "view": "main", "contentOffset": {"x": 0, "y": 0}, "phase": "idle"}"# + "\n")
            .write(to: trace, atomically: true, encoding: .utf8)
        return [
            ["scenes"],
            ["screenshot", "--scene", "zoom", "--output", CommandRunner.temp("\(tag).png").path],
            ["play", script.path, "--screenshots", CommandRunner.temp("\(tag)-shots").path],
            ["plot", trace.path, "-o", CommandRunner.temp("\(tag)-plot.png").path],
            ["play", script.path, "--platform", "weston", "--screenshots", CommandRunner.temp("\(tag)-wshots").path],
            ["rig", "--settle", "0"],
            ["demo", "--headless", "--output", CommandRunner.temp("\(tag)-tour").path],
        ]
    }

    /// Every command under a small address-space or open-file limit runs or exits 1 saying
    /// why, never a signal (issue 36, item 6: `demo --headless` died of SIGSEGV under
    /// `ulimit -v 300M`, its threads' malloc arenas reserving 418 MB; `rig` of SIGILL under
    /// `ulimit -n 8`).
    @Test(arguments: ["ulimit -v 307200", "ulimit -n 8"])
    func everyCommandUnderATightLimitExitsWithoutASignal(limit: String) throws {
        let commands = try everyCommand("limit")
        for args in commands {
            let r = try run(args, limits: limit)
            #expect(r.reason == .exit, "\(limit) \(args): a signal; \(r.err)")
            // 300 MB of address space is room enough for every command; 8 descriptors are not
            // for a compositor, and the commands that start one say so.
            let needsCompositor = args.contains("weston") || args.first == "rig" || args.first == "demo"
            let refused = limit.hasSuffix("-n 8") && needsCompositor
            #expect(r.status == (refused ? 1 : 0), "\(limit) \(args): status \(r.status); \(r.err)")
            if refused { #expect(r.err.contains("(ulimit -n): a compositor rig needs at least 256"), "\(r.err)") }
        }
    }

    /// Every command with its standard output or error on a full device: results that cannot
    /// be written are an error saying so (exit 1), messages that cannot be written are lost and
    /// the run goes on (exit 0); never a signal.
    @Test(arguments: ["output", "error"])
    func everyCommandWithAFullStreamExitsWithoutASignal(stream: String) throws {
        // The tour writes through the same streams as the rest, and takes a minute twice over.
        for args in try everyCommand("full-\(stream)") where args.first != "demo" {
            let r = stream == "output" ? try run(args, stdout: try full) : try run(args, stderr: try full)
            #expect(r.reason == .exit, "\(stream) \(args): a signal; \(r.err)")
            // `play` and `plot` report on standard error: their standard output stays unused.
            if stream == "output", args.first == "play" || args.first == "plot" {
                #expect(r.status == 0, "\(args): \(r.err)")
            } else if stream == "output" {
                #expect(r.status == 1, "\(args): \(r.err)")
                #expect(r.err.contains("cannot write standard output: No space left on device"), "\(args): \(r.err)")
            } else {
                #expect(r.status == 0, "\(args): status \(r.status)")
            }
        }
    }

    @Test func messagesThatCannotBeWrittenAreLostAndTheRunGoesOn() throws {
        let script = try CommandRunner.tapScript("stream-tap.jsonl", screenshot: "full-stderr")
        let shots = CommandRunner.temp("full-stderr-shots")
        let r = try run(["play", script.path, "--screenshots", shots.path], stderr: try full)
        #expect(r.reason == .exit && r.status == 0, "\(r)")
        #expect(FileManager.default.fileExists(atPath: shots.appendingPathComponent("full-stderr.png").path))
    }
}
