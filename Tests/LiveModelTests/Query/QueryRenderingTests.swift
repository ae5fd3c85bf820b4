// QueryRenderingTests.swift — a query written as REST parameters: JSON-encoded
// values, the superset sent for what the REST API cannot express; and read
// back by the server's reading of parameters.

import LiveModel
import Testing

@Suite struct QueryRenderingTests {
    static let cases: [(DatabaseQuery, [String])] = [
        (DatabaseQuery(), []),
        (DatabaseQuery(order: .key), [#"orderBy="$key""#]),
        (DatabaseQuery(order: .value), [#"orderBy="$value""#]),
        (DatabaseQuery(order: .child("a/b")), [#"orderBy="a/b""#]),
        (DatabaseQuery().limited(toFirst: 2), [#"orderBy="$priority""#, "limitToFirst=2"]),
        (DatabaseQuery(order: .child("s")).starting(at: 3).limited(toFirst: 2),
         [#"orderBy="s""#, "startAt=3", "limitToFirst=2"]),
        (DatabaseQuery(order: .child("s")).ending(at: 2.5).limited(toLast: 7),
         [#"orderBy="s""#, "endAt=2.5", "limitToLast=7"]),
        // Exclusive bounds and tie-breaks: the inclusive bound of the value,
        // and no limit (the client applies both).
        (DatabaseQuery(order: .child("s")).starting(after: 3).limited(toFirst: 2), [#"orderBy="s""#, "startAt=3"]),
        (DatabaseQuery(order: .value).ending(before: "m").limited(toLast: 2), [#"orderBy="$value""#, #"endAt="m""#]),
        (DatabaseQuery(order: .value).starting(at: true, key: "k").limited(toFirst: 1),
         [#"orderBy="$value""#, "startAt=true"]),
        (DatabaseQuery(order: .priority).equal(to: nil, key: "k"), [#"orderBy="$priority""#, "startAt=null", "endAt=null"]),
        (DatabaseQuery(order: .key).equal(to: "k").limited(toFirst: 1),
         [#"orderBy="$key""#, #"startAt="k""#, #"endAt="k""#, "limitToFirst=1"]),
        (DatabaseQuery(order: .value).starting(at: "a\"b\\c"), [#"orderBy="$value""#, #"startAt="a\"b\\c""#]),
        (DatabaseQuery(order: .value).starting(at: "é"), [#"orderBy="$value""#, #"startAt="é""#]),
    ]

    @Test(arguments: cases.indices)
    func parameters(_ index: Int) {
        let (query, expected) = Self.cases[index]
        #expect(query.restParameters.map { "\($0.name)=\($0.value)" } == expected, "\(query)")
    }

    /// What a client writes, a server reads back: the same query when the
    /// REST API can express its bounds, else the superset the client asks
    /// for (inclusive bounds of the same values, no limit).
    @Test func writtenThenRead() throws {
        let seed = testSeed("Query parameters written then read")
        var rng = SplitMix64(seed: seed)
        let orders: [QueryOrder] = [.priority, .key, .value, .child("a"), .child("a/b")]
        let values: [JSONValue] = [nil, false, true, -1, 0, 2.5, 1e300, "", "a", "é", "😀", "a\"b", "7"]
        let keys: [Key?] = [nil, "k", "007", "😀"]
        for round in 0..<500 {
            let order = orders[Int(rng.next() % UInt64(orders.count))]
            func bound() -> DatabaseQuery.Bound? {
                guard rng.next() % 3 != 0 else { return nil }
                if order == .key {
                    let key = ["a", "7", "007", "é"][Int(rng.next() % 4)]
                    return .init(value: .string(key), isInclusive: rng.next() % 2 == 0)
                }
                let value = values[Int(rng.next() % UInt64(values.count))]
                return .init(value: value, key: keys[Int(rng.next() % UInt64(keys.count))], isInclusive: rng.next() % 2 == 0)
            }
            var query = DatabaseQuery(order: order, start: bound(), end: bound())
            switch rng.next() % 3 {
            case 0: query.limit = .first(Int(rng.next() % 50) + 1)
            case 1: query.limit = .last(Int(rng.next() % 50) + 1)
            default: break
            }
            guard (try? query.validated()) != nil else { continue }
            var parameters: [String: String] = [:]
            for (name, value) in query.restParameters { parameters[name] = value }
            let read = try DatabaseQuery(parameters: parameters) ?? DatabaseQuery()
            var expected = query
            if !query.serverAppliesLimit {
                expected.limit = nil
                expected.start = query.start.map { .init(value: $0.value) }
                expected.end = query.end.map { .init(value: $0.value) }
            }
            #expect(read == expected, "seed \(seed) round \(round): \(query) written as \(parameters)")
        }
    }
}
