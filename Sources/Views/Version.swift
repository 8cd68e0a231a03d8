/// The library's version, as `scrollway --version` prints it and CHANGELOG.md's newest entry
/// names it (a test keeps the two in step).
public enum ScrollwayVersion {
    public static let string = "0.15.50"
}
