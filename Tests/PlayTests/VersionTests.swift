import Foundation
import ScrollwayTestSupport
import ScrollwayViews
import Testing

/// One version, said the same way by the command line, the library and the changelog.
@Suite struct VersionTests {
    @Test func theCommandTheLibraryAndTheChangelogAgree() async throws {
        let r = try await CommandRunner.run(["--version"])
        #expect(r.status == 0)
        #expect(r.out == ScrollwayVersion.string + "\n")
        let changelog = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../CHANGELOG.md").standardized
        let newest = try #require(
            try String(contentsOf: changelog, encoding: .utf8).split(separator: "\n").first { $0.hasPrefix("## ") })
        #expect(newest.hasPrefix("## \(ScrollwayVersion.string) "), "CHANGELOG's newest entry: \(newest)")
    }

    @Test func aSceneNameOutsideTheListIsRefusedWithTheList() async throws {
        let r = try await CommandRunner.run(["screenshot", "--scene", "nope", "-o", "/dev/null"])
        #expect(r.status == 64)
        #expect(r.err.contains("The value 'nope' is invalid for '--scene <scene>'"))
        let listed = r.err.split(separator: "\n").filter { $0.hasPrefix("  - ") }.map { $0.dropFirst(4) }
        #expect(
            listed == [
                "bounds", "list", "refresh", "keyboard", "zoom", "paging", "nested", "form", "grid", "feed", "files",
            ])
        // The option's values are exactly the scenes there are.
        let scenes = try await CommandRunner.run(["scenes"]).out.split(separator: "\n").map {
            $0.split(separator: " ")[0]
        }
        #expect(listed.map(String.init) == scenes.map(String.init))
    }

    /// Help reads cleanly in an 80-column terminal: no line runs over (the usage line lists
    /// every option and is ArgumentParser's to lay out), and examples are not split.
    @Test(arguments: [[], ["demo"], ["play"], ["scenes"], ["screenshot"], ["rig"], ["bench"]])
    func helpFitsEightyColumns(_ command: [String]) async throws {
        let r = try await CommandRunner.run(command + ["--help"])
        #expect(r.status == 0)
        let long = r.out.split(separator: "\n").filter { $0.count > 80 && !$0.hasPrefix("USAGE:") }
        #expect(long.isEmpty, "\(long)")
    }
}
