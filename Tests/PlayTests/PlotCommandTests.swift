import Foundation
import ScrollwayRaster
import ScrollwayTestSupport
import Testing

/// `scrollway plot`, as users run it.
@Suite(.serialized) struct PlotCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized

    func file(_ text: String, _ name: String) throws -> String {
        let url = CommandRunner.temp(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func aPlayedTraceIsPlottedWithTheOptionsGiven() async throws {
        let trace = CommandRunner.temp("swipe.jsonl")
        let play = try await CommandRunner.run([
            "play", Self.repository.appendingPathComponent("docs/example-swipe.jsonl").path, "--scene", "list",
            "--size", "390x600", "--trace", trace.path, "--screenshots", CommandRunner.temp("swipe").path,
        ])
        #expect(play.status == 0, "\(play.err)")
        let png = CommandRunner.temp("swipe.png")
        let r = try await CommandRunner.run([
            "plot", trace.path, "-o", png.path, "--size", "640x480", "--view", "main", "--from", "0", "--to", "1000",
        ])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err == "plot \(png.path): 640×480 px, main, 0–1000 ms\n")
        let canvas = try PNG.decode([UInt8](Data(contentsOf: png)))
        #expect(canvas.width == 640 && canvas.height == 480)
    }

    @Test func aMalformedLineNamesTheFileTheLineAndTheFieldAndWritesNothing() async throws {
        let trace = try file(
            """
            {"t": 0, "frame": 0, "view": "main", "contentOffset": {"x": 0, "y": 0}, "phase": "idle"}
            {"t": 16, "view": "main", "delegate": "scrollViewWillBeginDragging"}
            {"t": 16.667, "frame": 1, "view": "main", "contentOffset": {"x": 0, "y": "twenty"}, "phase": "dragging"}

            """, "malformed.jsonl")
        let png = CommandRunner.temp("malformed.png")
        let r = try await CommandRunner.run(["plot", trace, "-o", png.path])
        #expect(r.status != 0)
        #expect(
            r.err.contains(
                "\(trace):3: field 'contentOffset': 'y': expected a finite number, found the string \"twenty\""),
            "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: png.path))
        // No temporary file of this picture's left behind (other tests' come and go beside it).
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: CommandRunner.temporaryRoot.path)
        #expect(!leftovers.contains { $0.hasPrefix(".malformed.png.") && $0.hasSuffix(".partial") })
    }

    @Test func anEmptyTraceSaysSo() async throws {
        let trace = try file("", "empty.jsonl")
        let r = try await CommandRunner.run(["plot", trace, "-o", CommandRunner.temp("empty.png").path])
        #expect(r.status != 0)
        #expect(r.err.contains("\(trace): the trace has no records (an empty file?"), "\(r.err)")
        // Standard input, here empty, reads the same way.
        let stdin = try await CommandRunner.run(["plot", "-", "-o", CommandRunner.temp("stdin.png").path])
        #expect(stdin.err.contains("<stdin>: the trace has no records"), "\(stdin.err)")
    }

    @Test(arguments: [
        (["--view", "notes"], "no scroll view named 'notes' in the trace (views: 'main')"),
        (["--from", "100", "--to", "50"], "--from 100 must be before --to 50"),
        (["--from", "-5"], "--from: expected milliseconds ≥ 0, got -5"),
        (["--size", "100x100"], "--size: expected whole pixels from 480x240 to 8192x8192, got 100x100"),
        // The size as typed, not rounded (issue 36, item 16: "got 480x240").
        (["--size", "480.5x240"], "--size: expected whole pixels from 480x240 to 8192x8192, got 480.5x240"),
        (["--from", "9000"], "--from 9000 is after the trace's last record (t = 16 ms)"),
    ])
    func badOptionsSayWhatWasExpected(options: [String], message: String) async throws {
        let trace = try file(
            """
            {"t": 0, "frame": 0, "view": "main", "contentOffset": {"x": 0, "y": 0}, "phase": "idle"}
            {"t": 16, "frame": 1, "view": "main", "contentOffset": {"x": 0, "y": 8}, "phase": "dragging"}
            """, "small.jsonl")
        let r = try await CommandRunner.run(["plot", trace, "-o", CommandRunner.temp("small.png").path] + options)
        #expect(r.status != 0)
        #expect(r.err.contains(message), "\(r.err)")
    }

    @Test func anOutputInAMissingDirectoryFailsBeforeTheTraceIsRead() async throws {
        let r = try await CommandRunner.run(["plot", "/nonexistent/trace.jsonl", "-o", "/nonexistent/dir/p.png"])
        #expect(r.status != 0)
        #expect(r.err.contains("--output '/nonexistent/dir/p.png': the directory '/nonexistent/dir' does not exist"))
    }
}
