/// What can end a Wayland session, each saying what and where.
public enum WaylandError: Error, CustomStringConvertible, Equatable {
    /// No compositor to connect to (WAYLAND_DISPLAY and XDG_RUNTIME_DIR as given).
    case noCompositor(String)
    /// The compositor lacks a global we cannot work without.
    case missingGlobal(String)
    /// The compositor sent a protocol error: interface, code, text.
    case protocolError(interface: String, code: UInt32, message: String)
    /// The connection broke (the compositor went away).
    case connectionLost(String)
    /// Shared memory for buffers could not be had.
    case sharedMemory(String)
    /// The compositor sent a keymap we cannot use.
    case keymap(String)
    /// `pump(until:)` waited its whole timeout for something that did not happen.
    case waitTimedOut(String)

    public var description: String {
        switch self {
        case .noCompositor(let why): return "no Wayland compositor: \(why)"
        case .missingGlobal(let name): return "the compositor does not offer \(name), which Scrollway needs"
        case .protocolError(let interface, let code, let message):
            return "Wayland protocol error on \(interface) (code \(code)): \(message)"
        case .connectionLost(let why): return "the Wayland connection was lost: \(why)"
        case .sharedMemory(let why): return "shared memory: \(why)"
        case .keymap(let why): return "keymap: \(why)"
        case .waitTimedOut(let what): return "timed out waiting for \(what)"
        }
    }
}
