// StreamTests.swift — streams over HTTP: the first put, put and patch for
// writes at, above and below the location, query windows, keep-alives,
// many listeners, slow listeners, cancel and auth_revoked.

import LiveModel
import LiveServer
import Testing

@Suite("LiveServer streams", .serialized)
struct StreamTests {
    @Test("first a put at / with the value, then put and patch events for every change under the path")
    func events() async throws {
        try await withServer { server in
            let p = server.port
            _ = try await request(p, "PUT", "/room/items.json", body: #"{"a": 1}"#)
            let stream = try await EventReader(port: p, "/room/items.json")
            #expect(stream.status == 200 && stream.headers["content-type"] == "text/event-stream")
            var e = try #require(try await stream.next())
            #expect(e.name == "put" && e.payload?.path == "/" && e.payload?.data == json(#"{"a": 1}"#))
            _ = try await request(p, "PUT", "/room/items/b.json", body: #"{"t": "x"}"#)
            e = try #require(try await stream.next())
            #expect(e.name == "put" && e.payload?.path == "/b" && e.payload?.data == json(#"{"t": "x"}"#))
            _ = try await request(p, "PATCH", "/room/items.json", body: #"{"b/t": "y", "c": 3}"#)
            e = try #require(try await stream.next())
            #expect(e.name == "patch" && e.payload?.path == "/" && e.payload?.data == json(#"{"b/t": "y", "c": 3}"#))
            _ = try await request(p, "PATCH", "/room.json", body: #"{"items/d": 4, "other": 1}"#)
            e = try #require(try await stream.next())
            #expect(e.name == "patch" && e.payload?.path == "/" && e.payload?.data == json(#"{"d": 4}"#))
            _ = try await request(p, "DELETE", "/room/items/a.json")
            e = try #require(try await stream.next())
            #expect(e.name == "put" && e.payload?.path == "/a" && e.payload?.data == .null)
            _ = try await request(p, "PUT", "/room.json", body: #"{"items": {"z": 0}}"#)
            e = try #require(try await stream.next())
            #expect(e.name == "put" && e.payload?.path == "/" && e.payload?.data == json(#"{"z": 0}"#))
            _ = try await request(p, "PUT", "/elsewhere.json", body: "1")
            _ = try await request(p, "PUT", "/room/items/z.json", body: "5")
            e = try #require(try await stream.next())
            #expect(e.payload?.path == "/z" && e.payload?.data == 5, "a write elsewhere must not be told")
        }
    }

    @Test("a query stream tells the children entering, leaving and changing in the window")
    func queryWindow() async throws {
        try await withServer { server in
            let p = server.port
            _ = try await request(p, "PUT", "/s.json", body: #"{"a": {"n": 1}, "b": {"n": 2}, "c": {"n": 3}}"#)
            let stream = try await EventReader(port: p, "/s.json?orderBy=%22n%22&limitToLast=2")
            var e = try #require(try await stream.next())
            #expect(e.payload?.data == json(#"{"b": {"n": 2}, "c": {"n": 3}}"#))
            _ = try await request(p, "PUT", "/s/a/n.json", body: "9")  // a enters, b leaves
            e = try #require(try await stream.next())
            #expect(e.name == "patch" && e.payload?.data == json(#"{"a": {"n": 9}, "b": null}"#))
            _ = try await request(p, "PUT", "/s/c/t.json", body: #""x""#)  // c changes inside the window
            e = try #require(try await stream.next())
            #expect(e.name == "put" && e.payload?.path == "/c" && e.payload?.data == json(#"{"n": 3, "t": "x"}"#))
            _ = try await request(p, "PUT", "/s/d.json", body: #"{"n": 0}"#)  // below the window: nothing
            _ = try await request(p, "DELETE", "/s/c.json")  // c leaves, b slides back in
            e = try #require(try await stream.next())
            #expect(e.payload?.data == json(#"{"b": {"n": 2}, "c": null}"#))
        }
    }

    @Test("keep-alive at the configured interval; format=export streams carry priorities")
    func keepAliveAndExport() async throws {
        try await withServer({ $0.keepAliveInterval = .milliseconds(100) }) { server in
            _ = try await request(server.port, "PUT", "/k.json", body: #"{".value": 1, ".priority": 5}"#)
            let stream = try await EventReader(port: server.port, "/k.json?format=export")
            #expect(try await stream.next()?.payload?.data == json(#"{".value": 1, ".priority": 5}"#))
            let e = try #require(try await stream.next(skippingKeepAlives: false))
            #expect(e.name == "keep-alive" && e.data == "null")
        }
    }

    @Test("100 listeners each get every event of 200 writes, in order")
    func manyListeners() async throws {
        try await withServer { server in
            var streams: [EventReader] = []
            for _ in 0..<100 { streams.append(try await EventReader(port: server.port, "/n.json")) }
            for stream in streams { #expect(try await stream.next()?.payload?.data == .null) }
            for i in 0..<200 { _ = try await request(server.port, "PUT", "/n/\(i % 7).json", body: "\(i)") }
            for stream in streams {
                let events = try await stream.next(200)
                try #require(events.count == 200, "the stream ended after \(events.count) events")
                for (i, e) in events.enumerated() {
                    guard e.payload?.path == "/\(i % 7)", e.payload?.data == .number(Double(i)) else {
                        Issue.record("event \(i): \(e)"); return
                    }
                }
            }
        }
    }

    @Test("a listener that stops reading is disconnected past its buffer; writes and other listeners go on")
    func slowListener() async throws {
        try await withServer({ $0.listenerBufferLimit = 1 << 16 }) { server in
            let p = server.port
            let slow = try await EventReader(port: p, "/big.json")
            let fast = try await EventReader(port: p, "/big.json")
            _ = try await fast.next()
            _ = try await slow.next()
            let blob = String(repeating: "x", count: 20_000)
            for i in 0..<300 {
                let r = try await request(p, "PUT", "/big/\(i).json", body: "\"\(blob)\"")
                guard r.status == 200 else { Issue.record("write \(i) failed: \(r.status)"); return }
                #expect(try await fast.next()?.payload?.path == "/\(i)")
            }
            #expect(await eventually { server.listeners().count == 1 }, "the slow listener is let go")
            // It can reconnect and resync: the first put holds everything.
            let again = try await EventReader(port: p, "/big.json")
            let first = try await again.next()
            #expect(first?.payload?.data.arrayValue?.count == 300, "keys 0...299 come back as an array: \(first.map { String($0.data.prefix(200)) } ?? "nothing")")
        }
    }

    @Test("auth_revoked when a token is revoked, cancel when its access ends; both end the response and close the stream")
    func revocation() async throws {
        try await withServer({ $0.tokens = ["t1", "t2"] }) { server in
            let refused = try await EventReader(port: server.port, "/x.json?auth=nobody")
            #expect(refused.status == 401)
            let one = try await EventReader(port: server.port, "/x.json?auth=t1")
            let two = try await EventReader(port: server.port, "/x.json", headers: ["Authorization": "Bearer t2"])
            _ = try await one.next()
            _ = try await two.next()
            server.revoke(token: "t1")
            #expect(try await one.next() == .init(name: "auth_revoked", data: #""credential is no longer valid""#))
            #expect(try await one.next() == nil)
            #expect(one.endedProperly, "the response ends with its last chunk before the connection closes")
            server.endAccess(token: "t2")
            #expect(try await two.next()?.name == "cancel")
            #expect(try await two.next() == nil)
            #expect(two.endedProperly)
        }
    }

    @Test("events keep canonically equivalent member names apart")
    func equivalentNames() async throws {
        try await withServer { server in
            let p = server.port
            _ = try await request(p, "PUT", "/q.json", body: #"{"\u00e9": 1, "e\u0301": 2}"#)
            let stream = try await EventReader(port: p, "/q.json")
            var e = try #require(try await stream.next())
            #expect(e.payload?.data.objectValue?.count == 2)
            _ = try await request(p, "PATCH", "/q.json", body: #"{"\u00c5": 3, "A\u030a": 4, "\u212b": {"\u00e9": 5, "e\u0301": 6}}"#)
            e = try #require(try await stream.next())
            #expect(e.name == "patch" && e.payload?.data.objectValue?.count == 3)
            #expect(e.payload?.data["\u{212B}"]?.objectValue?.count == 2)
            let query = try await EventReader(port: p, "/q.json?orderBy=%22%24key%22&limitToFirst=10")
            e = try #require(try await query.next())
            #expect(e.payload?.data.objectValue?.count == 5)
            _ = try await request(p, "PATCH", "/q.json", body: #"{"\u00e9": 7, "e\u0301": 8}"#)
            e = try #require(try await query.next())
            #expect(e.name == "patch" && e.payload?.data.objectValue?.count == 2)
        }
    }
}
