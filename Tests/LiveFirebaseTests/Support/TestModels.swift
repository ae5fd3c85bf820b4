// TestModels.swift — a model holding a child's raw value, and a seeded RNG.

import LiveModel

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
    /// Seeds for a randomized test: a few fixed ones, and one new each run
    /// (every failure message names its seed, to replay it here).
    static var testSeeds: [UInt64] { [1, 2, 3, 0xC0FFEE, UInt64.random(in: 0...UInt64.max)] }
}

/// The seed of a randomised test: `LIVE_SEED` from the environment, or a new one.
func testSeed() -> UInt64 {
    if let text = ProcessInfoEnvironment.value("LIVE_SEED"), let seed = UInt64(text) { return seed }
    return UInt64.random(in: 1...UInt64.max)
}

enum ProcessInfoEnvironment {
    static func value(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        return String(cString: raw)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
