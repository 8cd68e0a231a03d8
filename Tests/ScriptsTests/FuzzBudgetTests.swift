import ScrollwayTestSupport
import Testing

/// The fuzzers' budget: their full count in an optimized build and when asked, a tenth (or the
/// share a fuzzer asks for) in a debug build, any count `SCROLLWAY_FUZZ` names; never none.
@Suite struct FuzzBudgetTests {
    @Test func fullWhenOptimizedOrAskedATenthInADebugBuild() {
        #expect(FuzzBudget.cases(1_429, setting: nil, optimized: true) == 1_429)
        #expect(FuzzBudget.cases(1_429, setting: nil, optimized: false) == 142)
        #expect(FuzzBudget.cases(1_429, setting: "full", optimized: false) == 1_429)
        #expect(FuzzBudget.cases(1_429, setting: "quick", optimized: true) == 142)
        #expect(FuzzBudget.cases(1_429, setting: "37", optimized: true) == 37)
        #expect(FuzzBudget.cases(5, setting: nil, optimized: false) == 1)
        // A setting that is no count falls back to the build's own choice.
        #expect(FuzzBudget.cases(1_429, setting: "0", optimized: false) == 142)
        #expect(FuzzBudget.cases(1_429, setting: "lots", optimized: true) == 1_429)
    }

    /// A fuzzer whose cases cost more in a debug build asks for a smaller quick share.
    @Test func aFuzzerCanAskForASmallerQuickShare() {
        #expect(FuzzBudget.cases(1_112, quickDivisor: 50, setting: nil, optimized: false) == 22)
        #expect(FuzzBudget.cases(1_112, quickDivisor: 50, setting: "quick", optimized: true) == 22)
        #expect(FuzzBudget.cases(1_112, quickDivisor: 50, setting: nil, optimized: true) == 1_112)
        #expect(FuzzBudget.cases(1_112, quickDivisor: 50, setting: "full", optimized: false) == 1_112)
        #expect(FuzzBudget.cases(20, quickDivisor: 50, setting: nil, optimized: false) == 1)
    }
}
