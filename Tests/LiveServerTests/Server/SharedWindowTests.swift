// SharedWindowTests.swift — streams with the same limited query at the same
// location share one window: a stream that joins later, a REST read of the
// query, and a stream that comes after the last one left all see the data
// as it is.

import Foundation
import LiveModel
import LiveServer
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

    @Test("a late stream, a REST read and a stream after the last one left all see the window as it is")
    func sharedWindow() async throws {
        try await withServer { server in
            let p = server.port
            let room = "{" + (0..<20).map { "\"c\($0)\": {\"score\": \($0)}" }.joined(separator: ",") + "}"
            _ = try await request(p, "PUT", "/room.json?print=silent", body: room)

            var a: EventReader? = try await EventReader(port: p, Self.query)
            var mirrorA = StreamPreparationTests.Mirror()
            try await Self.follow(a!, &mirrorA, until: ["c17", "c18", "c19"], "first stream")
            _ = try await request(p, "PATCH", "/room.json?print=silent", body: #"{"c0/score": 100}"#)
            try await Self.follow(a!, &mirrorA, until: ["c18", "c19", "c0"], "first stream")

            // Joins the window the first stream keeps.
            var b: EventReader? = try await EventReader(port: p, Self.query)
            var mirrorB = StreamPreparationTests.Mirror()
            try await Self.follow(b!, &mirrorB, until: ["c18", "c19", "c0"], "second stream")
            _ = try await request(p, "PATCH", "/room.json?print=silent", body: #"{"c1/score": 200}"#)
            let eventA = try #require(try await a!.next())
            let eventB = try #require(try await b!.next())
            #expect(eventA == eventB)
            try mirrorA.apply(eventA)
            try mirrorB.apply(eventB)
            #expect(Set(mirrorA.children.keys) == ["c19", "c0", "c1"])
            #expect(mirrorA.children == mirrorB.children)

            // A REST read of the same query, in query order.
            let read = try await request(p, "GET", Self.query)
            #expect(read.text == #"{"c19":{"score":19},"c0":{"score":100},"c1":{"score":200}}"#)

            // The last stream leaves; a write lands; a new stream must not get the old window.
            a = nil
            b = nil
            #expect(await eventually(30) { server.listeners().isEmpty })
            _ = try await request(p, "PATCH", "/room.json?print=silent", body: #"{"c2/score": 300}"#)
            let c = try await EventReader(port: p, Self.query)
            let first = try #require(try await c.next())
            #expect(first.payload?.data == json(#"{"c0":{"score":100},"c1":{"score":200},"c2":{"score":300}}"#))
            _ = (a, b)
        }
    }

    @Test("streams with one query share events as each joins, and all end at the server's answer")
    func manyStreamsOneQuery() async throws {
        try await withServer { server in
            let p = server.port
            let room = "{" + (0..<50).map { "\"c\($0)\": {\"score\": \($0)}" }.joined(separator: ",") + "}"
            _ = try await request(p, "PUT", "/room.json?print=silent", body: room)
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
        }
    }
}
