// FirebaseCollectionOfflineTests.swift — the collection fed by hand: load
// modes, resync, child events, bad input.

@testable import LiveFirebase
import LiveCollection
import LiveModel
import Testing

@MainActor
@Suite("FirebaseCollection fed by hand")
struct FirebaseCollectionOfflineTests {
    func make(_ mode: LoadMode, _ query: DatabaseQuery = DatabaseQuery(order: .child("s"))) throws
        -> (FirebaseCollection<DecodingDataSource<RawChild>>, CollectionRecorder, ObservationToken) {
        let reference = try DatabaseReference(url: "http://127.0.0.1:9", path: "/items")
        let c = try FirebaseCollection(reference: reference, query: query, mode: mode,
                                       dataSource: DecodingDataSource<RawChild>(), opener: .offline)
        let recorder = CollectionRecorder()
        let token = c.collection.addObserver(recorder)
        return (c, recorder, token)
    }

    func keys(_ c: FirebaseCollection<DecodingDataSource<RawChild>>) -> [String] {
        c.collection.models.map(\.identifier.string)
    }

    @Test("mode all: the first value is one batch between did-start and did-end load")
    func allAtOnce() async throws {
        let (c, r, token) = try make(.all)
        defer { token.cancel() }
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 3}, "b": {"s": 1}, "c": {"s": 2}}"#)
        #expect(keys(c) == ["b", "c", "a"])
        #expect(r.log == ["start", "batch deleted [] inserted [0, 1, 2] moved [] updated [] (0 -> 3)", "end"]
                || (r.log.first == "start" && r.log.last == "end" && r.batches.count == 1 && r.batches[0].inserted == [0, 1, 2]),
                "\(r.log)")
        #expect(c.status == .live)
    }

    @Test("mode live: the first value arrives child by child in query order")
    func childByChild() async throws {
        let (c, r, token) = try make(.live)
        defer { token.cancel() }
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 3}, "b": {"s": 1}, "c": {"s": 2}}"#)
        #expect(r.log == ["start", "insert b@0", "insert c@1", "insert a@2", "end"], "\(r.log)")
    }

    @Test("a later whole value is the smallest change, one batch: no reload, no duplicate")
    func resync() async throws {
        let (c, r, token) = try make(.all)
        defer { token.cancel() }
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 1}, "b": {"s": 2}, "c": {"s": 3}, "d": {"s": 4}}"#)
        r.log.removeAll(); r.batches.removeAll()
        // b removed, c changed in place, a moved to the end, e added.
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 9}, "c": {"s": 3, "t": 1}, "d": {"s": 4}, "e": {"s": 5}}"#)
        #expect(keys(c) == ["c", "d", "e", "a"])
        let batch = try #require(r.batches.first)
        #expect(r.batches.count == 1)
        #expect(batch.deleted == [1] && batch.inserted == [2] && batch.updated == [2]
                && batch.moved == [BatchMove(from: 0, to: 3, updated: true)], "\(batch)")
    }

    @Test("child events come in Firebase's order with the previous key after the update")
    func childEvents() async throws {
        let (c, _, token) = try make(.live)
        defer { token.cancel() }
        var seen: [String] = []
        let observation = c.observeChildEvents { seen.append("\($0.kind.rawValue) \($0.key) \($0.previousKey?.string ?? "-")") }
        defer { observation.cancel() }
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 1}, "b": {"s": 2}, "c": {"s": 3}}"#)
        seen.removeAll()
        try await c.receive(.patch, at: .root, json: #"{"a/s": 5, "b": null, "d": {"s": 0}, "c/t": "x"}"#)
        #expect(seen == ["child_removed b -", "child_added d -", "child_moved a c", "child_changed c d", "child_changed a c"],
                "\(seen)")
        #expect(keys(c) == ["d", "c", "a"])
    }

    @Test("unknown removals, deep changes of absent children and bad JSON change nothing and do not crash")
    func robustness() async throws {
        let (c, r, token) = try make(.all)
        defer { token.cancel() }
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 1}}"#)
        r.log.removeAll()
        try await c.receive(.put, at: "/zzz", json: "null")
        try await c.receive(.patch, at: "/", json: #"{"nothing": null}"#)
        #expect(r.log.isEmpty && keys(c) == ["a"])
        await #expect(throws: DatabaseError.self) { try await c.receive(.put, at: "/b", json: #"{"s": 1,,}"#) }
        do {
            try await c.receive(.put, at: "/b", json: "{\"s\": 1,\n  oops}")
        } catch {
            #expect("\(error)".contains("line 2"), "the position is the data's: \(error)")
        }
        #expect(keys(c) == ["a"] && r.log.isEmpty)
    }

    @Test("injected data is the location's whole data: with a limit, a child created below a path enters, and one that leaves lets the next in")
    func limitOverInjectedData() async throws {
        let (c, _, token) = try make(.live, DatabaseQuery(order: .child("s")).limited(toLast: 2))
        defer { token.cancel() }
        var seen: [String] = []
        let observation = c.observeChildEvents { seen.append("\($0.kind.rawValue) \($0.key) \($0.previousKey?.string ?? "-")") }
        defer { observation.cancel() }
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 1}, "b": {"s": 2}, "c": {"s": 3}}"#)
        #expect(keys(c) == ["b", "c"])
        seen.removeAll()
        try await c.receive(.put, at: "/c/s", json: "0")
        #expect(seen == ["child_removed c -", "child_added a -"] && keys(c) == ["a", "b"], "\(seen)")
        seen.removeAll()
        try await c.receive(.patch, at: .root, json: #"{"d/s": 9, "d/t": "x"}"#)
        #expect(seen == ["child_removed a -", "child_added d b"] && keys(c) == ["b", "d"], "\(seen)")
        #expect(c.collection.models.last?.dictionary == .object(["s": .number(9), "t": .string("x")]))
    }
}
