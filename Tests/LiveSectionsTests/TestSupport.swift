// TestSupport.swift — what the sectioned tests share: their seeds and their
// seeded generator.
import Foundation
import LiveModel
import LiveTestSupport

/// The seed of a randomised test, printed with how to replay it:
/// LIVE_TEST_SEED when set, else `fallback`, else a fresh one.
func testSeed(_ test: String, default fallback: UInt64? = nil) -> UInt64 {
    TestSeed.current(test, default: fallback).value
}

/// The seeded generator of the sectioned tests, with the draw they use.
typealias Rng = SplitMix64

extension SplitMix64 {
    /// A number in `0..<n` (0 when `n` is 0).
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
}
