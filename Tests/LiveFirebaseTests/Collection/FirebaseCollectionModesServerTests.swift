// FirebaseCollectionModesServerTests.swift — the load modes and pause and
// resume end to end against LiveServer: pages load in query order while
// writes in the loaded range show up live; a stopped collection keeps its
// data and resyncs with the smallest change.

import LiveCollection
@testable import LiveFirebase
import LiveModel
import LiveServer
import Testing

@MainActor
@Suite("FirebaseCollection load modes against LiveServer", .serialized)
struct FirebaseCollectionModesServerTests {
    static let query = DatabaseQuery(order: .child("s"))
    static let fast = StreamConfiguration(keepAliveTimeout: .seconds(5), initialBackoff: .milliseconds(20),
                                          maxBackoff: .milliseconds(200))

    /// Twenty children `k0` … `k19`, `s` = their number.
    static func fill(_ server: LiveServer) async throws -> DatabaseClient {
        let client = DatabaseClient(try DatabaseReference(url: server.url, path: "/items"))
        var members: [DatabasePath: JSONValue] = [:]
        for i in 0..<20 { members[try DatabasePath("/k\(i)")] = .object(["s": .number(Double(i)), "t": "x"]) }
        try await client.update(members)
        return client
    }

    /// `k<i>` for each `i` in `range`.
    static func keys(_ range: Range<Int>) throws -> [Key] { try range.map { try Key("k\($0)") } }

    static func collection(_ server: LiveServer, mode: LoadMode) throws -> FirebaseCollection<DecodingDataSource<RawChild>> {
        try FirebaseCollection(reference: try DatabaseReference(url: server.url, path: "/items"), query: query,
                               mode: mode, dataSource: DecodingDataSource<RawChild>(), opener: .database(configuration: fast))
    }

    /// Waits until the collection holds the server's answer to `query`.
    static func settles(_ c: FirebaseCollection<DecodingDataSource<RawChild>>, _ server: LiveServer,
                        _ query: DatabaseQuery) async throws -> Bool {
        let keys = try await serverAnswer(server, query)
        let values = try await serverValues(server)
        return await eventually { holds(c.collection, keys, values) }
    }

