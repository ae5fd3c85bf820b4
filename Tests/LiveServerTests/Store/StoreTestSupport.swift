import LiveModel
@testable import LiveServer
import LiveTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The seed for randomised store tests: `LIVE_TEST_SEED` if set, else a
/// fixed default. Printed, with how to replay it, by each test that uses it.
func storeTestSeed(_ name: String) -> UInt64 {
    TestSeed.current(name, default: 20_260_307).value
}

/// Parses JSON text written in a test.
func storeJSON(_ text: String) -> JSONValue {
    do {
        return try JSONValue(parsing: text)
    } catch {
        preconditionFailure("bad JSON in a test: \(text): \(error)")
    }
}

/// Normalises JSON text written in a test into a node.
func storeNode(_ text: String) throws -> DataNode {
    try DataNode(json: storeJSON(text))
}

/// The error thrown by `body`, or `nil` when it does not throw.
func storeError<T>(_ body: () throws(StoreError) -> T) -> StoreError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
