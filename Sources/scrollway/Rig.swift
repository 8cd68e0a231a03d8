import ArgumentParser
import Foundation
import Gestures
import Raster
import Scripts
import WestonHarness

struct Rig: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run any Wayland client in a headless weston and drive it with a gesture script.",
        discussion: """
            Starts weston (headless, kiosk-shell, pixman) with Scrollway's input-injection module, prints
            WAYLAND_DISPLAY=<socket> for clients, optionally starts COMMAND in it, then plays the script
            (--script FILE, or JSON lines from stdin) in real time with the script's timestamps. Script
            coordinates are surface-local: kiosk-shell places the client's fullscreen surface at (0, 0).
            `screenshot` events capture the output as NAME.png in --screenshots.

            Example:
              scrollway rig --size 600x500 --script taps.jsonl --screenshots out -- weston-simple-touch
            """)

    @Option(help: "Output size in pixels, as WxH.")
    var size: SizeArgument = SizeArgument(width: 800, height: 600)

    @Option(help: "A script file (JSON Lines). Without it, lines are read from standard input as they come.")
    var script: String?

    @Option(help: "Where screenshot events write their PNGs.")
    var screenshots: String = "."

    @Option(help: "Milliseconds to keep running after the last event.")
    var settle: Double = 500

    @Option(help: "Seconds to wait for COMMAND's window before playing.")
    var mapTimeout: Double = 5

    @Argument(parsing: .postTerminator, help: "A Wayland client to start inside the rig.")
    var command: [String] = []

    func validate() throws {
        guard settle >= 0, settle.isFinite else {
            throw ValidationError("--settle: expected milliseconds ≥ 0, got \(settle)")
        }
        guard mapTimeout > 0, mapTimeout.isFinite else { throw ValidationError("--map-timeout: expected seconds > 0") }
    }

    func run() throws {
        let parser = ScriptParser(
            file: script ?? "<stdin>", isKeysym: { KeyCodes.keysym(named: $0) != nil })
        // A file is validated whole before the compositor even starts.
        var parsed: GestureScript?
        if let script {
            let text: String
            do {
                text = try String(contentsOfFile: script, encoding: .utf8)
            } catch {
                throw ValidationError("--script: cannot read '\(script)': \(error.localizedDescription)")
            }
            parsed = try parser.parse(text)
            try parsed!.events.forEach(Self.checkSupported)
        }
        try FileManager.default.createDirectory(atPath: screenshots, withIntermediateDirectories: true)

        // On SIGINT/SIGTERM/SIGKILL the default action ends this process; the module's parent
        // watch then exits weston (its clients go with it) and the next rig start sweeps the
        // runtime directory.
        let rig = try WestonRig(width: Int(size.width), height: Int(size.height))
        defer { rig.stop() }
        // Unbuffered, so a script reading our stdout sees the socket at once.
        say("WAYLAND_DISPLAY=\(rig.socketPath)")
        say("XDG_RUNTIME_DIR=\(rig.process.runtimeDirectory.path)")

        if let exe = command.first {
            try rig.process.launchClient(exe, arguments: Array(command.dropFirst()), inheritOutput: true)
            try waitForFirstFrame(rig)
        }
        try rig.parkPointer()

        let player = RigPlayer(rig: rig, screenshots: screenshots)
        let start = Date()
        if let parsed {
            for event in parsed.events { try player.play(event, startedAt: start) }
        } else {
            var state = SequenceState()
            var number = 0
            while let line = readLine() {
                number += 1
                guard let event = try parser.parseLine(line, number: number, state: &state) else { continue }
                try Self.checkSupported(event)
                try player.play(event, startedAt: start)
            }
        }
        try rig.input.roundtrip()
        usleep(useconds_t(settle * 1000))
    }

    /// The rig injects seat input; events that need the app itself are refused up front.
    static func checkSupported(_ e: ScriptEvent) throws {
        switch e.kind {
        case .pinchBegin, .pinchUpdate, .pinchEnd, .keyboardShow, .keyboardHide, .windowResize:
            throw CommandError(
                "line \(e.line): '\(e.kind.typeName)' needs the app, not the compositor's seat "
                    + "(weston 10's rig has no pointer-gesture or window-size injection); use `scrollway play`")
        default:
            break
        }
    }

    /// Waits until the client has shown something (a touch on no surface is dropped).
    private func waitForFirstFrame(_ rig: WestonRig) throws {
        let deadline = Date().addingTimeInterval(mapTimeout)
        while Date() < deadline {
            let c = try rig.capture()
            let w = c.width
            let h = c.height
            let samples = [(w / 2, h / 2), (w / 4, h / 4), (3 * w / 4, 3 * h / 4)]
            if samples.contains(where: { c.pixel(x: $0.0, y: $0.1) != 0xFF00_0000 }) { return }
            usleep(20_000)
        }
        FileHandle.standardError.write(
            Data("scrollway rig: warning: no window after \(mapTimeout) s; playing anyway\n".utf8))
    }
}

