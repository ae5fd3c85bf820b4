// ReadIndexesTests.swift — indexes kept for reads: built once, caught up
// with the writes made while they were built, updated or dropped by later
// writes, at most `capacity` of them.

import LiveModel
@testable import LiveServer
import Testing

@Suite("ReadIndexes")
struct ReadIndexesTests {
    static let room: DatabasePath = "room"

    static func query(_ parameters: [String: String]) throws -> DatabaseQuery {
        try #require(try DatabaseQuery(parameters: parameters))
    }

    static let byScore = [#"orderBy"#: #""score""#, "limitToLast": "3"]

    /// A store whose `/room` holds `c0` … `c9` scored 0 … 9.
    static func store() throws -> Store {
        var store = Store()
        let children = (0..<10).map { "\"c\($0)\": {\"score\": \($0)}" }.joined(separator: ",")
        _ = try store.set(room, json: storeJSON("{" + children + "}"), now: 0)
        return store
    }

    /// Applies a PATCH at `/room` and returns it as the server publishes it.
    static func patch(_ store: inout Store, _ body: String) throws -> Mutation {
        Mutation(base: room, isMerge: true, writes: try store.update(room, json: storeJSON(body), now: 0))
    }

    static func answer(_ lookup: ReadIndexes.Lookup) -> [String]? {
        guard case .answered(let window) = lookup else { return nil }
        return window.map(\.key.string)
    }

    @Test("a build catches up the writes below the location made meanwhile")
    func catchUp() throws {
        var store = try Self.store()
        var reads = ReadIndexes(capacity: 4, smallestIndexed: 0)
        let query = try Self.query(Self.byScore)
        let read = store.get(Self.room)
        guard case .build = reads.lookup(query, at: Self.room, in: read) else { Issue.record("no build"); return }
        // A second read while the first builds reads every child.
        guard case .scan = reads.lookup(query, at: Self.room, in: read) else { Issue.record("built twice"); return }
        let index = OrderIndex(query.order, of: read)
        reads.takeIn(try Self.patch(&store, #"{"c0/score": 50, "c9": null, "c4/name": "x"}"#), store: store)
        reads.keep(index, at: Self.room, in: store.get(Self.room))
        #expect(reads.count == (1, 0))
        #expect(Self.answer(reads.lookup(query, at: Self.room, in: store.get(Self.room))) == ["c7", "c8", "c0"])
        // Another query in the same order, with bounds, from the same index.
        let bounded = try Self.query([#"orderBy"#: #""score""#, "startAt": "2", "endAt": "5"])
        #expect(Self.answer(reads.lookup(bounded, at: Self.room, in: store.get(Self.room))) == ["c2", "c3", "c4", "c5"])
        // A write after it was kept.
        reads.takeIn(try Self.patch(&store, #"{"c1/score": 60}"#), store: store)
        #expect(Self.answer(reads.lookup(query, at: Self.room, in: store.get(Self.room))) == ["c8", "c0", "c1"])
    }

    @Test("a write at or above the location drops a build under way and a kept index")
    func replaced() throws {
        var store = try Self.store()
        var reads = ReadIndexes(capacity: 4, smallestIndexed: 0)
        let query = try Self.query(Self.byScore)
        _ = reads.lookup(query, at: Self.room, in: store.get(Self.room))
        let index = OrderIndex(query.order, of: store.get(Self.room))
        let writes = try store.set(Self.room, json: storeJSON(#"{"x": {"score": 1}}"#), now: 0)
        reads.takeIn(Mutation(base: Self.room, isMerge: false, writes: writes), store: store)
        reads.keep(index, at: Self.room, in: store.get(Self.room))
        #expect(reads.count == (0, 0))

        guard case .build = reads.lookup(query, at: Self.room, in: store.get(Self.room)) else {
            Issue.record("no build after a dropped one")
            return
        }
        reads.keep(OrderIndex(query.order, of: store.get(Self.room)), at: Self.room, in: store.get(Self.room))
        #expect(Self.answer(reads.lookup(query, at: Self.room, in: store.get(Self.room))) == ["x"])
        let root = try store.set(.root, json: storeJSON(#"{"room": {"y": {"score": 2}}}"#), now: 0)
        reads.takeIn(Mutation(base: .root, isMerge: false, writes: root), store: store)
        #expect(reads.count == (0, 0))
        // A write elsewhere changes nothing.
        guard case .build = reads.lookup(query, at: Self.room, in: store.get(Self.room)) else {
            Issue.record("no build after a write above")
            return
        }
        reads.keep(OrderIndex(query.order, of: store.get(Self.room)), at: Self.room, in: store.get(Self.room))
        let elsewhere = try store.set("other", json: storeJSON("1"), now: 0)
        reads.takeIn(Mutation(base: "other", isMerge: false, writes: elsewhere), store: store)
        #expect(reads.count == (1, 0))
    }

    @Test("more children written during a build than are caught up drop it")
    func tooManyMeanwhile() throws {
        let store = try Self.store()
        var reads = ReadIndexes(capacity: 4, smallestIndexed: 0)
        let query = try Self.query(Self.byScore)
        _ = reads.lookup(query, at: Self.room, in: store.get(Self.room))
        let writes = (0...ReadIndexes.catchUpLimit).map {
            Write(path: DatabasePath(uncheckedKeys: ["room", Key(unchecked: "n\($0)")]), node: .empty)
        }
        reads.takeIn(Mutation(base: Self.room, isMerge: true, writes: writes), store: store)
        reads.keep(OrderIndex(query.order, of: store.get(Self.room)), at: Self.room, in: store.get(Self.room))
        #expect(reads.count == (0, 0))
    }

    @Test("at most `capacity` indexes, the least recently read going first; none without a limit or bounds")
    func capacity() throws {
        let store = try Self.store()
        let room = store.get(Self.room)
        var reads = ReadIndexes(capacity: 2, smallestIndexed: 0)
        let orders = ["\"score\"", "\"$key\"", "\"$value\""]
        let queries = try orders.map { try Self.query(["orderBy": $0, "limitToFirst": "1"]) }
        for query in queries.prefix(2) {
            _ = reads.lookup(query, at: Self.room, in: room)
            reads.keep(OrderIndex(query.order, of: room), at: Self.room, in: room)
        }
        _ = reads.lookup(queries[0], at: Self.room, in: room)  // read again: the key order is now the oldest
        _ = reads.lookup(queries[2], at: Self.room, in: room)
        reads.keep(OrderIndex(queries[2].order, of: room), at: Self.room, in: room)
        #expect(reads.count == (2, 0))
        #expect(Self.answer(reads.lookup(queries[0], at: Self.room, in: room)) == ["c0"])
        #expect(Self.answer(reads.lookup(queries[2], at: Self.room, in: room)) != nil)
        guard case .build = reads.lookup(queries[1], at: Self.room, in: room) else {
            Issue.record("the least recently read index was kept")
            return
        }

        let alone = try Self.query(["orderBy": "\"score\""])
        guard case .scan = reads.lookup(alone, at: Self.room, in: room) else { Issue.record("an order alone"); return }
        var none = ReadIndexes(capacity: 0)
        guard case .scan = none.lookup(queries[0], at: Self.room, in: room) else { Issue.record("capacity 0"); return }
    }

    @Test("no index for a small location, no more than two built at once, no answer of more than answerLimit children from one")
    func limits() throws {
        let store = try Self.store()
        let room = store.get(Self.room)
        var small = ReadIndexes(capacity: 4)
        guard case .scan = small.lookup(try Self.query(Self.byScore), at: Self.room, in: room) else {
            Issue.record("an index for 10 children")
            return
        }
        var reads = ReadIndexes(capacity: 4, smallestIndexed: 0)
        let orders = ["\"score\"", "\"$key\"", "\"$value\""]
        let queries = try orders.map { try Self.query(["orderBy": $0, "limitToFirst": "1"]) }
        guard case .build = reads.lookup(queries[0], at: Self.room, in: room),
              case .build = reads.lookup(queries[1], at: Self.room, in: room),
              case .scan = reads.lookup(queries[2], at: Self.room, in: room) else {
            Issue.record("more than two builds at once")
            return
        }
        var big = Store()
        let many = (0...ReadIndexes.answerLimit).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        _ = try big.set(Self.room, json: storeJSON("{" + many + "}"), now: 0)
        let all = try Self.query(["orderBy": "\"$value\"", "startAt": "0"])
        let some = try Self.query(["orderBy": "\"$value\"", "startAt": "0", "limitToFirst": "\(ReadIndexes.answerLimit)"])
        var bigReads = ReadIndexes(capacity: 4)
        _ = bigReads.lookup(all, at: Self.room, in: big.get(Self.room))
        bigReads.keep(OrderIndex(.value, of: big.get(Self.room)), at: Self.room, in: big.get(Self.room))
        guard case .scan = bigReads.lookup(all, at: Self.room, in: big.get(Self.room)) else {
            Issue.record("answered more than answerLimit children under the lock")
            return
        }
        #expect(Self.answer(bigReads.lookup(some, at: Self.room, in: big.get(Self.room)))?.count == ReadIndexes.answerLimit)
    }
}
