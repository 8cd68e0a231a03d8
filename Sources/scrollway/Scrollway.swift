import ArgumentParser
import Foundation
import Logging
import ScrollwayRaster
import ScrollwayScripts
import ScrollwayViews
import ScrollwayWaylandCore

/// The process's entry, synchronous so that it runs before libdispatch starts a thread: the
/// checks of the limits the runtime itself needs come first (a Swift `async` main is begun on
/// libdispatch's threads, and under a limit on processes it hung there before its first line).
/// Then it runs the command on the main actor, the main thread handed to libdispatch, and the
/// process ends there when the command returns or throws (`Scrollway.runToTheEnd`).
@main
enum ScrollwayEntry {
    static func main() {
        if let limit = ProcessResources.openFileLimitBelowTheFewest() {
            StandardStream.error.say(
                "scrollway: the limit on open files is \(limit) (ulimit -n): Scrollway needs at least "
                    + "\(ProcessResources.fewestOpenFiles)\n")
            Glibc.exit(1)
        }
        ProcessResources.shareMallocArenas()
        if let refusal = ProcessResources.threadsBelowTheFewest() {
            StandardStream.error.say("scrollway: \(refusal.message)\n")
            Glibc.exit(1)
        }
        if ProcessResources.hasDescriptorsToSpare { FcftLibrary.startInBackground() }
        Task { @MainActor in await Scrollway.runToTheEnd() }
        dispatchMain()
    }
}

/// The command line: its subcommands, version and help. `ScrollwayEntry` runs it, after
/// refusing limits too small for the runtime, capping the malloc arenas before any thread of
/// ours starts (an address-space limit is not spent on an arena for every thread), and
/// starting the font library on another thread before the options are parsed: the commands
/// that draw want a font soon after, and fontconfig's start overlaps theirs. Only with
/// descriptors to spare: under a limit of a few, fontconfig's files and the command's own would
/// compete for them, and the fonts start where they are first used.
struct Scrollway: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scrollway",
        abstract:
            "A scrolling toolkit for Wayland: a demo window, scenes, offscreen screenshots, a headless weston rig and a benchmark.",
        version: ScrollwayVersion.string,
        subcommands: [Demo.self, Play.self, Plot.self, Scenes.self, Screenshot.self, RigCommand.self, Bench.self]
    )
}

/// A command whose run is isolated to the main actor (the commands that draw, or run a rig's
/// clients), called there without leaving it.
protocol MainActorCommand {
    @MainActor func run() async throws
}

extension Bench: MainActorCommand {}
extension Demo: MainActorCommand {}
extension Play: MainActorCommand {}
extension Screenshot: MainActorCommand {}

extension Scrollway {
    /// Parses the arguments, runs the command and ends the process, all on the main actor, as
    /// `AsyncParsableCommand.main` would but without its return to a nonisolated function,
    /// which needs a thread of Swift's global pool: under a limit on processes reached during
    /// the run, once the pool's idle threads had gone, libdispatch retried a new one for ever
    /// and a command that had said why it stopped never exited (docs/decisions.md, Hostile
    /// input 0.15.36).
    @MainActor static func runToTheEnd() async -> Never {
        do {
            var command = try parseAsRoot(nil)
            if let isolated = command as? any MainActorCommand {
                try await isolated.run()
            } else {
                // Every asynchronous subcommand must be a `MainActorCommand`: what is left runs
                // synchronously (the root's own run shows the help), and an asynchronous one's
                // synchronous run would show the help instead of running.
                precondition(
                    !(command is any AsyncParsableCommand) || command is Scrollway,
                    "\(type(of: command)) is asynchronous but not a MainActorCommand")
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
        Glibc.exit(0)
    }
}

/// Sends the library's diagnostics (swift-log) to standard error at the level `SCROLLWAY_LOG`
/// names (trace, debug, info, notice, warning, error, critical; `off` silences them), warning by
/// default; standard output stays the command's results. Each command calls it once, first.
func bootstrapLogging() throws {
    // A reader that went away or a file size limit makes a write fail (EPIPE, EFBIG), reported,
    // instead of ending the process with a signal. (The malloc arenas are capped in `main`.)
    StandardStream.ignoreWriteSignals()
    let name = ProcessInfo.processInfo.environment["SCROLLWAY_LOG"] ?? "warning"
    let level: Logger.Level?
    if name == "off" {
        level = nil
    } else if let l = Logger.Level(rawValue: name) {
        level = l
    } else {
        let names = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
        throw ValidationError("SCROLLWAY_LOG: expected \(names) or off, got '\(name)'")
    }
    LoggingSystem.bootstrap { label in
        guard let level else { return SwiftLogNoOpLogHandler() }
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = level
        return handler
    }
}
