import Foundation
import ScrollwayGeometry

/// How many random cases a seeded fuzzer runs. Its full count is what CI runs, in an optimized
/// build of the fuzzers' test target alone (`.ci/run`'s fuzzing step,
/// `SCROLLWAY_TEST_TARGETS=FuzzTests SCROLLWAY_FUZZ=full swift test -c release`);
/// the debug build a contributor's `swift test` makes runs a quick share of it (a tenth unless
/// the fuzzer says otherwise), the same seeds' first cases, so the edit-and-test loop stays
/// short and still exercises every path the fuzzer has. `SCROLLWAY_FUZZ` chooses: `full`,
/// `quick` (the share), or a whole number of cases.
public enum FuzzBudget {
    /// The cases to run of a fuzzer whose full count is `full` (at least one); its quick share
    /// is `full / quickDivisor`.
    public static func cases(_ full: Int, quickDivisor: Int = 10) -> Int {
        cases(
            full, quickDivisor: quickDivisor, setting: ProcessInfo.processInfo.environment["SCROLLWAY_FUZZ"],
            optimized: isOptimized)
    }

    /// The choice itself, for any setting and build. `quickDivisor` must be positive.
    public static func cases(_ full: Int, quickDivisor: Int = 10, setting: String?, optimized: Bool) -> Int {
        precondition(quickDivisor > 0, "a fuzzer's quick share is full / quickDivisor, not / \(quickDivisor)")
        let quick = max(1, full / quickDivisor)
        switch setting {
        case "full": return full
        case "quick": return quick
        case let s?: if let n = Int(s), n > 0 { return n }
        case nil: break
        }
        return optimized ? full : quick
    }

    /// Whether this build is optimized (`swift test -c release`).
    public static var isOptimized: Bool {
        #if DEBUG
            return false
        #else
            return true
        #endif
    }
}
