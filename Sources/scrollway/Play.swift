import ArgumentParser
import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayRaster
import ScrollwayReplay
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWaylandCore
import ScrollwayWestonHarness

struct Play: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a gesture script on a scene, offscreen (deterministic) or in headless weston.",
        discussion: """
            Offscreen, time is virtual: the same script gives the same trace, byte for byte, at any load.

            With --platform weston the app runs in a real window inside the rig and the script is \
            injected in real time with its timestamps; frame times differ, resting positions and \
            delegate calls do not (except that a key held down repeats there, as the compositor's \
            repeat_info says, and not offscreen).
            """)

    @Argument(help: "The script (JSON Lines; see docs/scripts-and-traces.md).")
    var script: String

    @Option(help: "The scene (see `scrollway scenes`).")
    var scene: SceneName = .list

    @Option(help: "Write the trace here (JSON Lines); '-' for standard output.")
    var trace: String?

    @Option(help: "Where screenshot events write NAME.png.")
    var screenshots: String = "."

    // Numeric options parse their value unconditionally, so `--refresh -1` is "expected 1–1000
    // Hz, got -1" rather than ArgumentParser's "missing value" (it reads -1 as an option).
    @Option(parsing: .unconditional, help: "Frames per second of the offscreen clock (1–1000).")
    var refresh: Double = 60

    @Option(parsing: .unconditional, help: "Window size as WxH, 1x1 to 16384x16384 (default: the scene's own).")
    var size: SizeArgument?

    @Option(parsing: .unconditional, help: "Device scale (offscreen), in (0, 8].")
    var scale: Double = 1

    @Option(help: "offscreen or weston.")
    var platform: PlatformChoice = .offscreen

    @Option(
        parsing: .unconditional,
        help: "Milliseconds to keep running after the last event while things move (≤ 3600000).")
    var settle: Double = 2000

    @Flag(
        help:
            "With --platform weston: finish with status 0 even when events fell behind their script times (the compositor stalled); it is still said on standard error."
    )
    var tolerateStalls = false

    @OptionGroup var settings: SettingOptions

    enum PlatformChoice: String, ExpressibleByArgument, CaseIterable {
        case offscreen, weston
    }

    func validate() throws {
        guard HeadlessPlayer.Options.refreshRange.contains(refresh) else {
            throw ValidationError("--refresh: expected a rate from 1 to 1000 Hz, got \(refresh)")
        }
        guard scale > 0, scale <= 8, scale.isFinite else {
            throw ValidationError("--scale: expected a scale in (0, 8], got \(scale)")
        }
        guard HeadlessPlayer.Options.settleRange.contains(settle) else {
            throw ValidationError("--settle: expected milliseconds from 0 to 3600000, got \(settle)")
        }
        if let size, let side = [size.width, size.height].first(where: { ($0 * scale).rounded(.up) > 32767 }) {
            throw ValidationError(
                "--size: \(size.defaultValueDescription) at --scale \(scale.messageText) is "
                    + "\((side * scale).rounded(.up).messageText) device pixels a side, more than a canvas holds (32767)"
            )
        }
        // The compositor sets weston's pace and scale: these would be ignored there, silently.
        if platform == .weston && refresh != 60 {
            throw ValidationError(
                "--refresh: the offscreen clock's rate; under --platform weston the compositor paces frames")
        }
        if platform == .weston && scale != 1 {
            throw ValidationError("--scale: offscreen only; weston's headless output is at scale 1")
        }
        if platform == .weston, let size, size.width.rounded() != size.width || size.height.rounded() != size.height {
            throw ValidationError(
                "--size: a compositor sizes windows in whole logical pixels, got \(size.defaultValueDescription)")
        }
        // Offscreen frames run on a virtual clock: nothing can stall, and the option would be
        // taken silently.
        if platform == .offscreen && tolerateStalls {
            throw ValidationError("--tolerate-stalls: under --platform weston only (offscreen nothing stalls)")
        }
    }

    @MainActor func run() async throws {
        try bootstrapLogging()
        // Everything is checked before anything runs: the whole script (read once, not kept),
        // what the platform can play, the settings as a whole, and the output paths.
        var parser = ScriptParser(file: script, isKeysym: { KeyCodes.keysym(named: $0) != nil })
        if platform == .weston {
            // What the seat's keymap cannot type is refused with the rest, before weston starts.
            nonisolated(unsafe) let keys = try KeyCodes()
            parser.seatRefusal = { SeatInjector.keymapRefusal(of: $0, keys: keys) }
        }
        let summary = try parser.check(
            file: script, maximumEvents: platform == .offscreen ? ScriptLimits.maximumOffscreenEvents : nil)
        let window = scene.scene.makeWindow(
            size: size?.value, scale: platform == .offscreen ? scale : 1)
        if let line = HeadlessPlayer.unsupportedLine(summary, in: window) {
            throw CommandError(
                "\(script):\(line): keyboard.show/hide needs an on-screen keyboard; scene '\(scene)' has none "
                    + "(try --scene keyboard)")
        }
        if platform == .offscreen, let (line, field, message) = HeadlessPlayer.oversizedResize(summary, scale: scale) {
            throw CommandError("\(script):\(line): field '\(field)': \(message) (--scale)")
        }
        if platform == .weston { try WestonTarget.checkSupported(summary, file: script) }
        let main = try settings.apply(to: window, scene: scene.rawValue)
        if let trace, trace != "-", script != "-", !isSpecialFile(trace), isSameFile(trace, script) {
            throw CommandError("--trace '\(trace)': is the script being played (the trace would overwrite it)")
        }
        let traceFile = try trace.map { try LineFile($0) }
        let shots: OutputDirectory
        do {
            shots = try OutputDirectory(
                screenshots, option: "--screenshots", needed: summary.firstLine["screenshot"] != nil)
        } catch {
            traceFile?.discard()
            throw error
        }
        for w in summary.warnings { warn("\(script): \(w)") }
        // Interrupted (SIGINT, SIGTERM, SIGHUP), the run leaves neither its partial trace, nor
        // the screenshot folders it made while still empty, nor its rig's folder, then ends by
        // the signal as before (sent to the process: the handler's own thread blocks it). Only
        // with descriptors to spare: the signal sources take some, and under a limit of a few
        // the script comes first.
        let partial = traceFile?.temporary
        let made = shots.made
        let inWeston = platform == .weston
        let stopping = Signalled()
        // Handled until the command returns; set inside the `do`, so that a refusal to handle
        // them is cleaned up as a failed run is.
        var signals: [DispatchSourceSignal] = []
        defer { for source in signals { source.cancel() } }
        do {
            signals =
                !ProcessResources.hasDescriptorsToSpare || (partial == nil && made.isEmpty && !inWeston)
                ? []
                : try onStopSignals(stopping) { signo in
                    // The rig's folder first: its removal may take a few tries while the main
                    // thread runs on, and with the partial trace gone by then a run ending
                    // meanwhile would fail to rename it, instead of ending by the signal.
                    if inWeston { WestonProcess.removeRuntimeDirectoriesOfThisProcess() }
                    if let partial { unlink(partial) }
                    shots.removeEmptyFolders()
                    endBySignal(signo)
                }
            let reader = try ScriptFileReader(path: script, parser: parser)
            reader.expect(summary)
            switch platform {
            case .offscreen:
                // A long play (a day-long script, a million events) says how far it is, after
                // two quiet seconds.
                let progress = Progress("play", total: summary.duration, quietFor: 2)
                var options = HeadlessPlayer.Options(
                    refresh: refresh, settle: settle, trace: traceFile?.output ?? .discard,
                    onScreenshot: { name, canvas in try shots.write(name, canvas) },
                    pixels: summary.firstLine["screenshot"] != nil)
                // In milliseconds for a short script (a tenth of a second would read 0.0 of 0.0 s).
                let inSeconds = summary.duration >= 10_000
                options.onProgress = { t in
                    progress.update(
                        t,
                        inSeconds
                            ? String(format: "script time %.1f of %.1f s", t / 1000, summary.duration / 1000)
                            : String(format: "script time %.0f of %.0f ms", t, summary.duration))
                }
                let player = try HeadlessPlayer(window: window, options: options)
                var source = reader
                try player.play(&source, duration: summary.duration)
                progress.finish()
            case .weston:
                let target = try WestonTarget(window: window, title: "Scrollway play")
                defer { target.stop() }
                try target.play(
                    reader, settle: settle, trace: traceFile?.output ?? .discard, onScreenshot: shots.write)
                if let stall = target.rig.pacer.stall {
                    if !tolerateStalls { throw CommandError(stall + " (--tolerate-stalls accepts it)") }
                    warn(stall)
                }
            }
            try traceFile?.finish()
        } catch {
            // What the handler took away (the rig's folder, the partial trace) can fail the run
            // before the handler ends it by the signal.
            stopping.holdIfStopping()
            traceFile?.discard()
            shots.removeEmptyFolders()
            throw error
        }
        let o = main.contentOffset + Point.zero  // + 0 turns -0.0 into 0.0
        let phase = main.phase
        if phase == .idle {
            StandardStream.error.say("main rests at contentOffset (\(o.x), \(o.y)), zoomScale \(main.zoomScale)\n")
        } else {
            // Not at rest when the settle ended: where it is now is not where it will rest.
            StandardStream.error.say(
                "main is still \(phase.rawValue) at contentOffset (\(o.x), \(o.y)), zoomScale \(main.zoomScale), when "
                    + "--settle's \(settle.messageText) ms end: a longer --settle shows where it comes to rest\n"
            )
        }
    }
}

