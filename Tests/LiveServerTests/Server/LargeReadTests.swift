// LargeReadTests.swift — reads of a location larger than one chunk: the
// text is sent as it is written (chunked in HTTP/1.1, up to the close in
// HTTP/1.0), whole and in order with what follows on the connection.

import LiveModel
import LiveServer
import LiveTestSupport
import Testing

@Suite("LiveServer reads larger than one chunk", .serialized)
struct LargeReadTests {
    /// Writes about 2 MB at /big: 4,000 children of ~500 bytes.
    static func writeBig(_ p: Int) async throws -> JSONValue {
        let value = LargeFirstEventTests.bigValue(children: 4_000, size: 500)
        let put = try await request(p, "PUT", "/big.json?print=silent", body: value, timeoutSeconds: 300)
        try #require(put.status == 204)
        return json(value)
    }

    @Test("a GET larger than a chunk is sent chunked and whole; HEAD gives its length")
    func chunkedGET() async throws {
        try await withServer { server in
            let p = server.port
            let expected = try await Self.writeBig(p)
            let get = try await request(p, "GET", "/big.json", timeoutSeconds: 300)
            #expect(get.status == 200)
            #expect(get.headers["transfer-encoding"] == "chunked" && get.headers["content-length"] == nil)
            #expect(get.json == expected)
            let head = try await offThePool {
                let connection = try RawConnection(port: p, timeoutSeconds: 300)
                try connection.sendRequest("HEAD", "/big.json", headers: ["Connection": "close"])
                let (status, headers) = try connection.readHead()
                return (status, headers, try connection.readToEnd())
            }
            #expect(head.0 == 200 && head.2.isEmpty)
            #expect(head.1["content-length"] == String(get.body.count))
            // Exported, and as a query's window.
            let export = try await request(p, "GET", "/big.json?format=export", timeoutSeconds: 300)
            #expect(export.json == expected)
            let window = try await request(p, "GET", #"/big.json?orderBy="$key"&limitToFirst=3000"#, timeoutSeconds: 300)
            #expect(window.json?.objectValue?.count == 3_000)
            // A small read keeps its Content-Length.
            let small = try await request(p, "GET", "/big/k1.json")
            #expect(small.headers["content-length"] != nil && small.json == expected.objectValue?["k1"])
        }
    }

    @Test("pipelined on one connection, a large read and a small one are answered in order")
    func pipelined() async throws {
        try await withServer { server in
            let p = server.port
            let expected = try await Self.writeBig(p)
            let (big, small) = try await offThePool {
                let connection = try RawConnection(port: p, timeoutSeconds: 300)
                try connection.send(Array("GET /big.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /big/k7.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
                return (try connection.readResponse(), try connection.readResponse())
            }
            #expect(big.json == expected)
            #expect(small.json == expected.objectValue?["k7"])
        }
    }

    @Test("in HTTP/1.0 a large read ends with the connection; a request pipelined behind it is not handled")
    func http10() async throws {
        try await withServer { server in
            let p = server.port
            let expected = try await Self.writeBig(p)
            let response = try await offThePool {
                let connection = try RawConnection(port: p, timeoutSeconds: 300)
                try connection.send(Array(("GET /big.json HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n"
                    + "PUT /after.json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\n\r\n1").utf8))
                let (status, headers) = try connection.readHead()
                return (status, headers, try connection.readToEnd())
            }
            #expect(response.0 == 200 && response.1["content-length"] == nil)
            #expect(try JSONValue(parsingUTF8: response.2) == expected)
            #expect(try await request(p, "GET", "/after.json").json == .null)
        }
    }

    @Test("a reader that leaves in the middle of a large read leaves the server serving")
    func readerLeaves() async throws {
        try await withServer { server in
            let p = server.port
            let expected = try await Self.writeBig(p)
            for _ in 0..<3 {
                try await offThePool {
                    let connection = try RawConnection(port: p, timeoutSeconds: 300)
                    try connection.sendRequest("GET", "/big.json")
                    _ = try connection.readHead()
                    _ = try connection.readLine()
                }  // closed here, most of the body unread
            }
            #expect(try await request(p, "GET", "/big.json", timeoutSeconds: 300).json == expected)
        }
    }

    @Test("a stream's first put larger than a chunk arrives whole, then the writes made meanwhile")
    func chunkedFirstPut() async throws {
        try await withServer { server in
            let p = server.port
            let expected = try await Self.writeBig(p)
            let stream = try await EventReader(port: p, "/big.json", timeoutSeconds: 300)
            try #require(stream.status == 200)
            _ = try await request(p, "PUT", "/big/new.json", body: "1")
            let first = try #require(try await stream.next())
            #expect(first.name == "put" && first.payload?.path == "/" && first.payload?.data == expected)
            let next = try #require(try await stream.next())
            #expect(next.payload?.path == "/new" && next.payload?.data == 1)
            let ordered = try await EventReader(port: p, #"/big.json?orderBy="$key"&limitToLast=2500"#,
                                                timeoutSeconds: 300)
            let window = try #require(try await ordered.next())
            #expect(window.payload?.data.objectValue?.count == 2_500)
        }
    }
}
