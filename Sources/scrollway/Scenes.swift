import ArgumentParser
import ScrollwayDemoScenes

struct Scenes: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the demo scenes, one line each.")

    func run() throws {
        try bootstrapLogging()
        let width = ScrollwayDemoScenes.Scene.all.map(\.name.count).max() ?? 0
        for scene in ScrollwayDemoScenes.Scene.all {
            let pad = String(repeating: " ", count: width - scene.name.count)
            try say("\(scene.name)\(pad)  \(scene.summary)")
        }
    }
}
