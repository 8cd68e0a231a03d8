import ArgumentParser
import ScrollwayDemoScenes
import ScrollwayReplay
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews

/// The demo scenes by name, as an enumerable option: help lists them, shells complete them, and
/// a wrong name is refused by the parser with the list (a test keeps it in step with
/// `Scene.all`).
enum SceneName: String, CaseIterable, ExpressibleByArgument {
    case bounds, list, refresh, keyboard, zoom, paging, nested, form, grid, feed, files

    var scene: ScrollwayDemoScenes.Scene {
        guard let scene = ScrollwayDemoScenes.Scene.named(rawValue) else {
            preconditionFailure("scene '\(rawValue)' is listed in SceneName but not in Scene.all")
        }
        return scene
    }

    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// `--set key=value` (repeatable): properties of the scene's "main" scroll view, shared by
/// `play` and `demo`. Checked as a whole before anything runs, so a bad value never leaves a
/// half-configured view on screen.
struct SettingOptions: ParsableArguments {
    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Set a property of the scene's \"main\" scroll view (repeatable), e.g. --set bounces=false.",
            valueName: "key=value"))
    var settings: [String] = []

    func validate() throws {
        for s in settings where !s.contains("=") {
            throw ValidationError("--set: expected key=value, got \(ScriptText.quoted(s, quote: "'"))")
        }
    }

    /// The (key, value) pairs in order.
    var pairs: [(key: String, value: String)] {
        settings.map { s in
            let key = String(s.prefix { $0 != "=" })
            return (key, String(s.dropFirst(key.count + 1)))
        }
    }

    /// Applies the settings to `window`'s "main" scroll view, and returns it.
    @MainActor @discardableResult
    func apply(to window: Window, scene: String) throws -> ScrollView {
        guard let main = window.view(named: "main") as? ScrollView else {
            throw CommandError("scene '\(scene)' has no scroll view named main")
        }
        do {
            try main.setValues(pairs)
        } catch let e as ScrollView.SettingError {
            throw CommandError(e.description)
        }
        return main
    }
}