    @Test("paged: each page comes in query order as insertions only, and the loaded range stays live")
    func pagesStayLive() async throws {
        let seed = testSeed()
        var rng = SplitMix64(seed: seed)
        try await withServer { server in
            let client = try await Self.fill(server)
            let c = try Self.collection(server, mode: .paged(size: 5))
            let recorder = CollectionRecorder()
            let token = c.collection.addObserver(recorder)
            defer { token.cancel() }
            try await c.start()
            #expect(c.collection.models.map(\.identifier) == (try Self.keys(0..<5)))
            #expect(c.hasMorePages)

            var pages = 1
            while c.hasMorePages {
                // Writes inside and around the loaded range: moves, changes,
                // additions that enter it, removals that leave room.
                for _ in 0..<6 {
                    let key = try Key("k\(Int.random(in: 0..<24, using: &rng))")
                    switch Int.random(in: 0..<4, using: &rng) {
                    case 0: try await client.remove(at: DatabasePath([key]))
                    case 1: try await client.set(.string("y\(Int.random(in: 0..<9, using: &rng))"), at: DatabasePath([key, "t"]))
                    default:
                        let s = Double(Int.random(in: 0..<(pages * 5 + 3), using: &rng)) + 0.5
                        try await client.set(.object(["s": .number(s), "t": "x"]), at: DatabasePath([key]))
                    }
                }
                #expect(try await Self.settles(c, server, c.effectiveQuery),
                        "seed \(seed), page \(pages): \(c.collection.models.map(\.identifier))")

                // Removals can leave the last page short: then there is no next one.
                guard c.hasMorePages else { break }
                let before = c.collection.count
                recorder.batches.removeAll()
                try await c.loadNextPage()
                pages += 1
                #expect(c.effectiveQuery.limit == .first(pages * 5))
                #expect(try await Self.settles(c, server, c.effectiveQuery), "seed \(seed), page \(pages)")
                // A new page adds rows; it never reloads the ones shown.
                let batches = recorder.batches
                #expect(batches.allSatisfy { $0.deleted.isEmpty }, "seed \(seed), page \(pages): \(batches)")
                #expect(batches.map(\.inserted.count).reduce(0, +) == c.collection.count - before,
                        "seed \(seed), page \(pages): \(batches)")
            }
            // The last page is short: everything the query selects is loaded.
            #expect(c.collection.count < pages * 5)
            #expect(try await Self.settles(c, server, Self.query), "seed \(seed)")
            c.stop()
        }
    }

    @Test("pages from the end: the last page first, then each older one prepended as one batch; all stay live")
    func pagesFromTheEnd() async throws {
        try await withServer { server in
            let client = try await Self.fill(server)
            let c = try Self.collection(server, mode: .pagedFromEnd(size: 6))
            let recorder = CollectionRecorder()
            let token = c.collection.addObserver(recorder)
            defer { token.cancel() }
            try await c.start()
            #expect(c.collection.models.map(\.identifier) == (try Self.keys(14..<20)))
            #expect(c.effectiveQuery.limit == .last(6) && c.hasMorePages)
            recorder.batches.removeAll()
            #expect(try await c.loadNextPage() == 6, "six rows prepended")
            #expect(c.collection.models.map(\.identifier) == (try Self.keys(8..<20)))
            #expect(recorder.batches.count == 1 && recorder.batches[0].inserted == Array(0..<6)
                    && recorder.batches[0].deleted.isEmpty && recorder.batches[0].moved.isEmpty, "\(recorder.batches)")
            // Anchored at the oldest child loaded: live in the older page,
            // and a child added at the end pushes none out.
            #expect(c.effectiveQuery.start == DatabaseQuery.Bound(value: 8) && c.effectiveQuery.limit == nil)
            try await client.set("changed", at: "/k9/t")
            try await client.set(.object(["s": 50, "t": "new"]), at: "/n1")
            #expect(try await Self.settles(c, server, c.effectiveQuery), "\(c.collection.models.map(\.identifier))")
            #expect(c.collection.models.map(\.identifier) == (try Self.keys(8..<20)) + ["n1"])
            #expect(c.collection.models[1].dictionary["t"] == "changed")
            #expect(try await c.loadNextPage() == 6)
            #expect(c.collection.models.first?.identifier == "k2")
            #expect(try await c.loadNextPage() == 2, "the oldest page is short")
            #expect(c.effectiveQuery == Self.query, "everything loaded: the query itself")
            #expect(!c.hasMorePages)
            #expect(try await c.loadNextPage() == 0)
            #expect(try await Self.settles(c, server, Self.query))
            c.stop()

            // In priority order without priorities every child ties: a bound
            // at the oldest would bring every older one, so the window stays
            // the last children.
            let tied = try FirebaseCollection(reference: try DatabaseReference(url: server.url, path: "/items"),
                                              query: DatabaseQuery(), mode: .pagedFromEnd(size: 4),
                                              dataSource: DecodingDataSource<RawChild>(), opener: .database(configuration: Self.fast))
            try await tied.start()
            #expect(try await tied.loadNextPage() == 4)
            #expect(tied.effectiveQuery.start == nil && tied.effectiveQuery.limit == .last(8), "\(tied.effectiveQuery)")
            #expect(tied.hasMorePages)
            tied.stop()
        }
        #expect(throws: DatabaseError.self) {
            _ = try FirebaseCollection(reference: try DatabaseReference(url: "http://127.0.0.1:9", path: "/items"),
                                       query: Self.query.limited(toFirst: 5), mode: .pagedFromEnd(size: 2),
                                       dataSource: DecodingDataSource<RawChild>())
        }
    }

    @Test("live: the first load arrives child by child between did-start and did-end-load")
    func liveLoadsChildByChild() async throws {
        try await withServer { server in
            _ = try await Self.fill(server)
            let c = try Self.collection(server, mode: .live)
            let recorder = CollectionRecorder()
            let token = c.collection.addObserver(recorder)
            defer { token.cancel() }
            try await c.start()
            let expected = (0..<20).map { "insert k\($0)@\($0)" }
            #expect(recorder.log == ["start"] + expected + ["end"])
            c.stop()
        }
    }

    @Test("stop keeps the data; start again resyncs with the smallest change", arguments: [LoadMode.live, .all])
    func pauseAndResume(_ mode: LoadMode) async throws {
        try await withServer { server in
            let client = try await Self.fill(server)
            let c = try Self.collection(server, mode: mode)
            var statuses: [CollectionStatus] = []
            let watch = c.observeStatus { statuses.append($0) }
            defer { watch.cancel() }
            try await c.start()
            c.stop()
            #expect(c.status == .stopped)

            // While stopped: one change in place, one move, one removal, one addition.
            try await client.set("changed", at: "/k3/t")
            try await client.set(.number(100), at: "/k4/s")
            try await client.remove(at: "/k7")
            try await client.set(.object(["s": 2.5, "t": "new"]), at: "/n1")
            try await Task.sleep(for: .milliseconds(100))
            #expect(c.collection.models.map(\.identifier) == (try Self.keys(0..<20)), "a stopped collection moved")

            let recorder = CollectionRecorder()
            let token = c.collection.addObserver(recorder)
            defer { token.cancel() }
            var events: [String] = []
            let childEvents = c.observeChildEvents { events.append("\($0.kind) \($0.key)") }
            defer { childEvents.cancel() }
            try await c.start()
            #expect(try await Self.settles(c, server, Self.query))
            // One batch, exactly the four changes: no reload.
            #expect(recorder.batches.count == 1, "\(recorder.log)")
            let batch = try #require(recorder.batches.first)
            #expect(batch.deleted.count == 1 && batch.inserted.count == 1 && batch.moved.count == 1, "\(batch)")
            #expect(Set(events) == ["removed k7", "added n1", "moved k4", "changed k4", "changed k3"], "\(events)")
            #expect(statuses.last == .live)
            c.stop()
        }
    }
}
