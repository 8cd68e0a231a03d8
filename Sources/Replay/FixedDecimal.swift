import ScrollwayGeometry

/// Numbers with a fixed count of decimals, as bytes: what traces and the bench's frame records
/// write, in JSON's number syntax whatever the locale, without Foundation's formatter.
public enum FixedDecimal {
    /// Appends `v` with exactly `decimals` (at most 9) decimals, rounded to the nearest: the
    /// digits C's `%.*f` writes, but for a value within rounding of a half (rounded away from zero
    /// here, by its exact binary value there) and a negative value that rounds to zero (no sign
    /// here). A value too large for its decimals in 64 bits is written as Swift describes it
    /// (still a JSON number); a value that is not a number is written as `null`.
    public static func append(_ v: Double, decimals: Int, to out: inout [UInt8]) {
        guard v.isFinite else { return out.append(contentsOf: "null".utf8) }
        let places = min(max(decimals, 0), 9)
        var unit: Int64 = 1
        for _ in 0..<places { unit *= 10 }
        let scaled = v.magnitude * Double(unit)
        guard scaled < 9e18 else { return out.append(contentsOf: "\(v)".utf8) }
        let n = Int64(clamping: scaled, rounding: .toNearestOrAwayFromZero)
        if v < 0 && n != 0 { out.append(UInt8(ascii: "-")) }
        appendDigits(n / unit, minimum: 1, to: &out)
        guard places > 0 else { return }
        out.append(UInt8(ascii: "."))
        appendDigits(n % unit, minimum: places, to: &out)
    }

    /// `n` (not negative) in decimal, zero-padded to `minimum` digits, from the most
    /// significant digit down (a reversal of the appended slice, `out[start...].reverse()`,
    /// copied it).
    private static func appendDigits(_ n: Int64, minimum: Int, to out: inout [UInt8]) {
        var divisor: Int64 = 1
        var digits = 1
        while divisor <= n / 10 {
            divisor *= 10
            digits += 1
        }
        for _ in digits..<max(digits, minimum) { out.append(UInt8(ascii: "0")) }
        var rest = n
        while divisor > 0 {
            out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
