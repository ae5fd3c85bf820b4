import LiveModel
@testable import LiveServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The seed for randomised store tests: `LIVESERVER_TEST_SEED` if set, else
/// a fixed default. Printed by each test that uses it.
func storeTestSeed(_ name: String) -> UInt64 {
    var seed: UInt64 = 20_260_307
    if let value = getenv("LIVESERVER_TEST_SEED"), let parsed = UInt64(String(cString: value)) {
        seed = parsed
    }
    print("\(name): seed \(seed) (set LIVESERVER_TEST_SEED to change)")
    return seed
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
