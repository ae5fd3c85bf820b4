// StreamBackoff.swift — reconnect delays: exponential backoff with jitter
// from a seeded generator.

/// A small, fast, seedable generator (SplitMix64), so that a stream's
/// jitter can be replayed in tests.
struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Exponential backoff: `base × 2^attempt`, capped, then jittered.
struct StreamBackoff: Sendable {
    /// The delay of the first attempt.
    var base: Duration
    /// The longest delay.
    let cap: Duration
    let jitter: StreamConfiguration.Jitter
    private var generator: SeededGenerator

    init(base: Duration, cap: Duration, jitter: StreamConfiguration.Jitter, seed: UInt64) {
        self.base = base
        self.cap = cap
        self.jitter = jitter
        generator = SeededGenerator(seed: seed)
    }

    /// The delay before reconnect attempt `attempt` (0 for the first
    /// failure).
    /// - Complexity: O(1).
    mutating func delay(attempt: Int) -> Duration {
        let factor = Double(1 << min(max(attempt, 0), 62))
        let ceiling = min(max(0, Self.seconds(cap)), max(0, Self.seconds(base)) * factor)
        let seconds: Double
        switch jitter {
        case .none: seconds = ceiling
        case .equal: seconds = ceiling / 2 + Double.random(in: 0...1, using: &generator) * ceiling / 2
        case .full: seconds = Double.random(in: 0...1, using: &generator) * ceiling
        }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