/// A warning on standard error: the run goes on.
func warn(_ message: String) {
    StandardStream.error.say("scrollway: warning: \(message)\n")
}

/// A directory that screenshots go to, created and checked writable before the run, with each
/// picture written as it is taken (none is held until the end).
struct OutputDirectory {
    let path: String
    /// Says where each picture went ("screenshot PATH").
    let announce: (String) throws -> Void
    /// The folders it made, outermost first (an interrupted run removes those left empty).
    private(set) var made: [String] = []

    /// Removes the folders it made that are still empty, innermost first: a run that failed
    /// before its first picture leaves nothing behind.
    func removeEmptyFolders() {
        for folder in made.reversed() { rmdir(folder) }  // only an empty one goes
    }

    init(
        _ path: String, option: String, needed: Bool,
        announce: @escaping (String) throws -> Void = { StandardStream.error.say($0 + "\n") }
    ) throws {
        self.path = path
        self.announce = announce
        guard needed else { return }
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw CommandError("\(option) '\(path)': exists and is not a directory")
            }
        } else {
            do {
                made = try OutputFile.makeFolders(path)
            } catch {
                throw CommandError(
                    "\(option) '\(path)': cannot create the directory '\(error.folder)' (\(error.reason))")
            }
        }
        guard fm.isWritableFile(atPath: path) else {
            throw CommandError("\(option) '\(path)': the directory is not writable")
        }
    }

    func write(_ name: String, _ canvas: Canvas) throws {
        let file = URL(fileURLWithPath: path).appendingPathComponent("\(name).png")
        // Written beside and renamed: a full disk leaves no truncated picture under the name.
        try PNGDestination(file.path, option: "screenshot").write(try PNG.encode(canvas))
        // A name may hold invisible characters (a bidi override): shown escaped, as in messages.
        try announce("screenshot \(ScriptText.escaped(file.path, limit: .max))")
    }
}

