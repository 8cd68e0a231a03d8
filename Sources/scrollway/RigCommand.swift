import ArgumentParser
import Foundation
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayReplay
import ScrollwayRigs
import ScrollwayScripts
import ScrollwayWaylandCore
import ScrollwayWestonHarness
import Synchronization

struct RigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rig",
        abstract: "Run any Wayland client in a headless compositor and drive it with a gesture script.",
        discussion: """
            Starts a compositor headless (--compositor: weston with Scrollway's input-injection \
            module, kiosk-shell and pixman; sway, as an unprivileged user when run as root, input \
            through its virtual pointer and keyboard, text through a real input method; mutter, keys \
            and pointer through its remote-desktop D-Bus API, no captures; KWin, through its fake \
            input and ScreenShot2; phoc, the phone compositor, maximizing windows), prints \
            WAYLAND_DISPLAY=<socket> for clients, optionally starts COMMAND in it, then plays the \
            script (--script FILE, or JSON lines from stdin) in real time with the script's \
            timestamps. Script coordinates are surface-local: each places the client's one window \
            over the whole output, at (0, 0). `screenshot` events capture the output as NAME.png \
            in --screenshots. Events a compositor cannot take (touch on sway) are refused before \
            anything starts, naming the line and why.

            Example:
              scrollway rig --script taps.jsonl --screenshots out -- weston-simple-touch
              scrollway rig --compositor sway --script keys.jsonl -- foot
            """)

    @Option(help: "The compositor: \(Compositor.allCases.map(\.rawValue).joined(separator: ", ")).")
    var compositor: Compositor = .weston

    @Option(help: "Output size in pixels, as WxH, 1x1 to 16384x16384.")
    var size: SizeArgument = SizeArgument(width: 800, height: 600)

    @Option(help: "A script file (JSON Lines). Without it, lines are read from standard input as they come.")
    var script: String?

    @Option(help: "Where screenshot events write their PNGs.")
    var screenshots: String = "."

    @Option(parsing: .unconditional, help: "Milliseconds to keep running after the last event (≤ 3600000).")
    var settle: Double = 500

    @Option(
        parsing: .unconditional,
        help:
            "Seconds to wait for COMMAND's window before playing (0: do not wait; a client that draws only black cannot be told from none)."
    )
    var mapTimeout: Double = 5

    @Flag(
        help:
            "Finish with status 0 even when events fell behind their script times (a compositor or client that stalled); it is still said on standard error."
    )
    var tolerateStalls = false

    @Flag(
        help:
            "Let COMMAND write to the rig's standard output (by default its output goes to standard error, so a caller reading the rig's output never waits for the client)."
    )
    var clientStdout = false

    @Argument(parsing: .postTerminator, help: "A Wayland client to start inside the rig.")
    var command: [String] = []

    func validate() throws {
        guard (0...3_600_000).contains(settle) else {
            throw ValidationError("--settle: expected milliseconds from 0 to 3600000, got \(settle)")
        }
        guard (0...600).contains(mapTimeout) else {
            throw ValidationError("--map-timeout: expected seconds from 0 to 600, got \(mapTimeout)")
        }
    }

    func run() throws {
        try bootstrapLogging()
        var parser = ScriptParser(
            file: script ?? "<stdin>", isKeysym: { KeyCodes.keysym(named: $0) != nil })
        // What the seat's keymap cannot type is refused with the rest, before the compositor starts.
        nonisolated(unsafe) let keys = try KeyCodes()
        parser.seatRefusal = { SeatInjector.keymapRefusal(of: $0, keys: keys) }
        // A file is checked whole (and not kept) before the compositor even starts.
        var checked: ScriptSummary?
        if let script {
            let summary = try parser.check(file: script)
            checked = summary
            for (type, line) in summary.firstLine.sorted(by: { $0.value < $1.value }) {
                if let why = SeatInjector.refusal(of: type, on: compositor) {
                    throw CommandError("\(script):\(line): \(why)")
                }
            }
            for w in summary.warnings { warn("\(script): \(w)") }
        }
        let shots = try OutputDirectory(screenshots, option: "--screenshots", needed: true, announce: say)
        // The client is found before the compositor starts.
        if let exe = command.first {
            guard RigProcesses.executablePath(exe) != nil else {
                throw CommandError(RigProcesses.noSuchProgram(ScriptText.escaped(exe)))
            }
        }

        // SIGINT and SIGTERM stop the rig properly (clients, the compositor, the runtime
        // directory) and exit with 128 + the signal. After a SIGKILL the rig's watch of this
        // process ends the compositor (its clients go with it) and the next rig start sweeps the
        // runtime directory.
        let rig = try compositor.start(width: Int(clamping: size.width), height: Int(clamping: size.height))
        defer { rig.stop() }
        let signalled = Signalled()
        nonisolated(unsafe) let stoppable = rig
        // Handled until the command returns; set inside the `do`, so that a refusal to handle
        // them removes the folders as a failure does.
        var stopOnSignal: [DispatchSourceSignal] = []
        defer { stopOnSignal.forEach { $0.cancel() } }
        do {
            stopOnSignal = try onStopSignals(signalled) { signo in
                stoppable.stop()
                shots.removeEmptyFolders()
                Glibc.exit(128 + signo)
            }
            // Unbuffered, so a script reading our stdout sees the socket at once.
            try say("WAYLAND_DISPLAY=\(rig.socketPath)")
            if let dir = rig.clientEnvironment["XDG_RUNTIME_DIR"] { try say("XDG_RUNTIME_DIR=\(dir)") }

            var client: Process?
            if let exe = command.first {
                // The empty output, to tell the client's first frame from (weston's is black,
                // sway's grey). A rig that cannot capture (mutter's) cannot see the window come.
                let canSee = rig.missing(.capture) == nil
                if mapTimeout > 0, let why = rig.missing(.capture) {
                    warn(
                        "not waiting for \(ScriptText.quoted(exe, quote: "'"))'s window (\(why)): give the script's first event time for it"
                    )
                }
                let empty = mapTimeout > 0 && canSee ? try rig.capture() : nil
                client = try rig.launchClient(
                    exe, arguments: Array(command.dropFirst()), environment: [:],
                    to: clientStdout ? .inherit : .standardError)
                if let empty { try waitForFirstFrame(rig, client: client!, empty: empty) }
                // The client's reading is watched as events fall due: one that stops or hangs
                // leaves its input unread, and its screenshots would be frozen frames.
                rig.pacer.client = ClientBacklog(client: client!.processIdentifier, socketPath: rig.socketPath)
            }
            try rig.parkPointer()

            let player = RigPlayer(rig: rig, screenshots: shots)
            rig.pacer.begin()
            var last = 0.0
            func play(_ event: ScriptEvent) throws {
                if let client { try Self.checkAlive(client, before: "line \(event.line)", rig: rig) }
                try player.play(event)
                last = event.t
            }
            if let script {
                let reader = try ScriptFileReader(path: script, parser: parser)
                if let checked { reader.expect(checked) }
                while let event = try reader.next() { try play(event) }
            } else {
                // While no line comes, the compositor and the client are watched as in a long
                // wait: either may go while a script fed by hand waits for its next line.
                let lines = ScriptLineStream(fd: STDIN_FILENO, file: "<stdin>", parser: parser)
                while let event = try lines.next(
                    every: SeatInjector.livenessStep,
                    check: {
                        try rig.seat.roundtrip()
                        if let client { try Self.checkAlive(client, before: "line \(lines.lineCount + 1)", rig: rig) }
                    })
                {
                    for name in event.kind.summaryNames {
                        try SeatInjector.checkSupported(type: name, line: event.line, on: compositor)
                    }
                    try play(event)
                }
                for w in lines.state.endWarnings { warn("<stdin>: \(w)") }
            }
            try rig.seat.roundtrip()
            rig.pacer.waitForClient(at: last)
            // A script file's times are real time: events that came late (a stalled compositor
            // held the rig's roundtrip, a stalled client left them unread) did not play as
            // written. Lines from standard input come when they come.
            if script != nil, let stall = rig.pacer.stall {
                if !tolerateStalls { throw CommandError(stall + " (--tolerate-stalls accepts it)") }
                warn(stall)
            }
            try player.injector.sleepWatchingCompositor(settle / 1000)
            if let client { try Self.checkAlive(client, before: "the end of the script", rig: rig) }
        } catch {
            shots.removeEmptyFolders()
            // A signal's stop takes weston and the client away, which can surface here as an
            // error before the handler exits. The handler's status (128 + the signal) is the
            // truth, so wait for it rather than report what the stop itself caused.
            signalled.holdIfStopping()
            throw error
        }
    }

    /// A client that ended before the script did makes the run a failure, with its status;
    /// unless the compositor went first (the client's end follows from it), which `rig` names.
    static func checkAlive(_ client: Process, before: String, rig: (any CompositorRig)? = nil) throws {
        guard !client.isRunning else { return }
        try rig?.seat.roundtrip()
        throw CommandError(
            "the client \(RigProcesses.describeEnd(client)) before \(before) (the script did not finish)")
    }

    /// Waits until the client has shown something (a touch on no surface is dropped): any pixel
    /// of the output differs from `empty`. A client that exits or shows nothing in time fails
    /// the run.
    private func waitForFirstFrame(_ rig: any CompositorRig, client: Process, empty: Canvas) throws {
        let deadline = Deadline(in: mapTimeout)
        while !deadline.hasPassed {
            try Self.checkAlive(client, before: "showing a window")
            if try rig.capture().firstPixel(differingFrom: empty) != nil { return }
            RealTimePacer.sleep(0.02)
        }
        throw CommandError(
            "no window from '\(command[0])' after \(mapTimeout) s (the output stayed empty; "
                + "--map-timeout 0 plays without waiting)")
    }
}

