// FirebaseCollectionCacheTests.swift — a disk cache: a cache-first start in
// one batch, the server's value as the smallest change, files that are
// never torn, a bounded size.
import Foundation
@testable import LiveFirebase
import LiveModel
import LiveSections
import Testing

@MainActor
@Suite("FirebaseCollection's disk cache")
struct FirebaseCollectionCacheTests {
    typealias Tests = FirebaseCollectionSetQueryTests
    typealias Collection = Tests.Collection

    /// A new, empty directory.
    static func directory() -> String {
        let path = NSTemporaryDirectory() + "live-cache-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func make(_ cache: CollectionCache, _ query: DatabaseQuery = DatabaseQuery(order: .child("s")),
                     mode: LoadMode = .all) throws -> Collection {
        try FirebaseCollection(reference: try DatabaseReference(url: "http://127.0.0.1:9", path: "/items"), query: query,
                               mode: mode, dataSource: DecodingDataSource<RawChild>(), opener: .offline, cache: cache)
    }

    /// Saves `json` as what a collection of `query` held.
    static func saved(_ cache: CollectionCache, _ json: String,
                      _ query: DatabaseQuery = DatabaseQuery(order: .child("s"))) async throws {
        let c = try make(cache, query)
        try await c.receive(.put, at: .root, json: json)
        try await c.saveCache()
    }

    /// Starts `c` and returns once it shows its cached children.
    static func startCached(_ c: Collection) async throws -> Task<Void, any Error> {
        let start = Task { try await c.start() }
        while c.status != .cached {
            try #require(c.status == .connecting || c.status == .stopped, "\(c.status)")
            await Task.yield()
        }
        return start
    }

    @Test("started again: the cached children at once, in one batch, then the server's value as the smallest change",
          arguments: [LoadMode.all, .live])
    func cacheFirst(mode: LoadMode) async throws {
        let cache = CollectionCache(directory: Self.directory())
        try await Self.saved(cache, Tests.value(6))
        let c = try Self.make(cache, mode: mode)
        defer { c.stop() }
        let watched = WatchedSections(c.collection)
        let start = try await Self.startCached(c)
        #expect(Tests.keys(c) == ["k0", "k1", "k2", "k3", "k4", "k5"])
        #expect(watched.takeStages().count == 1)
        // The server's value: k2 changed, k5 gone, k6 new.
        try await c.receive(.put, at: .root, json: #"{"k0": {"s": 0, "g": 0}, "k1": {"s": 1, "g": 1}, "k2": {"s": 2, "g": 2, "t": 1}, "k3": {"s": 3, "g": 0}, "k4": {"s": 4, "g": 1}, "k6": {"s": 6, "g": 0}}"#)
        try await start.value
        #expect(c.status == .live)
        #expect(Tests.keys(c) == ["k0", "k1", "k2", "k3", "k4", "k6"])
        let stages = watched.takeStages()
        #expect(stages.count == 1, "\(stages)")
        let all = stages.flatMap { $0 }
        #expect(all.flatMap(\.reloadedRows).count == 1 && all.flatMap(\.deletedRows).count == 1
                && all.flatMap(\.insertedRows).count == 1, "\(stages)")
        #expect(watched.problem == nil, "\(watched.problem ?? "")")
    }

