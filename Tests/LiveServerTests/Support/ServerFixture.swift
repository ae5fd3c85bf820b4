// ServerFixture.swift — a LiveServer started for one test.

import LiveModel
import LiveServer

/// Runs `body` against a fresh server on a free loopback port.
func withServer<T>(_ configure: (inout LiveServerConfiguration) -> Void = { _ in },
                   _ body: (LiveServer) async throws -> T) async throws -> T {
    var configuration = LiveServerConfiguration()
    configure(&configuration)
    let server = try await LiveServer.start(configuration)
    do {
        let result = try await body(server)
        try await server.shutdown()
        return result
    } catch {
        try? await server.shutdown()
        throw error
    }
}

/// Parses JSON text in a test (traps on a typo in the test itself).
func json(_ text: String) -> JSONValue {
    do { return try JSONValue(parsing: text) } catch { fatalError("bad JSON in a test: \(text): \(error)") }
}

/// Waits until `condition` holds, reading it every 10 ms, up to
/// `seconds` worth of reads: time the process spends stalled (a loaded
/// machine, a busy thread pool) does not count against it.
func eventually(_ seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
    for _ in 0..<Int(seconds * 100) {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
