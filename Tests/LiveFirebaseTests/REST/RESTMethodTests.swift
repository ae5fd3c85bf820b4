// RESTMethodTests.swift — get, set, update, push and remove against a
// LiveServer on loopback.

import Foundation
@testable import LiveFirebase
import LiveModel
import LiveServer
import Testing

@Suite struct RESTMethodTests {
    @Test func setThenGetRoundTrips() async throws {
        try await withServer { server in
            let client = try restClient(server)
            let values: [JSONValue] = [
                true, 42, -0.5, "text with \"quotes\" and é", ["a": 1, "b": ["c": "d"]], ["x": [1, 2, 3]],
            ]
            for (i, value) in values.enumerated() {
                try await client.set(value, at: try DatabasePath([Key("v"), Key(i)]))
            }
            for (i, value) in values.enumerated() {
                let snapshot = try await client.get(try DatabasePath([Key("v"), Key(i)]))
                #expect(snapshot.exists)
                #expect(snapshot.key == Key(i))
                // Arrays come back as objects keyed by index.
                if case .object(let members) = value, case .array(let elements)? = members["x"] {
                    let expected: JSONValue = ["x": .object(JSONObject(uniqueKeysWithValues:
                        elements.enumerated().map { (String($0.offset), $0.element) }))]
                    #expect(snapshot.value == expected)
                } else {
                    #expect(snapshot.value == value)
                }
            }
            let absent = try await client.get("nothing/here")
            #expect(!absent.exists)
            #expect(absent.key == "here")
            let root = try await client.get()
            #expect(root.key == nil)
            #expect(root.child("v").childrenCount == values.count)
        }
    }

    @Test func pathsAreRelativeToTheReference() async throws {
        try await withServer { server in
            let client = try restClient(server, path: "/rooms/lobby")
            try await client.set("hello", at: "topic")
            let raw = try await restRawGet(server, "/rooms/lobby/topic", parameters: [])
            #expect(raw.value == "hello")
            #expect(try await client.get().child("topic").value == "hello")
        }
    }

    @Test func prioritiesAreWrittenAndRead() async throws {
        try await withServer { server in
            let client = try restClient(server)
            try await client.set(["name": "a"], priority: .number(3), at: "list/one")
            try await client.set("leaf", priority: .string("p"), at: "list/two")
            try await client.set(["plain": true], at: "list/three")
            let list = try await client.get("list")
            #expect(list.child("one").priority == .number(3))
            #expect(list.child("one").value == ["name": "a"])
            #expect(list.child("two").priority == .string("p"))
            #expect(list.child("two").value == "leaf")
            #expect(list.child("three").priority == nil)
            // Default (priority) order lists them by priority.
            #expect(list.orderedChildren().compactMap(\.key?.string) == ["three", "one", "two"])
            try await client.set(["name": "a"], priority: nil, at: "list/one")
            #expect(try await client.get("list/one").priority == nil)
        }
    }

