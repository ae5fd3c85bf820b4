import LiveTestSupport

/// The seed for randomised tests: `LIVE_TEST_SEED` if set, else a fixed
/// default. Printed, with how to replay it, by each test that uses it.
func testSeed(_ name: String) -> UInt64 {
    TestSeed.current(name, default: 20_261_121).value
}
