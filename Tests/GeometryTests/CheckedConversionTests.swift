import ScrollwayGeometry
import Testing

/// `Int(clamping:rounding:in:)`: any Double, NaN and infinities included, becomes an Int in the
/// range asked for, where the standard library's `Int(_:)` traps.
@Suite struct CheckedConversionTests {
    @Test(arguments: [
        (2.7, 2), (-2.7, -2), (1e300, Int.max), (-1e300, Int.min), (Double.infinity, Int.max),
        (-Double.infinity, Int.min), (Double.nan, Int.min), (9.3e18, Int.max), (-9.3e18, Int.min),
        (9.2e18, 9_200_000_000_000_000_000),
    ])
    func anyDoubleBecomesAnInt(value: Double, expected: Int) {
        #expect(Int(clamping: value) == expected)
    }

    @Test func roundingAndRangeAreTheCallers() {
        #expect(Int(clamping: 2.1, rounding: .up) == 3)
        #expect(Int(clamping: 2.5, rounding: .toNearestOrEven) == 2)
        #expect(Int(clamping: 1e-300, rounding: .up, in: 1...Int.max) == 1)
        #expect(Int(clamping: .infinity, rounding: .up, in: 1...Int.max) == Int.max)
        #expect(Int(clamping: .nan, in: 2...1000) == 2)
        #expect(Int(clamping: 5e6, in: 2...1000) == 1000)
        #expect(Int(clamping: -3, in: 0...6) == 0)
    }
}