    @Test func updateWritesSeveralPathsAtOnce() async throws {
        try await withServer { server in
            let client = try restClient(server)
            try await client.set(["a": 1, "b": ["c": 2, "d": 3], "f": "keep"], at: "doc")
            try await client.update(["b/c": 20, "e": "x", "a": nil, "g/h/i": true], at: "doc")
            #expect(try await client.get("doc").value
                == ["b": ["c": 20, "d": 3], "e": "x", "f": "keep", "g": ["h": ["i": true]]])
            // Overlapping paths are refused by the server, and nothing changes.
            await #expect(throws: DatabaseError.self) {
                try await client.update(["b": 1, "b/c": 2], at: "doc")
            }
            #expect(try await client.get("doc/b/c").value == 20)
            // The location itself cannot be a key.
            do {
                try await client.update([.root: 1], at: "doc")
                Issue.record("an update of the root path was sent")
            } catch let error as DatabaseError {
                guard case .invalidValue = error else { throw error }
            }
            try await client.update([:], at: "doc")
        }
    }

    @Test func pushAddsChildrenInOrder() async throws {
        try await withServer { server in
            let client = try restClient(server)
            var keys: [Key] = []
            for i in 0..<5 { keys.append(try await client.push(["n": .number(Double(i))], at: "messages")) }
            #expect(Set(keys).count == 5)
            #expect(keys == keys.sorted())
            let messages = try await client.get("messages", query: DatabaseQuery(order: .key))
            #expect(messages.orderedChildren().compactMap(\.key) == keys)
            #expect(messages.child(keys[2]).value == ["n": 2])
        }
    }

    @Test func removeDeletesAndRemovingNothingSucceeds() async throws {
        try await withServer { server in
            let client = try restClient(server)
            try await client.set(["a": 1, "b": 2], at: "doc")
            try await client.remove(at: "doc/a")
            #expect(try await client.get("doc").value == ["b": 2])
            try await client.remove(at: "doc/a")
            try await client.remove(at: "doc")
            #expect(!(try await client.get("doc").exists))
            try await client.set(1, at: "x")
            try await client.set(nil, at: "x")
            #expect(!(try await client.get("x").exists))
        }
    }

    @Test func shallowGetListsKeys() async throws {
        try await withServer { server in
            let client = try restClient(server)
            try await client.set(["a": ["deep": ["deeper": 1]], "b": 2, "c": "x"], at: "doc")
            let shallow = try await client.getShallow("doc")
            #expect(shallow.value == ["a": true, "b": true, "c": true])
            #expect(Set(shallow.children.keys) == ["a", "b", "c"])
            #expect(try await client.getShallow("doc/c").value == "x")
            #expect(!(try await client.getShallow("none").exists))
        }
    }

    @Test func serverValuesAreResolved() async throws {
        try await withServer { server in
            let client = try restClient(server)
            try await client.set(["at": [".sv": "timestamp"], "n": 5], at: "doc")
            try await client.update(["n": [".sv": ["increment": 2]]], at: "doc")
            let doc = try await client.get("doc")
            #expect((doc.child("at").value.numberValue ?? 0) > 1_600_000_000_000)
            #expect(doc.child("n").value == 7)
        }
    }

    @Test func oddKeysSurviveTheRoundTrip() async throws {
        try await withServer { server in
            let client = try restClient(server)
            let names = ["a b", "a+b", "100%", "k&v", "k=v", "q?", "é", "😀", "~-_", "\"'<>\\`{}|^", "@:!*()", "-0", "007"]
            for (i, name) in names.enumerated() {
                try await client.set(.number(Double(i)), at: try DatabasePath([Key("odd"), Key(name)]))
            }
            for (i, name) in names.enumerated() {
                #expect(try await client.get(try DatabasePath([Key("odd"), Key(name)])).value == .number(Double(i)), "\(name)")
            }
            let all = try await client.get("odd")
            #expect(Set(all.children.keys.map(\.string)) == Set(names))
        }
    }

    @Test func canonicallyEquivalentKeysStayDistinct() async throws {
        try await withServer { server in
            let client = try restClient(server)
            try await client.set("composed", at: try DatabasePath([Key("pair"), Key("é")]))
            try await client.set("decomposed", at: try DatabasePath([Key("pair"), Key("e\u{301}")]))
            #expect(try await client.get(try DatabasePath([Key("pair"), Key("é")])).value == "composed")
            #expect(try await client.get(try DatabasePath([Key("pair"), Key("e\u{301}")])).value == "decomposed")
            let decomposed = try await client.get(try DatabasePath([Key("pair"), Key("e\u{301}")]))
            #expect(decomposed.key == Key("e\u{301}"))
            #expect(decomposed.key != Key("é"))
        }
    }

    @Test func valuesTheDatabaseCannotStoreAreRefusedBeforeSending() async throws {
        let transport = RESTFakeTransport(RESTFakeAnswer(status: 200, body: "null"))
        let client = DatabaseClient(try DatabaseReference(url: "https://db.example.com"), transport: transport)
        let bad: [(JSONValue, String)] = [
            (.number(.nan), "not finite"), (["a": ["b": .number(.infinity)]], "/a/b"),
            (["a.b": 1], "'.'"), (["ok": ["x/y": 1]], "/ok"), (["": 1], "empty"), ([["$": 1]], "/0"),
        ]
        for (value, reason) in bad {
            do {
                try await client.set(value, at: "x")
                Issue.record("\(value) was accepted")
            } catch {
                guard case .invalidValue(let message) = error else {
                    Issue.record("\(value): \(error)")
                    continue
                }
                #expect(message.contains(reason), "\(message)")
            }
        }
        await #expect(throws: DatabaseError.self) { try await client.push(.number(.nan)) }
        await #expect(throws: DatabaseError.self) { try await client.update(["a": ["#": 1]]) }
        #expect(transport.requests.isEmpty)
        // Special members are allowed.
        try await client.set([".value": 1, ".priority": "p"], at: "x")
        #expect(transport.requests.count == 1)
    }

    @Test func theServersRefusalIsReportedWithItsMessage() async throws {
        try await withServer { server in
            let client = try restClient(server)
            do {
                try await client.set(["x": [".sv": "bogus"]], at: "doc")
                Issue.record("the server accepted an unknown server value")
            } catch let error as DatabaseError {
                guard case .http(let status, let message, let url) = error else { throw error }
                #expect(status == 400)
                #expect(!message.isEmpty)
                #expect(url.hasPrefix(server.url + "/doc.json"))
            }
        }
    }

    @Test func updateKeepsMemberNamesExactly() async throws {
        let transport = RESTFakeTransport(RESTFakeAnswer(status: 204))
        let client = DatabaseClient(try DatabaseReference(url: "https://db.example.com"), transport: transport)
        try await client.update([try DatabasePath([Key("é")]): 1, try DatabasePath([Key("e\u{301}")]): 2, "a/b c": 3], at: "doc")
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "PATCH")
        #expect(request.url?.absoluteString.hasPrefix("https://db.example.com/doc.json?") == true)
        let body = try #require(request.httpBody)
        // Compared as bytes: String comparison would merge the two names.
        func contains(_ member: String) -> Bool { [UInt8](body).firstRange(of: Array(member.utf8)) != nil }
        #expect(contains("\"é\":1"))
        #expect(contains("\"e\u{301}\":2"))
        #expect(contains("\"a/b c\":3"))
        #expect(!contains("\"e\u{301}\":1"))
    }
}
