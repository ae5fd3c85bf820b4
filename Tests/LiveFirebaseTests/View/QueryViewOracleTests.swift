// QueryViewOracleTests.swift — QueryView against a brute-force model of
// Firebase queries, with the child events replayed on a mirror.

@testable import LiveFirebase
import LiveModel
import Testing

@Suite("QueryView against a brute-force oracle")
struct QueryViewOracleTests {
    static let queries: [DatabaseQuery] = {
        let orders: [QueryOrder] = [.priority, .key, .value, .child(DatabasePath(uncheckedKeys: ["s"]))]
        var out: [DatabaseQuery] = []
        for order in orders {
            let base = DatabaseQuery(order: order)
            let v: JSONValue = order == .key ? .string("k3") : .number(3)
            let w: JSONValue = order == .key ? .string("k7") : .number(7)
            let key: Key? = order == .key ? nil : "k4"
            out += [base, base.limited(toFirst: 3), base.limited(toLast: 4),
                    base.starting(at: v, key: key), base.starting(after: v).ending(before: w),
                    base.starting(at: v).ending(at: w, key: key).limited(toFirst: 2),
                    base.equal(to: v, key: key), base.ending(at: w).limited(toLast: 2)]
        }
        return out
    }()

    @Test("random puts, patches and deep changes: the view shows the query's result, and its events rebuild it",
          arguments: 0..<queries.count)
    func randomUpdates(_ which: Int) throws {
        let query = Self.queries[which]
        let seed = testSeed()
        var rng = SplitMix64(seed: seed)
        let view = QueryView(query: query)
        var oracle = QueryOracle()
        var mirror: [Key] = []
        for step in 0..<400 {
            let updates = QueryOracle.randomUpdate(&rng, first: step == 0)
            for (path, value) in updates { oracle.apply(path, value) }
            let events = view.apply(updates.map { ($0.0, snapshot($0.1, query.order)) }, filtered: false)
            QueryOracle.replay(events, on: &mirror)
            let expected = oracle.result(query)
            let shown = view.visible.compactMap(\.key)
            #expect(shown == expected, "seed \(seed) step \(step) \(query): view \(shown) oracle \(expected)")
            #expect(mirror == expected, "seed \(seed) step \(step) \(query): events rebuilt \(mirror), oracle \(expected); \(events)")
            if shown != expected || mirror != expected { return }
        }
    }

    static func text(_ events: [ChildEvent]) -> [String] {
        events.map { "\($0.kind.rawValue) \($0.key) \($0.previousKey?.string ?? "-") \($0.snapshot.value)" }
    }

    @Test("resyncs: whole values that keep most children raise events for the changed ones only, compared in place or away from the view",
          arguments: 0..<queries.count)
    func resyncs(_ which: Int) throws {
        let query = Self.queries[which]
        let seed = testSeed()
        var rng = SplitMix64(seed: seed)
        let view = QueryView(query: query)
        // The same updates, each whole value compared away from the view
        // (planned) and applied with only what changed.
        let planned = QueryView(query: query)
        var oracle = QueryOracle()
        var mirror: [Key] = []
        for step in 0..<200 {
            let before = oracle
            var updates = QueryOracle.randomUpdate(&rng, first: step == 0)
            for (path, value) in updates { oracle.apply(path, value) }
            if step % 3 == 2 {
                // The whole location again, with this step's changes.
                var all: JSONObject = [:]
                for (key, value) in oracle.data { all[key.string] = value }
                updates = [([], .object(all))]
            }
            let parsed = updates.map { ($0.0, snapshot($0.1, query.order)) }
            let events = view.apply(parsed, filtered: false)
            let plannedEvents: [ChildEvent]
            if parsed.count == 1, parsed[0].0.isEmpty, planned.canPlanWhole {
                let plan = QueryView.planWhole(parsed[0].1, held: planned.cache, version: planned.version)
                plannedEvents = try #require(planned.applyPlanned(plan, filtered: false))
            } else {
                plannedEvents = planned.apply(parsed, filtered: false)
            }
            #expect(Self.text(plannedEvents) == Self.text(events), "seed \(seed) step \(step) \(query): planned")
            #expect(planned.visible.compactMap(\.key) == view.visible.compactMap(\.key), "seed \(seed) step \(step)")
            QueryOracle.replay(events, on: &mirror)
            let expected = oracle.result(query)
            #expect(view.visible.compactMap(\.key) == expected, "seed \(seed) step \(step) \(query)")
            #expect(mirror == expected, "seed \(seed) step \(step) \(query): \(events)")
            if step % 3 == 2, query.limit == nil {
                // Only the children this step changed raise events (with a
                // limit, others may also enter or leave the window).
                let changed = Set(oracle.data.keys.filter { oracle.data[$0] != before.data[$0] })
                    .union(before.data.keys.filter { oracle.data[$0] == nil })
                #expect(events.allSatisfy { changed.contains($0.key) }, "seed \(seed) step \(step) \(query): \(events)")
            }
        }
    }

    private func snapshot(_ value: JSONValue, _ order: QueryOrder) -> Snapshot {
        (try? Snapshot.parse(json: value.jsonText(), order: order)) ?? .absent(key: nil)
    }
}
