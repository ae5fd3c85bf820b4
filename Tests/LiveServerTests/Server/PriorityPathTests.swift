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

    @Test("an update sets priorities by member path; a priority beside a write at or below its node is refused")
    func updates() async throws {
        try await withServer { server in
            let p = server.port
            _ = try await request(p, "PUT", "/room.json", body: #"{"a": {"n": 1}, "b": {"n": 2}}"#)
            let done = try await request(p, "PATCH", "/room.json", body: #"{"a/.priority": 3, "c": 4}"#)
            #expect(done.status == 200)
            #expect(try await request(p, "GET", "/room.json?format=export").json
                    == json(#"{"a": {"n": 1, ".priority": 3}, "b": {"n": 2}, "c": 4}"#))
            for body in [#"{"b/.priority": 1, "b/n": 5}"#, #"{"b/.priority": 1, "b": 5}"#, #"{"b/.priority": {"x": 1}}"#] {
                #expect(try await request(p, "PATCH", "/room.json", body: body).status == 400, "\(body)")
            }
            #expect(try await request(p, "GET", "/room/b.json?format=export").json == json(#"{"n": 2}"#))
            // The location's own priority, as `.priority` at the root of an update.
            _ = try await request(p, "PATCH", "/room/b.json", body: #"{".priority": "p"}"#)
            #expect(try await request(p, "GET", "/room/b/.priority.json").json == json(#""p""#))
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
