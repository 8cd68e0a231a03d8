import Foundation
import Glibc
import ScrollwayAtSpi
import ScrollwayDBus
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayRigs
import ScrollwayViews
import ScrollwayWestonHarness

/// The list fling with a screen reader attached: the window served to AT-SPI on a private
/// accessibility bus (at-spi2-core's launcher and registry) and a reader listening through
/// libatspi (Scripts/atspi-client.py, Orca's library) to the events Orca follows, asking each
/// event's source for its name and role as Orca does; the bridge answers between frames, inside
/// the timed turn of the loop. The same flings without it are the baseline.
@MainActor
enum AccessibilityRun {
    /// What the runs measured: main-thread ms per frame of each run without the window served
    /// and with it, taken in turn (off, on, off, on, …) so that the machine's drift and load
    /// fall on both alike.
    struct Result {
        var off: [FrameTimes] = []
        var on: [FrameTimes] = []
        /// Events the reader heard over all the runs with it.
        var eventsHeard = 0

        /// The median of the runs' means, as every figure of the bench takes it.
        static func median(_ runs: [FrameTimes]) -> Double {
            runs.isEmpty ? 0 : WestonBench.percentile(runs.map(\.mean), 0.5)
        }
    }

    /// The events the reader listens to: what Orca follows in a list.
    static let events = [
        "object:children-changed", "object:state-changed", "object:property-change:accessible-name",
        "object:active-descendant-changed", "object:selection-changed", "object:announcement",
    ]

    /// Why there can be no run with a reader here, nil when there can.
    static func unavailable() -> String? {
        guard FileManager.default.isExecutableFile(atPath: AccessibilityBus.launcher) else {
            return "at-spi2-core is not installed (Scripts/install-deps.sh installs it)"
        }
        guard client() != nil else {
            return "the AT-SPI client (Scripts/atspi-client.py) is neither in the current directory nor beside "
                + "this executable: bench from the checkout"
        }
        return nil
    }

    /// Scripts/atspi-client.py in the checkout.
    static func client() -> String? { WestonBench.checkoutFile("Scripts/atspi-client.py") }

    /// Rounds of the list fling without and with the window served, 3 (1 when quick), each run
    /// until the list is still (the reader hears the rows that changed then), with one reader
    /// listening throughout.
    static func measure(quick: Bool) throws -> Result {
        guard let script = client() else { throw BenchError("bench: no AT-SPI client") }
        let bus = try AccessibilityBus()
        defer { bus.stop() }
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        reader.arguments = [script, "listen"] + events + ["--count", "1000000", "--timeout", "3600", "--stream"]
        reader.environment = try bus.environment
        let out = Pipe()
        // Its standard input: closed when this process ends, however it ends, which ends it.
        let lifeline = Pipe()
        reader.standardInput = lifeline
        reader.standardOutput = out
        reader.standardError = FileHandle.nullDevice
        try reader.runWithSignalsUnblocked()
        defer {
            // SIGKILL: the listener keeps nothing a clean end would save.
            if reader.isRunning { kill(reader.processIdentifier, SIGKILL) }
            reader.waitUntilExit()
        }
        let lines = LineCollector(out.fileHandleForReading)
        let start = Date()
        while lines.all().first != "ready" {
            guard reader.isRunning, Date().timeIntervalSince(start) < 30 else {
                throw BenchError("bench: the AT-SPI reader did not start listening")
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        var result = Result()
        for _ in 0..<(quick ? 1 : 3) {
            result.off.append(try ListRun.measure(quick: quick, toRest: true))
            let window = Scene.list.makeWindow()
            let connection = try DBusConnection(address: bus.accessibilityAddress)
            let bridge = AtSpiBridge(connection: connection, applicationName: "scrollway-bench") { [window] in
                [window]
            }
            try bridge.register()
            defer { bridge.unregister() }
            let before = lines.count
            result.on.append(
                try ListRun.measure(quick: quick, window: window, toRest: true) { try connection.process() })
            // The reader prints each event as it hears it, asking the bridge about some: the
            // last ones may still be on their way.
            var heard = lines.count
            let settle = Date()
            while Date().timeIntervalSince(settle) < 2 {
                try connection.wait(timeout: 0.05)
                if lines.count == heard { break }
                heard = lines.count
            }
            result.eventsHeard += lines.count - before
        }
        return result
    }
}
