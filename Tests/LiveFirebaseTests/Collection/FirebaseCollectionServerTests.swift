// FirebaseCollectionServerTests.swift — end to end against LiveServer:
// random writes through REST while a collection listens; the collection
// ends equal to the server's own answer to the query, also with the stream
// dropped, cut mid-event and redirected.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LiveCollection
@testable import LiveFirebase
import LiveModel
import LiveServer
import Testing

@MainActor
@Suite("FirebaseCollection against LiveServer", .serialized)
struct FirebaseCollectionServerTests {
    nonisolated static let queries: [DatabaseQuery] = [
        DatabaseQuery(order: .child("s")),
        DatabaseQuery(order: .child("s")).limited(toFirst: 5),
        DatabaseQuery(order: .child("s")).starting(at: .number(3), key: "k5").limited(toLast: 4),
        DatabaseQuery(order: .key).starting(after: .string("k2")).ending(at: .string("k8")),
        DatabaseQuery(order: .value).ending(before: .number(6)).limited(toFirst: 3),
        DatabaseQuery(order: .priority).limited(toLast: 3),
        DatabaseQuery(order: .child("s")).equal(to: .number(4)),
    ]

    nonisolated static let faults: [[StreamFault]] = [[], [.dropAfter(events: 7)], [.dropMidEvent(afterEvents: 5)]]

    @Test("random writes: the collection equals the server's query result, in order",
          arguments: queries.indices, faults.indices)
    func randomWrites(_ which: Int, _ faultIndex: Int) async throws {
        let query = Self.queries[which]
        let seed = testSeed()
        var rng = SplitMix64(seed: seed)
        let server = try await LiveServer.start(LiveServerConfiguration())
        do {
            let client = DatabaseClient(try DatabaseReference(url: server.url, path: "/items"))
            for i in 0..<10 { try await client.set(randomChild(&rng), at: DatabasePath([Key(i)])) }
            let fast = StreamConfiguration(keepAliveTimeout: .seconds(5), initialBackoff: .milliseconds(20),
                                           maxBackoff: .milliseconds(200))
            let c = try FirebaseCollection(reference: try DatabaseReference(url: server.url, path: "/items"),
                                           query: query, mode: .all, dataSource: DecodingDataSource<RawChild>(),
                                           opener: .database(configuration: fast))
            let recorder = CollectionRecorder()
            let token = c.collection.addObserver(recorder)
            defer { token.cancel() }
            try await c.start()
            server.setFaults(Self.faults[faultIndex])
            var adds = 0
            for _ in 0..<40 {
                let key = Key(Int.random(in: 0..<14, using: &rng))
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: try await client.remove(at: DatabasePath([key]))
                case 1: try await client.set(.number(Double(Int.random(in: 0..<9, using: &rng))), at: DatabasePath([key, "s"]))
                case 2:
                    let other = Key((Int(key.string)! + 1 + Int.random(in: 0..<12, using: &rng)) % 14)
                    try await client.update([DatabasePath([key]): randomChild(&rng), DatabasePath([other]): .null])
                default: try await client.set(randomChild(&rng), at: DatabasePath([key])); adds += 1
                }
            }
            server.setFaults([])
            // Settled: every key in place and every value current. Keys
            // alone can be in place while a value's event is still on its way.
            let expected = try await serverAnswer(server, query)
            let values = try await serverValues(server)
            var settled = false
            for _ in 0..<1000 where !settled {
                settled = holds(c.collection, expected, values)
                if !settled { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(settled, "seed \(seed) \(query): collection \(c.collection.models.map(\.identifier)) server \(expected)")
            for model in c.collection.models {
                #expect(model.dictionary == values[model.identifier], "seed \(seed): \(model.identifier) is stale")
            }
            // No reload: never more insertions than children ever written.
            let inserted = recorder.batches.map(\.inserted.count).reduce(0, +)
                + recorder.log.filter { $0.hasPrefix("insert") }.count
            #expect(inserted <= 10 + adds + 14, "seed \(seed): \(inserted) insertions look like a reload")
            c.stop()
        } catch {
            try? await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }

    // MARK: Support

    private func randomChild(_ rng: inout SplitMix64) -> JSONValue {
        var members: JSONObject = ["t": .string("x\(Int.random(in: 0..<3, using: &rng))")]
        if Int.random(in: 0..<4, using: &rng) > 0 { members["s"] = .number(Double(Int.random(in: 0..<9, using: &rng))) }
        if Bool.random(using: &rng) { members[".priority"] = .number(Double(Int.random(in: 0..<4, using: &rng))) }
        if Int.random(in: 0..<5, using: &rng) == 0 { return .number(Double(Int.random(in: 0..<9, using: &rng))) }
        return .object(members)
    }
}