/// A failure while running (not a bad argument): printed as "Error: …" without the usage.
struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Writes a line to standard output at once (no buffering).
func say(_ line: String) throws {
    do { try StandardStream.output.write(line + "\n") } catch { throw CommandError(error.description) }
}

/// Ends the process by `signo` after a stop handler has cleaned up, as the signal would have
/// without one (the status says it was the signal): its default restored and sent again, to
/// the process (the handler's own thread blocks it).
func endBySignal(_ signo: Int32) {
    signal(signo, SIG_DFL)
    kill(getpid(), signo)
}

/// Runs `handler` on a dispatch queue when SIGINT, SIGTERM or SIGHUP arrives, instead of the
/// default (which would end the process before it cleans up: files half-written, weston left
/// running; a closed terminal's SIGHUP left a play's partial trace and lost a demo's
/// recording). SIGHUP only when it was not ignored already (`nohup`: the run goes on).
/// The sources stop handling when cancelled or released. Returns once all are registered:
/// dispatch registers a source on its own thread after `resume` returns, and a signal that
/// came before found it ignored and was lost (a rig sent SIGTERM just after printing its
/// socket ran on, and the test waiting for it hung).
/// `signalled`, when given, is set before the handler runs.
///
/// The registration handler needs a thread of libdispatch's, which retries a thread the system
/// refuses forever: under a limit on processes reached meanwhile (by other processes of the
/// user too) the wait was a hang. While it waits it asks whether a thread can start, and when
/// none can it restores the signals' defaults and throws, naming the limit.
func onStopSignals(
    _ signalled: Signalled? = nil, _ handler: @escaping (Int32) -> Void
) throws -> [DispatchSourceSignal] {
    let registered = DispatchSemaphore(value: 0)
    var stops = [SIGINT, SIGTERM]
    var hangup = sigaction()
    // SIG_IGN is the handler 1.
    if sigaction(SIGHUP, nil, &hangup) == 0 && unsafeBitCast(hangup.__sigaction_handler, to: Int.self) != 1 {
        stops.append(SIGHUP)
    }
    let sources = stops.map { (signo: Int32) -> DispatchSourceSignal in
        signal(signo, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
        source.setEventHandler {
            signalled?.set(signo)
            handler(signo)
        }
        source.setRegistrationHandler { registered.signal() }
        source.resume()
        return source
    }
    for _ in sources {
        while registered.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            guard let refused = ProcessResources.threadRefusal() else { continue }
            for source in sources { source.cancel() }
            for signo in stops { signal(signo, SIG_DFL) }
            let why = ProcessResources.startRefusal(refused)
            throw CommandError("cannot start a thread to handle SIGINT and SIGTERM: \(why)")
        }
    }
    return sources
}

