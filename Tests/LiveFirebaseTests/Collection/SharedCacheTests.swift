// SharedCacheTests.swift — a new collection shows at once what the other
// collections of its database hold of its location, then its stream's
// value as the smallest change.
@testable import LiveFirebase
import LiveModel
import LiveSections
import Testing

@MainActor
@Suite("SharedCache: what the collections of one database hold, shown at once by a new one")
struct SharedCacheTests {
    typealias Tests = FirebaseCollectionSetQueryTests
    typealias Collection = Tests.Collection

    static func make(_ path: String, _ shared: SharedCache?, url: String = "http://127.0.0.1:9",
                     query: DatabaseQuery = DatabaseQuery(order: .child("s"))) throws -> Collection {
        try FirebaseCollection(reference: try DatabaseReference(url: url, path: path), query: query, mode: .all,
                               dataSource: DecodingDataSource<RawChild>(), opener: .offline, sharedCache: shared)
    }

    /// A collection at `/rooms` holding two rooms, the lobby with 3 members.
    static func rooms(_ shared: SharedCache) async throws -> Collection {
        let rooms = try make("/rooms", shared, query: DatabaseQuery())
        try await rooms.receive(.put, at: .root, json: #"{"lobby": \#(Tests.value(3)), "attic": {"k9": {"s": 9}}}"#)
        return rooms
    }

    @Test("inside a loaded location: its children at once, in one batch, then the server's value as the smallest change")
    func inside() async throws {
        let shared = SharedCache()
        let rooms = try await Self.rooms(shared)
        let lobby = try Self.make("/rooms/lobby", shared)
        defer { lobby.stop() }
        let watched = WatchedSections(lobby.collection)
        let start = try await FirebaseCollectionCacheTests.startCached(lobby)
        #expect(Tests.keys(lobby) == ["k0", "k1", "k2"])
        #expect(watched.takeStages().count == 1)
        // The server's value: k1 changed, k2 gone, k3 new.
        try await lobby.receive(.put, at: .root, json: #"{"k0": {"s": 0, "g": 0}, "k1": {"s": 1, "g": 1, "t": 1}, "k3": {"s": 3, "g": 0}}"#)
        try await start.value
        #expect(lobby.status == .live)
        #expect(Tests.keys(lobby) == ["k0", "k1", "k3"])
        let all = watched.takeStages().flatMap { $0 }
        // (k2 was the only child of its section, by `g`.)
        #expect(all.flatMap(\.reloadedRows).count == 1 && all.flatMap(\.deletedSections).count == 1
                && all.flatMap(\.insertedRows).count == 1, "\(all)")
        #expect(watched.problem == nil, "\(watched.problem ?? "")")
        _ = rooms
    }

    @Test("the same location, in another order: every child at once, in the new collection's order")
    func sameLocation() async throws {
        let shared = SharedCache()
        let lobby = try Self.make("/rooms/lobby", shared, query: DatabaseQuery(order: .key))
        try await lobby.receive(.put, at: .root, json: #"{"b": {"s": 1}, "a": {"s": 2}, "c": {"s": 0}}"#)
        let byScore = try Self.make("/rooms/lobby", shared)
        defer { byScore.stop() }
        _ = try await FirebaseCollectionCacheTests.startCached(byScore)
        #expect(Tests.keys(byScore) == ["c", "b", "a"])
        #expect(Tests.keys(lobby) == ["a", "b", "c"])
    }

    @Test("above loaded items: the items known whole at once, the rest with the server's value")
    func above() async throws {
        let shared = SharedCache()
        let item = try Self.make("/rooms/lobby/k1", shared, query: DatabaseQuery())
        try await item.receive(.put, at: .root, json: #"{"s": 1, "name": "one"}"#)
        let leaf = try Self.make("/rooms/lobby/k2", shared, query: DatabaseQuery())
        try await leaf.receive(.put, at: .root, json: "7")
        let lobby = try Self.make("/rooms/lobby", shared)
        defer { lobby.stop() }
        let start = try await FirebaseCollectionCacheTests.startCached(lobby)
        #expect(Tests.keys(lobby) == ["k2", "k1"]) // a number before an object, by the child `s`
        try await lobby.receive(.put, at: .root, json: Tests.value(4))
        try await start.value
        #expect(Tests.keys(lobby) == ["k0", "k1", "k2", "k3"])
        _ = (item, leaf)
    }

    @Test("nothing shared: another database, a collection released, a window the server cut")
    func misses() async throws {
        let shared = SharedCache()
        var rooms: Collection? = try await Self.rooms(shared)
        let lobby = try DatabaseReference(url: "http://127.0.0.1:9", path: "/rooms/lobby")
        #expect(shared.known(at: lobby) != nil)
        #expect(shared.known(at: try DatabaseReference(url: "http://127.0.0.1:10", path: "/rooms/lobby")) == nil)
        #expect(shared.known(at: try DatabaseReference(url: "http://127.0.0.1:9", path: "/halls")) == nil)
        #expect(rooms != nil)
        rooms = nil
        #expect(shared.known(at: lobby) == nil)
        // A window the server cut holds only part of its location.
        let top = try Self.make("/rooms/lobby", shared, query: DatabaseQuery(order: .child("s")).limited(toFirst: 1))
        _ = top.view.apply([([], try Snapshot.parse(json: Tests.value(3), order: .child("s")))], filtered: true)
        #expect(top.view.count == 1)
        #expect(shared.known(at: lobby) == nil)
    }

    @Test("shown from a shared cache is not passed on until the server confirms it; a stopped collection shares nothing")
    func onlyConfirmed() async throws {
        let shared = SharedCache()
        let item = try Self.make("/rooms/lobby/k1", shared, query: DatabaseQuery())
        try await item.receive(.put, at: .root, json: #"{"s": 1}"#)
        let lobby = try Self.make("/rooms/lobby", shared)
        defer { lobby.stop() }
        let start = try await FirebaseCollectionCacheTests.startCached(lobby)
        // The lobby shows k1 alone: it does not know k0, and says nothing of it.
        let k0 = try DatabaseReference(url: "http://127.0.0.1:9", path: "/rooms/lobby/k0")
        #expect(shared.known(at: k0) == nil)
        try await lobby.receive(.put, at: .root, json: Tests.value(2))
        try await start.value
        #expect(shared.known(at: k0) != nil)
        lobby.stop()
        #expect(shared.known(at: k0) == nil)
        _ = item
    }

    @Test("a location's primitive after a resync, and an item's priority, as its parent shows them")
    func ownValue() async throws {
        let shared = SharedCache()
        let k1 = try Self.make("/rooms/lobby/k1", shared, query: DatabaseQuery())
        try await k1.receive(.put, at: .root, json: #"{"s": 1}"#)
        // A whole value over held children: compared away from the main actor.
        try await k1.receive(.put, at: .root, json: "7")
        let k2 = try Self.make("/rooms/lobby/k2", shared, query: DatabaseQuery())
        try await k2.receive(.put, at: .root, json: #"{"s": 2, ".priority": 5}"#)
        let lobby = try Self.make("/rooms/lobby", shared, query: DatabaseQuery())
        defer { lobby.stop() }
        _ = try await FirebaseCollectionCacheTests.startCached(lobby)
        #expect(lobby.view.shownChild(Key(unchecked: "k1"))?.value == .number(7))
        #expect(lobby.view.shownChild(Key(unchecked: "k2"))?.priority == Priority(.number(5)))
        #expect(Tests.keys(lobby) == ["k1", "k2"]) // no priority, then 5
        _ = (k1, k2)
    }

    @Test("a bounded query shares nothing; with credentials a shared cache needs a scope")
    func boundsAndScope() async throws {
        let shared = SharedCache()
        let bounded = try Self.make("/rooms", shared, query: DatabaseQuery(order: .key).starting(at: .string("a")))
        try await bounded.receive(.put, at: .root, json: #"{"lobby": {"k0": 1}}"#)
        #expect(shared.known(at: try DatabaseReference(url: "http://127.0.0.1:9", path: "/rooms/lobby")) == nil)
        let reference = try DatabaseReference(url: "http://127.0.0.1:9", path: "/rooms", credentials: .fixed(.idToken("t")))
        #expect(throws: DatabaseError.self) {
            try FirebaseCollection(reference: reference, dataSource: DecodingDataSource<RawChild>(), opener: .offline,
                                   sharedCache: SharedCache())
        }
        _ = try FirebaseCollection(reference: reference, dataSource: DecodingDataSource<RawChild>(), opener: .offline,
                                   sharedCache: SharedCache(scope: "user-1"))
    }

    @Test("a query changed and then stopped before its value: the view put back is not shared")
    func stoppedDuringQueryChange() async throws {
        let shared = SharedCache()
        let rooms = try Self.make("/rooms", shared, query: DatabaseQuery())
        _ = Task { try await rooms.start() }
        while rooms.status != .connecting { await Task.yield() }
        try await rooms.receive(.put, at: .root, json: #"{"lobby": {"k0": {"s": 0}}}"#)
        let lobby = try DatabaseReference(url: "http://127.0.0.1:9", path: "/rooms/lobby")
        #expect(shared.known(at: lobby) != nil)
        let change = Task { try await rooms.setQuery(DatabaseQuery(order: .key)) }
        while rooms.query != DatabaseQuery(order: .key) { await Task.yield() }
        rooms.stop()
        _ = await change.result
        #expect(rooms.query == DatabaseQuery())
        #expect(shared.known(at: lobby) == nil)
    }

    @Test("a window from a parent's whole value: the view holds the window alone; the first load is recorded after children")
    func window() async throws {
        let shared = SharedCache()
        let rooms = try await Self.rooms(shared)
        let top = try Self.make("/rooms/lobby", shared, query: DatabaseQuery(order: .child("s")).limited(toFirst: 2))
        defer { top.stop() }
        _ = try await FirebaseCollectionCacheTests.startCached(top)
        #expect(Tests.keys(top) == ["k0", "k1"])
        #expect(top.view.cache.count == 2)
        // Above items: children first, then the stream's value is the first load.
        let item = try Self.make("/halls/h/k1", shared, query: DatabaseQuery())
        try await item.receive(.put, at: .root, json: #"{"s": 1}"#)
        let hall = try Self.make("/halls/h", shared)
        defer { hall.stop() }
        let start = try await FirebaseCollectionCacheTests.startCached(hall)
        #expect(hall.firstLoad == nil)
        try await hall.receive(.put, at: .root, json: Tests.value(3))
        try await start.value
        #expect(hall.firstLoad != nil && Tests.keys(hall) == ["k0", "k1", "k2"])
        _ = (rooms, item)
    }

    @Test("with a disk cache: a whole shared value before the file, known children when there is no file")
    func withDiskCache() async throws {
        let shared = SharedCache()
        let item = try Self.make("/rooms/lobby/k1", shared, query: DatabaseQuery())
        try await item.receive(.put, at: .root, json: #"{"s": 1}"#)
        let disk = CollectionCache(directory: FirebaseCollectionCacheTests.directory())
        let lobby = try FirebaseCollection(reference: try DatabaseReference(url: "http://127.0.0.1:9", path: "/rooms/lobby"),
                                           query: DatabaseQuery(order: .child("s")), mode: .all,
                                           dataSource: DecodingDataSource<RawChild>(), opener: .offline, cache: disk,
                                           sharedCache: shared)
        defer { lobby.stop() }
        _ = try await FirebaseCollectionCacheTests.startCached(lobby)
        #expect(Tests.keys(lobby) == ["k1"])
        _ = item
    }

    @Test("a location's own value: a priority set below a primitive keeps it; the last child gone takes the priority")
    func ownValueEdges() throws {
        var own = OwnValue(try Snapshot.parse(json: "7"))
        own.change(at: [Key(unchecked: "a"), Key(unchecked: ".priority")], to: try Snapshot.parse(json: "1"))
        #expect(own.leaf?.value == .number(7))
        own.change(at: [Key(unchecked: ".priority")], to: try Snapshot.parse(json: "3"))
        #expect(own.leaf?.priority == Priority(.number(3)))
        own.change(at: [Key(unchecked: "a")], to: try Snapshot.parse(json: "1"))
        #expect(own.leaf == nil && own.priority == Priority(.number(3)))
        let view = QueryView(query: DatabaseQuery())
        _ = view.apply([([], try Snapshot.parse(json: #"{"a": 1, ".priority": 2}"#))], filtered: false)
        #expect(view.own.priority == Priority(.number(2)))
        _ = view.apply([([Key(unchecked: "a")], .absent(key: nil))], filtered: false)
        #expect(view.own.priority == nil)
    }

    @Test("a whole save of a bounded query holding children out of its range keeps those in range")
    func boundedSave() async throws {
        let disk = CollectionCache(directory: FirebaseCollectionCacheTests.directory())
        let query = DatabaseQuery(order: .child("s")).starting(at: .number(1))
        let c = try FirebaseCollection(reference: try DatabaseReference(url: "http://127.0.0.1:9", path: "/items"),
                                       query: query, mode: .all, dataSource: DecodingDataSource<RawChild>(),
                                       opener: .offline, cache: disk)
        try await c.receive(.put, at: .root, json: Tests.value(4))
        #expect(c.view.cache.count == 4 && Tests.keys(c) == ["k1", "k2", "k3"])
        try await c.saveCache()
        let read = try #require(disk.load(c.cacheIdentity, order: query.order))
        #expect(Set(read.payload.data.children.compactMap { $0.key?.string }) == ["k1", "k2", "k3"])
    }

    @Test("a collection's own unconfirmed writes are not shown by another")
    func ownWrites() async throws {
        let shared = SharedCache()
        let rooms = try await Self.rooms(shared)
        let view = rooms.view
        _ = view.applyLocal([([Key(unchecked: "lobby"), Key(unchecked: "k0")], Snapshot.absent(key: nil))], id: 99)
        #expect(view.shownChild(Key(unchecked: "lobby")).map { $0.childrenCount } == 2)
        let lobby = try Self.make("/rooms/lobby", shared)
        defer { lobby.stop() }
        _ = try await FirebaseCollectionCacheTests.startCached(lobby)
        #expect(Tests.keys(lobby) == ["k0", "k1", "k2"])
    }
}

@MainActor
@Suite("SharedCache against a live server")
struct SharedCacheServerTests {
    @Test("a second screen shows the lobby at once from the rooms' collection, as the server has it, then its own stream",
          .timeLimit(.minutes(5)))
    func secondScreen() async throws {
        try await withServer { server in
            try await streamWrite(server, "PUT", "/rooms", #"{"lobby": {"a": {"s": 2}, "b": {"s": 1}}, "attic": {"c": {"s": 0}}}"#)
            let shared = SharedCache()
            let open = StreamOpener.database(configuration: StreamLiveServerTests.fast)
            let rooms = try FirebaseCollection(reference: try streamReference(server, "/rooms"), mode: .all,
                                               dataSource: DecodingDataSource<RawChild>(), opener: open, sharedCache: shared)
            defer { rooms.stop() }
            try await rooms.start()
            // A change the rooms' stream brings.
            let (values, signal) = AsyncStream<Void>.makeStream()
            let observation = rooms.observeValue { signal.yield() }
            defer { observation.cancel() }
            try await streamWrite(server, "PATCH", "/rooms/lobby", #"{"c": {"s": 0}}"#)
            var iterator = values.makeAsyncIterator()
            while rooms.collection.models.first(where: { $0.identifier.string == "lobby" })?.dictionary["c"] == nil,
                  await iterator.next() != nil {}
            let lobby = try FirebaseCollection(reference: try streamReference(server, "/rooms/lobby"),
                                               query: DatabaseQuery(order: .child("s")), mode: .all,
                                               dataSource: DecodingDataSource<RawChild>(), opener: open, sharedCache: shared)
            defer { lobby.stop() }
            var seen: [(CollectionStatus, [String])] = []
            let statuses = lobby.observeStatus { seen.append(($0, lobby.collection.models.map(\.identifier.string))) }
            defer { statuses.cancel() }
            try await lobby.start()
            let cached = try #require(seen.first { $0.0 == .cached }, "\(seen)")
            #expect(cached.1 == ["c", "b", "a"])
            #expect(lobby.status == .live)
            #expect(lobby.collection.models.map(\.identifier.string) == ["c", "b", "a"])
        }
    }
}
