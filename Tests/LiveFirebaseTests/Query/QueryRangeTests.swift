// QueryRangeTests.swift — QueryRange.contains against a brute-force reading
// of Firebase's rules on random children, and LiveServer's window of the
// same query (its order and limit over the server's nodes) against both.

@testable import LiveFirebase
import LiveModel
import struct LiveServer.DataNode
import Testing

@Suite struct QueryRangeTests {
    @Test(arguments: SplitMix64.testSeeds)
    func matchesOracles(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var checked = 0
        for round in 0..<150 {
            let children = RESTQueryFixtures.children(using: &rng)
            let node = try DataNode(json: .object(JSONObject(uniqueKeysWithValues:
                children.map { ($0.key.string, $0.exportJSON) })))
            for order in RESTQueryFixtures.orders {
                var query = RESTQueryFixtures.query(order, children: children, using: &rng)
                query.limit = nil
                try #require(try query.validated() == query)
                let range = QueryRange(query)
                let kept = Set(query.window(of: node).map(\.key))
                for child in children {
                    let sortValue = order.sortValue(of: child.value, priority: child.priority)
                    let contains = range.contains(sortValue, child.key)
                    let expected = Self.bruteForce(query, sortValue, child.key)
                    #expect(contains == expected,
                            "seed \(seed) round \(round): \(query) child \(child.key) sorting as \(sortValue)")
                    #expect(contains == kept.contains(child.key),
                            "seed \(seed) round \(round): \(query) child \(child.key) against LiveServer")
                    checked += 1
                }
            }
        }
        #expect(checked > 1000)
    }

    @Test func everyBoundKindWithAndWithoutTieBreak() {
        // Children valued 1 keyed a, b, c; and one valued 2 keyed a.
        let children: [(SortValue, Key)] = [(.number(1), "a"), (.number(1), "b"), (.number(1), "c"), (.number(2), "a")]
        func kept(_ query: DatabaseQuery) -> [String] {
            let range = QueryRange(query)
            return children.filter { range.contains($0.0, $0.1) }.map { "\($0.0)\($0.1)" }
        }
        let q = DatabaseQuery(order: .value)
        #expect(kept(q.starting(at: 1)) == ["1a", "1b", "1c", "2a"])
        #expect(kept(q.starting(after: 1)) == ["2a"])
        #expect(kept(q.ending(at: 1)) == ["1a", "1b", "1c"])
        #expect(kept(q.ending(before: 1)) == [])
        #expect(kept(q.equal(to: 1)) == ["1a", "1b", "1c"])
        #expect(kept(q.starting(at: 1, key: "b")) == ["1b", "1c", "2a"])
        #expect(kept(q.starting(after: 1, key: "b")) == ["1c", "2a"])
        #expect(kept(q.ending(at: 1, key: "b")) == ["1a", "1b"])
        #expect(kept(q.ending(before: 1, key: "b")) == ["1a"])
        #expect(kept(q.equal(to: 1, key: "b")) == ["1b"])
        #expect(kept(q.starting(after: 1, key: "c")) == ["2a"])
        #expect(kept(q.ending(before: 2, key: "a")) == ["1a", "1b", "1c"])
        // Under key order the bound is the key itself.
        let byKey = DatabaseQuery(order: .key)
        let keys: [Key] = ["1", "7", "007", "10", "a"]
        func keptKeys(_ query: DatabaseQuery) -> [String] {
            let range = QueryRange(query)
            return keys.filter { range.contains(.null, $0) }.map(\.string)
        }
        #expect(keptKeys(byKey.starting(after: "7")) == ["007", "10", "a"])
        #expect(keptKeys(byKey.ending(before: "10")) == ["1", "7", "007"])
        #expect(keptKeys(byKey.equal(to: "007")) == ["007"])
        #expect(keptKeys(byKey.starting(at: "8").ending(at: "b")) == ["10", "a"])
    }

    @Test func aQueryThatWasNotValidatedStillAnswers() {
        // A non-string bound under key order is refused by validated(); the
        // range still answers, comparing the bound as a value: children
        // under key order carry no value (null), which sorts before any
        // number, so starting at 3 keeps no key and ending at 3 keeps all.
        let keys: [Key] = ["a", "3", "-1"]
        let from3 = QueryRange(DatabaseQuery(order: .key).starting(at: 3))
        #expect(keys.filter { from3.contains(.null, $0) } == [])
        let upTo3 = QueryRange(DatabaseQuery(order: .key).ending(at: 3))
        #expect(keys.filter { upTo3.contains(.null, $0) } == keys)
    }

    /// Firebase's rules, read literally: a child is after a lower bound (or
    /// before an upper one) by value; at an equal value, by key when the
    /// bound has a tie-break, else every child of that value is in for an
    /// inclusive bound and out for an exclusive one.
    static func bruteForce(_ query: DatabaseQuery, _ value: SortValue, _ key: Key) -> Bool {
        func passes(_ bound: DatabaseQuery.Bound, lower: Bool) -> Bool {
            if query.order == .key {
                let boundKey = Key(unchecked: bound.value.stringValue!)
                if key == boundKey { return bound.isInclusive }
                return lower ? boundKey < key : key < boundKey
            }
            let boundValue = SortValue(bound.value)
            if value < boundValue { return !lower }
            if boundValue < value { return lower }
            guard let boundKey = bound.key else { return bound.isInclusive }
            if key == boundKey { return bound.isInclusive }
            return lower ? boundKey < key : key < boundKey
        }
        return (query.start.map { passes($0, lower: true) } ?? true) && (query.end.map { passes($0, lower: false) } ?? true)
    }
}
