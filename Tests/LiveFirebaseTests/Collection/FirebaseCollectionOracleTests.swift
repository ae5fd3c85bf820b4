// FirebaseCollectionOracleTests.swift — a collection fed by hand (the
// location's whole data, as the REPL injects it) against a brute-force
// model of each query, limits included.

@testable import LiveFirebase
import LiveCollection
import LiveModel
import Testing

@MainActor
@Suite("FirebaseCollection fed by hand against a brute-force oracle")
struct FirebaseCollectionOracleTests {
    @Test("random injected puts and patches, deep paths included: the collection and its events show the query's result",
          arguments: 0..<QueryViewOracleTests.queries.count)
    func randomInjections(_ which: Int) async throws {
        let query = QueryViewOracleTests.queries[which]
        let seed = testSeed()
        var rng = SplitMix64(seed: seed)
        let c = try FirebaseCollection(reference: try DatabaseReference(url: "http://127.0.0.1:9", path: "/items"),
                                       query: query, mode: .live, dataSource: DecodingDataSource<RawChild>(),
                                       opener: .offline)
        var events: [ChildEvent] = []
        let observation = c.observeChildEvents { events.append($0) }
        defer { observation.cancel() }
        var oracle = QueryOracle()
        var mirror: [Key] = []
        for step in 0..<300 {
            let updates = Self.disjoint(QueryOracle.randomUpdate(&rng, first: step == 0))
            for (path, value) in updates { oracle.apply(path, value) }
            events.removeAll()
            if updates.count == 1 {
                try await c.receive(.put, at: DatabasePath(uncheckedKeys: updates[0].0), json: updates[0].1.jsonText())
            } else {
                let members = updates.map { path, value in
                    JSONValue.string(path.map(\.string).joined(separator: "/")).jsonText() + ": " + value.jsonText()
                }
                try await c.receive(.patch, at: .root, json: "{" + members.joined(separator: ", ") + "}")
            }
            // The events of one update, replayed together as a client would.
            QueryOracle.replay(events, on: &mirror)
            let expected = oracle.result(query)
            let shown = c.collection.models.map(\.identifier)
            #expect(shown == expected, "seed \(seed) step \(step) \(query) \(updates): collection \(shown) oracle \(expected)")
            #expect(mirror == expected, "seed \(seed) step \(step) \(query): events rebuilt \(mirror), oracle \(expected); \(events)")
            if shown != expected || mirror != expected { return }
        }
    }

    /// The updates without any whose path is at or below an earlier one's,
    /// or above it: a patch's members are applied in no set order.
    static func disjoint(_ updates: [([Key], JSONValue)]) -> [([Key], JSONValue)] {
        var kept: [([Key], JSONValue)] = []
        for update in updates where !kept.contains(where: { update.0.starts(with: $0.0) || $0.0.starts(with: update.0) }) {
            kept.append(update)
        }
        return kept
    }
}
