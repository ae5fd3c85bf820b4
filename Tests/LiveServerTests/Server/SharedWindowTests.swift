// SharedWindowTests.swift — streams with the same limited query at the same
// location share one window: a stream that joins later, a REST read of the
// query, and a stream that comes after the last one left all see the data
// as it is. Streams whose query is an order alone keep no window.

import Foundation
import LiveModel
@testable import LiveServer
import Testing

@Suite("LiveServer shared query windows")
struct SharedWindowTests {
    static let query = #"/room.json?orderBy="score"&limitToLast=3"#

    /// Reads events until `mirror` holds exactly `keys`.
    static func follow(_ stream: EventReader, _ mirror: inout StreamPreparationTests.Mirror, until keys: Set<String>,
                       _ label: String) async throws {
        var seen: [String] = []
        while Set(mirror.children.keys) != keys {
            guard let event = try await stream.next() else {
                throw StreamPreparationTests.StreamPreparationError("\(label) ended; saw \(seen)")
            }
            seen.append(event.name + " " + event.data)
            try mirror.apply(event)
        }
    }

    /// Writes `/room`: children `c0`, `c1`, … scored 0, `step`, 2 · `step`, …
    static func fillRoom(_ port: Int, children: Int, step: Int) async throws {
        let room = "{" + (0..<children).map { "\"c\($0)\": {\"score\": \($0 * step)}" }.joined(separator: ",") + "}"
        _ = try await request(port, "PUT", "/room.json?print=silent", body: room)
    }

    /// How many streams share each window the server keeps.
    static func shares(_ server: LiveServer) -> [Int] {
        server.core.lock.withLock { server.core.listeners.windowShares }
    }

