// StreamBackoff.swift — reconnect delays: exponential backoff with jitter
// from a seeded generator, so that a stream's jitter can be replayed in tests.

import LiveModel

/// Exponential backoff: `base × 2^attempt`, capped, then jittered.
struct StreamBackoff: Sendable {
    /// The delay of the first attempt.
    var base: Duration
    /// The longest delay.
    let cap: Duration
    let jitter: StreamConfiguration.Jitter
    private var generator: SplitMix64

    init(base: Duration, cap: Duration, jitter: StreamConfiguration.Jitter, seed: UInt64) {
        self.base = base
        self.cap = cap
        self.jitter = jitter
        generator = SplitMix64(seed: seed)
    }

    /// The delay before reconnect attempt `attempt` (0 for the first
    /// failure).
    /// - Complexity: O(1).
    mutating func delay(attempt: Int) -> Duration {
        let factor = Double(1 << min(max(attempt, 0), 62))
        let ceiling = min(max(0, cap.inSeconds), max(0, base.inSeconds) * factor)
        let seconds: Double
        switch jitter {
        case .none: seconds = ceiling
        case .equal: seconds = ceiling / 2 + Double.random(in: 0...1, using: &generator) * ceiling / 2
        case .full: seconds = Double.random(in: 0...1, using: &generator) * ceiling
        }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}
