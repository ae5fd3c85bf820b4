// IndexedReadTests.swift — REST queries nobody streams are answered from
// the index kept for their order, and answer as the query computed afresh
// across writes of every kind.

import Foundation
import LiveModel
@testable import LiveServer
import Testing

@Suite("LiveServer reads from kept order indexes")
struct IndexedReadTests {
    static let queries = [
        #"orderBy="score"&limitToLast=4"#, #"orderBy="score"&limitToFirst=3"#,
        #"orderBy="score"&startAt=10&endAt=60&limitToFirst=5"#, #"orderBy="score"&startAfter=20&endBefore=70"#,
        #"orderBy="score"&equalTo="s3""#, #"orderBy="$key"&limitToLast=2"#, #"orderBy="$key"&startAt="c3"&endAt="c5""#,
        #"orderBy="$priority"&limitToFirst=3&format=export"#, #"orderBy="$value"&limitToLast=2"#,
        #"orderBy="score"&startAt=30&startAtKey="c2"&limitToLast=3&format=export"#,
    ]

    /// The indexes kept and being built, once the builds under way are done.
    static func kept(_ server: LiveServer) async -> (kept: Int, building: Int) {
        await withCheckedContinuation { done in
            server.core.indexBuilds.notify(queue: .global()) { done.resume() }
        }
        return server.core.lock.withLock { server.core.reads.count }
    }

    /// Reads every query over HTTP and checks each against the query
    /// computed afresh from the value at `/room`.
    static func checkReads(_ server: LiveServer, _ label: @autoclosure () -> String) async throws {
        for query in queries {
            let parameters = try RequestTarget(uri: "/room.json?" + query).parameters
            let parsed = try #require(try DatabaseQuery(parameters: parameters))
            let node = server.core.lock.withLock { server.core.store.get("room") }
            let expected = DatabaseQuery.json(of: parsed.window(of: node), export: query.contains("export"))
            let read = try await request(server.port, "GET", "/room.json?" + query)
            #expect(read.status == 200)
            #expect(read.json == expected, "\(label()), \(query)")
        }
    }

    @Test("reads from kept indexes equal the query computed afresh, across random writes")
    func randomWrites() async throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["LIVE_TEST_SEED"] ?? "") ?? 20261129
        var rng = SplitMix64(seed: seed)
        try await withServer { server in
            let p = server.port
            // Indexes for small locations too, so that the writes below reach the windows.
            server.core.lock.withLock { server.core.reads = ReadIndexes(capacity: 4, smallestIndexed: 0) }
            try await SharedWindowTests.fillRoom(p, children: 40, step: 2)
            try await Self.checkReads(server, "seed \(seed), first reads")
            // Four orders, one index each, all kept once built.
            #expect(await Self.kept(server) == (4, 0))
            try await Self.checkReads(server, "seed \(seed), reads from the indexes")
            var drops = 0
            for step in 0..<60 {
                let key = "c\(Int.random(in: 0..<50, using: &rng))"
                let (method, path, body): (String, String, String?)
                let forced = step == 59 && drops == 0
                switch forced ? 7 : Int.random(in: 0..<9, using: &rng) {
                case 0: (method, path, body) = ("DELETE", "/room/\(key).json", nil)
                case 1: (method, path, body) = ("PATCH", "/room.json", "{\"\(key)/score\": \(Int.random(in: 0..<100, using: &rng))}")
                case 2: (method, path, body) = ("PUT", "/room/\(key).json",
                                                "{\"score\": \(Int.random(in: 0..<100, using: &rng)), \".priority\": \(Int.random(in: 0..<5, using: &rng))}")
                case 3: (method, path, body) = ("PUT", "/room/\(key)/score.json", "\"s\(Int.random(in: 0..<9, using: &rng))\"")
                case 4: (method, path, body) = ("PUT", "/room/\(key)/.priority.json", "\"p\(Int.random(in: 0..<9, using: &rng))\"")
                case 5: (method, path, body) = ("PUT", "/room/\(key).json", "\(Int.random(in: 0..<9, using: &rng))")
                case 6: (method, path, body) = ("PATCH", "/.json", "{\"room/\(key)/deep/er\": true, \"other\": 1}")
                case 7 where forced || Int.random(in: 0..<4, using: &rng) == 0:
                    // Replaces the whole location: the indexes go, the next reads build them again.
                    (method, path, body) = ("PUT", "/room.json", "{\"a\": {\"score\": 1}, \"c4\": {\"score\": 12}}")
                    drops += 1
                default: (method, path, body) = ("PUT", "/elsewhere/\(key).json", "1")
                }
                _ = try await request(p, method, path + "?print=silent", body: body)
                try await Self.checkReads(server, "seed \(seed), step \(step), \(method) \(path) \(body ?? ""); replay: LIVE_TEST_SEED=\(seed)")
                // Every other step the builds are let finish and the reads
                // made again, from the indexes (or building those a write
                // dropped meanwhile); else the next write races the builds.
                if step % 2 == 0 {
                    _ = await Self.kept(server)
                    try await Self.checkReads(server, "seed \(seed), step \(step), again; replay: LIVE_TEST_SEED=\(seed)")
                    #expect(await Self.kept(server) == (4, 0))
                }
            }
            #expect(drops > 0, "seed \(seed): the location was never replaced")
        }
    }

    @Test("with no index kept, reads still answer the query")
    func noIndexes() async throws {
        try await withServer({ $0.queryIndexLimit = 0 }) { server in
            try await SharedWindowTests.fillRoom(server.port, children: 30, step: 3)
            try await Self.checkReads(server, "no index")
            _ = try await request(server.port, "PATCH", "/room.json?print=silent", body: #"{"c1/score": 1000}"#)
            try await Self.checkReads(server, "no index, after a write")
            #expect(await Self.kept(server) == (0, 0))
        }
    }
}
