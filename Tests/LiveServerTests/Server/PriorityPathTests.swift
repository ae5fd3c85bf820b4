// PriorityPathTests.swift — a node's priority addressed as `/path/.priority`,
// as Firebase's REST API and its SDKs' `setPriority` write it.

import Foundation
import LiveModel
import LiveServer
import Testing

@Suite("LiveServer priorities at .priority")
struct PriorityPathTests {
    @Test("PUT, GET and DELETE at .priority set, read and remove a node's priority; streams are told")
    func putGetDelete() async throws {
        try await withServer { server in
            let p = server.port
            _ = try await request(p, "PUT", "/room.json", body: #"{"a": {"n": 1}, "b": 2}"#)
            let stream = try await EventReader(port: p, "/room.json?format=export")
            _ = try #require(try await stream.next())

            let set = try await request(p, "PUT", "/room/a/.priority.json", body: "5")
            #expect(set.status == 200 && set.json == json("5"))
            #expect(try await request(p, "GET", "/room/a/.priority.json").json == json("5"))
            #expect(try await request(p, "GET", "/room/a.json?format=export").json == json(#"{"n": 1, ".priority": 5}"#))
            let told = try #require(try await stream.next())
            #expect(told.payload?.path == "/a" && told.payload?.data == json(#"{"n": 1, ".priority": 5}"#))

            // A leaf takes a priority too; a string is a priority.
            _ = try await request(p, "PUT", "/room/b/.priority.json", body: #""x""#)
            #expect(try await request(p, "GET", "/room/b.json?format=export").json == json(#"{".value": 2, ".priority": "x"}"#))
            _ = try #require(try await stream.next())

            #expect(try await request(p, "DELETE", "/room/a/.priority.json").status == 200)
            #expect(try await request(p, "GET", "/room/a/.priority.json").json == json("null"))
            _ = try await request(p, "PUT", "/room/b/.priority.json", body: "null")
            #expect(try await request(p, "GET", "/room.json?format=export").json == json(#"{"a": {"n": 1}, "b": 2}"#))
        }
    }

    @Test("an absent node gets no priority; a bad priority and other methods are refused and change nothing")
    func refusals() async throws {
        try await withServer { server in
            let p = server.port
            _ = try await request(p, "PUT", "/room.json", body: #"{"a": 1}"#)
            #expect(try await request(p, "PUT", "/room/none/.priority.json", body: "3").status == 200)
            #expect(try await request(p, "GET", "/room.json").json == json(#"{"a": 1}"#))
            #expect(try await request(p, "GET", "/room/none/.priority.json").json == json("null"))

            for body in [#"{"x": 1}"#, "true", "[1]", "{"] {
                let refused = try await request(p, "PUT", "/room/a/.priority.json", body: body)
                #expect(refused.status == 400, "\(body)")
            }
            #expect(try await request(p, "POST", "/room/a/.priority.json", body: "1").status == 405)
            #expect(try await request(p, "PATCH", "/room/a/.priority.json", body: "{}").status == 405)
            #expect(try await request(p, "GET", #"/room/a/.priority.json?orderBy="$key""#).status == 400)
            let stream = try await EventReader(port: p, "/room/a/.priority.json")
            #expect(stream.status == 400)
            #expect(try await request(p, "GET", "/room.json?format=export").json == json(#"{"a": 1}"#))
        }
    }

    @Test("an update sets priorities beside the node's children; a priority beside its node, or below a node written whole, is refused")
    func updates() async throws {
        try await withServer { server in
            let p = server.port
            _ = try await request(p, "PUT", "/room.json", body: #"{"a": {"n": 1}, "b": {"n": 2}}"#)
            let stream = try await EventReader(port: p, "/room.json?format=export")
            _ = try #require(try await stream.next())
            let done = try await request(p, "PATCH", "/room.json", body: #"{"a/.priority": 3, "c": 4}"#)
            #expect(done.status == 200)
            #expect(done.json == json(#"{"a/.priority": 3, "c": 4}"#))
            #expect(try await request(p, "GET", "/room.json?format=export").json
                    == json(#"{"a": {"n": 1, ".priority": 3}, "b": {"n": 2}, "c": 4}"#))
            let told = try #require(try await stream.next())
            #expect(told.name == "patch" && told.payload?.data == json(#"{"a": {"n": 1, ".priority": 3}, "c": 4}"#))

            // A priority and its node's children, and priorities one below another, in one update.
            let both = try await request(p, "PATCH", "/room.json", body: #"{"b/.priority": 1, "b/n": 5, "b/m/.priority": 2, "b/m/x": 6}"#)
            #expect(both.status == 200)
            // One change, one event: the node whose priority is set holds the writes below it.
            let whole = try #require(try await stream.next())
            #expect(whole.name == "patch" && whole.payload?.data
                    == json(#"{"b": {"n": 5, "m": {"x": 6, ".priority": 2}, ".priority": 1}}"#), "\(whole)")
            #expect(try await request(p, "GET", "/room/b.json?format=export").json
                    == json(#"{"n": 5, "m": {"x": 6, ".priority": 2}, ".priority": 1}"#))
            for body in [#"{"b/.priority": 1, "b": 5}"#, #"{"b": 5, "b/m/.priority": 1}"#, #"{"b/.priority": {"x": 1}}"#,
                         #"{"b/.priority": 1, "b/.priority/": 2}"#] {
                #expect(try await request(p, "PATCH", "/room.json", body: body).status == 400, "\(body)")
            }
            #expect(try await request(p, "GET", "/room/b/.priority.json").json == json("1"))

            // The location's own priority, as `.priority` at the root of an
            // update: told as one put of the node (a patch has no member for its own base).
            let own = try await request(p, "PATCH", "/room/b.json", body: #"{".priority": "p", "n": 7}"#)
            #expect(own.json == json(#"{".priority": "p", "n": 7}"#))
            #expect(try await request(p, "GET", "/room/b/.priority.json").json == json(#""p""#))
            let put = try #require(try await stream.next())
            #expect(put.name == "put" && put.payload?.path == "/b", "\(put)")
            #expect(put.payload?.data == json(#"{"n": 7, "m": {"x": 6, ".priority": 2}, ".priority": "p"}"#))
        }
    }

    @Test("a priority's ETag is its node's: a read gives it, a conditional write compares it")
    func etags() async throws {
        try await withServer { server in
            let p = server.port
            _ = try await request(p, "PUT", "/a.json", body: #"{"n": 1}"#)
            let read = try await request(p, "GET", "/a/.priority.json", headers: ["X-Firebase-ETag": "true"])
            let tag = try #require(read.headers["etag"])
            #expect(tag == (try await request(p, "GET", "/a.json", headers: ["X-Firebase-ETag": "true"])).headers["etag"])
            #expect(try await request(p, "GET", "/a/.priority.json", headers: ["if-none-match": tag]).status == 304)
            #expect(try await request(p, "PUT", "/a/.priority.json", headers: ["if-match": tag], body: "4").status == 200)
            let stale = try await request(p, "PUT", "/a/.priority.json", headers: ["if-match": tag], body: "5")
            #expect(stale.status == 412 && stale.json == json("4"))
        }
    }

    @Test("a priority set at .priority survives a restart")
    func persists() async throws {
        let file = PersistenceTests.temporaryFile()
        defer { for suffix in ["", ".journal", ".tmp"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
        try await withServer({ $0.dataFile = file }) { server in
            _ = try await request(server.port, "PUT", "/a.json", body: #"{"n": 1}"#)
            _ = try await request(server.port, "PUT", "/a/.priority.json", body: "7")
        }
        try await withServer({ $0.dataFile = file }) { server in
            let read = try await request(server.port, "GET", "/a.json?format=export")
            #expect(read.json == json(#"{"n": 1, ".priority": 7}"#))
        }
    }
}
