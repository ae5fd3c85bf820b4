// RESTQueryTests.swift — queries through the REST client compared with the
// server's own answer to the same query in its exact extension parameters
// (startAfter, endBefore, …Key tie-breaks), which the client does not use.

import Foundation
@testable import LiveFirebase
import LiveModel
import LiveServer
import Testing

@Suite struct RESTQueryTests {
    /// The query in the server's extension parameters: every bound as
    /// itself, tie-breaks as `…Key`, equal bounds as `equalTo`.
    static func exactParameters(_ query: DatabaseQuery) -> [(name: String, value: String)] {
        var items: [(name: String, value: String)] = [("orderBy", JSONValue.string(query.order.description).jsonText())]
        func add(_ name: String, _ bound: DatabaseQuery.Bound) {
            items.append((name, bound.value.jsonText()))
            if let key = bound.key { items.append((name + "Key", JSONValue.string(key.string).jsonText())) }
        }
        if let start = query.start, let end = query.end, start == end, start.isInclusive {
            add("equalTo", start)
        } else {
            if let start = query.start { add(start.isInclusive ? "startAt" : "startAfter", start) }
            if let end = query.end { add(end.isInclusive ? "endAt" : "endBefore", end) }
        }
        switch query.limit {
        case .first(let n)?: items.append(("limitToFirst", String(n)))
        case .last(let n)?: items.append(("limitToLast", String(n)))
        case nil: break
        }
        items.append(("format", "export"))
        return items
    }

    @Test(arguments: SplitMix64.testSeeds)
    func randomQueriesMatchTheServer(seed: UInt64) async throws {
        try await withServer { server in
            let client = try restClient(server)
            var rng = SplitMix64(seed: seed)
            for dataset in 0..<4 {
                let children = RESTQueryFixtures.children(max: 24, using: &rng)
                try await client.set(.object(JSONObject(uniqueKeysWithValues: children.map { ($0.key.string, $0.exportJSON) })),
                                     at: "q")
                for order in RESTQueryFixtures.orders {
                    for _ in 0..<8 {
                        let query = RESTQueryFixtures.query(order, children: children, using: &rng)
                        let got = try await client.get("q", query: query)
                        let expected = try await restRawGet(server, "q", parameters: Self.exactParameters(query), order: order)
                        #expect(RESTSnapshotSummary(got) == RESTSnapshotSummary(expected),
                                "seed \(seed) dataset \(dataset): \(query)")
                        for child in got.children {
                            #expect(child.sortValue == order.sortValue(of: child.value, priority: child.priority),
                                    "seed \(seed): \(query) child \(child.key?.string ?? "?")")
                        }
                    }
                }
            }
        }
    }

    /// Children valued 1 keyed a…e, and a few around them.
    static let ties: JSONValue = ["a": 1, "b": 1, "c": 1, "d": 1, "e": 1, "z": 0, "y": 2, "x": "s"]

    static let tieCases: [(DatabaseQuery, [String])] = [
        (DatabaseQuery(order: .value).starting(after: 1), ["y", "x"]),
        (DatabaseQuery(order: .value).starting(after: 1, key: "b").limited(toFirst: 2), ["c", "d"]),
        (DatabaseQuery(order: .value).ending(before: 1, key: "c").limited(toLast: 2), ["a", "b"]),
        (DatabaseQuery(order: .value).equal(to: 1, key: "d"), ["d"]),
        (DatabaseQuery(order: .value).starting(at: 1, key: "c").ending(at: 1, key: "d"), ["c", "d"]),
        (DatabaseQuery(order: .value).ending(before: 1).limited(toLast: 3), ["z"]),
        (DatabaseQuery(order: .value).starting(at: 1).limited(toFirst: 3), ["a", "b", "c"]),
        (DatabaseQuery(order: .value).limited(toLast: 2), ["y", "x"]),
        (DatabaseQuery(order: .key).starting(after: "c").ending(before: "y"), ["d", "e", "x"]),
        (DatabaseQuery(order: .value).starting(after: "s"), []),
    ]

    @Test(arguments: tieCases.indices)
    func tieBreaksAndExclusiveBounds(_ index: Int) async throws {
        let (query, expected) = Self.tieCases[index]
        try await withServer { server in
            let client = try restClient(server)
            try await client.set(Self.ties, at: "t")
            let got = try await client.get("t", query: query)
            #expect(got.orderedChildren().compactMap(\.key?.string) == expected, "\(query)")
            #expect(got.exists == !expected.isEmpty)
            #expect(got.key == "t")
        }
    }

    @Test func theClientSendsOnlyWhatTheRESTAPIKnows() async throws {
        try await withServer { server in
            let transport = RESTRecordingTransport()
            let client = try restClient(server, transport: transport)
            try await client.set(Self.ties, at: "t")
            _ = try await client.get("t", query: DatabaseQuery(order: .value).starting(after: 1, key: "b").limited(toFirst: 2))
            let url = try #require(transport.requests.last?.url?.absoluteString)
            #expect(url.contains("orderBy=%22%24value%22"))
            #expect(url.contains("startAt=1"))
            #expect(url.contains("format=export"))
            for name in ["startAfter", "startAtKey", "limitToFirst"] { #expect(!url.contains(name), "\(url)") }
        }
    }

    @Test func anInvalidQueryIsRefusedBeforeSending() async throws {
        let transport = RESTFakeTransport(RESTFakeAnswer(status: 200, body: "null"))
        let client = DatabaseClient(try DatabaseReference(url: "https://db.example.com"), transport: transport)
        do {
            _ = try await client.get("x", query: DatabaseQuery(order: .key).starting(at: 1))
            Issue.record("an invalid query was sent")
        } catch {
            guard case .invalidQuery = error else { throw error }
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func theClientWindowsAFakeServersSuperset() async throws {
        // A server that ignores the query entirely: the client still
        // returns exactly the query's children, priorities and nested data
        // as sent.
        let body = #"{"a":{".value":1,".priority":5},"b":1,"c":{"deep":{"é":1,"e\u0301":2}},"d":[1,null,3],"#
            + #""e":null,".priority":"root"}"#
        let transport = RESTFakeTransport(RESTFakeAnswer(status: 200, body: body))
        let client = DatabaseClient(try DatabaseReference(url: "https://db.example.com"), transport: transport)
        let byKey = try await client.get("list", query: DatabaseQuery(order: .key).starting(after: "a").limited(toFirst: 2))
        #expect(byKey.orderedChildren().compactMap(\.key?.string) == ["b", "c"])
        #expect(byKey.priority == nil)
        let deep = byKey.child("c").child("deep")
        #expect(Set(deep.children.keys) == [Key("é"), Key("e\u{301}")])
        let byValue = try await client.get("list", query: DatabaseQuery(order: .value).ending(before: 1, key: "b"))
        #expect(byValue.orderedChildren().compactMap(\.key?.string) == ["a"])
        #expect(byValue.child("a").priority == .number(5))
        let objects = try await client.get("list", query: DatabaseQuery(order: .value).starting(after: 1).limited(toLast: 1))
        #expect(objects.orderedChildren().compactMap(\.key?.string) == ["d"])
        #expect(objects.child("d").value == ["0": 1, "2": 3])
        let none = try await client.get("list", query: DatabaseQuery(order: .value).ending(before: false, key: "a"))
        #expect(!none.exists)
        #expect(none.key == "list")
    }
}
