// FirebaseCollectionFilterTests.swift — a client-side filter changed while
// live: one minimal grouped change, children filtered as they change, the
// query's child events kept.
@testable import LiveFirebase
import LiveSections
import Testing

@MainActor
@Suite("FirebaseCollection.setFilter")
struct FirebaseCollectionFilterTests {
    typealias Tests = FirebaseCollectionSetQueryTests
    typealias Collection = Tests.Collection

    /// Shows the children whose `s` is in `range`.
    static func sIn(_ range: ClosedRange<Double>) -> Collection.ChildFilter {
        { child in child.child(Key("s")).value.numberValue.map(range.contains) ?? false }
    }

    /// What a new collection of `query` filtered by `filter` shows of `json`.
    static func fresh(_ query: DatabaseQuery, _ filter: Collection.ChildFilter?, json: String) async throws -> [RawChild] {
        let c = try Tests.make(query)
        c.setFilter(filter)
        try await c.receive(.put, at: .root, json: json)
        return c.collection.models
    }

    @Test("a new filter: one batch of inserts and deletes only, no child events, rows as a new filtered collection's")
    func changeFilter() async throws {
        let query = DatabaseQuery(order: .child("s"))
        let c = try await Tests.loaded(query, 9)
        let watched = WatchedSections(c.collection)
        var events = 0
        let watch = c.observeChildEvents { _ in events += 1 }

        c.setFilter(Self.sIn(2...5))
        #expect(Tests.keys(c) == ["k2", "k3", "k4", "k5"])
        #expect(watched.takeStages().count == 1)
        c.setFilter(Self.sIn(4...7))
        #expect(Tests.keys(c) == ["k4", "k5", "k6", "k7"])
        let stages = watched.takeStages()
        #expect(stages.count == 1, "\(stages)")
        let rows = stages.flatMap { $0 }
        #expect(rows.allSatisfy { $0.reloadedRows.isEmpty && $0.movedRows.isEmpty }, "\(stages)")
        #expect(rows.flatMap(\.deletedRows).count == 2 && rows.flatMap(\.insertedRows).count == 2, "\(stages)")
        #expect(try await Tests.keys(c) == Self.fresh(query, Self.sIn(4...7), json: Tests.value(9)).map(\.identifier.string))
        c.setFilter(nil)
        #expect(Tests.keys(c).count == 9 && watched.takeStages().count == 1)
        #expect(events == 0)
        #expect(watched.problem == nil, "\(watched.problem ?? "")")
        watch.cancel()
    }

