// FirebaseCollectionBackgroundTests+Replacement.swift — a new query's first value and
// a page's seed are made away from the main actor; whatever the main actor
// does meanwhile, the rows end up those of the query.

import Foundation
@testable import LiveFirebase
import LiveCollection
import LiveModel
import LiveSections
import LiveServer
import Testing

// In the serialized suite of the first loads: a test holding work at its
// gate blocks one of the few threads that run tasks.
extension FirebaseCollectionBackgroundTests {
    typealias Collection = FirebaseCollection<DecodingDataSource<RawChild>>
    typealias Q = FirebaseCollectionSetQueryTests

    /// A filter that accepts every child and, the first time it meets the
    /// child `gate` once armed, waits at `gate`. (It waits there away from
    /// the main actor, or the test would hang: the test runs on it.)
    static func gated(_ gate: PreparationGate) -> (filter: Collection.ChildFilter, arm: @Sendable () -> Void) {
        let lock = NSLock(), state = UnsafeSendableBox((armed: false, met: false))
        let filter: Collection.ChildFilter = { child in
            guard child.key == "gate" else { return true }
            let wait = lock.withLock { () -> Bool in
                guard state.value.armed, !state.value.met else { return false }
                state.value.met = true
                return true
            }
            if wait { gate.arriveAndWait() }
            return true
        }
        return (filter, { lock.withLock { state.value.armed = true } })
    }

    /// Loads `value(n)` plus a child `gate` (s = -1) into an offline
    /// collection of `query` filtered by `filter`, starts setting `next`,
    /// and feeds its first value (`json`) in a task: returns once that
    /// value waits at `gate`, away from the main actor.
    static func heldReplacement(_ query: DatabaseQuery, next: DatabaseQuery, json: String, gate: PreparationGate,
                                writes: WriteGate? = nil) async throws
        -> (Collection, change: Task<Void, any Error>, feed: Task<Void, any Error>) {
        let c = try writes.map { try Self.make(query, writes: $0) } ?? Q.make(query)
        try await c.receive(.put, at: .root, json: Self.withGate(json))
        let (filter, arm) = Self.gated(gate)
        c.setFilter(filter)
        arm()
        let change = await Q.startSetQuery(c, next)
        let feed = Task { try await c.receive(.put, at: .root, json: Self.withGate(json)) }
        while !gate.arrived { await Task.yield() }
        return (c, change, feed)
    }

    /// An offline collection of `query` whose writes go to `writes`.
    static func make(_ query: DatabaseQuery, writes: WriteGate) throws -> Collection {
        try FirebaseCollection(reference: try DatabaseReference(url: "http://127.0.0.1:9", path: "/items"), query: query,
                               mode: .all, dataSource: DecodingDataSource<RawChild>(), opener: .offline,
                               writer: writes.sender)
    }

    /// Confirms the write `id` that `writes` holds, and returns once the
    /// collection has its answer.
    static func confirm(_ id: Int, of c: Collection, at writes: WriteGate) async {
        _ = await writes.next()
        writes.answer()
        _ = await c.outcome(of: id)
    }

    static func withGate(_ json: String) -> String {
        #"{"gate": {"s": -1}, "# + json.dropFirst()
    }

    @Test("setQuery: the new value is indexed and compared away from the main actor, rows that stay are not reloaded")
    func queryPreparedAway() async throws {
        let gate = PreparationGate()
        let base = DatabaseQuery(order: .child("s"))
        let c = try Q.make(base)
        defer { c.stop() }
        try await c.receive(.put, at: .root, json: Self.withGate(Q.value(6)))
        let watched = WatchedSections(c.collection)
        let change = await Q.startSetQuery(c, base.ending(at: .number(3)))
        // Set while the collection waits for the new value: the filter
        // first runs when the value is prepared.
        let (filter, arm) = Self.gated(gate)
        c.setFilter(filter)
        arm()
        let held = Task { try await c.receive(.put, at: .root, json: Self.withGate(Q.value(6, changed: [2]))) }
        _ = watched.takeStages()
        while !gate.arrived { await Task.yield() }
        // The main actor runs while the value is prepared: nothing changed yet.
        #expect(Q.keys(c) == ["gate", "k0", "k1", "k2", "k3", "k4", "k5"])
        gate.open()
        try await held.value
        try await change.value
        #expect(!gate.waitTimedOut)
        #expect(Q.keys(c) == ["gate", "k0", "k1", "k2", "k3"])
        let stages = watched.takeStages()
        #expect(stages.count == 1, "\(stages)")
        #expect(stages.flatMap { $0.flatMap(\.reloadedRows) }.count == 1, "only k2 changed: \(stages)")
        #expect(watched.problem == nil, "\(watched.problem ?? "")")
        #expect(c.status == .live)
    }

