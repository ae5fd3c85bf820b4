// LocalWriteTests.swift — writes made through a collection: shown at once,
// sent in order, confirmed without flicker, reverted as one change.
@testable import LiveFirebase
import LiveSections
import LiveTestSupport
import Testing

@MainActor
@Suite("FirebaseCollection writes")
struct LocalWriteTests {
    typealias Collection = FirebaseCollection<DecodingDataSource<RawChild>>

    static func make(_ gate: WriteGate, query: DatabaseQuery = DatabaseQuery(order: .child("s")),
                     cache: CollectionCache? = nil) throws -> Collection {
        try FirebaseCollection(reference: try DatabaseReference(url: "http://127.0.0.1:9", path: "/items"), query: query,
                               mode: .live, dataSource: DecodingDataSource<RawChild>(), opener: .offline, cache: cache,
                               writer: gate.sender)
    }

    static func rows(_ c: Collection) -> [String] {
        c.collection.models.map { "\($0.identifier)=\($0.dictionary["s"]?.numberValue.map { Int($0) } ?? -1)" }
    }

    @Test("a write shows at once; its confirmation and the server's same data change nothing")
    func confirmed() async throws {
        let gate = WriteGate()
        let c = try Self.make(gate)
        defer { c.stop() }
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 1}, "b": {"s": 2}}"#)
        let watched = WatchedSections(c.collection)
        var states: [String] = []
        let token = c.observeWrites { states.append("\($0) \($1)") }
        let id = try c.write(.set("/c", ["s": 0]))
        #expect(Self.rows(c) == ["c=0", "a=1", "b=2"])
        #expect(c.pendingWrites == [id])
        #expect(await gate.next() == .set("/c", ["s": 0]))
        gate.answer()
        #expect(await c.outcome(of: id) == .confirmed)
        #expect(await c.outcome(of: 999) == nil, "a number never given")
        try await c.receive(.put, at: "/c", json: #"{"s": 0}"#)
        #expect(Self.rows(c) == ["c=0", "a=1", "b=2"])
        #expect(watched.takeStages().count == 1, "one change: the write; nothing at its confirmation or echo")
        #expect(states == ["\(id) pending", "\(id) confirmed"])
        #expect(c.pendingWrites.isEmpty)
        #expect(watched.problem == nil, "\(watched.problem ?? "")")
        token.cancel()
    }

    @Test("a refused write is reverted as one change and its error thrown")
    func refused() async throws {
        let gate = WriteGate()
        let c = try Self.make(gate)
        defer { c.stop() }
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 1}, "b": {"s": 2}}"#)
        let watched = WatchedSections(c.collection)
        let write = Task { try await c.update(["a/s": 3, "b": .null, "n": ["s": 0]]) }
        _ = await gate.next()
        #expect(Self.rows(c) == ["n=0", "a=3"])
        gate.answer(.permissionDenied("Permission denied"))
        await #expect(throws: DatabaseError.permissionDenied("Permission denied")) { try await write.value }
        #expect(Self.rows(c) == ["a=1", "b=2"])
        let stages = watched.takeStages()
        #expect(stages.count == 2, "the write, then its revert: \(stages)")
        #expect(watched.problem == nil, "\(watched.problem ?? "")")
    }

    @Test("the server's data wins where it spoke before the confirmation (a server value)")
    func serverValue() async throws {
        let gate = WriteGate()
        let c = try Self.make(gate)
        defer { c.stop() }
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 1}}"#)
        let id = try c.write(.set("/a/t", [".sv": "timestamp"]))
        let estimate = try #require(c.collection.models[0].dictionary["t"]?.numberValue)
        #expect(estimate > 1_700_000_000_000, "estimated with this machine's clock")
        _ = await gate.next()
        try await c.receive(.put, at: "/a/t", json: "42")
        #expect(c.collection.models[0].dictionary["t"]?.numberValue == estimate, "still the write until confirmed")
        gate.answer()
        #expect(await c.outcome(of: id) == .confirmed)
        #expect(c.collection.models[0].dictionary["t"]?.numberValue == 42)
    }

    @Test("a server value confirmed before its data came stays estimated until the data comes, then shows it")
    func serverValueDataAfterConfirmation() async throws {
        let gate = WriteGate()
        let c = try Self.make(gate)
        defer { c.stop() }
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 1, "n": 5}}"#)
        let watched = WatchedSections(c.collection)
        let id = try c.write(.update("/a", ["n": [".sv": ["increment": 2]], "t": [".sv": "timestamp"]]))
        #expect(c.collection.models[0].dictionary["n"] == 7, "estimated over what is shown")
        _ = await gate.next()
        gate.answer()
        #expect(await c.outcome(of: id) == .confirmed)
        #expect(c.collection.models[0].dictionary["n"] == 7 && watched.takeStages().count == 1, "no flicker")
        #expect(!c.canSaveCache || c.cache == nil)
        try await c.receive(.patch, at: "/a", json: #"{"n": 8, "t": 42}"#)
        #expect(c.collection.models[0].dictionary == ["s": 1, "n": 8, "t": 42], "the server's values")
        #expect(c.view.localWrites.isEmpty)
    }

    @Test("writes made are sent and answered even when nobody holds the collection any more")
    func sentAfterRelease() async throws {
        let gate = WriteGate()
        weak var released: Collection?
        do {
            let c = try Self.make(gate)
            try await c.receive(.put, at: .root, json: "{}")
            try c.write(.set("/a", ["s": 1]))
            try c.write(.set("/b", ["s": 2]))
            c.stop()
            released = c
        }
        #expect(await gate.next() == .set("/a", ["s": 1]))
        gate.answer()
        #expect(await gate.next() == .set("/b", ["s": 2]))
        gate.answer()
        while released != nil { await Task.yield() }
        #expect(gate.sent.count == 2)
    }

    @Test("writes go one at a time, in the order they were made; a push is named here")
    func order() async throws {
        let gate = WriteGate()
        let c = try Self.make(gate, query: DatabaseQuery(order: .key))
        defer { c.stop() }
        try await c.receive(.put, at: .root, json: "{}")
        let (first, _) = try c.pushWrite(["s": 1])
        let (second, _) = try c.pushWrite(["s": 2])
        #expect(first < second)
        try c.write(.remove(try DatabasePath([first])))
        #expect(c.collection.models.map(\.identifier) == [second])
        #expect(await gate.next() == .set(try DatabasePath([first]), ["s": 1]))
        #expect(gate.sent.count == 1, "the next waits for the first's answer")
        gate.answer()
        #expect(await gate.next() == .set(try DatabasePath([second]), ["s": 2]))
        gate.answer()
        #expect(await gate.next() == .remove(try DatabasePath([first])))
        gate.answer()
        while !c.pendingWrites.isEmpty { await Task.yield() }
        #expect(c.collection.models.map(\.identifier) == [second])
    }

    @Test("a value the database cannot store is refused before anything shows")
    func invalid() async throws {
        let gate = WriteGate()
        let c = try Self.make(gate)
        defer { c.stop() }
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 1}}"#)
        #expect(throws: DatabaseError.self) { try c.write(.set("/b", ["bad/name": 1])) }
        #expect(throws: DatabaseError.self) { try c.write(.update("/", ["/": 1])) }
        #expect(throws: DatabaseError.self) { try c.write(.update("/", ["a": 1, "a-b": 2, "a/s": 3])) }
        #expect(Self.rows(c) == ["a=1"])
        #expect(c.pendingWrites.isEmpty && gate.sent.isEmpty)
    }
}
