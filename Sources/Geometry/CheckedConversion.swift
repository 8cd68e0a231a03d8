extension Double {
    /// The number as a message shows it: whole numbers without ".0" (2000, not 2000.0), others
    /// and those beyond Int's range as Swift prints them (480.5, 1e+300): never converted with
    /// `Int(_:)`, which traps past ±2⁶³.
    public var messageText: String { Int(exactly: self).map(String.init) ?? String(self) }
}

extension FixedWidthInteger {
    /// `value` rounded by `rule` and clamped into `range`, NaN giving `range.lowerBound`: the
    /// one way a Double becomes an integer where the Double may be anything (a hostile trace's
    /// 1e300, a division by a zero-width span). The standard library's `Int(_: Double)` traps
    /// on NaN, infinities and values beyond the type's range, and is deprecated in every module
    /// that sees this one (UncheckedConversions.swift); `init(exactly:)` is the other safe way,
    /// for a value that must already be whole.
    @inlinable public init(
        clamping value: Double, rounding rule: FloatingPointRoundingRule = .towardZero,
        in range: ClosedRange<Self> = Self.min...Self.max
    ) {
        let r = value.rounded(rule)
        // Double(Int64.max) is 2⁶³, one past it: `r >= upper` catches everything a 64-bit
        // integer cannot hold; narrower types' bounds are exact.
        if r.isNaN || r <= Double(range.lowerBound) {
            self = range.lowerBound
        } else if r >= Double(range.upperBound) {
            self = range.upperBound
        } else {
            self = Self(exactly: r) ?? range.lowerBound
        }
    }
}
