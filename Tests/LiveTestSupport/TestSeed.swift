// TestSeed.swift — the seed of a randomised test: one environment
// variable, LIVE_TEST_SEED (a decimal UInt64), for every suite.

import Foundation
import LiveModel
import Testing

/// The seed a randomised test draws from, and how to replay its run.
///
/// Every randomised suite takes its seeds from here: `LIVE_TEST_SEED` when
/// it is set, else the test's default. The same seed draws the same values,
/// so a failure replays with the line its message carries:
/// `seed N (replay: LIVE_TEST_SEED=N swift test --filter Test)`.
package struct TestSeed: Sendable, Hashable, CustomStringConvertible {
    /// The environment variable every randomised suite reads.
    package static let variable = "LIVE_TEST_SEED"

    /// The seed.
    package let value: UInt64
    /// What `swift test --filter` takes to run the test again.
    package let test: String

    package init(_ value: UInt64, test: String) {
        self.value = value
        self.test = test
    }

    /// `LIVE_TEST_SEED` when set (and a decimal UInt64), else nil.
    package static var fromEnvironment: UInt64? {
        ProcessInfo.processInfo.environment[variable].flatMap { UInt64($0) }
    }

    /// The seed of the running test (`label` names the draw in the log):
    /// `LIVE_TEST_SEED` when set, else `fallback`, else a fresh random one.
    /// Printed, so the log of a failed run says how to replay it.
    package static func current(_ label: String, default fallback: UInt64? = nil) -> TestSeed {
        let filter = Test.current.map { String($0.name.prefix { $0 != "(" }) } ?? label
        let seed = TestSeed(fromEnvironment ?? fallback ?? UInt64.random(in: 0...UInt64.max), test: filter)
        print("\(label): \(seed)")
        return seed
    }

    /// The seeds of a test that runs several: only `LIVE_TEST_SEED` when
    /// set, else `defaults` (plus a fresh random one when `fresh`). The
    /// fresh one is printed, so that the log of a run that ends in a trap
    /// still says how to replay it (the defaults are in the test).
    package static func all(_ test: String, defaults: [UInt64], fresh: Bool = false) -> [TestSeed] {
        if let value = fromEnvironment { return [TestSeed(value, test: test)] }
        var seeds = defaults.map { TestSeed($0, test: test) }
        if fresh {
            let seed = TestSeed(UInt64.random(in: 0...UInt64.max), test: test)
            print("\(test), fresh: \(seed)")
            seeds.append(seed)
        }
        return seeds
    }

    /// A generator seeded with this seed.
    package var generator: SplitMix64 { SplitMix64(seed: value) }

    package var description: String {
        "seed \(value) (replay: \(Self.variable)=\(value) swift test --filter \(test))"
    }
}
