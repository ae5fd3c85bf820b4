import Testing
import LiveModel
@testable import LiveServer

/// Random queries over random children, checked against ``QueryOracle``.
@Suite("DatabaseQuery windows, differential")
struct QueryDifferentialTests {
    /// Keys near the boundaries of key order: integer keys, their
    /// look-alikes, and strings.
    static let keys = ["0", "1", "2", "7", "007", "-1", "-0", "10", "12", "2147483647", "2147483648", "-2147483649",
                       "a", "aa", "ab", "b", "B", "_", "~", "z9", "\u{E9}", "\u{1F600}", "\u{FF61}", "k 1"]
    static let numbers: [Double] = [-2, -0.5, 0, 1, 1.5, 2, 10]
    static let strings = ["", "a", "A", "b", "ab", "10", "\u{1F600}", "\u{FF61}"]
    static let orders = ["$key", "$value", "$priority", "a", "b/c"]

    struct Draw {
        var rng: SplitMix64

        mutating func pick<T>(_ values: [T]) -> T { values.randomElement(using: &rng)! }
        mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

        mutating func primitive(allowNull: Bool = true, allowBool: Bool = true) -> JSONValue {
            let roll = Int.random(in: 0..<10, using: &rng)
            if roll == 0, allowNull { return .null }
            if roll <= 2, allowBool { return .bool(chance(0.5)) }
            if roll <= 5 { return .number(pick(QueryDifferentialTests.numbers)) }
            return .string(pick(QueryDifferentialTests.strings))
        }

        mutating func priority() -> JSONValue? {
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: return nil
            case 1: return .number(pick(QueryDifferentialTests.numbers))
            default: return .string(pick(QueryDifferentialTests.strings))
            }
        }

        /// A child as request JSON: a primitive, or an object that may hold
        /// `a` and `b/c`, maybe with a priority.
        mutating func child() -> JSONValue {
            var members = JSONObject()
            if chance(0.4) {
                let value = primitive(allowNull: false)
                guard let priority = priority() else { return value }
                return .object([".value": value, ".priority": priority])
            }
            if chance(0.7) { members["a"] = chance(0.15) ? .object(["x": 1]) : primitive() }
            if chance(0.5) { members["b"] = chance(0.7) ? .object(["c": primitive()]) : primitive(allowNull: false) }
            members["other"] = .number(1)
            if let priority = priority() { members[".priority"] = priority }
            return .object(members)
        }

        mutating func node() -> JSONValue {
            var members = JSONObject()
            for _ in 0..<Int.random(in: 0...20, using: &rng) {
                members[pick(QueryDifferentialTests.keys)] = child()
            }
            return .object(members)
        }

        mutating func spec() -> QuerySpec {
            let orderBy = pick(QueryDifferentialTests.orders)
            var spec = QuerySpec(orderBy: orderBy)
            func boundValue(_ draw: inout Draw) -> JSONValue {
                switch orderBy {
                case "$key": return .string(draw.chance(0.8) ? draw.pick(QueryDifferentialTests.keys) : "a.b")
                case "$priority": return draw.primitive(allowBool: false)
                default: return draw.primitive()
                }
            }
            func boundKey(_ draw: inout Draw) -> String? {
                orderBy != "$key" && draw.chance(0.5) ? draw.pick(QueryDifferentialTests.keys) : nil
            }
            if chance(0.2) {
                spec.bounds["equalTo"] = (boundValue(&self), boundKey(&self))
            } else {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: spec.bounds["startAt"] = (boundValue(&self), boundKey(&self))
                case 1: spec.bounds["startAfter"] = (boundValue(&self), boundKey(&self))
                default: break
                }
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: spec.bounds["endAt"] = (boundValue(&self), boundKey(&self))
                case 1: spec.bounds["endBefore"] = (boundValue(&self), boundKey(&self))
                default: break
                }
            }
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: spec.limit = ("limitToFirst", Int.random(in: 0...6, using: &rng))
            case 1: spec.limit = ("limitToLast", Int.random(in: 0...6, using: &rng))
            default: break
            }
            return spec
        }
    }

    @Test func randomQueriesMatchTheOracle() throws {
        let seed = storeTestSeed("QueryDifferentialTests")
        var draw = Draw(rng: SplitMix64(seed: seed))
        var checked = 0
        var nonEmpty = 0
        var kinds: Set<String> = []
        for round in 0..<300 {
            let body = draw.node()
            let node = try DataNode(json: body)
            for _ in 0..<10 {
                let spec = draw.spec()
                let query = try #require(try DatabaseQuery(parameters: spec.parameters),
                                         "seed \(seed), round \(round): \(spec)")
                let actual = query.window(of: node).map(\.key)
                let expected = QueryOracle.window(spec, of: node)
                #expect(actual == expected, """
                    seed \(seed), round \(round): \(spec)
                    data \(node)
                    got      \(actual.map(\.string))
                    expected \(expected.map(\.string))
                    """)
                let json = query.json(of: node, export: true)
                for export in [false, true] {
                    #expect(try JSONValue(parsingUTF8: JSONTextChunksTests.joined(query.text(of: node, export: export), size: 64).text)
                        == query.json(of: node, export: export), "seed \(seed), round \(round): \(spec)")
                }
                #expect(Set(json.objectValue?.keys.map { $0 } ?? []) == Set(expected.map(\.string)),
                        "seed \(seed), round \(round): \(spec)")
                checked += 1
                if !expected.isEmpty { nonEmpty += 1 }
                kinds.insert(spec.orderBy)
                for (name, bound) in spec.bounds { kinds.insert(name + (bound.key == nil ? "" : "Key")) }
                if let limit = spec.limit { kinds.insert(limit.name) }
            }
        }
        #expect(checked >= 2_000)
        // The draw reaches every kind of order, bound and limit, and many
        // windows are not empty.
        #expect(kinds.count == 5 + 10 + 2, "\(kinds.sorted())")
        #expect(nonEmpty > checked / 3, "seed \(seed): only \(nonEmpty) of \(checked) windows not empty")
    }
}
