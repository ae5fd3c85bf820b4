// StreamLargePutTests.swift — a large first put through the real transport
// (STREAM_LARGE_CHILDREN sets its size; 400,000 children is about 23 MB).

import Foundation
@testable import LiveFirebase
import LiveModel
import LiveServer
import Testing

@Suite(.serialized) struct StreamLargePutTests {
    /// The stream's keep-alive timer runs on a test clock that never moves:
    /// however long a loaded machine takes to send and parse the put, the
    /// stream waits for it. The time limit catches a parse that never ends.
    @Test("a put of several megabytes arrives whole and parsed", .timeLimit(.minutes(10)))
    func largePut() async throws {
        let count = Int(ProcessInfo.processInfo.environment["STREAM_LARGE_CHILDREN"] ?? "") ?? 100_000
        try await withServer { server in
            let members = (0..<count).map { #""k\#($0)": {"name": "item \#($0) with some text", "n": \#($0)}"# }
            try await streamWrite(server, "PUT", "/big", "{" + members.joined(separator: ",") + "}")
            let stream = DatabaseStream(reference: try streamReference(server, "/big"), clock: TestClock(),
                                        logger: streamQuietLogger)
            let start = ContinuousClock.now
            let messages = await stream.start()
            for await message in messages {
                guard case .put(let payload) = message else { continue }
                #expect(payload.data.childrenCount == count)
                break
            }
            print("a put of \(count) children took \(ContinuousClock.now - start)")
            await stream.stop()
        }
    }
}
