// The standard library's conversions from a floating-point number to an integer trap on NaN,
// on infinities and on values the integer cannot hold: a hostile script's 1e300 or a division by
// a zero-width span ended the process that way (issue 36). These declarations shadow them in
// every module of this package that imports this one (`package`: an app that embeds Scrollway
// keeps its own), deprecated, and the package builds its sources with that
// deprecation as an error (Package.swift's `checkedConversions`): a conversion goes through
// `init(clamping:rounding:in:)` or the standard library's `init(exactly:)`, which cannot trap.
// Their bodies keep the standard library's behaviour for code built without the error (tests).

extension Int {
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Double) { self = Int(exactly: source.rounded(.towardZero))! }
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Float) { self = Int(exactly: source.rounded(.towardZero))! }
}

extension Int8 {
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Double) { self = Int8(exactly: source.rounded(.towardZero))! }
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Float) { self = Int8(exactly: source.rounded(.towardZero))! }
}

extension Int16 {
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Double) { self = Int16(exactly: source.rounded(.towardZero))! }
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Float) { self = Int16(exactly: source.rounded(.towardZero))! }
}

extension Int32 {
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Double) { self = Int32(exactly: source.rounded(.towardZero))! }
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Float) { self = Int32(exactly: source.rounded(.towardZero))! }
}

extension Int64 {
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Double) { self = Int64(exactly: source.rounded(.towardZero))! }
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Float) { self = Int64(exactly: source.rounded(.towardZero))! }
}

extension UInt {
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Double) { self = UInt(exactly: source.rounded(.towardZero))! }
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Float) { self = UInt(exactly: source.rounded(.towardZero))! }
}

extension UInt8 {
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Double) { self = UInt8(exactly: source.rounded(.towardZero))! }
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Float) { self = UInt8(exactly: source.rounded(.towardZero))! }
}

extension UInt16 {
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Double) { self = UInt16(exactly: source.rounded(.towardZero))! }
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Float) { self = UInt16(exactly: source.rounded(.towardZero))! }
}

extension UInt32 {
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Double) { self = UInt32(exactly: source.rounded(.towardZero))! }
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Float) { self = UInt32(exactly: source.rounded(.towardZero))! }
}

extension UInt64 {
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Double) { self = UInt64(exactly: source.rounded(.towardZero))! }
    @available(
        *, deprecated, message: "traps on NaN and out of range: use init(clamping:rounding:in:) or init(exactly:)"
    )
    package init(_ source: Float) { self = UInt64(exactly: source.rounded(.towardZero))! }
}
