import ScrollwayGeometry

/// A seeded generator (SplitMix64): the same stream on every run and every machine, so a
/// randomized test that fails can be replayed from its seed.
public struct SeededRandom: RandomNumberGenerator {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double in [lo, hi).
    public mutating func unit(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * Double(next() >> 11) / Double(UInt64(1) << 53)
    }

    /// A whole number in 0..<n (n > 0).
    public mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
