import Foundation
import Glibc
import ScrollwayTestSupport
import Testing

@testable import ScrollwayBench

/// `scrollway bench`, as users run it. Only that it runs and reports: timings are the bench's
/// business (ratios against a baseline of the same run), never a test's.
@Suite(.serialized) struct BenchCommandTests {
    @Test func quickBenchPrintsEveryLine() async throws {
        let run = try await CommandRunner.run(["bench", "--quick"])
        #expect(run.status == 0, "\(run.err)")
        // Progress on standard error (not a terminal: a line per step), results on standard output.
        #expect(
            run.err.contains(
                "bench: 0% zoom fling, tiles on the main thread\nbench: 8% zoom fling, tiles on workers\n"))
        #expect(run.err.contains("bench: 25% list fling, 100,000 rows\n"))
        #expect(run.err.contains("bench: 33% list fling, 100,000 rows, with a screen reader (AT-SPI)\n"))
        #expect(run.err.contains("bench: 58% form resize, constraints re-solved each frame\n"))
        #expect(run.err.contains("bench: 75% feed fling, self-sizing cards by constraints and by hand\n"))
        #expect(run.err.contains("bench: 83% list rows deleted and inserted, animated\n"))
        #expect(
            run.err.contains("bench: 91% a 100,000-item snapshot applied to a list, and an outline's folder opened\n"))
        #expect(!run.out.split(separator: "\n").contains { $0.hasPrefix("bench: ") })
        let lines = run.out.split(separator: "\n").map(String.init)
        for prefix in [
            "scrollway bench: offscreen",
            "zoom fling, main-thread ms/frame: sync ",
            "zoom fling, worst frame ms: sync ",
            "zoom fling, frames over the 16.67 ms budget: sync ",
            "zoom fling, tiles drawn on the main thread: sync ",
            "zoom fling, frames with a visible tile still on its way",
            "zoom fling, tile memory peak: sync ",
            "list fling, main-thread ms/frame: 1,000 rows ",
            "list fling, 100,000 rows against the 16.67 ms frame budget: ",
            "list fling, 100,000 rows, main-thread ms/frame, median of 1 run each, taken in turn: AT-SPI off ",
            "grid fling, main-thread ms/frame: 1,000 photos ",
            "form resize (",
            "list fling beside the form (",
            "grid fling beside the form, main-thread ms/frame, median of 1 run each, taken in turn: ",
            "feed fling, self-sizing cards (a title, a wrapping body), main-thread ms/frame, median of 1 run each, "
                + "taken in turn: laid out by constraints ",
            "list rows deleted and inserted, animated (a fade, the rows below sliding; 4 updates), main-thread "
                + "ms/frame while they move: ",
            "a snapshot of 100000 items applied to a list (100 deleted, 100 inserted, 100 moved; 3 times), "
                + "main-thread ms per apply: ",
            "an outline of 100100 rows (100 open folders of 1,000) on a list, a folder in view closed and opened "
                + "again (3 times), main-thread ms per close or open: ",
        ] {
            #expect(lines.contains { $0.hasPrefix(prefix) }, "no line starting '\(prefix)' in:\n\(run.out)")
        }
        // Tiles drawn asynchronously never run on the thread that runs the frames, whatever the
        // timings; drawn synchronously, they all do (the count sees that thread).
        let tiles = try #require(lines.first { $0.hasPrefix("zoom fling, tiles drawn on the main thread") })
        #expect(tiles.contains(", async 0 ("), "\(tiles)")
        #expect(!tiles.hasPrefix("zoom fling, tiles drawn on the main thread: sync 0,"), "\(tiles)")
        // Frames were timed while the rows moved.
        let updates = try #require(lines.first { $0.hasPrefix("list rows deleted and inserted") })
        #expect(!updates.contains("move: 0.00 (worst 0.00)"), "\(updates)")
        // The reader heard the list's events.
        let reader = try #require(lines.first { $0.contains("AT-SPI off") })
        #expect(!reader.contains("following 0 events"), "\(reader)")
        #expect(run.out.contains("of baseline"))
    }

    @Test func roundsGoWithTheWestonBenchAndAreBounded() async throws {
        let alone = try await CommandRunner.run(["bench", "--rounds", "2"])
        #expect(
            alone.status != 0 && alone.err.contains("--rounds, --cpu-quota, --clients and --records go with --weston"),
            "\(alone.err)")
        for bad in ["0", "10"] {
            let r = try await CommandRunner.run(["bench", "--weston", "--rounds", bad])
            #expect(r.status != 0 && r.err.contains("--rounds: expected 1 to 9, got \(bad)"), "\(r.err)")
        }
        let quotaAlone = try await CommandRunner.run(["bench", "--cpu-quota", "5"])
        #expect(quotaAlone.status != 0 && quotaAlone.err.contains("go with --weston"), "\(quotaAlone.err)")
        for bad in ["0", "101"] {
            let r = try await CommandRunner.run(["bench", "--weston", "--cpu-quota", bad])
            #expect(
                r.status != 0 && r.err.contains("--cpu-quota: expected 1 to 100 (percent of one core), got \(bad)"),
                "\(r.err)")
        }
    }

    /// `--sizes`, `--rounds` and `--cpu-quota` are checked whole before anything runs: an empty
    /// size (it printed an empty table, or skipped it), a scale left out after `@` (taken for 1),
    /// a size named twice (its runs' records overwrote each other's, and the quota table lost
    /// one), an output too tall (said to be too wide), a negative number (said to be missing).
    @Test(arguments: [
        (["--sizes", ""], "--sizes '': an empty size"),
        (["--sizes", ","], "--sizes ',': an empty size"),
        (["--sizes", "390x844,,1920x1080"], "an empty size (between two commas, or at an end)"),
        (["--sizes", "390x844@"], "--sizes: '390x844@': the scale must be a whole number from 1 to 4"),
        (["--sizes", "390x844,390x844"], "--sizes: '390x844' is named twice"),
        (["--sizes", "100x5000@2"], "--sizes: '100x5000@2': the output is 200×10000 pixels; at most 8192 a side"),
        (["--sizes", "-1x5"], "--sizes: '-1x5' is not WxH or WxH@SCALE"),
        (["--rounds", "-1"], "--rounds: expected 1 to 9, got -1"),
        (["--cpu-quota", "-5"], "--cpu-quota: expected 1 to 100 (percent of one core), got -5"),
    ])
    func westonBenchOptionsAreCheckedWhole(arguments: [String], message: String) async throws {
        let r = try await CommandRunner.run(["bench", "--weston"] + arguments)
        #expect(r.status != 0 && r.err.contains(message), "\(arguments): \(r.err)")
        #expect(!r.out.contains("scrollway bench"), "\(arguments) ran: \(r.out)")
    }

    /// A `bench --weston` stopped by SIGTERM mid-run takes away its folder of records and its
    /// rigs' folders before it ends by the signal (an interrupted run had left them in /tmp, and
    /// its cgroup with a quota). Waited for by what is on disk, not by time.
    @Test func aStoppedWestonBenchLeavesNothingBehind() throws {
        let p = Process()
        p.executableURL = try CommandRunner.scrollway()
        p.arguments = ["bench", "--weston", "--quick"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let pid = p.processIdentifier
        let temp = FileManager.default.temporaryDirectory
        let folder = temp.appendingPathComponent("scrollway-bench-\(pid)").path
        func rigFolders() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: temp.path)) ?? []).filter {
                $0.hasPrefix("scrollway-rig-\(pid)-")
            }
        }
        let deadline = Date().addingTimeInterval(120)
        while p.isRunning, !(FileManager.default.fileExists(atPath: folder) && !rigFolders().isEmpty),
            Date() < deadline
        {
            usleep(20_000)
        }
        #expect(p.isRunning, "the bench ended before it could be stopped")
        kill(pid, SIGTERM)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGTERM)
        #expect(!FileManager.default.fileExists(atPath: folder), "\(folder) left")
        #expect(rigFolders().isEmpty, "left: \(rigFolders())")
    }

    /// The folder `--records` names is made and checked before anything is measured, each
    /// failure said with the option and its reason (Foundation's own error had come after the
    /// first measurements, without the option's name).
    /// A client that cannot write its frame records (its disk full: here the list's records
    /// file is a link to /dev/full) fails the run with its own words: its records, cut short,
    /// had been read as they were, and the failure then blamed on the next client.
    @Test func aClientThatCannotWriteItsRecordsFailsTheRunSayingWhy() async throws {
        let dir = CommandRunner.temp("records-full")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("390x844-list-fast-round-1.stats").path, withDestinationPath: "/dev/full"
        )
        let r = try await CommandRunner.run(["bench", "--weston", "--quick", "--records", dir.path])
        #expect(r.status == 1)
        #expect(
            r.err.contains(
                "Error: bench: list fast at 390×844: the client exited with status 1: Error: --frame-stats "
                    + "'\(dir.path)/390x844-list-fast-round-1.stats': cannot write (No space left on device)"),
            "\(r.err)")
    }

    @MainActor @Test func theRecordsFolderIsCheckedFirst() throws {
        let dir = CommandRunner.temp("records-check")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("a-file").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        #expect(throws: BenchError("--records '': an empty path names no folder")) {
            try WestonBench.recordsFolder("")
        }
        #expect(throws: BenchError("--records '\(file)': it is a file, not a folder")) {
            try WestonBench.recordsFolder(file)
        }
        #expect(throws: BenchError("--records '\(file)/sub': cannot make the folder (Not a directory)")) {
            try WestonBench.recordsFolder(file + "/sub")
        }
        let made = try WestonBench.recordsFolder(dir.appendingPathComponent("new/deeper").path)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: made.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(try FileManager.default.contentsOfDirectory(atPath: made.path).isEmpty)
    }

    /// `--clients` names clients as the tables do (a dash for the space); a name the bench does
    /// not know, an empty one, or the option without `--weston` is refused before anything runs,
    /// naming the names it knows.
    @Test func clientsAndRecordsGoWithTheWestonBench() async throws {
        for bad in ["list", "list-fast,,zoom-fast", "floor", "list fast"] {
            let r = try await CommandRunner.run(["bench", "--weston", "--clients", bad])
            #expect(r.status != 0, "\(bad) accepted")
            #expect(
                r.err.contains("is not one of list-fast, list-general, list-gtk4, zoom-fast, zoom-general"),
                "\(bad): \(r.err)")
            #expect(!r.out.contains("scrollway bench"), "\(bad) ran: \(r.out)")
        }
        for alone in [["--clients", "list-fast"], ["--records", "/tmp"]] {
            let r = try await CommandRunner.run(["bench"] + alone)
            #expect(r.status != 0 && r.err.contains("go with --weston"), "\(alone): \(r.err)")
        }
    }

    /// The clients a run measures at a size: all, in the order they run, the list's only in the
    /// quick mode, GTK4's only with the peer and at scale 1; `clients` keeps those it names and
    /// the floor. Each round's records, and each latency run's, go to a file of their own.
    @MainActor @Test func theClientsChosenAndTheirRecords() throws {
        let size = WestonBench.Size(width: 1920, height: 1080, scale: 1)
        let scaled = WestonBench.Size(width: 1920, height: 1080, scale: 2)
        var bench = WestonBench(quick: false, output: { _ in }, log: { _ in })
        func names(_ s: WestonBench.Size, peer: String? = "peer.py") -> [String] {
            bench.clientRuns(for: s, executable: "sw", peer: peer).map(\.name)
        }
        #expect(
            names(size) == ["floor", "list fast", "list general", "zoom fast", "zoom general", "list gtk4"])
        #expect(names(scaled) == ["floor", "list fast", "list general", "zoom fast", "zoom general"])
        #expect(names(size, peer: nil).last == "zoom general")
        let zoom = bench.clientRuns(for: size, executable: "sw", peer: nil)[3]
        #expect(zoom.command == ["sw", "demo", "--fullscreen", "--scene", "zoom", "--present", "fast"] && !zoom.isGTK)
        let gtk = bench.clientRuns(for: size, executable: "sw", peer: "peer.py").last
        #expect(gtk?.command == ["/usr/bin/python3", "peer.py"] && gtk?.environment == ["GSK_RENDERER": "cairo"])
        #expect(try WestonBench.clients(named: "zoom-fast, list-gtk4") == ["zoom-fast", "list-gtk4"])
        #expect(throws: BenchError.self) { try WestonBench.clients(named: "zoom-fast,") }
        bench.clients = ["zoom-fast", "list-gtk4"]
        #expect(names(size) == ["floor", "zoom fast", "list gtk4"])
        #expect(names(scaled) == ["floor", "zoom fast"])
        let quick = WestonBench(quick: true, output: { _ in }, log: { _ in })
        #expect(
            quick.clientRuns(for: size, executable: "sw", peer: nil).map(\.name) == [
                "floor", "list fast", "list general",
            ])
        var quickZoom = quick
        quickZoom.clients = ["zoom-general"]
        #expect(quickZoom.clientRuns(for: size, executable: "sw", peer: nil).map(\.name) == ["floor", "zoom general"])
        #expect(
            WestonBench.recordsFileName(size: size, client: "list fast", round: 1)
                == "1920x1080-list-fast-round-1.stats")
        #expect(
            WestonBench.recordsFileName(size: scaled, client: "floor", round: 2)
                == "1920x1080-at-scale-2-floor-round-2.stats")
        #expect(
            WestonBench.recordsFileName(size: size, client: "list gtk4", round: nil, suffix: ".wayland.log")
                == "1920x1080-list-gtk4-latency.wayland.log")
    }

    /// `--latency` takes a compositor, sizes and `--json`; what belongs to `--weston` or
    /// `--soak` is refused with what goes with what, before anything starts.
    @Test func latencyOptionsAreCheckedBeforeAnythingRuns() async throws {
        let cases: [([String], String)] = [
            (["--compositor", "sway"], "--compositor goes with --latency"),
            (["--latency", "--weston"], "--latency runs on its own"),
            (
                ["--latency", "--rounds", "2"],
                "--rounds, --cpu-quota, --clients and --records go with --weston, not --latency"
            ),
            (
                ["--latency", "--cpu-quota", "5"],
                "--rounds, --cpu-quota, --clients and --records go with --weston, not --latency"
            ),
            (["--latency", "--clients", "list-fast"], "--clients and --records go with --weston, not --latency"),
            (["--latency", "--records", "/tmp"], "--clients and --records go with --weston, not --latency"),
            (["--latency", "--soak"], "--soak runs on its own"),
            (["--sizes", "390x844"], "--sizes and --json go with --weston or --latency"),
            (["--latency", "--compositor", "gnome"], "gnome"),
        ]
        for (arguments, message) in cases {
            let r = try await CommandRunner.run(["bench"] + arguments)
            #expect(r.status != 0 && r.err.contains(message), "\(arguments): \(r.err)")
            #expect(!r.out.contains("scrollway bench"), "\(arguments) ran: \(r.out)")
        }
    }

    /// Without the peer the bench says which part is missing: the script (an executable run
    /// away from the checkout) before GTK4 itself, each with what to do.
    @Test func aMissingPeerIsNamed() throws {
        let noScript = try #require(WestonBench.missingPeerMessage(scriptFound: false, gtkInstalled: true))
        #expect(noScript.contains("Benchmarks/gtk4-peer/gtk4-list.py"))
        #expect(noScript.contains("bench from the checkout"))
        #expect(!noScript.contains("install.sh"))
        let noGTK = try #require(WestonBench.missingPeerMessage(scriptFound: true, gtkInstalled: false))
        #expect(noGTK.hasPrefix("GTK4 is not installed"))
        #expect(noGTK.contains("bash Benchmarks/gtk4-peer/install.sh"))
        #expect(WestonBench.missingPeerMessage(scriptFound: true, gtkInstalled: true) == nil)
    }

    /// Rounds are pooled frame by frame: the median and p99 are over every round's frames (not
    /// a median of medians), weston's time and the seconds add up, and each round's own median
    /// is kept to show the spread.
    @Test func roundsArePooledFrameByFrame() {
        typealias Frame = WestonBench.Frame
        // Round one: 97 frames of 1 ms and 3 recentred ones of 5 ms; round two: 100 of 3 ms.
        var first = (0..<97).map { _ in Frame(main: 1, process: 1.5, recentred: false) }
        first += (0..<3).map { _ in Frame(main: 5, process: 5.5, recentred: true) }
        let second = (0..<100).map { _ in Frame(main: 3, process: 3.5, recentred: false) }
        let run = WestonBench.summarize(
            "list fast",
            [
                .init(frames: first, seconds: 2, westonSeconds: 0.2, firstFrameMs: 40, memory: (50, 51)),
                .init(
                    frames: second, seconds: 3, westonSeconds: 0.4, firstFrameMs: 60, sharedSwiftRuntime: true,
                    memory: (52, 53)),
            ])
        #expect(run.client == "list fast")
        #expect(run.frames == 200 && run.rounds == 2)
        #expect(run.seconds == 5 && run.framesPerSecond == 40)
        // Sorted, the 200 frames are 97 of 1 ms, 100 of 3 ms and 3 of 5 ms: a median of the
        // rounds' medians would say 2 ms.
        #expect(run.mainMedian == 3 && run.processMedian == 3.5)
        #expect(run.mainP99 == 5 && run.processP99 == 5.5 && run.mainWorst == 5)
        #expect(run.mainP99NotRecentred == 3)
        #expect(run.recentredShare == 0.015)
        #expect(abs(run.westonPerFrame - 3) < 1e-9)  // 0.6 s over 200 frames
        #expect(run.roundMainMedians == [1, 3])
        #expect(run.firstFrameMs == 60 && run.residentMB == 52 && run.peakResidentMB == 53)
        #expect(run.sharedSwiftRuntime == true)
    }

    /// The first frame's line says how the client had the Swift runtime, read from its maps:
    /// this test process, a debug build, loads `libswiftCore.so`.
    @Test func theFirstFrameSaysHowTheSwiftRuntimeWasLinked() throws {
        #expect(WestonBench.loadsSharedSwiftRuntime(pid: getpid()) == true)
        #expect(WestonBench.loadsSharedSwiftRuntime(pid: -1) == nil)
        #expect(WestonBench.runtimeNote(true).contains("--static-swift-stdlib"))
        #expect(WestonBench.runtimeNote(false) == " (Swift runtime linked in)")
        #expect(WestonBench.runtimeNote(nil).isEmpty)
    }

    /// A /proc file is read to its end, though it says it is empty: this process's maps run
    /// past the one block `String(contentsOfFile:)` reads of it, and the last line is whole.
    @Test func aProcFileIsReadWhole() throws {
        let maps = try #require(ProcFile.text("/proc/self/maps"))
        #expect(maps.utf8.count > 4096)
        #expect(maps.hasSuffix("\n"))
        // The stack, the vdso or the vsyscall page is mapped last, past the first block.
        let last = try #require(maps.split(separator: "\n").last)
        #expect(["[stack]", "[vdso]", "[vvar]", "[vsyscall]"].contains { last.hasSuffix($0) })
        #expect(ProcFile.text("/proc/self/no-such-file") == nil)
    }
}