/// Lines (a trace, a recorded script) written as the run goes, to a temporary file beside their
/// destination that becomes the destination only when the run succeeds ('-': standard output,
/// and a device or pipe such as /dev/null, as they come); or (`live`: the demo's trace, which
/// its help says is written as it runs) to the destination itself, line by line. Errors name
/// the option the path came from.
final class LineFile {
    let path: String
    let option: String
    private let handle: FileHandle
    /// The file written until the run succeeds (nil: the destination is written as it is).
    let temporary: String?
    private var pending: [UInt8] = []
    private var failure: Error?
    /// Each line goes out as it is written, to the destination itself (the demo's trace, which a
    /// reader follows while the demo runs), not in chunks to a file renamed at the end.
    private let live: Bool

    init(_ path: String, option: String = "--trace", live: Bool = false) throws {
        self.path = path
        self.option = option
        self.live = live
        guard !path.isEmpty else { throw CommandError("\(option) '': an empty path names no file") }
        if path == "-" {
            handle = FileHandle.standardOutput
            temporary = nil
            return
        }
        // Through a link to its target: the file renamed into place replaces the target.
        let url = URL(fileURLWithPath: OutputFile.destination(of: path))
        let temp = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(getpid()).partial"
        ).path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandError("\(option) '\(path)': is a directory")
        }
        if isSpecialFile(path) || live {
            // A device or a pipe (/dev/null, a FIFO a reader waits on) is written as it is:
            // renaming a file over it would replace the device itself. A live file is written in
            // place from the start (emptied first).
            do {
                handle = FileHandle(fileDescriptor: try OutputFile.openInPlace(path), closeOnDealloc: true)
            } catch {
                throw CommandError("\(option) '\(path)': cannot write it (\(error))")
            }
            temporary = nil
            return
        }
        guard FileManager.default.createFile(atPath: temp, contents: nil), let h = FileHandle(forWritingAtPath: temp)
        else {
            throw CommandError(
                "\(option) '\(path)': cannot create a file there (does the directory exist and can we write it?)")
        }
        handle = h
        temporary = temp
    }

    var output: TraceWriter.Output { .stream { [self] line in write(line) } }

    /// Queues one line (a newline is added); written out in 64 KiB chunks, or at once when live.
    func write(_ line: String) {
        pending.append(contentsOf: line.utf8)
        pending.append(0x0A)
        if live || pending.count >= 1 << 16 { flush() }
    }

    private func flush() {
        guard failure == nil, !pending.isEmpty else { return }
        do { try handle.write(contentsOf: pending) } catch { failure = error }
        pending.removeAll(keepingCapacity: true)
    }

    func finish() throws {
        flush()
        if let failure { throw CommandError("\(option) '\(path)': cannot write (\(ScriptText.reason(of: failure)))") }
        guard let temporary else { return }
        try? handle.close()
        if rename(temporary, OutputFile.destination(of: path)) != 0 {
            let reason = String(cString: strerror(errno))
            discard()
            throw CommandError("\(option) '\(path)': cannot write (\(reason))")
        }
    }

    func discard() {
        guard let temporary else { return }
        try? handle.close()
        unlink(temporary)
    }
}

/// Whether `a` and `b` name one existing file (the same device and inode, through links and
/// relative paths): an output that would overwrite an input.
func isSameFile(_ a: String, _ b: String) -> Bool {
    var sa = stat()
    var sb = stat()
    guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
}

/// Whether `path` exists and is something other than a regular file or a directory (a device, a
/// FIFO, a socket; through symbolic links): output goes into it as it is, never renamed over it.
func isSpecialFile(_ path: String) -> Bool {
    var st = stat()
    guard stat(path, &st) == 0 else { return false }
    let type = st.st_mode & S_IFMT
    return type != S_IFREG && type != S_IFDIR
}
