/// Everything that can go wrong with the rig, each saying what and where.
public enum RigError: Error, CustomStringConvertible, Equatable {
    /// weston is not installed.
    case westonNotFound
    /// The input-injection module (.so) is not where the rig looked.
    case moduleNotFound([String])
    /// weston did not create its socket in time (or exited); its log is attached.
    case startupFailed(reason: String, log: String)
    /// The control connection failed or weston went away.
    case connectionLost(String)
    /// The compositor lacks a global the rig needs (the module did not load?).
    case missingGlobal(String)
    /// A capture failed (the reason is the compositor's).
    case captureFailed(String)
    /// A system call failed.
    case system(String)
    /// A compositor the rig was asked for is not installed; `install` says how to get it.
    case compositorNotFound(name: String, install: String)
    /// The rig's compositor cannot do what was asked (the sentence names the compositor).
    case notOffered(String)

    public var description: String {
        switch self {
        case .westonNotFound:
            return "weston is not installed (run Scripts/install-deps.sh)"
        case .moduleNotFound(let paths):
            return "the WestonTestInput module was not found; looked in: \(paths.joined(separator: ", ")) "
                + "(build it with `swift build --product WestonTestInput`, or set SCROLLWAY_WESTON_MODULE)"
        case .startupFailed(let reason, let log):
            return "the headless compositor failed to start: \(reason)\n--- the compositor's log ---\n\(log)"
        case .connectionLost(let what): return "lost the connection to the compositor: \(what)"
        case .missingGlobal(let name):
            return "weston does not offer \(name) (did the WestonTestInput module load? see the weston log)"
        case .captureFailed(let reason): return "capture failed: \(reason)"
        case .system(let what): return what
        case .compositorNotFound(let name, let install):
            return "\(name) is not installed (\(install), or run Scripts/install-deps.sh)"
        case .notOffered(let why): return why
        }
    }
}
