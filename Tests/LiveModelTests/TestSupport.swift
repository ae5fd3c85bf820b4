/// A small seeded generator (SplitMix64) so randomised tests can be replayed.
struct SeededGenerator: RandomNumberGenerator {
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

/// The seed for randomised tests: `LIVEMODEL_TEST_SEED` if set, else a
/// fixed default. Printed by each test that uses it.
func testSeed(_ name: String) -> UInt64 {
    var seed: UInt64 = 20_261_121
    if let text = getenvString("LIVEMODEL_TEST_SEED"), let value = UInt64(text) { seed = value }
    print("\(name): seed \(seed) (set LIVEMODEL_TEST_SEED to change)")
    return seed
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func getenvString(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
}
