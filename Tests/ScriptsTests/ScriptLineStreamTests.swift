import Foundation
import ScrollwayScripts
import Testing

/// `ScriptLineStream`: events from a pipe as their lines come, the check run while none does.
@Suite struct ScriptLineStreamTests {
    let parser = ScriptParser(file: "<stdin>", isKeysym: { _ in true })

    /// A pipe: (read end, write end).
    func pipeEnds() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        return (fds[0], fds[1])
    }

    func send(_ fd: Int32, _ text: String) {
        #expect(write(fd, text, text.utf8.count) == text.utf8.count)
    }

    /// Lines split across writes come whole; the check runs only while nothing comes, and what
    /// it throws ends the read; a last line without its newline is read at the end.
    @Test func linesComeAsTheyAreWrittenAndTheCheckRunsWhileNoneDoes() throws {
        let (r, w) = try pipeEnds()
        defer { close(r) }
        let stream = ScriptLineStream(fd: r, file: "<stdin>", parser: parser)
        send(w, #"{"t": 0, "type": "pointer.motion", "#)
        send(w, #""x": 10, "y": 20}"# + "\n\n")
        var checks = 0
        let first = try #require(try stream.next(every: 0.01, check: { checks += 1 }))
        #expect(first.t == 0 && stream.lineCount == 1)
        // Nothing more yet: the check runs, and its error ends the wait.
        struct Gone: Error {}
        #expect(throws: Gone.self) {
            try stream.next(
                every: 0.01,
                check: {
                    checks += 1
                    if checks >= 3 { throw Gone() }
                })
        }
        #expect(checks == 3)
        send(w, #"{"t": 5, "type": "pointer.frame"}"#)
        close(w)
        let last = try #require(try stream.next(every: 0.01, check: { Issue.record("no wait at the end") }))
        #expect(last.t == 5 && stream.lineCount == 3)
        #expect(try stream.next(every: 0.01, check: {}) == nil)
    }

    /// A bad line is the parser's error, at its number on the stream.
    @Test func aBadLineIsNamedWithItsNumber() throws {
        let (r, w) = try pipeEnds()
        defer { close(r) }
        send(w, #"{"t": 0, "type": "pointer.frame"}"# + "\n" + #"{"t": 1, "type": "nosuch"}"# + "\n")
        close(w)
        let stream = ScriptLineStream(fd: r, file: "<stdin>", parser: parser)
        _ = try stream.next(every: 1, check: {})
        #expect {
            _ = try stream.next(every: 1, check: {})
        } throws: { error in
            "\(error)".hasPrefix("<stdin>:2: ")
        }
    }
}
