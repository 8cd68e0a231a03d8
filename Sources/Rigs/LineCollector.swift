import Foundation

/// The lines a pipe carries (a child process's output), as they come, read on a thread of its
/// own so that the reader never blocks whoever watches them: an AT-SPI client's "ready" and its
/// events, streamed.
public final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    /// Starts reading `handle` until its end.
    public init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    lock.withLock { lines.append(line) }
                }
            }
        }
    }

    /// Every line so far.
    public func all() -> [String] { lock.withLock { lines } }

    /// How many lines so far.
    public var count: Int { lock.withLock { lines.count } }
}
