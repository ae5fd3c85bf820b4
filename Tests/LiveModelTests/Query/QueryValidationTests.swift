// QueryValidationTests.swift — which queries validated() accepts and which
// it refuses, and why.

import LiveModel
import Testing

@Suite struct QueryValidationTests {
    static let accepted: [(String, DatabaseQuery)] = [
        ("default", DatabaseQuery()),
        ("key order, string bounds", DatabaseQuery(order: .key).starting(at: "a").ending(before: "m")),
        ("key order, integer-looking key", DatabaseQuery(order: .key).equal(to: "007")),
        ("value order, every primitive", DatabaseQuery(order: .value).starting(at: false).ending(at: "z")),
        ("value order, null bound with tie-break", DatabaseQuery(order: .value).starting(after: nil, key: "k")),
        ("value order, number and tie-break", DatabaseQuery(order: .value).ending(before: 3.5, key: "0")),
        ("priority order, number, string and null", DatabaseQuery(order: .priority).starting(at: 1).ending(at: "b")),
        ("priority order, null", DatabaseQuery(order: .priority).equal(to: nil, key: "a")),
        ("child order, bool bound", DatabaseQuery(order: .child("a/b")).equal(to: true)),
        ("limit of one", DatabaseQuery(order: .child("score")).limited(toFirst: 1)),
        ("large limit", DatabaseQuery(order: .key).limited(toLast: 1_000_000)),
    ]

    static let refused: [(String, DatabaseQuery, String)] = [
        ("limit 0", DatabaseQuery(order: .key).limited(toFirst: 0), "at least 1"),
        ("negative limit", DatabaseQuery().limited(toLast: -3), "at least 1"),
        ("array bound", DatabaseQuery(order: .value).starting(at: [1, 2]), "null, a boolean, a number or a string"),
        ("object bound", DatabaseQuery(order: .child("a")).ending(at: ["x": 1]), "null, a boolean, a number or a string"),
        ("NaN bound", DatabaseQuery(order: .value).starting(at: .number(.nan)), "finite"),
        ("infinite bound", DatabaseQuery(order: .value).ending(at: .number(-.infinity)), "finite"),
        ("key order, number bound", DatabaseQuery(order: .key).starting(at: 3), "valid key string"),
        ("key order, null bound", DatabaseQuery(order: .key).ending(at: nil), "valid key string"),
        ("key order, invalid key", DatabaseQuery(order: .key).starting(at: "a/b"), "valid key string"),
        ("key order, empty key", DatabaseQuery(order: .key).starting(at: ""), "valid key string"),
        ("key order, tie-break", DatabaseQuery(order: .key).starting(at: "a", key: "b"), "no key tie-break"),
        ("priority order, boolean", DatabaseQuery(order: .priority).equal(to: true), "null, a number or a string"),
    ]

    @Test(arguments: accepted.indices)
    func accepts(_ index: Int) throws {
        let (name, query) = Self.accepted[index]
        #expect(try query.validated() == query, "\(name)")
    }

    @Test(arguments: refused.indices)
    func refuses(_ index: Int) {
        let (name, query, reason) = Self.refused[index]
        do {
            _ = try query.validated()
            Issue.record("\(name): accepted \(query)")
        } catch {
            #expect(error.reason.contains(reason), "\(name): \(error.reason)")
        }
    }

    @Test func descriptionNamesEveryPart() {
        let query = DatabaseQuery(order: .child("a/b")).starting(after: 3, key: "k").ending(at: "z").limited(toLast: 4)
        #expect(query.description == #"orderBy=a/b startAfter(3, key k) endAt("z") limitToLast(4)"#)
    }
}
