import Foundation
import ScrollwayRaster
import ScrollwayTestSupport
import ScrollwayWestonHarness
import Synchronization
import Testing

/// `scrollway play`, as users run it.
@Suite(.serialized) struct PlayCommandTests {
    static let fling = """
        {"format": "scrollway-script", "version": 1}
        {"t": 0, "type": "touch.down", "id": 0, "x": 200, "y": 500}
        {"t": 0, "type": "touch.frame"}
        {"t": 16, "type": "touch.motion", "id": 0, "x": 200, "y": 470}
        {"t": 16, "type": "touch.frame"}
        {"t": 32, "type": "touch.motion", "id": 0, "x": 200, "y": 420}
        {"t": 32, "type": "touch.frame"}
        {"t": 48, "type": "touch.motion", "id": 0, "x": 200, "y": 360}
        {"t": 48, "type": "touch.frame"}
        {"t": 64, "type": "touch.motion", "id": 0, "x": 200, "y": 300}
        {"t": 64, "type": "touch.frame"}
        {"t": 70, "type": "touch.up", "id": 0}
        {"t": 6000, "type": "screenshot", "name": "rest"}
        """

    func script(_ text: String, _ name: String) throws -> String {
        let url = CommandRunner.temp(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The resting offset a run reports.
    func rest(_ stderr: String) -> String? {
        stderr.split(separator: "\n").first { $0.hasPrefix("main rests at") }.map(String.init)
    }

    /// One script played offscreen and in weston on the list at 390×600, each with its trace
    /// and its screenshots in `tag`-named places: the two runs and the two traces' delegate
    /// calls. --tolerate-stalls: a busy machine may hold weston past the rig's stall mark; the
    /// events keep their script times, and the comparison is what the tests check.
    func playOffscreenAndInWeston(
        _ s: String, tag: String, options: [String] = []
    ) async throws -> (
        off: (status: Int32, out: String, err: String), weston: (status: Int32, out: String, err: String),
        offCalls: [String], westonCalls: [String]
    ) {
        let offTrace = CommandRunner.temp("\(tag)off.jsonl")
        let westonTrace = CommandRunner.temp("\(tag)weston.jsonl")
        let off = try await CommandRunner.run(
            [
                "play", s, "--scene", "list", "--size", "390x600", "--trace", offTrace.path, "--screenshots",
                CommandRunner.temp("\(tag)off").path,
            ] + options)
        let weston = try await CommandRunner.run(
            [
                "play", s, "--scene", "list", "--size", "390x600", "--platform", "weston", "--trace", westonTrace.path,
                "--screenshots", CommandRunner.temp("\(tag)weston").path, "--tolerate-stalls",
            ] + options)
        #expect(off.status == 0 && weston.status == 0, "\(off.err)\n\(weston.err)")
        let (offText, westonText) = (
            try String(contentsOf: offTrace, encoding: .utf8), try String(contentsOf: westonTrace, encoding: .utf8)
        )
        for (name, text) in [("offscreen", offText), ("weston", westonText)] {
            #expect(backInTime(text) == nil, "the \(name) trace goes back in time: \(backInTime(text) ?? "")")
            // Both begin with the window as the run starts (weston's, settled before it, had
            // no frame 0).
            #expect(text.hasPrefix(#"{"t": 0, "frame": 0, "view": "main""#), "\(name): \(text.prefix(80))")
        }
        return (off, weston, delegates(offText), delegates(westonText))
    }

    /// The first record whose `t` is earlier than the one before it, with that one (a trace is
    /// in time order: docs/scripts-and-traces.md), or nil.
    func backInTime(_ trace: String) -> String? {
        var previous: (t: Double, line: Substring)?
        for line in trace.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":"), let comma = line.firstIndex(of: ","),
                let t = Double(line[line.index(after: colon)..<comma].trimmingCharacters(in: .whitespaces))
            else { continue }
            if let previous, t < previous.t { return "\(previous.line.prefix(60)) then \(line.prefix(60))" }
            previous = (t, line)
        }
        return nil
    }

    func delegates(_ trace: String) -> [String] {
        trace.split(separator: "\n").filter { $0.contains("\"delegate\"") }.map {
            // Without the time: frame timing differs between platforms, the calls must not.
            String($0.drop { $0 != "," }.dropFirst(2))
        }
    }