/// A failure while running (not a bad argument): printed as "Error: …" without the usage.
struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Writes a line to standard output at once (no buffering).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

/// Injects script events into the rig at their times.
struct RigPlayer {
    let rig: WestonRig
    let screenshots: String

    func play(_ e: ScriptEvent, startedAt start: Date) throws {
        let wait = e.t / 1000 - Date().timeIntervalSince(start)
        if wait > 0 {
            try rig.input.flush()
            usleep(useconds_t(wait * 1_000_000))
        }
        try inject(e)
    }

    /// Injects one event now (screenshots capture into `screenshots`).
    func inject(_ e: ScriptEvent) throws {
        let i = rig.input
        let time = UInt32(min(e.t.rounded(), Double(UInt32.max)))
        switch e.kind {
        case .touchDown(let id, let x, let y): i.touchDown(id: Int32(id), x: x, y: y, time: time)
        case .touchMotion(let id, let x, let y): i.touchMotion(id: Int32(id), x: x, y: y, time: time)
        case .touchUp(let id): i.touchUp(id: Int32(id), time: time)
        case .touchFrame: i.touchFrame()
        case .touchCancel: i.touchCancel()
        case .pointerMotion(let x, let y): i.pointerMotion(x: x, y: y, time: time)
        case .pointerButton(let button, let pressed):
            let code: UInt32 = button == .left ? 0x110 : button == .right ? 0x111 : 0x112
            i.pointerButton(code, pressed: pressed, time: time)
        case .pointerAxis(let axis, let value, let source, let value120):
            i.axisSource(Self.sourceCode(source))
            let v120 = value120 ?? 0
            i.axis(
                axis == .vertical ? 0 : 1, value: value, discrete: Int32((v120 / 120).rounded(.towardZero)),
                value120: Int32(v120.rounded()), time: time)
        case .pointerAxisStop(let axis): i.axisStop(axis == .vertical ? 0 : 1, time: time)
        case .pointerFrame: i.pointerFrame()
        case .key(let name, let pressed):
            guard let stroke = rig.keys.stroke(forKeysymNamed: name) else {
                throw CommandError("line \(e.line): no key of the us keymap produces '\(name)'")
            }
            i.key(stroke.evdev, pressed: pressed, time: time)
        case .text(let text):
            for scalar in text.unicodeScalars {
                guard let stroke = rig.keys.stroke(for: scalar) else {
                    throw CommandError("line \(e.line): the us keymap cannot type '\(scalar)'")
                }
                if stroke.shift { i.key(KeyCodes.leftShift, pressed: true, time: time) }
                i.key(stroke.evdev, pressed: true, time: time)
                i.key(stroke.evdev, pressed: false, time: time)
                if stroke.shift { i.key(KeyCodes.leftShift, pressed: false, time: time) }
            }
        case .screenshot(let name):
            // Hide the pointer right before capturing: the compositor re-picks focus when
            // surfaces map, and a client's cursor would show in the picture.
            try rig.parkPointer()
            let path = URL(fileURLWithPath: screenshots).appendingPathComponent("\(name).png").path
            try Data(PNG.encode(rig.capture())).write(to: URL(fileURLWithPath: path))
            say("screenshot \(path)")
        case .pinchBegin, .pinchUpdate, .pinchEnd, .keyboardShow, .keyboardHide, .windowResize:
            try Rig.checkSupported(e)
        }
        try i.flush()
    }

    static func sourceCode(_ s: AxisSource) -> UInt32 {
        switch s {
        case .wheel: return 0
        case .finger: return 1
        case .continuous: return 2
        case .wheelTilt: return 3
        }
    }
}
