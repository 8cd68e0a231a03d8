import ArgumentParser
import Foundation
import ScrollwayGeometry
import ScrollwayPlot
import ScrollwayRaster
import ScrollwayReplay
import ScrollwayScripts

struct Plot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Plot a trace as a PNG: offset, velocity and phase over time for each scroll view, with its delegate calls marked.",
        discussion: """
            Reads the trace `scrollway play SCRIPT --trace FILE` writes ('-': standard input), one line at a time, and \
            draws one panel per scroll view, stacked over one time axis: the offset (y, and x when it moves) with the \
            resting range's edges dashed, the velocity between frames (px/s), a band coloured by phase, and each \
            delegate call (scrollViewDidScroll and scrollViewDidZoom left out) as a labelled line. A bad line is an \
            error naming the file, the line and the field, and nothing is written.
            """)

    @Argument(help: "The trace (JSON Lines, as `scrollway play --trace` writes it); '-' reads standard input.")
    var trace: String

    @Option(name: .shortAndLong, help: "Where to write the PNG ('-': standard output). Written whole or not at all.")
    var output: String

    @Option(
        parsing: .unconditional,
        help:
            "Picture size in pixels, as WxH (480x240 to 8192x8192; one too short for the views plotted is refused, saying so)."
    )
    var size: SizeArgument = SizeArgument(width: TracePlot.defaultSize.width, height: TracePlot.defaultSize.height)

    @Option(
        name: .customLong("view"),
        help: "Plot this scroll view (repeatable, in the order given; default: every view, in order of appearance).")
    var views: [String] = []

    // Parsed unconditionally, so `--from -5` is "expected ms ≥ 0, got -5", not a missing value.
    @Option(parsing: .unconditional, help: "Start of the time window in ms (default: the trace's first record).")
    var from: Double?

    @Option(parsing: .unconditional, help: "End of the time window in ms (default: the trace's last record).")
    var to: Double?

    @Option(help: "The title above the panels (default: the trace's file name).")
    var title: String?

    func validate() throws {
        if let from, !(from >= 0 && from.isFinite) {
            throw ValidationError("--from: expected milliseconds ≥ 0, got \(Self.number(from))")
        }
        if let to, !(to >= 0 && to.isFinite) {
            throw ValidationError("--to: expected milliseconds ≥ 0, got \(Self.number(to))")
        }
        if let from, let to, from >= to {
            throw ValidationError("--from \(Self.number(from)) must be before --to \(Self.number(to))")
        }
        let w = size.width
        let h = size.height
        guard TracePlot.widthRange.contains(w), TracePlot.heightRange.contains(h), w == w.rounded(), h == h.rounded()
        else {
            throw ValidationError(
                "--size: expected whole pixels from \(TracePlot.widthRange.lowerBound.messageText)x"
                    + "\(TracePlot.heightRange.lowerBound.messageText) to \(TracePlot.widthRange.upperBound.messageText)x"
                    + "\(TracePlot.heightRange.upperBound.messageText), got \(size.defaultValueDescription)")
        }
        for v in views where v.isEmpty { throw ValidationError("--view: expected a view name, got an empty one") }
    }

    /// A number as the user typed it, give or take: 100, not 100.0.
    static func number(_ v: Double) -> String {
        v.messageText
    }

    func run() throws {
        try bootstrapLogging()
        // The destination is checked before the trace is read, so a typo in -o fails at once.
        let destination = try PNGDestination(output)
        if output != "-", trace != "-", !isSpecialFile(output), isSameFile(output, trace) {
            throw CommandError("--output '\(output)': is the trace being plotted (the picture would overwrite it)")
        }
        let reader = try TraceFileReader(path: trace)
        let data = try TracePlotData.read(reader, views: views, from: from, to: to)
        let name = trace == "-" ? "standard input" : URL(fileURLWithPath: trace).lastPathComponent
        let plot = try TracePlot(data, size: size.value, title: title ?? name)
        try destination.write(PNG.encode(plot.render()))
        let window =
            "\(PlotScale.label(data.window.lowerBound, step: 1))–\(PlotScale.label(data.window.upperBound, step: 1)) ms"
        StandardStream.error.say(
            "plot \(output == "-" ? "(standard output)" : output): \(size.width.messageText)×\(size.height.messageText) px, "
                + "\(data.series.map { ScriptText.escaped($0.view) }.joined(separator: ", ")), \(window)\n")
    }
}

/// Where a picture goes: a file written beside its destination under a temporary name and
/// renamed into place once whole (an interrupted run leaves the old picture, never half a new
/// one), or standard output, or a device or pipe written as it is. Through a symbolic link, the
/// destination is the link's target (`OutputFile.destination`), as a shell's `>` writes:
/// renamed over the path itself, the picture replaced the link.
struct PNGDestination {
    let path: String
    /// What messages name it by (`--output`, `screenshot`).
    let option: String

    init(_ path: String, option: String = "--output") throws {
        self.path = path
        self.option = option
        guard !path.isEmpty else { throw CommandError("\(option) '': an empty path names no file") }
        guard path != "-" else { return }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandError("\(option) '\(path)': is a directory")
        }
        // The folder the picture is written into: the link's target's.
        let directory = URL(fileURLWithPath: OutputFile.destination(of: path)).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw CommandError("\(option) '\(path)': the directory '\(directory)' does not exist")
        }
        guard isDirectory.boolValue else {
            throw CommandError("\(option) '\(path)': '\(directory)' is a file, not a directory")
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw CommandError("\(option) '\(path)': the directory '\(directory)' is not writable")
        }
    }

    func write(_ bytes: [UInt8]) throws {
        if path == "-" {
            do { try StandardStream.output.write(bytes) } catch { throw CommandError(error.description) }
            return
        }
        do { try PNG.writeFile(bytes, to: OutputFile.destination(of: path)) } catch RasterError.fileWrite(_, let reason)
        {
            throw CommandError("\(option) '\(path)': cannot write (\(reason))")
        }
    }
}