    @Test func theSameScriptGivesByteIdenticalTracesOffscreen() async throws {
        let s = try script(Self.fling, "fling.jsonl")
        let a = try await CommandRunner.run([
            "play", s, "--scene", "list", "--size", "390x600", "--trace", "-", "--screenshots",
            CommandRunner.temp("a").path,
        ])
        let b = try await CommandRunner.run([
            "play", s, "--scene", "list", "--size", "390x600", "--trace", "-", "--screenshots",
            CommandRunner.temp("b").path,
        ])
        #expect(a.status == 0 && b.status == 0, "\(a.err)")
        #expect(a.out.count > 1000)
        #expect(a.out == b.out)
    }

    /// A trace sent to a device or a pipe (`--trace /dev/null`, a FIFO a reader waits on) goes
    /// into it: the file written beside it and renamed over it, as for a regular file, would
    /// replace the device itself (it once turned this machine's /dev/null into a regular file).
    @Test func aTraceIntoAPipeGoesThroughItAndLeavesThePipe() async throws {
        let s = try script(Self.fling, "fling-fifo.jsonl")
        let fifo = CommandRunner.temp("trace.fifo").path
        unlink(fifo)
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = Mutex(Data())
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let data = FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data()
            received.withLock { $0 = data }
            done.signal()
        }
        let run = try await CommandRunner.run([
            "play", s, "--scene", "list", "--size", "390x600", "--trace", fifo, "--screenshots",
            CommandRunner.temp("fifo-shots").path,
        ])
        #expect(run.status == 0, "\(run.err)")
        #expect(done.wait(timeout: .now() + 60) == .success)
        var st = stat()
        #expect(stat(fifo, &st) == 0 && st.st_mode & S_IFMT == S_IFIFO, "the FIFO is still a FIFO")
        let text = String(decoding: received.withLock { $0 }, as: UTF8.self)
        #expect(text.hasPrefix("{\"t\": 0, \"frame\": 0, \"view\": \"main\""), "\(text.prefix(80))")
        #expect(text.split(separator: "\n").count > 50)
        unlink(fifo)
    }

    @Test func restingPositionsAreEqualAt60_120And144Hz() throws {
        let s = try script(Self.fling, "fling-hz.jsonl")
        let rests = try [60, 120, 144].map { hz in
            try rest(
                CommandRunner.run([
                    "play", s, "--scene", "list", "--size", "390x600", "--refresh", "\(hz)", "--screenshots",
                    CommandRunner.temp("hz").path,
                ]).err)
        }
        #expect(rests[0] != nil)
        #expect(rests[0] == rests[1] && rests[1] == rests[2])
        #expect(rests[0] == "main rests at contentOffset (0.0, 1821.0), zoomScale 1.0")
    }

    @Test func offscreenAndWestonRestTogetherWithTheSameDelegateCallsAndPixels() async throws {
        let s = try script(Self.fling, "fling-both.jsonl")
        let (off, weston, d1, d2) = try await playOffscreenAndInWeston(s, tag: "")
        #expect(rest(off.err) != nil && rest(off.err) == rest(weston.err))
        #expect(d1.count >= 5)
        #expect(d1 == d2)
        let (a, b) = try restPictures(tag: "")
        #expect(a.width == b.width && a.height == b.height)
        let differing = differingPixels(a, b)
        #expect(differing == 0, "\(differing) pixels differ between offscreen and weston")
    }

    /// The `rest.png` screenshots of `playOffscreenAndInWeston(_:tag:)`, offscreen's and weston's.
    func restPictures(tag: String) throws -> (off: Canvas, weston: Canvas) {
        func picture(_ platform: String) throws -> Canvas {
            try PNG.decode(
                [UInt8](Data(contentsOf: CommandRunner.temp("\(tag)\(platform)").appendingPathComponent("rest.png"))))
        }
        return (try picture("off"), try picture("weston"))
    }

    /// How many pixels differ between `a` and `b` in their first `rows` rows and `columns`
    /// columns (all by default).
    func differingPixels(_ a: Canvas, _ b: Canvas, rows: Int? = nil, columns: Int? = nil) -> Int {
        var n = 0
        for y in 0..<(rows ?? a.height) {
            for x in 0..<(columns ?? a.width) where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { n += 1 }
        }
        return n
    }

    /// The docs' swipe, its screenshot taken while the list's indicator is still up: weston's
    /// picture is offscreen's to the pixel. weston gave the pointer's focus back to the window
    /// under it after the rig had taken it away, and an indicator under the pointer stays a
    /// second, not half of one, so the pictures differed by the indicator (decisions.md,
    /// 0.15.34).
    @Test func theIndicatorFadesAsOffscreenWithThePointerAway() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let s = root.appendingPathComponent("docs/example-swipe.jsonl").path
        _ = try await playOffscreenAndInWeston(s, tag: "swipe-")
        let (a, b) = try restPictures(tag: "swipe-")
        let differing = differingPixels(a, b)
        #expect(differing == 0, "\(differing) pixels differ between offscreen and weston")
    }

    /// A screenshot in the middle of a fling is taken then, not once the fling ends: the touch
    /// that follows it catches the fling as it does offscreen (weston's screenshots had waited
    /// for every animation to end, so the touch found the list at rest, hundreds of pixels on).
    /// Caught, the fling ends without `scrollViewDidEndDecelerating` (UIKit's), where it rests.
    ///
    /// Caught in the fling's slow tail: in weston the touch stops the fling where it is when the
    /// touch arrives, or where the frame drawn ahead of it put it (docs/scripts-and-traces.md),
    /// and how late a touch after a capture arrives is the machine's. Caught early in the fling,
    /// at a pixel or two a millisecond, the rest was too often further from offscreen's than a
    /// fling waited out would be (docs/decisions.md, 0.15.35); at a fifth of a pixel a
    /// millisecond, the tolerance is a touch 200 ms late, and a fling waited out rests twice as
    /// far off.
    @Test func aScreenshotMidFlingLetsTheNextTouchCatchItInWeston() async throws {
        // The fling without its screenshot at rest, then a screenshot while it glides and a tap.
        let flingAlone = Self.fling.split(separator: "\n").filter { !$0.contains("screenshot") }
        let catchAfterShot =
            (flingAlone + [
                #"{"t": 70, "type": "touch.frame"}"#,
                #"{"t": 1400, "type": "screenshot", "name": "mid"}"#,
                #"{"t": 1500, "type": "touch.down", "id": 0, "x": 200, "y": 300}"#,
                #"{"t": 1500, "type": "touch.frame"}"#,
                #"{"t": 1550, "type": "touch.up", "id": 0}"#,
                #"{"t": 1550, "type": "touch.frame"}"#,
            ]).joined(separator: "\n") + "\n"
        let s = try script(catchAfterShot, "fling-caught.jsonl")
        let (off, weston, offCalls, westonCalls) = try await playOffscreenAndInWeston(s, tag: "caught-")
        #expect(offCalls.contains { $0.contains("scrollViewWillBeginDecelerating") })
        #expect(!offCalls.contains { $0.contains("scrollViewDidEndDecelerating") })
        #expect(westonCalls == offCalls)
        // Where it was caught: near offscreen's, well short of where the whole fling rests
        // (1,821) and well past where it was at the screenshot.
        // "main rests at contentOffset (0.0, 856.68…), zoomScale 1.0": the y inside the brackets.
        func restY(_ err: String) -> Double? {
            guard let line = rest(err), let open = line.firstIndex(of: "("), let close = line.firstIndex(of: ")")
            else { return nil }
            return line[line.index(after: open)..<close].split(separator: ",").last.flatMap {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
        }
        let (a, b) = (try #require(restY(off.err)), try #require(restY(weston.err)))
        #expect(a > 1700 && a < 1760, "offscreen rests at \(a)")
        #expect(abs(a - b) < 40, "offscreen rests at \(a), weston at \(b)")
    }

    /// A mouse drag whose pointer is taken away (`pointer.leave`: weston's test module takes it
    /// away from the held button, as a compositor's grab does) ends there, offscreen and in
    /// weston alike: back over the list, the pointer's motions and release move nothing.
    @Test func aPointerTakenAwayMidDragEndsTheDragOffscreenAndInWeston() async throws {
        var lines = [
            #"{"format": "scrollway-script", "version": 1}"#,
            #"{"t": 0, "type": "pointer.motion", "x": 200, "y": 400}"#,
            #"{"t": 0, "type": "pointer.frame"}"#,
            #"{"t": 100, "type": "pointer.button", "button": "left", "state": "pressed"}"#,
            #"{"t": 100, "type": "pointer.frame"}"#,
        ]
        func motion(_ t: Int, _ y: Int) {
            lines += [
                #"{"t": \#(t), "type": "pointer.motion", "x": 200, "y": \#(y)}"#,
                #"{"t": \#(t), "type": "pointer.frame"}"#,
            ]
        }
        for i in 1...6 { motion(100 + 16 * i, 400 - 25 * i) }
        lines += [#"{"t": 250, "type": "pointer.leave"}"#, #"{"t": 250, "type": "pointer.frame"}"#]
        for i in 0...4 { motion(500 + 16 * i, 200 + 30 * i) }
        lines += [
            #"{"t": 700, "type": "pointer.button", "button": "left", "state": "released"}"#,
            #"{"t": 700, "type": "pointer.frame"}"#,
            #"{"t": 2000, "type": "screenshot", "name": "rest"}"#,
        ]
        let s = try script(lines.joined(separator: "\n") + "\n", "mouse-drag-leave.jsonl")
        let (off, weston, offCalls, westonCalls) = try await playOffscreenAndInWeston(
            s, tag: "leave-", options: ["--set", "allowsMouseDrag=true"])
        // Dragged 150 px, less the mouse's 4 px slop, and not a pixel more.
        #expect(rest(off.err)?.contains("contentOffset (0.0, 146.0)") == true, "\(off.err)")
        #expect(rest(weston.err) == rest(off.err), "\(weston.err)")
        #expect(offCalls.contains { $0.contains("scrollViewDidEndDragging") })
        #expect(westonCalls == offCalls)
    }

    /// Keys and text typed into the form's fields look the same offscreen and in weston: a
    /// key's text (offscreen through the us keymap, in weston through the seat and the client's
    /// xkb; "B" and "exclam" with Shift), and a text line's tab as the Tab key, which moves the
    /// focus (offscreen the keys had typed nothing, and the tab went in as a character). The
    /// fields only: offscreen the form's own keyboard rises below them, in weston the system's
    /// input method is offered instead.
    @Test func keysAndTextTypeTheSameOffscreenAndInWeston() async throws {
        var lines = [
            #"{"format": "scrollway-script", "version": 1}"#,
            #"{"t": 0, "type": "touch.down", "id": 0, "x": 195, "y": 110}"#, #"{"t": 0, "type": "touch.frame"}"#,
            #"{"t": 50, "type": "touch.up", "id": 0}"#, #"{"t": 50, "type": "touch.frame"}"#,
        ]
        var t = 400
        for key in ["a", "B", "exclam"] {
            lines.append(#"{"t": \#(t), "type": "key", "key": "\#(key)", "state": "pressed"}"#)
            lines.append(#"{"t": \#(t + 20), "type": "key", "key": "\#(key)", "state": "released"}"#)
            t += 50
        }
        lines += [
            #"{"t": 700, "type": "text", "text": "x\ty"}"#, #"{"t": 1500, "type": "screenshot", "name": "typed"}"#,
        ]
        let s = try script(lines.joined(separator: "\n") + "\n", "typed-keys.jsonl")
        let untyped = try script(
            lines.filter { !$0.contains(#""key""#) && !$0.contains(#""text""#) }.joined(separator: "\n") + "\n",
            "typed-none.jsonl")
        func shot(_ script: String, _ platform: String, _ tag: String) async throws -> Canvas {
            let folder = CommandRunner.temp("typed-\(tag)")
            let r = try await CommandRunner.run(
                [
                    "play", script, "--scene", "form", "--size", "390x600", "--platform", platform, "--screenshots",
                    folder.path,
                ] + (platform == "weston" ? ["--tolerate-stalls"] : []))
            #expect(r.status == 0, "\(r.err)")
            return try PNG.decode([UInt8](Data(contentsOf: folder.appendingPathComponent("typed.png"))))
        }
        let (off, weston) = (try await shot(s, "offscreen", "off"), try await shot(s, "weston", "weston"))
        let none = try await shot(untyped, "offscreen", "none")
        // The profile's fields (the first 215 rows): "aB!x" in Email, "y" in Bio with the caret.
        func differing(_ a: Canvas, _ b: Canvas) -> Int { differingPixels(a, b, rows: 215) }
        #expect(differing(off, weston) == 0, "\(differing(off, weston)) pixels of the fields differ")
        // And something was typed: the fields differ from the same taps without the typing.
        #expect(differing(off, none) > 100)
    }

    /// An input method's lines in the keyboard scene: offscreen they reach the window's
    /// text-input model directly; in weston the test module sends them as zwp_text_input_v3
    /// events to the field that enabled text input. The field looks the same both ways.
    @Test func inputMethodLinesTypeTheSameOffscreenAndInWeston() async throws {
        let s = try script(
            """
            {"format": "scrollway-script", "version": 1}
            {"t": 0, "type": "touch.down", "id": 0, "x": 195, "y": 66}
            {"t": 0, "type": "touch.frame"}
            {"t": 40, "type": "touch.up", "id": 0}
            {"t": 40, "type": "touch.frame"}
            {"t": 400, "type": "preedit", "text": "wörld", "cursor": [3, 3]}
            {"t": 500, "type": "screenshot", "name": "preedit"}
            {"t": 600, "type": "commit_text", "text": "héllo wörld"}
            {"t": 700, "type": "delete_surrounding", "before": 6, "after": 0}
            {"t": 800, "type": "screenshot", "name": "typed"}
            """, "input-method.jsonl")
        var shots: [String: Canvas] = [:]
        // Stalls tolerated as in offscreenAndWestonRestTogether…: the comparison is the check.
        for platform in ["offscreen", "weston"] {
            let dir = CommandRunner.temp("im-\(platform)")
            let r = try await CommandRunner.run(
                [
                    "play", s, "--scene", "keyboard", "--size", "390x844", "--platform", platform, "--screenshots",
                    dir.path,
                ] + (platform == "weston" ? ["--tolerate-stalls"] : []))
            #expect(r.status == 0, "\(platform): \(r.err)")
            for name in ["preedit", "typed"] {
                shots["\(platform)/\(name)"] = try PNG.decode(
                    [UInt8](Data(contentsOf: dir.appendingPathComponent("\(name).png"))))
            }
        }
        /// Pixels that differ in the form's first two fields, left of the scroll indicator (the
        /// in-app keyboard rises offscreen, where no system input method exists, and its inset
        /// flashes the indicator; in weston it stays down).
        func differing(_ a: Canvas?, _ b: Canvas?) throws -> Int {
            differingPixels(try #require(a), try #require(b), rows: 200, columns: 376)
        }
        #expect(try differing(shots["offscreen/preedit"], shots["weston/preedit"]) == 0)
        #expect(try differing(shots["offscreen/typed"], shots["weston/typed"]) == 0)
        // The control: the preedit and the typed text do look different.
        #expect(try differing(shots["offscreen/preedit"], shots["offscreen/typed"]) > 50)
    }

    /// docs/nested-handoff.jsonl: a drag in the notes box past its end, carried on by the list.
    /// Real wl_touch events in weston give the same hand-off, in the same order, to the same rest.
    @Test func theNestedHandOffIsTheSameOffscreenAndInWeston() async throws {
        let s = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../docs/nested-handoff.jsonl"
        ).standardized.path
        var traces: [[String]] = []
        var rests: [String?] = []
        // Stalls tolerated as in offscreenAndWestonRestTogether…: the comparison is the check.
        for platform in ["offscreen", "weston"] {
            let trace = CommandRunner.temp("nested-\(platform).jsonl")
            let r = try await CommandRunner.run(
                [
                    "play", s, "--scene", "nested", "--platform", platform, "--trace", trace.path, "--screenshots",
                    CommandRunner.temp("nested-\(platform)").path,
                ] + (platform == "weston" ? ["--tolerate-stalls"] : []))
            #expect(r.status == 0, "\(r.err)")
            traces.append(delegates(try String(contentsOf: trace, encoding: .utf8)))
            rests.append(rest(r.err))
        }
        // The whole hand-off, arguments included: the notes end at their edge without momentum
        // (and never decelerate), then the list drags and flings on to its rest.
        #expect(
            traces[0] == [
                #""view": "notes", "delegate": "scrollViewWillBeginDragging"}"#,
                #""view": "notes", "delegate": "scrollViewWillEndDragging", "velocity": {"x": 0, "y": 0}, "targetContentOffset": {"x": 0, "y": 228}}"#,
                #""view": "notes", "delegate": "scrollViewDidEndDragging", "willDecelerate": false}"#,
                #""view": "main", "delegate": "scrollViewWillBeginDragging"}"#,
                #""view": "main", "delegate": "scrollViewWillEndDragging", "velocity": {"x": 0, "y": 1.5}, "targetContentOffset": {"x": 0, "y": 895}}"#,
                #""view": "main", "delegate": "scrollViewDidEndDragging", "willDecelerate": true}"#,
                #""view": "main", "delegate": "scrollViewWillBeginDecelerating"}"#,
                #""view": "main", "delegate": "scrollViewDidEndDecelerating"}"#,
            ])
        #expect(traces[0] == traces[1])
        #expect(rests[0] == "main rests at contentOffset (0.0, 895.0), zoomScale 1.0")
        #expect(rests[1] == rests[0])
    }

    @Test(arguments: [
        ("{\"t\": 0, \"type\": \"touch.up\", \"id\": 2}", "bad1.jsonl:1: field 'id': finger 2 is not down"),
        (
            "{\"t\": 5, \"type\": \"touch.frame\"}\n{\"t\": 4, \"type\": \"touch.frame\"}",
            "bad2.jsonl:2: field 't': 4 is earlier"
        ),
        (
            "{\"t\": 0, \"type\": \"key\", \"key\": \"NotAKey\", \"state\": \"pressed\"}",
            "bad3.jsonl:1: field 'key': unknown keysym 'NotAKey'"
        ),
        ("{\"t\": 0, \"type\": \"jump\"}", "bad4.jsonl:1: field 'type': unknown event type \"jump\""),
        ("not json", "bad5.jsonl:1: malformed JSON"),
    ])
    func malformedScriptsFailWithTheirErrorAndNothingRuns(text: String, expected: String) async throws {
        let name = String(expected.prefix { $0 != ":" })
        let s = try script(text, name)
        let trace = CommandRunner.temp("\(name).trace")
        let r = try await CommandRunner.run(["play", s, "--scene", "list", "--trace", trace.path])
        #expect(r.status != 0)
        #expect(r.err.contains(expected), "stderr: \(r.err)")
        #expect(!FileManager.default.fileExists(atPath: trace.path))
    }

    @Test func setReachesScrollViewPropertiesWithClearErrors() async throws {
        let s = try script(Self.fling, "fling-set.jsonl")
        let paged = try await CommandRunner.run([
            "play", s, "--scene", "list", "--size", "390x600", "--set", "pagingEnabled=true", "--screenshots",
            CommandRunner.temp("p").path,
        ])
        #expect(paged.status == 0)
        #expect(rest(paged.err) == "main rests at contentOffset (0.0, 600.0), zoomScale 1.0")
        let fast = try await CommandRunner.run([
            "play", s, "--scene", "list", "--size", "390x600", "--set", "decelerationRate=fast", "--screenshots",
            CommandRunner.temp("f").path,
        ])
        #expect(rest(fast.err) != rest(paged.err))
        let unknown = try await CommandRunner.run(["play", s, "--scene", "list", "--set", "bounciness=3"])
        #expect(unknown.status != 0 && unknown.err.contains("--set bounciness: unknown property"))
        let bad = try await CommandRunner.run(["play", s, "--scene", "list", "--set", "contentInset=1,2,3"])
        #expect(
            bad.status != 0
                && bad.err.contains("--set contentInset: expected top,left,bottom,right (4 numbers), got '1,2,3'"))
        let badBool = try await CommandRunner.run(["play", s, "--scene", "list", "--set", "bounces=maybe"])
        #expect(badBool.err.contains("--set bounces: expected true or false, got 'maybe'"))
    }

    @Test func demoWithoutACompositorSaysSoAndHeadlessWritesTheTour() async throws {
        let p = Process()
        p.executableURL = try CommandRunner.scrollway()
        p.arguments = ["demo"]
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        env["XDG_RUNTIME_DIR"] = CommandRunner.temp("no-runtime").path
        p.environment = env
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus != 0)
        #expect(message.contains("no Wayland compositor is running") && message.contains("scrollway demo --headless"))

        let out = CommandRunner.temp("tour")
        let r = try await CommandRunner.run(["demo", "--headless", "--output", out.path])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("wrote 15 screenshots and \(out.path)/contact-sheet.png"))
        // Progress on standard error, a line per step when it is not a terminal.
        #expect(r.err.contains("tour: 0% list (1 of "))
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        for name in [
            "contact-sheet", "3-rubber-band", "6-page-2", "7-map-zoomed-out", "8-nested-hand-off", "9-refreshing",
        ] {
            #expect(names.contains("\(name).png"), "no \(name).png in \(names)")
        }
        #expect(names.count == 16)
        let sheet = try PNG.decode([UInt8](Data(contentsOf: out.appendingPathComponent("contact-sheet.png"))))
        // Four half-size 390×844 thumbnails a row, 12 px gaps, 24 px captions, four rows.
        #expect(sheet.width == 12 + 4 * (195 + 12))
        #expect(sheet.height == 12 + 4 * (422 + 24 + 12))
    }
}
