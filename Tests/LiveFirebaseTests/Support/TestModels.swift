// TestModels.swift — a model holding a child's raw value, and a seeded RNG.

import LiveModel
import LiveTestSupport

/// A model that keeps a child's value as it came.
struct RawChild: LiveModelProtocol, Equatable {
    let identifier: Key
    var dictionary: JSONValue

    init(identifier: Key, dictionary: JSONValue) {
        self.identifier = identifier
        self.dictionary = dictionary
    }

    mutating func update(with dictionary: JSONValue) { self.dictionary = dictionary }
}

extension SplitMix64 {
    /// Seeds for a randomized test: `LIVE_TEST_SEED` alone when set, else a
    /// few fixed ones and one new each run (every failure names its seed,
    /// to replay it with `LIVE_TEST_SEED`).
    static var testSeeds: [UInt64] {
        TestSeed.all("randomised", defaults: [1, 2, 3, 0xC0FFEE], fresh: true).map(\.value)
    }
}

/// The seed of a randomised test: `LIVE_TEST_SEED` from the environment, or
/// a new one; printed with how to replay it.
func testSeed(_ test: String = #function) -> UInt64 {
    TestSeed.current(test).value
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