    @Test("setQuery: a local write made while the value is prepared is shown over it")
    func queryLocalWriteMeanwhile() async throws {
        let gate = PreparationGate(), writes = WriteGate()
        let base = DatabaseQuery(order: .child("s"))
        let (c, change, feed) = try await Self.heldReplacement(base, next: base.ending(at: .number(3)), json: Q.value(6),
                                                               gate: gate, writes: writes)
        defer { c.stop() }
        let id = try c.write(.set(DatabasePath("/n"), .object(["s": .number(2.5)])))
        gate.open()
        try await feed.value
        try await change.value
        #expect(Q.keys(c) == ["gate", "k0", "k1", "k2", "n", "k3"])
        #expect(c.view.visible.compactMap(\.key?.string) == Q.keys(c))
        await Self.confirm(id, of: c, at: writes)
    }

    @Test("setQuery: another query set while the value is prepared takes its place; the first value is dropped")
    func queryReplacedMeanwhile() async throws {
        let gate = PreparationGate()
        let base = DatabaseQuery(order: .child("s"))
        let (c, change, feed) = try await Self.heldReplacement(base, next: base.ending(at: .number(3)), json: Q.value(6),
                                                               gate: gate)
        defer { c.stop() }
        let second = await Q.startSetQuery(c, base.starting(at: .number(4)))
        gate.open()
        try await feed.value
        #expect(Q.keys(c) == ["gate", "k0", "k1", "k2", "k3", "k4", "k5"], "the first value was not the second query's")
        try await c.receive(.put, at: .root, json: Self.withGate(Q.value(6)))
        try await second.value
        try await change.value
        #expect(Q.keys(c) == ["k4", "k5"])
        #expect(c.view.query == base.starting(at: .number(4)))
    }

    @Test("setQuery: stopped while the value is prepared, the old query comes back and the value is dropped")
    func queryStoppedMeanwhile() async throws {
        let gate = PreparationGate()
        let base = DatabaseQuery(order: .child("s"))
        let (c, change, feed) = try await Self.heldReplacement(base, next: base.ending(at: .number(3)), json: Q.value(6),
                                                               gate: gate)
        c.stop()
        await #expect(throws: DatabaseError.stopped) { try await change.value }
        gate.open()
        try await feed.value
        #expect(Q.keys(c) == ["gate", "k0", "k1", "k2", "k3", "k4", "k5"])
        #expect(c.query == base)
        #expect(c.status == .stopped)
    }

