import ArgumentParser
import DemoScenes
import Foundation
import Geometry
import Headless
import Raster
import Scripts
import Scrolling
import Views
import Wayland
import WestonHarness

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a gesture script on a scene, offscreen (deterministic) or in headless weston.",
        discussion: """
            Offscreen, time is virtual: the same script gives the same trace, byte for byte, at any load.
            With --platform weston the app runs in a real window inside the rig and the script is injected in
            real time with its timestamps; frame times differ, resting positions and delegate calls do not.
            """)

    @Argument(help: "The script (JSON Lines; see README).")
    var script: String

    @Option(help: "The scene (see `scrollway scenes`).")
    var scene: String = "list"

    @Option(help: "Write the trace here (JSON Lines); '-' for standard output.")
    var trace: String?

    @Option(help: "Where screenshot events write NAME.png.")
    var screenshots: String = "."

    @Option(help: "Frames per second of the offscreen clock.")
    var refresh: Double = 60

    @Option(help: "Window size as WxH (default: the scene's own).")
    var size: SizeArgument?

    @Option(help: "Device scale (offscreen).")
    var scale: Double = 1

    @Option(help: "offscreen or weston.")
    var platform: PlatformChoice = .offscreen

    @Option(help: "Milliseconds to keep running after the last event while things move.")
    var settle: Double = 2000

    @Option(
        name: .customLong("set"), help: "Set a property of the scene's \"main\" scroll view, key=value (repeatable).")
    var settings: [String] = []

    enum PlatformChoice: String, ExpressibleByArgument, CaseIterable {
        case offscreen, weston
    }

    func validate() throws {
        guard refresh > 0, refresh <= 1000, refresh.isFinite else {
            throw ValidationError("--refresh: expected a rate in (0, 1000] Hz, got \(refresh)")
        }
        guard scale > 0, scale <= 8, scale.isFinite else {
            throw ValidationError("--scale: expected (0, 8], got \(scale)")
        }
        guard settle >= 0, settle.isFinite else { throw ValidationError("--settle: expected milliseconds ≥ 0") }
        guard DemoScenes.Scene.named(scene) != nil else {
            throw ValidationError(
                "--scene: no scene named '\(scene)' (scenes: \(DemoScenes.Scene.all.map(\.name).joined(separator: ", ")))"
            )
        }
        for s in settings where !s.contains("=") {
            throw ValidationError("--set: expected key=value, got '\(s)'")
        }
    }

    func run() throws {
        // The whole script is checked before anything runs.
        let text: String
        do {
            text = try String(contentsOfFile: script, encoding: .utf8)
        } catch {
            throw CommandError("cannot read the script '\(script)': \(error.localizedDescription)")
        }
        let parsed = try ScriptParser(file: script, isKeysym: { KeyCodes.keysym(named: $0) != nil }).parse(text)
        let window = DemoScenes.Scene.named(scene)!.makeWindow(
            size: size?.value, scale: platform == .offscreen ? scale : 1)
        if let e = HeadlessPlayer.unsupported(parsed, in: window) {
            throw CommandError(
                "\(script):\(e.line): '\(e.kind.typeName)' needs an on-screen keyboard; scene '\(scene)' has none "
                    + "(try --scene keyboard)")
        }
        guard let main = window.view(named: "main") as? ScrollView else {
            throw CommandError("scene '\(scene)' has no scroll view named main")
        }
        for s in settings {
            let key = String(s.prefix { $0 != "=" })
            let value = String(s.dropFirst(key.count + 1))
            do { try main.setValue(value, forSetting: key) } catch let e as ScrollView.SettingError {
                throw CommandError(e.description)
            }
        }
        try FileManager.default.createDirectory(atPath: screenshots, withIntermediateDirectories: true)

        let traceText: String
        let shots: [String: Canvas]
        switch platform {
        case .offscreen:
            let player = try HeadlessPlayer(window: window, options: .init(refresh: refresh, settle: settle))
            try player.play(parsed)
            traceText = player.recorder.text
            shots = player.screenshots
        case .weston:
            (traceText, shots) = try WestonPlayer(window: window, settle: settle).play(parsed)
        }
        for (name, canvas) in shots.sorted(by: { $0.key < $1.key }) {
            let path = URL(fileURLWithPath: screenshots).appendingPathComponent("\(name).png")
            try Data(PNG.encode(canvas)).write(to: path)
            FileHandle.standardError.write(Data("screenshot \(path.path)\n".utf8))
        }
        if let trace {
            if trace == "-" {
                FileHandle.standardOutput.write(Data(traceText.utf8))
            } else {
                try traceText.write(toFile: trace, atomically: true, encoding: .utf8)
            }
        }
        let o = main.contentOffset + Point.zero  // + 0 turns -0.0 into 0.0
        FileHandle.standardError.write(
            Data("main rests at contentOffset (\(o.x), \(o.y)), zoomScale \(main.zoomScale)\n".utf8))
    }
}

/// Plays a script into the real app window inside the weston rig: injection in real time with
/// the script's timestamps, screenshots through the rig (cursor hidden), a trace of the app.
struct WestonPlayer {
    let window: Window
    let settle: Double

    func play(_ script: GestureScript) throws -> (String, [String: Canvas]) {
        if let e = script.events.first(where: {
            switch $0.kind {
            case .pinchBegin, .pinchUpdate, .pinchEnd, .windowResize: return true
            default: return false
            }
        }) {
            throw CommandError(
                "line \(e.line): '\(e.kind.typeName)' cannot be injected into weston 10 (no pointer-gesture or "
                    + "window-size injection); play it offscreen")
        }
        let rig = try WestonRig(width: Int(window.bounds.width), height: Int(window.bounds.height))
        defer { rig.stop() }
        let app = try WaylandApp(content: window, title: "Scrollway play", socket: rig.socketPath)
        try app.pump(for: 0.2)
        try rig.parkPointer()
        try app.pump(for: 0.05)
        let start = ProcessInfo.processInfo.systemUptime
        let recorder = TraceRecorder(window: window, origin: window.now)
        let player = RigPlayer(rig: rig, screenshots: "")
        var shots: [String: Canvas] = [:]
        for e in script.events {
            let due = start + e.t / 1000
            while ProcessInfo.processInfo.systemUptime < due {
                try app.step(maxWait: max(0, due - ProcessInfo.processInfo.systemUptime))
            }
            if case .screenshot(let name) = e.kind {
                try rig.parkPointer()
                try app.pump(for: 0.05)
                shots[name] = try rig.capture()
                continue
            }
            // The on-screen keyboard is the app's: shown and hidden in the app, not injected.
            if case .keyboardShow = e.kind {
                (window.view(named: "keyboard") as? OnScreenKeyboard)?.show()
                continue
            }
            if case .keyboardHide = e.kind {
                (window.view(named: "keyboard") as? OnScreenKeyboard)?.hide()
                continue
            }
            try player.inject(e)
            try rig.input.roundtrip()
            try app.step(maxWait: 0)
        }
        // Until nothing moves, or the settle time is over.
        let end = ProcessInfo.processInfo.systemUptime + settle / 1000
        while ProcessInfo.processInfo.systemUptime < end {
            try app.pump(for: 0.05)
            if !window.hasActiveAnimations && window.nextTimerDeadline == nil && !app.window.isWaitingForFrame { break }
        }
        return (recorder.text, shots)
    }
}
