import ArgumentParser
import Foundation
import ScrollwayBench
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

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open a demo scene in a window on the running Wayland compositor.",
        discussion: """
            Touch, touchpad, wheel, mouse and keys all scroll (arrows, Page Up/Down, Space, Home/End).

            With no compositor running, `scrollway demo --headless` plays the built-in tour in its own \
            headless weston, or play any script into the demo inside the rig:
              scrollway rig --script docs/tour.jsonl --screenshots out -- scrollway demo

            When a scroll feels wrong, --record and --trace write down what happened; replay the \
            recording with `scrollway play FILE --scene SCENE --size WxH` (the demo prints the size).
            """)

    @Option(help: "The scene to show.")
    var scene: SceneName = .list

    @Flag(help: "Ask for a fullscreen window (kiosks; kiosk-shell makes every window fullscreen anyway).")
    var fullscreen = false

    @Flag(
        help: ArgumentHelp(
            "Kiosk mode: fullscreen, no cursor, the mouse drags the content with momentum, and the screen "
                + "is kept from blanking (zwp_idle_inhibit_manager_v1, where the compositor offers it)."))
    var kiosk = false

    @Flag(help: "No pointer cursor over the window (touch panels; --kiosk implies it).")
    var hideCursor = false

    @OptionGroup var settings: SettingOptions

    @Option(
        help: ArgumentHelp(
            "Write the input the window receives to FILE as a gesture script (compositor timestamps kept), "
                + "when the demo ends (window closed, Ctrl+C or SIGTERM).", valueName: "file"))
    var record: String?

    @Option(help: ArgumentHelp("Write the demo's trace (JSON Lines) to FILE as it runs.", valueName: "file"))
    var trace: String?

    @Flag(
        help:
            "No compositor needed: start a headless weston, play the built-in tour, write screenshots and a contact sheet."
    )
    var headless = false

    @Option(help: "Where --headless writes its screenshots and contact sheet.")
    var output: String = "scrollway-tour"

    @Option(
        help: ArgumentHelp(
            "How frames reach the window's buffers: fast (scrolled pixels are moved, not drawn again), "
                + "general (every changed pixel is composited again), flip-only (a benchmark floor: "
                + "draws nothing after the first frame).", valueName: "mode"))
    var present: PresentMode = .fast

    @Option(
        help: ArgumentHelp(
            "Write one JSON line per committed frame to FILE (emptied first): its time and the main "
                + "thread's and the process's CPU milliseconds since the last commit (what `scrollway "
                + "bench --weston` reads).",
            valueName: "file"))
    var frameStats: String?

    func validate() throws {
        if headless,
            kiosk || hideCursor || record != nil || trace != nil || frameStats != nil || !settings.settings.isEmpty
                || scene != .list
        {
            throw ValidationError(
                "--headless plays the built-in tour, which visits the scenes itself; --scene, --kiosk, --hide-cursor, "
                    + "--set, --record, --trace and --frame-stats are for the live demo")
        }
        if let record, record == trace {
            throw ValidationError("--record and --trace name the same file '\(record)'")
        }
    }

    @MainActor func run() async throws {
        try bootstrapLogging()
        if headless {
            try runTour()
            return
        }
        let content = scene.scene.makeWindow()
        // Settings are checked (and applied) before a window appears, and before the compositor
        // is looked for: a misspelt setting is named whether or not one runs. The files are
        // created next, so a bad path is reported before anything runs.
        let main = try settings.apply(to: content, scene: scene.rawValue)
        let env = ProcessInfo.processInfo.environment
        if env["WAYLAND_DISPLAY"] == nil && env["WAYLAND_SOCKET"] == nil {
            let runtime = env["XDG_RUNTIME_DIR"] ?? ""
            let fallback = runtime.isEmpty ? false : FileManager.default.fileExists(atPath: runtime + "/wayland-0")
            if !fallback {
                throw CommandError(
                    "no Wayland compositor is running (WAYLAND_DISPLAY is not set, and there is no "
                        + "$XDG_RUNTIME_DIR/wayland-0). Run the demo on a Wayland desktop, or try "
                        + "`scrollway demo --headless`: it starts its own headless weston, plays a tour and writes "
                        + "screenshots and a contact sheet.")
            }
        }
        if kiosk {
            // A kiosk's mouse is a finger: it drags, and a release flings; unless `--set` said
            // otherwise, which names the main scroll view's properties, these among them.
            let set = Set(settings.pairs.map(\.key))
            if !set.contains("allowsMouseDrag") { main.allowsMouseDrag = true }
            if !set.contains("mouseDragMomentum") { main.mouseDragMomentum = true }
        }
        let recordFile = try record.map { try LineFile($0, option: "--record") }
        let traceFile = try trace.map { try LineFile($0, option: "--trace", live: true) }
        // SIGINT, SIGTERM and SIGHUP end the loop, not the process, so the recording and the
        // trace are finished (a rig stops its clients with SIGTERM). Until the window is up (a
        // compositor can be silent for seconds at connect) there is no loop: a stop takes the
        // recording's partial file away and ends the process by its signal, and the main
        // thread, should the connection fail meanwhile, waits for it to.
        let window = StopTarget()
        let ending = Signalled()
        let partial = recordFile?.temporary
        // Handled until the command returns; set inside the `do`, so that a refusal to handle
        // them discards the files as a failure does.
        var signals: [DispatchSourceSignal] = []
        defer { for source in signals { source.cancel() } }
        // Set once the window is up: what it recorded is kept however the connection ends.
        var recorder: InputRecorder?
        do {
            signals = try onStopSignals { signo in
                if window.stop() { return }
                ending.set(signo)
                if let partial { unlink(partial) }
                endBySignal(signo)
            }
            let stats = try frameStats.map { try FrameStatsWriter(path: $0) }
            stats?.watchTiles(in: content)
            // The lines kept back are written however the loop ends.
            defer { stats?.finish() }
            let app = try WaylandApp(
                content: content, title: "Scrollway — \(scene)", fullscreen: fullscreen || kiosk, presentMode: present,
                onCommit: stats.map { s in { s.record($0, times: $1) } })
            app.window.hidesCursor = kiosk || hideCursor
            app.window.inhibitsIdle = kiosk
            if kiosk && !app.window.canInhibitIdle {
                StandardStream.error.say(
                    "scrollway demo --kiosk: the compositor offers no idle inhibition; the screen may blank\n")
            }
            // The first frame is drawn: times count from it, for the recording and the trace alike,
            // as an offscreen replay's do from its first frame.
            let origin = content.now
            recorder = recordFile.map { file in InputRecorder(window: content, origin: origin) { file.write($0) } }
            let tracer = traceFile.map { TraceRecorder(window: content, origin: origin, output: $0.output) }
            window.set { app.requestStop() }
            try app.run()
            recorder?.finish()
            withExtendedLifetime(tracer) {}
            try traceFile?.finish()
            try recordFile?.finish()
            stats?.finish()
            if let failure = stats?.failure, let frameStats {
                throw CommandError("--frame-stats '\(frameStats)': cannot write (\(failure))")
            }
            if let recorder, let record {
                let size = content.bounds.size
                // The recording ends with the last input; a fling it started glides on for
                // seconds, and the replay runs on while things move (up to --settle).
                StandardStream.error.say(
                    "scrollway demo: recorded \(recorder.eventCount) events in \(record); replay with "
                        + "`scrollway play \(record) --scene \(scene) --size \(size.width.messageText)x\(size.height.messageText) --settle 10000`\n"
                )
            }
        } catch let error as WaylandError {
            ending.holdIfStopping()
            // The compositor went away, or ended the connection with a protocol error: what was
            // recorded until then is what the recording is for (it had been thrown away), and
            // the live trace is kept with it.
            if let recorder, let recordFile, let record {
                recorder.finish()
                try? traceFile?.finish()
                do {
                    try recordFile.finish()
                    StandardStream.error.say(
                        "scrollway demo: kept the \(recorder.eventCount) events recorded until the connection ended in \(record)\n"
                    )
                } catch { StandardStream.error.say("scrollway demo: \(error)\n") }
            } else {
                recordFile?.discard()
                traceFile?.discard()
            }
            throw CommandError(error.description)
        } catch {
            ending.holdIfStopping()
            recordFile?.discard()
            traceFile?.discard()
            throw error
        }
    }

    /// Plays the tour in headless weston and writes the pictures.
    @MainActor private func runTour() throws {
        let dir = URL(fileURLWithPath: output)
        // Made and checked writable before the tour: a file in the way is named at once.
        let folder = try OutputDirectory(output, option: "--output", needed: true)
        // Interrupted, the tour leaves neither its rig's folder nor the output folders it made
        // while still empty, then ends by the signal.
        let stopping = Signalled()
        // Handled until the command returns; set inside the `do`, so that a refusal to handle
        // them removes the folders as a failure does.
        var signals: [DispatchSourceSignal] = []
        defer { for source in signals { source.cancel() } }
        do {
            signals =
                ProcessResources.hasDescriptorsToSpare
                ? try onStopSignals(stopping) { signo in
                    WestonProcess.removeRuntimeDirectoriesOfThisProcess()
                    folder.removeEmptyFolders()
                    endBySignal(signo)
                } : []
            StandardStream.error.say("scrollway demo --headless: playing the tour in a headless weston…\n")
            let shots = try Tour.play(size: Size(width: 390, height: 844))
            for (name, canvas) in shots {
                try PNGDestination(dir.appendingPathComponent("\(name).png").path).write(try PNG.encode(canvas))
            }
            let sheet = dir.appendingPathComponent("contact-sheet.png")
            try PNGDestination(sheet.path).write(try PNG.encode(try Tour.contactSheet(shots)))
            try say("wrote \(shots.count) screenshots and \(sheet.path)")
        } catch {
            // What the handler took away (the rig's folder, the output folder while still
            // empty) can fail the tour or its pictures before it ends the process.
            stopping.holdIfStopping()
            folder.removeEmptyFolders()
            throw error
        }
    }
}

extension PresentMode: ExpressibleByArgument {}

/// What a stop signal stops once there is something to stop (a window's loop), from the
/// handler's thread: nothing until `set`.
final class StopTarget: @unchecked Sendable {
    private let lock = NSLock()
    private var action: (@Sendable () -> Void)?

    func set(_ action: @escaping @Sendable () -> Void) { lock.withLock { self.action = action } }

    /// Stops it if it is set; false when there is nothing to stop yet.
    func stop() -> Bool {
        guard let action = lock.withLock({ self.action }) else { return false }
        action()
        return true
    }
}
