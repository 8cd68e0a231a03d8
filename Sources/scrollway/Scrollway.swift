import ArgumentParser

@main
struct Scrollway: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scrollway",
        abstract: "A scrolling toolkit for Wayland: scenes, offscreen screenshots and a headless weston test rig.",
        subcommands: [Scenes.self, Screenshot.self, Rig.self]
    )
}
