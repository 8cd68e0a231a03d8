import Foundation
import Glibc
import ScrollwayGeometry
import ScrollwayScripts

/// The progress of a long command, on standard error (standard output is for results): on a
/// terminal one line rewritten in place with a bar, otherwise a line per step. Quiet for
/// anything that ends within `quietFor` seconds, so short runs print nothing extra.
final class Progress {
    private let label: String
    private let total: Double
    private let quietFor: Double
    private let started = ContinuousClock.now
    private var lastShown: ContinuousClock.Instant?
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var lineOpen = false

    init(_ label: String, total: Double, quietFor: Double = 0) {
        self.label = label
        self.total = max(total, 1)
        self.quietFor = quietFor
    }

    /// Starts step `what`, `done` of `total` being finished (shown at once, past the quiet time).
    func step(_ done: Double, _ what: String) {
        guard elapsed(since: started) >= quietFor else { return }
        show(done, what)
    }

    /// A point in a long stretch of work: shown at most once a second.
    func update(_ done: Double, _ what: String) {
        guard elapsed(since: started) >= quietFor else { return }
        if let lastShown, elapsed(since: lastShown) < 1 { return }
        show(done, what)
    }

    /// Ends the progress line (on a terminal, the bar is cleared).
    func finish() {
        guard lineOpen else { return }
        StandardStream.error.say("\r\u{1b}[K")
        lineOpen = false
    }

    private func show(_ done: Double, _ what: String) {
        lastShown = .now
        let fraction = min(max(done / total, 0), 1)
        let percent = Int(clamping: fraction * 100, rounding: .down)
        if isTerminal {
            let width = 24
            let filled = Int(clamping: fraction * Double(width), rounding: .down)
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            StandardStream.error.say("\r\u{1b}[K\(label) \(bar) \(percent)% \(what)")
            lineOpen = true
        } else {
            StandardStream.error.say("\(label): \(percent)% \(what)\n")
        }
    }

    private func elapsed(since instant: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - instant
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
