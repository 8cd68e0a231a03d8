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
    ///
    /// Always inlined: the rounding rule is a resilient standard-library enum, which a call
    /// passes and switches on through its value witnesses; inlined, a caller's literal rule
    /// folds away, and every edge of every rect placed on the device grid in every frame comes
    /// through here.
    @inlinable @inline(__always) public init(
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
        } else if let whole = Int64(exactly: r) {
            // Whole and strictly inside `range`, so inside `Self`. Through Int64's own
            // `init?(exactly: Double)`, one instruction after its checks: the generic
            // `Self(exactly:)` takes the Double apart bit by bit.
            self = Self(truncatingIfNeeded: whole)
        } else {
            // Only a UInt64 at or past 2⁶³ gets here.
            self = Self(exactly: r) ?? range.lowerBound
        }
    }
}
