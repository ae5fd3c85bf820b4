// EquivalentKeysServerTests.swift — end to end against LiveServer: keys and
// member names that are canonically equivalent, written in one request, come
// back as distinct through REST, a stream and a collection.

import LiveCollection
@testable import LiveFirebase
import LiveModel
import LiveServer
import LiveTestSupport
import Testing

@MainActor
@Suite("Canonically equivalent keys against LiveServer", .serialized)
struct EquivalentKeysServerTests {
    static let names = EquivalentNames.all

    /// One child per name, each holding one member per name: `"i.j"`.
    static let body = EquivalentNames.objectText { i, _ in
        EquivalentNames.objectText { j, _ in "\"\(i).\(j)\"" }
    }

    /// What child `i` holds.
    static func expectedChild(_ i: Int) -> JSONValue {
        var value: JSONValue = [:]
        for (j, name) in names.enumerated() { value[name] = .string("\(i).\(j)") }
        return value
    }

    /// Checks that `value` is child `i`, every nested name apart.
    static func checkChild(_ value: JSONValue, _ i: Int, _ layer: String) {
        #expect(value.objectValue?.count == names.count, "\(layer): child \(EquivalentNames.scalars(names[i]))")
        #expect(value == expectedChild(i), "\(layer): child \(EquivalentNames.scalars(names[i]))")
    }

    /// The children's keys as bytes, to compare without String's equivalence.
    static func bytes(_ keys: some Sequence<Key>) -> Set<[UInt8]> { Set(keys.map { Array($0.string.utf8) }) }

    static var allBytes: Set<[UInt8]> { Set(names.map { Array($0.utf8) }) }

    @Test("REST GET reads every child and every nested member written in one PUT")
    func rest() async throws {
        try await withServer { server in
            try await streamWrite(server, "PUT", "/names", Self.body)
            let client = try restClient(server, path: "names")
            let snapshot = try await client.get()
            #expect(snapshot.childrenCount == Self.names.count)
            #expect(Self.bytes(snapshot.children.keys) == Self.allBytes)
            #expect(snapshot.value.objectValue?.count == Self.names.count)
            for (i, name) in Self.names.enumerated() {
                Self.checkChild(snapshot.child(try Key(name)).value, i, "REST snapshot")
                Self.checkChild(snapshot.value[name] ?? .null, i, "REST value")
                Self.checkChild(try await client.get(DatabasePath([Key(name)])).value, i, "REST child GET")
            }
        }
    }

    @Test("a stream delivers every child and nested member, in a put and in a patch", .timeLimit(.minutes(5)))
    func stream() async throws {
        try await withServer { server in
            try await streamWrite(server, "PUT", "/names", Self.body)
            let stream = DatabaseStream(reference: try streamReference(server, "/names"),
                                        configuration: StreamLiveServerTests.fast, logger: streamQuietLogger)
            var messages = await stream.start().makeAsyncIterator()
            var put: StreamPayload?
            while put == nil, let message = await messages.next() {
                if case .put(let payload) = message { put = payload }
            }
            let data = try #require(put?.data)
            #expect(data.childrenCount == Self.names.count)
            #expect(Self.bytes(data.children.keys) == Self.allBytes)
            for (i, name) in Self.names.enumerated() { Self.checkChild(data.child(try Key(name)).value, i, "stream put") }
            // A patch that names each member of one child by an equivalent path.
            let patch = EquivalentNames.objectText(Self.names.map { "\(Self.names[0])/\($0)" }) { j, _ in "\"p\(j)\"" }
            try await streamWrite(server, "PATCH", "/names", patch)
            var patched: StreamPayload?
            while patched == nil, let message = await messages.next() {
                if case .patch(let payload) = message { patched = payload }
            }
            let updates = try #require(patched?.updates)
            #expect(updates.count == Self.names.count)
            #expect(Set(updates.map { $0.path.keys.map { Array($0.string.utf8) } }).count == Self.names.count)
            for update in updates {
                let j = try #require(Self.names.firstIndex { Array($0.utf8) == Array(update.path.keys[1].string.utf8) })
                #expect(update.value.value == .string("p\(j)"))
            }
            await stream.stop()
        }
    }

    @Test("a collection keys every child apart and keeps each child's members apart", .timeLimit(.minutes(5)))
    func collection() async throws {
        try await withServer { server in
            try await streamWrite(server, "PUT", "/names", Self.body)
            let c = try FirebaseCollection(reference: try streamReference(server, "/names"), query: DatabaseQuery(order: .key),
                                           mode: .all, dataSource: DecodingDataSource<RawChild>(),
                                           opener: .database(configuration: StreamLiveServerTests.fast))
            let (values, signal) = AsyncStream<Void>.makeStream()
            let observation = c.observeValue { signal.yield() }
            defer { observation.cancel() }
            try await c.start()
            let models = c.collection.models
            #expect(models.count == Self.names.count)
            #expect(Self.bytes(models.map(\.identifier)) == Self.allBytes)
            #expect(models.map(\.identifier) == Self.names.map { Key(unchecked: $0) }.sorted())
            for model in models {
                let i = try #require(Self.names.firstIndex { Array($0.utf8) == Array(model.identifier.string.utf8) })
                Self.checkChild(model.dictionary, i, "collection")
            }
            // Remove one key of each group and change a member whose name
            // has equivalents, in one PATCH.
            let removed = EquivalentNames.groups.map { $0[1] }
            var patch: JSONValue = [:]
            for name in removed { patch[name] = .null }
            patch["\(Self.names[0])/\(Self.names[1])"] = "changed"
            try await streamWrite(server, "PATCH", "/names", patch.jsonText())
            var iterator = values.makeAsyncIterator()
            while c.collection.count != Self.names.count - removed.count, await iterator.next() != nil {}
            let left = Self.names.filter { name in !removed.contains { Array($0.utf8) == Array(name.utf8) } }
            #expect(Self.bytes(c.collection.models.map(\.identifier)) == Set(left.map { Array($0.utf8) }))
            let first = try #require(c.collection.models.first { $0.identifier == Key(unchecked: Self.names[0]) })
            var expected = Self.expectedChild(0)
            expected[Self.names[1]] = "changed"
            #expect(first.dictionary == expected)
            #expect(first.dictionary[Self.names[0]] == "0.0")
            c.stop()
        }
    }
}
