// QueryOracle.swift — a brute-force model of a Firebase query over a
// location's whole data, random updates to feed it, and a replay of child
// events on a list of keys, shared by the randomized view and collection
// tests.

@testable import LiveFirebase
import LiveModel

/// The location's children, as raw JSON values (priorities in export
/// format), and the query's result computed from them by sorting all.
struct QueryOracle {
    var data: [Key: JSONValue] = [:]

    /// The keys the query shows, in order.
    func result(_ query: DatabaseQuery) -> [Key] {
        let range = QueryRange(query)
        let inRange = data.compactMap { key, raw -> (SortValue, Key)? in
            let (value, priority) = Self.split(raw)
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

    static func split(_ raw: JSONValue) -> (JSONValue, Priority?) {
        guard case .object(var members) = raw, let p = members.removeValue(forKey: ".priority") else { return (raw, nil) }
        if let v = members[".value"] { return (v, Priority(p)) }
        return (.object(members), Priority(p))
    }

    /// Replaces the value at `path` (relative to the location); a path
    /// below a child that does not exist creates it.
    mutating func apply(_ path: [Key], _ value: JSONValue) {
        guard let key = path.first else {
            data = [:]
            for (name, child) in value.objectValue ?? [:] { data[Key(unchecked: name)] = child }
            return
        }
        let updated = (data[key] ?? .null).replacing(path.dropFirst(), with: value)
        // A child left with a priority and no value is gone, as in the database.
        if Self.split(updated).0.isAbsent {
            data.removeValue(forKey: key)
        } else {
            data[key] = updated
        }
    }

    // MARK: Random updates

    /// One random update: a whole value at `/` (always when `first`), a
    /// child, a removal, a deep change (below children that may not exist),
    /// or several of these as a patch (some below one child).
    static func randomUpdate(_ rng: inout SplitMix64, first: Bool) -> [([Key], JSONValue)] {
        func key() -> Key { Key(unchecked: "k\(Int.random(in: 0..<12, using: &rng))") }
        func number() -> JSONValue { .number(Double(Int.random(in: 0..<10, using: &rng))) }
        func child() -> JSONValue {
            var members: JSONObject = ["t": .string("x\(Int.random(in: 0..<3, using: &rng))")]
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: break
            case 1: members["s"] = .string("s\(Int.random(in: 0..<9, using: &rng))")
            case 2: members["s"] = .bool(Bool.random(using: &rng))
            default: members["s"] = number()
            }
            if Bool.random(using: &rng) { members[".priority"] = .number(Double(Int.random(in: 0..<5, using: &rng))) }
            return .object(members)
        }
        if first || Int.random(in: 0..<25, using: &rng) == 0 {
            var all: JSONObject = [:]
            for _ in 0..<Int.random(in: 0..<10, using: &rng) { all[key().string] = child() }
            return [([], .object(all))]
        }
        switch Int.random(in: 0..<11, using: &rng) {
        case 0..<4: return [([key()], child())]
        case 4..<5: return [([key()], .null)]
        case 5..<7: return [([key(), "s"], number())]
        case 7: return [([key(), "t"], .null)]
        case 8: // several paths below one child (which may not exist)
            let k = key()
            return [([k, "s"], number()), ([k, "t"], .string("x\(Int.random(in: 0..<3, using: &rng))"))]
        default: return (0..<Int.random(in: 1..<5, using: &rng)).map { _ in
            Bool.random(using: &rng) ? ([key()], child()) : ([key(), "s"], number())
        }
        }
    }

    // MARK: Replaying events

    /// Applies child events as a Firebase client would: removals, then each
    /// addition or move after its previous key (keys placed in this update
    /// first when they are the previous key of another).
    static func replay(_ events: [ChildEvent], on mirror: inout [Key]) {
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
