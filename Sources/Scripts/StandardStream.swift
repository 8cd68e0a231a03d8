import Glibc

/// Standard output and standard error, written with write(2). Foundation's non-throwing
/// `FileHandle.write(_:)` traps when a write fails; here a full device, a closed stream or a
/// reader that went away is an error the caller sees (`StandardStream.Failure`), and, once
/// `ignoreWriteSignals()` has run, never a signal.
public enum StandardStream: Int32, Sendable, CustomStringConvertible {
    case output = 1
    case error = 2

    public var description: String { self == .output ? "standard output" : "standard error" }

    /// A write that failed: which stream and why (errno's text).
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let stream: StandardStream
        public let reason: String
        public var description: String { "cannot write \(stream): \(reason)" }
    }

    /// Writes all of `bytes`, again after an interruption; throws when the stream takes no more.
    public func write(_ bytes: [UInt8]) throws(Failure) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(rawValue, $0.baseAddress! + done, $0.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(stream: self, reason: String(cString: strerror(errno)))
            }
            done += n
        }
    }

    public func write(_ text: String) throws(Failure) { try write(Array(text.utf8)) }

    /// Writes a message where a failure has nowhere to be told (standard error itself full or
    /// closed): the message is lost, the command goes on.
    public func say(_ text: String) { try? write(text) }

    /// Makes a reader that went away (a closed pipe) and a file past the size limit (`ulimit -f`)
    /// errors of the write (EPIPE, EFBIG) instead of the end of the process (SIGPIPE, SIGXFSZ).
    /// A command calls it once, before it writes.
    public static func ignoreWriteSignals() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
    }
}