    @Test("another query, a file cut short, a torn write beside it, or none: nothing cached is shown")
    func misses() async throws {
        let cache = CollectionCache(directory: Self.directory())
        try await Self.saved(cache, Tests.value(3))
        let identity = cache.identity(try DatabaseReference(url: "http://127.0.0.1:9", path: "/items"),
                                                DatabaseQuery(order: .child("s")))
        let file = cache.path(for: identity)
        // Another query: its own file, which does not exist.
        #expect(cache.load(cache.identity(try DatabaseReference(url: "http://127.0.0.1:9", path: "/items"),
                                                    DatabaseQuery(order: .key)), order: .child("s")) == nil)
        // A write interrupted before its rename leaves the file as it was.
        try Data("{\"format\":1".utf8).write(to: URL(fileURLWithPath: file + ".tmp"))
        #expect(cache.load(identity, order: .child("s")) != nil)
        // A file cut short is not parsed into anything.
        let whole = try Data(contentsOf: URL(fileURLWithPath: file))
        try whole.prefix(whole.count - 5).write(to: URL(fileURLWithPath: file))
        #expect(await FirebaseCollection<DecodingDataSource<RawChild>>.readCache(cache, identity, .child("s")) == nil)
        let c = try Self.make(cache)
        defer { c.stop() }
        let start = Task { try await c.start() }
        for _ in 0..<100 { await Task.yield() }
        #expect(c.status == .connecting && c.collection.isEmpty)
        try await c.receive(.put, at: .root, json: Tests.value(2))
        try await start.value
        #expect(Tests.keys(c) == ["k0", "k1"])
    }

    @Test("changes are saved together once the interval has passed; stop saves at once")
    func savesCoalesced() async throws {
        let cache = CollectionCache(directory: Self.directory())
        let c = try Self.make(cache)
        let gate = AsyncStream<Void>.makeStream()
        c.cacheWait = { _ in for await _ in gate.stream { return } }
        let identity = c.cacheIdentity
        try await c.receive(.put, at: .root, json: Tests.value(3))
        try await c.receive(.put, at: DatabasePath("/k9"), json: #"{"s": 9}"#)
        #expect(cache.load(identity, order: .child("s")) == nil, "not before the interval")
        gate.continuation.yield()
        while c.cacheSave != nil { await Task.yield() }
        await c.lastCacheWrite?.value
        let saved = try #require(cache.load(identity, order: .child("s")))
        #expect(saved.payload.data.childrenCount == 4)
        try await c.receive(.put, at: DatabasePath("/k9"), json: "null")
        c.stop()
        await c.lastCacheWrite?.value
        #expect(try #require(cache.load(identity, order: .child("s"))).payload.data.childrenCount == 3)
        gate.continuation.finish()
    }

    @Test("only what the server confirmed is saved: not the cached children, not a new query's empty view")
    func savesConfirmedOnly() async throws {
        let cache = CollectionCache(directory: Self.directory())
        try await Self.saved(cache, Tests.value(6))
        let file = cache.path(for: cache.identity(try DatabaseReference(url: "http://127.0.0.1:9", path: "/items"),
                                                  DatabaseQuery(order: .child("s"))))
        let saved = try Data(contentsOf: URL(fileURLWithPath: file))
        let c = try Self.make(cache)
        let start = try await Self.startCached(c)
        try await c.saveCache()
        c.stop()
        await #expect(throws: DatabaseError.self) { try await start.value }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == saved, "the cached children were saved again")
        // A query change waiting for its value: nothing saved under its identity.
        let d = try Self.make(cache)
        try await d.receive(.put, at: .root, json: Tests.value(3))
        let change = await Tests.startSetQuery(d, DatabaseQuery(order: .key))
        d.stop()
        _ = try? await change.value
        await d.lastCacheWrite?.value
        #expect(cache.load(cache.identity(try DatabaseReference(url: "http://127.0.0.1:9", path: "/items"),
                                          DatabaseQuery(order: .key)), order: .child("s")) == nil)
    }

    @Test("a query set before anything loaded: the old query's cache read is not applied")
    func queryChangedWhileReading() async throws {
        let cache = CollectionCache(directory: Self.directory())
        try await Self.saved(cache, Tests.value(6))
        let c = try Self.make(cache)
        defer { c.stop() }
        var shown: [Int] = []
        let token = c.collection.observeUpdates { _ in shown.append(c.collection.count) }
        defer { token.cancel() }
        // Both on the main actor, in this order: the start begins reading
        // the cache, then the new query comes before the read is applied.
        let start = Task { @MainActor in try await c.start() }
        let change = Task { @MainActor in try await c.setQuery(DatabaseQuery(order: .key)) }
        while c.cacheLoad != nil || c.status != .connecting { await Task.yield() }
        try await c.receive(.put, at: .root, json: #"{"x": {"s": 1}}"#)
        try await change.value
        try await start.value
        #expect(Tests.keys(c) == ["x"])
        #expect(shown == [1], "the old query's cached children were shown: \(shown)")
    }

    @Test("refused by the server: the query's file is deleted")
    func refusedForgets() async throws {
        let cache = CollectionCache(directory: Self.directory())
        try await Self.saved(cache, Tests.value(2))
        let c = try Self.make(cache)
        let start = try await Self.startCached(c)
        // Ended as the stream would end it; stopped at the end, so that its
        // consumer ends too.
        let refused = c.stream
        defer { refused?.stop() }
        await c.receive(.ended(.permissionDenied("no")))
        await #expect(throws: DatabaseError.self) { try await start.value }
        #expect(cache.load(c.cacheIdentity, order: .child("s")) == nil)
    }

    @Test("scopes apart: one user's children are not read under another's scope")
    func scopes() async throws {
        let directory = Self.directory()
        try await Self.saved(CollectionCache(directory: directory, scope: "ada"), Tests.value(2))
        let other = CollectionCache(directory: directory, scope: "bob")
        let reference = try DatabaseReference(url: "http://127.0.0.1:9", path: "/items")
        #expect(other.load(other.identity(reference, DatabaseQuery(order: .child("s"))), order: .child("s")) == nil)
        let ada = CollectionCache(directory: directory, scope: "ada")
        #expect(ada.load(ada.identity(reference, DatabaseQuery(order: .child("s"))), order: .child("s")) != nil)
    }

    @Test("bounded: the least recently used files go first, the one just saved stays")
    func eviction() async throws {
        let directory = Self.directory()
        let big = CollectionCache(directory: directory)
        let queries = [DatabaseQuery(order: .child("s")), DatabaseQuery(order: .key), DatabaseQuery(order: .child("g"))]
        for query in queries { try await Self.saved(big, Tests.value(20), query) }
        let sizes = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".cache") }
        #expect(sizes.count == 3)
        let one = try FileManager.default.attributesOfItem(atPath: directory + "/" + sizes[0])[.size] as! Int
        // Room for two: saving a fourth query evicts the two oldest.
        let small = CollectionCache(directory: directory, limitBytes: 2 * one + one / 2)
        let reference = try DatabaseReference(url: "http://127.0.0.1:9", path: "/items")
        let oldest = small.path(for: small.identity(reference, queries[0]))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1)], ofItemAtPath: oldest)
        try await Self.saved(small, Tests.value(20), DatabaseQuery(order: .value))
        let left = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".cache") }
        #expect(left.count == 2)
        #expect(!FileManager.default.fileExists(atPath: oldest))
        #expect(FileManager.default.fileExists(atPath: small.path(for: small.identity(reference, DatabaseQuery(order: .value)))))
        // Not this cache's file: never deleted. A query too large alone: only its file goes.
        _ = FileManager.default.createFile(atPath: directory + "/notes.cache", contents: Data(count: 4 * one))
        let tiny = CollectionCache(directory: directory, limitBytes: one / 2)
        try await Self.saved(tiny, Tests.value(20), DatabaseQuery(order: .priority))
        #expect(!FileManager.default.fileExists(atPath: tiny.path(for: tiny.identity(reference, DatabaseQuery(order: .priority)))))
        let kept = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".cache") }
        #expect(kept.count == 3 && kept.contains("notes.cache"), "\(kept)")
    }
}
