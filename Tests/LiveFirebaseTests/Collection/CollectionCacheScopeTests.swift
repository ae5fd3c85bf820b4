// CollectionCacheScopeTests.swift — a cache is one user's: a scope is needed
// with credentials, another scope never sees the children or the queued
// writes, and purge() forgets one user (sign-out).
import Foundation
@testable import LiveFirebase
import LiveModel
import Testing

@MainActor
@Suite("CollectionCache scopes")
struct CollectionCacheScopeTests {
    typealias Collection = FirebaseCollection<DecodingDataSource<RawChild>>

    static func make(_ gate: WriteGate, _ cache: CollectionCache, token: String?) throws -> Collection {
        let credentials: Credentials = token.map { .fixed(.idToken($0)) } ?? .none
        return try FirebaseCollection(reference: try DatabaseReference(url: "http://127.0.0.1:9", path: "/items",
                                                                        credentials: credentials),
                                      query: DatabaseQuery(order: .child("s")), mode: .live,
                                      dataSource: DecodingDataSource<RawChild>(), opener: .offline, cache: cache,
                                      writer: gate.sender)
    }

    @Test("with credentials, a cache needs a scope")
    func scopeNeeded() throws {
        let directory = FirebaseCollectionCacheTests.directory()
        #expect(throws: DatabaseError.self) { try Self.make(WriteGate(), CollectionCache(directory: directory), token: "a") }
        _ = try Self.make(WriteGate(), CollectionCache(directory: directory), token: nil)
        _ = try Self.make(WriteGate(), CollectionCache(directory: directory, scope: "alice"), token: "a")
    }

    @Test("one user's queued writes and children never reach another; purge() forgets one user only")
    func scopesApart() async throws {
        let directory = FirebaseCollectionCacheTests.directory()
        let alice = CollectionCache(directory: directory, scope: "alice")
        let bob = CollectionCache(directory: directory, scope: "bob")
        let gate = WriteGate()
        do {
            let a = try Self.make(gate, alice, token: "token-a")
            try await a.receive(.put, at: .root, json: #"{"x": {"s": 1}}"#)
            try await a.saveCache()
            a.goOffline()
            try a.write(.set("/mine", ["s": 2]))
            a.stop()
        }
        do {
            let b = try Self.make(gate, bob, token: "token-b")
            #expect(b.pendingWrites.isEmpty, "alice's writes are not bob's")
            try await b.receive(.put, at: .root, json: #"{"y": {"s": 3}}"#)
            try await b.saveCache()
            b.stop()
        }
        #expect(gate.sent.isEmpty)
        do {
            let a = try Self.make(gate, alice, token: "token-a")
            #expect(a.pendingWrites == [1], "alice's writes wait for alice")
            #expect(throws: DatabaseError.self, "a queue held by an open collection is not deleted") { try alice.purge() }
            a.stop()
        }
        #expect(try alice.purge() == 2, "alice's children and queue")
        #expect(try Self.make(gate, alice, token: "token-a").pendingWrites.isEmpty)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".cache") }
        #expect(left.count == 1, "bob's children stay: \(left)")
        #expect(try bob.purge() == 1)
    }
}
