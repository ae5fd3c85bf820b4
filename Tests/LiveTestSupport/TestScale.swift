// TestScale.swift — how many random cases a randomised test runs: one
// environment variable, LIVE_TEST_SCALE, for every suite.

import Foundation

/// The share of its random cases a randomised test runs.
///
/// `LIVE_TEST_SCALE` (a number in (0, 1]) scales the case counts of the
/// randomised suites; unset, they run in full. The sanitizer runs of
/// `Tools/test` set it: an instrumented build is several times slower, and
/// it checks the same code paths with fewer cases, while the plain run
/// keeps the full counts. A seed replays the same cases at any scale (the
/// cases of a smaller scale are the first ones of the full run).
package enum TestScale {
    /// The environment variable every randomised suite reads.
    package static let variable = "LIVE_TEST_SCALE"

    /// The scale: `LIVE_TEST_SCALE` when it is a number in (0, 1], else 1.
    package static var factor: Double {
        guard let text = ProcessInfo.processInfo.environment[variable], let value = Double(text),
              value > 0, value <= 1 else { return 1 }
        return value
    }

    /// `count` scaled, at least one.
    package static func count(_ count: Int) -> Int {
        max(1, Int((Double(count) * factor).rounded(.up)))
    }
}