    @Test("live changes are filtered: a shown child that fails goes, a hidden one that passes comes; events stay the query's")
    func liveChanges() async throws {
        let c = try await Tests.loaded(DatabaseQuery(order: .child("s")), 6)
        c.setFilter(Self.sIn(0...2))
        var events: [String] = []
        let watch = c.observeChildEvents { events.append("\($0.kind.rawValue) \($0.key)") }
        try await c.receive(.put, at: DatabasePath("/k1/s"), json: "10")
        #expect(Tests.keys(c) == ["k0", "k2"])
        try await c.receive(.put, at: DatabasePath("/k5/s"), json: "1")
        #expect(Tests.keys(c) == ["k0", "k5", "k2"])
        try await c.receive(.put, at: DatabasePath("/k9"), json: #"{"s": 7}"#)
        #expect(Tests.keys(c) == ["k0", "k5", "k2"])
        #expect(events == ["child_moved k1", "child_changed k1", "child_moved k5", "child_changed k5", "child_added k9"])
        watch.cancel()
    }

    @Test("a filter set before the first load filters it, on the background path and the live one")
    func beforeFirstLoad() async throws {
        for mode in [LoadMode.all, .live] {
            let c = try FirebaseCollection(reference: try DatabaseReference(url: "http://127.0.0.1:9", path: "/items"),
                                           query: DatabaseQuery(order: .child("s")), mode: mode,
                                           dataSource: DecodingDataSource<RawChild>(), opener: .offline)
            c.setFilter(Self.sIn(3...4))
            try await c.receive(.put, at: .root, json: Tests.value(8))
            #expect(Tests.keys(c) == ["k3", "k4"], "\(mode)")
        }
    }

    @Test("a query change keeps the filter: the new window is filtered, still as one change")
    func queryChangeKeepsFilter() async throws {
        let base = DatabaseQuery(order: .child("s"))
        let c = try await Tests.loaded(base.limited(toFirst: 4), 9)
        defer { c.stop() }
        c.setFilter { ($0.child(Key("s")).value.numberValue ?? 0).truncatingRemainder(dividingBy: 2) == 0 }
        #expect(Tests.keys(c) == ["k0", "k2"])
        try await Tests.setQuery(c, base.limited(toFirst: 7), json: Tests.value(9))
        #expect(Tests.keys(c) == ["k0", "k2", "k4", "k6"])
    }

    @Test("a filter set while a query change waits: kept when the new query fails, applied to the old query's rows")
    func filterSetWhileQueryWaits() async throws {
        let base = DatabaseQuery(order: .child("s"))
        let c = try await Tests.loaded(base.limited(toFirst: 4), 8)
        defer { c.stop() }
        let change = await Tests.startSetQuery(c, base.limited(toFirst: 6))
        c.setFilter(Self.sIn(0...1))
        #expect(Tests.keys(c) == ["k0", "k1", "k2", "k3"], "applied once the query change is done")
        let refused = c.stream
        defer { refused?.stop() }
        await c.receive(.ended(.permissionDenied("no")))
        await #expect(throws: DatabaseError.self) { try await change.value }
        // The old query listens again: its value comes, and the filter set
        // meanwhile holds.
        try await c.receive(.put, at: .root, json: Tests.value(8))
        #expect(Tests.keys(c) == ["k0", "k1"])
    }

    @Test("a new order shows each row's sort value under it")
    func sortValuesFollowOrder() async throws {
        let c = try await Tests.loaded(DatabaseQuery(order: .child("s")), 4)
        defer { c.stop() }
        #expect(c.collection.sortValue(for: "k3") == .number(3))
        try await Tests.setQuery(c, DatabaseQuery(order: .child("g")), json: Tests.value(4))
        #expect(c.collection.sortValue(for: "k3") == .number(0))
        #expect(c.collection.order == .child("g"))
    }

    @Test("seeded random filters and writes: the rows always equal a new filtered collection's, every stage valid")
    func randomFilters() async throws {
        let seed = testSeed()
        var rng = SplitMix64(seed: seed)
        let query = DatabaseQuery(order: .child("s")).limited(toFirst: 8)
        let c = try Tests.make(query)
        var values = (0..<10).map { Double($0) }
        func json() -> String {
            "{" + values.indices.map { #""k\#($0)": {"s": \#(values[$0]), "g": \#($0 % 3)}"# }.joined(separator: ", ") + "}"
        }
        try await c.receive(.put, at: .root, json: json())
        let watched = WatchedSections(c.collection)
        var filter: Collection.ChildFilter?
        for step in 0..<60 {
            if Bool.random(using: &rng) {
                let low = Double(Int.random(in: 0..<10, using: &rng))
                filter = Int.random(in: 0..<4, using: &rng) == 0 ? nil : Self.sIn(low...low + Double(Int.random(in: 0..<6, using: &rng)))
                c.setFilter(filter)
            } else {
                let i = Int.random(in: 0..<values.count, using: &rng)
                values[i] = Double(Int.random(in: 0..<12, using: &rng))
                try await c.receive(.put, at: DatabasePath("/k\(i)/s"), json: "\(values[i])")
            }
            let expected = try await Self.fresh(query, filter, json: json())
            #expect(c.collection.models == expected, "seed \(seed), step \(step)")
            #expect(watched.problem == nil, "seed \(seed), step \(step): \(watched.problem ?? "")")
        }
    }
}
