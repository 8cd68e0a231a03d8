import ArgumentParser
import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews
import ScrollwayWayland

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open a demo scene in a window on the running Wayland compositor.",
        discussion: """
            Touch, touchpad, wheel, mouse and keys all scroll (arrows, Page Up/Down, Space, Home/End).
            With no compositor running, try it headlessly inside the rig, for example:
              scrollway rig --size 390x844 --script tour.jsonl --screenshots out -- scrollway demo --fullscreen
            """)

    @Option(help: "The scene to show (see `scrollway scenes`).")
    var scene: String = "list"

    @Flag(help: "Ask for a fullscreen window (kiosks; kiosk-shell makes every window fullscreen anyway).")
    var fullscreen = false

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
            "Append one JSON line per committed frame to FILE: its time and the main thread's and the "
                + "process's CPU milliseconds since the last commit (what `scrollway bench --weston` reads).",
            valueName: "file"))
    var frameStats: String?

    func validate() throws {
        guard ScrollwayDemoScenes.Scene.named(scene) != nil else {
            let names = ScrollwayDemoScenes.Scene.all.map(\.name).joined(separator: ", ")
            throw ValidationError("--scene: no scene named '\(scene)' (scenes: \(names))")
        }
    }

    @MainActor func run() async throws {
        if headless {
            try runTour()
            return
        }
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
        let content = ScrollwayDemoScenes.Scene.named(scene)!.makeWindow()
        do {
            let stats = try frameStats.map { try FrameStatsWriter(path: $0) }
            let app = try WaylandApp(
                content: content, title: "Scrollway — \(scene)", fullscreen: fullscreen, presentMode: present,
                onCommit: stats.map { s in { s.record($0) } })
            try app.run()
        } catch let error as WaylandError {
            throw CommandError(error.description)
        }
    }

    /// Plays the tour in headless weston and writes the pictures.
    @MainActor private func runTour() throws {
        let dir = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        FileHandle.standardError.write(Data("scrollway demo --headless: playing the tour in a headless weston…\n".utf8))
        let shots = try Tour.play(size: Size(width: 390, height: 844))
        for (name, canvas) in shots {
            try Data(PNG.encode(canvas)).write(to: dir.appendingPathComponent("\(name).png"))
        }
        let sheet = dir.appendingPathComponent("contact-sheet.png")
        try Data(PNG.encode(try Tour.contactSheet(shots))).write(to: sheet)
        print("wrote \(shots.count) screenshots and \(sheet.path)")
    }
}
