// LargeFirstEventTests.swift — a stream whose first put is larger than the
// listener's buffer limit: it is not taken for a reader that fell behind
// while it goes out, and what is written meanwhile follows it.

import LiveModel
import LiveServer
import Testing

@Suite("LiveServer streams with a first put larger than the buffer limit", .serialized)
struct LargeFirstEventTests {
    /// A location of `children` strings of `size` bytes each.
    static func bigValue(children: Int, size: Int) -> String {
        let blob = String(repeating: "x", count: size)
        return "{" + (0..<children).map { "\"k\($0)\": \"\(blob)\"" }.joined(separator: ",") + "}"
    }

    /// Writes 6 MB at /big and opens a stream on it whose reader takes the
    /// response head and nothing else yet: most of the first put waits in
    /// the server (past the kernel's buffers).
    static func unreadStream(_ p: Int) async throws -> EventReader {
        let put = try await request(p, "PUT", "/big.json?print=silent", body: bigValue(children: 300, size: 20_000),
                                    timeoutSeconds: 300)
        try #require(put.status == 204)
        let stream = try await EventReader(port: p, "/big.json", timeoutSeconds: 300)
        try #require(stream.status == 200)
        return stream
    }

    @Test("a write while a 6 MB first put is unread follows it on the same stream")
    func writeDuringFirstPut() async throws {
        try await withServer({ $0.listenerBufferLimit = 1 << 16 }) { server in
            let p = server.port
            let stream = try await Self.unreadStream(p)
            let write = try await request(p, "PUT", "/big/extra.json", body: #""small""#, timeoutSeconds: 300)
            try #require(write.status == 200)
            let first = try #require(try await stream.next(), "the stream ended during its first put")
            #expect(first.name == "put" && first.payload?.path == "/")
            #expect(first.payload?.data.objectValue?.count == 300, "the first put came whole")
            let next = try #require(try await stream.next(), "the stream ended after its first put")
            #expect(next.name == "put" && next.payload?.path == "/extra" && next.payload?.data == "small")
            #expect(server.listeners().count == 1)
        }
    }

    @Test("an event delayed by a fault set while a large first put is on its way follows the put")
    func delayedDuringFirstPut() async throws {
        try await withServer({ $0.listenerBufferLimit = 1 << 16 }) { server in
            let p = server.port
            let stream = try await Self.unreadStream(p)
            let id = try #require(server.listeners().first?.id)
            #expect(server.setFaults([.delay(milliseconds: 1)], listener: id))
            let write = try await request(p, "PUT", "/big/late.json", body: "3", timeoutSeconds: 300)
            try #require(write.status == 200)
            let first = try #require(try await stream.next(), "the stream ended during its first put")
            #expect(first.name == "put" && first.payload?.data.objectValue?.count == 300, "the first put came whole")
            let next = try #require(try await stream.next(), "the stream ended after its first put")
            #expect(next.payload?.path == "/late" && next.payload?.data == 3)
        }
    }

    @Test("keep-alives while a large first put is unread do not disconnect the stream")
    func keepAlivesDuringFirstPut() async throws {
        try await withServer({ $0.listenerBufferLimit = 1 << 16; $0.keepAliveInterval = .milliseconds(5) }) { server in
            let p = server.port
            let stream = try await Self.unreadStream(p)
            // Writes elsewhere do not reach this stream; they let keep-alives
            // pile up behind the unread first put.
            for i in 0..<20 { _ = try await request(p, "PUT", "/other/\(i).json", body: "1", timeoutSeconds: 300) }
            let first = try #require(try await stream.next(), "the stream ended during its first put")
            #expect(first.payload?.data.objectValue?.count == 300)
            _ = try await request(p, "PUT", "/big/after.json", body: "2", timeoutSeconds: 300)
            let next = try #require(try await stream.next(), "the stream ended after its first put")
            #expect(next.payload?.path == "/after")
        }
    }
}
