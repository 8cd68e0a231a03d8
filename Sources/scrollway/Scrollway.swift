import ArgumentParser

@main
struct Scrollway: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scrollway",
        abstract:
            "A scrolling toolkit for Wayland: a demo window, scenes, offscreen screenshots, a headless weston rig and a benchmark.",
        subcommands: [Demo.self, Play.self, Plot.self, Scenes.self, Screenshot.self, RigCommand.self, Bench.self]
    )
}
