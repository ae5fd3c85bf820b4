// StreamLargePutTests.swift — a large first put through the real transport
// (STREAM_LARGE_CHILDREN sets its size; 400,000 children is about 23 MB).

import Foundation
@testable import LiveFirebase
import LiveModel
import LiveServer
import Testing

@Suite(.serialized) struct StreamLargePutTests {
    @Test("a put of several megabytes arrives whole and parsed")
    func largePut() async throws {
        let count = Int(ProcessInfo.processInfo.environment["STREAM_LARGE_CHILDREN"] ?? "") ?? 100_000
        try await withServer { server in
            let members = (0..<count).map { #""k\#($0)": {"name": "item \#($0) with some text", "n": \#($0)}"# }
            try await streamWrite(server, "PUT", "/big", "{" + members.joined(separator: ",") + "}")
            let stream = DatabaseStream(reference: try streamReference(server, "/big"), logger: streamQuietLogger)
            let start = ContinuousClock.now
            let messages = await stream.start()
            for await message in messages {
                guard case .put(let payload) = message else { continue }
                #expect(payload.data.childrenCount == count)
                break
            }
            let elapsed = ContinuousClock.now - start
            #expect(elapsed < .seconds(120), "\(count) children took \(elapsed)")
            await stream.stop()
        }
    }
}
