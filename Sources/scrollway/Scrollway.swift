import ArgumentParser

@main
struct Scrollway: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scrollway",
        abstract: "A scrolling toolkit for Wayland: scenes, screenshots and (soon) a live demo.",
        subcommands: [Scenes.self, Screenshot.self]
    )
}