    @Test("setQuery: a message given while the value is prepared applies after it")
    func queryMessageMeanwhile() async throws {
        let gate = PreparationGate()
        let base = DatabaseQuery(order: .child("s"))
        let (c, change, feed) = try await Self.heldReplacement(base, next: base.ending(at: .number(3)), json: Q.value(6),
                                                               gate: gate)
        defer { c.stop() }
        let patch = Task { try await c.receive(.patch, at: .root, json: #"{"k1/t": "late"}"#) }
        for _ in 0..<20 { await Task.yield() }
        #expect(c.collection.model(for: "k1")?.dictionary["t"] == nil, "applied before the value")
        gate.open()
        try await feed.value
        try await change.value
        try await patch.value
        #expect(Q.keys(c) == ["gate", "k0", "k1", "k2", "k3"])
        #expect(c.collection.model(for: "k1")?.dictionary["t"] == .string("late"))
    }

    @Test("setQuery: a row a write showed while a query change waited goes when the next query does not hold it")
    func queryAfterWriteMeanwhile() async throws {
        let base = DatabaseQuery(order: .child("s")), writes = WriteGate()
        let c = try Self.make(base, writes: writes)
        defer { c.stop() }
        try await c.receive(.put, at: .root, json: Q.value(6))
        let first = await Q.startSetQuery(c, base.ending(at: .number(3)))
        let id = try c.write(.set(DatabasePath("/w"), .object(["s": .number(2.5)])))
        #expect(Q.keys(c).contains("w"))
        let second = await Q.startSetQuery(c, base.ending(at: .number(2)))
        try await c.receive(.put, at: .root, json: Q.value(6))
        try await second.value
        try await first.value
        #expect(Q.keys(c) == ["k0", "k1", "k2"])
        await Self.confirm(id, of: c, at: writes)
    }

    @Test("setQuery: a filter set while the value is prepared applies once it is in")
    func queryFilterMeanwhile() async throws {
        let gate = PreparationGate()
        let base = DatabaseQuery(order: .child("s"))
        let (c, change, feed) = try await Self.heldReplacement(base, next: base.ending(at: .number(3)), json: Q.value(6),
                                                               gate: gate)
        defer { c.stop() }
        c.setFilter { $0.key != "k1" }
        gate.open()
        try await feed.value
        try await change.value
        #expect(Q.keys(c) == ["gate", "k0", "k2", "k3"])
    }

    /// An offline collection in pages of 3 that has loaded `value(10)`,
    /// whose next page's seeding waits at `gate` (the first time): returns
    /// once it waits there, with the page's task.
    func heldPage(_ gate: PreparationGate) async throws -> (Collection, page: Task<Int, any Error>) {
        let c = try FirebaseCollection(reference: try DatabaseReference(url: "http://127.0.0.1:9", path: "/items"),
                                       query: DatabaseQuery(order: .child("s")), mode: .paged(size: 3),
                                       dataSource: DecodingDataSource<RawChild>(), opener: .offline)
        // Listening (to a stream that brings nothing), fed by hand.
        let started = Task { try await c.start() }
        while c.generation == 0 { await Task.yield() }
        try await c.receive(.put, at: .root, json: Q.value(10))
        try await started.value
        let lock = NSLock(), met = UnsafeSendableBox(false)
        c.seedingPage = {
            if lock.withLock({ () -> Bool in defer { met.value = true }; return !met.value }) { gate.arriveAndWait() }
        }
        let page = Task { try await c.loadNextPage() }
        while !gate.arrived { await Task.yield() }
        return (c, page)
    }

    @Test("loadNextPage: the new window is seeded away from the main actor, again if the rows change meanwhile")
    func pageSeededAway() async throws {
        let gate = PreparationGate()
        let (c, page) = try await heldPage(gate)
        defer { c.stop() }
        // Shown meanwhile: k1 gets a member the server's next value does
        // not hold. A seed made before it would hide that difference.
        try await c.receive(.patch, at: .root, json: #"{"k1/t": "meanwhile"}"#)
        #expect(c.collection.model(for: "k1")?.dictionary["t"] == .string("meanwhile"))
        gate.open()
        while c.view.query.limit != .first(6) { await Task.yield() }
        try await c.receive(.put, at: .root, json: Q.value(10))
        #expect(try await page.value == 3)
        #expect(!gate.waitTimedOut)
        #expect(Q.keys(c) == ["k0", "k1", "k2", "k3", "k4", "k5"])
        #expect(c.collection.model(for: "k1")?.dictionary["t"] == nil, "the seed missed the change made meanwhile")
        #expect(c.pages == 2)
    }

    @Test("loadNextPage: stopped while the window is seeded, it throws stopped and no page is counted")
    func pageStoppedMeanwhile() async throws {
        let gate = PreparationGate()
        let (c, page) = try await heldPage(gate)
        c.stop()
        gate.open()
        await #expect(throws: DatabaseError.stopped) { try await page.value }
        #expect(c.pages == 1)
        #expect(c.view.query.limit == .first(3))
        #expect(c.status == .stopped)
        #expect(Q.keys(c) == ["k0", "k1", "k2"])
    }

    @Test("loadNextPage: gone offline while the window is seeded, the page loads once online")
    func pageOfflineMeanwhile() async throws {
        let gate = PreparationGate()
        let (c, page) = try await heldPage(gate)
        defer { c.stop() }
        c.goOffline()
        gate.open()
        while c.view.query.limit != .first(6) { await Task.yield() }
        #expect(c.status == .offline)
        c.goOnline()
        try await c.receive(.put, at: .root, json: Q.value(10))
        #expect(try await page.value == 3)
        #expect(c.pages == 2)
        #expect(Q.keys(c) == ["k0", "k1", "k2", "k3", "k4", "k5"])
    }

    @Test("loadNextPage: a new query that fails while the window is seeded leaves the pages as shown")
    func pageFailedQueryMeanwhile() async throws {
        let gate = PreparationGate()
        let (c, page) = try await heldPage(gate)
        defer { c.stop() }
        let change = await Q.startSetQuery(c, DatabaseQuery(order: .child("s")).starting(at: .number(5)))
        await c.receive(.ended(.permissionDenied("refused")))
        await #expect(throws: DatabaseError.self) { try await change.value }
        #expect(c.pages == 1 && c.view.query.limit == .first(3), "\(c.pages) pages, \(c.view.query)")
        gate.open()
        while c.view.query.limit != .first(6) { await Task.yield() }
        try await c.receive(.put, at: .root, json: Q.value(10))
        _ = try await page.value
        #expect(c.pages == 2)
        #expect(Q.keys(c) == ["k0", "k1", "k2", "k3", "k4", "k5"])
    }

    @Test("loadNextPage: a new query set while the window is seeded takes its place")
    func pageQueryMeanwhile() async throws {
        let gate = PreparationGate()
        let (c, page) = try await heldPage(gate)
        defer { c.stop() }
        let change = await Q.startSetQuery(c, DatabaseQuery(order: .child("s")).starting(at: .number(5)))
        gate.open()
        _ = try await page.value
        try await c.receive(.put, at: .root, json: Q.value(10))
        try await change.value
        #expect(Q.keys(c) == ["k5", "k6", "k7"])
        #expect(c.pages == 1)
    }

    @Test("the rows a view of a query shows, from its children alone: as the view shows them (seeded)")
    func visibleFromChildren() throws {
        let seed = testSeed()
        var rng = SplitMix64(seed: seed)
        for round in 0..<200 {
            let n = Int.random(in: 0..<40, using: &rng)
            var query = DatabaseQuery(order: [.child("s"), .key, .value, .priority].randomElement(using: &rng)!)
            if Bool.random(using: &rng) { query.start = .init(value: .number(Double(Int.random(in: -2..<8, using: &rng)))) }
            if Bool.random(using: &rng) { query.end = .init(value: .number(Double(Int.random(in: 0..<10, using: &rng)))) }
            if query.order == .key { query.start = nil; query.end = nil }
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: query.limit = .first(Int.random(in: 1..<10, using: &rng))
            case 1: query.limit = .last(Int.random(in: 1..<10, using: &rng))
            default: break
            }
            let json = "{" + (0..<n).map { i in
                let s = Int.random(in: -3..<10, using: &rng)
                return query.order == .value ? #""k\#(i)": \#(s)"# : #""k\#(i)": {"s": \#(s), ".priority": \#(s % 4)}"#
            }.joined(separator: ", ") + "}"
            let view = QueryView(query: query)
            _ = view.apply(try StreamPayload.parse(json: Array(#"{"path": "/", "data": \#(json)}"#.utf8), kind: .put,
                                                   order: query.order), filtered: false)
            let rebuilt = QueryView.visible(of: view.cache, under: query)
            #expect(rebuilt.map(\.key) == view.visible.map(\.key), "seed \(seed), round \(round), \(query)")
        }
    }
}

/// A value shared by a `@Sendable` closure, guarded by its user's lock.
final class UnsafeSendableBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
