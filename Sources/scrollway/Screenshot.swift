import ArgumentParser
import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews

struct Screenshot: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a scene offscreen (no compositor needed) and write it as a PNG.")

    @Option(help: "The scene to render (see `scrollway scenes`).")
    var scene: SceneName = .bounds

    // Parsed unconditionally, so that a negative offset (`--offset -10,-10`) is a value, not
    // an option ArgumentParser looks for.
    @Option(
        parsing: .unconditional,
        help: "The contentOffset of the scene's \"main\" scroll view, as X,Y (its bounds.origin).")
    var offset: PointArgument = PointArgument(Point.zero)

    @Option(help: "Window size in logical pixels, as WxH, 1x1 to 16384x16384 (default: the scene's own).")
    var size: SizeArgument?

    @Option(help: "Device scale (device pixels per logical pixel).")
    var scale: Double = 1

    @Option(name: .shortAndLong, help: "Where to write the PNG.")
    var output: String

    func validate() throws {
        guard scale > 0, scale <= 8, scale.isFinite else {
            throw ValidationError("--scale: expected a number in (0, 8], got \(scale)")
        }
    }

    @MainActor func run() async throws {
        try bootstrapLogging()
        let window = scene.scene.makeWindow(size: size?.value, scale: scale)
        if let main = window.view(named: "main") as? ScrollView {
            main.contentOffset = offset.value
        } else if let main = window.view(named: "main") {
            main.bounds.origin = offset.value
        }
        // Checked before drawing: a directory, a missing or unwritable one is named at once.
        let destination = try PNGDestination(output)
        let canvas = try Offscreen.render(window)
        try destination.write(try PNG.encode(canvas))
        // The picture's own size (a fractional size or scale rounds up to whole pixels), said on
        // standard error when standard output carries the picture.
        let line = "wrote \(output == "-" ? "(standard output)" : output) (\(canvas.width)×\(canvas.height) px)"
        if output == "-" { StandardStream.error.say(line + "\n") } else { try say(line) }
    }
}

/// `X,Y` on the command line.
struct PointArgument: ExpressibleByArgument {
    let value: Point
    init(_ value: Point) { self.value = value }
    init?(argument: String) {
        let parts = argument.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        // Within the same ±1e9 px as the `--set contentOffset` setting.
        let limit = ScrollView.maximumSettingLength
        guard parts.count == 2, let x = parts[0], let y = parts[1], abs(x) <= limit, abs(y) <= limit else { return nil }
        value = Point(x: x, y: y)
    }
    var defaultValueDescription: String { "\(value.x),\(value.y)" }
}

/// `WxH` on the command line.
struct SizeArgument: ExpressibleByArgument {
    let value: Size
    var width: Double { value.width }
    var height: Double { value.height }
    init(width: Double, height: Double) { value = Size(width: width, height: height) }
    /// As typed back: whole sides without ".0", others as they are (480.5x240, not 480x240).
    var defaultValueDescription: String { "\(value.width.messageText)x\(value.height.messageText)" }
    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x").map { Double($0) }
        guard parts.count == 2, let w = parts[0], let h = parts[1], w >= 1, h >= 1, w <= 16384, h <= 16384 else {
            return nil
        }
        value = Size(width: w, height: h)
    }
}
