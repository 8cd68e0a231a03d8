import Foundation
import ScrollwayTestSupport
import Testing

/// `SCROLLWAY_TEST_TARGETS` (read by Package.swift): the manifest declares only the test targets
/// it names, and everything else as before, so CI's optimized fuzzing build compiles one test
/// target; a name that is not a test target stops the manifest, listing those there are.
@Suite struct TestTargetChoiceTests {
    /// `swift package dump-package` of this package with the variable set to `choice` (unset
    /// when nil), in a build folder of its own (the test run holds the package's).
    static func dump(choice: String?) async throws -> (status: Int32, out: String, err: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["SCROLLWAY_TEST_TARGETS"] = choice
        return try await CommandRunner.run(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            [
                "swift", "package", "--package-path", PlotCommandTests.repository.path, "--scratch-path",
                CommandRunner.temp("manifest-\(choice ?? "all")").path, "dump-package",
            ], environment: environment)
    }

    /// The targets of a dump, as (name, type) pairs.
    static func targets(_ json: String) throws -> [(name: String, type: String)] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let targets = try #require(object?["targets"] as? [[String: Any]])
        return targets.compactMap { t in
            guard let name = t["name"] as? String, let type = t["type"] as? String else { return nil }
            return (name, type)
        }
    }

    @Test func onlyTheNamedTestTargetsAreDeclared() async throws {
        let all = try await Self.dump(choice: nil)
        #expect(all.status == 0, "\(all.err)")
        let every = try Self.targets(all.out)
        #expect(every.filter { $0.type == "test" }.map(\.name).contains("FuzzTests"))
        #expect(every.filter { $0.type == "test" }.count > 10)

        let chosen = try await Self.dump(choice: "FuzzTests, LayoutTests")
        #expect(chosen.status == 0, "\(chosen.err)")
        let some = try Self.targets(chosen.out)
        #expect(Set(some.filter { $0.type == "test" }.map(\.name)) == ["FuzzTests", "LayoutTests"])
        // Every other target is still there.
        #expect(some.filter { $0.type != "test" }.map(\.name) == every.filter { $0.type != "test" }.map(\.name))
    }

    @Test(arguments: ["NoSuchTests", "ScrollwayViews", " , "])
    func aNameThatIsNoTestTargetStopsTheManifest(_ choice: String) async throws {
        let r = try await Self.dump(choice: choice)
        #expect(r.status != 0)
        if choice.contains(where: \.isLetter) {
            let message = "SCROLLWAY_TEST_TARGETS: no test target '\(choice)'; the test targets are GeometryTests,"
            #expect(r.err.contains(message))
            #expect(r.err.contains("FuzzTests"))
        } else {
            #expect(r.err.contains("SCROLLWAY_TEST_TARGETS is set but names no test target"))
        }
    }
}
