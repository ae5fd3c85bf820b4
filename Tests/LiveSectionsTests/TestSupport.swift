// TestSupport.swift — what the sectioned tests share: their seeded generator.
import LiveModel

/// The seeded generator of the sectioned tests, with the draw they use.
typealias Rng = SplitMix64

extension SplitMix64 {
    /// A number in `0..<n` (0 when `n` is 0).
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
}
