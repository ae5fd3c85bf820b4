// FirebaseCollectionSetQueryTests.swift — changing a live collection's
// query: one minimal grouped change, the new listener's child events, and
// the old query back when the new one fails.
@testable import LiveFirebase
import LiveSections
import LiveServer
import Testing

@MainActor
@Suite("FirebaseCollection.setQuery")
struct FirebaseCollectionSetQueryTests {
    typealias Collection = FirebaseCollection<DecodingDataSource<RawChild>>

    /// `k0` … `k<n-1>`, `s` = their number, `g` = their number mod 3.
    static func value(_ n: Int, changed: Set<Int> = []) -> String {
        "{" + (0..<n).map { #""k\#($0)": {"s": \#($0), "g": \#($0 % 3)\#(changed.contains($0) ? #", "t": 1"# : "")}"# }
            .joined(separator: ", ") + "}"
    }

    static func make(_ query: DatabaseQuery) throws -> Collection {
        try FirebaseCollection(reference: try DatabaseReference(url: "http://127.0.0.1:9", path: "/items"), query: query,
                               mode: .all, dataSource: DecodingDataSource<RawChild>(), opener: .offline)
    }

    /// An offline collection of `query` that has loaded `value(n)`; the
    /// caller stops it.
    static func loaded(_ query: DatabaseQuery, _ n: Int) async throws -> Collection {
        let c = try make(query)
        try await c.receive(.put, at: .root, json: value(n))
        return c
    }

    /// Starts setting `query` on `c`; returns once its new stream is open
    /// (the change then waits for the stream's first value).
    static func startSetQuery(_ c: Collection, _ query: DatabaseQuery) async -> Task<Void, any Error> {
        let listening = c.generation
        let change = Task { try await c.setQuery(query) }
        while c.generation == listening { await Task.yield() }
        return change
    }

    /// Sets `query` on an offline collection, feeding the new stream `json`.
    static func setQuery(_ c: Collection, _ query: DatabaseQuery, json: String) async throws {
        let change = await startSetQuery(c, query)
        try await c.receive(.put, at: .root, json: json)
        try await change.value
    }

    static func keys(_ c: Collection) -> [String] { c.collection.models.map(\.identifier.string) }

    @Test("a wider and a narrower window: one batch each, rows that stay are not reloaded, the new listener's events")
    func widenAndNarrow() async throws {
        let base = DatabaseQuery(order: .child("s"))
        let c = try Self.make(base.limited(toFirst: 3))
        defer { c.stop() }
        try await c.receive(.put, at: .root, json: Self.value(8))
        let watched = WatchedSections(c.collection)
        var events: [String] = []
        let watch = c.observeChildEvents { events.append("\($0.kind.rawValue) \($0.key) \($0.previousKey?.string ?? "-")") }

        try await Self.setQuery(c, base.limited(toFirst: 5), json: Self.value(8))
        #expect(Self.keys(c) == ["k0", "k1", "k2", "k3", "k4"])
        var stages = watched.takeStages()
        #expect(stages.count == 1 && stages[0].allSatisfy { $0.reloadedRows.isEmpty }, "\(stages)")
        #expect(events == ["child_added k0 -", "child_added k1 k0", "child_added k2 k1", "child_added k3 k2", "child_added k4 k3"])

        events.removeAll()
        // Narrower, with k1's data changed meanwhile: only k1 is reloaded.
        try await Self.setQuery(c, base.limited(toLast: 3).starting(at: .number(0)).ending(at: .number(3)),
                                json: Self.value(8, changed: [1]))
        #expect(Self.keys(c) == ["k1", "k2", "k3"])
        stages = watched.takeStages()
        #expect(stages.count == 1, "\(stages)")
        #expect(stages.flatMap { $0.flatMap(\.reloadedRows) }.count == 1, "\(stages)")
        #expect(events == ["child_added k1 -", "child_added k2 k1", "child_added k3 k2"])
        #expect(watched.problem == nil, "\(watched.problem ?? "")")
        #expect(c.status == .live)
        watch.cancel()
    }

    @Test("another order: one batch in which rows only move, the new listener's events, sections kept")
    func anotherOrder() async throws {
        let c = try await Self.loaded(DatabaseQuery(order: .child("s")), 6)
        defer { c.stop() }
        let watched = WatchedSections(c.collection) { ($0.dictionary["s"]?.numberValue ?? 0) < 4 ? 0 : 1 }
        var events: [String] = []
        let watch = c.observeChildEvents { events.append("\($0.kind.rawValue) \($0.key)") }
        // By key, k0 … k5 is the same order; by g (0, 1, 2, 0, 1, 2) it is not.
        try await Self.setQuery(c, DatabaseQuery(order: .child("g")), json: Self.value(6))
        #expect(Self.keys(c) == ["k0", "k3", "k1", "k4", "k2", "k5"])
        #expect(c.collection.order == .child("g"))
        let stages = watched.takeStages()
        #expect(stages.count == 1, "\(stages)")
        let all = stages.flatMap { $0 }
        #expect(all.allSatisfy { $0.insertedRows.isEmpty && $0.deletedRows.isEmpty && $0.reloadedRows.isEmpty }, "\(stages)")
        #expect(events == ["child_added k0", "child_added k3", "child_added k1", "child_added k4", "child_added k2", "child_added k5"])
        #expect(watched.problem == nil, "\(watched.problem ?? "")")
        // Live changes follow the new order.
        try await c.receive(.put, at: DatabasePath("/k5/g"), json: "-1")
        #expect(Self.keys(c).first == "k5")
        watch.cancel()
    }

    @Test("a new query whose stream fails: the error is thrown and the old query listens again")
    func failureRestores() async throws {
        let base = DatabaseQuery(order: .child("s"))
        let c = try await Self.loaded(base.limited(toFirst: 2), 5)
        defer { c.stop() }
        let change = await Self.startSetQuery(c, base.limited(toFirst: 4))
        // The new stream ends with a refusal (told as it would tell it);
        // stopped at the end, so that its consumer ends too.
        let refused = c.stream
        defer { refused?.stop() }
        await c.receive(.ended(.permissionDenied("no")))
        await #expect(throws: DatabaseError.self) { try await change.value }
        #expect(c.query == base.limited(toFirst: 2))
        #expect(Self.keys(c) == ["k0", "k1"])
        // Listening with the old query again: its value resyncs as usual.
        try await c.receive(.put, at: .root, json: Self.value(5, changed: [0]))
        #expect(Self.keys(c) == ["k0", "k1"])
        #expect(c.collection.models.first?.dictionary["t"] != nil)
    }

    @Test("stopped while a new query waits: back to the old query, stopped")
    func stoppedMeanwhile() async throws {
        let base = DatabaseQuery(order: .child("s"))
        let c = try await Self.loaded(base.limited(toFirst: 2), 5)
        defer { c.stop() }
        let change = await Self.startSetQuery(c, base.limited(toFirst: 4))
        c.stop()
        await #expect(throws: DatabaseError.self) { try await change.value }
        #expect(c.query == base.limited(toFirst: 2) && c.status == .stopped)
        #expect(Self.keys(c) == ["k0", "k1"])
    }

    @Test("stopped and started again while a new query waits: whichever query listens, the rows are its window")
    func restartedMeanwhile() async throws {
        let base = DatabaseQuery(order: .child("s"))
        let c = try await Self.loaded(base.limited(toFirst: 2), 5)
        defer { c.stop() }
        let change = await Self.startSetQuery(c, base.limited(toFirst: 4))
        c.stop()
        // Which runs first, the failed wait or the restart, is the
        // scheduler's choice: either way the collection loads what it listens to.
        let restart = Task { try await c.start() }
        _ = try? await change.value
        while c.stream == nil { await Task.yield() }
        try await c.receive(.put, at: .root, json: Self.value(5))
        try await restart.value
        #expect(Self.keys(c) == (c.query.limit == .first(4) ? ["k0", "k1", "k2", "k3"] : ["k0", "k1"]))
        #expect(c.status == .live)
    }

    @Test("a message other than the new query's first value is not for its view")
    func onlyTheFirstValue() async throws {
        let base = DatabaseQuery(order: .child("s"))
        let c = try await Self.loaded(base.limited(toFirst: 2), 5)
        defer { c.stop() }
        let change = await Self.startSetQuery(c, base.limited(toFirst: 3))
        try await c.receive(.patch, at: .root, json: #"{"k9": {"s": -1}}"#)
        #expect(Self.keys(c) == ["k0", "k1"])
        try await c.receive(.put, at: .root, json: Self.value(5))
        try await change.value
        #expect(Self.keys(c) == ["k0", "k1", "k2"])
    }

    @Test("seeded random queries and orders: the rows always equal a new collection's, every stage valid")
    func randomQueries() async throws {
        let seed = testSeed()
        var rng = SplitMix64(seed: seed)
        let base = DatabaseQuery(order: .child("s"))
        let c = try Self.make(base)
        defer { c.stop() }
        try await c.receive(.put, at: .root, json: Self.value(10))
        let watched = WatchedSections(c.collection)
        let orders: [QueryOrder] = [.child("s"), .child("g"), .key, .priority, .value]
        for step in 0..<40 {
            var query = Int.random(in: 0..<3, using: &rng) == 0
                ? DatabaseQuery(order: orders[Int.random(in: 0..<orders.count, using: &rng)]) : base
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: query = query.limited(toFirst: Int.random(in: 1...12, using: &rng))
            case 1: query = query.limited(toLast: Int.random(in: 1...12, using: &rng))
            case 2: query = query.starting(at: .number(Double(Int.random(in: 0..<10, using: &rng))))
            default: break
            }
            if Bool.random(using: &rng) { query = query.ending(at: .number(Double(Int.random(in: 0..<10, using: &rng)))) }
            let n = Int.random(in: 5..<12, using: &rng)
            let changed = Set((0..<n).filter { _ in Int.random(in: 0..<5, using: &rng) == 0 })
            let json = Self.value(n, changed: changed)
            guard (try? query.validated()) != nil else { continue }
            try await Self.setQuery(c, query, json: json)
            let oracle = try Self.make(query)
            try await oracle.receive(.put, at: .root, json: json)
            #expect(c.collection.models == oracle.collection.models, "seed \(seed), step \(step), \(query)")
            #expect(watched.problem == nil, "seed \(seed), step \(step): \(watched.problem ?? "")")
        }
    }

    @Test("against live-server: a wider limit loads the new children as one change, and writes stay live")
    func againstTheServer() async throws {
        try await withServer { server in
            let client = try await FirebaseCollectionModesServerTests.fill(server)
            let base = DatabaseQuery(order: .child("s"))
            let c = try FirebaseCollection(reference: try DatabaseReference(url: server.url, path: "/items"),
                                           query: base.limited(toFirst: 5), mode: .all,
                                           dataSource: DecodingDataSource<RawChild>(),
                                           opener: .database(configuration: FirebaseCollectionModesServerTests.fast))
            let recorder = CollectionRecorder()
            let token = c.collection.addObserver(recorder)
            defer { token.cancel(); c.stop() }
            try await c.start()
            recorder.batches.removeAll()
            try await c.setQuery(base.limited(toFirst: 8))
            #expect(c.collection.models.map(\.identifier) == (try FirebaseCollectionModesServerTests.keys(0..<8)))
            #expect(recorder.batches.count == 1 && recorder.batches[0].inserted == [5, 6, 7] && recorder.batches[0].updated.isEmpty,
                    "\(recorder.batches)")
            // Live under the new query.
            let seen = c.observeValue {}
            defer { seen.cancel() }
            try await client.set(.object(["s": .number(-1), "t": "y"]), at: "k19")
            #expect(try await FirebaseCollectionModesServerTests.settles(c, server, base.limited(toFirst: 8)))
        }
    }
}
