import ScrollwayWayland
import Testing

/// The example apps' command line (`WaylandApp.pngOutput`): none, or `--png FILE`, and
/// anything else refused with what it is, not taken as none (which opened the window on the
/// compositor instead).
@Suite struct AppArgumentsTests {
    func refusal(_ arguments: [String]) -> String {
        do {
            return "accepted \(String(describing: try WaylandApp.pngOutput(arguments)))"
        } catch {
            return "\(error)"
        }
    }

    @Test func noneOrPNGAndAFileAndNothingElse() throws {
        #expect(try WaylandApp.pngOutput([]) == nil)
        #expect(try WaylandApp.pngOutput(["--png", "out.png"]) == "out.png")
        #expect(refusal(["--png"]) == "--png needs the file to write the picture to")
        #expect(refusal(["--png", ""]) == "--png: an empty path names no file")
        #expect(refusal(["--pgn", "out.png"]) == "expected no arguments, or --png FILE; got '--pgn'")
        #expect(refusal(["--png", "a.png", "--png", "b.png"]) == "expected no arguments, or --png FILE; got '--png'")
        #expect(refusal(["out.png"]) == "expected no arguments, or --png FILE; got 'out.png'")
        #expect(refusal(["\u{1b}[2J"]) == "expected no arguments, or --png FILE; got '\\u{1b}[2J'")
    }
}
