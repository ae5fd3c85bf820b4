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
