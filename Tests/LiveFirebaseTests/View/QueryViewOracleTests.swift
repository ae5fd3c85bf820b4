// QueryViewOracleTests.swift — QueryView against a brute-force model of
// Firebase queries, with the child events replayed on a mirror.

@testable import LiveFirebase
import LiveModel
import Testing

@Suite("QueryView against a brute-force oracle")
struct QueryViewOracleTests {
    static let queries: [DatabaseQuery] = {
        let orders: [QueryOrder] = [.priority, .key, .value, .child(Path(uncheckedKeys: ["s"]))]
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
        var data: [Key: JSONValue] = [:] // the oracle: the location's children
        var mirror: [Key] = []
        for step in 0..<400 {
            let updates = randomUpdate(&rng, data, first: step == 0)
            for (path, value) in updates { apply(&data, path, value) }
            let events = view.apply(updates.map { ($0.0, snapshot($0.1, query.order)) }, filtered: false)
            replay(events, on: &mirror)
            let expected = oracle(query, data)
            let shown = view.visible.compactMap(\.key)
            #expect(shown == expected, "seed \(seed) step \(step) \(query): view \(shown) oracle \(expected)")
            #expect(mirror == expected, "seed \(seed) step \(step) \(query): events rebuilt \(mirror), oracle \(expected); \(events)")
            if shown != expected || mirror != expected { return }
        }
    }

    // MARK: The oracle

    private func oracle(_ query: DatabaseQuery, _ data: [Key: JSONValue]) -> [Key] {
        let range = QueryRange(query)
        let inRange = data.compactMap { key, raw -> (SortValue, Key)? in
            let (value, priority) = split(raw)
            let sv = query.order.sortValue(of: value, priority: priority)
            return range.contains(sv, key) ? (sv, key) : nil
        }.sorted { a, b in
            let c = SortValue.compare(a.0, b.0)
            return c != 0 ? c < 0 : a.1 < b.1
        }.map(\.1)
        switch query.limit {
        case .first(let n)?: return Array(inRange.prefix(n))
        case .last(let n)?: return Array(inRange.suffix(n))
        case nil: return inRange
        }
    }

    private func split(_ raw: JSONValue) -> (JSONValue, Priority?) {
        guard case .object(var members) = raw, let p = members.removeValue(forKey: ".priority") else { return (raw, nil) }
        if let v = members[".value"] { return (v, Priority(p)) }
        return (.object(members), Priority(p))
    }

    private func apply(_ data: inout [Key: JSONValue], _ path: [Key], _ value: JSONValue) {
        guard let key = path.first else {
            data = [:]
            for (name, child) in value.objectValue ?? [:] { data[Key(unchecked: name)] = child }
            return
        }
        let updated = (data[key] ?? .null).replacing(path.dropFirst(), with: value)
        // A child left with a priority and no value is gone, as in the database.
        if split(updated).0.isAbsent {
            data.removeValue(forKey: key)
        } else {
            data[key] = updated
        }
    }

    // MARK: Random updates

    private func randomUpdate(_ rng: inout SplitMix64, _ data: [Key: JSONValue], first: Bool) -> [([Key], JSONValue)] {
        func key() -> Key { Key(unchecked: "k\(Int.random(in: 0..<12, using: &rng))") }
        func child() -> JSONValue {
            var members: JSONObject = ["t": .string("x\(Int.random(in: 0..<3, using: &rng))")]
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: break
            case 1: members["s"] = .string("s\(Int.random(in: 0..<9, using: &rng))")
            case 2: members["s"] = .bool(Bool.random(using: &rng))
            default: members["s"] = .number(Double(Int.random(in: 0..<10, using: &rng)))
            }
            if Bool.random(using: &rng) { members[".priority"] = .number(Double(Int.random(in: 0..<5, using: &rng))) }
            return .object(members)
        }
        if first || Int.random(in: 0..<25, using: &rng) == 0 {
            var all = JSONObject()
            for _ in 0..<Int.random(in: 0..<10, using: &rng) { all[key().string] = child() }
            return [([], .object(all))]
        }
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<4: return [([key()], child())]
        case 4..<5: return [([key()], .null)]
        case 5..<7: return [([key(), "s"], .number(Double(Int.random(in: 0..<10, using: &rng))))]
        case 7: return [([key(), "t"], .null)]
        default: return (0..<Int.random(in: 1..<5, using: &rng)).map { _ in
            Bool.random(using: &rng) ? ([key()], child()) : ([key(), "s"], .number(Double(Int.random(in: 0..<10, using: &rng))))
        }
        }
    }

    private func snapshot(_ value: JSONValue, _ order: QueryOrder) -> Snapshot {
        (try? Snapshot.parse(json: value.jsonText(), order: order)) ?? .absent(key: nil)
    }

    /// Applies child events as a Firebase client would: removals, then each
    /// addition or move after its previous key (keys placed in this update
    /// first when they are the previous key of another).
    private func replay(_ events: [ChildEvent], on mirror: inout [Key]) {
        var pending: [ChildEvent] = []
        for event in events {
            switch event.kind {
            case .removed: mirror.removeAll { $0 == event.key }
            case .moved:
                mirror.removeAll { $0 == event.key }
                pending.append(event)
            case .added: pending.append(event)
            case .changed: break
            }
        }
        while !pending.isEmpty {
            guard let i = pending.firstIndex(where: { e in e.previousKey.map { mirror.contains($0) } ?? true }) else { return }
            let event = pending.remove(at: i)
            let at = event.previousKey.flatMap { p in mirror.firstIndex(of: p).map { $0 + 1 } } ?? 0
            mirror.insert(event.key, at: at)
        }
    }
}