/// The signal a stop was asked with (0: none), set before its handler cleans up (`onStopSignals`).
///
/// A handler that ends the process takes away what the run made (a rig's folder, weston and
/// the client), which can make the run fail on the main thread meanwhile; ended first by that
/// error, the process said the compositor "failed to start" and exited 1 instead of by its
/// signal. The run's error path waits for the handler instead (`holdIfStopping`).
final class Signalled: Sendable {
    private let value = Atomic<Int32>(0)
    func set(_ signo: Int32) { value.store(signo, ordering: .releasing) }
    var signal: Int32 { value.load(ordering: .acquiring) }

    /// Never returns once a stop has begun: its handler ends the process, by the signal or with
    /// its status. A handler that does not end the process (a demo window asked to close) must
    /// not be paired with this.
    func holdIfStopping() {
        guard signal != 0 else { return }
        while true { pause() }
    }
}

/// Plays script events into the rig at their times: input through the seat, screenshots of the
/// output into the screenshot directory.
struct RigPlayer {
    let injector: SeatInjector
    let screenshots: OutputDirectory

    init(rig: any CompositorRig, screenshots: OutputDirectory) {
        injector = SeatInjector(rig: rig)
        self.screenshots = screenshots
    }

    /// Plays `e` when it is due (the rig's pacer, begun at the script's start).
    func play(_ e: ScriptEvent) throws {
        guard case .screenshot(let name) = e.kind else { return try injector.play(e) }
        try injector.waitUntilDue(e.t)
        let rig = injector.rig
        // The picture shows what the events before it did once the client has read them.
        rig.pacer.waitForClient(at: e.t)
        // Hide the pointer right before capturing: the compositor re-picks focus when
        // surfaces map, and a client's cursor would show in the picture. Not while the script
        // holds a button: the leave would end its drag (`SeatInjector.holdsAButton`).
        if !injector.holdsAButton { try rig.parkPointer() }
        try screenshots.write(name, rig.capture())
        rig.pacer.excuseUntilNow()
    }
}

extension Compositor: ExpressibleByArgument {}
