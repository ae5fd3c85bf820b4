// RESTSeededGenerator.swift — a reproducible random number generator for
// the randomized tests of the REST client and the query layer.

/// SplitMix64: the same seed gives the same sequence on every platform.
struct RESTSeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Seeds for a randomized test: a few fixed ones, and one new each run
    /// (every failure message names its seed, to replay it here).
    static var testSeeds: [UInt64] { [1, 2, 3, 0xC0FFEE, UInt64.random(in: 0...UInt64.max)] }
}