    @Test("a late stream joins the window, a REST read answers from it, a stream after the last one left gets a new one")
    func sharedWindow() async throws {
        try await withServer { server in
            let p = server.port
            try await Self.fillRoom(p, children: 20, step: 1)

            var a: EventReader? = try await EventReader(port: p, Self.query)
            var mirrorA = StreamPreparationTests.Mirror()
            try await Self.follow(a!, &mirrorA, until: ["c17", "c18", "c19"], "first stream")
            #expect(Self.shares(server) == [1])
            _ = try await request(p, "PATCH", "/room.json?print=silent", body: #"{"c0/score": 100}"#)
            try await Self.follow(a!, &mirrorA, until: ["c18", "c19", "c0"], "first stream")

            // Joins the window the first stream keeps.
            var b: EventReader? = try await EventReader(port: p, Self.query)
            var mirrorB = StreamPreparationTests.Mirror()
            try await Self.follow(b!, &mirrorB, until: ["c18", "c19", "c0"], "second stream")
            #expect(Self.shares(server) == [2])
            _ = try await request(p, "PATCH", "/room.json?print=silent", body: #"{"c1/score": 200}"#)
            try await Self.follow(a!, &mirrorA, until: ["c19", "c0", "c1"], "first stream")
            try await Self.follow(b!, &mirrorB, until: ["c19", "c0", "c1"], "second stream")
            #expect(mirrorA.children == mirrorB.children)

            // A REST read of the same query, in query order.
            let read = try await request(p, "GET", Self.query)
            #expect(read.text == #"{"c19":{"score":19},"c0":{"score":100},"c1":{"score":200}}"#)

            // The last stream leaves; a write lands; a new stream must not get the old window.
            a = nil
            b = nil
            #expect(await eventually(30) { server.listeners().isEmpty })
            #expect(Self.shares(server) == [])
            _ = try await request(p, "PATCH", "/room.json?print=silent", body: #"{"c2/score": 300}"#)
            let c = try await EventReader(port: p, Self.query)
            let first = try #require(try await c.next())
            #expect(first.payload?.data == json(#"{"c0":{"score":100},"c1":{"score":200},"c2":{"score":300}}"#))
            #expect(Self.shares(server) == [1])
            _ = (a, b)
        }
    }

    @Test("REST reads answered from shared windows equal the query computed afresh, across random writes")
    func readsFromWindows() async throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["LIVE_TEST_SEED"] ?? "") ?? 20261129
        var rng = SplitMix64(seed: seed)
        let queries = [#"orderBy="score"&limitToLast=4"#, #"orderBy="score"&limitToFirst=3"#,
                       #"orderBy="score"&startAt=10&endAt=60&limitToFirst=5"#, #"orderBy="$key"&limitToLast=2"#,
                       #"orderBy="score"&startAt=30&limitToLast=3&format=export"#]
        let location: DatabasePath = "room"
        try await withServer { server in
            let p = server.port
            try await Self.fillRoom(p, children: 40, step: 2)
            var streams: [EventReader] = []
            for query in queries {
                let stream = try await EventReader(port: p, "/room.json?" + query)
                _ = try #require(try await stream.next())  // its first put: its window is installed
                streams.append(stream)
            }
            #expect(Self.shares(server) == [1, 1, 1, 1, 1])
            for step in 0..<60 {
                let key = "c\(Int.random(in: 0..<50, using: &rng))"
                let body: String
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: body = "{\"\(key)\": null}"
                case 1: body = "{\"\(key)/score\": \(Int.random(in: 0..<100, using: &rng))}"
                case 2: body = "{\"\(key)\": {\"score\": \(Int.random(in: 0..<100, using: &rng)), \".priority\": 1}}"
                default: body = "{\"\(key)/score\": \"s\(Int.random(in: 0..<9, using: &rng))\"}"
                }
                _ = try await request(p, "PATCH", "/room.json?print=silent", body: body)
                for query in queries {
                    let parameters = try RequestTarget(uri: "/room.json?" + query).parameters
                    let parsed = try #require(try DatabaseQuery(parameters: parameters))
                    let node = server.core.lock.withLock { server.core.store.get(location) }
                    let expected = DatabaseQuery.json(of: parsed.window(of: node), export: query.contains("export"))
                    let read = try await request(p, "GET", "/room.json?" + query)
                    #expect(read.json == expected, "seed \(seed), step \(step), \(body), \(query); replay: LIVE_TEST_SEED=\(seed)")
                }
            }
            _ = streams
        }
    }

    @Test("streams with one query all end at the server's answer, however they joined")
    func manyStreamsOneQuery() async throws {
        try await withServer { server in
            let p = server.port
            try await Self.fillRoom(p, children: 50, step: 1)
            var streams: [(EventReader, StreamPreparationTests.Mirror)] = []
            for i in 0..<8 {
                // Each stream joins after a write the others were told of.
                _ = try await request(p, "PATCH", "/room.json?print=silent", body: "{\"c\(i)/score\": \(100 + i)}")
                streams.append((try await EventReader(port: p, Self.query), StreamPreparationTests.Mirror()))
            }
            _ = try await request(p, "DELETE", "/room/c7.json?print=silent")
            let expected: Set<String> = ["c4", "c5", "c6"]
            for i in streams.indices {
                try await Self.follow(streams[i].0, &streams[i].1, until: expected, "stream \(i)")
                #expect(streams[i].1.children["c6"] == json(#"{"score": 106}"#))
            }
            #expect(Self.shares(server) == [8])
        }
    }

    @Test("a stream whose query is an order alone is told the children, keeps no window, and matches the REST answer")
    func orderAlone() async throws {
        try await withServer { server in
            let p = server.port
            let target = #"/room.json?orderBy="score""#
            _ = try await request(p, "PUT", "/room.json?print=silent", body: #"{"a": {"score": 1}, "b": {"score": 2}}"#)
            let stream = try await EventReader(port: p, target)
            var mirror = StreamPreparationTests.Mirror()
            let steps: [(String, String, String?)] = [
                ("PATCH", "/room.json", #"{"a/score": 5}"#),
                ("PUT", "/room/a/score.json", "6"),  // told at its own path, not as the whole child
                ("PUT", "/room/c.json", #"{"score": 3}"#),
                ("DELETE", "/room/b.json", nil),
                ("PUT", "/room.json", #"{"x": {"score": 9}, "y": {"score": 8}}"#),
                ("PUT", "/room.json", "7"),  // a leaf: no children
                ("PUT", "/.json", #"{"room": {"z": {"score": 1}}}"#),
            ]
            try mirror.apply(try #require(try await stream.next()))
            for (method, path, body) in steps {
                _ = try await request(p, method, path + "?print=silent", body: body)
                let answer = StreamPreparationTests.children(try await request(p, "GET", target).json)
                var seen: [String] = []
                while mirror.children != answer {
                    let event = try #require(try await stream.next(), "\(method) \(path): the stream ended; saw \(seen)")
                    seen.append(event.data)
                    try mirror.apply(event)
                }
                if path == "/room/a/score.json" { #expect(seen == [#"{"path":"/a/score","data":6}"#]) }
            }
            #expect(mirror.children == ["z": json(#"{"score": 1}"#)])
            #expect(Self.shares(server) == [])
        }
    }
}
