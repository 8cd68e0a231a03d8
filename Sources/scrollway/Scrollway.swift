import ArgumentParser

@main
struct Scrollway: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scrollway",
        abstract:
            "A scrolling toolkit for Wayland: a demo window, scenes, offscreen screenshots and a headless weston rig.",
        subcommands: [Demo.self, Play.self, Scenes.self, Screenshot.self, Rig.self]
    )
}
