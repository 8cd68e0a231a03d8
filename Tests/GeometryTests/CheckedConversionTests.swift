import ScrollwayGeometry
import Testing

/// `init(clamping:rounding:in:)`: any Double, NaN and infinities included, becomes an integer of
/// any width in the range asked for, where the standard library's `Int(_:)` traps.
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

    /// Every width: the bounds of the narrow types are exact in a Double, those of the 64-bit ones
    /// round up to 2⁶³ and 2⁶⁴ and still clamp.
    @Test func everyWidthClamps() {
        #expect(Int32(clamping: 3e9) == Int32.max && Int32(clamping: -3e9) == Int32.min)
        #expect(Int32(clamping: 2_147_483_647.9) == Int32.max)
        #expect(Int32(clamping: 2_147_483_646.9, rounding: .up) == Int32.max)
        #expect(UInt32(clamping: -1) == 0 && UInt32(clamping: .nan) == 0 && UInt32(clamping: 5e9) == UInt32.max)
        #expect(UInt64(clamping: 9e18) == 9_000_000_000_000_000_000)
        #expect(UInt64(clamping: 1.8e19) == 18_000_000_000_000_000_000)
        #expect(Int8(clamping: -100.5, rounding: .down) == -101 && Int8(clamping: -128.5) == -128)
        #expect(UInt64(clamping: 1.85e19) == UInt64.max && UInt64(clamping: .infinity) == UInt64.max)
        #expect(Int64(clamping: 9.3e18) == Int64.max && Int64(clamping: -9.3e18) == Int64.min)
        #expect(UInt8(clamping: 255.5, rounding: .toNearestOrAwayFromZero) == 255)
        #expect(Int16(clamping: 12.5, rounding: .down, in: -3...10) == 10)
    }
}
